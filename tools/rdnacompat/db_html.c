/* SPDX-License-Identifier: MIT */
/*
 * db_html.c — writes the compatibility site from the report database (see
 * db_html.h): the shared HTML helpers, the report pages, the index (cards x
 * ROCm minor versions; per cell the worst and best outcome from real cards on
 * Linux, simulated runs and other platforms on their own lines) and the
 * search page.
 * Everything printed is HTML-escaped.  Only search.html has a script, and
 * the page works without it.
 */
#include "db_html.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool_util.h"

void rdc_html_esc(FILE *f, const char *s)
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

void rdc_html(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	for (const char *c = fmt; *c; c++) {
		if (c[0] == '%' && c[1] == 's') {
			rdc_html_esc(f, va_arg(ap, const char *));
			c++;
		} else {
			fputc(*c, f);
		}
	}
	va_end(ap);
}

const char *rdc_html_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}
#define col rdc_html_col

static const char style[] =
	"<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
	"td,th{border:1px solid #999;padding:4px 8px;vertical-align:top}th{background:#eee}"
	".works{color:#060}.partial{color:#a60}.fails{color:#b00}.untested{color:#666}"
	".sim{font-size:80%;color:#555}.simrun{color:#457;font-style:italic}.noreal,.other-platform{color:#666;font-size:90%}"
	"#legend{font-size:90%;border:1px solid #ccc;padding:4px 8px;max-width:60em}code{font-size:90%}#compat td:first-child{min-width:12em}"
	"table.reports{width:100%}a.source{word-break:break-all}</style>\n";

void rdc_html_head(FILE *f, const char *title, const char *root)
{
	rdc_html(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>\n", title);
	fputs(style, f);
	rdc_html(f, "</head><body>\n<p><a id=\"back\" href=\"%sindex.html\">All cards</a> &middot; "
		    "<a href=\"%ssearch.html\">Search by name, PCI id or target</a></p>\n",
		 root, root);
}

/* Rank for sorting version columns: numbers first, then "N.x", "none",
 * "not stated". */
static void ver_key(const char *v, unsigned *a, unsigned *b, unsigned *c, int *kind)
{
	*a = *b = *c = 0;
	char x;
	if (sscanf(v, "%u.%u.%u", a, b, c) >= 2)
		*kind = 0;
	else if (sscanf(v, "%u.%c", a, &x) == 2 && x == 'x')
		*kind = 0, *b = 1000;
	else
		*kind = !strcmp(v, "none") ? 1 : 2;
}

int rdc_html_cmp_ver(const void *pa, const void *pb)
{
	const char *x = *(char *const *)pa, *y = *(char *const *)pb;
	unsigned xa, xb, xc, ya, yb, yc;
	int xk, yk;
	ver_key(x, &xa, &xb, &xc, &xk);
	ver_key(y, &ya, &yb, &yc, &yk);
	if (xk != yk)
		return xk < yk ? -1 : 1;
	if (xa != ya)
		return xa < ya ? -1 : 1;
	if (xb != yb)
		return xb < yb ? -1 : 1;
	if (xc != yc)
		return xc < yc ? -1 : 1;
	return strcmp(x, y);
}

FILE *rdc_html_open(const char *dir, const char *name)
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
	if (sqlite3_prepare_v2(db, "SELECT name, card, pci_id, gfx_target, rocm_version, result, simulated, kind, source, "
				   "card_slug FROM reports ORDER BY name",
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
		FILE *f = rdc_html_open(dir, n.s);
		rdc_sb_free(&n);
		if (!f) {
			rc = -1;
			break;
		}
		rdc_html_head(f, col(rep, 0), "../");
		if (sqlite3_column_int(rep, 6))
			rdc_html(f, "<h1>%s (%s) on ROCm %s: <span class=\"simrun\">%s</span>", col(rep, 1), col(rep, 3),
				 col(rep, 4), rdc_html_sim_label(col(rep, 5)));
		else
			rdc_html(f, "<h1>%s (%s) on ROCm %s: <span class=\"%s\">%s</span>", col(rep, 1), col(rep, 3),
				 col(rep, 4), col(rep, 5), col(rep, 5));
		fputs("</h1>\n", f);
		rdc_html(f, "<p>Card page: <a href=\"../cards/%s.html\">%s</a></p>\n", col(rep, 9), col(rep, 1));
		if (!strcmp(col(rep, 7), "sourced"))
			rdc_html(f, "<p>Written from a public thread: <a class=\"source\" href=\"%s\">%s</a></p>\n",
				 col(rep, 8), col(rep, 8));
		fputs("<table id=\"report\">\n<tr><th>line</th><th>key</th><th>value</th></tr>\n", f);
		sqlite3_reset(lines);
		sqlite3_bind_text(lines, 1, col(rep, 0), -1, SQLITE_TRANSIENT);
		while (sqlite3_step(lines) == SQLITE_ROW) {
			fprintf(f, "<tr><td>%d</td>", sqlite3_column_int(lines, 0));
			rdc_html(f, "<td>%s</td><td>%s</td></tr>\n", col(lines, 1), col(lines, 2));
		}
		rdc_html(f, "</table>\n<p>Report file: <a href=\"%s.report\">%s.report</a></p>\n</body></html>\n",
			 col(rep, 0), col(rep, 0));
		if (fclose(f) != 0)
			rc = -1;
	}
out:
	sqlite3_finalize(rep);
	sqlite3_finalize(lines);
	return rc;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

const char *rdc_html_sim_label(const char *result)
{
	if (!strcmp(result, "works"))
		return "loads on a simulated card";
	if (!strcmp(result, "partial"))
		return "loads in part on a simulated card";
	if (!strcmp(result, "fails"))
		return "fails on a simulated card";
	return "untested on a simulated card";
}

static const char *const order[] = { "fails", "partial", "works", "untested" };

static int outcome_index(const char *v)
{
	for (int k = 0; k < 4; k++)
		if (!strcmp(v, order[k]))
			return k;
	return 3;
}

/* One cell of the index, for a card and a ROCm minor version:
 *   - the worst outcome (result) and the best (with a workaround) over the
 *     reports from real cards on Linux only, with counts and the classes
 *     works/partial/fails/untested;
 *   - runs on the simulated GPU on their own line, class "simrun", worded as
 *     what they show ("loads on a simulated card"): never an outcome class,
 *     never counted as "works";
 *   - reports from other platforms (Windows, WSL, not stated) counted on
 *     their own line: the shim acts on Linux only. */
static void cell(FILE *f, sqlite3_stmt *agg, const char *slug, const char *ver)
{
	/* agg: SELECT result, best, count(*), simulated, platform ... GROUP BY all four */
	int nres[4] = { 0 }, nbst[4] = { 0 }, nsim[4] = { 0 }, total = 0, nreal = 0;
	int nwin = 0, nwsl = 0, nunst = 0;
	sqlite3_reset(agg);
	sqlite3_bind_text(agg, 1, slug, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(agg, 2, ver, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(agg) == SQLITE_ROW) {
		int c = sqlite3_column_int(agg, 2);
		const char *plat = col(agg, 4);
		total += c;
		if (sqlite3_column_int(agg, 3)) {
			nsim[outcome_index(col(agg, 0))] += c;
		} else if (!strcmp(plat, "linux")) {
			nreal += c;
			nres[outcome_index(col(agg, 0))] += c;
			nbst[outcome_index(col(agg, 1))] += c;
		} else if (!strcmp(plat, "windows")) {
			nwin += c;
		} else if (!strcmp(plat, "wsl")) {
			nwsl += c;
		} else {
			nunst += c;
		}
	}
	if (!total) {
		fputs("<td>&mdash;</td>", f);
		return;
	}
	struct rdc_sbuf href = { 0 };
	rdc_sb_printf(&href, "cards/%s.html#rocm-%s", slug, ver);
	for (char *c = href.s; *c; c++)
		if (*c == ' ')
			*c = '-';
	fputs("<td>", f);
	const char *sep = "<br>";
	if (nreal) {
		/* worst: the lowest of fails < partial < works; best: the
		 * highest; "untested" only when nothing else was reported. */
		int worst = 3, best = 3, nworst = nres[3], nbest = nbst[3];
		for (int k = 0; k < 3; k++)
			if (nres[k]) {
				worst = k, nworst = nres[k];
				break;
			}
		for (int k = 2; k >= 0; k--)
			if (nbst[k]) {
				best = k, nbest = nbst[k];
				break;
			}
		char nw[16], nb[16];
		snprintf(nw, sizeof nw, "%d", nworst);
		snprintf(nb, sizeof nb, "%d", nbest);
		rdc_html(f, "<a class=\"%s\" href=\"%s\" title=\"worst outcome on real cards (Linux)\">worst: %s &times;%s</a>",
			 order[worst], href.s, order[worst], nw);
		rdc_html(f, "<br><a class=\"%s\" href=\"%s\" title=\"best outcome on real cards (Linux), with a workaround "
			    "where one was reported\">best: %s &times;%s</a>",
			 order[best], href.s, order[best], nb);
	} else {
		fputs("<span class=\"noreal\">no report from a real card on Linux</span>", f);
	}
	for (int k = 0; k < 4; k++) {
		if (!nsim[k])
			continue;
		char n[16];
		snprintf(n, sizeof n, "%d", nsim[k]);
		fputs(sep, f);
		rdc_html(f, "<a class=\"simrun\" href=\"%s\" title=\"runs on the simulated GPU: kernels are not "
			    "executed\">%s &times;%s</a>",
			 href.s, rdc_html_sim_label(order[k]), n);
	}
	if (nwin || nwsl || nunst) {
		fprintf(f, "%s<span class=\"other-platform\">not counted:", sep);
		const char *s2 = " ";
		if (nwin)
			fprintf(f, "%sWindows &times;%d", s2, nwin), s2 = ", ";
		if (nwsl)
			fprintf(f, "%sWSL &times;%d", s2, nwsl), s2 = ", ";
		if (nunst)
			fprintf(f, "%splatform not stated &times;%d", s2, nunst);
		fputs("</span>", f);
	}
	fprintf(f, "<br><span class=\"sim\">%d report(s)</span></td>", total);
	rdc_sb_free(&href);
}

static int write_index(sqlite3 *db, const char *dir)
{
	sqlite3_stmt *st = NULL;
	char **vers = NULL;
	size_t nv = 0;
	sqlite3_prepare_v2(db, "SELECT DISTINCT rocm_minor FROM reports", -1, &st, NULL);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		vers = rdc_xrealloc(vers, (nv + 1) * sizeof *vers);
		vers[nv++] = rdc_xstrdup(col(st, 0));
	}
	sqlite3_finalize(st);
	if (nv)
		qsort(vers, nv, sizeof *vers, rdc_html_cmp_ver);

	FILE *f = rdc_html_open(dir, "index.html");
	if (!f) {
		free_strs(vers, nv);
		return -1;
	}
	long n_reports = 0, n_sim = 0, n_src = 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*), sum(simulated), sum(kind = 'sourced') FROM reports", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		n_reports = sqlite3_column_int(st, 0);
		n_sim = sqlite3_column_int(st, 1);
		n_src = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	rdc_html_head(f, "rdnacompat card compatibility", "");
	fprintf(f, "<h1>rdnacompat: AMD cards &times; ROCm versions</h1>\n"
		   "<p id=\"summary\">%ld report(s): %ld written from public issue threads (each links its source), "
		   "%ld run on the simulated GPU, %ld run on real cards. Status is from tables/cards.tsv "
		   "(Linux support matrix of ROCm 7.0). Send yours with <code>rdnacompat report</code>.</p>\n",
		n_reports, n_src, n_sim, n_reports - n_src - n_sim);
	fputs("<div id=\"legend\"><p>How to read a cell (a card at one ROCm minor version):</p><ul>"
	      "<li><span class=\"works\">worst</span> / <span class=\"works\">best</span>: the worst outcome reported "
	      "(fails &lt; partial &lt; works) and the best one (with a workaround where one was reported), with counts, "
	      "<b>from real cards on Linux only</b> &mdash; the platform rdnacompat acts on.</li>"
	      "<li><span class=\"simrun\">loads on a simulated card</span>: a run of the real ROCm libraries on "
	      "rdnacompat's simulated GPU, which loads and dispatches code but executes no kernel. It shows which code the "
	      "shim chose, never that anything computes right, and is <b>never counted as works</b>.</li>"
	      "<li><span class=\"noreal\">no report from a real card on Linux</span>: the cell has only simulated runs or "
	      "reports from other platforms.</li>"
	      "<li><span class=\"other-platform\">not counted: Windows, WSL, platform not stated</span>: reports from "
	      "threads about other platforms (the HIP SDK, ZLUDA, Ollama for Windows) or that do not say; they are on the "
	      "card page, outside the cell's outcome.</li></ul></div>\n",
	      f);
	fputs("<form id=\"search\" action=\"search.html\" method=\"get\"><label>Find a card by name, PCI id or "
	      "target: <input name=\"q\" placeholder=\"6700 XT, 1002:73df, gfx1103\"></label> "
	      "<button type=\"submit\">Search</button></form>\n",
	      f);
	fputs("<table id=\"compat\">\n<tr><th>Card</th><th>PCI id</th><th>Target</th><th>Status</th>", f);
	for (size_t i = 0; i < nv; i++)
		rdc_html(f, "<th>ROCm %s</th>", vers[i]);
	fputs("</tr>\n", f);
	sqlite3_stmt *rows = NULL, *agg = NULL;
	sqlite3_prepare_v2(db,
			   "SELECT slug, card, pcis, tgt, (SELECT c.status FROM cards c WHERE c.pci_id = p0 LIMIT 1) "
			   "FROM (SELECT card_slug AS slug, min(card) AS card, group_concat(DISTINCT pci_id) AS pcis, "
			   "  min(gfx_target) AS tgt, min(pci_id) AS p0 FROM reports GROUP BY card_slug) ORDER BY tgt, card",
			   -1, &rows, NULL);
	sqlite3_prepare_v2(db,
			   "SELECT result, best, count(*), simulated, platform FROM reports WHERE card_slug = ?1 "
			   "AND rocm_minor = ?2 GROUP BY result, best, simulated, platform",
			   -1, &agg, NULL);
	while (rows && agg && sqlite3_step(rows) == SQLITE_ROW) {
		rdc_html(f, "<tr><td><a class=\"card\" href=\"cards/%s.html\">%s</a></td><td>%s</td><td>%s</td><td>%s</td>",
			 col(rows, 0), col(rows, 1), col(rows, 2), col(rows, 3),
			 sqlite3_column_text(rows, 4) ? col(rows, 4) : "not in table");
		for (size_t v = 0; v < nv; v++)
			cell(f, agg, col(rows, 0), vers[v]);
		fputs("</tr>\n", f);
	}
	sqlite3_finalize(rows);
	sqlite3_finalize(agg);
	fputs("</table>\n</body></html>\n", f);
	free_strs(vers, nv);
	return fclose(f) == 0 ? 0 : -1;
}

/* search.html: every row of the card table, anchored by target and PCI id,
 * linking the card pages that have reports for the device or target. */
static const char search_js[] =
	"<script>\n"
	"(function(){var q=new URLSearchParams(location.search).get('q');var i=document.getElementById('q');\n"
	"function run(v){v=(v||'').toLowerCase().replace(/^0x/,'');var n=0;\n"
	"document.querySelectorAll('#index tr[data-s]').forEach(function(r){\n"
	"var ok=!v||v.split(/\\s+/).every(function(w){return r.getAttribute('data-s').indexOf(w)>=0;});\n"
	"r.hidden=!ok;if(ok)n++;});document.getElementById('count').textContent=n+' card row(s) match';}\n"
	"if(q){i.value=q;}run(i.value);i.addEventListener('input',function(){run(i.value);});})();\n"
	"</script>\n";

static int write_search(sqlite3 *db, const char *dir)
{
	FILE *f = rdc_html_open(dir, "search.html");
	if (!f)
		return -1;
	rdc_html_head(f, "rdnacompat: find a card", "");
	fputs("<h1>Find a card</h1>\n<form action=\"search.html\" method=\"get\"><label>Name, PCI id or target: "
	      "<input id=\"q\" name=\"q\"></label> <button type=\"submit\">Filter</button> <span id=\"count\"></span>"
	      "</form>\n<p>Without JavaScript this page lists every card of tables/cards.tsv: jump to a target, or "
	      "use your browser's find-in-page for a name or PCI id.</p>\n<p id=\"targets\">Targets: ",
	      f);
	sqlite3_stmt *st = NULL;
	sqlite3_prepare_v2(db, "SELECT DISTINCT target FROM cards ORDER BY target", -1, &st, NULL);
	while (st && sqlite3_step(st) == SQLITE_ROW)
		rdc_html(f, "<a href=\"#%s\">%s</a> ", col(st, 0), col(st, 0));
	sqlite3_finalize(st);
	fputs("</p>\n<table id=\"index\">\n<tr><th>Name</th><th>PCI id</th><th>Revision</th><th>Target</th>"
	      "<th>Status</th><th>Reports</th></tr>\n",
	      f);
	sqlite3_stmt *cards = NULL, *pages = NULL;
	sqlite3_prepare_v2(db,
			   "SELECT name, pci_id, revision, target, status, kind, "
			   "  (SELECT min(c2.rowid) FROM cards c2 WHERE c2.target = c.target) = c.rowid, "
			   "  (SELECT min(c3.rowid) FROM cards c3 WHERE c3.pci_id = c.pci_id) = c.rowid "
			   "FROM cards c ORDER BY target, pci_id, revision",
			   -1, &cards, NULL);
	/* Card pages of this device; else of this target. */
	sqlite3_prepare_v2(db,
			   "SELECT card_slug, min(card), count(*), max(pci_id = ?1) AS same FROM reports "
			   "WHERE pci_id = ?1 OR gfx_target = ?2 GROUP BY card_slug ORDER BY same DESC, min(card)",
			   -1, &pages, NULL);
	while (cards && pages && sqlite3_step(cards) == SQLITE_ROW) {
		char rev[16];
		int r = sqlite3_column_int(cards, 2);
		if (r >= 0)
			snprintf(rev, sizeof rev, "%02x", (unsigned)r);
		else
			snprintf(rev, sizeof rev, "*");
		struct rdc_sbuf key = { 0 };
		rdc_sb_printf(&key, "%s %s %s %s", col(cards, 0), col(cards, 1), col(cards, 3), col(cards, 5));
		for (char *c = key.s; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
		fputs("<tr", f);
		if (sqlite3_column_int(cards, 6))
			rdc_html(f, " id=\"%s\"", col(cards, 3));
		rdc_html(f, " data-s=\"%s\"", key.s);
		rdc_sb_free(&key);
		rdc_html(f, "><td>%s</td><td", col(cards, 0));
		if (sqlite3_column_int(cards, 7)) {
			struct rdc_sbuf id = { 0 };
			rdc_sb_printf(&id, "pci-%s", col(cards, 1));
			for (char *c = id.s; *c; c++)
				if (*c == ':')
					*c = '-';
			rdc_html(f, " id=\"%s\"", id.s);
			rdc_sb_free(&id);
		}
		rdc_html(f, ">%s</td><td>%s</td><td>%s</td><td>%s</td><td>", col(cards, 1), rev, col(cards, 3),
			 col(cards, 4));
		sqlite3_reset(pages);
		sqlite3_bind_text(pages, 1, col(cards, 1), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(pages, 2, col(cards, 3), -1, SQLITE_TRANSIENT);
		int n = 0;
		while (sqlite3_step(pages) == SQLITE_ROW) {
			char cnt[16];
			snprintf(cnt, sizeof cnt, "%d", sqlite3_column_int(pages, 2));
			fputs(n++ ? "<br>" : "", f);
			rdc_html(f, "<a href=\"cards/%s.html\">%s</a> (%s%s)", col(pages, 0), col(pages, 1), cnt,
				 sqlite3_column_int(pages, 3) ? "" : ", same target");
		}
		if (!n)
			fputs("no reports yet", f);
		fputs("</td></tr>\n", f);
	}
	sqlite3_finalize(cards);
	sqlite3_finalize(pages);
	fputs("</table>\n", f);
	fputs(search_js, f);
	fputs("</body></html>\n", f);
	return fclose(f) == 0 ? 0 : -1;
}

int rdc_db_write_html(sqlite3 *db, const char *dir)
{
	static const char *const sub[] = { "reports", "cards" };
	for (int i = 0; i < 2; i++) {
		struct rdc_sbuf rd = { 0 };
		rdc_sb_printf(&rd, "%s/%s", dir, sub[i]);
		int bad = mkdir(rd.s, 0755) != 0 && errno != EEXIST;
		if (bad)
			fprintf(stderr, "rdnacompat db: cannot create %s: %s\n", rd.s, strerror(errno));
		rdc_sb_free(&rd);
		if (bad)
			return -1;
	}
	if (report_pages(db, dir) != 0 || rdc_db_write_card_pages(db, dir) != 0 || write_index(db, dir) != 0 ||
	    write_search(db, dir) != 0)
		return -1;
	return 0;
}
