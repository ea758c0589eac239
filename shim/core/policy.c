/* SPDX-License-Identifier: MIT */
/*
 * policy.c — the mapping decision (include/rdnacompat/policy.h).
 *
 * For one bundle (or one bare code object) and a device's true target:
 * native when an entry matches exactly; else each compatible entry in the
 * order of the tables' compat edges (device <- code, by rank), accepted only
 * when every kernel passes rdc_check_kernel against the device's real limits
 * (tables isa rows); else missing, with what the card would need and why the
 * entries present do not do.  Only the entries the decision needs are parsed
 * past their ELF header.  Kernel checks: policy_check.c; need text:
 * policy_need.c.  Pure: no globals, no I/O, no environment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_internal.h"
#include "rdnacompat/isa_class.h"

/* The policy reads no kernel arguments (bad-kernel rules match names). */
#define CO_FULL (RDC_CO_METADATA | RDC_CO_DESCRIPTORS | RDC_CO_NO_ARGS)

const char *rdc_verdict_name(enum rdc_verdict v)
{
	switch (v) {
	case RDC_VERDICT_NATIVE: return "native";
	case RDC_VERDICT_MAPPED: return "mapped";
	case RDC_VERDICT_MISSING: return "missing";
	}
	return "unknown";
}

/* Append printf text to buf (size n) at *len, truncating safely. */
/* ---- choosing -------------------------------------------------------------- */


static void upper(const char *s, char *out, size_t n)
{
	size_t i = 0;
	for (; s && s[i] && i + 1 < n; i++)
		out[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32) : s[i];
	if (n)
		out[i] = '\0';
}

static int proc_major(const char *p)
{
	unsigned ma, mi, st;
	if (rdc_proc_to_version(p, &ma, &mi, &st) == 0)
		return (int)ma;
	if (!strncmp(p, "gfx", 3))
		return atoi(p + 3) >= 100 ? atoi(p + 3) / 100 : atoi(p + 3) / 10;
	return 0;
}

static const char *family_of(const struct rdc_tables *t, const char *proc)
{
	const struct rdc_isa *ci = rdc_isa_find(t, proc);
	return ci && ci->family ? ci->family : "unknown";
}

/* Entries of other families than the device's, closest generation first:
 * "this is RDNA2 code (gfx1030), GCN5 code (gfx900:xnack-); your card is
 * RDNA3".  Writes nothing and returns false when there are none. */
static bool family_note(const struct rdc_tables *t, const struct rdc_isa *dev,
			const struct rdc_pol_item *it, size_t n, const char *prefix, char *buf, size_t cap,
			size_t *len)
{
	const char *fams[16];
	int dist[16];
	size_t nf = 0;
	int dm = proc_major(dev->name);
	for (size_t i = 0; i < n; i++) {
		if (!it[i].usable)
			continue;
		const char *f = family_of(t, it[i].target.proc);
		if (dev->family && !strcmp(f, dev->family))
			continue;
		int d = abs(proc_major(it[i].target.proc) - dm);
		size_t k = 0;
		while (k < nf && strcmp(fams[k], f))
			k++;
		if (k == nf) {
			if (nf == 16)
				continue;
			fams[nf] = f;
			dist[nf++] = d;
		} else if (d < dist[k]) {
			dist[k] = d;
		}
	}
	if (nf == 0)
		return false;
	/* Stable insertion sort by distance. */
	for (size_t i = 1; i < nf; i++)
		for (size_t j = i; j > 0 && dist[j] < dist[j - 1]; j--) {
			const char *tf = fams[j];
			int td = dist[j];
			fams[j] = fams[j - 1];
			dist[j] = dist[j - 1];
			fams[j - 1] = tf;
			dist[j - 1] = td;
		}
	rdc_pol_cat(buf, cap, len, "%sthis is ", prefix);
	for (size_t i = 0; i < nf; i++) {
		char up[24];
		upper(fams[i], up, sizeof up);
		if (!strcmp(fams[i], "unknown"))
			snprintf(up, sizeof up, "%s", "unlisted");
		rdc_pol_cat(buf, cap, len, "%s%s code (", i ? ", " : "", up);
		size_t shown = 0;
		for (size_t e = 0; e < n; e++) {
			if (!it[e].usable || strcmp(family_of(t, it[e].target.proc), fams[i]))
				continue;
			char tt[64];
			rdc_target_format(&it[e].target, tt, sizeof tt);
			rdc_pol_cat(buf, cap, len, "%s%s", shown++ ? ", " : "", tt);
		}
		rdc_pol_cat(buf, cap, len, ")");
	}
	char up[24];
	upper(dev->family, up, sizeof up);
	rdc_pol_cat(buf, cap, len, "; your card is %s", up);
	return true;
}

static void keep_co(struct rdc_choice *out, struct rdc_codeobj *co)
{
	if (out->co) {
		rdc_codeobj_free(out->co);
		free(out->co);
	}
	out->co = co;
	free(out->kernels);
	out->kernels = NULL;
	free(out->hide);
	out->hide = NULL;
	out->n_hide = out->n_held = 0;
}

/* Do the per-kernel checks (policy_check.c) read the same limits for `b`
 * as for `a`: register file and granules, waves per SIMD, LDS, default wave
 * size, WGPs?  Then a kernel's verdict on the device is the one it has on
 * its own target. */
/* "ENTRY refused: KERNEL: CHECK: REASON" appended to `why`. */
static void say_refused(char *why, size_t cap, size_t *wlen, const char *tt, const struct rdc_kernel_verdict *v)
{
	rdc_pol_cat(why, cap, wlen, "%s%s refused: %s: %s: %s", *wlen ? "; " : "", tt, v->kernel, v->check,
		    v->reason);
}

/* The patches that hold the n kernels of `co` at held_at[] (entry `it`):
 * 0, RDC_E_NOMEM, or another error when they cannot be held alone — then
 * said in `why` with the first held kernel's reason. */
static int hold_kernels(const struct rdc_pol_item *it, const struct rdc_codeobj *co, const size_t *held_at,
			size_t n, const struct rdc_kernel_verdict *first, struct rdc_patch **hide,
			size_t *n_hide, const char *tt, char *why, size_t cap, size_t *wlen)
{
	const char **names = malloc(n * sizeof *names);
	if (!names)
		return RDC_E_NOMEM;
	for (size_t j = 0; j < n; j++)
		names[j] = co->kernels[held_at[j]].name;
	struct rdc_diag hd;
	rdc_diag_clear(&hd);
	int rc = rdc_codeobj_hide_patches(it->data, (size_t)it->size, names, n, hide, n_hide, &hd);
	free(names);
	if (rc != 0 && rc != RDC_E_NOMEM) {
		say_refused(why, cap, wlen, tt, first);
		rdc_pol_cat(why, cap, wlen, "; %zu kernel%s of this kind cannot be held alone (%s)", n,
			    n == 1 ? "" : "s", hd.msg);
	}
	return rc;
}

/* Parse item `it` and check every kernel (policy_internal.h).  Returns 1 accepted, 2 accepted
 * with kernels held (out->n_held, out->hide), 0 refused, <0 on allocation failure.  On
 * refusal appends to `why`.
 *
 * Code built for the device itself (`native`), or for a target whose limits
 * are the device's reached by an edge without condition (rdc_pol_own_limits), runs
 * as it would on its own target: the limit checks are reported, not
 * enforced, and only a bad-kernel rule refuses a kernel.  With
 * RDC_POLICY_SYMBOLS such an entry is read from its symbol table
 * (RDC_CO_SYMBOLS: the names the rules need, no metadata decoded); the
 * full decode is the fallback when the note is not LLVM's layout. */
int rdc_pol_try_entry(const struct rdc_tables *t, const struct rdc_isa *dev,
		     const struct rdc_target *device, const struct rdc_pol_item *it, const char *cond,
		     unsigned flags, bool native, struct rdc_choice *out, char *why, size_t cap,
		     size_t *wlen)
{
	char tt[64];
	rdc_target_format(&it->target, tt, sizeof tt);
	bool own = native || rdc_pol_own_limits(t, dev, it->target.proc, cond);
	struct rdc_codeobj *co = calloc(1, sizeof *co);
	if (!co)
		return RDC_E_NOMEM;
	struct rdc_diag pd;
	rdc_diag_clear(&pd);
	int rc = RDC_E_UNSUPPORTED;
	bool names_only = false;
	if (own && (flags & RDC_POLICY_SYMBOLS)) {
		rc = rdc_codeobj_parse(it->data, (size_t)it->size, RDC_CO_SYMBOLS, co, &pd);
		names_only = rc == 0;
		if (rc == RDC_E_UNSUPPORTED)
			rdc_diag_clear(&pd);
	}
	/* With RDC_POLICY_ARGS the .args too; an entry whose .args cannot be
	 * read is decided as without the flag (args false). */
	bool args = false;
	if (rc == RDC_E_UNSUPPORTED && (flags & RDC_POLICY_ARGS)) {
		rc = rdc_codeobj_parse(it->data, (size_t)it->size, CO_FULL & ~RDC_CO_NO_ARGS, co, &pd);
		args = rc == 0;
		if (rc < 0 && rc != RDC_E_NOMEM) {
			rdc_diag_clear(&pd);
			rc = RDC_E_UNSUPPORTED;
		}
	}
	if (rc == RDC_E_UNSUPPORTED)
		rc = rdc_codeobj_parse(it->data, (size_t)it->size, CO_FULL, co, &pd);
	if (rc < 0) {
		free(co);
		if (rc == RDC_E_NOMEM)
			return rc;
		rdc_pol_cat(why, cap, wlen, "%s%s entry unreadable: %s", *wlen ? "; " : "", tt, pd.msg);
		out->refused_entry = it->index;
		return 0;
	}
	/* Every condition word must be one the policy evaluates; the
	 * instruction conditions (policy_isa.c) decode the entry once. */
	char badw[32];
	if (!rdc_pol_cond_known(cond, badw, sizeof badw)) {
		rdc_pol_cat(why, cap, wlen, "%s%s refused: the edge's condition '%s' names '%s', which this "
			    "policy does not evaluate", *wlen ? "; " : "", tt, cond, badw);
		rdc_codeobj_free(co);
		free(co);
		out->refused_entry = it->index;
		return 0;
	}
	unsigned isa_need = 0;
	struct rdc_isa_kernel *ik = NULL;
	char prod[160];
	if (rdc_pol_isa_classes(cond) &&
	    rdc_pol_isa_prepare(it->data, (size_t)it->size, co, cond, &isa_need, &ik, prod, sizeof prod) < 0) {
		rdc_codeobj_free(co);
		free(co);
		return RDC_E_NOMEM;
	}
	struct rdc_kernel_verdict *vs = NULL;
	if (flags & RDC_POLICY_KERNELS) {
		vs = calloc(co->n_kernels ? co->n_kernels : 1, sizeof *vs);
		if (!vs) {
			free(ik);
			rdc_codeobj_free(co);
			free(co);
			return RDC_E_NOMEM;
		}
	}
	size_t bad = 0, held = 0;
	size_t *held_at = NULL;   /* the held kernels' indices */
	struct rdc_kernel_verdict first_held;
	memset(&first_held, 0, sizeof first_held);
	if ((flags & RDC_POLICY_HOLD) && !(held_at = malloc((co->n_kernels ? co->n_kernels : 1) * sizeof *held_at))) {
		free(ik);
		free(vs);
		rdc_codeobj_free(co);
		free(co);
		return RDC_E_NOMEM;
	}
	bool first = true;
	for (size_t i = 0; i < co->n_kernels; i++) {
		struct rdc_kernel_verdict v;
		bool ok = names_only ? rdc_check_kernel_name(t, dev, &it->target, &co->kernels[i], &v)
				     : rdc_check_kernel(t, dev, device, &it->target, &co->kernels[i], &v);
		if (ok && rdc_pol_has_cond(cond, "user-sgpr-16"))
			ok = rdc_pol_check_user_sgpr16(&co->kernels[i], &v);
		bool isa_fail = ok && ik && !rdc_pol_check_isa(&ik[i], isa_need, cond, prod, &v);
		if (isa_fail)
			ok = false;
		/* a failure the kernel can be held for: an instruction
		 * condition, the card's limits (not for code built to them:
		 * below), a workaround its descriptor lacks */
		bool holdable = isa_fail || (!ok && !own && rdc_pol_check_holdable(v.check));
		out->hold_failed |= holdable;
		if (holdable && (flags & RDC_POLICY_HOLD)) {
			v.held = true;
			if (!held)
				first_held = v;
			held_at[held++] = i;
			if (vs)
				vs[i] = v;
			continue;
		}
		/* Code for the device's own limits: only a bad-kernel rule
		 * refuses it (the other checks are reported, not enforced). */
		if (!ok && own && strcmp(v.check, "badlist"))
			ok = v.ok = true;
		if (!ok) {
			bad++;
			if (first)
				say_refused(why, cap, wlen, tt, &v);
			first = false;
		}
		if (vs)
			vs[i] = v;
	}
	free(ik);
	struct rdc_patch *hide = NULL;
	size_t n_hide = 0;
	if (held && !bad && held == co->n_kernels) {
		/* nothing of the entry would run: refused, as before holds */
		say_refused(why, cap, wlen, tt, &first_held);
		for (size_t i = 0; vs && i < co->n_kernels; i++)
			vs[i].held = false;
		bad = held;
		held = 0;
	} else if (held && !bad) {
		int hrc = hold_kernels(it, co, held_at, held, &first_held, &hide, &n_hide, tt, why, cap, wlen);
		if (hrc == RDC_E_NOMEM) {
			free(held_at);
			rdc_codeobj_free(co);
			free(co);
			free(vs);
			return hrc;
		}
		if (hrc != 0) {   /* they cannot be held alone: refused with the entry */
			bad = held;
			held = 0;
			for (size_t i = 0; vs && i < co->n_kernels; i++)
				vs[i].held = false;
		}
	} else if (held) {    /* refused for other kernels: the held ones are refused too */
		for (size_t i = 0; vs && i < co->n_kernels; i++)
			vs[i].held = false;
		bad += held;
		held = 0;
	}
	free(held_at);
	if (bad > 1)
		rdc_pol_cat(why, cap, wlen, " (and %zu more kernel%s)", bad - 1, bad > 2 ? "s" : "");
	out->n_refused += bad;
	out->by_name = names_only;
	if (bad == 0 || native || (flags & RDC_POLICY_KERNELS)) {
		keep_co(out, co);
		out->args = args;
		out->kernels = vs;
		out->n_kernels = co->n_kernels;
		out->hide = hide;
		out->n_hide = n_hide;
		out->n_held = held;
	} else {
		rdc_codeobj_free(co);
		free(co);
		free(vs);
		free(hide);
	}
	if (bad)
		out->refused_entry = it->index;
	return bad ? 0 : held ? 2 : 1;
}

static bool same_target(const struct rdc_target *a, const struct rdc_target *b)
{
	return !strcmp(a->proc, b->proc) && a->xnack == b->xnack && a->sramecc == b->sramecc;
}

/* The compat edges that let other code run on `dev`, best rank first
 * (at most 64). */
static size_t ranked_edges(const struct rdc_tables *t, const struct rdc_isa *dev,
			   const struct rdc_compat_edge *edges[64])
{
	size_t ne = 0;
	for (size_t i = 0; i < t->n_edges && ne < 64; i++)
		if (!strcmp(t->edges[i].device, dev->name) && strcmp(t->edges[i].code, dev->name))
			edges[ne++] = &t->edges[i];
	for (size_t i = 1; i < ne; i++)
		for (size_t j = i; j > 0 && edges[j]->rank < edges[j - 1]->rank; j--) {
			const struct rdc_compat_edge *x = edges[j];
			edges[j] = edges[j - 1];
			edges[j - 1] = x;
		}
	return ne;
}

/* The verdict and reason of a mapped choice: entry `c` over `edge`;
 * `refused`: what earlier candidates were refused for. */
static void mapped(struct rdc_choice *out, const struct rdc_isa *dev, const struct rdc_pol_item *c,
		   const struct rdc_compat_edge *edge, const char *refused)
{
	char tt[64];
	rdc_target_format(&c->target, tt, sizeof tt);
	out->verdict = RDC_VERDICT_MAPPED;
	out->entry = c->index;
	out->chosen = c->target;
	out->edge_rank = edge->rank;
	bool cond = edge->condition && strcmp(edge->condition, "none");
	size_t rl = 0, nk = out->n_kernels, runs = nk - out->n_held;
	rdc_pol_cat(out->reason, sizeof out->reason, &rl, "no %s entry; %s code runs on %s (compat edge rank %u%s%s), ",
		    dev->name, tt, dev->name, edge->rank, cond ? ", condition " : "", cond ? edge->condition : "");
	if (!out->n_held)
		rdc_pol_cat(out->reason, sizeof out->reason, &rl, "%s %zu kernel%s", nk == 1 ? "its" : "all", nk,
			    nk == 1 ? " passes" : "s pass");
	else
		rdc_pol_cat(out->reason, sizeof out->reason, &rl,
			    "%zu of %zu kernels pass and %zu %s held: %s cannot run safely here as built "
			    "(the held lines say why)",
			    runs, nk, out->n_held, out->n_held == 1 ? "is" : "are",
			    out->n_held == 1 ? "it" : "each");
	if (out->by_name)
		rdc_pol_cat(out->reason, sizeof out->reason, &rl,
			    " (%s has %s's limits: checked by name against the rules)", tt, dev->name);
	if (refused && refused[0])
		rdc_pol_cat(out->reason, sizeof out->reason, &rl, "; %s", refused);
}

/* A candidate accepted with kernels held, kept aside while later ones are
 * tried: what rdc_pol_try_entry left in the choice. */
struct held_cand {
	const struct rdc_pol_item *item;
	const struct rdc_compat_edge *edge;
	size_t why_len;
	struct rdc_codeobj *co;
	struct rdc_kernel_verdict *kernels;
	size_t n_kernels, n_held, n_hide;
	struct rdc_patch *hide;
	bool args, by_name;
};

static void held_cand_take(struct held_cand *h, struct rdc_choice *out, const struct rdc_pol_item *c,
			   const struct rdc_compat_edge *edge, size_t why_len)
{
	*h = (struct held_cand){ c, edge, why_len, out->co, out->kernels, out->n_kernels, out->n_held,
				 out->n_hide, out->hide, out->args, out->by_name };
	out->co = NULL;
	out->kernels = NULL;
	out->hide = NULL;
	out->n_kernels = out->n_held = out->n_hide = 0;
}

static void held_cand_put(struct held_cand *h, struct rdc_choice *out)
{
	keep_co(out, h->co);
	out->kernels = h->kernels;
	out->n_kernels = h->n_kernels;
	out->n_held = h->n_held;
	out->hide = h->hide;
	out->n_hide = h->n_hide;
	out->args = h->args;
	out->by_name = h->by_name;
	h->item = NULL;
}

static void held_cand_free(struct held_cand *h)
{
	if (!h->item)
		return;
	if (h->co) {
		rdc_codeobj_free(h->co);
		free(h->co);
	}
	free(h->kernels);
	free(h->hide);
	h->item = NULL;
}

static int choose(const struct rdc_tables *t, const struct rdc_target *device,
		  const struct rdc_pol_item *it, size_t n, unsigned flags, struct rdc_choice *out,
		  struct rdc_diag *d)
{
	memset(out, 0, sizeof *out);
	out->verdict = RDC_VERDICT_MISSING;
	out->entry = -1;
	out->refused_entry = -1;
	out->prefer_over = -1;
	if (!t || !device)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "policy: no tables or device");
	const struct rdc_isa *dev = rdc_isa_find(t, device->proc);
	if (!dev)
		return rdc_diag_set(d, RDC_E_NOTFOUND, RDC_NO_OFFSET,
				    "policy: device processor '%s' is not in the isa table", device->proc);
	char why[400];
	size_t wlen = 0;
	why[0] = '\0';
	char dt[64];
	rdc_target_format(device, dt, sizeof dt);

	/* 1. Native: exact processor, compatible features; the most specific
	 * (features equal to the device's) first. */
	long native = -1;
	for (size_t i = 0; i < n; i++) {
		if (!it[i].usable || !rdc_target_matches(&it[i].target, device))
			continue;
		if (native < 0 || same_target(&it[i].target, device))
			native = (long)i;
	}
	if (native >= 0) {
		const struct rdc_pol_item *ni = &it[native];
		bool check = (flags & RDC_POLICY_KERNELS) || rdc_pol_bad_rules_for(t, dev->name, dev->name);
		int acc = 1;
		if (check) {
			acc = rdc_pol_try_entry(t, dev, device, ni, NULL, flags, true, out, why, sizeof why, &wlen);
			if (acc < 0)
				return rdc_diag_set(d, acc, RDC_NO_OFFSET, "policy: out of memory");
		}
		if (acc == 1) {
			out->verdict = RDC_VERDICT_NATIVE;
			out->entry = ni->index;
			out->chosen = ni->target;
			out->refused_entry = -1;
			out->n_refused = 0;
			char tt[64];
			rdc_target_format(&ni->target, tt, sizeof tt);
			snprintf(out->reason, sizeof out->reason, "%s entry matches the device %s", tt, dt);
			return 0;
		}
		/* A known-bad kernel in native code: fall through to candidates. */
	}

	/* 2. Compatible entries in edge rank order; the first that runs whole,
	 * else the first that runs with kernels held (kept aside meanwhile). */
	const struct rdc_compat_edge *edges[64];
	size_t ne = ranked_edges(t, dev, edges);
	struct held_cand hc = { .item = NULL };
	for (size_t e = 0; e < ne; e++) {
		const struct rdc_isa *ci = rdc_isa_find(t, edges[e]->code);
		for (size_t i = 0; i < n; i++) {
			const struct rdc_pol_item *c = &it[i];
			if (!c->usable || strcmp(c->target.proc, edges[e]->code))
				continue;
			out->n_candidates++;
			char tt[64];
			rdc_target_format(&c->target, tt, sizeof tt);
			if (!rdc_target_features_match(&c->target, device)) {
				rdc_pol_cat(why, sizeof why, &wlen, "%s%s refused: features do not match device %s",
				    wlen ? "; " : "", tt, dt);
				out->refused_entry = c->index;
				continue;
			}
			if (ci && ci->generic) {
				struct rdc_codeobj h;
				memset(&h, 0, sizeof h);
				if (rdc_codeobj_parse(c->data, (size_t)c->size, RDC_CO_HEADER_ONLY, &h,
						      NULL) == 0) {
					unsigned gv = h.generic_version;
					rdc_codeobj_free(&h);
					if (gv < ci->min_generic_version) {
						rdc_pol_cat(why, sizeof why, &wlen,
						    "%s%s refused: generic version %u, %s needs >= %u",
						    wlen ? "; " : "", tt, gv, ci->name,
						    ci->min_generic_version);
						out->refused_entry = c->index;
						continue;
					}
				}
			}
			if (rdc_pol_has_cond(edges[e]->condition, "opt-in") && !(flags & RDC_POLICY_OPT_IN)) {
				rdc_pol_cat(why, sizeof why, &wlen,
				    "%s%s not tried: the %s <- %s edge is opt-in (not established as safe; "
				    "RDNACOMPAT_OPT_IN=1 tries it)",
				    wlen ? "; " : "", tt, dev->name, edges[e]->code);
				continue;
			}
			size_t before = wlen;
			int acc = rdc_pol_try_entry(t, dev, device, c, edges[e]->condition, flags, false, out, why,
					    sizeof why, &wlen);
			if (acc < 0) {
				held_cand_free(&hc);
				return rdc_diag_set(d, acc, RDC_NO_OFFSET, "policy: out of memory");
			}
			if (acc == 2 && !hc.item) {
				held_cand_take(&hc, out, c, edges[e], before);
				continue;
			}
			if (acc == 1) {
				held_cand_free(&hc);
				why[before] = '\0';
				mapped(out, dev, c, edges[e], why);
				return 0;
			}
		}
	}
	if (hc.item) {
		const struct rdc_pol_item *c = hc.item;
		const struct rdc_compat_edge *edge = hc.edge;
		why[hc.why_len] = '\0';
		held_cand_put(&hc, out);
		mapped(out, dev, c, edge, why);
		return 0;
	}

	/* 3. Missing. */
	rdc_policy_need(t, dev->name, out->need, sizeof out->need);
	size_t rl = 0;
	char *r = out->reason;
	size_t rc = sizeof out->reason;
	bool any = false;
	for (size_t i = 0; i < n; i++)
		any = any || it[i].usable;
	if (!any) {
		rdc_pol_cat(r, rc, &rl, "the bundle has no device code");
	} else {
		if (wlen)
			rdc_pol_cat(r, rc, &rl, "%s", why);
		else
			rdc_pol_cat(r, rc, &rl, "no entry for %s or a compatible target", dt);
		/* Same-family entries the tables do not let run here. */
		size_t shown = 0;
		for (size_t i = 0; i < n; i++) {
			if (!it[i].usable || strcmp(family_of(t, it[i].target.proc), dev->family ? dev->family : ""))
				continue;
			bool edge = false;
			for (size_t e = 0; e < ne && !edge; e++)
				edge = !strcmp(edges[e]->code, it[i].target.proc);
			if (edge || !strcmp(it[i].target.proc, dev->name))
				continue;
			char tt[64];
			rdc_target_format(&it[i].target, tt, sizeof tt);
			rdc_pol_cat(r, rc, &rl, "%s%s", shown++ ? ", " : "; the tables list no edge to run ", tt);
		}
		if (shown)
			rdc_pol_cat(r, rc, &rl, " code on %s", dev->name);
		family_note(t, dev, it, n, wlen || shown ? "; " : ": ", r, rc, &rl);
	}
	if (!(flags & RDC_POLICY_KERNELS))
		keep_co(out, NULL);
	return 0;
}

static bool usable_kind(enum rdc_offload_kind k)
{
	return k == RDC_KIND_HIP || k == RDC_KIND_HIPV4 || k == RDC_KIND_HCC;
}

bool rdc_policy_native_by_id(const struct rdc_tables *t, const struct rdc_target *device,
			     const struct rdc_bundle *b)
{
	if (!t || !device || !b)
		return false;
	const struct rdc_isa *dev = rdc_isa_find(t, device->proc);
	if (!dev || rdc_pol_bad_rules_for(t, dev->name, dev->name))
		return false;
	for (size_t i = 0; i < b->n_entries; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		if (e->parsed.kind == RDC_KIND_HIPV4 && e->parsed.has_target && e->size > 0 &&
		    rdc_target_matches(&e->parsed.target, device))
			return true;
	}
	return false;
}

long rdc_policy_mapped_by_id(const struct rdc_tables *t, const struct rdc_target *device,
			     const struct rdc_bundle *b, unsigned flags)
{
	if (!t || !device || !b)
		return -1;
	const struct rdc_isa *dev = rdc_isa_find(t, device->proc);
	if (!dev)
		return -1;
	for (size_t i = 0; i < b->n_entries; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		if (!usable_kind(e->parsed.kind) || e->size == 0)
			continue;
		/* an old hip-/hcc- id keeps its target in the ELF header */
		if (e->parsed.kind != RDC_KIND_HIPV4 || !e->parsed.has_target)
			return -1;
		if (rdc_target_matches(&e->parsed.target, device))
			return -1;   /* native: rdc_policy_native_by_id's question */
	}
	const struct rdc_compat_edge *edges[64];
	size_t ne = ranked_edges(t, dev, edges);
	for (size_t k = 0; k < ne; k++) {
		const char *cond = edges[k]->condition;
		for (size_t i = 0; i < b->n_entries; i++) {
			const struct rdc_bundle_entry *e = &b->entries[i];
			if (!usable_kind(e->parsed.kind) || e->size == 0 ||
			    strcmp(e->parsed.target.proc, edges[k]->code))
				continue;
			if (!rdc_target_features_match(&e->parsed.target, device))
				continue;   /* choose() passes it over too */
			if (rdc_pol_has_cond(cond, "opt-in") && !(flags & RDC_POLICY_OPT_IN))
				continue;   /* not tried */
			/* The first entry choose() would try: known from its id
			 * only when its code runs as on its own target (an edge
			 * without condition to the device's limits, no generic
			 * version to read) and no bad-kernel rule concerns it. */
			const struct rdc_isa *ci = rdc_isa_find(t, edges[k]->code);
			if (!rdc_pol_own_limits(t, dev, edges[k]->code, cond) || ci->generic ||
			    rdc_pol_bad_rules_for(t, dev->name, ci->name))
				return -1;
			return (long)i;
		}
	}
	return -1;
}

struct rdc_pol_item *rdc_pol_items(const struct rdc_bundle *b)
{
	size_t n = b->n_entries;
	struct rdc_pol_item *it = calloc(n ? n : 1, sizeof *it);
	if (!it)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		it[i].index = (long)i;
		it[i].data = e->data;
		it[i].size = e->size;
		it[i].usable = usable_kind(e->parsed.kind) && e->size > 0 && e->data;
		if (!it[i].usable)
			continue;
		if (e->parsed.has_target && e->parsed.kind == RDC_KIND_HIPV4) {
			it[i].target = e->parsed.target;
			continue;
		}
		/* Old hip-/hcc- ids: the target comes from the ELF header (CLR does
		 * the same, getTripleTargetIDFromCodeObject). */
		struct rdc_codeobj h;
		memset(&h, 0, sizeof h);
		if (rdc_codeobj_parse(e->data, (size_t)e->size, RDC_CO_HEADER_ONLY, &h, NULL) == 0) {
			it[i].target = h.target;
			rdc_codeobj_free(&h);
		} else if (e->parsed.has_target) {
			it[i].target = e->parsed.target;
		} else {
			it[i].usable = false;
		}
	}
	return it;
}

int rdc_policy_choose(const struct rdc_tables *t, const struct rdc_target *device,
		      const struct rdc_bundle *b, unsigned flags, struct rdc_choice *out,
		      struct rdc_diag *d)
{
	if (!b || !out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "policy: no bundle");
	struct rdc_pol_item *it = rdc_pol_items(b);
	if (!it)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "policy: out of memory");
	int rc = choose(t, device, it, b->n_entries, flags, out, d);
	free(it);
	return rc;
}

int rdc_policy_choose_codeobj(const struct rdc_tables *t, const struct rdc_target *device,
			      const void *co, size_t n, unsigned flags, struct rdc_choice *out,
			      struct rdc_diag *d)
{
	if (!out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "policy: no output");
	struct rdc_codeobj h;
	memset(&h, 0, sizeof h);
	int rc = rdc_codeobj_parse(co, n, RDC_CO_HEADER_ONLY, &h, d);
	if (rc < 0) {
		memset(out, 0, sizeof *out);
		out->entry = out->refused_entry = out->prefer_over = -1;
		out->verdict = RDC_VERDICT_MISSING;
		return rc;
	}
	struct rdc_pol_item it = { .index = 0, .target = h.target, .data = co, .size = n, .usable = true };
	rdc_codeobj_free(&h);
	return choose(t, device, &it, 1, flags, out, d);
}

void rdc_choice_free(struct rdc_choice *c)
{
	if (!c)
		return;
	free(c->kernels);
	c->kernels = NULL;
	free(c->hide);
	c->hide = NULL;
	c->n_hide = c->n_held = 0;
	if (c->co) {
		rdc_codeobj_free(c->co);
		free(c->co);
		c->co = NULL;
	}
	c->n_kernels = 0;
}
