/* SPDX-License-Identifier: MIT */
/*
 * diagtab.h — the harvested diagnosis tables `rdnacompat explain` matches
 * besides errors.tsv: tables/status.tsv (every hipError_t and hsa_status_t
 * of each release: name, value, the runtime's own text), tables/
 * lib-messages.tsv (the device, architecture and code-object messages of
 * the libraries, as format strings) and tables/error-classes.tsv (what
 * each class means: is an unsupported card a known cause, what the user
 * checks, what rdnacompat does).  Both harvested tables are written by
 * tools/harvest/harvest.py.
 *
 * A status is found by its name (a word), by its text (whole, and for ROCR
 * also the part after "NAME: "), or by its value: the whole input being a
 * number, or a number after "code", "error" or "status" on a line naming
 * HIP, HSA, ROCm or the GPU (decimal: HIP; 0x hex: both).  A message is
 * found by its format string (fmtmatch.h).
 */
#ifndef RDC_TOOL_DIAGTAB_H
#define RDC_TOOL_DIAGTAB_H

#include <stdbool.h>
#include <stddef.h>

#include "fmtmatch.h"
#include "rdnacompat/error.h"

struct rdc_dclass {
	char *id, *card, *title, *check, *does, *sources;
};

struct rdc_dstatus {
	char kind[4];              /* "hip" or "hsa" */
	char *name, *value_s, *release, *text;
	long value;
	const struct rdc_dclass *cls;
};

struct rdc_dmsg {
	char *lib, *release, *file, *text;
	const struct rdc_dclass *cls;
};

enum rdc_dhow { RDC_DHOW_NAME, RDC_DHOW_TEXT, RDC_DHOW_VALUE, RDC_DHOW_MESSAGE };

/* One distinct pattern and the rows it stands for. */
struct rdc_dpat {
	struct rdc_fmt fmt;
	char *text;                /* the pattern as written (unescaped) */
	enum rdc_dhow how;
	size_t n, *rows;           /* indexes into statuses[] or msgs[] */
};

struct rdc_diagtab {
	size_t n_classes, n_status, n_msgs, n_pats;
	struct rdc_dclass *classes;
	struct rdc_dstatus *statuses;
	struct rdc_dmsg *msgs;
	struct rdc_dpat *pats;
};

/* Load the three tables from directory `dir`.  Errors: RDC_E_IO,
 * RDC_E_FORMAT ("path:line: reason": wrong header or column count, a value
 * that is no number, a class the class table lacks, `unreviewed`). */
int rdc_diagtab_load(const char *dir, struct rdc_diagtab *t, struct rdc_diag *d);
void rdc_diagtab_free(struct rdc_diagtab *t);

struct rdc_dhit {
	size_t pat;                /* index into pats[]; (size_t)-1 for a value match */
	enum rdc_dhow how;
	size_t ms, me;             /* offsets in the cleaned text */
	unsigned line;
	long value;                /* RDC_DHOW_VALUE */
	bool hex;
};

/* Every hit in `text` (already rdc_text_clean'ed), in text order; a hit
 * whose span lies inside another's is dropped ("HSA_STATUS_ERROR_INVALID_ISA"
 * inside its whole text).  *out is malloc'd; returns the count. */
size_t rdc_diagtab_search(const struct rdc_diagtab *t, const char *text, struct rdc_dhit **out);

/* The status rows a value hit stands for (kind hip for decimal, both for hex). */
bool rdc_diagtab_value_row(const struct rdc_diagtab *t, const struct rdc_dhit *h, size_t row);

/* Unescape \n \t \\ in place. */
void rdc_unescape(char *s);

#endif
