/* SPDX-License-Identifier: MIT */
/*
 * tsvtab.c — loads the run-time tables of tsvtab.h.
 */
#include "tsvtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"

void rdc_tsvtab_free(struct rdc_tsvtab *t)
{
	for (size_t i = 0; i < t->n * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->lines);
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

static char *resolve(const char *file)
{
	if (strchr(file, '/'))
		return rdc_xstrdup(file);
	char *dir = rdc_tables_dir();
	if (!dir)
		return NULL;
	struct rdc_sbuf b = { 0 };
	rdc_sb_printf(&b, "%s/%s", dir, file);
	free(dir);
	return b.s;
}

int rdc_tsvtab_load(const char *file, const char *const *cols, struct rdc_tsvtab *t, struct rdc_diag *d)
{
	memset(t, 0, sizeof *t);
	while (cols[t->ncols])
		t->ncols++;
	char *path = resolve(file);
	if (!path)
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET,
				    "%s: tables/ not found beside the tool (set RDNACOMPAT_TABLES_DIR)", file);
	struct rdc_diag od = { 0 };
	FILE *f = rdc_fopen_input(path, &od);
	if (!f) {
		free(path);
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "cannot read %s", od.msg);
	}
	t->path = path;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned ln = 0;
	int rc = 0;
	bool header = false;
	char **col = rdc_xmalloc(t->ncols * sizeof *col);
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		ln++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		size_t n = 0;
		for (char *p = line;;) {
			char *tab = strchr(p, '\t');
			if (n < t->ncols)
				col[n] = p;
			n++;
			if (!tab)
				break;
			*tab = '\0';
			p = tab + 1;
		}
		if (n != t->ncols) {
			rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "%zu columns, expected %zu", n, t->ncols);
			break;
		}
		if (!header) {
			for (size_t i = 0; i < n && !rc; i++)
				if (strcmp(col[i], cols[i]))
					rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "header column %zu is '%s', expected '%s'",
							   i + 1, col[i], cols[i]);
			header = true;
			continue;
		}
		for (size_t i = 0; i < n && !rc; i++)
			if (!*col[i])
				rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "column %zu (%s) is empty", i + 1, cols[i]);
		if (!rc)
			rc = check_sources(path, ln, col[n - 1], d);
		if (rc)
			break;
		t->cells = rdc_xrealloc(t->cells, (t->n + 1) * t->ncols * sizeof *t->cells);
		t->lines = rdc_xrealloc(t->lines, (t->n + 1) * sizeof *t->lines);
		for (size_t i = 0; i < n; i++)
			t->cells[t->n * t->ncols + i] = rdc_xstrdup(col[i]);
		t->lines[t->n++] = ln;
	}
	free(col);
	free(line);
	fclose(f);
	if (!rc && !header)
		rc = rdc_diag_setl(d, RDC_E_FORMAT, path, ln, "no header line");
	if (rc)
		rdc_tsvtab_free(t);
	return rc;
}
