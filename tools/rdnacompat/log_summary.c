/* SPDX-License-Identifier: MIT */
/*
 * log_summary.c — parses shim logs (text or JSON lines) and groups the
 * events per library (see log_summary.h).  JSON lines are decoded with
 * SQLite's JSON functions (json_each), not by hand.
 */
#include "log_summary.h"

#include <ctype.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "tool_util.h"

static const char *const cat_names[RDC_CAT_N] = { "device",  "native",     "mapped", "would-map",
						  "refused", "missing",    "spoofed", "redirected",
						  "routed",  "warning" };

/* One parsed line. */
struct ev {
	char level[16];
	char event[64];
	size_t n;
	char *k[32], *v[32];
	char *msg;                 /* free-text message (no event) */
};

static void ev_free(struct ev *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->k[i]);
		free(e->v[i]);
	}
	free(e->msg);
	memset(e, 0, sizeof *e);
}

static void ev_add(struct ev *e, const char *k, size_t kl, const char *v, size_t vl)
{
	if (e->n >= 32)
		return;
	e->k[e->n] = strndup(k, kl);
	e->v[e->n] = strndup(v, vl);
	if (!e->k[e->n] || !e->v[e->n]) {
		fputs("rdnacompat: out of memory\n", stderr);
		exit(70);
	}
	e->n++;
}

static const char *ev_get(const struct ev *e, const char *k)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->k[i], k))
			return e->v[i];
	return NULL;
}

/* ---- text lines: rdnacompat[PID]: LEVEL: EVENT: k=v k="v v" ---------------- */

static bool parse_value(const char **pp, struct rdc_sbuf *out)
{
	const char *p = *pp;
	if (*p != '"') {
		size_t n = strcspn(p, " \t");
		rdc_sb_addn(out, p, n);
		*pp = p + n;
		return true;
	}
	p++;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1] == 'x' && isxdigit((unsigned char)p[2]) && isxdigit((unsigned char)p[3])) {
			char hex[3] = { p[2], p[3], 0 };
			char ch = (char)strtol(hex, NULL, 16);
			rdc_sb_addn(out, &ch, 1);
			p += 4;
		} else if (*p == '\\' && p[1]) {
			rdc_sb_addn(out, p + 1, 1);
			p += 2;
		} else {
			rdc_sb_addn(out, p++, 1);
		}
	}
	if (*p != '"')
		return false;
	*pp = p + 1;
	return true;
}

static bool parse_text(const char *line, struct ev *e)
{
	if (strncmp(line, "rdnacompat[", 11))
		return false;
	const char *p = strstr(line, "]: ");
	if (!p)
		return false;
	p += 3;
	size_t ll = strcspn(p, ":");
	if (!p[ll] || ll >= sizeof e->level)
		return false;
	memcpy(e->level, p, ll);
	e->level[ll] = '\0';
	p += ll + 1;
	while (*p == ' ')
		p++;
	/* EVENT: followed only by k=v tokens, else a free-text message. */
	size_t el = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-");
	if (el && el < sizeof e->event && p[el] == ':' && (p[el + 1] == ' ' || !p[el + 1])) {
		struct ev tmp = { 0 };
		const char *q = p + el + 1;
		bool ok = true;
		while (ok && *q) {
			while (*q == ' ' || *q == '\t')
				q++;
			if (!*q)
				break;
			size_t kl = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
			if (!kl || q[kl] != '=') {
				ok = false;
				break;
			}
			const char *k = q;
			q += kl + 1;
			struct rdc_sbuf v = { 0 };
			rdc_sb_add(&v, "");
			ok = parse_value(&q, &v);
			if (ok)
				ev_add(&tmp, k, kl, v.s, v.len);
			rdc_sb_free(&v);
		}
		if (ok) {
			memcpy(tmp.level, e->level, sizeof tmp.level);
			memcpy(tmp.event, p, el);
			tmp.event[el] = '\0';
			*e = tmp;
			return true;
		}
		ev_free(&tmp);
	}
	e->msg = rdc_xstrdup(p);
	return true;
}

/* ---- JSON lines, through SQLite's json_each --------------------------------- */

static bool parse_json(sqlite3_stmt *st, const char *line, struct ev *e)
{
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, line, -1, SQLITE_TRANSIENT);
	int rc;
	bool any = false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		if (!k)
			continue;
		any = true;
		if (!v)
			v = "null";
		if (!strcmp(k, "level"))
			snprintf(e->level, sizeof e->level, "%s", v);
		else if (!strcmp(k, "event"))
			snprintf(e->event, sizeof e->event, "%s", v);
		else if (!strcmp(k, "pid"))
			continue;
		else
			ev_add(e, k, strlen(k), v, strlen(v));
	}
	if (rc != SQLITE_DONE || !any) {
		ev_free(e);
		return false;
	}
	/* The shim's free-text lines are event "message" with key "msg". */
	if (!strcmp(e->event, "message") && ev_get(e, "msg")) {
		char *m = rdc_xstrdup(ev_get(e, "msg"));
		char lvl[16];
		memcpy(lvl, e->level, sizeof lvl);
		ev_free(e);
		memcpy(e->level, lvl, sizeof lvl);
		e->msg = m;
	}
	return true;
}

/* ---- grouping -------------------------------------------------------------------- */

static int classify(const struct ev *e)
{
	const char *n = e->event;
	bool warnish = !strcmp(e->level, "warn") || !strcmp(e->level, "error");
	if (e->msg) {
		if (!strncmp(e->msg, "refused:", 8))
			return RDC_CAT_REFUSED;
		return warnish ? RDC_CAT_WARNING : -1;
	}
	const char *verdict = ev_get(e, "verdict");
	if (!strcmp(n, "device"))
		return RDC_CAT_DEVICE;
	/* a held kernel (`held`, and `held-launch` when the program launched
	 * it) is a per-kernel refusal: the entry ran, that kernel did not */
	if (strstr(n, "refus") || !strcmp(n, "held") || !strcmp(n, "held-launch"))
		return RDC_CAT_REFUSED;
	if (strstr(n, "missing") || strstr(n, "nobinary") || strstr(n, "no_binary") ||
	    (verdict && !strcmp(verdict, "missing")))
		return RDC_CAT_MISSING;
	if (!strcmp(n, "native"))
		return RDC_CAT_NATIVE;
	if (strstr(n, "audit"))
		return RDC_CAT_AUDIT;
	if (strstr(n, "spoof"))
		return RDC_CAT_SPOOFED;
	if (strstr(n, "redirect"))
		return RDC_CAT_REDIRECTED;
	if (!strcmp(n, "fallback-bundle"))   /* RDNACOMPAT_FALLBACK_BUNDLE refused: nothing routed */
		return RDC_CAT_WARNING;
	if (strstr(n, "route") || strstr(n, "fallback"))
		return RDC_CAT_ROUTED;
	if (strstr(n, "map"))
		return RDC_CAT_MAPPED;
	return warnish ? RDC_CAT_WARNING : -1;
}

static struct rdc_log_lib *lib_get(struct rdc_log_summary *s, const char *name)
{
	for (size_t i = 0; i < s->n_libs; i++)
		if (!strcmp(s->libs[i].name, name))
			return &s->libs[i];
	s->libs = rdc_xrealloc(s->libs, (s->n_libs + 1) * sizeof *s->libs);
	struct rdc_log_lib *l = &s->libs[s->n_libs++];
	memset(l, 0, sizeof *l);
	l->name = rdc_xstrdup(name);
	return l;
}

static void list_add(struct rdc_log_item **v, size_t *n, const char *text)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].text, text)) {
			(*v)[i].count++;
			return;
		}
	*v = rdc_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = (struct rdc_log_item){ rdc_xstrdup(text), 1 };
}

static void item_add(struct rdc_log_lib *l, int cat, const char *text, const char *group)
{
	l->n[cat]++;
	list_add(&l->items[cat], &l->n_items[cat], text);
	list_add(&l->groups[cat], &l->n_groups[cat], group);
}

/* What a group of events has in common: the decision, not the bundle. */
static void group_text(const struct ev *e, int cat, const char *full, struct rdc_sbuf *g)
{
	const char *chosen = ev_get(e, "chosen"), *target = ev_get(e, "target");
	const char *code = ev_get(e, "code"), *check = ev_get(e, "check");
	if ((cat == RDC_CAT_MAPPED || cat == RDC_CAT_AUDIT || cat == RDC_CAT_NATIVE) && target &&
	    (chosen || code))
		rdc_sb_printf(g, "%s -> %s", chosen ? chosen : code, target);
	else if (cat == RDC_CAT_REFUSED && check)
		rdc_sb_printf(g, "%scheck=%s%s%s", !strcmp(e->event, "held") ? "held " : "", check,
			      ev_get(e, "kernel") ? " kernel=" : "", ev_get(e, "kernel") ? ev_get(e, "kernel") : "");
	else if (cat == RDC_CAT_REFUSED && !strcmp(e->event, "held-launch"))
		rdc_sb_printf(g, "held kernel=%s launched: %s answered %s", ev_get(e, "kernel") ? ev_get(e, "kernel") : "?",
			      ev_get(e, "api") ? ev_get(e, "api") : "?", ev_get(e, "answer") ? ev_get(e, "answer") : "?");
	else if (cat == RDC_CAT_MISSING && target)
		rdc_sb_printf(g, "no code for %s%s%s", target, ev_get(e, "need") ? "; needs " : "",
			      ev_get(e, "need") ? ev_get(e, "need") : "");
	else
		rdc_sb_add(g, full);
}

static void account(struct rdc_log_summary *s, const struct ev *e)
{
	int cat = classify(e);
	if (cat < 0)
		return;
	const char *lib = ev_get(e, "lib");
	if (!lib)
		lib = ev_get(e, "library");
	if (!lib)
		lib = ev_get(e, "caller");
	if (cat == RDC_CAT_DEVICE || !lib)
		lib = "(process)";
	struct rdc_sbuf t = { 0 };
	rdc_sb_add(&t, "");
	if (e->msg) {
		rdc_sb_printf(&t, "%s: %s", e->level, e->msg);
	} else {
		if (cat == RDC_CAT_WARNING)
			rdc_sb_printf(&t, "%s %s:", e->level, e->event);
		for (size_t i = 0; i < e->n; i++) {
			if (!strcmp(e->k[i], "lib") || !strcmp(e->k[i], "library") || !strcmp(e->k[i], "caller"))
				continue;
			bool q = strpbrk(e->v[i], " \t") != NULL;
			rdc_sb_printf(&t, "%s%s=%s%s%s", t.len ? " " : "", e->k[i], q ? "\"" : "", e->v[i], q ? "\"" : "");
		}
	}
	if (cat == RDC_CAT_DEVICE && !s->mode && ev_get(e, "mode"))
		s->mode = rdc_xstrdup(ev_get(e, "mode"));
	struct rdc_sbuf g = { 0 };
	rdc_sb_add(&g, "");
	group_text(e, cat, t.s, &g);
	struct rdc_log_lib *l = lib_get(s, lib);
	item_add(l, cat, t.s, g.s);
	const char *k = ev_get(e, "kernels");
	if (k)
		l->kernels[cat] += strtoul(k, NULL, 10);
	rdc_sb_free(&g);
	rdc_sb_free(&t);
}

int rdc_log_summarize(const char *path, struct rdc_log_summary *s, struct rdc_diag *d)
{
	memset(s, 0, sizeof *s);
	struct rdc_diag od = { 0 };
	FILE *f = rdc_fopen_input(path, &od);
	if (!f)
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "cannot read %s", od.msg);
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT key, value FROM json_each(?1)", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		fclose(f);
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "sqlite: cannot prepare the JSON reader");
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) >= 0) {
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!n)
			continue;
		s->n_lines++;
		if (!strncmp(line, "rdnacompat: ", 12)) {
			/* The diagnosis block, kept verbatim without its rulers. */
			if (!strstr(line, "-----")) {
				struct rdc_sbuf b = { 0 };
				if (s->diagnosis)
					rdc_sb_printf(&b, "%s\n", s->diagnosis);
				rdc_sb_add(&b, line + 12);
				free(s->diagnosis);
				s->diagnosis = b.s;
			}
			s->n_events++;
			continue;
		}
		struct ev e = { 0 };
		bool ok;
		if (line[0] == '{') {
			ok = parse_json(st, line, &e);
			s->json = true;
		} else {
			ok = parse_text(line, &e);
		}
		if (!ok) {
			s->n_unparsed++;
			continue;
		}
		s->n_events++;
		account(s, &e);
		ev_free(&e);
	}
	free(line);
	sqlite3_finalize(st);
	sqlite3_close(db);
	fclose(f);
	return 0;
}

void rdc_log_summary_free(struct rdc_log_summary *s)
{
	for (size_t i = 0; i < s->n_libs; i++) {
		for (int c = 0; c < RDC_CAT_N; c++) {
			for (size_t k = 0; k < s->libs[i].n_items[c]; k++)
				free(s->libs[i].items[c][k].text);
			free(s->libs[i].items[c]);
			for (size_t k = 0; k < s->libs[i].n_groups[c]; k++)
				free(s->libs[i].groups[c][k].text);
			free(s->libs[i].groups[c]);
		}
		free(s->libs[i].name);
	}
	free(s->libs);
	free(s->mode);
	free(s->diagnosis);
	memset(s, 0, sizeof *s);
}

/* ---- printing --------------------------------------------------------------------- */

static const char *advice(int cat)
{
	switch (cat) {
	case RDC_CAT_MISSING:
		return "no entry of this library runs on the device, natively or mapped: install a build with code "
		       "for the device's target (or its family's generic target); `rdnacompat inspect FILE` lists "
		       "what the library carries";
	case RDC_CAT_REFUSED:
		return "mapped code failed a per-kernel check — registers, LDS, wave size (refused), or instructions "
		       "whose hardware workaround the code lacks (held: kept from running, a launch of it fails with "
		       "invalid device function): those kernels need a build for the device; the rest ran mapped";
	case RDC_CAT_AUDIT:
		return "audit mode changed nothing: `rdnacompat run -- CMD` (map mode) loads these mapped";
	case RDC_CAT_WARNING:
		return "see the messages above; `rdnacompat explain \"MESSAGE\"` explains known ROCm errors";
	default:
		return NULL;
	}
}

void rdc_log_summary_json(struct rdc_json *jp, const struct rdc_log_summary *s)
{
	rdc_json_obj(jp);
	rdc_json_key(jp, "format");
	rdc_json_str(jp, s->json ? "json" : "text");
	rdc_json_key(jp, "lines");
	rdc_json_u64(jp, s->n_lines);
	rdc_json_key(jp, "events");
	rdc_json_u64(jp, s->n_events);
	rdc_json_key(jp, "unparsed");
	rdc_json_u64(jp, s->n_unparsed);
	rdc_json_key(jp, "mode");
	rdc_json_str(jp, s->mode);
	rdc_json_key(jp, "diagnosis");
	rdc_json_str(jp, s->diagnosis);
	rdc_json_key(jp, "libraries");
	rdc_json_arr(jp);
	for (size_t i = 0; i < s->n_libs; i++) {
		const struct rdc_log_lib *l = &s->libs[i];
		rdc_json_obj(jp);
		rdc_json_key(jp, "name");
		rdc_json_str(jp, l->name);
		for (int c = 0; c < RDC_CAT_N; c++) {
			if (!l->n[c])
				continue;
			rdc_json_key(jp, cat_names[c]);
			rdc_json_arr(jp);
			for (size_t k = 0; k < l->n_items[c]; k++) {
				rdc_json_obj(jp);
				rdc_json_key(jp, "detail");
				rdc_json_str(jp, l->items[c][k].text);
				rdc_json_key(jp, "count");
				rdc_json_u64(jp, l->items[c][k].count);
				rdc_json_obj_end(jp);
			}
			rdc_json_arr_end(jp);
		}
		const char *fix = l->n[RDC_CAT_MISSING] ? advice(RDC_CAT_MISSING)
				  : l->n[RDC_CAT_REFUSED] ? advice(RDC_CAT_REFUSED) : NULL;
		rdc_json_key(jp, "fix");
		rdc_json_str(jp, fix);
		rdc_json_obj_end(jp);
	}
	rdc_json_arr_end(jp);
	rdc_json_obj_end(jp);
}

void rdc_log_summary_print(FILE *f, const struct rdc_log_summary *s, bool json)
{
	if (json) {
		struct rdc_json j;
		rdc_json_init(&j, f);
		rdc_log_summary_json(&j, s);
		rdc_json_end(&j);
		return;
	}
	fprintf(f, "shim log: %zu lines, %zu events (%s)", s->n_lines, s->n_events, s->json ? "JSON" : "text");
	if (s->n_unparsed)
		fprintf(f, ", %zu lines not from the shim", s->n_unparsed);
	fputc('\n', f);
	if (s->diagnosis)
		fprintf(f, "\nthe shim's diagnosis:\n%s\n", s->diagnosis);
	if (!s->n_libs)
		fprintf(f, "nothing mapped, refused or missing was logged (RDNACOMPAT_LOG=info logs every decision)\n");
	for (size_t i = 0; i < s->n_libs; i++) {
		const struct rdc_log_lib *l = &s->libs[i];
		fprintf(f, "\n%s:", l->name);
		for (int c = 0; c < RDC_CAT_N; c++)
			if (l->n[c])
				fprintf(f, " %zu %s", l->n[c], cat_names[c]);
		fputc('\n', f);
		for (int c = 0; c < RDC_CAT_N; c++)
			for (size_t k = 0; k < l->n_items[c]; k++) {
				if (k == 5 && l->n_items[c] > 6) {
					fprintf(f, "  %-10s ... and %zu more (--json lists all)\n", cat_names[c],
						l->n_items[c] - k);
					break;
				}
				fprintf(f, "  %-10s %s", cat_names[c], l->items[c][k].text);
				if (l->items[c][k].count > 1)
					fprintf(f, " (x%u)", l->items[c][k].count);
				fputc('\n', f);
			}
		for (int c = RDC_CAT_AUDIT; c < RDC_CAT_N; c++)
			if (l->n[c] && advice(c))
				fprintf(f, "  fix: %s\n", advice(c));
	}
}
