/* SPDX-License-Identifier: MIT */
/*
 * explain_diag.h — `rdnacompat explain`'s answers from the harvested tables
 * (diagtab.h): one entry per status name, status text, value or library
 * message found, with the lines it was found on and its class; and the
 * line-by-line summary of everything explain matched.
 */
#ifndef RDC_TOOL_EXPLAIN_DIAG_H
#define RDC_TOOL_EXPLAIN_DIAG_H

#include <stddef.h>

#include "diagtab.h"
#include "json_out.h"

struct rdc_line_id {
	unsigned line;
	char *id;
};

struct rdc_line_ids {
	size_t n, cap;
	struct rdc_line_id *v;
};

/* Record that `id` explains line `line` (each pair once). */
void rdc_line_ids_add(struct rdc_line_ids *l, unsigned line, const char *id);
/* The summary: JSON key "lines" ([{line, text, ids}], in line order), or,
 * as text, "line N: ids — the line" for each line (only when more than one
 * line matched). */
void rdc_line_ids_print(const struct rdc_line_ids *l, const char *text, struct rdc_json *j);
void rdc_line_ids_free(struct rdc_line_ids *l);

/* The harvested entries found in `text` (cleaned): JSON key "harvested"
 * (array) or text blocks; adds each to `ids`.  Returns how many entries. */
size_t rdc_explain_harvested(const struct rdc_diagtab *t, const char *text, struct rdc_json *j,
			     struct rdc_line_ids *ids, bool first_block);

#endif
