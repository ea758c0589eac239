/* SPDX-License-Identifier: MIT */
/*
 * inspect_rules.h — what `rdnacompat inspect --kernels --json` adds per
 * kernel for the kernel rules (docs/RULES.md): the kernarg layout (.args,
 * segment size and alignment, read with the arguments, which the policy's
 * parse skips) and the rules of tables/kernels.tsv that apply on the given
 * card (inspect_rules.c).
 */
#ifndef RDNACOMPAT_INSPECT_RULES_H
#define RDNACOMPAT_INSPECT_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "rdnacompat/codeobj.h"

#include "inspect.h"

/* One entry's code object parsed with its .args, and its SHA-256. */
struct rdc_inspect_rules {
	bool ok;
	struct rdc_codeobj co;
	uint8_t sha256[32];
};

/* Parse entry `ei` of bv (ok false when it cannot be read). */
void rdc_inspect_rules_begin(struct rdc_inspect_rules *ir, struct ictx *c, const struct bundle_view *bv,
			     long ei);
/* Keys "kernarg_size", "kernarg_align", "args" and "rules" for kernel k,
 * written into the JSON object being emitted. */
void rdc_inspect_rules_kernel(const struct rdc_inspect_rules *ir, struct ictx *c,
			      const struct rdc_kernel *k);
void rdc_inspect_rules_end(struct rdc_inspect_rules *ir);

#endif
