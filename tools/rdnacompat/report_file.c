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

/* Which kinds require a key: R_RUN (a run of `rdnacompat report`, schema 1
 * or kind "run"), R_SRC (kind "sourced": written from a public thread). */
enum { R_RUN = 1, R_SRC = 2 };

static const struct {
	const char *key;
	bool list;
	unsigned required;         /* R_* mask */
	unsigned min_schema;       /* first schema with the key */
} keys[] = {
	{ "schema", false, R_RUN | R_SRC, 1 },   { "kind", false, R_SRC, 2 },
	{ "date", false, R_RUN | R_SRC, 1 },     { "reported", false, R_SRC, 2 },
	{ "simulated", false, R_RUN, 1 },        { "platform", false, R_SRC, 1 },
	{ "source", false, R_SRC, 2 },           { "card", false, R_RUN | R_SRC, 1 },
	{ "pci_id", false, R_RUN | R_SRC, 1 },   { "pci_revision", false, R_RUN | R_SRC, 1 },
	{ "gfx_target", false, R_RUN | R_SRC, 1 }, { "kernel", false, R_RUN, 1 },
	{ "distro", false, R_RUN | R_SRC, 1 },   { "rocm_version", false, R_RUN | R_SRC, 1 },
	{ "rocm_stated", false, 0, 2 },          { "rocm_source", false, 0, 1 },
	{ "pytorch_version", false, R_RUN, 1 },  { "pytorch_hip", false, R_RUN, 1 },
	{ "shim_version", false, R_RUN, 1 },     { "shim_mode", false, R_RUN, 1 },
	{ "result", false, R_RUN | R_SRC, 1 },   { "result_with_workaround", false, 0, 2 },
	{ "workload", true, R_SRC, 1 },          { "symptom", true, R_SRC, 2 },
	{ "message", false, 0, 2 },              { "workaround", true, 0, 2 },
	{ "device", true, 0, 1 },                { "native", true, 0, 1 },
	{ "mapped", true, 0, 1 },                { "would_map", true, 0, 1 },
	{ "refused", true, 0, 1 },               { "missing", true, 0, 1 },
	{ "spoofed", true, 0, 1 },               { "redirected", true, 0, 1 },
	{ "routed", true, 0, 1 },                { "warning", true, 0, 1 },
	{ "doctor", true, 0, 1 },                { "notes", true, 0, 1 },
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

bool rdc_report_load(const char *path, struct rdc_report *r)
{
	return report_read(path, r);
}

void rdc_report_free(struct rdc_report *r)
{
	report_free(r);
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

/* "6.x": a thread that names only the major release. */
static bool is_major_only(const char *v)
{
	unsigned a;
	int end = 0;
	return sscanf(v, "%u.x%n", &a, &end) == 1 && end > 0 && !v[end];
}

bool rdc_report_platform_ok(const char *v, bool sourced)
{
	return !strcmp(v, "linux") || !strcmp(v, "windows") || !strcmp(v, "wsl") ||
	       (sourced && !strcmp(v, "not stated"));
}

const char *rdc_report_platform(const struct rdc_report *r)
{
	const char *v = rdc_report_get(r, "platform");
	/* A run report without the key was written by `rdnacompat report`,
	 * which runs on Linux only. */
	return v ? v : rdc_report_sourced(r) ? "not stated" : "linux";
}

/* Words in rocm_stated that say the number is not the ROCm/HIP runtime's
 * own version (a library swapped in, a driver package, the kernel module)
 * when rocm_stated does not also name the runtime.  Returns the word found,
 * or NULL. */
static const char *not_runtime(const char *stated)
{
	static const char *const words[] = { "rocBLAS", "rocblas", "library", "driver", "ROCk module",
					     "amdgpu-install", "Radeon Software", "Adrenalin" };
	if (!stated || strstr(stated, "runtime") || strstr(stated, "Runtime") || strstr(stated, "HIP"))
		return NULL;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strstr(stated, words[i]))
			return words[i];
	return NULL;
}

static const char *const symptom_classes[] = {
	"no-binary", "tensile-missing", "invalid-device-function", "not-detected", "hang", "page-fault",
	"segfault", "wrong-results", "assert", "build-error", "slow", "other", "none",
};

bool rdc_report_symptom_class(const char *v, size_t *len)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	for (size_t i = 0; i < sizeof symptom_classes / sizeof symptom_classes[0]; i++)
		if (strlen(symptom_classes[i]) == n && !strncmp(v, symptom_classes[i], n)) {
			if (len)
				*len = n;
			return true;
		}
	return false;
}

bool rdc_report_sourced(const struct rdc_report *r)
{
	const char *k = rdc_report_get(r, "kind");
	return k && !strcmp(k, "sourced");
}

static bool is_result(const char *v)
{
	return !strcmp(v, "works") || !strcmp(v, "partial") || !strcmp(v, "fails") || !strcmp(v, "untested");
}

/* http(s)://host/..., no spaces or quotes. */
static bool is_url(const char *v)
{
	const char *h = !strncmp(v, "https://", 8) ? v + 8 : !strncmp(v, "http://", 7) ? v + 7 : NULL;
	if (!h || !*h || *h == '/' || *h == '.')
		return false;
	for (const char *c = v; *c; c++)
		if (isspace((unsigned char)*c) || *c == '"' || *c == '<' || *c == '>' || *c == '\'')
			return false;
	return true;
}

size_t rdc_report_validate(const struct rdc_report *r, const struct rdc_tables *t, FILE *errs)
{
	size_t n = 0;
	const char *v, *w;
	unsigned schema = 1;
	if ((v = rdc_report_get(r, "schema"))) {
		if (!strcmp(v, "2"))
			schema = 2;
		else if (strcmp(v, "1"))
			ERR(line_of(r, "schema"), "schema %s: this tool reads schema 1 and 2", v);
	}
	bool sourced = rdc_report_sourced(r);
	unsigned need = sourced ? R_SRC : R_RUN;
	if (r->n_syntax)
		ERR(r->first_bad_line, "%zu line(s) are not 'key: value' (lower-case key)", r->n_syntax);
	for (size_t i = 0; i < r->n; i++) {
		const struct rdc_rfield *f = &r->f[i];
		size_t ki = 0;
		while (ki < N_KEYS && strcmp(keys[ki].key, f->key))
			ki++;
		if (ki == N_KEYS) {
			ERR(f->line, "unknown key '%s' (see tables/reports/SCHEMA.md)", f->key);
			continue;
		}
		if (keys[ki].min_schema > schema)
			ERR(f->line, "'%s' needs schema %u (this report says schema %u)", f->key, keys[ki].min_schema,
			    schema);
		if (!keys[ki].list)
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
		if (!strcmp(f->key, "symptom") && *f->value && !rdc_report_symptom_class(f->value, NULL))
			ERR(f->line, "symptom must start with a class (no-binary, tensile-missing, "
				     "invalid-device-function, not-detected, hang, page-fault, segfault, "
				     "wrong-results, assert, build-error, slow, other, none), then ': text'");
		if (!strcmp(f->key, "message") && strlen(f->value) > 200)
			ERR(f->line, "message is %zu characters: quote at most one line of up to 200", strlen(f->value));
	}
	if (schema == 2 && !rdc_report_get(r, "kind"))
		ERR(r->n ? r->f[0].line : 1, "missing required key 'kind' (schema 2: run or sourced)");
	if ((v = rdc_report_get(r, "kind")) && strcmp(v, "run") && strcmp(v, "sourced"))
		ERR(line_of(r, "kind"), "kind must be run or sourced, not '%s'", v);
	if (sourced && !rdc_report_get(r, "source"))
		ERR(line_of(r, "kind"), "a sourced report needs 'source: URL' (the public thread is its evidence)");
	for (size_t i = 0; i < N_KEYS; i++)
		if ((keys[i].required & need) && keys[i].min_schema <= schema && strcmp(keys[i].key, "source") &&
		    strcmp(keys[i].key, "kind") && !rdc_report_get(r, keys[i].key))
			ERR(r->n ? r->f[r->n - 1].line : 1, "missing required key '%s'%s", keys[i].key,
			    sourced ? " (sourced report)" : "");

	if ((v = rdc_report_get(r, "source")) && !is_url(v))
		ERR(line_of(r, "source"), "source '%s' is not an http(s):// URL", v);
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "reported" : "date";
		unsigned y, m, d;
		char tail;
		if ((v = rdc_report_get(r, key)) && !(k && !strcmp(v, "not stated")) &&
		    (sscanf(v, "%4u-%2u-%2u%c", &y, &m, &d, &tail) != 3 || strlen(v) != 10 || m < 1 || m > 12 ||
		     d < 1 || d > 31))
			ERR(line_of(r, key), "%s '%s' is not YYYY-MM-DD%s", key, v,
			    k ? " (or 'not stated' when the post's date cannot be read)" : "");
	}
	if ((v = rdc_report_get(r, "simulated")) && strcmp(v, "yes") && strcmp(v, "no"))
		ERR(line_of(r, "simulated"), "simulated must be yes or no, not '%s'", v);
	else if (v && sourced && strcmp(v, "no"))
		ERR(line_of(r, "simulated"), "a sourced report describes a real card: simulated must be no");
	if ((v = rdc_report_get(r, "shim_mode")) && strcmp(v, "map") && strcmp(v, "spoof") && strcmp(v, "audit") &&
	    strcmp(v, "off"))
		ERR(line_of(r, "shim_mode"), "shim_mode must be map, spoof, audit or off, not '%s'", v);
	if ((v = rdc_report_get(r, "result")) && !is_result(v))
		ERR(line_of(r, "result"), "result must be works, partial, fails or untested, not '%s'", v);
	if ((v = rdc_report_get(r, "result_with_workaround")) && !is_result(v) && strcmp(v, "not stated"))
		ERR(line_of(r, "result_with_workaround"),
		    "result_with_workaround must be works, partial, fails, untested or not stated, not '%s'", v);
	if ((v = rdc_report_get(r, "result_with_workaround")) && !rdc_report_get(r, "workaround"))
		ERR(line_of(r, "result_with_workaround"), "result_with_workaround without a workaround line");
	if ((v = rdc_report_get(r, "rocm_version")) && !is_version(v) &&
	    !(sourced ? !strcmp(v, "not stated") || is_major_only(v) : !strcmp(v, "none")))
		ERR(line_of(r, "rocm_version"), "rocm_version '%s' is not %s", v,
		    sourced ? "N.N[.N], N.x (only the major stated) or 'not stated'" : "N.N[.N] or none");

	if ((v = rdc_report_get(r, "platform")) && !rdc_report_platform_ok(v, sourced))
		ERR(line_of(r, "platform"), "platform must be linux, windows or wsl%s, not '%s'",
		    sourced ? " (or 'not stated')" : "", v);
	if ((v = rdc_report_get(r, "rocm_version")) && is_version(v) && (w = not_runtime(rdc_report_get(r, "rocm_stated"))))
		ERR(line_of(r, "rocm_version"),
		    "rocm_version %s, but rocm_stated names %s: rocm_version holds only a ROCm/HIP runtime "
		    "version (a library's or driver's version stays in rocm_stated; rocm_version 'not stated')",
		    v, w);

	/* The card: known PCI id, and the target the table gives it.  A sourced
	 * report may leave the PCI id "not stated" (threads often name only the
	 * target): then some card in the table must have that target. */
	const char *pci = rdc_report_get(r, "pci_id"), *rev = rdc_report_get(r, "pci_revision");
	const char *tgt = rdc_report_get(r, "gfx_target");
	unsigned ven = 0, dev = 0, rv = 0;
	int revision = -1;
	char tail;
	bool pci_unstated = sourced && pci && !strcmp(pci, "not stated");
	bool pci_ok = pci && sscanf(pci, "%4x:%4x%c", &ven, &dev, &tail) == 2 && strlen(pci) == 9;
	if (pci && !pci_ok && !pci_unstated)
		ERR(line_of(r, "pci_id"), "pci_id '%s' is not VVVV:DDDD (hex)%s", pci,
		    sourced ? " or 'not stated'" : "");
	if (rev && strcmp(rev, "unknown")) {
		if (sscanf(rev, "0x%2x%c", &rv, &tail) != 1)
			ERR(line_of(r, "pci_revision"), "pci_revision '%s' is not 0xNN or unknown", rev);
		else
			revision = (int)rv;
	}
	if (pci_ok) {
		const struct rdc_card *c = rdc_card_find_pci(t, (uint16_t)ven, (uint16_t)dev, revision);
		/* Revision unknown and no "*" row: any row of the device (the
		 * revision never changes the target, tables/cards.tsv). */
		for (size_t i = 0; !c && revision < 0 && i < t->n_cards; i++)
			if (t->cards[i].vendor == ven && t->cards[i].device == dev)
				c = &t->cards[i];
		if (!c)
			ERR(line_of(r, "pci_id"), "card %s is not in tables/cards.tsv", pci);
		else if (tgt && strcmp(c->target, tgt))
			ERR(line_of(r, "gfx_target"), "gfx_target %s, but tables/cards.tsv gives %s for %s%s%s", tgt,
			    c->target, pci, revision >= 0 ? " rev " : "", revision >= 0 ? rev : "");
	} else if (pci_unstated && tgt) {
		bool known = false;
		for (size_t i = 0; i < t->n_cards && !known; i++)
			known = !strcmp(t->cards[i].target, tgt);
		if (!known)
			ERR(line_of(r, "gfx_target"), "gfx_target %s: no card in tables/cards.tsv has it", tgt);
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
