/* SPDX-License-Identifier: MIT */
/*
 * cmd_explain.c — `rdnacompat explain`: pasted error text -> causes and
 * fixes from tables/errors.tsv (errtab.c); `--log FILE` sums up a shim log
 * (log_summary.c); `-- CMD` runs CMD under the shim in audit mode, logging
 * to a temporary file, and prints that summary plus any known errors CMD
 * wrote to stderr.
 */
#include <errno.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "errtab.h"
#include "explain_diag.h"
#include "harmless.h"
#include "fmtmatch.h"
#include "json_out.h"
#include "log_summary.h"
#include "rdnacompat/tables.h"
#include "run_env.h"
#include "tool_util.h"

static void usage(FILE *f)
{
	fputs("usage: rdnacompat explain [--json] [--table FILE] \"ERROR TEXT\"...\n"
	      "       rdnacompat explain [--json] [--table FILE] -      (read the text from stdin)\n"
	      "       rdnacompat explain [--json] --log FILE\n"
	      "       rdnacompat explain [--json] [--gpu N|TARGET] [run options] -- CMD [ARGS...]\n"
	      "\n"
	      "Maps pasted ROCm/HIP/PyTorch/MIOpen error messages to causes and fixes (from\n"
	      "tables/errors.tsv, each with its sources), and every HIP/ROCR status (by name,\n"
	      "text or number) and library device message of ROCm 5.2, 6.4 and 7.2 to its\n"
	      "class (tables/status.tsv, lib-messages.tsv, error-classes.tsv; docs/DIAGNOSIS.md);\n"
	      "a log of several lines is explained line by line; --log sums up a shim log per library\n"
	      "(mapped, refused, missing, spoofed, redirected, routed, warnings, what would fix the\n"
	      "rest); -- CMD runs CMD under the shim in audit mode (RDNACOMPAT_MODE=audit,\n"
	      "RDNACOMPAT_LOG=info, log in a temporary file) and prints that summary, plus the\n"
	      "known errors CMD printed on stderr.  Run options are those of `rdnacompat run`.\n"
	      "With --json, CMD's stdout goes to stderr too, so stdout holds only the JSON.\n"
	      "\n"
	      "  --json         machine-readable output\n"
	      "  --table FILE   another errors table (default: tables/errors.tsv shipped with the tool)\n"
	      "\n"
	      "exit: text: 0 something matched, 1 nothing known matched; --log: 0, 1 unreadable log;\n"
	      "-- CMD: CMD's exit status (128+N when killed by signal N); 2 usage or table error\n",
	      f);
}

/* ---- text -> table rows --------------------------------------------------------- */

/* Card-table blocks for the gfx targets named in `text`; with `allow`
 * (" gfx1031 gfx1030 ", explain -- CMD) only those the program's devices
 * or the shim named, not every name a runtime message happens to list. */
static void print_targets(const char *text, struct rdc_json *j, const char *allow)
{
	regex_t re;
	if (regcomp(&re, "gfx[0-9][0-9a-f]{2,3}", REG_EXTENDED | REG_ICASE))
		return;
	const struct rdc_tables *t = rdc_tables_builtin();
	const char *p = text;
	regmatch_t m;
	char seen[512] = "";
	bool opened = false;
	while (regexec(&re, p, 1, &m, 0) == 0) {
		char tgt[16];
		int len = (int)(m.rm_eo - m.rm_so);
		snprintf(tgt, sizeof tgt, "%.*s", len < 15 ? len : 15, p + m.rm_so);
		p += m.rm_eo;
		char key[20];
		snprintf(key, sizeof key, " %s ", tgt);
		if (strstr(seen, key) || strlen(seen) + strlen(key) >= sizeof seen)
			continue;
		if (allow && !strstr(allow, key))
			continue;
		strcat(seen, key);
		const struct rdc_card *cards[8];
		size_t n = rdc_card_search(t, tgt, cards, 8);
		if (j) {
			if (!opened) {
				rdc_json_key(j, "targets");
				rdc_json_arr(j);
				opened = true;
			}
			rdc_json_obj(j);
			rdc_json_key(j, "target");
			rdc_json_str(j, tgt);
			rdc_json_key(j, "cards");
			rdc_json_arr(j);
			for (size_t i = 0; i < n; i++) {
				rdc_json_obj(j);
				rdc_json_key(j, "name");
				rdc_json_str(j, cards[i]->name);
				rdc_json_key(j, "status");
				rdc_json_str(j, rdc_card_status_name(cards[i]->status));
				rdc_json_obj_end(j);
			}
			rdc_json_arr_end(j);
			rdc_json_obj_end(j);
			continue;
		}
		if (!n) {
			printf("\n%s: no card in the card table has this target\n", tgt);
			continue;
		}
		printf("\n%s is the target of:", tgt);
		for (size_t i = 0; i < n; i++) {
			bool dup = false;
			for (size_t k = 0; k < i; k++)
				dup |= !strcmp(cards[k]->name, cards[i]->name);
			if (!dup)
				printf("%s %s (%s)", i ? ";" : "", cards[i]->name, rdc_card_status_name(cards[i]->status));
		}
		printf("\n");
	}
	if (opened)
		rdc_json_arr_end(j);
	regfree(&re);
}

/* Does row `r` match, and is it about this program?  A PyTorch row
 * (cuda-unavailable) matches a generic HIP error too; for explain -- CMD it
 * counts only when the program is Python/PyTorch (`torch`). */
static bool row_applies(const struct rdc_err_row *r, const char *text, bool torch)
{
	if (!rdc_errtab_match(r, text))
		return false;
	return torch || !strstr(r->title, "PyTorch");
}

/* CMD's stderr without the simulator's own lines ("rdnacompat-sim: ..."):
 * its advice is about the simulated machine, not the program (audit M7). */
static char *program_lines(const char *s)
{
	struct rdc_sbuf b = { 0 };
	rdc_sb_add(&b, "");
	while (*s) {
		size_t len = strcspn(s, "\n");
		if (strncmp(s, "rdnacompat-sim:", 15) != 0)
			rdc_sb_addn(&b, s, len + (s[len] == '\n'));
		s += len + (s[len] == '\n');
	}
	return b.s;
}

/* The targets the shim's log names (device target=, chosen=) and the
 * --gpu value, as " gfx1031 gfx1030 ". */
static char *named_targets(const char *log_path, const char *gpu)
{
	struct rdc_sbuf b = { 0 };
	rdc_sb_add(&b, " ");
	size_t len = 0;
	char *log = rdc_read_file(log_path, 8u << 20, &len);
	regex_t re;
	if (log && !regcomp(&re, "(target|chosen)=(gfx[0-9a-z]+)", REG_EXTENDED)) {
		const char *p = log;
		regmatch_t m[3];
		while (regexec(&re, p, 3, m, 0) == 0) {
			rdc_sb_printf(&b, "%.*s ", (int)(m[2].rm_eo - m[2].rm_so), p + m[2].rm_so);
			p += m[0].rm_eo;
		}
		regfree(&re);
	}
	free(log);
	for (const char *g = gpu; g && *g;) {
		size_t l = strcspn(g, ",");
		rdc_sb_printf(&b, "%.*s ", (int)l, g);
		g += l + (g[l] == ',');
	}
	return b.s;
}

/* The targets named on the lines where row `r` matched, as JSON key
 * "targets" (an array of {target, cards}) or as one text line each:
 * "  card:  gfx1152 — AMD Radeon 860M ... (unsupported)". */
static void row_targets(const struct rdc_err_row *r, const char *text, struct rdc_json *j)
{
	char tg[8][RDC_PROC_MAX];
	size_t n = rdc_errtab_targets(r, text, tg, 8);
	const struct rdc_tables *t = rdc_tables_builtin();
	if (j) {
		rdc_json_key(j, "targets");
		rdc_json_arr(j);
	}
	for (size_t i = 0; i < n; i++) {
		const struct rdc_card *cards[8];
		size_t nc = rdc_card_search(t, tg[i], cards, 8);
		if (j) {
			rdc_json_obj(j);
			rdc_json_key(j, "target");
			rdc_json_str(j, tg[i]);
			rdc_json_key(j, "cards");
			rdc_json_arr(j);
			for (size_t k = 0; k < nc; k++)
				rdc_json_str(j, cards[k]->name);
			rdc_json_arr_end(j);
			rdc_json_obj_end(j);
			continue;
		}
		printf("  target: %s", tg[i]);
		if (!nc)
			printf(" (no card in the card table has it)");
		for (size_t k = 0; k < nc; k++) {
			bool dup = false;
			for (size_t q = 0; q < k; q++)
				dup |= !strcmp(cards[q]->name, cards[k]->name);
			if (!dup)
				printf("%s %s (%s)", k ? ";" : " —", cards[k]->name,
				       rdc_card_status_name(cards[k]->status));
		}
		printf("\n");
	}
	if (j)
		rdc_json_arr_end(j);
}

/* Print matches for `text` (as keys "matches" and "targets" of the object
 * open in `j`, or as text when j is NULL); returns how many rows matched. */
static size_t explain_text(const struct rdc_errtab *t, const struct rdc_diagtab *dt, const char *raw,
			   struct rdc_json *j, const char *allow, bool torch)
{
	size_t hits = 0;
	/* as users paste it: colours (ANSI escapes) and carriage returns out */
	char *text = rdc_text_clean(raw);
	struct rdc_line_ids ids = { 0 };
	/* the known-harmless lines first: listed as such, and blanked so that
	 * what is matched below is what may be the error */
	struct rdc_harmless hm;
	struct rdc_harmless_hit *hh = NULL;
	size_t n_hh = 0;
	struct rdc_diag hd = { 0 };
	bool have_hm = rdc_harmless_load("harmless.tsv", &hm, &hd) == 0;
	if (!have_hm)
		fprintf(stderr, "rdnacompat explain: %s (known-harmless lines not recognised)\n",
			hd.msg[0] ? hd.msg : "cannot load harmless.tsv");
	else
		n_hh = rdc_harmless_scan(&hm, text, &hh);
	for (size_t q = 0; q < n_hh; q++)
		for (size_t k = 0; k < hh[q].n_lines; k++)
			rdc_line_ids_add(&ids, hh[q].lines[k], "harmless");
	if (j) {
		rdc_json_key(j, "matches");
		rdc_json_arr(j);
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct rdc_err_row *r = &t->rows[i];
		if (!row_applies(r, text, torch))
			continue;
		hits++;
		unsigned ln[64];
		size_t nl = rdc_errtab_lines(r, text, ln, 64);
		for (size_t q = 0; q < nl; q++)
			rdc_line_ids_add(&ids, ln[q], r->id);
		if (j) {
			rdc_json_obj(j);
			const char *k[] = { "id", "title", "cause", "fix" };
			const char *v[] = { r->id, r->title, r->cause, r->fix };
			for (int q = 0; q < 4; q++) {
				rdc_json_key(j, k[q]);
				rdc_json_str(j, v[q]);
			}
			rdc_json_key(j, "sources");
			rdc_json_arr(j);
			char *copy = rdc_xstrdup(r->sources), *save = NULL;
			for (char *s = strtok_r(copy, " ", &save); s; s = strtok_r(NULL, " ", &save))
				rdc_json_str(j, s);
			free(copy);
			rdc_json_arr_end(j);
			row_targets(r, text, j);
			rdc_json_obj_end(j);
			continue;
		}
		printf("%s[%s] %s\n", hits > 1 ? "\n" : "", r->id, r->title);
		row_targets(r, text, NULL);
		printf("  cause: %s\n  fix:   %s\n  seen in:", r->cause, r->fix);
		char *copy = rdc_xstrdup(r->sources), *save = NULL;
		for (char *s = strtok_r(copy, " ", &save); s; s = strtok_r(NULL, " ", &save))
			printf("\n    %s", s);
		free(copy);
		printf("\n");
	}
	if (j)
		rdc_json_arr_end(j);
	size_t curated = hits;
	if (dt)
		hits += rdc_explain_harvested(dt, text, j, &ids, curated == 0);
	if (!j && !hits && n_hh)
		printf("no error: every line recognised is known and harmless (below); if the program failed, "
		       "the cause is elsewhere: `rdnacompat doctor` checks the setup, and "
		       "`rdnacompat explain -- CMD` runs CMD under the shim in audit mode\n");
	else if (!j && !hits)
		printf("no known error matched; `rdnacompat doctor` checks the setup, and "
		       "`rdnacompat explain -- CMD` runs CMD under the shim in audit mode\n");
	if (have_hm) {
		rdc_harmless_print(&hm, hh, n_hh, j);
		rdc_harmless_free(&hm);
	}
	free(hh);
	print_targets(text, j, allow);
	/* the line-by-line view shows the lines as pasted, harmless ones too */
	char *shown = rdc_text_clean(raw);
	rdc_line_ids_print(&ids, shown, j);
	free(shown);
	rdc_line_ids_free(&ids);
	free(text);
	return hits + n_hh;
}

static int load_table(const char *path, struct rdc_errtab *t, struct rdc_diagtab *dt)
{
	char *dir = rdc_tables_dir(), *p = NULL;
	if (!dir) {
		fprintf(stderr, "rdnacompat explain: tables/ not found beside the tool (set RDNACOMPAT_TABLES_DIR)\n");
		return -1;
	}
	struct rdc_diag dd = { 0 };
	if (rdc_diagtab_load(dir, dt, &dd) != 0) {
		fprintf(stderr, "rdnacompat explain: %s\n", dd.msg[0] ? dd.msg : "cannot load the harvested tables");
		free(dir);
		return -1;
	}
	if (!path) {
		struct rdc_sbuf b = { 0 };
		rdc_sb_printf(&b, "%s/errors.tsv", dir);
		p = b.s;
		path = p;
	}
	struct rdc_diag d = { 0 };
	int rc = rdc_errtab_load(path, t, &d);
	if (rc) {
		fprintf(stderr, "rdnacompat explain: %s\n", d.msg[0] ? d.msg : rdc_strerror(rc));
		rdc_diagtab_free(dt);
	}
	free(dir);
	free(p);
	return rc ? -1 : 0;
}

/* ---- -- CMD ------------------------------------------------------------------------ */

static int run_audit(struct rdc_run_opts *o, char **cmd, const struct rdc_errtab *t, const struct rdc_diagtab *dt,
		     bool json)
{
	const char *tmp = getenv("TMPDIR");
	struct rdc_sbuf path = { 0 };
	rdc_sb_printf(&path, "%s/rdnacompat-explain-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(path.s);
	if (fd < 0) {
		fprintf(stderr, "rdnacompat explain: cannot create a temporary log: %s\n", strerror(errno));
		rdc_sb_free(&path);
		return 2;
	}
	close(fd);
	o->mode = "audit";
	o->log_file = path.s;
	if (!o->log_level)
		o->log_level = "info";
	int pipefd[2];
	if (pipe(pipefd) != 0) {
		unlink(path.s);
		rdc_sb_free(&path);
		return 2;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		unlink(path.s);
		rdc_sb_free(&path);
		return 2;
	}
	if (pid == 0) {
		close(pipefd[0]);
		dup2(pipefd[1], 2);
		/* --json: stdout holds the JSON only; CMD's stdout joins its
		 * stderr (passed through to ours, and matched too). */
		if (json)
			dup2(pipefd[1], 1);
		close(pipefd[1]);
		if (rdc_run_setup_env(o) != 0)
			_exit(2);
		_exit(rdc_run_exec(cmd));
	}
	close(pipefd[1]);
	/* Pass CMD's stderr through, keeping up to 1 MiB to match against the table. */
	struct rdc_sbuf err = { 0 };
	rdc_sb_add(&err, "");
	char buf[4096];
	ssize_t n;
	while ((n = read(pipefd[0], buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fwrite(buf, 1, (size_t)n, stderr) != (size_t)n)
			break;
		if (err.len < (1u << 20))
			rdc_sb_addn(&err, buf, (size_t)n);
	}
	close(pipefd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;

	struct rdc_log_summary s;
	struct rdc_diag d = { 0 };
	bool have = rdc_log_summarize(path.s, &s, &d) == 0;
	char *text = program_lines(err.s);
	char *allow = named_targets(path.s, o->gpu);
	const char *base = strrchr(cmd[0], '/');
	bool torch = strstr(base ? base + 1 : cmd[0], "python") || strstr(text, "torch");
	size_t hits = 0;
	for (size_t i = 0; i < t->n; i++)
		hits += row_applies(&t->rows[i], text, torch);
	{
		char *clean = rdc_text_clean(text);
		struct rdc_dhit *dh = NULL;
		hits += rdc_diagtab_search(dt, clean, &dh);
		free(dh);
		free(clean);
	}
	if (json) {
		struct rdc_json j;
		rdc_json_init(&j, stdout);
		rdc_json_obj(&j);
		rdc_json_key(&j, "command");
		rdc_json_str(&j, cmd[0]);
		rdc_json_key(&j, "exit");
		rdc_json_i64(&j, rc);
		rdc_json_key(&j, "log");
		if (have)
			rdc_log_summary_json(&j, &s);
		else
			rdc_json_null(&j);
		explain_text(t, dt, text, &j, allow, torch);
		rdc_json_obj_end(&j);
		rdc_json_end(&j);
	} else {
		printf("\n== rdnacompat explain: %s exited %d; shim log (audit mode) ==\n", cmd[0], rc);
		if (have)
			rdc_log_summary_print(stdout, &s, false);
		else
			printf("%s\n", d.msg);
		if (hits) {
			printf("\n== known errors in %s's output ==\n", cmd[0]);
			explain_text(t, dt, text, NULL, allow, torch);
		}
	}
	free(text);
	free(allow);
	if (have)
		rdc_log_summary_free(&s);
	unlink(path.s);
	rdc_sb_free(&path);
	rdc_sb_free(&err);
	return rc;
}

int rdc_cmd_explain(int argc, char **argv)
{
	bool json = false;
	const char *log = NULL, *table = NULL;
	struct rdc_run_opts o = { 0 };
	bool have_run_opts = false;
	int i = 1;
	for (; i < argc; i++) {
		if (rdc_is_help(argv[i])) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--log") && i + 1 < argc) {
			log = argv[++i];
		} else if (!strcmp(argv[i], "--table") && i + 1 < argc) {
			table = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			int r = rdc_run_parse_opt(&o, argc, argv, &i);
			if (r != 1) {
				fprintf(stderr, "rdnacompat explain: %s '%s'\n", r < 0 ? "missing value for" : "unknown option",
					argv[i]);
				usage(stderr);
				return 2;
			}
			have_run_opts = true;
		} else {
			break;
		}
	}
	bool dashdash = i > 1 && !strcmp(argv[i - 1], "--");
	if (log) {
		struct rdc_log_summary s;
		struct rdc_diag d = { 0 };
		if (rdc_log_summarize(log, &s, &d) != 0) {
			fprintf(stderr, "rdnacompat explain: %s\n", d.msg);
			return 1;
		}
		rdc_log_summary_print(stdout, &s, json);
		rdc_log_summary_free(&s);
		return 0;
	}
	struct rdc_errtab t;
	struct rdc_diagtab dt;
	if (load_table(table, &t, &dt) != 0)
		return 2;
	int rc;
	if (dashdash) {
		if (i >= argc) {
			fprintf(stderr, "rdnacompat explain: no command after --\n");
			rc = 2;
		} else {
			rc = run_audit(&o, argv + i, &t, &dt, json);
		}
	} else if (have_run_opts) {
		fprintf(stderr, "rdnacompat explain: run options need -- CMD\n");
		rc = 2;
	} else {
		struct rdc_sbuf text = { 0 };
		rdc_sb_add(&text, "");
		if (i >= argc && isatty(0)) {
			usage(stderr);
			rdc_errtab_free(&t);
			rdc_diagtab_free(&dt);
			return 2;
		}
		if (i >= argc || (i == argc - 1 && !strcmp(argv[i], "-"))) {
			char buf[4096];
			size_t n;
			while ((n = fread(buf, 1, sizeof buf, stdin)) > 0 && text.len < (4u << 20))
				rdc_sb_addn(&text, buf, n);
		} else {
			for (; i < argc; i++)
				rdc_sb_printf(&text, "%s%s", text.len ? " " : "", argv[i]);
		}
		if (json) {
			struct rdc_json j;
			rdc_json_init(&j, stdout);
			rdc_json_obj(&j);
			rc = explain_text(&t, &dt, text.s, &j, NULL, true) ? 0 : 1;
			rdc_json_obj_end(&j);
			rdc_json_end(&j);
		} else {
			rc = explain_text(&t, &dt, text.s, NULL, NULL, true) ? 0 : 1;
		}
		rdc_sb_free(&text);
	}
	rdc_errtab_free(&t);
	rdc_diagtab_free(&dt);
	return rc;
}
