/* SPDX-License-Identifier: MIT */
/*
 * fuzz_fatbin.c — libFuzzer target for the __hipRegisterFatBinary wrapper
 * path (shim/hooks/hook_fatbin.c process()), minus what needs a process:
 * the input stands for the loaded segment the wrapper's bundle pointer
 * points into; the bundle is measured (rdc_bundle_extent), parsed, decided
 * by the policy with the built-in tables for a simulated device of each of
 * gfx1031, gfx1101 and gfx1151 (opt-in edges on for the last), and, when an
 * entry is mapped, the bundle is rebuilt by copy with the retargeted entry
 * added (rdc_remap_copy, the same code the hook runs when the bytes are not
 * file-backed).  Beyond "no crash": a rebuilt bundle parses back and has an
 * entry for the device's target; the input is never written.  Built and run
 * by `make fuzz-smoke` (tests/fuzz/smoke-all.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/policy.h"
#include "shim.h"

static uint64_t sum(const uint8_t *b, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static void one_device(const struct rdc_bundle *b, const char *proc, unsigned flags)
{
	struct rdc_target dev;
	struct rdc_diag d;
	if (rdc_target_parse(proc, (size_t)-1, &dev, &d) != 0)
		abort();
	struct rdc_choice c;
	if (rdc_policy_choose(rdc_tables_builtin(), &dev, b, flags, &c, &d) != 0)
		return;   /* the hook passes through */
	if (c.verdict == RDC_VERDICT_MAPPED) {
		if (c.entry < 0 || (size_t)c.entry >= b->n_entries)
			abort();
		struct rdc_add a;
		memset(&a, 0, sizeof a);
		a.from = c.entry;
		a.to = c.chosen;
		snprintf(a.to.proc, sizeof a.to.proc, "%s", dev.proc);
		rdc_target_format_bundle_id(&a.to, a.id, sizeof a.id);
		a.n_patches = RDC_ADD_PATCHES;
		a.have_patches = c.co && rdc_codeobj_retarget_patches_from(c.co, &a.to, a.patches,
									    &a.n_patches, NULL) == 0;
		if (!a.have_patches)
			a.n_patches = 0;
		/* both layouts: with the original entries and the added one alone */
		for (int originals = 0; originals < 2; originals++) {
			struct rdc_region r;
			memset(&r, 0, sizeof r);
			if (rdc_remap_copy(b, &a, 1, originals, NULL, &r, &d) == 0) {
				struct rdc_bundle nb;
				if (rdc_bundle_parse(r.bundle, r.bundle_size, &nb, &d) != 0)
					abort();   /* the runtime would get a bundle it cannot read */
				bool found = false;
				for (size_t i = 0; i < nb.n_entries; i++)
					found |= nb.entries[i].id_len == strlen(a.id) &&
						 memcmp(nb.entries[i].id, a.id, nb.entries[i].id_len) == 0;
				if (!found || nb.n_entries != (originals ? b->n_entries : 0) + 1)
					abort();
				rdc_bundle_free(&nb);
			}
			rdc_region_free(&r);
		}
	}
	rdc_choice_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t before = sum(data, size);
	uint64_t extent = 0;
	struct rdc_diag d;
	if (rdc_bundle_extent(data, size, &extent, &d) == 0) {
		if (extent > size)
			abort();
		struct rdc_bundle b;
		if (rdc_bundle_parse(data, extent, &b, &d) == 0) {
			one_device(&b, "gfx1031", RDC_POLICY_KERNELS);
			one_device(&b, "gfx1101", RDC_POLICY_KERNELS);
			one_device(&b, "gfx1151", RDC_POLICY_KERNELS | RDC_POLICY_OPT_IN);
			rdc_bundle_free(&b);
		}
	}
	if (sum(data, size) != before)
		abort();
	return 0;
}
