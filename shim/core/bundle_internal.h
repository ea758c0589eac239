/* SPDX-License-Identifier: MIT */
/*
 * bundle_internal.h — what the bundle*.c files share and nobody else uses:
 * little-endian loads/stores, the CCOB header sizes, and the entry points
 * between the plain-bundle parser (bundle.c) and the CCOB code
 * (bundle_ccob.c).  Not installed; not part of the API.
 */
#ifndef RDC_BUNDLE_INTERNAL_H
#define RDC_BUNDLE_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "rdnacompat/bundle.h"

/* Sizes from clang/lib/Driver/OffloadBundler.cpp (RawCompressedBundleHeader). */
#define RDC_CCOB_MAGIC_LEN 4
#define RDC_CCOB_COMMON_LEN 8  /* magic, u16 version, u16 method */
#define RDC_CCOB_V1_HDR 20     /* + u32 uncompressed, u64 hash */
#define RDC_CCOB_V2_HDR 24     /* + u32 total, u32 uncompressed, u64 hash */
#define RDC_CCOB_V3_HDR 32     /* + u64 total, u64 uncompressed, u64 hash */
#define RDC_BUNDLE_HDR_LEN 32  /* magic + u64 count */
#define RDC_BUNDLE_DESC_LEN 24 /* u64 offset, size, id length */

static inline uint16_t rdc_ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t rdc_ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rdc_ld64(const uint8_t *p)
{
	return (uint64_t)rdc_ld32(p) | (uint64_t)rdc_ld32(p + 4) << 32;
}

static inline void rdc_st16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void rdc_st32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void rdc_st64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* bundle.c: parse a plain bundle of `whole` bytes of which [p, p+avail)
 * are at hand (avail == whole: all of it; avail < whole: a prefix holding
 * the entry table, whose entries are then checked against `whole` and get
 * data NULL).  `ctx` is NULL for input bytes, or a phrase ("decompressed")
 * for a CCOB's payload: then error offsets are reported as 0 (the CCOB
 * start) and the message names the decompressed byte. */
int rdc_bundle_parse_plain_(const uint8_t *p, uint64_t avail, uint64_t whole, const char *ctx,
			    struct rdc_bundle *b, struct rdc_diag *d);

/* bundle_ccob.c: the entry table of a CCOB at `p` from a decompressed
 * prefix of at most RDC_TABLE_PREFIX bytes (entries' data NULL). */
#define RDC_TABLE_PREFIX (64u << 10)
int rdc_bundle_parse_ccob_table_(const uint8_t *p, uint64_t avail, struct rdc_bundle *b,
				 struct rdc_diag *d);

/* bundle_ccob.c: parse/decompress a CCOB at `p` into `b` (owned buffer);
 * `check_hash`: compare the stored MD5 with the decompressed bytes'. */
int rdc_bundle_parse_ccob_(const uint8_t *p, uint64_t avail, bool check_hash,
			   struct rdc_bundle *b, struct rdc_diag *d);

/* bundle_ccob.c: extent of a CCOB at `p`. */
int rdc_bundle_extent_ccob_(const uint8_t *p, uint64_t avail, uint64_t *extent,
			    struct rdc_diag *d);

#endif
