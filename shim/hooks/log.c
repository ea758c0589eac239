/* SPDX-License-Identifier: MIT */
/*
 * log.c — the one logger.  Every line goes out in a single write(2) to
 * stderr or RDNACOMPAT_LOG_FILE (opened at the first line, so processes
 * that log nothing create nothing; O_APPEND|O_CLOEXEC, mode 0600, never
 * following a symlink, never a FIFO or socket, never another user's file,
 * never on fds 0-2), never to stdout; errno is saved and restored; levels
 * error|warn|info|debug; text or JSON lines (RDNACOMPAT_LOG_FORMAT=json).
 *
 * Text:  rdnacompat[1234]: info: map: lib=librocsparse.so.0 bundle=3 ...
 * JSON:  {"pid":1234,"level":"info","event":"map","lib":"librocsparse.so.0",...}
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/fileopen.h"

#include "shim.h"

pthread_mutex_t rdc_log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = 2;
static char log_path[512];               /* RDNACOMPAT_LOG_FILE, "" for stderr */
static int log_state = 1;                /* 0: log_path not opened yet */
static enum rdc_level log_level = RDC_LOG_WARN;
static bool log_json;

static const char *const lvl_name[] = { "error", "warn", "info", "debug" };

void rdc_log_open(const struct rdc_config *cfg)
{
	log_level = cfg->level;
	log_json = cfg->json;
	snprintf(log_path, sizeof log_path, "%s", cfg->log_file);
	log_state = log_path[0] ? 0 : 1;
}

/* Is `fd` the same open file as the process's stdout?  The log never goes
 * there (RDNACOMPAT_LOG_FILE=/dev/pts/N of the terminal, say). */
static bool is_stdout(int fd)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && fstat(1, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino && a.st_rdev == b.st_rdev;
}

/* Called under rdc_log_lock before the first line: open RDNACOMPAT_LOG_FILE
 * (rdc_open_file: a FIFO, socket or symlink cannot block or redirect it;
 * regular files and character devices only; never the process's stdout;
 * never at fds 0-2).  A new file is made 0600 (the lines name libraries,
 * paths and decisions); an existing regular file another user owns is
 * refused (audit 2026-12-03 L3: in a shared directory, another user's
 * pre-made file received them).  On failure the lines go to stderr, after one line
 * saying why. */
static void open_lazily(void)
{
	log_state = 1;
	struct rdc_diag d = { 0 };
	int fd = rdc_open_file(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600,
			       RDC_OPEN_REG | RDC_OPEN_CHR | RDC_OPEN_OWNED, &d);
	if (fd >= 0 && is_stdout(fd)) {
		close(fd);
		fd = -1;
		rdc_diag_set(&d, RDC_E_IO, RDC_NO_OFFSET, "%s: is the process's standard output", log_path);
	}
	if (fd >= 0 && fd < 3) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (hi < 0)
			rdc_diag_set(&d, RDC_E_IO, RDC_NO_OFFSET, "%s: %s", log_path, strerror(errno));
		close(fd);
		fd = hi;
	}
	if (fd >= 0) {
		log_fd = fd;
		return;
	}
	char line[sizeof d.msg + 128];
	int n = snprintf(line, sizeof line,
			 "rdnacompat[%d]: warn: cannot open RDNACOMPAT_LOG_FILE %s (logging to stderr)\n",
			 (int)getpid(), d.msg);
	if (n > 0)
		(void)!write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

bool rdc_log_enabled(enum rdc_level lvl)
{
	return lvl <= log_level;
}

/* Append s to buf at *pos (bounded), escaping for JSON or quoting for text. */
static void put(char *buf, size_t n, size_t *pos, const char *s)
{
	size_t len = strlen(s);
	if (*pos < n) {
		size_t room = n - *pos - 1;
		size_t k = len < room ? len : room;
		memcpy(buf + *pos, s, k);
		buf[*pos + k] = 0;
	}
	*pos += len;
}

static void put_val(char *buf, size_t n, size_t *pos, const char *v, bool json)
{
	bool quote = json || v[0] == 0 || strpbrk(v, " \t\"=") != NULL;
	if (quote)
		put(buf, n, pos, "\"");
	for (const char *p = v; *p; p++) {
		char tmp[8];
		unsigned char ch = (unsigned char)*p;
		if (ch == '"' || ch == '\\') {
			tmp[0] = '\\'; tmp[1] = (char)ch; tmp[2] = 0;
		} else if (ch < 0x20) {
			snprintf(tmp, sizeof tmp, json ? "\\u%04x" : "\\x%02x", ch);
		} else {
			tmp[0] = (char)ch; tmp[1] = 0;
		}
		put(buf, n, pos, tmp);
	}
	if (quote)
		put(buf, n, pos, "\"");
}

size_t rdc_log_format(char *buf, size_t n, bool json, int pid, enum rdc_level lvl,
		      const char *event, const struct rdc_kv *kv, size_t nkv)
{
	size_t pos = 0;
	char num[48];
	if (n)
		buf[0] = 0;
	if (json) {
		snprintf(num, sizeof num, "{\"pid\":%d,\"level\":", pid);
		put(buf, n, &pos, num);
		put_val(buf, n, &pos, lvl_name[lvl], true);
		put(buf, n, &pos, ",\"event\":");
		put_val(buf, n, &pos, event, true);
		for (size_t i = 0; i < nkv; i++) {
			put(buf, n, &pos, ",");
			put_val(buf, n, &pos, kv[i].k, true);
			put(buf, n, &pos, ":");
			if (kv[i].v) {
				put_val(buf, n, &pos, kv[i].v, true);
			} else {
				snprintf(num, sizeof num, "%lld", kv[i].n);
				put(buf, n, &pos, num);
			}
		}
		put(buf, n, &pos, "}\n");
	} else {
		snprintf(num, sizeof num, "rdnacompat[%d]: ", pid);
		put(buf, n, &pos, num);
		put(buf, n, &pos, lvl_name[lvl]);
		put(buf, n, &pos, ": ");
		put(buf, n, &pos, event);
		put(buf, n, &pos, ":");
		for (size_t i = 0; i < nkv; i++) {
			put(buf, n, &pos, " ");
			put(buf, n, &pos, kv[i].k);
			put(buf, n, &pos, "=");
			if (kv[i].v) {
				put_val(buf, n, &pos, kv[i].v, false);
			} else {
				snprintf(num, sizeof num, "%lld", kv[i].n);
				put(buf, n, &pos, num);
			}
		}
		put(buf, n, &pos, "\n");
	}
	/* A truncated line still ends with a newline. */
	if (n >= 2 && pos >= n) {
		buf[n - 2] = '\n';
		buf[n - 1] = 0;
		return n - 1;
	}
	return pos;
}

/* Write all of buf to fd; 0, or the errno of the failed write. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : ENOSPC;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* A log file that stops taking lines (a full disk, /dev/full, a quota):
 * one line on stderr says why, and this line and the later ones go there,
 * as when the file cannot be opened. */
static void emit(const char *buf, size_t len)
{
	pthread_mutex_lock(&rdc_log_lock);
	if (log_state == 0)
		open_lazily();
	int err = write_all(log_fd, buf, len);
	if (err && log_fd > 2) {
		char line[sizeof log_path + 160];
		int n = snprintf(line, sizeof line,
				 "rdnacompat[%d]: warn: cannot write RDNACOMPAT_LOG_FILE %s: %s (logging to stderr)\n",
				 (int)getpid(), log_path, strerror(err));
		close(log_fd);
		log_fd = 2;
		if (n > 0)
			(void)write_all(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
		(void)write_all(2, buf, len);
	}
	pthread_mutex_unlock(&rdc_log_lock);
}

void rdc_log_event(enum rdc_level lvl, const char *event, const struct rdc_kv *kv, size_t n)
{
	if (!rdc_log_enabled(lvl))
		return;
	int saved = errno;
	char buf[4096];
	size_t len = rdc_log_format(buf, sizeof buf, log_json, (int)getpid(), lvl, event, kv, n);
	emit(buf, len);
	errno = saved;
}

/* A text line is one line: control characters in a message (a value from
 * the environment, a file name) become \xNN, in place, truncating. */
static void escape_ctl(char *m, size_t n)
{
	size_t extra = 0, len = strlen(m);
	for (size_t i = 0; i < len; i++)
		extra += ((unsigned char)m[i] < 0x20 || m[i] == 0x7f) ? 3 : 0;
	if (!extra)
		return;
	char tmp[2048];
	size_t k = 0;
	for (size_t i = 0; i < len && k + 5 < sizeof tmp; i++) {
		unsigned char ch = (unsigned char)m[i];
		if (ch < 0x20 || ch == 0x7f)
			k += (size_t)snprintf(tmp + k, sizeof tmp - k, "\\x%02x", ch);
		else
			tmp[k++] = (char)ch;
	}
	tmp[k] = 0;
	snprintf(m, n, "%s", tmp);
}

void rdc_logf(enum rdc_level lvl, const char *fmt, ...)
{
	if (!rdc_log_enabled(lvl))
		return;
	int saved = errno;
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char buf[4096];
	size_t len;
	if (log_json) {
		struct rdc_kv kv = RDC_KV_S("msg", msg);
		len = rdc_log_format(buf, sizeof buf, true, (int)getpid(), lvl, "message", &kv, 1);
	} else {
		escape_ctl(msg, sizeof msg);
		len = (size_t)snprintf(buf, sizeof buf, "rdnacompat[%d]: %s: %s\n", (int)getpid(),
				       lvl_name[lvl], msg);
		if (len >= sizeof buf) {
			len = sizeof buf - 1;
			buf[len - 1] = '\n';
		}
	}
	emit(buf, len);
	errno = saved;
}

void rdc_log_block(const char *text, size_t len)
{
	int saved = errno;
	emit(text, len);
	errno = saved;
}
