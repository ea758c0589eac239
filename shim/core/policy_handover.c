/* SPDX-License-Identifier: MIT */
/*
 * policy_handover.c — rdc_policy_handover_check: the last check before a
 * retargeted code object is handed to a device.  It reads what the object
 * really is (its ELF e_flags: machine and xnack/sramecc), not what a
 * decision, a cache record or a bundle id says, and asks the compat table
 * whether the device may run code for that processor.  Whatever went wrong
 * before it (a stale cache record, an index into the wrong list), a device
 * is never given another family's code.  Pure.
 */
#include <stdio.h>
#include <string.h>

#include "policy_internal.h"
#include "rdnacompat/codeobj.h"

int rdc_policy_handover_check(const struct rdc_tables *t, const struct rdc_target *device,
			      const void *obj, size_t size, unsigned flags, char *code_proc,
			      size_t code_proc_len, struct rdc_diag *d)
{
	struct rdc_codeobj co;
	struct rdc_diag pd = { 0 };
	if (code_proc_len)
		code_proc[0] = '\0';
	int rc = obj ? rdc_codeobj_parse(obj, size, RDC_CO_HEADER_ONLY, &co, &pd) : RDC_E_INVAL;
	if (rc != 0)
		return rdc_diag_set(d, RDC_E_REFUSED, RDC_NO_OFFSET,
				    "the object to hand to %s is not a readable code object (%s)",
				    device->proc, pd.msg[0] ? pd.msg : rdc_strerror(rc));
	char proc[sizeof co.target.proc];
	snprintf(proc, sizeof proc, "%s", co.target.proc);
	bool features_fit = rdc_target_features_match(&co.target, device);
	rdc_codeobj_free(&co);
	if (code_proc_len)
		snprintf(code_proc, code_proc_len, "%s", proc);
	if (!features_fit)
		return rdc_diag_set(d, RDC_E_REFUSED, RDC_NO_OFFSET,
				    "the object's xnack/sramecc settings do not fit %s", device->proc);
	if (!strcmp(proc, device->proc))
		return 0;
	const struct rdc_compat_edge *edges[64];
	size_t n = rdc_compat_edges_for(t, device->proc, edges, sizeof edges / sizeof edges[0]);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(edges[i]->code, proc))
			continue;
		if (rdc_pol_has_cond(edges[i]->condition, "opt-in") && !(flags & RDC_POLICY_OPT_IN))
			return rdc_diag_set(d, RDC_E_REFUSED, RDC_NO_OFFSET,
					    "the object is %s code and %s <- %s is opt-in, which is off",
					    proc, device->proc, proc);
		return 0;
	}
	return rdc_diag_set(d, RDC_E_REFUSED, RDC_NO_OFFSET,
			    "the object is %s code and the compat table has no edge %s <- %s", proc,
			    device->proc, proc);
}
