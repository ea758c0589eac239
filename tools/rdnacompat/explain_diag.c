/* SPDX-License-Identifier: MIT */
/*
 * explain_diag.c — prints what the harvested tables say about pasted text
 * (explain_diag.h).  Hits (diagtab.c) are grouped by pattern (or by value),
 * so a status named on several lines is one entry with several lines.
 */
#include "explain_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

/* ---- line summary ------------------------------------------------------------------ */

void rdc_line_ids_add(struct rdc_line_ids *l, unsigned line, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].line == line && !strcmp(l->v[i].id, id))
			return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = rdc_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n].line = line;
	l->v[l->n].id = rdc_xstrdup(id);
	l->n++;
}

void rdc_line_ids_free(struct rdc_line_ids *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].id);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static int cmp_line(const void *a, const void *b)
{
	const struct rdc_line_id *x = a, *y = b;
	return (x->line > y->line) - (x->line < y->line);
}

/* Line `n` (1-based) of text: start and length. */
static const char *line_of(const char *text, unsigned n, size_t *len)
{
	const char *p = text;
	for (unsigned i = 1; i < n && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		p = "";
	*len = strcspn(p, "\n");
	return p;
}

void rdc_line_ids_print(const struct rdc_line_ids *l, const char *text, struct rdc_json *j)
{
	struct rdc_line_id *v = rdc_xmalloc((l->n ? l->n : 1) * sizeof *v);
	memcpy(v, l->v, l->n * sizeof *v);
	qsort(v, l->n, sizeof *v, cmp_line);   /* stable enough: ids of a line stay together */
	size_t lines = 0;
	for (size_t i = 0; i < l->n; i++)
		lines += !i || v[i].line != v[i - 1].line;
	if (j) {
		rdc_json_key(j, "lines");
		rdc_json_arr(j);
	} else if (lines > 1) {
		printf("\n== line by line ==\n");
	}
	for (size_t i = 0; i < l->n;) {
		size_t e = i;
		while (e < l->n && v[e].line == v[i].line)
			e++;
		size_t len;
		const char *s = line_of(text, v[i].line, &len);
		if (j) {
			rdc_json_obj(j);
			rdc_json_key(j, "line");
			rdc_json_u64(j, v[i].line);
			rdc_json_key(j, "text");
			rdc_json_strn(j, s, len);
			rdc_json_key(j, "ids");
			rdc_json_arr(j);
			for (size_t k = i; k < e; k++)
				rdc_json_str(j, v[k].id);
			rdc_json_arr_end(j);
			rdc_json_obj_end(j);
		} else if (lines > 1) {
			printf("line %u:", v[i].line);
			for (size_t k = i; k < e; k++)
				printf("%s %s", k > i ? "," : "", v[k].id);
			printf(" — %.*s%s\n", len > 100 ? 100 : (int)len, s, len > 100 ? "…" : "");
		}
		i = e;
	}
	if (j)
		rdc_json_arr_end(j);
	free(v);
}

/* ---- harvested entries --------------------------------------------------------------- */

struct entry {
	size_t pat;                /* pattern index, or (size_t)-1: a value */
	long value;
	bool hex;
	enum rdc_dhow how;
	unsigned lines[16];
	size_t n_lines;
	const char *found;         /* the matched text of the first hit */
	size_t found_len;
};

/* Does status/message row i belong to entry e? */
static bool entry_row(const struct rdc_diagtab *t, const struct entry *e, size_t i, bool msg)
{
	if (e->pat == (size_t)-1) {
		struct rdc_dhit h = { .value = e->value, .hex = e->hex };
		return !msg && rdc_diagtab_value_row(t, &h, i);
	}
	const struct rdc_dpat *p = &t->pats[e->pat];
	if ((p->how == RDC_DHOW_MESSAGE) != msg)
		return false;
	for (size_t k = 0; k < p->n; k++) {
		if (p->rows[k] == i)
			return true;
		/* a name entry stands for every release's row of that name */
		if (!msg && p->how == RDC_DHOW_NAME && !strcmp(t->statuses[p->rows[k]].name, t->statuses[i].name))
			return true;
	}
	return false;
}

static const char *how_name(enum rdc_dhow h)
{
	return h == RDC_DHOW_NAME ? "name" : h == RDC_DHOW_TEXT ? "text" : h == RDC_DHOW_VALUE ? "value" : "message";
}

static void print_sources(const char *s, struct rdc_json *j)
{
	char *copy = rdc_xstrdup(s), *save = NULL;
	for (char *u = strtok_r(copy, " ", &save); u; u = strtok_r(NULL, " ", &save)) {
		if (j)
			rdc_json_str(j, u);
		else
			printf("\n    %s", u);
	}
	free(copy);
}

static const char *card_words(const char *card)
{
	return !strcmp(card, "yes") ? "yes — an unsupported or mis-identified card is a known cause"
	     : !strcmp(card, "possible") ? "possible — a card problem is one cause among others"
					 : "no — not a card problem";
}

static void print_classes(const struct rdc_dclass **cls, size_t n, struct rdc_json *j)
{
	if (j) {
		rdc_json_key(j, "classes");
		rdc_json_arr(j);
	}
	for (size_t i = 0; i < n; i++) {
		const struct rdc_dclass *c = cls[i];
		if (j) {
			rdc_json_obj(j);
			const char *k[] = { "class", "card", "title", "check", "does" };
			const char *v[] = { c->id, c->card, c->title, c->check, c->does };
			for (int q = 0; q < 5; q++) {
				rdc_json_key(j, k[q]);
				rdc_json_str(j, v[q]);
			}
			rdc_json_key(j, "sources");
			rdc_json_arr(j);
			print_sources(c->sources, j);
			rdc_json_arr_end(j);
			rdc_json_obj_end(j);
			continue;
		}
		printf("  class: %s — %s\n  card:  %s\n  check: %s\n  rdnacompat: %s\n  seen in:", c->id, c->title,
		       card_words(c->card), c->check, c->does);
		print_sources(c->sources, NULL);
		printf("\n");
	}
	if (j)
		rdc_json_arr_end(j);
}

static void add_class(const struct rdc_dclass **cls, size_t *n, const struct rdc_dclass *c)
{
	for (size_t i = 0; i < *n; i++)
		if (cls[i] == c)
			return;
	if (*n < 8)
		cls[(*n)++] = c;
}

/* "a|b|c" -> "a, b, c" (malloc'd) */
static char *join_bars(const char *s)
{
	struct rdc_sbuf b = { 0 };
	rdc_sb_add(&b, "");
	for (; *s; s++) {
		if (*s == '|')
			rdc_sb_add(&b, ", ");
		else
			rdc_sb_addn(&b, s, 1);
	}
	return b.s;
}

static void print_entry(const struct rdc_diagtab *t, const struct entry *e, const char *text, struct rdc_json *j,
			struct rdc_line_ids *ids, bool gap)
{
	bool msg = e->how == RDC_DHOW_MESSAGE;
	const struct rdc_dclass *cls[8];
	size_t ncls = 0;
	struct rdc_sbuf names = { 0 }, rels = { 0 };
	rdc_sb_add(&names, "");
	rdc_sb_add(&rels, "");
	size_t n = msg ? t->n_msgs : t->n_status;
	const char *kind = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!entry_row(t, e, i, msg))
			continue;
		const struct rdc_dclass *c = msg ? t->msgs[i].cls : t->statuses[i].cls;
		add_class(cls, &ncls, c);
		const char *nm = msg ? t->msgs[i].lib : t->statuses[i].name;
		const char *rel = msg ? t->msgs[i].file : t->statuses[i].release;
		/* names / libraries, once each */
		char tag[160];
		if (msg)
			snprintf(tag, sizeof tag, "%s", nm);
		else
			snprintf(tag, sizeof tag, "%s (%s)", nm, t->statuses[i].value_s);
		char probe[168];
		snprintf(probe, sizeof probe, "|%s|", tag);
		struct rdc_sbuf chk = { 0 };
		rdc_sb_printf(&chk, "|%s|", names.s);
		if (!strstr(chk.s, probe))
			rdc_sb_printf(&names, "%s%s", names.len ? "|" : "", tag);
		rdc_sb_free(&chk);
		char rtag[160];
		if (msg)
			snprintf(rtag, sizeof rtag, "%s in ROCm %s", rel, t->msgs[i].release);
		else
			snprintf(rtag, sizeof rtag, "%s", rel);
		snprintf(probe, sizeof probe, "|%s|", rtag);
		rdc_sb_printf(&chk, "|%s|", rels.s);
		if (!strstr(chk.s, probe))
			rdc_sb_printf(&rels, "%s%s", rels.len ? "|" : "", rtag);
		rdc_sb_free(&chk);
		if (!msg)
			kind = t->statuses[i].kind;
		for (size_t l = 0; l < e->n_lines; l++) {
			char id[200];
			if (msg)
				snprintf(id, sizeof id, "%s:%s", nm, c->id);
			else
				snprintf(id, sizeof id, "%s", nm);
			rdc_line_ids_add(ids, e->lines[l], id);
		}
	}
	char *nm_list = join_bars(names.s), *rel_list = join_bars(rels.s);
	const char *pattern = e->pat == (size_t)-1 ? NULL : t->pats[e->pat].text;
	/* shown on one line: blanks at the ends dropped, line breaks as spaces */
	char *shown = rdc_xstrdup(pattern ? pattern : "");
	char *sp = shown;
	while (*sp == '\n' || *sp == ' ')
		sp++;
	memmove(shown, sp, strlen(sp) + 1);
	for (size_t q = strlen(shown); q && (shown[q - 1] == '\n' || shown[q - 1] == ' ');)
		shown[--q] = '\0';
	for (sp = shown; *sp; sp++)
		if (*sp == '\n')
			*sp = ' ';
	if (j) {
		rdc_json_obj(j);
		rdc_json_key(j, "match");
		rdc_json_str(j, how_name(e->how));
		rdc_json_key(j, "pattern");
		rdc_json_str(j, pattern);
		rdc_json_key(j, "found");
		rdc_json_strn(j, e->found, e->found_len);
		rdc_json_key(j, "lines");
		rdc_json_arr(j);
		for (size_t l = 0; l < e->n_lines; l++)
			rdc_json_u64(j, e->lines[l]);
		rdc_json_arr_end(j);
		rdc_json_key(j, "rows");
		rdc_json_arr(j);
		for (size_t i = 0; i < n; i++) {
			if (!entry_row(t, e, i, msg))
				continue;
			rdc_json_obj(j);
			if (msg) {
				const struct rdc_dmsg *m = &t->msgs[i];
				const char *k[] = { "lib", "release", "file", "text", "class" };
				const char *v[] = { m->lib, m->release, m->file, m->text, m->cls->id };
				for (int q = 0; q < 5; q++) {
					rdc_json_key(j, k[q]);
					rdc_json_str(j, v[q]);
				}
			} else {
				const struct rdc_dstatus *s = &t->statuses[i];
				const char *k[] = { "kind", "name", "value", "release", "text", "class" };
				const char *v[] = { s->kind, s->name, s->value_s, s->release, s->text, s->cls->id };
				for (int q = 0; q < 6; q++) {
					rdc_json_key(j, k[q]);
					rdc_json_str(j, v[q]);
				}
			}
			rdc_json_obj_end(j);
		}
		rdc_json_arr_end(j);
		print_classes(cls, ncls, j);
		rdc_json_obj_end(j);
	} else {
		if (gap)
			printf("\n");
		if (msg)
			printf("[%s message] \"%s\" (%s)\n", nm_list, shown, rel_list);
		else if (e->how == RDC_DHOW_VALUE)
			printf(e->hex ? "[%s] status value 0x%lx (%s)\n" : "[%s] status value %ld (%s)\n", nm_list, e->value,
			       rel_list);
		else
			printf("[%s] %s status, by its %s \"%s\" (%s %s)\n", nm_list,
			       kind && !strcmp(kind, "hsa") ? "ROCR" : "HIP", how_name(e->how), pattern,
			       kind && !strcmp(kind, "hsa") ? "ROCR" : "HIP", rel_list);
		printf("  line%s", e->n_lines > 1 ? "s" : "");
		for (size_t l = 0; l < e->n_lines; l++)
			printf("%s %u", l ? "," : "", e->lines[l]);
		printf(": %.*s%s\n", e->found_len > 120 ? 120 : (int)e->found_len, e->found, e->found_len > 120 ? "…" : "");
		if (!msg) {
			/* the runtime's text of each name, per release */
			for (size_t i = 0; i < n; i++) {
				if (!entry_row(t, e, i, false))
					continue;
				printf("  %s %s %s: %s\n", !strcmp(t->statuses[i].kind, "hsa") ? "ROCR" : "HIP",
				       t->statuses[i].release, t->statuses[i].name,
				       *t->statuses[i].text ? t->statuses[i].text : "(no text)");
			}
		}
		print_classes(cls, ncls, NULL);
	}
	(void)text;
	free(shown);
	free(nm_list);
	free(rel_list);
	rdc_sb_free(&names);
	rdc_sb_free(&rels);
}

size_t rdc_explain_harvested(const struct rdc_diagtab *t, const char *text, struct rdc_json *j,
			     struct rdc_line_ids *ids, bool first_block)
{
	struct rdc_dhit *h = NULL;
	size_t nh = rdc_diagtab_search(t, text, &h);
	struct entry *e = NULL;
	size_t ne = 0;
	for (size_t i = 0; i < nh; i++) {
		size_t k = 0;
		for (; k < ne; k++)
			if (e[k].pat == h[i].pat && (h[i].pat != (size_t)-1 || (e[k].value == h[i].value && e[k].hex == h[i].hex)))
				break;
		if (k == ne) {
			e = rdc_xrealloc(e, (ne + 1) * sizeof *e);
			memset(&e[ne], 0, sizeof *e);
			e[ne].pat = h[i].pat;
			e[ne].value = h[i].value;
			e[ne].hex = h[i].hex;
			e[ne].how = h[i].how;
			e[ne].found = text + h[i].ms;
			e[ne].found_len = h[i].me - h[i].ms;
			ne++;
		}
		struct entry *x = &e[k];
		if (x->n_lines < 16 && (!x->n_lines || x->lines[x->n_lines - 1] != h[i].line))
			x->lines[x->n_lines++] = h[i].line;
	}
	if (j) {
		rdc_json_key(j, "harvested");
		rdc_json_arr(j);
	}
	for (size_t i = 0; i < ne; i++)
		print_entry(t, &e[i], text, j, ids, i > 0 || !first_block);
	if (j)
		rdc_json_arr_end(j);
	free(e);
	free(h);
	return ne;
}
