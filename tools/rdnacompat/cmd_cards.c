/* SPDX-License-Identifier: MIT */
/*
 * cmd_cards.c — `rdnacompat cards QUERY`: searches the card table by name,
 * target ("6700", "gfx1102") or PCI id ("1002:73df", "73df"), counts the
 * card reports in tables/reports for each hit, states the support-matrix
 * baseline of the status column, and prints the most relevant sourced
 * reports (db_lookup.c) for the hits' targets and the installed ROCm.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "db_lookup.h"
#include "json_out.h"
#include "report_file.h"
#include "sysinfo.h"
#include "tool_util.h"

#define MAX_HITS 256
#define MAX_TARGETS 3

/* The release whose Linux support matrix the status column follows
 * (tables/cards.tsv header, [SR70]). */
static const char baseline[] = "ROCm 7.0 Linux support matrix (tables/cards.tsv)";

static void usage(FILE *f)
{
	fputs("usage: rdnacompat cards [--json] [--rocm VERSION] QUERY...\n"
	      "\n"
	      "Searches the card table (tables/cards.tsv): QUERY is part of a marketing name\n"
	      "(\"6700 XT\", \"780M\"; several words are joined with spaces), a gfx target\n"
	      "(\"gfx1102\") or a PCI id (\"1002:73df\", \"73df\", optionally \":c1\" for the\n"
	      "revision).  Each hit shows its PCI id, revision, target, ROCm status (as of the\n"
	      "ROCm 7.0 Linux support matrix), kind and how many reports tables/reports has for\n"
	      "it.  When the hits have at most three targets, the three most relevant reports\n"
	      "written from public threads follow for each, one line each with the URL, for\n"
	      "the installed ROCm (or --rocm VERSION).\n"
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

/* The sourced reports for each distinct target of the hits (at most
 * MAX_TARGETS targets; a broader query lists cards only). */
static void relevant(const struct rdc_card *const *hits, size_t n, const char *rocm)
{
	const char *tg[MAX_TARGETS];
	size_t nt = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < nt && strcmp(tg[k], hits[i]->target))
			k++;
		if (k < nt)
			continue;
		if (nt == MAX_TARGETS) {
			printf("(more than %d targets match: narrow the query to see reports)\n", MAX_TARGETS);
			return;
		}
		tg[nt++] = hits[i]->target;
	}
	struct rdc_sysinfo si;
	bool scanned = false;
	if (!rocm) {
		rdc_sys_scan(&si, "", NULL, rdc_tables_builtin());
		scanned = true;
		rocm = si.rocm_version;
	}
	for (size_t k = 0; k < nt; k++) {
		/* The device of the first hit with this target ranks its reports first. */
		size_t i = 0;
		while (strcmp(hits[i]->target, tg[k]))
			i++;
		putchar('\n');
		if (!rdc_db_print_relevant(stdout, NULL, tg[k], hits[i]->vendor, hits[i]->device, rocm))
			printf("No sourced reports for %s in tables/reports.\n", tg[k]);
	}
	if (!rocm)
		printf("(no installed ROCm found: reports of every version; --rocm VERSION to choose)\n");
	if (scanned)
		rdc_sys_free(&si);
}

int rdc_cmd_cards(int argc, char **argv)
{
	bool json = false;
	const char *rocm = NULL;
	struct rdc_sbuf qb = { 0 };
	for (int i = 1; i < argc; i++) {
		if (rdc_is_help(argv[i])) {
			usage(stdout);
			rdc_sb_free(&qb);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--rocm") && i + 1 < argc) {
			rocm = argv[++i];
		} else if (argv[i][0] != '-') {
			rdc_sb_printf(&qb, "%s%s", qb.s && qb.s[0] ? " " : "", argv[i]);
		} else {
			rdc_sb_free(&qb);
			fprintf(stderr, "rdnacompat cards: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	const char *q = qb.s;
	if (!q || !*q) {
		usage(stderr);
		rdc_sb_free(&qb);
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
	struct rdc_report *reps;
	size_t nrep = rdc_db_load_default(&reps);
	struct rdc_json j;
	/* --json ranks the relevant reports for --rocm, else the installed ROCm. */
	struct rdc_sysinfo jsi;
	const char *json_rocm = rocm;
	if (json && !rocm) {
		rdc_sys_scan(&jsi, "", NULL, t);
		json_rocm = jsi.rocm_version;
	}
	if (json) {
		rdc_json_init(&j, stdout);
		rdc_json_obj(&j);
		rdc_json_key(&j, "query");
		rdc_json_str(&j, q);
		rdc_json_key(&j, "status_baseline");
		rdc_json_str(&j, baseline);
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
			rdc_json_str(&j, c->revision >= 0 ? rv : NULL); /* "c1", null for any */
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
			/* The sourced reports the text output lists for the
			 * card's target, for --rocm or the installed ROCm. */
			rdc_json_key(&j, "relevant_reports");
			rdc_db_json_relevant(&j, reps, nrep, c->target, c->vendor, c->device, json_rocm);
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
	} else {
		printf("status: as of the %s\n", baseline);
		relevant(hits, n, rocm);
	}
	rdc_reports_free(reps, nrep);
	if (json && !rocm)
		rdc_sys_free(&jsi);
	int rc = n ? 0 : 1;
	rdc_sb_free(&qb);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "rdnacompat cards: writing output: %s\n", strerror(errno));
		rc = 1;
	}
	return rc;
}
