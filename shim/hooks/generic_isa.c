/* SPDX-License-Identifier: MIT */
/*
 * generic_isa.c — where the runtime loads a generic entry by itself (HIP 7:
 * ROCR lists the agent's generic ISA, e.g. gfx11-generic on a gfx1150, and
 * the runtime takes the bundle's entry for it without any mapping), the
 * shim checks the kernels against the same per-kernel instruction
 * conditions as a mapped entry (rdc_policy_isa_check: the tables' edge
 * device <- generic, point-sample etc.) and says at warn which kernels lack
 * a workaround the card needs.  When the policy has an entry that runs here
 * (another one, or the generic one with those kernels held), decide.c
 * hands that over instead; else it warns and the runtime's choice stands —
 * refusing would leave the runtime no code at all for the card
 * (docs/SHIM.md, "Instruction checks").  Decodes only when the edge names
 * such a condition.
 */
#include <string.h>

#include "shim.h"

bool rdc_generic_edge_checked(const struct rdc_tables *t, const char *dev, const char *generic)
{
	for (size_t i = 0; t && i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		if (!strcmp(e->device, dev) && !strcmp(e->code, generic))
			return rdc_edge_checks_instructions(e);
	}
	return false;
}

int rdc_generic_isa_check(const struct rdc_device *dev, const struct rdc_bundle *b, long g,
			  struct rdc_isa_report *r)
{
	const struct rdc_tables *t = rdc_tables();
	memset(r, 0, sizeof *r);
	if (!t || g < 0 || (size_t)g >= b->n_entries || !dev->generic.proc[0] ||
	    !rdc_generic_edge_checked(t, dev->target.proc, dev->generic.proc))
		return 1;
	const struct rdc_bundle_entry *e = &b->entries[g];
	return e->data ? rdc_policy_isa_check(t, dev->target.proc, e->data, (size_t)e->size, r)
		       : RDC_E_UNSUPPORTED;
}

void rdc_generic_isa_say(const char *lib, long index, const struct rdc_device *dev, int rc,
			 const struct rdc_isa_report *r)
{
	char tgt[64];
	rdc_target_format(&dev->target, tgt, sizeof tgt);
	if (rc < 0) {
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_N("device", dev->index),
			RDC_KV_S("target", tgt), RDC_KV_S("entry", dev->generic.proc),
			RDC_KV_S("reason", "the runtime loads this generic entry itself; its kernels could not be "
					   "read to check the instruction conditions of the edge"),
			RDC_KV_S("error", rdc_strerror(rc)),
		};
		rdc_log_event(RDC_LOG_WARN, "generic-unchecked", kv, sizeof kv / sizeof kv[0]);
		return;
	}
	if (rc > 0 || !r->n_lacking)
		return;
	struct rdc_kv kv[] = {
		RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_N("device", dev->index),
		RDC_KV_S("target", tgt), RDC_KV_S("entry", r->code), RDC_KV_N("kernels", r->n_kernels),
		RDC_KV_N("lacking", r->n_lacking), RDC_KV_S("kernel", r->first_kernel),
		RDC_KV_S("check", r->first_check), RDC_KV_S("reason", r->first_reason),
		RDC_KV_S("action", "none: the runtime loads the generic entry itself and no other entry runs "
				   "here (docs/SHIM.md)"),
	};
	rdc_log_event(RDC_LOG_WARN, "generic-unsafe", kv, sizeof kv / sizeof kv[0]);
}
