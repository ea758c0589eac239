/* SPDX-License-Identifier: MIT */
/*
 * errtab.c — loads and matches tables/errors.tsv (see errtab.h).
 */
#include "errtab.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tool_util.h"

void rdc_errtab_free(struct rdc_errtab *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct rdc_err_row *r = &t->rows[i];
		regfree(&r->re);
		free(r->id);
		free(r->pattern);
		free(r->title);
		free(r->cause);
		free(r->fix);
		free(r->sources);
	}
	free(t->rows);
	free(t->path);
	memset(t, 0, sizeof *t);
}

static int check_sources(const char *path, unsigned line, const char *s, struct rdc_diag *d)
{
	char *copy = rdc_xstrdup(s), *save = NULL;
	int rc = 0, n = 0;
	for (char *tok = strtok_r(copy, " ", &save); tok && !rc; tok = strtok_r(NULL, " ", &save)) {
		n++;
		if (strncmp(tok, "https://", 8) && strncmp(tok, "http://", 7))
			rc = rdc_diag_setl(d, RDC_E_FORMAT, path, line, "source '%s' is not a URL", tok);
	}
	if (!rc && !n)
		rc = rdc_diag_setl(d, RDC_E_FORMAT, path, line, "no source given");
	free(copy);
	return rc;
}

int rdc_errtab_load(const char *path, struct rdc_errtab *t, struct rdc_diag *d)
{
	memset(t, 0, sizeof *t);
	struct rdc_diag od = { 0 };
	FILE *f = rdc_fopen_input(path, &od);
	if (!f)
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "cannot read %s", od.msg);
	t->path = rdc_xstrdup(path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned ln = 0;
	int rc = 0;
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		ln++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		char *col[6];
		int n = 0;
		char *p = line;
		for (;;) {
			char *tab = strchr(p, '\t');
			if (n < 6)
				col[n] = p;
			n++;
			if (!tab)
				break;
			*tab = '\0';
			p = tab + 1;
		}
		if (n != 6) {
			rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "%d columns, expected 6 (id, pattern, title, cause, fix, sources)", n);
			break;
		}
		for (int i = 0; i < 6 && !rc; i++)
			if (!*col[i])
				rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "column %d is empty", i + 1);
		for (size_t i = 0; i < t->n && !rc; i++)
			if (!strcmp(t->rows[i].id, col[0]))
				rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "id '%s' repeats line %u", col[0], t->rows[i].line);
		if (!rc)
			rc = check_sources(path, ln, col[5], d);
		if (rc)
			break;
		struct rdc_err_row r = { 0 };
		int e = regcomp(&r.re, col[1], REG_EXTENDED | REG_ICASE | REG_NEWLINE);
		if (e) {
			char msg[160];
			regerror(e, &r.re, msg, sizeof msg);
			rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "pattern: %s", msg);
			break;
		}
		r.id = rdc_xstrdup(col[0]);
		r.pattern = rdc_xstrdup(col[1]);
		r.title = rdc_xstrdup(col[2]);
		r.cause = rdc_xstrdup(col[3]);
		r.fix = rdc_xstrdup(col[4]);
		r.sources = rdc_xstrdup(col[5]);
		r.line = ln;
		t->rows = rdc_xrealloc(t->rows, (t->n + 1) * sizeof *t->rows);
		t->rows[t->n++] = r;
	}
	free(line);
	fclose(f);
	if (!rc && !t->n)
		rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "no rows");
	if (rc)
		rdc_errtab_free(t);
	return rc;
}

bool rdc_errtab_match(const struct rdc_err_row *r, const char *text)
{
	return regexec(&r->re, text, 0, NULL, 0) == 0;
}

/* Adds the gfx processor names in [s, e) to out (distinct, at most max):
 * "gfx" + a digit + 2-3 hex digits, not followed by a letter or digit (so
 * "gfx103X" and "gfx11-generic" are no targets). */
static void line_targets(const char *s, const char *e, char (*out)[RDC_PROC_MAX], size_t *n, size_t max)
{
	for (const char *p = s; p + 6 <= e; p++) {
		if (strncasecmp(p, "gfx", 3) || (p > s && isalnum((unsigned char)p[-1])) ||
		    !isdigit((unsigned char)p[3]))
			continue;
		size_t len = 4;
		while (p + len < e && len < 7 && isxdigit((unsigned char)p[len]))
			len++;
		if (len < 6 || (p + len < e && isalnum((unsigned char)p[len])))
			continue;
		char t[RDC_PROC_MAX];
		for (size_t i = 0; i < len; i++)
			t[i] = (char)tolower((unsigned char)p[i]);
		t[len] = '\0';
		bool seen = false;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = !strcmp(out[i], t);
		if (!seen && *n < max)
			memcpy(out[(*n)++], t, len + 1);
		p += len - 1;
	}
}

size_t rdc_errtab_targets(const struct rdc_err_row *r, const char *text, char (*out)[RDC_PROC_MAX], size_t max)
{
	size_t n = 0;
	const char *p = text;
	regmatch_t m;
	while (*p && regexec(&r->re, p, 1, &m, p == text ? 0 : REG_NOTBOL) == 0) {
		const char *ms = p + m.rm_so, *me = p + m.rm_eo;
		const char *ls = ms, *le = me;
		while (ls > text && ls[-1] != '\n')
			ls--;
		while (*le && *le != '\n')
			le++;
		line_targets(ls, le, out, &n, max);
		/* Go on after this line: one match per line is enough. */
		p = *le ? le + 1 : le;
	}
	return n;
}

size_t rdc_errtab_lines(const struct rdc_err_row *r, const char *text, unsigned *out, size_t max)
{
	size_t n = 0;
	const char *p = text;
	unsigned line = 1;
	regmatch_t m;
	while (*p && n < max && regexec(&r->re, p, 1, &m, p == text ? 0 : REG_NOTBOL) == 0) {
		const char *ms = p + m.rm_so;
		for (const char *q = p; q < ms; q++)
			line += *q == '\n';
		out[n++] = line;
		const char *le = ms;
		while (*le && *le != '\n')
			le++;
		if (*le)
			line++;
		p = *le ? le + 1 : le;
	}
	return n;
}
