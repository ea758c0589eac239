/* SPDX-License-Identifier: MIT */
/*
 * policy_internal.h — helpers shared by the policy's three files:
 * policy_check.c (rdc_check_kernel, edge-condition checks), policy_need.c
 * (what a device would need) and policy.c (the choice).  Hidden symbols.
 */
#ifndef RDC_POLICY_INTERNAL_H
#define RDC_POLICY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
