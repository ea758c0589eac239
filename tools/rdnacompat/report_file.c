/* SPDX-License-Identifier: MIT */
/*
 * report_file.c — reads and validates card report files (see
 * report_file.h and tables/reports/SCHEMA.md).
 */
#include "report_file.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

static const struct {
	const char *key;
	bool list, required;
} keys[] = {
	{ "schema", false, true },       { "date", false, true },          { "simulated", false, true },
	{ "card", false, true },         { "pci_id", false, true },        { "pci_revision", false, true },
	{ "gfx_target", false, true },   { "kernel", false, true },        { "distro", false, true },
	{ "rocm_version", false, true }, { "rocm_source", false, false },  { "pytorch_version", false, true },
	{ "pytorch_hip", false, true },  { "shim_version", false, true },  { "shim_mode", false, true },
	{ "result", false, true },       { "workload", true, false },      { "device", true, false },
	{ "native", true, false },       { "mapped", true, false },        { "would_map", true, false },       { "refused", true, false },       { "missing", true, false },
	{ "spoofed", true, false },      { "redirected", true, false },    { "routed", true, false },
	{ "warning", true, false },      { "doctor", true, false },        { "notes", true, false },
};
#define N_KEYS (sizeof keys / sizeof keys[0])

bool rdc_report_key_known(const char *key, bool *list)
{
	for (size_t i = 0; i < N_KEYS; i++)
		if (!strcmp(keys[i].key, key)) {
			if (list)
				*list = keys[i].list;
			return true;
		}
	return false;
}

/* Read `path`; false when it cannot be read. */
static bool report_read(const char *path, struct rdc_report *r)
{
	memset(r, 0, sizeof *r);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	r->path = rdc_xstrdup(path);
	const char *base = strrchr(path, '/');
	r->name = rdc_xstrdup(base ? base + 1 : path);
	size_t nl = strlen(r->name);
	if (nl > 7 && !strcmp(r->name + nl - 7, ".report"))
		r->name[nl - 7] = '\0';
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned ln = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		ln++;
		char *s = rdc_trim(line);
		if (!*s || *s == '#')
			continue;
		char *colon = strchr(s, ':');
		size_t kl = colon ? (size_t)(colon - s) : 0;
		bool ok = colon && kl > 0;
		for (size_t i = 0; ok && i < kl; i++)
			ok = islower((unsigned char)s[i]) || s[i] == '_';
		if (!ok) {
			if (!r->n_syntax++)
				r->first_bad_line = ln;
			continue;
		}
		*colon = '\0';
		r->f = rdc_xrealloc(r->f, (r->n + 1) * sizeof *r->f);
		r->f[r->n].key = rdc_xstrdup(s);
		r->f[r->n].value = rdc_xstrdup(rdc_trim(colon + 1));
		r->f[r->n].line = ln;
		r->n++;
	}
	free(line);
	fclose(f);
	return true;
}

static void report_free(struct rdc_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->f[i].key);
		free(r->f[i].value);
	}
	free(r->f);
	free(r->path);
	free(r->name);
	memset(r, 0, sizeof *r);
}

const char *rdc_report_get(const struct rdc_report *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return r->f[i].value;
	return NULL;
}

static unsigned line_of(const struct rdc_report *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return r->f[i].line;
	return 1;
}

static bool is_version(const char *v)
{
	unsigned a, b;
	char tail;
	if (sscanf(v, "%u.%u%c", &a, &b, &tail) == 2)
		return true;
	unsigned c;
	return sscanf(v, "%u.%u.%u%c", &a, &b, &c, &tail) == 3;
}

#define ERR(line, ...) \
	do { \
		fprintf(errs, "%s:%u: ", r->path, (line)); \
		fprintf(errs, __VA_ARGS__); \
		fputc('\n', errs); \
		n++; \
	} while (0)

size_t rdc_report_validate(const struct rdc_report *r, const struct rdc_tables *t, FILE *errs)
{
	size_t n = 0;
	if (r->n_syntax)
		ERR(r->first_bad_line, "%zu line(s) are not 'key: value' (lower-case key)", r->n_syntax);
	for (size_t i = 0; i < r->n; i++) {
		const struct rdc_rfield *f = &r->f[i];
		bool list;
		if (!rdc_report_key_known(f->key, &list)) {
			ERR(f->line, "unknown key '%s' (see tables/reports/SCHEMA.md)", f->key);
			continue;
		}
		if (!list)
			for (size_t k = 0; k < i; k++)
				if (!strcmp(r->f[k].key, f->key)) {
					ERR(f->line, "'%s' repeats line %u (it may appear once)", f->key, r->f[k].line);
					break;
				}
		if (!*f->value)
			ERR(f->line, "'%s' is empty", f->key);
		if (strstr(f->value, "/home/") || strstr(f->value, "/root/") || strstr(f->value, "/Users/"))
			ERR(f->line, "'%s' contains a home-directory path (personal data): scrub it to ~/", f->key);
		if (!strcmp(f->key, "doctor") && strncmp(f->value, "ok ", 3) && strncmp(f->value, "warn ", 5) &&
		    strncmp(f->value, "fail ", 5))
			ERR(f->line, "doctor line must start with ok, warn or fail");
	}
	for (size_t i = 0; i < N_KEYS; i++)
		if (keys[i].required && !rdc_report_get(r, keys[i].key))
			ERR(r->n ? r->f[r->n - 1].line : 1, "missing required key '%s'", keys[i].key);

	const char *v;
	if ((v = rdc_report_get(r, "schema")) && strcmp(v, "1"))
		ERR(line_of(r, "schema"), "schema %s: this tool reads schema 1", v);
	if ((v = rdc_report_get(r, "date"))) {
		unsigned y, m, d;
		char tail;
		if (sscanf(v, "%4u-%2u-%2u%c", &y, &m, &d, &tail) != 3 || strlen(v) != 10 || m < 1 || m > 12 ||
		    d < 1 || d > 31)
			ERR(line_of(r, "date"), "date '%s' is not YYYY-MM-DD", v);
	}
	if ((v = rdc_report_get(r, "simulated")) && strcmp(v, "yes") && strcmp(v, "no"))
		ERR(line_of(r, "simulated"), "simulated must be yes or no, not '%s'", v);
	if ((v = rdc_report_get(r, "shim_mode")) && strcmp(v, "map") && strcmp(v, "spoof") && strcmp(v, "audit") &&
	    strcmp(v, "off"))
		ERR(line_of(r, "shim_mode"), "shim_mode must be map, spoof, audit or off, not '%s'", v);
	if ((v = rdc_report_get(r, "result")) && strcmp(v, "works") && strcmp(v, "partial") && strcmp(v, "fails") &&
	    strcmp(v, "untested"))
		ERR(line_of(r, "result"), "result must be works, partial, fails or untested, not '%s'", v);
	if ((v = rdc_report_get(r, "rocm_version")) && strcmp(v, "none") && !is_version(v))
		ERR(line_of(r, "rocm_version"), "rocm_version '%s' is not N.N[.N] or none", v);

	/* The card: known PCI id, and the target the table gives it. */
	const char *pci = rdc_report_get(r, "pci_id"), *rev = rdc_report_get(r, "pci_revision");
	const char *tgt = rdc_report_get(r, "gfx_target");
	unsigned ven = 0, dev = 0, rv = 0;
	int revision = -1;
	char tail;
	bool pci_ok = pci && sscanf(pci, "%4x:%4x%c", &ven, &dev, &tail) == 2 && strlen(pci) == 9;
	if (pci && !pci_ok)
		ERR(line_of(r, "pci_id"), "pci_id '%s' is not VVVV:DDDD (hex)", pci);
	if (rev && strcmp(rev, "unknown")) {
		if (sscanf(rev, "0x%2x%c", &rv, &tail) != 1)
			ERR(line_of(r, "pci_revision"), "pci_revision '%s' is not 0xNN or unknown", rev);
		else
			revision = (int)rv;
	}
	if (pci_ok) {
		const struct rdc_card *c = rdc_card_find_pci(t, (uint16_t)ven, (uint16_t)dev, revision);
		if (!c)
			ERR(line_of(r, "pci_id"), "card %s is not in tables/cards.tsv", pci);
		else if (tgt && strcmp(c->target, tgt))
			ERR(line_of(r, "gfx_target"), "gfx_target %s, but tables/cards.tsv gives %s for %s%s%s", tgt,
			    c->target, pci, revision >= 0 ? " rev " : "", revision >= 0 ? rev : "");
	}
	return n;
}

static int cmp_report(const void *a, const void *b)
{
	return strcmp(((const struct rdc_report *)a)->name, ((const struct rdc_report *)b)->name);
}

size_t rdc_reports_load_dir(const char *dir, struct rdc_report **out, bool *ok)
{
	*out = NULL;
	*ok = false;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	*ok = true;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l <= 7 || strcmp(e->d_name + l - 7, ".report"))
			continue;
		struct rdc_sbuf p = { 0 };
		rdc_sb_printf(&p, "%s/%s", dir, e->d_name);
		struct rdc_report r;
		if (report_read(p.s, &r)) {
			*out = rdc_xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = r;
		} else {
			*ok = false;
		}
		rdc_sb_free(&p);
	}
	closedir(d);
	if (n)
		qsort(*out, n, sizeof **out, cmp_report);
	return n;
}

void rdc_reports_free(struct rdc_report *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		report_free(&v[i]);
	free(v);
}
