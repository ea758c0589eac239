/* SPDX-License-Identifier: MIT */
/*
 * db_html.h — the static compatibility site, written from the SQLite
 * database `rdnacompat db build` made (tables cards, reports, report_lines):
 *   DIR/index.html        one row per reported card, one column per ROCm
 *                         minor version; each cell the worst and the best
 *                         outcome from real cards on Linux with counts,
 *                         simulated runs and other platforms on their own
 *                         lines (never an outcome), linking the card page
 *   DIR/cards/<slug>.html every report of one card with its source, the
 *                         message, what people did, and what rdnacompat's
 *                         tables do for the card's target (db_html_card.c)
 *   DIR/search.html       every card of tables/cards.tsv by name, PCI id and
 *                         target: an anchor index that works without
 *                         JavaScript; a small script filters it by ?q=
 *   DIR/reports/<name>.html one report, line by line.
 * The pages load nothing from the network.
 */
#ifndef RDC_TOOL_DB_HTML_H
#define RDC_TOOL_DB_HTML_H

#include <sqlite3.h>
#include <stdio.h>

/* Returns 0, or -1 after printing what failed to stderr. */
int rdc_db_write_html(sqlite3 *db, const char *dir);

/* Card pages (db_html_card.c); 0 or -1 as above. */
int rdc_db_write_card_pages(sqlite3 *db, const char *dir);

/* Shared by the page writers. */
void rdc_html_esc(FILE *f, const char *s);
/* fmt with each "%s" replaced by the next (const char *) argument,
 * HTML-escaped; nothing else in fmt is special. */
void rdc_html(FILE *f, const char *fmt, ...);
const char *rdc_html_col(sqlite3_stmt *st, int i);
FILE *rdc_html_open(const char *dir, const char *name);
/* "<!DOCTYPE html>...<body>" with the title and the shared style. */
void rdc_html_head(FILE *f, const char *title, const char *root);
/* What a simulated run's result shows, in words ("loads on a simulated
 * card" for works): a simulated run is never shown as an outcome. */
const char *rdc_html_sim_label(const char *result);
/* Version strings in numeric order ("5.7" < "6.2" < "6.10" < "6.x" <
 * "none" < "not stated"); for qsort over char *. */
int rdc_html_cmp_ver(const void *a, const void *b);

#endif
