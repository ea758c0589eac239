/* SPDX-License-Identifier: MIT */
/*
 * tsvtab.h — the tool's small reviewed tables that are read at run time
 * rather than compiled (tables/builds.tsv, tables/platform.tsv): one row a
 * line, single tabs, `#` comments, a header line naming the columns exactly,
 * no empty field, and a last column of space-separated http(s) URLs, the
 * sources.  Bad rows are refused with "file:line: reason".
 */
#ifndef RDC_TOOL_TSVTAB_H
#define RDC_TOOL_TSVTAB_H

#include <stddef.h>

#include "rdnacompat/error.h"

struct rdc_tsvtab {
	size_t n;                  /* rows */
	size_t ncols;
	char **cells;              /* n * ncols, row-major */
	unsigned *lines;           /* line number of each row */
	char *path;
};

/* Load `file` (a name in the tables directory, rdc_tables_dir(), or a path
 * containing '/') whose header must be `cols` (NULL-terminated; the last
 * one is the sources column).  Errors: RDC_E_IO, RDC_E_FORMAT, with
 * "path:line: reason" in d. */
int rdc_tsvtab_load(const char *file, const char *const *cols, struct rdc_tsvtab *t, struct rdc_diag *d);
void rdc_tsvtab_free(struct rdc_tsvtab *t);

/* Cell (row r, column c). */
static inline const char *rdc_tsv_cell(const struct rdc_tsvtab *t, size_t r, size_t c)
{
	return t->cells[r * t->ncols + c];
}

#endif
