/* SPDX-License-Identifier: MIT */
/*
 * tables_parse.h — the one parser and validator of the table text formats
 * (tables/README.md), shared by tools/tablegen (build time, the tables/ TSV files ->
 * generated C) and rdc_tables_load (run time, the RDNACOMPAT_TABLES file).
 *
 * A struct rdc_tables_build collects rows, remembers where each row came
 * from (file:line) and owns the strings it parsed.  Rows are keyed
 * (isa: name; compat: device+code; cards: vendor+device+revision;
 * badkernels: target+code_target+kernel_glob): a second row with a key
 * already given by the same file is an error, a row whose key came from
 * another source (the built-in tables) replaces it.  Every error is
 * "file:line: reason" in the diag.
 *
 * This file's implementation must not reference rdc_tables_builtin():
 * tablegen links the core without the generated data.
 */
#ifndef RDNACOMPAT_TABLES_PARSE_H
#define RDNACOMPAT_TABLES_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "rdnacompat/error.h"
#include "rdnacompat/tables.h"

/* RDC_TAB_BAD ([badkernels]) is the legacy refusal list: override files only,
 * no tables/ file.  RDC_TAB_KERNELS is tables/kernels.tsv ([kernels]). */
enum rdc_table_kind { RDC_TAB_ISA = 0, RDC_TAB_COMPAT, RDC_TAB_CARDS, RDC_TAB_BAD, RDC_TAB_KERNELS,
		      RDC_TAB_N };

struct rdc_row_origin {
	const char *file; /* owned by the build (or static) */
	unsigned line;    /* 0 for rows copied from compiled-in tables */
};

struct rdc_tables_build {
	struct rdc_tables t; /* view of the rows below; t.owned_ unused here */
	size_t cap[RDC_TAB_N];
	struct rdc_row_origin *origin[RDC_TAB_N];
	void *pool; /* owned strings (opaque) */
};

/* "isa", "compat", "cards", "badkernels" (also the section names and the
 * file names tables/<name>.tsv); NULL for a bad kind. */
const char *rdc_table_kind_name(enum rdc_table_kind k);
/* Is kind `k` compiled from a tables/<name>.tsv file (false: override
 * sections only, i.e. the legacy [badkernels])? */
bool rdc_table_has_file(enum rdc_table_kind k);
/* The header line of a kind: column names separated by tabs. */
const char *rdc_table_columns(enum rdc_table_kind k);

void rdc_tables_build_init(struct rdc_tables_build *b);
void rdc_tables_build_free(struct rdc_tables_build *b);

/* Copy every row of `src` (strings are shared, not copied: src must outlive
 * b) with origin `label`, line 0. */
int rdc_tables_build_add(struct rdc_tables_build *b, const struct rdc_tables *src,
			 const char *label, struct rdc_diag *d);

/* A deep copy of `src` into `dst` (initialised here), for a build whose rows
 * all came from rdc_tables_build_add (no strings of its own): the fuzzer
 * builds the compiled-in rows once and copies them per input instead of
 * re-adding them row by row.  RDC_E_UNSUPPORTED for a build that parsed
 * text.  On error `dst` is left empty. */
int rdc_tables_build_copy(struct rdc_tables_build *dst, const struct rdc_tables_build *src,
			  struct rdc_diag *d);

/* One table file: optional comments/blank lines, then the header line
 * (required, must equal rdc_table_columns(kind)), then rows. */
int rdc_tables_parse_tsv(struct rdc_tables_build *b, enum rdc_table_kind kind, const char *text,
			 size_t len, const char *file, struct rdc_diag *d);

/* The override format: "[isa]" / "[compat]" / "[cards]" / "[badkernels]"
 * section lines, each followed by rows of that table (a header line right
 * after the section line is allowed and skipped). */
int rdc_tables_parse_sections(struct rdc_tables_build *b, const char *text, size_t len,
			      const char *file, struct rdc_diag *d);

/* Cross-row checks on everything collected: unique mach values, generic
 * membership, compat edges between known processors of one generic family
 * with unique ranks per device, card and bad-kernel targets known. */
int rdc_tables_validate(const struct rdc_tables_build *b, struct rdc_diag *d);

/* File I/O helper: read a whole (small, < 16 MiB) file into a malloc'd,
 * NUL-terminated buffer. */
int rdc_tables_read_file(const char *path, char **text, size_t *len, struct rdc_diag *d);

#endif
