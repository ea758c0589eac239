/* SPDX-License-Identifier: MIT */
/*
 * cmd_cards.c — `rdnacompat cards QUERY`: searches the card table by name,
 * target ("6700", "gfx1102") or PCI id ("1002:73df", "73df"), and counts the
 * card reports in tables/reports for each hit.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json_out.h"
#include "report_file.h"
#include "tool_util.h"

#define MAX_HITS 256

static void usage(FILE *f)
{
	fputs("usage: rdnacompat cards [--json] QUERY\n"
	      "\n"
	      "Searches the card table (tables/cards.tsv): QUERY is part of a marketing name\n"
	      "(\"6700\", \"780M\"), a gfx target (\"gfx1102\") or a PCI id (\"1002:73df\",\n"
	      "\"73df\", optionally \":c1\" for the revision).  Each hit shows its PCI id, revision,\n"
	      "target, ROCm status, kind and how many reports tables/reports has for it.\n"
	      "\n"
	      "exit: 0 found, 1 no card matched, 2 usage error\n",
	      f);
}

static bool is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

int rdc_cmd_cards(int argc, char **argv)
{
	bool json = false;
	const char *q = NULL;
	for (int i = 1; i < argc; i++) {
		if (rdc_is_help(argv[i])) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!q && argv[i][0] != '-') {
			q = argv[i];
		} else {
			fprintf(stderr, "rdnacompat cards: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (!q || !*q) {
		usage(stderr);
		return 2;
	}
	const struct rdc_tables *t = rdc_tables_builtin();
	const struct rdc_card *hits[MAX_HITS];
	size_t n = rdc_card_search(t, q, hits, MAX_HITS);

	/* PCI ids: VVVV:DDDD[:RR] or DDDD (vendor 1002); every revision row of the device. */
	unsigned ven = 0x1002, dev = 0, rev = 0;
	int have_rev = 0;
	size_t ql = strlen(q);
	const char *s = q;
	if (!strncasecmp(s, "0x", 2))
		s += 2;
	bool pci = false;
	if (strlen(s) >= 9 && s[4] == ':' && is_hex(s, 4) && is_hex(s + 5, 4)) {
		pci = sscanf(s, "%4x:%4x", &ven, &dev) == 2;
		have_rev = strlen(s) == 12 && s[9] == ':' && sscanf(s + 10, "%2x", &rev) == 1;
	} else if (ql == 4 && is_hex(s, 4)) {
		pci = sscanf(s, "%4x", &dev) == 1;
	}
	for (size_t i = 0; pci && i < t->n_cards && n < MAX_HITS; i++) {
		const struct rdc_card *c = &t->cards[i];
		if (c->vendor != ven || c->device != dev || (have_rev && c->revision >= 0 && c->revision != (int)rev))
			continue;
		bool dup = false;
		for (size_t k = 0; k < n; k++)
			dup |= hits[k] == c;
		if (!dup)
			hits[n++] = c;
	}

	/* Reports per PCI id. */
	char *tdir = rdc_tables_dir();
	struct rdc_report *reps = NULL;
	size_t nrep = 0;
	if (tdir) {
		struct rdc_sbuf b = { 0 };
		rdc_sb_printf(&b, "%s/reports", tdir);
		bool ok;
		nrep = rdc_reports_load_dir(b.s, &reps, &ok);
		rdc_sb_free(&b);
		free(tdir);
	}
	struct rdc_json j;
	if (json) {
		rdc_json_init(&j, stdout);
		rdc_json_obj(&j);
		rdc_json_key(&j, "query");
		rdc_json_str(&j, q);
		rdc_json_key(&j, "cards");
		rdc_json_arr(&j);
	} else if (n) {
		printf("%-9s  %-4s  %-8s  %-11s  %-8s  %-7s  %s\n", "PCI id", "rev", "target", "status", "kind",
		       "reports", "name");
	}
	for (size_t i = 0; i < n; i++) {
		const struct rdc_card *c = hits[i];
		char id[16], rv[8];
		snprintf(id, sizeof id, "%04x:%04x", c->vendor, c->device);
		if (c->revision >= 0)
			snprintf(rv, sizeof rv, "%02x", (unsigned)c->revision);
		else
			snprintf(rv, sizeof rv, "*");
		unsigned nr = 0;
		for (size_t k = 0; k < nrep; k++) {
			const char *p = rdc_report_get(&reps[k], "pci_id");
			const char *r = rdc_report_get(&reps[k], "pci_revision");
			unsigned x;
			bool rev_ok = c->revision < 0 || !r || sscanf(r, "0x%x", &x) != 1 || (int)x == c->revision;
			nr += p && !strcasecmp(p, id) && rev_ok;
		}
		if (json) {
			rdc_json_obj(&j);
			rdc_json_key(&j, "pci_id");
			rdc_json_str(&j, id);
			rdc_json_key(&j, "revision");
			rdc_json_i64(&j, c->revision);
			rdc_json_key(&j, "name");
			rdc_json_str(&j, c->name);
			rdc_json_key(&j, "target");
			rdc_json_str(&j, c->target);
			rdc_json_key(&j, "status");
			rdc_json_str(&j, rdc_card_status_name(c->status));
			rdc_json_key(&j, "kind");
			rdc_json_str(&j, c->kind);
			rdc_json_key(&j, "reports");
			rdc_json_u64(&j, nr);
			rdc_json_obj_end(&j);
		} else {
			printf("%-9s  %-4s  %-8s  %-11s  %-8s  %-7u  %s\n", id, rv, c->target,
			       rdc_card_status_name(c->status), c->kind ? c->kind : "?", nr, c->name);
		}
	}
	if (json) {
		rdc_json_arr_end(&j);
		rdc_json_obj_end(&j);
		rdc_json_end(&j);
	} else if (!n) {
		printf("no card matches '%s' (try part of the name, a gfx target or a PCI id)\n", q);
	}
	rdc_reports_free(reps, nrep);
	return n ? 0 : 1;
}
