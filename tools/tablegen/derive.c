/* SPDX-License-Identifier: MIT */
/*
 * derive.c — proves every edge of tables/compat.tsv from the feature sets of
 * tables/features.tsv (docs/TABLES.md "How an edge is proven").  Code for X
 * may run on device D when X's code uses nothing D lacks and carries every
 * workaround D needs; a missing workaround is allowed only where the edge
 * names the condition token that decides it kernel by kernel, or where the
 * edge is opt-in.  Every failure names the features that break the rule.
 */
#include "derive.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_NEED = 8 };

static bool cond_has(const char *cond, const char *tok)
{
	size_t l = strlen(tok);
	for (const char *p = cond; p && *p;) {
		size_t n = strcspn(p, "+");
		if (n == l && !strncmp(p, tok, l))
			return true;
		p += n + (p[n] == '+');
	}
	return false;
}

struct edge_ctx {
	const struct rdc_compat_edge *e;
	struct rdc_row_origin o;
	FILE *err;
	unsigned fails;
	const char *need[MAX_NEED]; /* tokens the features require */
	size_t n_need;
};

static void fail(struct edge_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct edge_ctx *c, const char *fmt, ...)
{
	fprintf(c->err, "%s:%u: %s <- %s: ", c->o.file ? c->o.file : "<compat>", c->o.line, c->e->device,
		c->e->code);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	c->fails++;
}

/* The edge must carry the feature's token (or be opt-in where there is
 * none); `why` says what is missing. */
static void need_token(struct edge_ctx *c, const struct rdc_llvm_feature *ft, const char *why)
{
	const char *cond = c->e->condition;
	if (!ft->token) {
		if (!cond_has(cond, "opt-in"))
			fail(c, "%s (%s); no per-kernel condition decides it, so the edge can only be opt-in or absent",
			     why, ft->protects ? ft->protects : ft->name);
		return;
	}
	bool seen = false;
	for (size_t i = 0; i < c->n_need; i++)
		seen |= !strcmp(c->need[i], ft->token);
	if (!seen && c->n_need < MAX_NEED)
		c->need[c->n_need++] = ft->token;
	if (!cond_has(cond, ft->token))
		fail(c, "%s; the condition must name %s (it protects %s)", why, ft->token,
		     ft->protects ? ft->protects : ft->name);
	else if (ft->cls == RDC_FC_WORKAROUND && (!c->e->source || !strstr(c->e->source, ft->name)))
		fail(c, "condition %s is right, but the source must say which feature decided it (%s)", ft->token,
		     ft->name);
}

static void prove_edge(struct edge_ctx *c, const struct rdc_feat_target *dv, const struct rdc_feat_target *cd,
		       struct rdc_tg_stats *st)
{
	char why[512];
	const char *D = c->e->device, *X = c->e->code;
	if (strcmp(dv->commit, cd->commit)) {
		if (!cond_has(c->e->condition, "opt-in"))
			fail(c, "the feature sets were read at different LLVM commits (%s, %s): they cannot prove the "
			     "edge, which can only be opt-in or absent", dv->commit, cd->commit);
		return;
	}
	for (size_t i = 0; i < cd->n; i++) {
		const struct rdc_llvm_feature *ft = cd->m[i].f;
		bool on_d = rdc_feat_target_has(dv, ft->name) != NULL;
		if (on_d)
			continue;
		if (ft->cls == RDC_FC_INSTRUCTION || ft->cls == RDC_FC_CAPABILITY) {
			fail(c, "%s code may rely on %s (%s), which the device lacks", X, ft->name,
			     ft->cls == RDC_FC_INSTRUCTION ? "instructions" : "hardware behaviour");
		} else if (ft->cls == RDC_FC_ABI) {
			fail(c, "%s code starts waves with %s, the device does not (abi)", X, ft->name);
		} else if (ft->cls == RDC_FC_REGISTER) {
			snprintf(why, sizeof why, "%s code may use %s, which the device lacks", X, ft->name);
			need_token(c, ft, why);
		}
	}
	for (size_t i = 0; i < dv->n; i++) {
		const struct rdc_llvm_feature *ft = dv->m[i].f;
		const struct rdc_feat_member *mx = rdc_feat_target_has(cd, ft->name);
		if (ft->cls == RDC_FC_ABI && !mx) {
			fail(c, "the device starts waves with %s, %s code does not expect it (abi)", ft->name, X);
			continue;
		}
		if (ft->cls != RDC_FC_WORKAROUND)
			continue;
		if (!mx) {
			if (ft->token && !strcmp(ft->token, "exempt")) {
				st->exempt++;
				continue;
			}
			if (ft->guards && !rdc_feat_target_has(cd, ft->guards)) {
				st->moot++;
				continue;
			}
			snprintf(why, sizeof why, "%s code lacks the %s workaround that %s needs", X, ft->name, D);
			need_token(c, ft, why);
		} else if (mx->late && !(dv->m[i].late && !strcmp(dv->m[i].late, mx->late))) {
			if (ft->token && !strcmp(ft->token, "exempt")) {
				st->exempt++;
				continue;
			}
			snprintf(why, sizeof why,
				 "%s code carries the %s workaround that %s needs only when built after %s added it; "
				 "%s code always did", X, ft->name, D, mx->late, D);
			need_token(c, ft, why);
		}
	}
	/* no token the features do not ask for (opt-in is a judgement) */
	for (const char *p = c->e->condition; p && *p && strcmp(p, "none");) {
		size_t n = strcspn(p, "+");
		char tok[32];
		if (n < sizeof tok) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			bool asked = !strcmp(tok, "opt-in");
			for (size_t i = 0; i < c->n_need; i++)
				asked |= !strcmp(c->need[i], tok);
			if (!asked)
				fail(c, "the condition names %s but no feature requires it", tok);
		}
		p += n + (p[n] == '+');
	}
}

static bool isa_has(const struct rdc_tables *t, const char *name)
{
	for (size_t i = 0; i < t->n_isa; i++)
		if (!strcmp(t->isa[i].name, name))
			return true;
	return false;
}

int rdc_tg_prove(const struct rdc_tables_build *b, const struct rdc_features *f, FILE *err,
		 struct rdc_tg_stats *st)
{
	const struct rdc_tables *t = &b->t;
	unsigned fails = 0;
	memset(st, 0, sizeof *st);
	for (size_t i = 0; i < t->n_isa; i++)
		if (!rdc_feat_target_find(f, t->isa[i].name)) {
			fprintf(err, "%s: no target row for %s (every isa.tsv processor and generic needs its features)\n",
				f->file, t->isa[i].name);
			fails++;
		}
	for (size_t i = 0; i < f->n_list; i++)
		if (f->list[i].target && !isa_has(t, f->list[i].name)) {
			fprintf(err, "%s:%u: target %s is not in isa.tsv\n", f->file, f->list[i].line, f->list[i].name);
			fails++;
		}
	if (fails)
		return (int)fails;
	/* expand every target once */
	struct rdc_feat_target *ex = calloc(t->n_isa ? t->n_isa : 1, sizeof *ex);
	if (!ex) {
		fprintf(err, "tablegen: out of memory\n");
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < t->n_isa && !rc; i++) {
		struct rdc_diag d;
		rdc_diag_clear(&d);
		if (rdc_feat_target_expand(f, t->isa[i].name, &ex[i], &d)) {
			fprintf(err, "%s\n", d.msg);
			rc = -1;
		}
	}
	for (size_t i = 0; i < t->n_edges && !rc; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		struct edge_ctx c = { .e = e, .o = b->origin[RDC_TAB_COMPAT][i], .err = err };
		const struct rdc_feat_target *dv = NULL, *cd = NULL;
		for (size_t k = 0; k < t->n_isa; k++) {
			if (!strcmp(t->isa[k].name, e->device))
				dv = &ex[k];
			if (!strcmp(t->isa[k].name, e->code))
				cd = &ex[k];
		}
		if (!dv || !cd) { /* rdc_tables_validate refuses such edges first */
			fail(&c, "unknown processor");
		} else {
			prove_edge(&c, dv, cd, st);
		}
		if (c.fails) {
			fails += c.fails;
			continue;
		}
		st->edges++;
		if (cond_has(e->condition, "opt-in"))
			st->opt_in++;
		if (strcmp(e->condition, "none") && strcmp(e->condition, "opt-in"))
			st->conditional++;
	}
	for (size_t i = 0; i < t->n_isa; i++)
		rdc_feat_target_free(&ex[i]);
	free(ex);
	return rc ? rc : (int)fails;
}
