/* SPDX-License-Identifier: MIT */
/*
 * db_add.c — `rdnacompat db add FILE` (db_add.h).  Sections: the checks
 * beyond the schema (a run report must say whether it ran on the simulated
 * GPU, and one whose facts name the simulator must say yes), the row's file
 * name (date, target, PCI id, "sim" for a simulated run, a digest of the
 * content), and the atomic write (a temporary file in the directory, fsync,
 * link(2) to the name, which never replaces a file).
 */
#include "db_add.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_file.h"
#include "tool_util.h"

/* ---- checks beyond the schema --------------------------------------------------------- */

/* Problems with the simulated mark, printed as "file:line: problem". */
static size_t check_simulated(const struct rdc_report *r)
{
	if (rdc_report_sourced(r))
		return 0;              /* validate() refuses `simulated: yes` in a sourced report */
	const char *sim = rdc_report_get(r, "simulated");
	if (!sim) {
		fprintf(stderr, "%s: a run report needs `simulated: yes` or `simulated: no` to become a row\n", r->path);
		return 1;
	}
	if (!strcmp(sim, "yes"))
		return 0;
	for (size_t i = 0; i < r->n; i++) {
		const char *v = r->f[i].value;
		if (strcasestr(v, "simulated") || strstr(v, "rdnacompat sim") || strstr(v, "rdnacompat-sim")) {
			fprintf(stderr, "%s:%u: says `simulated: %s` but its %s names the simulator: a simulated run "
				"stays marked `simulated: yes`\n", r->path, r->f[i].line, sim, r->f[i].key);
			return 1;
		}
	}
	return 0;
}

/* ---- the row's name ------------------------------------------------------------------ */

static void slug(struct rdc_sbuf *b, const char *v)
{
	for (const char *p = v; p && *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
			rdc_sb_addn(b, p, 1);
		else if (*p >= 'A' && *p <= 'Z')
			rdc_sb_printf(b, "%c", *p - 'A' + 'a');
}

/* DATE-TARGET-PCIID[-sim]-user-DIGEST.report: what the shipped runs are
 * named by, plus the first 12 hex digits of the content's SHA-256, so two
 * different reports never share a name and the same one always gets it. */
static char *row_name(const struct rdc_report *r, const char *data, size_t len)
{
	struct sha256_ctx c;
	uint8_t dg[SHA256_DIGEST_SIZE];
	sha256_init(&c);
	sha256_update(&c, len, (const uint8_t *)data);
	sha256_digest(&c, sizeof dg, dg);
	struct rdc_sbuf b = { 0 };
	const char *date = rdc_report_get(r, "date"), *src = rdc_report_get(r, "reported");
	rdc_sb_add(&b, date ? date : src ? src : "undated");
	rdc_sb_add(&b, "-");
	slug(&b, rdc_report_get(r, "gfx_target"));
	rdc_sb_add(&b, "-");
	slug(&b, rdc_report_get(r, "pci_id"));
	const char *sim = rdc_report_get(r, "simulated");
	if (sim && !strcmp(sim, "yes"))
		rdc_sb_add(&b, "-sim");
	rdc_sb_add(&b, rdc_report_sourced(r) ? "-src-" : "-user-");
	for (int i = 0; i < 6; i++)
		rdc_sb_printf(&b, "%02x", dg[i]);
	rdc_sb_add(&b, ".report");
	return b.s;
}

/* ---- the write ----------------------------------------------------------------------- */

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int rdc_db_add(const char *file, const char *dir)
{
	size_t len = 0;
	char *data = rdc_read_file(file, 1u << 20, &len);
	if (data && len >= 1u << 20) {
		free(data);
		data = NULL;
		errno = 0;
	}
	if (!data) {
		fprintf(stderr, "rdnacompat db add: cannot read %s: %s (a report is a text file under 1 MiB)\n", file,
			errno ? strerror(errno) : "too large");
		return 1;
	}
	struct rdc_report r;
	if (!rdc_report_load(file, &r)) {
		fprintf(stderr, "rdnacompat db add: cannot read %s: %s\n", file, strerror(errno));
		free(data);
		return 1;
	}
	size_t bad = rdc_report_validate(&r, rdc_tables_builtin(), stderr);
	if (memchr(data, '\0', len)) {
		fprintf(stderr, "%s: contains a NUL byte: not a report\n", file);
		bad++;
	}
	if (!bad)
		bad += check_simulated(&r);
	if (bad) {
		fprintf(stderr, "rdnacompat db add: %s refused (%zu problem(s)); nothing written\n", file, bad);
		rdc_report_free(&r);
		free(data);
		return 1;
	}
	char *name = row_name(&r, data, len);
	struct rdc_sbuf dst = { 0 }, tmp = { 0 };
	rdc_sb_printf(&dst, "%s/%s", dir, name);
	rdc_sb_printf(&tmp, "%s/.%s.XXXXXX", dir, name);
	int rc = 2;
	size_t olen = 0;
	char *old = rdc_read_file(dst.s, 1u << 20, &olen);
	if (old) {
		if (olen == len && !memcmp(old, data, len)) {
			printf("rdnacompat db add: already a row: %s\n", dst.s);
			rc = 0;
		} else {
			fprintf(stderr, "rdnacompat db add: %s exists with other content; nothing written\n", dst.s);
		}
		free(old);
		goto out;
	}
	int fd = mkstemp(tmp.s);
	if (fd < 0) {
		fprintf(stderr, "rdnacompat db add: cannot write in %s: %s; nothing written\n", dir, strerror(errno));
		goto out;
	}
	bool ok = fchmod(fd, 0644) == 0 && write_all(fd, data, len) == 0 && fsync(fd) == 0;
	int err = errno;
	ok = close(fd) == 0 && ok;
	if (ok && link(tmp.s, dst.s) != 0) {
		err = errno;
		ok = false;
	}
	unlink(tmp.s);
	if (!ok) {
		fprintf(stderr, "rdnacompat db add: writing %s: %s; nothing written\n", dst.s, strerror(err));
		goto out;
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	printf("rdnacompat db add: added %s%s\n", dst.s,
	       rdc_report_get(&r, "simulated") && !strcmp(rdc_report_get(&r, "simulated"), "yes") ?
		       " (a simulated run: shown as such, never counted as a card's outcome)" : "");
	rc = 0;
out:
	free(name);
	rdc_sb_free(&dst);
	rdc_sb_free(&tmp);
	rdc_report_free(&r);
	free(data);
	return rc;
}
