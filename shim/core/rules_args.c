/* SPDX-License-Identifier: MIT */
/*
 * rules_args.c — the precondition of a `fallback` rule: the fallback kernel
 * declares exactly the original's kernarg layout (segment size and
 * alignment; every .args entry's offset, size and value kind, hidden ones
 * included), so the bytes the caller packed mean the same to both.  The
 * first differing .args entry is reported before the segment size (which a
 * shifted entry changes too).  Pure.
 */
#include "rdnacompat/rules.h"

#include <stdio.h>
#include <string.h>

static const char *kind(const struct rdc_kernel_arg *a)
{
	return a->value_kind ? a->value_kind : "?";
}

int rdc_rules_args_equal(const struct rdc_kernel *a, const struct rdc_kernel *b, char *why, size_t n)
{
	if (why && n)
		why[0] = '\0';
	size_t m = a->n_args > b->n_args ? a->n_args : b->n_args;
	for (size_t i = 0; i < m; i++) {
		const struct rdc_kernel_arg *x = i < a->n_args ? &a->args[i] : NULL;
		const struct rdc_kernel_arg *y = i < b->n_args ? &b->args[i] : NULL;
		if (x && y && x->offset == y->offset && x->size == y->size &&
		    !strcmp(kind(x), kind(y)))
			continue;
		if (why) {
			char l[96], r[96];
			if (x)
				snprintf(l, sizeof l, "offset %u size %u %s", x->offset, x->size, kind(x));
			else
				snprintf(l, sizeof l, "none");
			if (y)
				snprintf(r, sizeof r, "offset %u size %u %s", y->offset, y->size, kind(y));
			else
				snprintf(r, sizeof r, "none");
			snprintf(why, n, ".args entry %zu%s%s: %s vs %s", i, x && x->name ? " " : "",
				 x && x->name ? x->name : "", l, r);
		}
		return 1;
	}
	if (a->kernarg_size != b->kernarg_size) {
		if (why)
			snprintf(why, n, "kernarg_segment_size %u vs %u", a->kernarg_size, b->kernarg_size);
		return 1;
	}
	if (a->kernarg_align != b->kernarg_align) {
		if (why)
			snprintf(why, n, "kernarg_segment_align %u vs %u", a->kernarg_align, b->kernarg_align);
		return 1;
	}
	return 0;
}
