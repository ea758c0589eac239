/* SPDX-License-Identifier: MIT */
/*
 * rtcnames.h — tables/rtc-names.tsv: libraries that compile device code at
 * run time for the name they are told, with the names their sources know
 * (docs/SHIM.md, "name follows the code").  Pure: text in, rows out.
 */
#ifndef RDNACOMPAT_RTCNAMES_H
#define RDNACOMPAT_RTCNAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "rdnacompat/error.h"

#define RDC_RTCNAMES_MAX 16   /* rows */
#define RDC_RTCNAMES_KNOWS 48 /* names per row */

struct rdc_rtcname {
	char lib[64];                       /* "libMIOpen.so" */
	char knows[RDC_RTCNAMES_KNOWS][16]; /* "gfx1030", ... */
	size_t n_knows;
};

struct rdc_rtcnames {
	struct rdc_rtcname rows[RDC_RTCNAMES_MAX];
	size_t n;
};

/* Parse the table's text (len bytes, NUL not required): header
 * "lib<TAB>knows<TAB>source", `#` comments, blank lines.  0, or a negative
 * RDC_E_* with "line N: reason" in d (out then holds no rows). */
int rdc_rtcnames_parse(const char *text, size_t len, struct rdc_rtcnames *out, struct rdc_diag *d);

/* The row whose lib names the object at `path` (its base name is lib, or lib
 * followed by "."), or NULL. */
const struct rdc_rtcname *rdc_rtcnames_find(const struct rdc_rtcnames *t, const char *path);

/* Whether the row's sources know processor `proc` (exact name). */
bool rdc_rtcname_knows(const struct rdc_rtcname *r, const char *proc);

#endif
