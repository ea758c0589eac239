/* SPDX-License-Identifier: MIT */
/*
 * cmd_report.c — `rdnacompat report`: writes a card report
 * (tables/reports/SCHEMA.md) from this machine's facts (sysinfo.c), the
 * doctor's checks (doctor.c), a shim log (log_summary.c) and free-text
 * notes; every value is scrubbed of personal data (scrub.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "doctor.h"
#include "json_out.h"
#include "log_summary.h"
#include "report_file.h"
#include "report_submit.h"
#include "scrub.h"
#include "sysinfo.h"
#include "tool_util.h"

static void usage(FILE *f)
{
	fputs("usage: rdnacompat report [-o FILE] [--log FILE] [--notes TEXT]... [OPTIONS]\n"
	      "\n"
	      "Writes a card report (tables/reports/SCHEMA.md): card, PCI id and revision, gfx\n"
	      "target, kernel, distribution, ROCm and PyTorch versions, shim version and mode,\n"
	      "what the shim mapped/refused/found missing/spoofed/redirected/routed (from --log),\n"
	      "the doctor's results and your notes.  Personal data is scrubbed: home paths become\n"
	      "~/, the user name <user>, the host name <host>.\n"
	      "\n"
	      "  -o FILE            write here (default: standard output)\n"
	      "  --log FILE         a shim log (text or JSON) of the run being reported\n"
	      "  --notes TEXT       free text (repeatable)\n"
	      "  --workload TEXT    what was run (repeatable)\n"
	      "  --card VVVV:DDDD[:RR]  report this card (default: the first AMD GPU found)\n"
	      "  --simulated        the run used the simulated GPU (rdnacompat sim)\n"
	      "  --mode MODE        shim mode of the run (default: from the log, RDNACOMPAT_MODE, map)\n"
	      "  --result R         works, partial, fails or untested (default: from the log)\n"
	      "  --date YYYY-MM-DD  report date (default: today, UTC)\n"
	      "  --no-doctor        leave out the doctor's results\n"
	      "  --root DIR         read the machine under DIR (tests), as for doctor\n"
	      "  --json             print the report as a JSON object instead\n"
	      "  --submit           write the report (to -o FILE, default\n"
	      "                     ./rdnacompat-report-DATE-TARGET.report) and print a link that\n"
	      "                     opens a prefilled issue with it (at most 8000 characters: the\n"
	      "                     last lines are left out when it is longer, and the issue says\n"
	      "                     so and names the file); rdnacompat itself sends nothing.\n"
	      "                     RDNACOMPAT_ISSUES_URL: another new-issue form\n"
	      "\n"
	      "exit: 0 written, 1 no card to report / unknown card / unreadable log / cannot write,\n"
	      "2 usage error\n",
	      f);
}

struct field {
	const char *key;
	char *value;
};

struct rep {
	struct field *f;
	size_t n;
	const struct rdc_scrub *sc;
};

static void put(struct rep *r, const char *key, const char *value)
{
	r->f = rdc_xrealloc(r->f, (r->n + 1) * sizeof *r->f);
	char *v = rdc_scrub(r->sc, value && *value ? value : "unknown");
	/* One line per value. */
	for (char *p = v; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	r->f[r->n++] = (struct field){ key, v };
}

static void put_log(struct rep *r, const struct rdc_log_summary *s)
{
	static const struct {
		int cat;
		const char *key;
	} map[] = {
		{ RDC_CAT_DEVICE, "device" },   { RDC_CAT_NATIVE, "native" },         { RDC_CAT_MAPPED, "mapped" },
		{ RDC_CAT_AUDIT, "would_map" }, { RDC_CAT_REFUSED, "refused" },
		{ RDC_CAT_MISSING, "missing" }, { RDC_CAT_SPOOFED, "spoofed" },       { RDC_CAT_REDIRECTED, "redirected" },
		{ RDC_CAT_ROUTED, "routed" },   { RDC_CAT_WARNING, "warning" },
	};
	for (size_t m = 0; m < sizeof map / sizeof map[0]; m++)
		for (size_t i = 0; i < s->n_libs; i++) {
			const struct rdc_log_lib *l = &s->libs[i];
			int c = map[m].cat;
			const char *base = strrchr(l->name, '/') ? strrchr(l->name, '/') + 1 : l->name;
			for (size_t k = 0; k < l->n_groups[c]; k++) {
				const struct rdc_log_item *it = &l->groups[c][k];
				struct rdc_sbuf b = { 0 };
				if (c == RDC_CAT_DEVICE)
					rdc_sb_add(&b, it->text);
				else
					rdc_sb_printf(&b, "%s: %s", base, it->text);
				if (c == RDC_CAT_MAPPED || c == RDC_CAT_AUDIT || c == RDC_CAT_NATIVE)
					rdc_sb_printf(&b, " (%u code object%s)", it->count, it->count == 1 ? "" : "s");
				else if (it->count > 1)
					rdc_sb_printf(&b, " (x%u)", it->count);
				if ((c == RDC_CAT_MAPPED || c == RDC_CAT_AUDIT || c == RDC_CAT_NATIVE) &&
				    l->n_groups[c] == 1 && l->kernels[c])
					rdc_sb_printf(&b, ", %lu kernel%s", l->kernels[c], l->kernels[c] == 1 ? "" : "s");
				put(r, map[m].key, b.s);
				rdc_sb_free(&b);
			}
		}
}

/* --card as every other command takes it: VVVV:DDDD[:RR] or DDDD (hex PCI
 * ids, vendor 1002 implied), or a card name matching cards of one PCI id.
 * With `by_target` (the first item of RDNACOMPAT_SIM_GPUS) a gfx target
 * names its first desktop card in the table (else its first card).  NULL
 * with a sentence in err. */
static const struct rdc_card *find_card(const struct rdc_tables *t, const char *s, bool by_target,
					int *revision, char *err, size_t n)
{
	unsigned ven = 0, dev = 0, rev = 0;
	int used = 0;
	*revision = -1;
	int k = sscanf(s, "%4x:%4x%n:%2x%n", &ven, &dev, &used, &rev, &used);
	if (k >= 2 && s[used] == 0) {
		*revision = k == 3 ? (int)rev : -1;
		const struct rdc_card *c = rdc_card_find_pci(t, (uint16_t)ven, (uint16_t)dev, *revision);
		if (!c)
			snprintf(err, n, "card %04x:%04x is not in the card table yet", ven,
				 dev);
		return c;
	}
	if (strlen(s) == 4 && strspn(s, "0123456789abcdefABCDEF") == 4) {
		dev = (unsigned)strtoul(s, NULL, 16);
		const struct rdc_card *c = rdc_card_find_pci(t, 0x1002, (uint16_t)dev, -1);
		if (c)
			return c;
	}
	if (by_target && !strncmp(s, "gfx", 3)) {
		const struct rdc_card *first = NULL;
		for (size_t i = 0; i < t->n_cards; i++) {
			const struct rdc_card *c = &t->cards[i];
			if (strcmp(c->target, s) != 0)
				continue;
			if (!strcmp(c->kind, "desktop"))
				return c;
			if (!first)
				first = c;
		}
		if (first)
			return first;
		snprintf(err, n, "no card with target %s in the card table", s);
		return NULL;
	}
	const struct rdc_card *m[64];
	size_t k2 = rdc_card_search(t, s, m, 64);
	if (k2 == 0) {
		snprintf(err, n, "--card '%s': no card matches (rdnacompat cards lists them)", s);
		return NULL;
	}
	for (size_t i = 1; i < k2; i++)
		if (m[i]->vendor != m[0]->vendor || m[i]->device != m[0]->device) {
			/* the name twice: each cut to 48 bytes so the sentence fits */
			snprintf(err, n, "--card '%.48s' matches %zu cards of different PCI ids; give "
				 "VVVV:DDDD[:RR] or a longer name (rdnacompat cards '%.48s' lists them)",
				 s, k2, s);
			return NULL;
		}
	return m[0];
}

/* YYYY-MM-DD naming a real day (what `db check` accepts). */
/* First value of `key` in the report being written, or NULL. */
static const char *field_of(const struct rep *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return r->f[i].value;
	return NULL;
}

/* --submit: the link to a prefilled issue for the report written to `path`
 * (read back, so the link carries exactly the file). */
static int print_submit(const struct rep *r, const char *path)
{
	size_t len = 0;
	char *text = rdc_read_file(path, 1u << 20, &len);
	if (!text) {
		fprintf(stderr, "rdnacompat report: cannot read back %s: %s\n", path, strerror(errno));
		return 1;
	}
	char *full = realpath(path, NULL);
	const char *card = field_of(r, "card"), *tgt = field_of(r, "gfx_target"),
		   *rocm = field_of(r, "rocm_version"), *res = field_of(r, "result"),
		   *sim = field_of(r, "simulated");
	struct rdc_sbuf title = { 0 };
	rdc_sb_printf(&title, "Card report: %s (%s), ROCm %s: %s%s", card ? card : "unknown card",
		      tgt ? tgt : "?", rocm ? rocm : "?", res ? res : "untested",
		      sim && !strcmp(sim, "yes") ? " (simulated card)" : "");
	const char *base = getenv("RDNACOMPAT_ISSUES_URL");
	size_t trimmed = 0;
	char *url = rdc_report_submit_url(base && *base ? base : RDC_SUBMIT_ISSUES_URL, title.s, text,
					  full ? full : path, RDC_SUBMIT_URL_MAX, &trimmed);
	int rc = 0;
	if (!url) {
		fprintf(stderr, "rdnacompat report: the link does not fit %d characters even without the report; "
			"attach %s to an issue by hand\n", RDC_SUBMIT_URL_MAX, full ? full : path);
		rc = 1;
	} else {
		printf("Open this link to file the report as an issue (rdnacompat sends nothing; read it first):\n%s\n",
		       url);
		if (trimmed)
			printf("The link leaves out the report's last %zu line(s) to stay within %d characters; "
			       "the issue says so: attach the full report, %s\n",
			       trimmed, RDC_SUBMIT_URL_MAX, full ? full : path);
		else
			printf("The link carries the whole report (%s).\n", full ? full : path);
	}
	free(url);
	free(full);
	rdc_sb_free(&title);
	free(text);
	return rc;
}

static bool date_ok(const char *s)
{
	int y, m, d, used = 0;
	if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 || used != 10 ||
	    s[4] != '-' || s[7] != '-')
		return false;
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > days[m - 1])
		return false;
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return !(m == 2 && d == 29 && !leap);
}

int rdc_cmd_report(int argc, char **argv)
{
	const char *out = NULL, *log = NULL, *card = NULL, *mode = NULL, *result = NULL, *root = NULL,
		   *date = NULL;
	const char *notes[32], *work[32];
	int n_notes = 0, n_work = 0;
	bool simulated = false, no_doctor = false, json = false, submit = false;
	struct rdc_sbuf def_out = { 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (rdc_is_help(a)) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-o") && has) {
			out = argv[++i];
		} else if (!strcmp(a, "--log") && has) {
			log = argv[++i];
		} else if (!strcmp(a, "--notes") && has) {
			if (n_notes < 32)
				notes[n_notes++] = argv[++i];
		} else if (!strcmp(a, "--workload") && has) {
			if (n_work < 32)
				work[n_work++] = argv[++i];
		} else if (!strcmp(a, "--card") && has) {
			card = argv[++i];
		} else if (!strcmp(a, "--mode") && has) {
			mode = argv[++i];
		} else if (!strcmp(a, "--result") && has) {
			result = argv[++i];
		} else if (!strcmp(a, "--date") && has) {
			date = argv[++i];
		} else if (!strcmp(a, "--root") && has) {
			root = argv[++i];
		} else if (!strcmp(a, "--simulated")) {
			simulated = true;
		} else if (!strcmp(a, "--no-doctor")) {
			no_doctor = true;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--submit")) {
			submit = true;
		} else {
			fprintf(stderr, "rdnacompat report: unexpected argument '%s'\n", a);
			usage(stderr);
			return 2;
		}
	}
	static const char *const results[] = { "works", "partial", "fails", "untested" };
	bool result_ok = !result;
	for (size_t i = 0; result && i < 4; i++)
		result_ok |= !strcmp(result, results[i]);
	if (!result_ok) {
		fprintf(stderr, "rdnacompat report: --result must be works, partial, fails or untested, "
				"not '%s'\n", result);
		return 2;
	}
	if (date && !date_ok(date)) {
		fprintf(stderr, "rdnacompat report: --date '%s' is not a day as YYYY-MM-DD\n", date);
		return 2;
	}
	/* -o x.json: the JSON format, as the name says. */
	size_t ol = out ? strlen(out) : 0;
	if (ol > 5 && !strcmp(out + ol - 5, ".json"))
		json = true;
	/* Under `rdnacompat sim` the card is the simulated one. */
	const char *sim = getenv("RDNACOMPAT_SIM_GPUS");
	char sim_first[64] = "";
	if (sim && *sim && !card) {
		snprintf(sim_first, sizeof sim_first, "%.*s", (int)strcspn(sim, ","), sim);
		if (!simulated)
			fprintf(stderr, "rdnacompat report: RDNACOMPAT_SIM_GPUS is set: a run on the "
					"simulated card %s (--simulated implied)\n", sim_first);
		simulated = true;
	}
	const struct rdc_tables *t = rdc_tables_builtin();
	struct rdc_sysinfo si;
	rdc_sys_scan(&si, root, NULL, t);
	int rc = 1;
	struct rdc_scrub sc;
	rdc_scrub_init(&sc, root);
	struct rep r = { .sc = &sc };
	struct rdc_log_summary ls;
	bool have_log = false;

	/* The card. */
	unsigned ven = 0, dev = 0;
	int revision = -1;
	const struct rdc_card *c = NULL;
	if (card || sim_first[0]) {
		char err[256] = "";
		/* RDNACOMPAT_SIM_GPUS items are TARGET or TARGET@CARD. */
		const char *at = card ? NULL : strchr(sim_first, '@');
		c = find_card(t, card ? card : at ? at + 1 : sim_first, !card && !at, &revision, err,
			      sizeof err);
		if (!c) {
			fprintf(stderr, "rdnacompat report: %s%s\n", card ? "" : "RDNACOMPAT_SIM_GPUS: ", err);
			rc = strstr(err, "not in the card table yet") ? 1 : 2;
			goto done;
		}
		ven = c->vendor;
		dev = c->device;
		if (revision < 0)
			revision = c->revision;
	} else {
		const struct rdc_gpu *g = NULL;
		for (size_t i = 0; i < si.n_gpus && !g; i++)
			if (!si.gpus[i].apu)
				g = &si.gpus[i];
		if (!g && si.n_gpus)
			g = &si.gpus[0];
		if (!g) {
			fprintf(stderr, "rdnacompat report: no AMD GPU here; for a run on the simulated GPU give "
					"--simulated --card NAME|VVVV:DDDD[:RR]\n");
			goto done;
		}
		ven = g->vendor;
		dev = g->device;
		revision = g->revision;
		c = g->card;
		if (!c) {
			fprintf(stderr, "rdnacompat report: card %04x:%04x is not in the card table yet; "
					"`rdnacompat doctor` shows what is known about it\n", ven, dev);
			goto done;
		}
	}
	if (log) {
		struct rdc_diag d = { 0 };
		if (rdc_log_summarize(log, &ls, &d) != 0) {
			fprintf(stderr, "rdnacompat report: %s\n", d.msg);
			goto done;
		}
		have_log = true;
	}

	char buf[64];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
	put(&r, "schema", "1");
	put(&r, "date", date ? date : buf);
	put(&r, "simulated", simulated ? "yes" : "no");
	/* The shim, and so this command, acts on Linux only. */
	put(&r, "platform", "linux");
	/* The card table's first name for this id ("A; B" lists aliases). */
	char name[160];
	snprintf(name, sizeof name, "%s", c->name);
	name[strcspn(name, ";")] = '\0';
	put(&r, "card", name);
	snprintf(buf, sizeof buf, "%04x:%04x", ven, dev);
	put(&r, "pci_id", buf);
	if (revision >= 0)
		snprintf(buf, sizeof buf, "0x%02x", (unsigned)revision);
	else
		snprintf(buf, sizeof buf, "unknown");
	put(&r, "pci_revision", buf);
	put(&r, "gfx_target", c->target);
	put(&r, "kernel", si.kernel);
	put(&r, "distro", si.distro);
	put(&r, "rocm_version", si.rocm_version ? si.rocm_version : "none");
	if (si.rocm_source)
		put(&r, "rocm_source", si.rocm_source);
	put(&r, "pytorch_version", si.torch_version ? si.torch_version : "none");
	put(&r, "pytorch_hip", si.torch_hip ? si.torch_hip : "none");
	put(&r, "shim_version", RDC_VERSION);
	const char *m = mode ? mode : have_log && ls.mode ? ls.mode : getenv("RDNACOMPAT_MODE");
	put(&r, "shim_mode", m && *m ? m : "map");
	size_t missing = 0, refused = 0;
	for (size_t i = 0; have_log && i < ls.n_libs; i++) {
		missing += ls.libs[i].n[RDC_CAT_MISSING];
		refused += ls.libs[i].n[RDC_CAT_REFUSED];
	}
	put(&r, "result", result ? result : !have_log ? "untested" : missing || refused ? "partial" : "works");
	for (int i = 0; i < n_work; i++)
		put(&r, "workload", work[i]);
	if (have_log)
		put_log(&r, &ls);
	if (!no_doctor) {
		struct rdc_doctor_opts o = { 0 };
		struct rdc_checks ck;
		rdc_doctor_run(&o, &si, t, &ck);
		for (size_t i = 0; i < ck.n; i++) {
			struct rdc_sbuf b = { 0 };
			rdc_sb_printf(&b, "%s %s %s", rdc_level_name(ck.v[i].level), ck.v[i].id, ck.v[i].msg);
			put(&r, "doctor", b.s);
			rdc_sb_free(&b);
		}
		rdc_checks_free(&ck);
	}
	for (int i = 0; i < n_notes; i++)
		put(&r, "notes", notes[i]);

	if (submit && json) {
		fprintf(stderr, "rdnacompat report: --submit writes the text report, not JSON\n");
		rc = 2;
		goto done;
	}
	if (submit && !out) {
		const char *d = field_of(&r, "date"), *g = field_of(&r, "gfx_target");
		rdc_sb_printf(&def_out, "rdnacompat-report-%s-%s.report", d ? d : "undated", g ? g : "card");
		out = def_out.s;
	}
	FILE *f = out ? fopen(out, "we") : stdout;
	if (!f) {
		fprintf(stderr, "rdnacompat report: %s: %s\n", out, strerror(errno));
		goto done;
	}
	if (json) {
		struct rdc_json j;
		rdc_json_init(&j, f);
		rdc_json_obj(&j);
		for (size_t i = 0; i < r.n; i++) {
			bool list = false;
			rdc_report_key_known(r.f[i].key, &list);
			if (list && i && !strcmp(r.f[i - 1].key, r.f[i].key))
				continue;
			rdc_json_key(&j, r.f[i].key);
			if (!list) {
				rdc_json_str(&j, r.f[i].value);
				continue;
			}
			rdc_json_arr(&j);
			for (size_t k = i; k < r.n && !strcmp(r.f[k].key, r.f[i].key); k++)
				rdc_json_str(&j, r.f[k].value);
			rdc_json_arr_end(&j);
		}
		rdc_json_obj_end(&j);
		rdc_json_end(&j);
	} else {
		fprintf(f, "# rdnacompat card report, schema 1 (tables/reports/SCHEMA.md)\n");
		for (size_t i = 0; i < r.n; i++)
			fprintf(f, "%s: %s\n", r.f[i].key, r.f[i].value);
	}
	bool werr = ferror(f) != 0;
	int e = errno;
	if ((f != stdout ? fclose(f) : fflush(f)) != 0) {
		werr = true;
		e = errno;
	}
	rc = werr ? 1 : 0;
	if (werr)
		fprintf(stderr, "rdnacompat report: %s: %s\n", out ? out : "standard output",
			e ? strerror(e) : "write error");
	if (out && !rc)
		fprintf(stderr, "rdnacompat report: wrote %s (check it with `rdnacompat db check`)\n", out);
	if (submit && !rc)
		rc = print_submit(&r, out);
done:
	rdc_sb_free(&def_out);
	if (have_log)
		rdc_log_summary_free(&ls);
	for (size_t i = 0; i < r.n; i++)
		free(r.f[i].value);
	free(r.f);
	rdc_scrub_free(&sc);
	rdc_sys_free(&si);
	return rc;
}
