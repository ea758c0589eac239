/* SPDX-License-Identifier: MIT */
/*
 * db_html.c — writes the compatibility page from the report database (see
 * db_html.h).  Everything printed is HTML-escaped; the page has no scripts.
 */
#include "db_html.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool_util.h"

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Writes fmt, each "%s" replaced by the next argument (const char *)
 * HTML-escaped; nothing else in fmt is special. */
static void html(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	for (const char *c = fmt; *c; c++) {
		if (c[0] == '%' && c[1] == 's') {
			esc(f, va_arg(ap, const char *));
			c++;
		} else {
			fputc(*c, f);
		}
	}
	va_end(ap);
}

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

static const char style[] =
	"<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
	"td,th{border:1px solid #999;padding:4px 8px;vertical-align:top}th{background:#eee}"
	".works{color:#060}.partial{color:#a60}.fails{color:#b00}.untested{color:#666}"
	".sim{font-size:80%;color:#555}</style>\n";

/* Version strings sort numerically: 5.2.3 < 6.2.4 < 6.10.0. */
static int cmp_ver(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	unsigned xa = 0, xb = 0, xc = 0, ya = 0, yb = 0, yc = 0;
	sscanf(x, "%u.%u.%u", &xa, &xb, &xc);
	sscanf(y, "%u.%u.%u", &ya, &yb, &yc);
	if (xa != ya)
		return xa < ya ? -1 : 1;
	if (xb != yb)
		return xb < yb ? -1 : 1;
	if (xc != yc)
		return xc < yc ? -1 : 1;
	return strcmp(x, y);
}

static FILE *open_out(const char *dir, const char *name)
{
	struct rdc_sbuf p = { 0 };
	rdc_sb_printf(&p, "%s/%s", dir, name);
	FILE *f = fopen(p.s, "we");
	if (!f)
		fprintf(stderr, "rdnacompat db: cannot write %s: %s\n", p.s, strerror(errno));
	rdc_sb_free(&p);
	return f;
}

static int report_pages(sqlite3 *db, const char *dir)
{
	sqlite3_stmt *rep = NULL, *lines = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "SELECT name, card, pci_id, gfx_target, rocm_version, result, simulated FROM reports ORDER BY name",
			       -1, &rep, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT line, key, value FROM report_lines WHERE report = ?1 ORDER BY line", -1,
			       &lines, NULL) != SQLITE_OK) {
		fprintf(stderr, "rdnacompat db: %s\n", sqlite3_errmsg(db));
		rc = -1;
		goto out;
	}
	while (sqlite3_step(rep) == SQLITE_ROW) {
		struct rdc_sbuf n = { 0 };
		rdc_sb_printf(&n, "reports/%s.html", col(rep, 0));
		FILE *f = open_out(dir, n.s);
		rdc_sb_free(&n);
		if (!f) {
			rc = -1;
			break;
		}
		html(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>\n",
		     col(rep, 0));
		fputs(style, f);
		html(f, "</head><body>\n<p><a id=\"back\" href=\"../index.html\">All cards</a></p>\n"
			"<h1>%s (%s) on ROCm %s: <span class=\"%s\">%s</span>",
		     col(rep, 1), col(rep, 3), col(rep, 4), col(rep, 5), col(rep, 5));
		if (sqlite3_column_int(rep, 6))
			fputs(" <span class=\"sim\">(simulated GPU)</span>", f);
		fputs("</h1>\n<table id=\"report\">\n<tr><th>line</th><th>key</th><th>value</th></tr>\n", f);
		sqlite3_reset(lines);
		sqlite3_bind_text(lines, 1, col(rep, 0), -1, SQLITE_TRANSIENT);
		while (sqlite3_step(lines) == SQLITE_ROW) {
			fprintf(f, "<tr><td>%d</td>", sqlite3_column_int(lines, 0));
			html(f, "<td>%s</td><td>%s</td></tr>\n", col(lines, 1), col(lines, 2));
		}
		html(f, "</table>\n<p>Source: <a href=\"%s.report\">%s.report</a></p>\n</body></html>\n",
		     col(rep, 0), col(rep, 0));
		if (fclose(f) != 0)
			rc = -1;
	}
out:
	sqlite3_finalize(rep);
	sqlite3_finalize(lines);
	return rc;
}

int rdc_db_write_html(sqlite3 *db, const char *dir)
{
	struct rdc_sbuf rd = { 0 };
	rdc_sb_printf(&rd, "%s/reports", dir);
	if (mkdir(rd.s, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "rdnacompat db: cannot create %s: %s\n", rd.s, strerror(errno));
		rdc_sb_free(&rd);
		return -1;
	}
	rdc_sb_free(&rd);
	if (report_pages(db, dir) != 0)
		return -1;

	/* Columns: the ROCm versions reported. */
	sqlite3_stmt *st = NULL;
	char **vers = NULL;
	size_t nv = 0;
	sqlite3_prepare_v2(db, "SELECT DISTINCT rocm_version FROM reports", -1, &st, NULL);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		vers = rdc_xrealloc(vers, (nv + 1) * sizeof *vers);
		vers[nv++] = rdc_xstrdup(col(st, 0));
	}
	sqlite3_finalize(st);
	if (nv)
		qsort(vers, nv, sizeof *vers, cmp_ver);

	FILE *f = open_out(dir, "index.html");
	if (!f)
		goto fail;
	sqlite3_stmt *cnt = NULL;
	long n_reports = 0, n_sim = 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*), sum(simulated) FROM reports", -1, &cnt, NULL) == SQLITE_OK &&
	    sqlite3_step(cnt) == SQLITE_ROW) {
		n_reports = sqlite3_column_int(cnt, 0);
		n_sim = sqlite3_column_int(cnt, 1);
	}
	sqlite3_finalize(cnt);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "<title>rdnacompat card compatibility</title>\n%s</head><body>\n"
		   "<h1>rdnacompat: AMD cards &times; ROCm versions</h1>\n"
		   "<p id=\"summary\">%ld report(s), %ld of them on the simulated GPU (marked <span class=\"sim\">sim</span>: "
		   "they show the shim's decisions for the real ROCm libraries, not results on a real card). "
		   "Official status is from the card table (tables/cards.tsv). Send yours with <code>rdnacompat report</code>.</p>\n"
		   "<table id=\"compat\">\n<tr><th>Card</th><th>PCI id</th><th>Target</th><th>Status</th>",
		style, n_reports, n_sim);
	for (size_t i = 0; i < nv; i++)
		html(f, "<th>ROCm %s</th>", vers[i]);
	fputs("</tr>\n", f);
	sqlite3_stmt *rows = NULL, *cell = NULL;
	sqlite3_prepare_v2(db,
			   "SELECT r.card, r.pci_id, r.gfx_target, "
			   "  (SELECT c.status FROM cards c WHERE c.pci_id = r.pci_id LIMIT 1) "
			   "FROM reports r GROUP BY r.pci_id, r.gfx_target, r.card ORDER BY r.gfx_target, r.card",
			   -1, &rows, NULL);
	sqlite3_prepare_v2(db,
			   "SELECT name, result, simulated, shim_mode, "
			   "  (SELECT group_concat(value, '; ') FROM report_lines l WHERE l.report = reports.name "
			   "   AND l.key = 'workload') "
			   "FROM reports WHERE card = ?1 AND pci_id = ?2 "
			   "AND gfx_target = ?3 AND rocm_version = ?4 ORDER BY date, name",
			   -1, &cell, NULL);
	while (rows && cell && sqlite3_step(rows) == SQLITE_ROW) {
		html(f, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>", col(rows, 0), col(rows, 1),
		     col(rows, 2), sqlite3_column_text(rows, 3) ? col(rows, 3) : "not in table");
		for (size_t v = 0; v < nv; v++) {
			fputs("<td>", f);
			sqlite3_reset(cell);
			for (int k = 0; k < 3; k++)
				sqlite3_bind_text(cell, k + 1, col(rows, k), -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(cell, 4, vers[v], -1, SQLITE_TRANSIENT);
			int n = 0;
			while (sqlite3_step(cell) == SQLITE_ROW) {
				fputs(n++ ? "<br>" : "", f);
				html(f, "<a class=\"%s\" href=\"reports/%s.html\" title=\"%s\">%s</a>",
				     col(cell, 1), col(cell, 0), col(cell, 4), col(cell, 1));
				if (strcmp(col(cell, 3), "map"))
					html(f, " <span class=\"sim\">%s mode</span>", col(cell, 3));
				if (sqlite3_column_int(cell, 2))
					fputs(" <span class=\"sim\">sim</span>", f);
			}
			if (!n)
				fputs("&mdash;", f);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	sqlite3_finalize(rows);
	sqlite3_finalize(cell);
	fputs("</table>\n</body></html>\n", f);
	int rc = fclose(f) == 0 ? 0 : -1;
	for (size_t i = 0; i < nv; i++)
		free(vers[i]);
	free(vers);
	return rc;
fail:
	for (size_t i = 0; i < nv; i++)
		free(vers[i]);
	free(vers);
	return -1;
}
