/* SPDX-License-Identifier: MIT */
/*
 * decide.c — for one bundle, what each device gets: the policy runs once per
 * distinct device target (rdc_policy_choose), then every device gets one log
 * line naming the library, bundle index, device, chosen entry, reason,
 * kernel count and refused kernels.  Devices in map or spoof mode whose
 * target has no exact entry get an added entry (struct rdc_add); audit mode
 * only logs what map would do; off is never asked.  Missing code is noted
 * for the diagnosis block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcache.h"
#include "rdnacompat/rules.h"
#include "route.h"
#include "shim.h"

struct target_choice {
	struct rdc_target target;
	struct rdc_choice c;
	int rc;
	bool added;
	char diag[320];
	bool cached;             /* c came from the decision cache (dcache.c) */
	struct rdc_dc_hit hit;   /* its refused kernels */
	bool have_patches;       /* patches for the added entry (mapped) */
	size_t n_patches;
	struct rdc_patch patches[RDC_ADD_PATCHES];   /* when n_patches fits */
	struct rdc_dc_ref patch_ref;                 /* else where the cache has them */
};

/* What the added entry for `dev_proc` is: the chosen entry's target with
 * the device's processor. */
static struct rdc_target added_target(const struct rdc_choice *c, const char *dev_proc)
{
	struct rdc_target to = c->chosen;
	snprintf(to.proc, sizeof to.proc, "%s", dev_proc);
	return to;
}

/* Append " (cached)" to a reason, truncating the reason if it must. */
static void note_cached(char *r, size_t n)
{
	static const char sfx[] = " (cached)";
	size_t l = strlen(r);
	if (l + sizeof sfx > n)
		l = n - sizeof sfx;
	memcpy(r + l, sfx, sizeof sfx);
}

/* The index of the one entry of `b` with this id and size, or -1 (none,
 * or more than one: then no cached decision can say which). */
static long entry_by_key(const struct rdc_bundle *b, const char *id, uint64_t size)
{
	size_t l = strlen(id);
	long found = -1;
	for (size_t i = 0; l && i < b->n_entries; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		if (e->id_len == l && e->size == size && !memcmp(e->id, id, l)) {
			if (found >= 0)
				return -1;
			found = (long)i;
		}
	}
	return found;
}

/* Does a cached decision fit this bundle?  Its entries are found by id and
 * size (a record never holds an index: the entries HIP 7 asks comgr for
 * depend on the devices in the process), then every field is checked
 * before it is used: a record that passed the load checks (dcache.c) may
 * still come from a different bundle.  Fills h->c.entry and refused_entry. */
static bool hit_fits(struct rdc_dc_hit *h, const struct rdc_bundle *b)
{
	struct rdc_choice *c = &h->c;
	bool has_entry = c->verdict == RDC_VERDICT_NATIVE || c->verdict == RDC_VERDICT_MAPPED;
	if (!has_entry && c->verdict != RDC_VERDICT_MISSING)
		return false;
	c->entry = h->entry_id[0] ? entry_by_key(b, h->entry_id, h->entry_size) : -1;
	c->refused_entry = h->refused_id[0] ? entry_by_key(b, h->refused_id, h->refused_size) : -1;
	if (has_entry != (c->entry >= 0) || (h->refused_id[0] && c->refused_entry < 0))
		return false;
	if (h->have_patches && c->verdict != RDC_VERDICT_MAPPED)
		return false;
	/* more than fit here are checked where they are used (lazy.c obj_patches) */
	return !h->have_patches || h->n_patches > RDC_ADD_PATCHES ||
	       rdc_patches_inside(h->patches, h->n_patches, b->entries[c->entry].size);
}

/* Is the entry a cached decision names one the device may run, by the
 * entry's own ELF header (rdc_policy_handover_check)?  A record that
 * fits by id and size and names other code (a bug, or a file rewritten
 * with a right checksum) is decided afresh, said at warn.  An entry whose
 * bytes are not at hand here is checked at hand-over (rdc_add_handover). */
static bool hit_runs(const struct rdc_tables *t, const struct rdc_target *dev,
		     const struct rdc_choice *c, const struct rdc_bundle *b, uint64_t off)
{
	if (c->entry < 0 || !b->entries[c->entry].data)
		return true;
	const struct rdc_bundle_entry *e = &b->entries[c->entry];
	struct rdc_diag d = { 0 };
	if (rdc_policy_handover_check(t, dev, e->data, e->size, rdc_policy_flags(), NULL, 0, &d) == 0)
		return true;
	rdc_logf(RDC_LOG_WARN, "cache: the decision at offset %llu for %s names entry %.*s, which it "
		 "may not run (%s); deciding afresh", (unsigned long long)off, dev->proc,
		 (int)(e->id_len > 200 ? 200 : e->id_len), e->id, d.msg);
	return false;
}

/* What `prefer` rows are matched against: the library, the runtime as
 * its file name says (asking HIP here would start it), the opt-in. */
static struct rdc_prefer_ctx prefer_ctx(const char *scope)
{
	return (struct rdc_prefer_ctx){ .lib = scope, .runtime = rdc_route_runtime_from_file(),
					.provisional = rdc_cfg.opt_in };
}

/* May a `prefer` row concern this target and library?  Then the decision
 * is made afresh each time: the decision cache's key covers the tables'
 * isa and compat rows, not the kernel rules. */
static bool prefer_possible(const struct rdc_tables *t, const struct rdc_target *target,
			    const char *scope)
{
	/* any range first: no file-name lookup where no prefer row names the card */
	if (!rdc_rules_prefer_any(t, target->proc, scope, 0, rdc_cfg.opt_in))
		return false;
	struct rdc_prefer_ctx px = prefer_ctx(scope);
	return rdc_rules_prefer_any(t, target->proc, scope, px.runtime, px.provisional);
}

/* The choice for one device target: from the cache when `L` has it and it
 * fits, else from the policy (then remembered in `L`), then a `prefer`
 * row's (policy_prefer.c), never cached. */
static void choose_for(struct target_choice *ch, const struct rdc_tables *t,
		       const struct rdc_bundle *b, struct rdc_dc_lib *L, uint64_t off, const char *scope,
		       enum rdc_hold hold)
{
	bool prefer = prefer_possible(t, &ch->target, scope);
	if (prefer)
		L = NULL;
	if (L && rdc_dcache_get(L, off, &ch->target, &ch->hit) == 0) {
		/* a decision no instruction condition entered is the same for
		 * every way of holding (hold -1) */
		if ((ch->hit.hold == -1 || ch->hit.hold == (int)hold) && hit_fits(&ch->hit, b) &&
		    hit_runs(t, &ch->target, &ch->hit.c, b, off)) {
			ch->c = ch->hit.c;
			ch->cached = true;
			ch->have_patches = ch->hit.have_patches;
			ch->n_patches = ch->hit.n_patches;
			memcpy(ch->patches, ch->hit.patches, sizeof ch->patches);
			if (ch->n_patches > RDC_ADD_PATCHES)
				ch->patch_ref = (struct rdc_dc_ref){ L, off, ch->target };
			note_cached(ch->c.reason, sizeof ch->c.reason);
			rdc_stat_add(RDC_ST_CACHED, 1);
			for (size_t i = 0; i < ch->hit.n_refused_k; i++)
				note_cached(ch->hit.refused[i].reason, sizeof ch->hit.refused[i].reason);
			return;
		}
		rdc_logf(RDC_LOG_DEBUG, "cache: decision at offset %llu does not fit the bundle; "
			 "deciding afresh", (unsigned long long)off);
		rdc_dcache_hit_free(&ch->hit);
	}
	struct rdc_diag d = { 0 };
	ch->rc = rdc_policy_choose(t, &ch->target, b, rdc_policy_flags_hold(hold), &ch->c, &d);
	snprintf(ch->diag, sizeof ch->diag, "%s", d.msg);
	if (ch->rc == 0 && ch->c.co)
		rdc_stat_add(RDC_ST_PARSED, 1);
	if (ch->rc != 0)
		return;
	if (prefer) {
		struct rdc_prefer_ctx px = prefer_ctx(scope);
		struct rdc_diag pd = { 0 };
		if (rdc_policy_prefer(t, &ch->target, b, rdc_policy_flags(), &px, &ch->c, &pd) < 0)
			rdc_logf(RDC_LOG_WARN, "prefer: %s; keeping the policy's choice", pd.msg);
	}
	struct rdc_patch *all = NULL;
	if (ch->c.verdict == RDC_VERDICT_MAPPED && ch->c.co) {
		/* The patches from the policy's parse: no second metadata decode,
		 * and those that hold kernels (ch->c.hide) after them.  More than
		 * an added entry holds (a Tensile object: one per kernel) go to
		 * the cache, which hands them to whoever builds the object, in
		 * this run and the next. */
		struct rdc_target to = added_target(&ch->c, ch->target.proc);
		size_t nh = hold != RDC_HOLD_NONE ? ch->c.n_hide : 0;
		ch->n_patches = RDC_ADD_PATCHES;
		int prc = rdc_codeobj_retarget_patches_from(ch->c.co, &to, ch->patches, &ch->n_patches,
							    NULL);
		bool fits = prc == 0 && ch->n_patches + nh <= RDC_ADD_PATCHES;
		if (fits) {
			memcpy(ch->patches + ch->n_patches, ch->c.hide, nh * sizeof *ch->patches);
			ch->n_patches += nh;
		} else if ((prc == 0 || ch->n_patches > RDC_ADD_PATCHES) && L) {
			size_t n = ch->n_patches;
			all = malloc((n + nh) * sizeof *all);
			prc = all ? rdc_codeobj_retarget_patches_from(ch->c.co, &to, all, &n, NULL)
				  : RDC_E_NOMEM;
			if (prc == 0) {
				memcpy(all + n, ch->c.hide, nh * sizeof *all);
				ch->n_patches = n + nh;
				ch->patch_ref = (struct rdc_dc_ref){ L, off, ch->target };
			}
		} else if (prc == 0) {
			prc = RDC_E_RANGE;   /* computed again where used (rdc_add_patches) */
		}
		ch->have_patches = prc == 0;
		if (!ch->have_patches)
			ch->n_patches = 0;
	}
	if (L)
		rdc_dcache_put(L, off, &ch->target, b, &ch->c, all ? all : ch->patches, ch->n_patches,
			       ch->have_patches, ch->c.hold_failed ? (int)hold : -1);
	free(all);
}

static void entry_name(const struct rdc_bundle *b, long i, char *buf, size_t n)
{
	if (i < 0 || (size_t)i >= b->n_entries) {
		snprintf(buf, n, "-");
		return;
	}
	const struct rdc_bundle_entry *e = &b->entries[i];
	int len = e->id_len > 200 ? 200 : (int)e->id_len;
	snprintf(buf, n, "%.*s", len, e->id);
}

/* The entry the runtime loads by itself through the device's generic ISA
 * (ROCR >= ~6.4 lists it, newer CLR looks it up after the native one), or
 * -1. */
static long runtime_generic_entry(const struct rdc_bundle *b, const struct rdc_device *dev)
{
	for (size_t i = 0; dev->generic.proc[0] && i < b->n_entries; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		if (e->size && e->parsed.has_target && e->parsed.kind != RDC_KIND_HOST &&
		    rdc_device_runtime_generic(dev, &e->parsed.target))
			return (long)i;
	}
	return -1;
}

void rdc_log_refused(const char *lib, long index, const struct rdc_device *dev,
		     const struct rdc_choice *c)
{
	for (size_t i = 0; c->kernels && i < c->n_kernels; i++) {
		const struct rdc_kernel_verdict *v = &c->kernels[i];
		if (v->ok)
			continue;
		/* a held kernel: in the object the device gets, renamed so that
		 * the runtime finds it by no name (rdc_codeobj_hide_patches) */
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_N("device", dev->index),
			RDC_KV_S("kernel", v->kernel), RDC_KV_S("check", v->check),
			RDC_KV_S("reason", v->reason),
			RDC_KV_S("answer", "a launch fails with hipErrorInvalidDeviceFunction, "
					   "hipModuleGetFunction with hipErrorNotFound; the entry's other kernels run"),
		};
		size_t n = sizeof kv / sizeof kv[0];
		rdc_log_event(RDC_LOG_WARN, v->held ? "held" : "refused", kv, v->held ? n : n - 1);
	}
}

static int decide(const struct rdc_bundle *b, const char *lib, long index, const char *source,
		  const char *scope, struct rdc_dc_lib *L, uint64_t off, enum rdc_hold hold,
		  struct rdc_add *add, size_t *n_add)
{
	const struct rdc_tables *t = rdc_tables();
	size_t ntc = 0;
	size_t ndev = rdc_devices_count();
	/* one slot per distinct target, each cleared when taken: a choice is
	 * some kilobytes, and zeroing RDC_MAX_DEVICES of them for each of a
	 * library's bundles was a measurable part of a first run */
	struct target_choice *tc = malloc((ndev ? ndev : 1) * sizeof *tc);
	*n_add = 0;
	if (!tc) {
		rdc_logf(RDC_LOG_WARN, "%s: %s bundle %ld: out of memory for the decision; passing it through",
			 source, lib, index);
		return RDC_E_NOMEM;
	}
	for (size_t i = 0; i < ndev; i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		if (!dev || dev->mode == RDC_MODE_OFF)
			continue;
		struct target_choice *ch = NULL;
		for (size_t j = 0; j < ntc; j++)
			if (memcmp(&tc[j].target, &dev->target, sizeof dev->target) == 0)
				ch = &tc[j];
		if (!ch) {
			ch = &tc[ntc++];
			memset(ch, 0, sizeof *ch);
			ch->target = dev->target;
			choose_for(ch, t, b, L, off, scope, hold);
		}
		char tgt[64], chosen[64], ent[208];
		rdc_target_format(&dev->target, tgt, sizeof tgt);
		/* a preferred entry is loaded under the device's own id, which the
		 * runtime looks up before the generic one */
		long g = ch->rc != 0 || (ch->c.verdict != RDC_VERDICT_NATIVE && !ch->c.preferred)
				 ? runtime_generic_entry(b, dev)
				 : -1;
		/* the runtime's generic entry lacks a workaround the card needs
		 * and the policy has an entry that runs here (another, or the
		 * generic one with those kernels held): that one is handed over,
		 * under the device's own id, which the runtime looks up first */
		struct rdc_isa_report gr;
		int grc = g >= 0 ? rdc_generic_isa_check(dev, b, g, &gr) : 1;
		if (g >= 0 && grc == 0 && gr.n_lacking && ch->rc == 0 && ch->c.verdict == RDC_VERDICT_MAPPED) {
			char why[400];
			snprintf(why, sizeof why, "the runtime would load the bundle's %s entry itself, whose %zu of "
				 "%zu kernels lack a workaround the card needs (first: %.80s, %s); the policy's "
				 "choice is handed over instead", dev->generic.proc, gr.n_lacking, gr.n_kernels,
				 gr.first_kernel, gr.first_check);
			struct rdc_kv kv[] = {
				RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_N("device", dev->index),
				RDC_KV_S("target", tgt), RDC_KV_S("entry", dev->generic.proc), RDC_KV_S("reason", why),
			};
			rdc_log_event(RDC_LOG_INFO, "generic-replaced", kv, sizeof kv / sizeof kv[0]);
			g = -1;
		}
		if (g >= 0) {
			entry_name(b, g, ent, sizeof ent);
			char reason[300];
			snprintf(reason, sizeof reason, "the runtime lists %s for this agent and loads "
				 "the bundle's %s entry itself", dev->generic.proc, dev->generic.proc);
			struct rdc_kv kv[] = {
				RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_S("source", source),
				RDC_KV_N("device", dev->index), RDC_KV_S("target", tgt),
				RDC_KV_S("mode", rdc_mode_name(dev->mode)), RDC_KV_S("verdict", "native"),
				RDC_KV_S("entry", ent), RDC_KV_S("chosen", dev->generic.proc),
				RDC_KV_N("bytes", b->entries[g].size), RDC_KV_S("reason", reason),
			};
			rdc_log_event(RDC_LOG_DEBUG, "native", kv, sizeof kv / sizeof kv[0]);
			rdc_generic_isa_say(lib, index, dev, grc, &gr);
			continue;
		}
		if (ch->rc != 0) {
			struct rdc_kv kv[] = {
				RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_S("source", source),
				RDC_KV_N("device", dev->index), RDC_KV_S("target", tgt),
				RDC_KV_S("error", rdc_strerror(ch->rc)), RDC_KV_S("detail", ch->diag),
			};
			rdc_log_event(RDC_LOG_WARN, "passthrough", kv, sizeof kv / sizeof kv[0]);
			continue;
		}
		const struct rdc_choice *c = &ch->c;
		rdc_target_format(&c->chosen, chosen, sizeof chosen);
		entry_name(b, c->entry, ent, sizeof ent);
		const char *event = rdc_verdict_name(c->verdict);
		enum rdc_level lvl = RDC_LOG_DEBUG;
		if (c->verdict == RDC_VERDICT_MAPPED) {
			lvl = RDC_LOG_INFO;
			event = dev->mode == RDC_MODE_AUDIT ? "audit" : c->preferred ? "prefer" : "map";
		} else if (c->verdict == RDC_VERDICT_MISSING) {
			lvl = RDC_LOG_WARN;
			event = "missing";
		}
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_S("source", source),
			RDC_KV_N("device", dev->index), RDC_KV_S("target", tgt),
			RDC_KV_S("mode", rdc_mode_name(dev->mode)),
			RDC_KV_S("verdict", rdc_verdict_name(c->verdict)),
			RDC_KV_S("entry", ent), RDC_KV_S("chosen", c->verdict == RDC_VERDICT_MISSING ? "-" : chosen),
			RDC_KV_N("kernels", c->n_kernels), RDC_KV_N("refused", c->n_refused),
			RDC_KV_N("held", c->n_held),
			RDC_KV_N("bytes", c->entry >= 0 && (size_t)c->entry < b->n_entries
						  ? b->entries[c->entry].size : 0),
			RDC_KV_S("reason", c->reason),
		};
		rdc_log_event(lvl, event, kv, sizeof kv / sizeof kv[0]);
		if (c->prefer_note[0] && !c->preferred) {
			/* a prefer row matched and the policy's choice stays: say why */
			struct rdc_kv pk[] = {
				RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_N("device", dev->index),
				RDC_KV_S("target", tgt), RDC_KV_S("entry", ent), RDC_KV_S("reason", c->prefer_note),
			};
			rdc_log_event(RDC_LOG_INFO, "prefer-kept", pk, sizeof pk / sizeof pk[0]);
		}
		/* A cached choice has only its refused kernels' verdicts. */
		struct rdc_choice view = *c;
		if (ch->cached) {
			view.kernels = ch->hit.refused;
			view.n_kernels = ch->hit.n_refused_k;
		}
		if (c->n_refused || c->n_held)
			rdc_log_refused(lib, index, dev, &view);
		if (c->verdict == RDC_VERDICT_MISSING) {
			rdc_diag_note_missing(lib, index, b, dev, &view);
			continue;
		}
		if (c->verdict != RDC_VERDICT_MAPPED || dev->mode == RDC_MODE_AUDIT || ch->added)
			continue;
		struct rdc_add *a = &add[*n_add];
		memset(a, 0, sizeof *a);
		a->from = c->entry;
		a->to = added_target(c, dev->target.proc);
		rdc_target_format_bundle_id(&a->to, a->id, sizeof a->id);
		a->drop_own = c->preferred && c->prefer_own;
		a->from_cache = ch->cached;
		a->have_patches = ch->have_patches;
		a->n_patches = ch->n_patches;
		memcpy(a->patches, ch->patches, sizeof a->patches);
		a->patch_ref = ch->patch_ref;
		a->n_held = c->n_held;
		a->tables = t;
		a->hold = c->n_held ? hold : RDC_HOLD_NONE;
		ch->added = true;
		(*n_add)++;
	}
	for (size_t j = 0; j < ntc; j++) {
		if (tc[j].rc == 0)
			rdc_choice_free(&tc[j].c);
		rdc_dcache_hit_free(&tc[j].hit);
	}
	free(tc);
	return 0;
}

bool rdc_decide_native_by_table(const struct rdc_bundle *t, const char *lib, long index,
				const char *source, const char *scope)
{
	const struct rdc_tables *tab = rdc_tables();
	size_t ndev = rdc_devices_count(), acting = 0;
	for (size_t i = 0; i < ndev; i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		if (!dev || dev->mode == RDC_MODE_OFF)
			continue;
		acting++;
		if (!rdc_policy_native_by_id(tab, &dev->target, t) ||
		    prefer_possible(tab, &dev->target, scope))
			return false;
	}
	if (!acting)
		return false;
	for (size_t i = 0; i < ndev; i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		if (!dev || dev->mode == RDC_MODE_OFF)
			continue;
		char tgt[64], ent[208] = "-";
		rdc_target_format(&dev->target, tgt, sizeof tgt);
		for (size_t k = 0; k < t->n_entries; k++) {
			const struct rdc_bundle_entry *e = &t->entries[k];
			if (e->parsed.has_target && e->parsed.kind != RDC_KIND_HOST &&
			    rdc_target_matches(&e->parsed.target, &dev->target)) {
				entry_name(t, (long)k, ent, sizeof ent);
				break;
			}
		}
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_S("source", source),
			RDC_KV_N("device", dev->index), RDC_KV_S("target", tgt),
			RDC_KV_S("mode", rdc_mode_name(dev->mode)), RDC_KV_S("verdict", "native"),
			RDC_KV_S("entry", ent), RDC_KV_S("chosen", dev->target.proc),
			RDC_KV_S("reason", "the bundle has the device's own entry and no rule concerns "
					   "it: decided from the entry table, no code read"),
		};
		rdc_log_event(RDC_LOG_DEBUG, "native", kv, sizeof kv / sizeof kv[0]);
	}
	return true;
}

/* Is `t` the first of its target among the devices seen so far (seen[],
 * RDC_MAX_DEVICES long, *ns of them used)?  Then it is recorded. */
static bool first_of_target(struct rdc_target *seen, size_t *ns, const struct rdc_target *t)
{
	for (size_t j = 0; j < *ns; j++)
		if (!memcmp(&seen[j], t, sizeof *t))
			return false;
	if (*ns == RDC_MAX_DEVICES)
		return false;
	seen[(*ns)++] = *t;
	return true;
}

bool rdc_decide_by_table(const struct rdc_bundle *t, const char *scope, struct rdc_add *add,
			 size_t *n_add)
{
	const struct rdc_tables *tab = rdc_tables();
	struct rdc_target seen[RDC_MAX_DEVICES];
	size_t ns = 0, acting = 0;
	*n_add = 0;
	for (size_t i = 0; i < rdc_devices_count(); i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		if (!dev || dev->mode == RDC_MODE_OFF)
			continue;
		acting++;
		if (dev->mode == RDC_MODE_AUDIT || prefer_possible(tab, &dev->target, scope))
			return false;   /* audit shows every bundle; a prefer row reads code */
		if (!first_of_target(seen, &ns, &dev->target))
			continue;
		if (rdc_policy_native_by_id(tab, &dev->target, t))
			continue;
		if (runtime_generic_entry(t, dev) >= 0)
			return false;   /* the runtime loads that one itself: decide() says so */
		long k = rdc_policy_mapped_by_id(tab, &dev->target, t, rdc_policy_flags());
		if (k < 0)
			return false;
		struct rdc_add *a = &add[(*n_add)++];
		memset(a, 0, sizeof *a);
		a->from = k;
		a->to = t->entries[k].parsed.target;
		snprintf(a->to.proc, sizeof a->to.proc, "%s", dev->target.proc);
		rdc_target_format_bundle_id(&a->to, a->id, sizeof a->id);
	}
	return acting && *n_add;
}

bool rdc_decide_cached(const struct rdc_bundle *b, const char *scope, const char *cache_name,
		       const struct stat *st, uint64_t key)
{
	struct rdc_dc_lib *L = st && cache_name ? rdc_dcache_lib_st(cache_name, st) : NULL;
	if (!L)
		return false;
	bool all = true;
	struct rdc_target seen[RDC_MAX_DEVICES];
	size_t ns = 0;
	for (size_t i = 0; all && i < rdc_devices_count(); i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		if (!dev || dev->mode == RDC_MODE_OFF)
			continue;
		if (!first_of_target(seen, &ns, &dev->target))
			continue;
		if (prefer_possible(rdc_tables(), &dev->target, scope))
			return false;
		struct rdc_dc_hit hit;
		all = rdc_dcache_get(L, key, &dev->target, &hit) == 0 && hit_fits(&hit, b);
		rdc_dcache_hit_free(&hit);
	}
	return all;
}

bool rdc_originals_needed(const struct rdc_add *add, size_t n_add)
{
	size_t ndev = rdc_devices_count();
	if (!ndev)
		return true;
	for (size_t i = 0; i < ndev; i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		if (!dev || dev->mode == RDC_MODE_OFF || dev->mode == RDC_MODE_AUDIT)
			return true;
		size_t k;
		for (k = 0; k < n_add && strcmp(add[k].to.proc, dev->target.proc) != 0; k++)
			;
		if (k == n_add)
			return true;
	}
	return false;
}

int rdc_decide_bundle(const struct rdc_bundle *b, const char *lib, long index,
		      const char *source, struct rdc_add *add, size_t *n_add)
{
	return decide(b, lib, index, source, lib, NULL, 0, RDC_HOLD_NONE, add, n_add);
}

int rdc_decide_bundle_st(const struct rdc_bundle *b, const char *lib, long index,
			 const char *source, const char *scope, const char *cache_name,
			 const struct stat *st, uint64_t key, enum rdc_hold hold, struct rdc_add *add,
			 size_t *n_add)
{
	struct rdc_dc_lib *L = st && cache_name ? rdc_dcache_lib_st(cache_name, st) : NULL;
	return decide(b, lib, index, source, scope, L, key, hold, add, n_add);
}

int rdc_add_handover(const struct rdc_add *a, const void *data, size_t size, struct rdc_diag *d)
{
	struct rdc_target dev = a->to;   /* the device's processor */
	for (size_t i = 0; i < rdc_devices_count(); i++) {
		const struct rdc_device *x = rdc_device_get(i);
		if (x && !strcmp(x->target.proc, a->to.proc)) {
			dev = x->target;
			break;
		}
	}
	char code[32];
	struct rdc_diag hd = { 0 };
	int rc = rdc_policy_handover_check(rdc_tables(), &dev, data, size, rdc_policy_flags(), code,
					   sizeof code, &hd);
	if (rc == 0) {
		rdc_logf(RDC_LOG_DEBUG, "handover: %s gets entry %ld as %s, %s code by its ELF header",
			 a->to.proc, a->from, a->id, code);
		return 0;
	}
	struct rdc_kv kv[] = {
		RDC_KV_S("device", a->to.proc), RDC_KV_N("entry", a->from), RDC_KV_S("as", a->id),
		RDC_KV_S("code", code[0] ? code : "-"), RDC_KV_S("reason", hd.msg),
	};
	rdc_log_event(RDC_LOG_ERROR, "handover-refused", kv, sizeof kv / sizeof kv[0]);
	return rdc_diag_set(d, RDC_E_REFUSED, RDC_NO_OFFSET, "not handed over: %s", hd.msg);
}

int rdc_decided_patches(const struct rdc_add *a, const void *data, size_t size,
			struct rdc_patch **patches, size_t *n_patches, struct rdc_diag *d)
{
	*patches = NULL;
	*n_patches = 0;
	int rc = rdc_add_handover(a, data, size, d);
	if (rc != 0)
		return rc;
	if (a->have_patches && a->n_patches > RDC_ADD_PATCHES &&
	    rdc_dcache_patches(&a->patch_ref, patches, n_patches) == 0) {
		if (rdc_patches_inside(*patches, *n_patches, size))
			return 0;
		rdc_logf(RDC_LOG_DEBUG, "cache: patches of %s do not fit its %zu bytes; computing them",
			 a->id, size);
		free(*patches);
		*patches = NULL;
		*n_patches = 0;
	}
	return rdc_add_patches(a, data, size, patches, n_patches, d);
}
