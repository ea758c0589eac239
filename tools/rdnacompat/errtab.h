/* SPDX-License-Identifier: MIT */
/*
 * errtab.h — tables/errors.tsv, the reviewed map from pasted error messages
 * to cause, fix and sources, as `rdnacompat explain` uses it.  Columns: id,
 * pattern (POSIX extended regex, case-insensitive, compiled with
 * REG_NEWLINE: `.` and `^`/`$` stay within one line of a pasted log, so a
 * pattern never joins words of two different errors), title, cause, fix,
 * sources (space-separated URLs).  Bad rows are refused with "file:line:".
 */
#ifndef RDC_TOOL_ERRTAB_H
#define RDC_TOOL_ERRTAB_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "rdnacompat/error.h"
#include "rdnacompat/target.h"

struct rdc_err_row {
	char *id, *pattern, *title, *cause, *fix, *sources;
	unsigned line;
	regex_t re;
};

struct rdc_errtab {
	size_t n;
	struct rdc_err_row *rows;
	char *path;
};

/* Load and compile the table at `path`.  Errors: RDC_E_IO, RDC_E_FORMAT
 * (wrong column count, empty field, duplicate id, bad regex, a source that
 * is not an http(s) URL) with "path:line: reason" in d. */
int rdc_errtab_load(const char *path, struct rdc_errtab *t, struct rdc_diag *d);
void rdc_errtab_free(struct rdc_errtab *t);

/* Does row `r` match `text`? */
bool rdc_errtab_match(const struct rdc_err_row *r, const char *text);

/* The gfx processors ("gfx1152") named on the lines of `text` where row `r`
 * matches, distinct, in order of appearance, at most `max` into out;
 * returns how many.  A line naming none adds none. */
size_t rdc_errtab_targets(const struct rdc_err_row *r, const char *text, char (*out)[RDC_PROC_MAX],
			  size_t max);

/* The 1-based numbers of the lines where row `r` matches `text` (one per
 * line, at most `max` into out); returns how many. */
size_t rdc_errtab_lines(const struct rdc_err_row *r, const char *text, unsigned *out, size_t max);

#endif
