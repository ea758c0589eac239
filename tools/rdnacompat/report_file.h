/* SPDX-License-Identifier: MIT */
/*
 * report_file.h — card report files (tables/reports/SCHEMA.md): reading
 * "key: value" lines with their line numbers, validating them against the
 * schema (1, or 2 with sourced reports) and the card table, and loading a directory of them.
 */
#ifndef RDC_TOOL_REPORT_FILE_H
#define RDC_TOOL_REPORT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rdnacompat/tables.h"

struct rdc_rfield {
	char *key, *value;
	unsigned line;
};

struct rdc_report {
	char *path;                /* as given */
	char *name;                /* file name without directory and ".report" */
	size_t n;
	struct rdc_rfield *f;
	size_t n_syntax;           /* lines that are not "key: value" */
	unsigned first_bad_line;
};

/* Read one report file (false when it cannot be opened); free with
 * rdc_report_free. */
bool rdc_report_load(const char *path, struct rdc_report *r);
void rdc_report_free(struct rdc_report *r);

/* First value of `key`, or NULL. */
const char *rdc_report_get(const struct rdc_report *r, const char *key);

/* Whether `key` is a key of schema 1 or 2, and whether it may repeat. */
bool rdc_report_key_known(const char *key, bool *list);

/* True for "kind: sourced" (schema 2: written from a public thread). */
bool rdc_report_sourced(const struct rdc_report *r);

/* Whether `v` is a platform value: linux, windows, wsl; "not stated" only
 * for a sourced report. */
bool rdc_report_platform_ok(const char *v, bool sourced);

/* The report's platform: its `platform:` value; a run report without one
 * is "linux" (rdnacompat report runs on Linux only), a sourced one
 * "not stated". */
const char *rdc_report_platform(const struct rdc_report *r);

/* Whether a symptom value starts with a known class ("hang: ..."); *len
 * gets the class's length. */
bool rdc_report_symptom_class(const char *v, size_t *len);

/* Check `r` against the schema and the card table; writes one
 * "file:line: message" per problem to `errs` and returns the count. */
size_t rdc_report_validate(const struct rdc_report *r, const struct rdc_tables *t, FILE *errs);

/* Every *.report in `dir`, sorted by name.  Returns the count (0 also when
 * the directory cannot be read: then *ok is false). */
size_t rdc_reports_load_dir(const char *dir, struct rdc_report **out, bool *ok);
void rdc_reports_free(struct rdc_report *v, size_t n);

#endif
