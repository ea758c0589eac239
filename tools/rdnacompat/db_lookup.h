/* SPDX-License-Identifier: MIT */
/*
 * db_lookup.h — picks the sourced card reports (tables/reports, kind
 * "sourced") most relevant to one card and ROCm version, for `cards` and
 * `doctor`: one line each, with the thread's URL.
 */
#ifndef RDC_TOOL_DB_LOOKUP_H
#define RDC_TOOL_DB_LOOKUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report_file.h"

struct rdc_sysinfo;

/* The sourced reports of `target`, best first: the same PCI device
 * (vendor:device, 0 = unknown) and the same ROCm major.minor as `rocm`
 * (NULL = unknown) rank higher, then the same major, then a stated
 * workaround and a quoted message; ties go to the newer thread.  Writes up
 * to `max` pointers into `reps` and returns the count. */
size_t rdc_db_relevant(const struct rdc_report *reps, size_t n, const char *target, uint16_t vendor,
		       uint16_t device, const char *rocm, const struct rdc_report **out, size_t max);

/* One line: "[result -> with workaround] ROCm V, CARD: symptom  URL". */
void rdc_db_print_line(FILE *f, const char *indent, const struct rdc_report *r);

/* Loads `dir` (NULL: the reports beside the tables) and prints a heading
 * and up to three relevant reports for the card; prints nothing when the
 * reports cannot be read.  Returns the number printed. */
size_t rdc_db_print_relevant(FILE *f, const char *dir, const char *target, uint16_t vendor, uint16_t device,
			     const char *rocm);

/* doctor: the reports for each AMD GPU `si` found, for its installed ROCm. */
void rdc_db_doctor_reports(FILE *f, const struct rdc_sysinfo *si);

/* The reports beside the tables (tables/reports), loaded: the count, 0
 * when they cannot be read.  Free with rdc_reports_free. */
size_t rdc_db_load_default(struct rdc_report **out);

struct rdc_json;
/* --json: the same up to three reports rdc_db_print_relevant prints, as an
 * array of objects (report, rocm_version, card, result,
 * result_with_workaround, symptom, message, workaround, source); [] when
 * none. */
void rdc_db_json_relevant(struct rdc_json *j, const struct rdc_report *reps, size_t n, const char *target,
			  uint16_t vendor, uint16_t device, const char *rocm);

#endif
