/* SPDX-License-Identifier: MIT */
/*
 * cmd_db.c — `rdnacompat db check|build`: validates every card report in
 * tables/reports/ (schema 1 runs and schema 2 sourced reports, known card,
 * consistent target; report_file.c) and builds the SQLite database plus the
 * static compatibility site (db_html.c, db_html_card.c) from them.
 */
#include <ctype.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "db_add.h"
#include "db_html.h"
#include "report_file.h"
#include "tool_util.h"

static void usage(FILE *f)
{
	fputs("usage: rdnacompat db check [--reports DIR]\n"
	      "       rdnacompat db build [-o DIR] [--reports DIR]\n"
	      "       rdnacompat db add FILE [--reports DIR]\n"
	      "\n"
	      "check: validates every *.report (tables/reports/SCHEMA.md, schema 1 and 2: keys,\n"
	      "       formats, no home paths, the card in tables/cards.tsv, gfx_target equal to\n"
	      "       the card table's; a sourced report needs its thread's source: URL, symptom\n"
	      "       classes and a one-line message) and prints one 'file:line: problem' per\n"
	      "       error.  A directory without reports gives a warning.\n"
	      "build: checks, then writes DIR/rdnacompat.db (SQLite: cards, reports,\n"
	      "       report_lines) and the site: DIR/index.html (one row per card, one column\n"
	      "       per ROCm minor version, worst and best outcome of real cards on\n"
	      "       Linux with counts; simulated runs and other platforms apart),\n"
	      "       DIR/cards/<card>.html (every report with its source), DIR/search.html\n"
	      "       (every card by name, PCI id, target) and DIR/reports/<name>.html + .report.\n"
	      "       DIR defaults to rdnacompat-db.  docs/DB.md.\n"
	      "add:   validates FILE (a report from `rdnacompat report`, or one written from a\n"
	      "       public thread) as check does, and adds it to the reports as a row:\n"
	      "       DATE-TARGET-PCIID[-sim]-user-DIGEST.report, written atomically, never over\n"
	      "       another file.  A run report must say `simulated: yes` or `no`, and one\n"
	      "       whose facts name the simulator must say yes.  Refused: the problems, exit 1,\n"
	      "       nothing written.\n"
	      "\n"
	      "  --reports DIR   the reports (default: tables/reports beside the tool, or\n"
	      "                  $RDNACOMPAT_TABLES_DIR/reports)\n"
	      "\n"
	      "exit: 0 all valid (and built, added), 1 invalid reports or a build failure,\n"
	      "2 usage error (add: cannot write)\n",
	      f);
}

static char *default_reports(void)
{
	char *t = rdc_tables_dir();
	if (!t)
		return NULL;
	struct rdc_sbuf b = { 0 };
	rdc_sb_printf(&b, "%s/reports", t);
	free(t);
	return b.s;
}

/* Load and validate; returns the number of problems, -1 when unreadable. */
static long check(const char *dir, struct rdc_report **reps, size_t *n)
{
	bool ok;
	*n = rdc_reports_load_dir(dir, reps, &ok);
	if (!ok) {
		fprintf(stderr, "rdnacompat db: cannot read the reports in %s\n", dir);
		return -1;
	}
	const struct rdc_tables *t = rdc_tables_builtin();
	long bad = 0;
	for (size_t i = 0; i < *n; i++)
		bad += (long)rdc_report_validate(&(*reps)[i], t, stdout);
	/* Two reports with the same name would collide in the database. */
	return bad;
}

/* "6.2.4" -> "6.2"; "6.x", "none" and "not stated" stay as they are. */
static void rocm_minor(const char *v, char *out, size_t cap)
{
	unsigned a, b;
	if (v && sscanf(v, "%u.%u", &a, &b) == 2)
		snprintf(out, cap, "%u.%u", a, b);
	else
		snprintf(out, cap, "%s", v ? v : "not stated");
}

/* "AMD Radeon RX 6700 XT" + "gfx1031" -> "amd-radeon-rx-6700-xt-gfx1031":
 * the card page's file name. */
static void card_slug(const char *card, const char *tgt, char *out, size_t cap)
{
	size_t n = 0;
	bool dash = false;
	for (int k = 0; k < 2; k++, dash = true)
		for (const char *c = k ? tgt : card; c && *c && n + 2 < cap; c++) {
			if (isalnum((unsigned char)*c)) {
				if (dash && n)
					out[n++] = '-';
				out[n++] = (char)tolower((unsigned char)*c);
				dash = false;
			} else {
				dash = true;
			}
		}
	out[n] = '\0';
}

static int outcome_rank(const char *v)
{
	return !v ? -1 : !strcmp(v, "works") ? 2 : !strcmp(v, "partial") ? 1 : !strcmp(v, "fails") ? 0 : -1;
}

/* The better of `result` and `result_with_workaround`. */
static const char *best_outcome(const struct rdc_report *r)
{
	const char *a = rdc_report_get(r, "result"), *b = rdc_report_get(r, "result_with_workaround");
	return outcome_rank(b) > outcome_rank(a) ? b : a;
}

static int exec_sql(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "rdnacompat db: sqlite: %s\n", err ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *s = rdc_read_file(from, 16u << 20, &len);
	if (!s)
		return -1;
	FILE *f = fopen(to, "we");
	int rc = f && fwrite(s, 1, len, f) == len ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(s);
	return rc;
}

static int build(const char *out, struct rdc_report *reps, size_t n)
{
	if (mkdir(out, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "rdnacompat db: cannot create %s: %s\n", out, strerror(errno));
		return 1;
	}
	struct rdc_sbuf dbp = { 0 };
	rdc_sb_printf(&dbp, "%s/rdnacompat.db", out);
	unlink(dbp.s);
	sqlite3 *db = NULL;
	int rc = 1;
	if (sqlite3_open(dbp.s, &db) != SQLITE_OK) {
		fprintf(stderr, "rdnacompat db: cannot create %s: %s\n", dbp.s, db ? sqlite3_errmsg(db) : "?");
		goto done;
	}
	if (exec_sql(db, "BEGIN;"
			 "CREATE TABLE cards(vendor INTEGER, device INTEGER, revision INTEGER, pci_id TEXT, name TEXT,"
			 " target TEXT, status TEXT, kind TEXT, source TEXT);"
			 "CREATE TABLE reports(name TEXT PRIMARY KEY, date TEXT, simulated INTEGER, card TEXT, pci_id TEXT,"
			 " pci_revision TEXT, gfx_target TEXT, kernel TEXT, distro TEXT, rocm_version TEXT,"
			 " pytorch_version TEXT, pytorch_hip TEXT, shim_version TEXT, shim_mode TEXT, result TEXT,"
			 " kind TEXT, source TEXT, reported TEXT, message TEXT, result_with_workaround TEXT,"
			 " rocm_minor TEXT, best TEXT, card_slug TEXT, platform TEXT);"
			 "CREATE TABLE report_lines(report TEXT REFERENCES reports(name), line INTEGER, key TEXT, value TEXT);"
			 "CREATE INDEX report_lines_report ON report_lines(report);"))
		goto done;
	const struct rdc_tables *t = rdc_tables_builtin();
	sqlite3_stmt *st = NULL;
	sqlite3_prepare_v2(db, "INSERT INTO cards VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)", -1, &st, NULL);
	for (size_t i = 0; st && i < t->n_cards; i++) {
		const struct rdc_card *c = &t->cards[i];
		char pci[16];
		snprintf(pci, sizeof pci, "%04x:%04x", c->vendor, c->device);
		sqlite3_reset(st);
		sqlite3_bind_int(st, 1, c->vendor);
		sqlite3_bind_int(st, 2, c->device);
		sqlite3_bind_int(st, 3, c->revision);
		sqlite3_bind_text(st, 4, pci, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, c->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, c->target, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, rdc_card_status_name(c->status), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, c->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 9, c->source, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			break;
	}
	sqlite3_finalize(st);
	static const char *const cols[] = { "date", "simulated", "card", "pci_id", "pci_revision", "gfx_target",
					    "kernel", "distro", "rocm_version", "pytorch_version", "pytorch_hip",
					    "shim_version", "shim_mode", "result" };
	sqlite3_stmt *ins = NULL, *line = NULL;
	if (sqlite3_prepare_v2(db, "INSERT INTO reports VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
			       "?16,?17,?18,?19,?20,?21,?22,?23,?24)",
			       -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO report_lines VALUES(?1,?2,?3,?4)", -1, &line, NULL) != SQLITE_OK) {
		fprintf(stderr, "rdnacompat db: sqlite: %s\n", sqlite3_errmsg(db));
		sqlite3_finalize(ins);
		goto done;
	}
	bool fail = false;
	for (size_t i = 0; i < n && !fail; i++) {
		const struct rdc_report *r = &reps[i];
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, r->name, -1, SQLITE_STATIC);
		for (int k = 0; k < 14; k++) {
			const char *v = rdc_report_get(r, cols[k]);
			if (k == 1)
				sqlite3_bind_int(ins, k + 2, v && !strcmp(v, "yes"));
			else
				sqlite3_bind_text(ins, k + 2, v, -1, SQLITE_STATIC);
		}
		static const char *const cols2[] = { "kind", "source", "reported", "message", "result_with_workaround" };
		for (int k = 0; k < 5; k++) {
			const char *v = rdc_report_get(r, cols2[k]);
			if (k == 0 && !v)
				v = "run";
			sqlite3_bind_text(ins, 16 + k, v, -1, SQLITE_STATIC);
		}
		char minor[32], slug[256];
		rocm_minor(rdc_report_get(r, "rocm_version"), minor, sizeof minor);
		card_slug(rdc_report_get(r, "card"), rdc_report_get(r, "gfx_target"), slug, sizeof slug);
		sqlite3_bind_text(ins, 21, minor, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 22, best_outcome(r), -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 23, slug, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 24, rdc_report_platform(r), -1, SQLITE_STATIC);
		fail = sqlite3_step(ins) != SQLITE_DONE;
		for (size_t k = 0; k < r->n && !fail; k++) {
			sqlite3_reset(line);
			sqlite3_bind_text(line, 1, r->name, -1, SQLITE_STATIC);
			sqlite3_bind_int(line, 2, (int)r->f[k].line);
			sqlite3_bind_text(line, 3, r->f[k].key, -1, SQLITE_STATIC);
			sqlite3_bind_text(line, 4, r->f[k].value, -1, SQLITE_STATIC);
			fail = sqlite3_step(line) != SQLITE_DONE;
		}
	}
	if (fail)
		fprintf(stderr, "rdnacompat db: sqlite: %s\n", sqlite3_errmsg(db));
	sqlite3_finalize(ins);
	sqlite3_finalize(line);
	if (fail || exec_sql(db, "COMMIT;"))
		goto done;
	if (rdc_db_write_html(db, out) != 0)
		goto done;
	for (size_t i = 0; i < n; i++) {
		struct rdc_sbuf to = { 0 };
		rdc_sb_printf(&to, "%s/reports/%s.report", out, reps[i].name);
		int c = copy_file(reps[i].path, to.s);
		rdc_sb_free(&to);
		if (c)
			goto done;
	}
	printf("rdnacompat db: %zu report(s), %zu card(s) -> %s/rdnacompat.db, %s/index.html\n", n, t->n_cards, out,
	       out);
	rc = 0;
done:
	sqlite3_close(db);
	rdc_sb_free(&dbp);
	return rc;
}

int rdc_cmd_db(int argc, char **argv)
{
	if (argc < 2 || rdc_is_help(argv[1])) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	const char *sub = argv[1], *out = "rdnacompat-db", *dir = NULL, *file = NULL;
	for (int i = 2; i < argc; i++) {
		if (rdc_is_help(argv[i])) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc && !strcmp(sub, "build")) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--reports") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(sub, "add") && !file && (argv[i][0] != '-' || !argv[i][1])) {
			file = argv[i];
		} else {
			fprintf(stderr, "rdnacompat db %s: unexpected argument '%s'\n", sub, argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (!strcmp(sub, "add")) {
		if (!file) {
			fprintf(stderr, "rdnacompat db add: which report? (rdnacompat db add FILE)\n");
			return 2;
		}
		char *d = dir ? NULL : default_reports();
		if (!dir && !d) {
			fprintf(stderr, "rdnacompat db: tables/reports not found beside the tool; give --reports DIR\n");
			return 2;
		}
		int rc = rdc_db_add(file, dir ? dir : d);
		free(d);
		return rc;
	}
	if (strcmp(sub, "check") && strcmp(sub, "build")) {
		fprintf(stderr, "rdnacompat db: unknown subcommand '%s'\n", sub);
		usage(stderr);
		return 2;
	}
	char *def = dir ? NULL : default_reports();
	if (!dir && !def) {
		fprintf(stderr, "rdnacompat db: tables/reports not found beside the tool; give --reports DIR\n");
		return 2;
	}
	struct rdc_report *reps = NULL;
	size_t n = 0;
	long bad = check(dir ? dir : def, &reps, &n);
	int rc;
	if (bad < 0) {
		rc = 1;
	} else if (bad > 0) {
		fprintf(stderr, "rdnacompat db: %ld problem(s) in %zu report(s)\n", bad, n);
		rc = 1;
	} else if (!strcmp(sub, "check")) {
		if (!n)
			fprintf(stderr, "rdnacompat db: warning: no *.report files in %s\n", dir ? dir : def);
		printf("rdnacompat db: %zu report(s) valid\n", n);
		rc = 0;
	} else {
		if (!n)
			fprintf(stderr, "rdnacompat db: warning: no *.report files in %s\n", dir ? dir : def);
		rc = build(out, reps, n);
	}
	rdc_reports_free(reps, n);
	free(def);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "rdnacompat db: writing output: %s\n", strerror(errno));
		rc = 1;
	}
	return rc;
}
