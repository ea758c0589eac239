/* SPDX-License-Identifier: MIT */
/*
 * target.h — AMDGPU target ids in every spelling users and runtimes use.
 *
 * A target is a processor ("gfx1031", "gfx90a", "gfx11-generic") plus the
 * two target features xnack and sramecc, each unset ("any"), on or off
 * (LLVM AMDGPUUsage "Target ID").  Matching rule (same as comgr and ROCR):
 * a feature the code object leaves unset matches either device value; a
 * feature it sets must equal the device's.
 *
 * Spellings parsed:
 *   gfx1031  gfx90a:xnack+  gfx90a:sramecc-:xnack+  amdgcn-amd-amdhsa--gfx1030
 *   bundle entry ids: hipv4-amdgcn-amd-amdhsa--gfx10-3-generic,
 *     hip-amdgcn-amd-amdhsa-gfx906 (old single-dash form), hcc-..., openmp-...,
 *     host-x86_64-unknown-linux
 *   HSA_OVERRIDE_GFX_VERSION "10.3.0" / "9.0.10" (decimal major.minor.stepping)
 *   KFD gfx_target_version 100301 (decimal MMmmss)
 *   HIP gcnArch 1031 (major*100 + minor*10 + stepping; gfx90a -> 910)
 * Pure functions, no allocation.
 */
#ifndef RDNACOMPAT_TARGET_H
#define RDNACOMPAT_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/error.h"

enum rdc_feature {
	RDC_FEAT_ANY = 0, /* not specified: matches on and off */
	RDC_FEAT_OFF = 1,
	RDC_FEAT_ON  = 2,
};

#define RDC_PROC_MAX 24 /* longest processor name incl. NUL ("gfx10-3-generic" is 15) */

struct rdc_target {
	char proc[RDC_PROC_MAX]; /* "gfx1031", "gfx11-generic" */
	uint8_t xnack;           /* enum rdc_feature */
	uint8_t sramecc;         /* enum rdc_feature */
};

/* Offload kind of a bundle entry. */
enum rdc_offload_kind {
	RDC_KIND_UNKNOWN = 0,
	RDC_KIND_HOST,   /* "host-..." */
	RDC_KIND_HIP,    /* "hip-" : code object v2/v3 era */
	RDC_KIND_HIPV4,  /* "hipv4-" */
	RDC_KIND_HCC,    /* "hcc-" */
	RDC_KIND_OPENMP, /* "openmp-" */
};

struct rdc_bundle_id {
	enum rdc_offload_kind kind;
	char triple[48];          /* "amdgcn-amd-amdhsa" or the host triple */
	bool has_target;          /* false for host entries and target-less ids */
	struct rdc_target target;
};

/* Parse a target id: bare ("gfx90a:xnack+") or ISA-name form
 * ("amdgcn-amd-amdhsa--gfx1030:sramecc-").  `len` may be (size_t)-1 for a
 * NUL-terminated string.  Rejects unknown features, repeated features, empty
 * or over-long processors.  Returns 0 or RDC_E_FORMAT with a message. */
int rdc_target_parse(const char *s, size_t len, struct rdc_target *out, struct rdc_diag *d);

/* Parse a bundle entry id (not NUL-terminated in bundles, hence len). */
int rdc_bundle_id_parse(const char *s, size_t len, struct rdc_bundle_id *out, struct rdc_diag *d);

/* Canonical text "gfx90a:sramecc+:xnack-" (features in LLVM's order,
 * sramecc before xnack; unset ones omitted).  Returns the length that the
 * full text needs (like snprintf); always NUL-terminates when n > 0. */
size_t rdc_target_format(const struct rdc_target *t, char *buf, size_t n);

/* "amdgcn-amd-amdhsa--" + rdc_target_format, as HSA_ISA_INFO_NAME spells it. */
size_t rdc_target_format_isa_name(const struct rdc_target *t, char *buf, size_t n);

/* "hipv4-amdgcn-amd-amdhsa--" + target, the id clang writes in bundles. */
size_t rdc_target_format_bundle_id(const struct rdc_target *t, char *buf, size_t n);

/* Feature-compatibility: may code built for `code` run on `device` as far
 * as xnack/sramecc go?  (Processor names are NOT compared here.) */
bool rdc_target_features_match(const struct rdc_target *code, const struct rdc_target *device);

/* Same processor name and features_match. */
bool rdc_target_matches(const struct rdc_target *code, const struct rdc_target *device);

/* Processor <-> (major, minor, stepping).  gfx90a = (9,0,10), gfx1031 =
 * (10,3,1).  Generic processors have no version: RDC_E_INVAL. */
int rdc_proc_to_version(const char *proc, unsigned *major, unsigned *minor, unsigned *step);
int rdc_proc_from_version(unsigned major, unsigned minor, unsigned step, char *buf, size_t n);

/* HSA_OVERRIDE_GFX_VERSION text ("10.3.0", "9.0.10": decimal, trailing
 * characters rejected exactly like the thunk's sscanf("%u.%u.%u%c"):
 * RDC_E_FORMAT).  Values the thunk would silently mask (major > 63, minor or
 * stepping > 255, or major 0) are refused with RDC_E_RANGE. */
int rdc_parse_gfx_override(const char *s, unsigned *major, unsigned *minor, unsigned *step,
			   struct rdc_diag *d);

/* KFD gfx_target_version (decimal MMmmss) <-> processor. */
int rdc_proc_from_kfd_version(uint32_t v, char *buf, size_t n);
uint32_t rdc_kfd_version_from_parts(unsigned major, unsigned minor, unsigned step);

/* HIP gcnArch (major*100+minor*10+stepping) for a processor; -1 for generics. */
int rdc_proc_gcn_arch(const char *proc);

#endif
