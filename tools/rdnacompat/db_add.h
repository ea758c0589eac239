/* SPDX-License-Identifier: MIT */
/*
 * db_add.h — `rdnacompat db add FILE`: a user's report becomes a row of the
 * database (a file in tables/reports), after the same validation as
 * `db check`; a run on the simulated GPU must say so and keeps its mark.
 */
#ifndef RDC_TOOL_DB_ADD_H
#define RDC_TOOL_DB_ADD_H

/* Validate `file` and copy it into `dir` under its row name, atomically and
 * never over another file.  Returns 0 added (or already there, identical),
 * 1 refused (problems printed as "file:line: problem" to stderr; nothing
 * written), 2 cannot write. */
int rdc_db_add(const char *file, const char *dir);

#endif
