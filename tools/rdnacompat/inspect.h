/* SPDX-License-Identifier: MIT */
/*
 * inspect.h — shared state of `rdnacompat inspect`: cmd_inspect.c walks the
 * files and asks the policy; inspect_emit.c writes what was found as text
 * or JSON.
 */
#ifndef RDC_TOOL_INSPECT_H
#define RDC_TOOL_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rdnacompat/error.h"
#include "rdnacompat/policy.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

#include "json_out.h"

struct ictx {
	const struct rdc_tables *t;
	bool have_dev;
	struct rdc_target dev;
	char dev_text[64];
	bool kernels, json;
	unsigned flags;         /* extra policy flags (RDC_POLICY_OPT_IN) */
	FILE *out;
	struct rdc_json j;
	/* current file */
	const char *path;
	uint64_t base;          /* file offset of the scanned region */
	/* totals */
	size_t bundles, native, mapped, missing;
	size_t files_read;      /* files opened and recognised */
	size_t n_hashed, n_demangled; /* code objects hashed, names demangled (--stats) */
	bool stats;
	bool sha256;                  /* --sha256: each bundle's kernels_sha256 (JSON, --kernels) */
	/* first failure inside a scan callback */
	int rc;
	struct rdc_diag d;
};

/* One entry of a bundle as listed. */
struct entry_view {
	const char *id;
	size_t id_len;
	bool device;            /* an AMDGPU code entry */
	struct rdc_target target;
	uint64_t size, offset;  /* offset: in the file, or UINT64_MAX (compressed) */
	unsigned cov;           /* 0 unknown */
	long kernels;           /* -1 unknown (not parsed) */
};

/* One bundle (or a bare code object as a one-entry pseudo-bundle). */
struct bundle_view {
	size_t index;
	uint64_t offset, size;  /* in the file */
	bool compressed;
	bool is_codeobj;        /* a bare code object shown as one pseudo-bundle */
	size_t n;
	struct entry_view *e;
	const uint8_t **data;   /* entry bytes, for counting kernels */
};

/* Write one bundle: its entries and, when `ch` is not NULL, the verdict
 * (and with --kernels the kernels of ch->co). */
void rdc_inspect_emit_bundle(struct ictx *c, const struct bundle_view *bv,
			     const struct rdc_choice *ch);

/* Text mode without a GPU and with --kernels: every entry's kernels. */
void rdc_inspect_list_kernels(struct ictx *c, const struct bundle_view *bv);

#endif
