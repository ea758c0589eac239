/* SPDX-License-Identifier: MIT */
/*
 * inspect_rules.h — what `rdnacompat inspect --kernels --json` adds per
 * kernel for the kernel rules (docs/RULES.md): the kernarg layout (.args,
 * segment size and alignment) and the rules of tables/kernels.tsv that apply
 * on the given card (inspect_rules.c).  The .args come from the policy's own
 * parse (RDC_POLICY_ARGS); a kernel's name is demangled and the code object
 * hashed only when a rule that could apply needs it (rdc_rules_needs).
 */
#ifndef RDNACOMPAT_INSPECT_RULES_H
#define RDNACOMPAT_INSPECT_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "rdnacompat/codeobj.h"

#include "inspect.h"

/* One entry's code object with its .args, and its SHA-256 once computed. */
struct rdc_inspect_rules {
	bool ok;                    /* co readable with its .args */
	bool own;                   /* co parsed here (the choice's lacked .args) */
	bool any_rule;              /* a rule row admits this library on the card */
	const struct rdc_codeobj *co;
	struct rdc_codeobj parsed;
	const uint8_t *bytes;       /* the entry, hashed on demand */
	size_t size;
	bool have_sum;
	uint8_t sha256[32];
};

/* Prepare for entry `ei` of bv, whose parsed code object is ch->co (ok false
 * when it cannot be read). */
void rdc_inspect_rules_begin(struct rdc_inspect_rules *ir, struct ictx *c, const struct bundle_view *bv,
			     long ei, const struct rdc_choice *ch);
/* Keys "kernarg_size", "kernarg_align", "args" and "rules" for kernel k (of
 * ch->co), written into the JSON object being emitted. */
void rdc_inspect_rules_kernel(struct rdc_inspect_rules *ir, struct ictx *c, const struct rdc_kernel *k);
void rdc_inspect_rules_end(struct rdc_inspect_rules *ir);
/* The entry's SHA-256 as 64 hex digits (hashed now unless already), for
 * --sha256; false when the entry could not be read. */
bool rdc_inspect_rules_sha256_hex(struct rdc_inspect_rules *ir, struct ictx *c, char hex[65]);

#endif
