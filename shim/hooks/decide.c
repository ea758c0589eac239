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

#include "shim.h"

struct target_choice {
	struct rdc_target target;
	struct rdc_choice c;
	int rc;
	bool added;
	char diag[320];
};

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

static void log_refused(const char *lib, long index, const struct rdc_device *dev,
			const struct rdc_choice *c)
{
	for (size_t i = 0; c->kernels && i < c->n_kernels; i++) {
		const struct rdc_kernel_verdict *v = &c->kernels[i];
		if (v->ok)
			continue;
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_N("device", dev->index),
			RDC_KV_S("kernel", v->kernel), RDC_KV_S("check", v->check),
			RDC_KV_S("reason", v->reason),
		};
		rdc_log_event(RDC_LOG_WARN, "refused", kv, sizeof kv / sizeof kv[0]);
	}
}

int rdc_decide_bundle(const struct rdc_bundle *b, const char *lib, long index,
		      const char *source, struct rdc_add *add, size_t *n_add)
{
	const struct rdc_tables *t = rdc_tables();
	struct target_choice *tc = calloc(RDC_MAX_DEVICES, sizeof *tc);
	size_t ntc = 0;
	size_t ndev = rdc_devices_count();
	*n_add = 0;
	if (!tc)
		return RDC_E_NOMEM;
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
			struct rdc_diag d = { 0 };
			ch->rc = rdc_policy_choose(t, &dev->target, b, rdc_policy_flags(), &ch->c, &d);
			snprintf(ch->diag, sizeof ch->diag, "%s", d.msg);
		}
		char tgt[64], chosen[64], ent[208];
		rdc_target_format(&dev->target, tgt, sizeof tgt);
		long g = ch->rc != 0 || ch->c.verdict != RDC_VERDICT_NATIVE ? runtime_generic_entry(b, dev)
									     : -1;
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
			event = dev->mode == RDC_MODE_AUDIT ? "audit" : "map";
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
			RDC_KV_N("bytes", c->entry >= 0 && (size_t)c->entry < b->n_entries
						  ? b->entries[c->entry].size : 0),
			RDC_KV_S("reason", c->reason),
		};
		rdc_log_event(lvl, event, kv, sizeof kv / sizeof kv[0]);
		if (c->n_refused)
			log_refused(lib, index, dev, c);
		if (c->verdict == RDC_VERDICT_MISSING) {
			rdc_diag_note_missing(lib, index, b, dev, c);
			continue;
		}
		if (c->verdict != RDC_VERDICT_MAPPED || dev->mode == RDC_MODE_AUDIT || ch->added)
			continue;
		struct rdc_add *a = &add[*n_add];
		memset(a, 0, sizeof *a);
		a->from = c->entry;
		a->to = c->chosen;
		snprintf(a->to.proc, sizeof a->to.proc, "%s", dev->target.proc);
		rdc_target_format_bundle_id(&a->to, a->id, sizeof a->id);
		/* The patches from the policy's parse: no second metadata decode. */
		a->n_patches = RDC_ADD_PATCHES;
		a->have_patches = c->co && rdc_codeobj_retarget_patches_from(c->co, &a->to, a->patches,
									      &a->n_patches, NULL) == 0;
		if (!a->have_patches)
			a->n_patches = 0;
		ch->added = true;
		(*n_add)++;
	}
	for (size_t j = 0; j < ntc; j++)
		if (tc[j].rc == 0)
			rdc_choice_free(&tc[j].c);
	free(tc);
	return 0;
}
