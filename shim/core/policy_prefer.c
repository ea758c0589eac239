/* SPDX-License-Identifier: MIT */
/*
 * policy_prefer.c — the `prefer:<target>` kernel rule (tables/kernels.tsv,
 * docs/RULES.md) over a choice the policy made (rdnacompat/policy.h
 * rdc_policy_prefer).
 *
 * Code objects load whole, so the rule acts per code object: when a kernel
 * of the entry the policy chose for a device matches a prefer row, the same
 * bundle's entry for the preferred target is chosen instead, if the tables
 * let the device run that target's code (an edge device <- target; opt-in
 * edges only when asked), its features fit the device, and each of its
 * kernels passes the checks any retargeted entry gets (rdc_pol_try_entry).
 * Otherwise the choice stays and prefer_note says why.  Pure: tables, bundle
 * and context in, a choice out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_internal.h"
#include "rdnacompat/rules.h"

/* "'attn_fwd' in libaotriton_v2.so* on gfx1150 (built-in, provisional)" */
static void describe_row(const struct rdc_kernel_rule *r, char *buf, size_t n)
{
	snprintf(buf, n, "'%s' in %s on %s (%s%s)", r->pattern, r->scope, r->targets,
		 r->user ? "user row" : "built-in", r->provisional ? ", provisional" : "");
}

static bool any_sha_scope(const struct rdc_tables *t)
{
	for (size_t i = 0; i < t->n_rules; i++)
		if (t->rules[i].action == RDC_RULE_PREFER && t->rules[i].scope_sha256)
			return true;
	return false;
}

/* The first prefer row (per kernel: user rows first, allow cancelling) that
 * a kernel of the entry `e` matches; its kernel's name into kname. */
static int find_row(const struct rdc_tables *t, const struct rdc_pol_item *e, const char *device,
		    const struct rdc_prefer_ctx *ctx, const struct rdc_kernel_rule **row, char *kname,
		    size_t kn, struct rdc_diag *pd)
{
	*row = NULL;
	struct rdc_codeobj co;
	memset(&co, 0, sizeof co);
	int rc = rdc_codeobj_parse(e->data, (size_t)e->size, RDC_CO_SYMBOLS, &co, pd);
	if (rc == RDC_E_UNSUPPORTED) {
		rdc_diag_clear(pd);
		rc = rdc_codeobj_parse(e->data, (size_t)e->size, RDC_CO_METADATA | RDC_CO_NO_ARGS, &co, pd);
	}
	if (rc < 0)
		return rc;
	uint8_t sum[32];
	bool have_sum = any_sha_scope(t);
	if (have_sum)
		rdc_sha256(e->data, (size_t)e->size, sum);
	for (size_t i = 0; i < co.n_kernels && !*row; i++) {
		const struct rdc_kernel *k = &co.kernels[i];
		if (!k->name)
			continue;
		char dem[1024];
		struct rdc_rule_subject s = {
			.name = k->name, .lib = ctx->lib, .sha256 = have_sum ? sum : NULL,
			.device = device, .runtime = ctx->runtime, .runtime_later = ctx->runtime == 0,
			.provisional = ctx->provisional,
		};
		if (rdc_demangle(k->name, dem, sizeof dem) == 0)
			s.demangled = dem;
		struct rdc_rule_match m;
		if (rdc_rules_match(t, &s, &m) >= 0 && m.prefer) {
			*row = m.prefer;
			snprintf(kname, kn, "%s", k->name);
		}
	}
	rdc_codeobj_free(&co);
	return 0;
}

static const struct rdc_compat_edge *edge_to(const struct rdc_tables *t, const char *dev,
					     const char *code)
{
	for (size_t i = 0; i < t->n_edges; i++)
		if (!strcmp(t->edges[i].device, dev) && !strcmp(t->edges[i].code, code))
			return &t->edges[i];
	return NULL;
}

/* A generic entry older than the generic target accepts (as policy.c). */
static bool generic_too_old(const struct rdc_isa *ci, const struct rdc_pol_item *e, unsigned *gv)
{
	if (!ci || !ci->generic)
		return false;
	struct rdc_codeobj h;
	memset(&h, 0, sizeof h);
	if (rdc_codeobj_parse(e->data, (size_t)e->size, RDC_CO_HEADER_ONLY, &h, NULL) != 0)
		return false;
	*gv = h.generic_version;
	rdc_codeobj_free(&h);
	return *gv < ci->min_generic_version;
}

int rdc_policy_prefer(const struct rdc_tables *t, const struct rdc_target *device,
		      const struct rdc_bundle *b, unsigned flags, const struct rdc_prefer_ctx *ctx,
		      struct rdc_choice *c, struct rdc_diag *d)
{
	if (!t || !device || !b || !ctx || !c)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "prefer: NULL argument");
	if ((c->verdict != RDC_VERDICT_NATIVE && c->verdict != RDC_VERDICT_MAPPED) || c->entry < 0 ||
	    (size_t)c->entry >= b->n_entries ||
	    !rdc_rules_prefer_any(t, device->proc, ctx->lib, ctx->runtime, ctx->provisional))
		return 0;
	const struct rdc_isa *dev = rdc_isa_find(t, device->proc);
	if (!dev)
		return 0;
	struct rdc_pol_item *it = rdc_pol_items(b);
	if (!it)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "prefer: out of memory");
	const struct rdc_pol_item *cur = &it[c->entry];
	const struct rdc_kernel_rule *row = NULL;
	char kname[200] = "", rowtxt[160], ct[64];
	struct rdc_diag pd;
	rdc_diag_clear(&pd);
	int rc = cur->usable ? find_row(t, cur, device->proc, ctx, &row, kname, sizeof kname, &pd) : 0;
	if (rc == RDC_E_NOMEM) {
		free(it);
		return rdc_diag_set(d, rc, RDC_NO_OFFSET, "prefer: out of memory");
	}
	if (rc < 0 || !row) {   /* unreadable entries are the policy's business */
		free(it);
		return 0;
	}
	describe_row(row, rowtxt, sizeof rowtxt);
	rdc_target_format(&cur->target, ct, sizeof ct);
	const char *P = row->prefer;
	size_t nl = 0;
	char *note = c->prefer_note;
	size_t cap = sizeof c->prefer_note;
	note[0] = '\0';
	rdc_pol_cat(note, cap, &nl, "row %s, prefer:%s, matched kernel %s", rowtxt, P, kname);

	const struct rdc_compat_edge *edge = NULL;
	const struct rdc_pol_item *pe = NULL;
	if (!strcmp(P, cur->target.proc)) {
		rdc_pol_cat(note, cap, &nl, "; the %s entry is %s code already", ct, P);
		goto keep;
	}
	if (!strcmp(P, dev->name)) {
		rdc_pol_cat(note, cap, &nl, "; kept %s: no usable %s entry", ct, P);
		goto keep;
	}
	if (!(edge = edge_to(t, dev->name, P))) {
		rdc_pol_cat(note, cap, &nl, "; rule ignored: the tables have no edge %s <- %s (compat.tsv), "
			    "%s cannot run %s code", dev->name, P, dev->name, P);
		goto keep;
	}
	if (rdc_pol_has_cond(edge->condition, "opt-in") && !(flags & RDC_POLICY_OPT_IN)) {
		rdc_pol_cat(note, cap, &nl, "; kept %s: the %s <- %s edge is opt-in (RDNACOMPAT_OPT_IN=1 "
			    "tries it)", ct, dev->name, P);
		goto keep;
	}
	for (size_t i = 0; i < b->n_entries && !pe; i++)
		if (it[i].usable && !strcmp(it[i].target.proc, P) &&
		    rdc_target_features_match(&it[i].target, device))
			pe = &it[i];
	if (!pe) {
		rdc_pol_cat(note, cap, &nl, "; kept %s: this %s has no %s entry whose features fit %s", ct,
			    b->n_entries <= 2 ? "code object" : "bundle", P, dev->name);
		goto keep;
	}
	unsigned gv = 0;
	const struct rdc_isa *ci = rdc_isa_find(t, P);
	if (generic_too_old(ci, pe, &gv)) {
		rdc_pol_cat(note, cap, &nl, "; kept %s: the %s entry has generic version %u, %s needs >= %u",
			    ct, P, gv, P, ci->min_generic_version);
		goto keep;
	}
	struct rdc_choice nc;
	memset(&nc, 0, sizeof nc);
	nc.entry = nc.refused_entry = nc.prefer_over = -1;
	char why[400];
	size_t wlen = 0;
	why[0] = '\0';
	int acc = rdc_pol_try_entry(t, dev, device, pe, edge->condition, flags, false, &nc, why,
				    sizeof why, &wlen);
	if (acc < 0) {
		rdc_choice_free(&nc);
		free(it);
		return rdc_diag_set(d, acc, RDC_NO_OFFSET, "prefer: out of memory");
	}
	if (acc != 1) {   /* refused, or runs only with kernels held: a prefer row is no reason for that */
		if (acc == 2)
			rdc_pol_cat(note, cap, &nl, "; kept %s: %zu kernel%s of the %s entry would be held (%s)", ct,
				    nc.n_held, nc.n_held == 1 ? "" : "s", P, "an instruction condition of the edge");
		else
			rdc_pol_cat(note, cap, &nl, "; kept %s: %s", ct, why);
		rdc_choice_free(&nc);
		goto keep;
	}
	char pt[64];
	rdc_target_format(&pe->target, pt, sizeof pt);
	bool cond = edge->condition && strcmp(edge->condition, "none");
	nc.verdict = RDC_VERDICT_MAPPED;
	nc.entry = pe->index;
	nc.chosen = pe->target;
	nc.edge_rank = edge->rank;
	nc.n_candidates = c->n_candidates;
	nc.refused_entry = -1;
	nc.preferred = true;
	nc.prefer_over = c->entry;
	nc.prefer_own = c->verdict == RDC_VERDICT_NATIVE;
	memcpy(nc.prefer_note, note, sizeof nc.prefer_note);
	size_t rl = 0;
	rdc_pol_cat(nc.reason, sizeof nc.reason, &rl,
		    "prefer row %s: %s code runs on %s instead of the %s entry (compat edge rank %u%s%s), "
		    "%s %zu kernel%s", rowtxt, pt, dev->name, ct, edge->rank, cond ? ", condition " : "",
		    cond ? edge->condition : "", nc.n_kernels == 1 ? "its" : "all", nc.n_kernels,
		    nc.n_kernels == 1 ? " passes" : "s pass");
	rdc_choice_free(c);
	*c = nc;
	free(it);
	return 1;
keep:
	free(it);
	return 0;
}
