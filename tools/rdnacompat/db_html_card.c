/* SPDX-License-Identifier: MIT */
/*
 * db_html_card.c — one page per reported card (DIR/cards/<slug>.html, see
 * db_html.h): what rdnacompat's built-in tables do for the card's target
 * (compatibility edges, kernel rules), then every report of the card by
 * ROCm minor version — outcome (a simulated run in its own words, "loads on
 * a simulated card", never an outcome), outcome with the workaround, symptoms, the
 * quoted message, what people did, and the source (the public thread, or
 * the run's report page).
 */
#include <stdlib.h>
#include <string.h>

#include "db_html.h"
#include "rdnacompat/tables.h"
#include "tool_util.h"

#define col rdc_html_col

/* Whether a rule's ","-joined target list names `tgt` or its family. */
static bool rule_applies(const char *targets, const char *tgt, const char *family)
{
	if (!strcmp(targets, "*"))
		return true;
	const char *s = targets;
	while (*s) {
		size_t n = strcspn(s, ",");
		if ((strlen(tgt) == n && !strncmp(s, tgt, n)) || (family && strlen(family) == n && !strncmp(s, family, n)))
			return true;
		s += n + (s[n] == ',');
	}
	return false;
}

static void shim_section(FILE *f, const char *tgt)
{
	const struct rdc_tables *t = rdc_tables_builtin();
	const struct rdc_isa *isa = rdc_isa_find(t, tgt);
	const struct rdc_compat_edge *e[32];
	size_t ne = rdc_compat_edges_for(t, tgt, e, 32);
	rdc_html(f, "<h2 id=\"shim\">What rdnacompat does for %s</h2>\n<ul id=\"shim-actions\">\n", tgt);
	if (!ne)
		rdc_html(f, "<li>No compatibility edge in tables/compat.tsv: code objects lacking %s are left to "
			    "ROCm (the shim logs them as missing).</li>\n",
			 tgt);
	for (size_t i = 0; i < ne; i++) {
		char rank[16];
		snprintf(rank, sizeof rank, "%u", e[i]->rank);
		bool optin = strstr(e[i]->condition, "opt-in") != NULL;
		rdc_html(f, "<li>A code object without %s code but with <code>%s</code> code %s "
			    "(preference %s%s%s), each kernel checked against the device first. "
			    "<span class=\"sim\">tables/compat.tsv: %s</span></li>\n",
			 tgt, e[i]->code, optin ? "is mapped only with RDNACOMPAT_OPT_IN=1" : "is mapped to the card",
			 rank, strcmp(e[i]->condition, "none") ? "; condition: " : "",
			 strcmp(e[i]->condition, "none") ? e[i]->condition : "", e[i]->source ? e[i]->source : "");
	}
	size_t nr = 0;
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (!rule_applies(r->targets, tgt, isa ? isa->family : NULL))
			continue;
		static const char *const act[] = { "?", "occupancy answered from the kernel descriptor",
						   "routed to a fallback kernel", "refused (not found)", "allowed" };
		int a = r->action >= 1 && r->action <= 4 ? r->action : 0;
		rdc_html(f, "<li>Kernel rule: <code>%s</code> (HIP runtime %s): %s%s%s%s. "
			    "<span class=\"sim\">tables/kernels.tsv: %s%s%s</span></li>\n", r->pattern,
			 r->runtime, act[a], r->fallback ? " " : "", r->fallback ? r->fallback : "",
			 r->provisional ? " (provisional: only with RDNACOMPAT_OPT_IN=1)" : "", r->reason ? r->reason : "",
			 r->reason && r->source ? "; " : "", r->source ? r->source : "");
		nr++;
	}
	if (!nr)
		fputs("<li>No kernel rule (tables/kernels.tsv) applies to this target.</li>\n", f);
	fputs("</ul>\n", f);
}

static int card_page(sqlite3 *db, const char *dir, sqlite3_stmt *head)
{
	const char *slug = col(head, 0);
	struct rdc_sbuf n = { 0 };
	rdc_sb_printf(&n, "cards/%s.html", slug);
	FILE *f = rdc_html_open(dir, n.s);
	rdc_sb_free(&n);
	if (!f)
		return -1;
	rdc_html_head(f, col(head, 1), "../");
	rdc_html(f, "<h1 id=\"card\">%s</h1>\n<p id=\"ids\">Target <b>%s</b>; PCI id %s; status %s "
		    "(tables/cards.tsv, Linux support matrix of ROCm 7.0).</p>\n",
		 col(head, 1), col(head, 3), col(head, 2), sqlite3_column_text(head, 4) ? col(head, 4) : "not in table");
	sqlite3_stmt *same = NULL;
	sqlite3_prepare_v2(db,
			   "SELECT card_slug, min(card), count(*) FROM reports WHERE gfx_target = ?1 AND card_slug != ?2 "
			   "GROUP BY card_slug ORDER BY min(card)",
			   -1, &same, NULL);
	sqlite3_bind_text(same, 1, col(head, 3), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(same, 2, slug, -1, SQLITE_TRANSIENT);
	int k = 0;
	for (; same && sqlite3_step(same) == SQLITE_ROW; k++) {
		char cnt[16];
		snprintf(cnt, sizeof cnt, "%d", sqlite3_column_int(same, 2));
		if (!k)
			rdc_html(f, "<p id=\"same-target\">Other cards with target %s: ", col(head, 3));
		rdc_html(f, "%s<a href=\"%s.html\">%s</a> (%s)", k ? ", " : "", col(same, 0), col(same, 1), cnt);
	}
	if (k)
		fputs("</p>\n", f);
	sqlite3_finalize(same);
	shim_section(f, col(head, 3));

	sqlite3_stmt *vs = NULL, *rs = NULL;
	char **vers = NULL;
	size_t nv = 0;
	sqlite3_prepare_v2(db, "SELECT DISTINCT rocm_minor FROM reports WHERE card_slug = ?1", -1, &vs, NULL);
	sqlite3_bind_text(vs, 1, slug, -1, SQLITE_TRANSIENT);
	while (vs && sqlite3_step(vs) == SQLITE_ROW) {
		vers = rdc_xrealloc(vers, (nv + 1) * sizeof *vers);
		vers[nv++] = rdc_xstrdup(col(vs, 0));
	}
	sqlite3_finalize(vs);
	if (nv)
		qsort(vers, nv, sizeof *vers, rdc_html_cmp_ver);
	sqlite3_prepare_v2(db,
			   "SELECT name, result, best, kind, source, message, distro, simulated, rocm_version, "
			   " (SELECT group_concat(value, ' | ') FROM report_lines l WHERE l.report = r.name AND l.key = 'symptom'),"
			   " (SELECT group_concat(value, ' | ') FROM report_lines l WHERE l.report = r.name AND l.key = 'workaround'),"
			   " (SELECT group_concat(value, '; ') FROM report_lines l WHERE l.report = r.name AND l.key = 'workload'),"
			   " (SELECT group_concat(value, '; ') FROM report_lines l WHERE l.report = r.name AND l.key = 'mapped'),"
			   " shim_mode, result_with_workaround, platform "
			   "FROM reports r WHERE card_slug = ?1 AND rocm_minor = ?2 ORDER BY result, name",
			   -1, &rs, NULL);
	fputs("<h2>Reports</h2>\n<p class=\"legend\">An outcome is what a real card did. A run on rdnacompat's simulated GPU "
	      "loads and dispatches code without executing any kernel: it reads <span class=\"simrun\">loads on a "
	      "simulated card</span>, never <span class=\"works\">works</span>.</p>\n",
	      f);
	int rc = 0;
	for (size_t v = 0; rs && v < nv; v++) {
		struct rdc_sbuf id = { 0 };
		rdc_sb_printf(&id, "rocm-%s", vers[v]);
		for (char *c = id.s; *c; c++)
			if (*c == ' ')
				*c = '-';
		rdc_html(f, "<h3 id=\"%s\">ROCm %s</h3>\n<table class=\"reports\">\n<tr><th>Outcome</th><th>With the "
			    "workaround</th><th>What happened</th><th>Message</th><th>What people did</th>"
			    "<th>Workload, system</th><th>Source</th></tr>\n",
			 id.s, vers[v]);
		rdc_sb_free(&id);
		sqlite3_reset(rs);
		sqlite3_bind_text(rs, 1, slug, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(rs, 2, vers[v], -1, SQLITE_TRANSIENT);
		while (sqlite3_step(rs) == SQLITE_ROW) {
			bool src = !strcmp(col(rs, 3), "sourced");
			bool sim = sqlite3_column_int(rs, 7) != 0;
			const char *rww = col(rs, 14);
			/* A simulated run is not an outcome on a card: its own words
			 * and class. */
			if (sim)
				rdc_html(f, "<tr class=\"report\"><td class=\"simrun\">%s</td><td>%s</td><td>%s",
					 rdc_html_sim_label(col(rs, 1)), *rww ? rww : "\u2014", col(rs, 9));
			else
				rdc_html(f, "<tr class=\"report\"><td class=\"%s\">%s</td><td class=\"%s\">%s</td><td>%s",
					 col(rs, 1), col(rs, 1), *rww ? rww : "", *rww ? rww : "\u2014", col(rs, 9));
			if (*col(rs, 12))
				rdc_html(f, *col(rs, 9) ? "<br>shim mapped: %s" : "shim mapped: %s", col(rs, 12));
			fputs("</td><td>", f);
			if (*col(rs, 5))
				rdc_html(f, "<code>%s</code>", col(rs, 5));
			rdc_html(f, "</td><td>%s</td><td>%s; %s; platform %s; ROCm %s</td><td>", col(rs, 10), col(rs, 11),
				 col(rs, 6), col(rs, 15), col(rs, 8));
			if (src)
				rdc_html(f, "<a class=\"source\" href=\"%s\">%s</a>", col(rs, 4), col(rs, 4));
			else
				rdc_html(f, "rdnacompat report (%s mode)", col(rs, 13));
			rdc_html(f, "<br><a class=\"report-link\" href=\"../reports/%s.html\">report</a>", col(rs, 0));
			if (sim)
				fputs(" <span class=\"sim\">(simulated GPU: kernels not executed)</span>", f);
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	sqlite3_finalize(rs);
	for (size_t i = 0; i < nv; i++)
		free(vers[i]);
	free(vers);
	fputs("</body></html>\n", f);
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

int rdc_db_write_card_pages(sqlite3 *db, const char *dir)
{
	sqlite3_stmt *head = NULL;
	if (sqlite3_prepare_v2(db,
			       "SELECT slug, card, pcis, tgt, (SELECT c.status FROM cards c WHERE c.pci_id = p0 LIMIT 1) "
			       "FROM (SELECT card_slug AS slug, min(card) AS card, group_concat(DISTINCT pci_id) AS pcis, "
			       "  min(gfx_target) AS tgt, min(pci_id) AS p0 FROM reports GROUP BY card_slug) ORDER BY tgt, card",
			       -1, &head, NULL) != SQLITE_OK) {
		fprintf(stderr, "rdnacompat db: %s\n", sqlite3_errmsg(db));
		return -1;
	}
	int rc = 0;
	while (rc == 0 && sqlite3_step(head) == SQLITE_ROW)
		rc = card_page(db, dir, head);
	sqlite3_finalize(head);
	return rc;
}
