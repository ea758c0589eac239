/* SPDX-License-Identifier: MIT */
/*
 * tables.h — the reviewed data: ISA facts and compatibility edges
 * (tables/isa.tsv, tables/compat.tsv), the card database (tables/cards.tsv)
 * the kernel rules (tables/kernels.tsv; matched by rdnacompat/rules.h) and
 * the legacy [badkernels] refusals an override file may still give.
 *
 * The built-in tables are generated C (build/gen/tables_data.c, from
 * tables/ by tools/tablegen) and are const.  A user file given by
 * RDNACOMPAT_TABLES adds or overrides rows: rdc_tables_load merges it into a
 * new heap object; a bad row is refused with "file:line: reason".
 */
#ifndef RDNACOMPAT_TABLES_H
#define RDNACOMPAT_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/error.h"

struct rdc_isa {
	const char *name;          /* "gfx1031", "gfx11-generic" */
	const char *family;        /* "rdna2", "rdna3", "cdna2", "gcn5", ... */
	uint8_t mach;              /* EF_AMDGPU_MACH value */
	bool generic;
	const char *generic_target;/* the generic this processor belongs to, or NULL */
	uint8_t min_generic_version; /* for generics: lowest accepted version */
	uint8_t default_wave;      /* 32 or 64 */
	bool xnack_supported;
	bool sramecc_supported;
	uint32_t lds_per_workgroup;/* bytes */
	uint32_t vgprs_per_simd_w32; /* allocatable VGPRs per SIMD lane, wave32 */
	uint32_t vgprs_per_simd_w64;
	uint32_t vgpr_granule_w32; /* allocation granule */
	uint32_t vgpr_granule_w64;
	uint32_t max_waves_per_simd;
	const char *source;
};

/* "device may run code built for code_target", in preference order. */
struct rdc_compat_edge {
	const char *device;        /* processor of the card */
	const char *code;          /* processor of the code object */
	unsigned rank;             /* 1 = most preferred */
	const char *condition;     /* "none", or "+"-joined: "vgpr-fit" (each kernel's
	                              VGPRs must fit the device's smaller file),
	                              "user-sgpr-16" (the code lacks LLVM's
	                              UserSGPRInit16Bug workaround the device needs:
	                              its wave32 kernels' descriptors must enable
	                              >= 16 user+system SGPRs), "point-sample",
	                              "msaa-load", "mad-intra-fwd" (the code may lack
	                              the PointSampleAccel / MSAALoadDstSelBug /
	                              MADIntraFwdBug workaround: kernels with the
	                              instructions it protects), "opt-in" (not
	                              established as safe: use only when the user
	                              asks).  tables/README.md, docs/TABLES.md */
	const char *source;
};

enum rdc_card_status {
	RDC_STATUS_UNKNOWN = 0,
	RDC_STATUS_OFFICIAL,       /* on ROCm's Linux support matrix */
	RDC_STATUS_UNOFFICIAL,     /* works with stock ROCm but not listed */
	RDC_STATUS_UNSUPPORTED,    /* no code shipped for its target */
};

struct rdc_card {
	uint16_t vendor;           /* 0x1002 */
	uint16_t device;           /* PCI device id */
	int16_t revision;          /* -1: any */
	const char *name;          /* marketing name(s), "; "-separated */
	const char *target;        /* gfx target */
	int status;                /* enum rdc_card_status */
	const char *kind;          /* "desktop" | "mobile" | "apu" | "pro" | "instinct" */
	const char *source;
};

struct rdc_bad_kernel {
	const char *target;        /* device processor the rule is for */
	const char *code_target;   /* code object processor, "*" any */
	const char *kernel_glob;   /* fnmatch pattern on the kernel name */
	const char *action;        /* "refuse" | "fallback:<name>" */
	const char *reason;
	const char *source;
};

/* A kernel rule (tables/kernels.tsv, docs/RULES.md).  Matching:
 * rdc_rules_match in rdnacompat/rules.h. */
enum rdc_rule_action {
	RDC_RULE_OCCUPANCY = 1,    /* answer a 0/failed occupancy query from the descriptor */
	RDC_RULE_FALLBACK,         /* route launches to kernel `fallback` (same .args layout) */
	RDC_RULE_DENY,             /* hipModuleGetFunction: not found */
	RDC_RULE_ALLOW,            /* overrides every other rule that matches */
	RDC_RULE_PREFER,           /* load another compatible target's entry of the code
	                              object holding the kernel (policy_prefer.c) */
};

struct rdc_kernel_rule {
	const char *pattern;       /* fnmatch glob on the mangled or the demangled name */
	const char *scope;         /* as written: "*", "<lib glob>", "sha256:<hex>", or both "+"-joined */
	const char *scope_lib;     /* library file-name glob (basename), NULL: any */
	const char *scope_sha256;  /* 64 lowercase hex digits of the code object, NULL: any */
	const char *targets;       /* ","-joined processors and/or families ("rdna2"), or "*" */
	const char *runtime;       /* HIP runtime range as written ("*", ">=7.1", ">=6.4,<7.1") */
	uint32_t rt_min;           /* inclusive, HIP_VERSION encoding (major*10000000 + minor*100000 + patch) */
	uint32_t rt_max;           /* exclusive; UINT32_MAX: no upper bound */
	int action;                /* enum rdc_rule_action */
	const char *fallback;      /* the fallback kernel for RDC_RULE_FALLBACK, else NULL */
	const char *prefer;        /* the processor for RDC_RULE_PREFER ("gfx1151"), else NULL */
	bool provisional;          /* status "provisional": applied only with RDNACOMPAT_OPT_IN=1 */
	const char *reason;
	const char *source;
	bool user;                 /* parsed at run time (a RDNACOMPAT_TABLES row), not built
	                              in: such a row is never cancelled by a built-in allow */
};

struct rdc_tables {
	const struct rdc_isa *isa;          size_t n_isa;
	const struct rdc_compat_edge *edges; size_t n_edges;
	const struct rdc_card *cards;       size_t n_cards;
	const struct rdc_bad_kernel *bad;   size_t n_bad;
	const struct rdc_kernel_rule *rules; size_t n_rules;
	void *owned_;                       /* NULL for the built-in tables */
};

/* The tables compiled into this build (static, never freed). */
const struct rdc_tables *rdc_tables_builtin(void);

/* Built-in tables merged with the user file at `path` (rows with the same
 * key replace built-in ones).  Free with rdc_tables_free. */
int rdc_tables_load(const char *path, struct rdc_tables **out, struct rdc_diag *d);
void rdc_tables_free(struct rdc_tables *t);

const struct rdc_isa *rdc_isa_find(const struct rdc_tables *t, const char *proc);
/* gfx10 and later group CUs in pairs (WGPs: two CUs of two SIMD32 each);
 * a row whose name is no gfx version decides by having wave32 VGPRs. */
bool rdc_isa_has_wgp(const struct rdc_isa *isa);
/* Cards: exact device+revision first, then revision -1. */
const struct rdc_card *rdc_card_find_pci(const struct rdc_tables *t, uint16_t vendor,
					 uint16_t device, int revision);
/* Case-insensitive substring search over names and targets; returns count
 * written to out (up to max). */
size_t rdc_card_search(const struct rdc_tables *t, const char *query,
		       const struct rdc_card **out, size_t max);
/* The card a name means: one of whose names ("; "-separated) the query is,
 * with or without a leading word such as "AMD Radeon ", case-insensitive;
 * else the only card rdc_card_search finds.  NULL when none or several
 * match (never resolved silently): *n_hits says how many matched (up to
 * max of them in hits, for the message). */
const struct rdc_card *rdc_card_by_name(const struct rdc_tables *t, const char *query,
					const struct rdc_card **hits, size_t max, size_t *n_hits);
const char *rdc_card_status_name(int status);

/* The compat edges of `device` sorted by rank (most preferred first);
 * returns the count written to out (up to max). */
size_t rdc_compat_edges_for(const struct rdc_tables *t, const char *device,
			    const struct rdc_compat_edge **out, size_t max);

#endif
