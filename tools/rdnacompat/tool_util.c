/* SPDX-License-Identifier: MIT */
/*
 * tool_util.c — helpers shared by the tool's subcommands (see tool_util.h):
 * string buffer, allocation, small-file reading, shipped-file lookup.
 */
#include "tool_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/fileopen.h"

static void oom(void)
{
	fputs("rdnacompat: out of memory\n", stderr);
	exit(70);
}

void *rdc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *rdc_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom();
	return q;
}

char *rdc_xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		oom();
	return p;
}

void rdc_sb_addn(struct rdc_sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = rdc_xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void rdc_sb_add(struct rdc_sbuf *b, const char *s)
{
	rdc_sb_addn(b, s, strlen(s));
}

void rdc_sb_printf(struct rdc_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *tmp = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	rdc_sb_addn(b, tmp, (size_t)n);
	free(tmp);
}

void rdc_sb_free(struct rdc_sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

const char *rdc_sb_str(const struct rdc_sbuf *b)
{
	return b->s ? b->s : "";
}

char *rdc_rooted(const char *root, const char *path)
{
	struct rdc_sbuf b = { 0 };
	if (root && *root) {
		rdc_sb_add(&b, root);
		while (b.len > 1 && b.s[b.len - 1] == '/')
			b.s[--b.len] = '\0';
	}
	rdc_sb_add(&b, path);
	return b.s;
}

FILE *rdc_fopen_input(const char *path, struct rdc_diag *d)
{
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, d);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "r");
	if (!f) {
		rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

char *rdc_read_file(const char *path, size_t max, size_t *len)
{
	/* System files (sysfs, procfs, /etc) may be symlinks; never a FIFO. */
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, NULL);
	if (fd < 0)
		return NULL;
	struct rdc_sbuf b = { 0 };
	rdc_sb_add(&b, "");
	char buf[4096];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			rdc_sb_free(&b);
			return NULL;
		}
		if (n == 0)
			break;
		size_t take = (size_t)n;
		if (b.len + take > max)
			take = max - b.len;
		rdc_sb_addn(&b, buf, take);
		if (b.len >= max)
			break;
	}
	close(fd);
	if (len)
		*len = b.len;
	return b.s;
}

char *rdc_trim(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

char *rdc_read_line_file(const char *path)
{
	char *s = rdc_read_file(path, 1 << 16, NULL);
	if (!s)
		return NULL;
	char *t = rdc_trim(s);
	memmove(s, t, strlen(t) + 1);
	return s;
}

/* Where the files that ship with the tool are looked up from: the directory
 * of the running executable (from /proc/self/exe), except that the full
 * tool, installed as <prefix>/libexec/rdnacompat/rdnacompat-tool and run by
 * the front end <prefix>/bin/rdnacompat (tools/front/), looks from
 * <prefix>/bin as the front end does; caller frees. */
static char *exe_dir(void)
{
	static const char tool_dir[] = "/libexec/rdnacompat";
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	size_t len = (size_t)(slash - buf), tl = sizeof tool_dir - 1;
	if (len >= tl && !strcmp(buf + len - tl, tool_dir)) {
		struct rdc_sbuf b = { 0 };
		rdc_sb_printf(&b, "%.*s/bin", (int)(len - tl), buf);
		return b.s;
	}
	return rdc_xstrdup(buf[0] ? buf : "/");
}

char *rdc_find_shipped(const char *envvar, const char *const *rel)
{
	const char *e = envvar ? getenv(envvar) : NULL;
	if (e && *e) {
		char *r = realpath(e, NULL);
		return r;
	}
	char *dir = exe_dir();
	if (!dir)
		return NULL;
	for (size_t i = 0; rel[i]; i++) {
		struct rdc_sbuf b = { 0 };
		rdc_sb_printf(&b, "%s/%s", dir, rel[i]);
		char *r = realpath(b.s, NULL);
		rdc_sb_free(&b);
		if (r) {
			free(dir);
			return r;
		}
	}
	free(dir);
	return NULL;
}

char *rdc_tables_dir(void)
{
	static const char *const rel[] = { "../../tables", "../share/rdnacompat/tables", NULL };
	return rdc_find_shipped("RDNACOMPAT_TABLES_DIR", rel);
}

char *rdc_shim_path(void)
{
	static const char *const rel[] = { "../librdnacompat.so", "../lib/librdnacompat.so",
					   RDC_MULTIARCH_REL("librdnacompat.so"), NULL };
	return rdc_find_shipped("RDNACOMPAT_SHIM", rel);
}

bool rdc_is_help(const char *arg)
{
	return arg && (!strcmp(arg, "-h") || !strcmp(arg, "--help"));
}
