/* SPDX-License-Identifier: MIT */
/*
 * harmless.h — the lines the ROCm stack prints on healthy runs (tables/
 * harmless.tsv: libdrm's missing amdgpu.ids, RCCL's iommu=pt advice, ROCR's
 * signal-pool and time-stamp notices, MIOpen's database notices), each with
 * why it is harmless and the source that prints it.  `rdnacompat explain`
 * finds them in pasted text, lists them as harmless and blanks them before
 * looking for the error, so they are never taken for the cause.
 */
#ifndef RDC_TOOL_HARMLESS_H
#define RDC_TOOL_HARMLESS_H

#include <stdbool.h>
#include <stddef.h>

#include "fmtmatch.h"
#include "json_out.h"
#include "tsvtab.h"

struct rdc_harmless {
	struct rdc_tsvtab tab;     /* lib, text, why, sources */
	struct rdc_fmt *fmt;       /* one compiled pattern per row */
};

/* One row found: its index and the lines (1-based) it was found on. */
struct rdc_harmless_hit {
	size_t row;
	unsigned lines[16];
	size_t n_lines;
};

/* Load tables/harmless.tsv (`file` as rdc_tsvtab_load takes it).  Errors:
 * RDC_E_IO, RDC_E_FORMAT (a bad row or a text with nothing literal), with
 * "path:line: reason" in d. */
int rdc_harmless_load(const char *file, struct rdc_harmless *h, struct rdc_diag *d);
void rdc_harmless_free(struct rdc_harmless *h);

/* Find every row in `text` (already rdc_text_clean'ed).  Each match's lines
 * are overwritten with blanks in `text` (line breaks kept, so line numbers
 * stay), so what is left is what may be an error.  Returns the number of
 * rows found, their hits in *out (malloc'd, or NULL when none). */
size_t rdc_harmless_scan(const struct rdc_harmless *h, char *text, struct rdc_harmless_hit **out);

/* Print the hits: JSON key "harmless" ([{lib, text, why, sources, lines}])
 * in the object open in j, or as text ("[harmless] ..." with why, source and
 * lines) when j is NULL. */
void rdc_harmless_print(const struct rdc_harmless *h, const struct rdc_harmless_hit *hits, size_t n,
			struct rdc_json *j);

#endif
