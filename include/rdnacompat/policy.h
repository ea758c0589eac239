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
	const char *kernel;        /* points into the code object's kernel (for
	                              choice->kernels: into choice->co, which the
	                              choice owns) */
	const struct rdc_kernel *k;/* the kernel checked (same lifetime) */
	bool ok;
	bool held;                 /* not ok only for an instruction condition of
	                              the edge (policy_isa.c): the entry runs with
	                              this kernel held — renamed so that the
	                              runtime finds it by no name
	                              (rdc_codeobj_hide_patches) — and the others
	                              as they are */
	char check[24];            /* "vgpr", "lds", "wave", "waves", "xnack",
	                              "sramecc", "badlist"; "" when ok */
	char reason[200];          /* the numbers, without the kernel name */
	/* The numbers of the VGPR check (also filled when ok). */
	uint32_t wave;             /* wave size used: 32 or 64 */
	uint32_t vgprs_alloc;      /* vgpr_count rounded up to the device granule */
	uint32_t waves_per_simd;   /* needed for max_flat_workgroup_size */
	uint32_t vgprs_needed;     /* vgprs_alloc * waves_per_simd */
	uint32_t vgprs_have;       /* device register file per SIMD lane */
	bool wgp_mode;
};

struct rdc_choice {
	enum rdc_verdict verdict;
	long entry;                /* index into the bundle's entries, -1 if missing */
	struct rdc_target chosen;  /* target of the chosen entry */
	unsigned edge_rank;        /* 0 for native */
	char reason[400];          /* one sentence: why this entry / why none */
	char need[160];            /* for missing: "gfx11 family or gfx11-generic code" */
	size_t n_kernels;          /* kernels in the chosen entry (or, when missing,
	                              in the last refused candidate); 0 if unparsed */
	size_t n_refused;          /* kernels that failed checks (in refused candidates) */
	size_t n_held;             /* kernels of the chosen entry that are held
	                              (their verdicts: held true) */
	bool hold_failed;          /* some kernel of some candidate failed a
	                              check it can be held for (held or
	                              refused): the choice depends on
	                              RDC_POLICY_HOLD */
	struct rdc_patch *hide;    /* the patches that hold them, offsets into the
	                              chosen entry; owned (NULL when none) */
	size_t n_hide;
	size_t n_candidates;       /* compatible entries tried (not counting native) */
	long refused_entry;        /* last refused candidate entry, -1 if none */
	struct rdc_kernel_verdict *kernels; /* n_kernels verdicts when asked for; owned */
	struct rdc_codeobj *co;    /* parsed entry the verdicts point into; owned
	                              (NULL when nothing was parsed) */
	bool by_name;              /* the chosen entry's kernels were checked by
	                              name only (RDC_POLICY_SYMBOLS) */
	/* A `prefer` rule (rdc_policy_prefer).  preferred: it chose this entry
	 * (verdict mapped) over `prefer_over` (the entry chosen without it);
	 * prefer_own: that entry was the device's own (native), which a
	 * rebuilt bundle must then leave out.  prefer_note: which row matched
	 * which kernel, and, when the card's entry was kept, why; "" when no
	 * prefer row matched. */
	bool preferred;
	bool prefer_own;
	long prefer_over;
	char prefer_note[320];
	bool args;                 /* co's kernels carry their .args (RDC_POLICY_ARGS) */
};

enum rdc_policy_flags {
	RDC_POLICY_KERNELS = 1,    /* fill choice->kernels */
	RDC_POLICY_OPT_IN  = 2,    /* also try edges whose condition has "opt-in" */
	RDC_POLICY_SYMBOLS = 4,    /* read code for the device's own limits (native,
	                              or an unconditioned edge to a target with the
	                              same limits) from its symbol table, decoding
	                              no metadata: its kernel checks are by name
	                              only anyway (the shim; tools that show every
	                              kernel's numbers leave it off) */
	RDC_POLICY_HOLD    = 16,   /* a kernel that fails only checks it can be
	                              held for (an instruction condition, the
	                              card's limits, a workaround its descriptor
	                              lacks) is held, not refused (its entry may
	                              run with it held): for clients that can
	                              keep the runtime from launching it
	                              (rdc_codeobj_hide_patches, or a deny route) */
	RDC_POLICY_ARGS    = 8,    /* also read each kernel's .args into choice->co
	                              (a tool showing them needs no second parse);
	                              an entry whose .args cannot be read is decided
	                              as without the flag, choice->args false */
};

/* Check one kernel of a code object built for `code` against device `dev`
 * (its isa row) / `dev_target`.  Fills `v` (always) and returns v->ok. */
bool rdc_check_kernel(const struct rdc_tables *t, const struct rdc_isa *dev,
		      const struct rdc_target *dev_target, const struct rdc_target *code,
		      const struct rdc_kernel *k, struct rdc_kernel_verdict *v);

/* Only the bad-kernel rules (what code for the device's own limits is held
 * to), for a kernel known by name: fills `v`, returns v->ok. */
bool rdc_check_kernel_name(const struct rdc_tables *t, const struct rdc_isa *dev,
			   const struct rdc_target *code, const struct rdc_kernel *k,
			   struct rdc_kernel_verdict *v);

/* What a device would need (from the compat edges): "gfx1030..gfx1036 or
 * gfx10-3-generic code".  Returns the length like snprintf. */
size_t rdc_policy_need(const struct rdc_tables *t, const char *device_proc, char *buf,
		       size_t n);

/* Would rdc_policy_choose answer "native" for `device` from the entry ids
 * alone?  True when an entry's bundle id (hipv4) names a target that
 * matches the device and no bad-kernel rule concerns the device's own code
 * (then the native entry's kernels are not read at all).  Works on a
 * table-only bundle (rdc_bundle_parse_table); false means "read it whole
 * and decide", not "not native". */
bool rdc_policy_native_by_id(const struct rdc_tables *t, const struct rdc_target *device,
			     const struct rdc_bundle *b);

/* The entry rdc_policy_choose would map to `device` (which has no entry of
 * its own), when that is known from the entry ids alone: every usable
 * entry has a hipv4 id, and the first candidate in edge rank order is
 * reached by an edge without condition from a target with the device's
 * limits, is not generic, and no bad-kernel rule concerns it — such code is
 * refused only when it cannot be read.  -1 means "read it and decide", not
 * "missing".  Works on a table-only bundle. */
long rdc_policy_mapped_by_id(const struct rdc_tables *t, const struct rdc_target *device,
			     const struct rdc_bundle *b, unsigned flags);

/* Choose for one bundle.  Tries the exact entry, then each compatible entry
 * in table order; a candidate is accepted only when every kernel passes
 * rdc_check_kernel and the edge's conditions ("user-sgpr-16": each
 * descriptor enables >= 16 user + system SGPRs; "opt-in" edges only with
 * RDC_POLICY_OPT_IN).  With RDC_POLICY_HOLD, a candidate whose only
 * failures are checks a kernel can be held for (the instruction conditions
 * of policy_isa.c: a kernel uses instructions whose workaround the code
 * lacks; the card's limits: VGPRs, waves, LDS, wave size; user-sgpr-16) is
 * taken when no later candidate passes whole: those kernels are held
 * (choice->n_held, choice->hide) and the others run.
 * When they cannot be held alone (rdc_codeobj_hide_patches refuses) the
 * candidate is refused, as a failing kernel refuses it. */
int rdc_policy_choose(const struct rdc_tables *t, const struct rdc_target *device,
		      const struct rdc_bundle *b, unsigned flags, struct rdc_choice *out,
		      struct rdc_diag *d);

/* Same for a bare code object (hipModuleLoadData of an ELF image). */
int rdc_policy_choose_codeobj(const struct rdc_tables *t, const struct rdc_target *device,
			      const void *co, size_t n, unsigned flags, struct rdc_choice *out,
			      struct rdc_diag *d);

/* Where a code object comes from, for `prefer` rules (kernels.tsv). */
struct rdc_prefer_ctx {
	const char *lib;           /* the library (or program) file: scope; NULL unknown */
	uint32_t runtime;          /* HIP version (HIP_VERSION encoding); 0: unknown, so
	                              runtime ranges are not checked */
	bool provisional;          /* apply provisional rows (RDNACOMPAT_OPT_IN=1) */
};

/* Apply a `prefer` rule to a choice made by rdc_policy_choose for bundle
 * `b`: when a kernel of the chosen entry (native or mapped) matches a
 * `prefer:<P>` row (user rows first; an `allow` row cancels it as it
 * cancels other rows), the bundle's entry for P is chosen instead — only
 * when the tables have an edge device <- P (an opt-in edge only with
 * RDC_POLICY_OPT_IN), the entry's features fit the device, and every kernel
 * passes the per-kernel checks a retargeted entry gets.  Returns 1 when *c
 * was replaced (verdict mapped, preferred set), 0 when kept (prefer_note
 * says why when a row matched), <0 on allocation failure (*c untouched). */
int rdc_policy_prefer(const struct rdc_tables *t, const struct rdc_target *device,
		      const struct rdc_bundle *b, unsigned flags, const struct rdc_prefer_ctx *ctx,
		      struct rdc_choice *c, struct rdc_diag *d);

/* The last check before a retargeted object is handed to a device: may
 * `device` run the code object `obj` (`size` bytes) as its ELF header says
 * it is (machine, xnack/sramecc) — the device's own processor, or a compat
 * edge device <- that processor (an opt-in edge only with
 * RDC_POLICY_OPT_IN)?  The edge's per-kernel conditions are the policy's
 * (rdc_policy_choose); this guards against handing over another entry than
 * the one decided.  0 when it may; else RDC_E_REFUSED with why in `d`.
 * `code_proc` (may be NULL with len 0) gets the object's processor. */
int rdc_policy_handover_check(const struct rdc_tables *t, const struct rdc_target *device,
			      const void *obj, size_t size, unsigned flags, char *code_proc,
			      size_t code_proc_len, struct rdc_diag *d);

/* Code the runtime loads by itself (HIP 7 and a generic entry on a card the
 * generic target covers): the per-kernel instruction conditions of the
 * tables' edge device <- the code's processor (policy_isa.c: point-sample,
 * msaa-load, mad-intra-fwd), decided as for a mapped entry but only
 * reported.  n_lacking: kernels that lack a workaround the card needs (every
 * kernel when the edge names a condition the policy does not evaluate); the
 * first such kernel with its check and reason. */
struct rdc_isa_report {
	char code[RDC_PROC_MAX];
	size_t n_kernels, n_lacking;
	char first_kernel[128];
	char first_check[24];
	char first_reason[200];
};
/* 0 (r filled; n_lacking 0 when the edge has no such condition or no kernel
 * needs it), or <0 when the code object cannot be read. */
int rdc_policy_isa_check(const struct rdc_tables *t, const char *device_proc, const void *data, size_t size,
			 struct rdc_isa_report *r);

/* The patches that hold the kernels of code object `code` (as shipped,
 * for its own target) that lack a workaround `device_proc` needs — the
 * kernels rdc_policy_choose holds — computed on `dst` (`code` itself, or a
 * retargeted copy of it: rdc_codeobj_hide_patches).  *n_held of them;
 * none (0, no patches) when the edge has no instruction condition or every
 * kernel is clean.  Errors as rdc_codeobj_hide_patches'; an edge condition
 * the policy does not evaluate is RDC_E_UNSUPPORTED. */
/* The names of the kernels rdc_policy_hold_patches would hold in `code`
 * (the kernels rdc_policy_choose holds): *names is one malloc'd block
 * (the caller frees it) of *n pointers followed by their strings. */
int rdc_policy_held_kernels(const struct rdc_tables *t, const char *device_proc, const void *code,
			    size_t code_size, char ***names, size_t *n, struct rdc_diag *d);

int rdc_policy_hold_patches(const struct rdc_tables *t, const char *device_proc, const void *code,
			    size_t code_size, const void *dst, size_t dst_size, struct rdc_patch **patches,
			    size_t *n_patches, size_t *n_held, struct rdc_diag *d);

/* Does compat edge `e` carry an instruction condition (one whose kernels
 * the policy may hold: point-sample, msaa-load, mad-intra-fwd)? */
bool rdc_edge_isa_condition(const struct rdc_compat_edge *e);
/* May code over edge `e` have kernels held on its device: an instruction
 * condition, user-sgpr-16, or limits other than the device's (a kernel may
 * need more VGPRs, waves or LDS than the card has)? */
bool rdc_edge_may_hold(const struct rdc_tables *t, const struct rdc_compat_edge *e);
/* Is code over edge `e` checked by its instructions: an instruction
 * condition, or a condition word the policy does not evaluate (then every
 * kernel counts as lacking, rdc_policy_isa_check)? */
bool rdc_edge_checks_instructions(const struct rdc_compat_edge *e);

void rdc_choice_free(struct rdc_choice *c);

const char *rdc_verdict_name(enum rdc_verdict v);

#endif
