/* SPDX-License-Identifier: MIT */
/*
 * harmless.c — finds the known-harmless lines of tables/harmless.tsv in
 * pasted text, blanks them, and prints them with why (harmless.h).
 * Sections: loading, scanning, printing.
 */
#include "harmless.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

/* ---- loading ------------------------------------------------------------------------ */

int rdc_harmless_load(const char *file, struct rdc_harmless *h, struct rdc_diag *d)
{
	static const char *const cols[] = { "lib", "text", "why", "sources", NULL };
	memset(h, 0, sizeof *h);
	int rc = rdc_tsvtab_load(file, cols, &h->tab, d);
	if (rc)
		return rc;
	h->fmt = rdc_xmalloc((h->tab.n ? h->tab.n : 1) * sizeof *h->fmt);
	memset(h->fmt, 0, (h->tab.n ? h->tab.n : 1) * sizeof *h->fmt);
	for (size_t r = 0; r < h->tab.n; r++) {
		if (rdc_fmt_compile(rdc_tsv_cell(&h->tab, r, 1), &h->fmt[r]) != 0 || h->fmt[r].literals < 8) {
			rc = rdc_diag_setl(d, RDC_E_FORMAT, h->tab.path, h->tab.lines[r],
					   "text has too little literal text to be recognised (8 letters or digits at least)");
			rdc_harmless_free(h);
			return rc;
		}
	}
	return 0;
}

void rdc_harmless_free(struct rdc_harmless *h)
{
	if (h->fmt)
		for (size_t r = 0; r < h->tab.n; r++)
			rdc_fmt_free(&h->fmt[r]);
	free(h->fmt);
	rdc_tsvtab_free(&h->tab);
	memset(h, 0, sizeof *h);
}

/* ---- scanning ----------------------------------------------------------------------- */

/* Blank the whole lines that [ms, me) touches (line breaks kept). */
static void blank_lines(char *text, size_t ms, size_t me)
{
	size_t s = ms, e = me;
	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (text[e] && text[e] != '\n')
		e++;
	for (size_t i = s; i < e; i++)
		if (text[i] != '\n')
			text[i] = ' ';
}

size_t rdc_harmless_scan(const struct rdc_harmless *h, char *text, struct rdc_harmless_hit **out)
{
	*out = NULL;
	size_t n = 0;
	char *folded = rdc_text_fold(text);
	for (size_t r = 0; r < h->tab.n; r++) {
		struct rdc_harmless_hit hit = { .row = r };
		size_t from = 0, ms, me;
		/* the folded copy is of the text before any blanking: its prefilter
		 * only says whether the anchor word occurs at all */
		while (rdc_fmt_find(&h->fmt[r], text, from ? NULL : folded, from, &ms, &me)) {
			unsigned ln = rdc_text_line(text, ms);
			if (hit.n_lines < sizeof hit.lines / sizeof hit.lines[0] &&
			    (!hit.n_lines || hit.lines[hit.n_lines - 1] != ln))
				hit.lines[hit.n_lines++] = ln;
			blank_lines(text, ms, me);
			from = me > ms ? me : ms + 1;
		}
		if (!hit.n_lines)
			continue;
		*out = realloc(*out, (n + 1) * sizeof **out);
		if (!*out)
			abort();
		(*out)[n++] = hit;
	}
	free(folded);
	return n;
}

/* ---- printing ----------------------------------------------------------------------- */

void rdc_harmless_print(const struct rdc_harmless *h, const struct rdc_harmless_hit *hits, size_t n,
			struct rdc_json *j)
{
	if (j) {
		rdc_json_key(j, "harmless");
		rdc_json_arr(j);
	} else if (n) {
		printf("\n== known and harmless (not the cause) ==\n");
	}
	for (size_t i = 0; i < n; i++) {
		const struct rdc_tsvtab *t = &h->tab;
		size_t r = hits[i].row;
		if (j) {
			rdc_json_obj(j);
			const char *k[] = { "lib", "text", "why" };
			for (int q = 0; q < 3; q++) {
				rdc_json_key(j, k[q]);
				rdc_json_str(j, rdc_tsv_cell(t, r, (size_t)q));
			}
			rdc_json_key(j, "sources");
			rdc_json_arr(j);
			char *copy = rdc_xstrdup(rdc_tsv_cell(t, r, 3)), *save = NULL;
			for (char *s = strtok_r(copy, " ", &save); s; s = strtok_r(NULL, " ", &save))
				rdc_json_str(j, s);
			free(copy);
			rdc_json_arr_end(j);
			rdc_json_key(j, "lines");
			rdc_json_arr(j);
			for (size_t q = 0; q < hits[i].n_lines; q++)
				rdc_json_u64(j, hits[i].lines[q]);
			rdc_json_arr_end(j);
			rdc_json_obj_end(j);
			continue;
		}
		printf("[harmless] %s: %s\n  line%s", rdc_tsv_cell(t, r, 0), rdc_tsv_cell(t, r, 1),
		       hits[i].n_lines > 1 ? "s" : "");
		for (size_t q = 0; q < hits[i].n_lines; q++)
			printf("%s %u", q ? "," : "", hits[i].lines[q]);
		printf("\n  why:    %s\n  source: %s\n", rdc_tsv_cell(t, r, 2), rdc_tsv_cell(t, r, 3));
	}
	if (j)
		rdc_json_arr_end(j);
}
