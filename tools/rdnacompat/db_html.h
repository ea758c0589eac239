/* SPDX-License-Identifier: MIT */
/*
 * db_html.h — the static compatibility page, written from the SQLite
 * database `rdnacompat db build` made: DIR/index.html (cards x ROCm
 * versions, each cell the results of that pair's reports, linking each
 * report's page) and DIR/reports/<name>.html.
 */
#ifndef RDC_TOOL_DB_HTML_H
#define RDC_TOOL_DB_HTML_H

#include <sqlite3.h>

/* Returns 0, or -1 after printing what failed to stderr. */
int rdc_db_write_html(sqlite3 *db, const char *dir);

#endif
