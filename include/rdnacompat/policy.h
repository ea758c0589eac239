/* SPDX-License-Identifier: MIT */
/*
 * policy.h — the mapping decision: given a device's true target, the tables
 * and one bundle (or code object), which entry runs and why.
 *
 * Decisions are pure: inputs in, a struct rdc_choice out.  Every refusal
 * names the kernel, the check and the numbers.
 *
 * Per-kernel resource check for a mapped entry (device limits from
 * tables/isa.tsv): wave size supported; VGPRs rounded up to the device's
 * allocation granule x the waves per SIMD that the kernel's
 * max_flat_workgroup_size needs (WGP or CU mode from its descriptor) fit the
 * device's register file; LDS fits; xnack/sramecc match.
 */
#ifndef RDNACOMPAT_POLICY_H
#define RDNACOMPAT_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/codeobj.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

enum rdc_verdict { RDC_VERDICT_NATIVE = 0, RDC_VERDICT_MAPPED, RDC_VERDICT_MISSING };

struct rdc_kernel_verdict {
	const char *kernel;        /* points into the code object's kernel */
	bool ok;
	char check[24];            /* "vgpr", "lds", "wave", "scratch", "xnack", "badlist" */
	char reason[200];
};

struct rdc_choice {
	enum rdc_verdict verdict;
	long entry;                /* index into the bundle's entries, -1 if missing */
	struct rdc_target chosen;  /* target of the chosen entry */
	unsigned edge_rank;        /* 0 for native */
	char reason[400];          /* one sentence: why this entry / why none */
	char need[160];            /* for missing: "gfx11 family or gfx11-generic code" */
	size_t n_kernels;          /* kernels in the chosen entry */
	size_t n_refused;          /* kernels that failed checks (in refused candidates) */
	struct rdc_kernel_verdict *kernels; /* n_kernels verdicts when asked for; owned */
};

enum rdc_policy_flags {
	RDC_POLICY_KERNELS = 1,    /* fill choice->kernels */
};

/* Check one kernel of a code object built for `code_isa` against `dev`. */
bool rdc_check_kernel(const struct rdc_tables *t, const struct rdc_isa *dev,
		      const struct rdc_target *dev_target, const struct rdc_kernel *k,
		      struct rdc_kernel_verdict *v);

/* Choose for one bundle.  Tries the exact entry, then each compatible entry
 * in table order; a candidate is accepted only when every kernel passes. */
int rdc_policy_choose(const struct rdc_tables *t, const struct rdc_target *device,
		      const struct rdc_bundle *b, unsigned flags, struct rdc_choice *out,
		      struct rdc_diag *d);

/* Same for a bare code object (hipModuleLoadData of an ELF image). */
int rdc_policy_choose_codeobj(const struct rdc_tables *t, const struct rdc_target *device,
			      const void *co, size_t n, unsigned flags, struct rdc_choice *out,
			      struct rdc_diag *d);

void rdc_choice_free(struct rdc_choice *c);

const char *rdc_verdict_name(enum rdc_verdict v);

#endif
