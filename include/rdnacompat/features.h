/* SPDX-License-Identifier: MIT */
/*
 * features.h — LLVM's subtarget features of each processor and generic
 * target (tables/features.tsv, docs/TABLES.md): what a target's code may use
 * (instruction, capability, abi and register features) and which hardware
 * workarounds it carries.  tools/tablegen proves every compat edge from
 * them; nothing at run time reads them (they are not compiled into the
 * shim).  Parsed and validated by shim/core/tables_parse.c.
 *
 * Three kinds of row:
 *   feature  one LLVM feature: its class and, for a workaround, the compat
 *            condition token the policy decides per kernel when a code
 *            object lacks it ("-": none exists; "exempt": provably never
 *            matters for compute kernels), what it protects, and the
 *            instruction feature it only concerns ("guards").
 *   set      one FeatureISAVersion list of AMDGPU.td: features and other
 *            sets ("@name"); "Feature^tag" marks a feature added to the list
 *            later (tag: the llvm-project pull request), so objects from
 *            compilers before it lack it.
 *   target   a processor or generic target of tables/isa.tsv and its
 *            features (usually one "@set"), as GCNProcessors.td maps it.
 */
#ifndef RDNACOMPAT_FEATURES_H
#define RDNACOMPAT_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

#include "rdnacompat/error.h"

enum rdc_feat_class {
	RDC_FC_INSTRUCTION = 1, /* instructions or encodings code may use: X's must be a subset of D's */
	RDC_FC_CAPABILITY,      /* hardware behaviour code may rely on (fewer waits): subset, as above */
	RDC_FC_ABI,             /* how a wave starts (packed ids, flat scratch): must be equal */
	RDC_FC_REGISTER,        /* register file size (1.5x VGPRs): larger code needs the feature's token */
	RDC_FC_WORKAROUND,      /* a bug/hazard LLVM works around: D's must be a subset of X's */
	RDC_FC_RESOURCE,        /* LDS size: checked per kernel by the policy (isa.tsv) */
	RDC_FC_TARGET,          /* xnack/sramecc support, code object v6: checked per entry */
	RDC_FC_TUNING,          /* scheduling and cost model only (LDS banks, FMA/f64 rates) */
};

struct rdc_llvm_feature {
	const char *name;     /* LLVM's name without "Feature": "PointSampleAccel" */
	int cls;              /* enum rdc_feat_class */
	const char *token;    /* workaround/register: condition token, "exempt", or NULL */
	const char *protects; /* what it protects ("image-sample"), or NULL */
	const char *guards;   /* workaround moot for code without this feature, or NULL */
	const char *since;    /* free text: release / pull request, or NULL */
	const char *llvm;     /* "file@commit" it was read at */
	const char *source;
	unsigned line;
};

struct rdc_feat_list {
	const char *name;    /* "ISAVersion11_5_0" or "gfx1150" */
	bool target;         /* a target row (else a set row) */
	const char *members; /* as written: ","-joined names, "@set", "Name^tag" */
	const char *since;
	const char *llvm;
	const char *source;
	unsigned line;
};

struct rdc_features {
	const char *file;
	struct rdc_llvm_feature *feat;
	size_t n_feat;
	struct rdc_feat_list *list;
	size_t n_list;
	void *pool_; /* owned strings */
};

/* One feature of an expanded target: the feature, and the tag of the pull
 * request that added it to the list it came from (NULL: there from the
 * start). */
struct rdc_feat_member {
	const struct rdc_llvm_feature *f;
	const char *late;
};

/* An expanded target: its features (each once) and the "file@commit" of the
 * AMDGPU.td its sets were read at (one commit per target). */
struct rdc_feat_target {
	const struct rdc_feat_list *row;
	struct rdc_feat_member *m;
	size_t n;
	const char *commit;
};

/* The header line of tables/features.tsv. */
const char *rdc_features_columns(void);

/* Parse tables/features.tsv (comments, the header, rows) and validate every
 * row and the references between rows (known features, sets defined once,
 * no cycles, tokens known to the compat parser).  Errors are
 * "file:line: reason".  Free with rdc_features_free (also on error). */
int rdc_features_parse(struct rdc_features *f, const char *text, size_t len, const char *file,
		       struct rdc_diag *d);
void rdc_features_free(struct rdc_features *f);

const struct rdc_llvm_feature *rdc_llvm_feature_find(const struct rdc_features *f, const char *name);
const struct rdc_feat_list *rdc_feat_target_find(const struct rdc_features *f, const char *name);

/* Expand target `name` into its features.  RDC_E_NOTFOUND when no target
 * row names it.  Free with rdc_feat_target_free. */
int rdc_feat_target_expand(const struct rdc_features *f, const char *name,
			   struct rdc_feat_target *out, struct rdc_diag *d);
void rdc_feat_target_free(struct rdc_feat_target *t);
/* The member for feature `name` in an expanded target, or NULL. */
const struct rdc_feat_member *rdc_feat_target_has(const struct rdc_feat_target *t, const char *name);

/* Is `tok` (length n) one of the compat condition tokens tables_parse.c
 * accepts? */
bool rdc_compat_token_known(const char *tok, size_t n);

#endif
