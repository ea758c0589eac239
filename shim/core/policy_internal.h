/* SPDX-License-Identifier: MIT */
/*
 * policy_internal.h — helpers shared by the policy's three files:
 * policy_check.c (rdc_check_kernel, edge-condition checks), policy_need.c
 * (what a device would need), policy.c (the choice) and policy_prefer.c
 * (a `prefer` rule over the choice).  Hidden symbols.
 */
#ifndef RDC_POLICY_INTERNAL_H
#define RDC_POLICY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "rdnacompat/policy.h"

/* Append printf text to buf (capacity n) at *len, truncating safely. */
void rdc_pol_cat(char *buf, size_t n, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Is `what` one of the "+"-joined words of an edge condition? */
bool rdc_pol_has_cond(const char *cond, const char *what);

/* Does any bad-kernel rule concern (device, code) at all? */
bool rdc_pol_bad_rules_for(const struct rdc_tables *t, const char *dev, const char *code);

/* Edge condition "user-sgpr-16" for one kernel; fills v on refusal. */
bool rdc_pol_check_user_sgpr16(const struct rdc_kernel *k, struct rdc_kernel_verdict *v);

/* Is a kernel that fails check `check` (rdc_check_kernel's, or
 * user-sgpr-16's) one the shim may hold — keep from running while the rest
 * of its entry runs: the device's limits (wave, vgpr, waves, lds: the
 * kernel cannot run on this card as built) and a hardware workaround its
 * code lacks (user-sgpr)?  Not xnack/sramecc (the whole entry's build) nor
 * badlist (a reviewed rule refuses the code).  The instruction conditions
 * (rdc_pol_check_isa) always hold. */
bool rdc_pol_check_holdable(const char *check);

/* Do two processors have the same limits (VGPR files and granules, waves,
 * LDS, wave size, WGPs)?  Code for one then runs on the other as on its own
 * target: its limit checks are reported, not enforced. */
bool rdc_pol_same_limits(const struct rdc_isa *a, const struct rdc_isa *b);
/* Does code for `code_proc`, reached by an edge with condition `cond`
 * (NULL or "none": none), run on device `dev` as on its own target: an
 * edge without condition to the device's own limits? */
bool rdc_pol_own_limits(const struct rdc_tables *t, const struct rdc_isa *dev, const char *code_proc,
			const char *cond);

/* policy_isa.c: the per-kernel instruction conditions (point-sample,
 * msaa-load, mad-intra-fwd).  rdc_pol_cond_known: is every word of `cond`
 * one the policy evaluates (false: the first other word in bad).
 * rdc_pol_isa_classes: the instruction classes (bits of enum rdc_isa_cls)
 * the condition protects.  rdc_pol_isa_prepare: classify the kernels of the
 * parsed `co` once when the condition needs it (*out NULL when not; free
 * it); prod gets the producer when mad-intra-fwd asked for it; <0 only out
 * of memory.  rdc_pol_check_isa: one kernel; fills v on refusal. */
struct rdc_isa_kernel;
bool rdc_pol_cond_known(const char *cond, char *bad, size_t n);
unsigned rdc_pol_isa_classes(const char *cond);
bool rdc_pol_producer_has_mad_fix(const char *producer);
int rdc_pol_isa_prepare(const uint8_t *data, size_t size, const struct rdc_codeobj *co,
			const char *cond, unsigned *need, struct rdc_isa_kernel **out, char *prod,
			size_t prod_cap);
bool rdc_pol_check_isa(const struct rdc_isa_kernel *ik, unsigned need, const char *cond,
		       const char *prod, struct rdc_kernel_verdict *v);

/* One bundle entry as the policy sees it. */
struct rdc_pol_item {
	long index;             /* entry index */
	struct rdc_target target;
	const uint8_t *data;
	uint64_t size;
	bool usable;            /* a device code entry */
};

/* The entries of `b` (targets from the ids, or from the ELF header for old
 * hip-/hcc- ids); calloc'd, b->n_entries long; NULL when out of memory. */
struct rdc_pol_item *rdc_pol_items(const struct rdc_bundle *b);

/* Parse entry `it` and check every kernel for device `dev` / `device`,
 * reached by an edge with condition `cond` (NULL: native).  Returns 1
 * accepted (the parse and verdicts kept in *out), 2 accepted with kernels
 * held (also out->n_held and the patches that hold them, out->hide), 0
 * refused (why appended to `why`), <0 out of memory (policy.c). */
int rdc_pol_try_entry(const struct rdc_tables *t, const struct rdc_isa *dev,
		      const struct rdc_target *device, const struct rdc_pol_item *it, const char *cond,
		      unsigned flags, bool native, struct rdc_choice *out, char *why, size_t cap,
		      size_t *wlen);

#endif
