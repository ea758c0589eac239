/* SPDX-License-Identifier: MIT */
/*
 * db_lookup.c — ranks the sourced card reports for one card and ROCm
 * version and prints the top ones (see db_lookup.h).  Reads only
 * tables/reports; never the network.
 */
#include "db_lookup.h"

#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "sysinfo.h"
#include "tool_util.h"

#define TOP 3

/* major.minor of "6.2.4" / "6.2"; major only of "6.x" (*min = -1). */
static bool ver_parts(const char *v, int *maj, int *min)
{
	unsigned a, b;
	char x;
	if (!v)
		return false;
	if (sscanf(v, "%u.%u", &a, &b) == 2) {
		*maj = (int)a, *min = (int)b;
		return true;
	}
	if (sscanf(v, "%u.%c", &a, &x) == 2 && x == 'x') {
		*maj = (int)a, *min = -1;
		return true;
	}
	return false;
}

static int score(const struct rdc_report *r, uint16_t vendor, uint16_t device, const char *rocm)
{
	int s = 0;
	unsigned v, d;
	const char *pci = rdc_report_get(r, "pci_id");
	if (device && pci && sscanf(pci, "%4x:%4x", &v, &d) == 2 && v == vendor && d == device)
		s += 4;
	int ma, mi, ra, ri;
	if (ver_parts(rocm, &ma, &mi) && ver_parts(rdc_report_get(r, "rocm_version"), &ra, &ri)) {
		if (ra == ma && ri == mi)
			s += 16;
		else if (ra == ma)
			s += 8;
	}
	if (rdc_report_get(r, "workaround"))
		s += 2;
	if (rdc_report_get(r, "message"))
		s += 1;
	return s;
}

struct cand {
	const struct rdc_report *r;
	int score;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	const char *dx = rdc_report_get(x->r, "reported"), *dy = rdc_report_get(y->r, "reported");
	int c = strcmp(dy ? dy : "", dx ? dx : "");
	return c ? c : strcmp(x->r->name, y->r->name);
}

size_t rdc_db_relevant(const struct rdc_report *reps, size_t n, const char *target, uint16_t vendor,
		       uint16_t device, const char *rocm, const struct rdc_report **out, size_t max)
{
	struct cand *c = NULL;
	size_t nc = 0;
	for (size_t i = 0; i < n; i++) {
		const char *t = rdc_report_get(&reps[i], "gfx_target");
		if (!rdc_report_sourced(&reps[i]) || !t || !target || strcmp(t, target) ||
		    !rdc_report_get(&reps[i], "source"))
			continue;
		c = rdc_xrealloc(c, (nc + 1) * sizeof *c);
		c[nc].r = &reps[i];
		c[nc].score = score(&reps[i], vendor, device, rocm);
		nc++;
	}
	if (nc)
		qsort(c, nc, sizeof *c, cmp_cand);
	size_t k = 0;
	for (; k < nc && k < max; k++)
		out[k] = c[k].r;
	free(c);
	return k;
}

void rdc_db_print_line(FILE *f, const char *indent, const struct rdc_report *r)
{
	const char *res = rdc_report_get(r, "result"), *rww = rdc_report_get(r, "result_with_workaround");
	const char *sym = rdc_report_get(r, "symptom");
	char s[96];
	snprintf(s, sizeof s, "%s", sym ? sym : "");
	if (sym && strlen(sym) >= sizeof s)
		memcpy(s + sizeof s - 4, "...", 4);
	fprintf(f, "%s[%s%s%s] ROCm %s, %s: %s  %s\n", indent, res ? res : "?", rww ? " -> " : "",
		rww ? rww : "", rdc_report_get(r, "rocm_version"), rdc_report_get(r, "card"), s,
		rdc_report_get(r, "source"));
}

size_t rdc_db_load_default(struct rdc_report **out)
{
	*out = NULL;
	char *t = rdc_tables_dir();
	if (!t)
		return 0;
	struct rdc_sbuf b = { 0 };
	rdc_sb_printf(&b, "%s/reports", t);
	free(t);
	bool ok;
	size_t n = rdc_reports_load_dir(b.s, out, &ok);
	rdc_sb_free(&b);
	return n;
}

void rdc_db_json_relevant(struct rdc_json *j, const struct rdc_report *reps, size_t n, const char *target,
			  uint16_t vendor, uint16_t device, const char *rocm)
{
	static const char *const keys[] = { "rocm_version", "card", "result", "result_with_workaround", "symptom",
					    "message", "workaround", "source", NULL };
	const struct rdc_report *top[TOP];
	size_t k = rdc_db_relevant(reps, n, target, vendor, device, rocm, top, TOP);
	rdc_json_arr(j);
	for (size_t i = 0; i < k; i++) {
		rdc_json_obj(j);
		rdc_json_key(j, "report");
		rdc_json_str(j, top[i]->name);
		for (size_t q = 0; keys[q]; q++) {
			rdc_json_key(j, keys[q]);
			rdc_json_str(j, rdc_report_get(top[i], keys[q]));
		}
		rdc_json_obj_end(j);
	}
	rdc_json_arr_end(j);
}

size_t rdc_db_print_relevant(FILE *f, const char *dir, const char *target, uint16_t vendor, uint16_t device,
			     const char *rocm)
{
	struct rdc_report *reps = NULL;
	bool ok;
	size_t n = dir ? rdc_reports_load_dir(dir, &reps, &ok) : rdc_db_load_default(&reps);
	const struct rdc_report *top[TOP];
	size_t k = rdc_db_relevant(reps, n, target, vendor, device, rocm, top, TOP);
	if (k) {
		fprintf(f, "Reports from public threads for %s%s%s (most relevant first; tables/reports):\n", target,
			rocm ? " on ROCm " : "", rocm ? rocm : "");
		for (size_t i = 0; i < k; i++)
			rdc_db_print_line(f, "  ", top[i]);
	}
	rdc_reports_free(reps, n);
	return k;
}

void rdc_db_doctor_reports(FILE *f, const struct rdc_sysinfo *si)
{
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		if (!g->target[0])
			continue;
		fputc('\n', f);
		if (!rdc_db_print_relevant(f, NULL, g->target, g->vendor, g->device, si->rocm_version))
			fprintf(f, "No sourced reports for %s in tables/reports.\n", g->target);
	}
}
