/* SPDX-License-Identifier: MIT */
/*
 * dcache_file.h — the decision cache's file format (dcache_file.c): header,
 * records, checksum, and the one function that turns a file's bytes into
 * validated records.  Pure (no process state, no I/O), so the fuzzer
 * (tests/fuzz/fuzz_dcache.c) runs exactly what the shim runs at load.
 *
 * Layout: struct rdc_dc_hdr, then n_recs × (struct rdc_dc_rec followed by
 * its ref_bytes of refused- and held-kernel "name\0check\0reason\0" triples
 * (a held kernel's check stored as "+check") and its
 * n_patches struct rdc_patch — a Tensile object has one per kernel, so
 * hundreds), then a 64-bit FNV-1a of everything before it.  Entries are
 * stored by id and size (magic ...\4; ...\3 stored indices, which another
 * process's request order made point at another target's code).  The same shim build writes and
 * reads it (the build is in the key), so records are the in-memory struct.
 */
#ifndef RDNACOMPAT_DCACHE_FILE_H
#define RDNACOMPAT_DCACHE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "shim.h"

#define RDC_DC_MAGIC "RDCDC\0\0\4"
#define RDC_DC_MAX_FILE (64u << 20)
#define RDC_DC_MAX_REFUSED 256
#define RDC_DC_MAX_PATCHES 65536      /* per record: more are not cached */
#define RDC_DC_FNV0 1469598103934665603ull
#define RDC_DC_ID_MAX 128             /* a bundle entry id, with its NUL */

struct rdc_dc_hdr {
	char magic[8];
	uint32_t hdr_size, rec_size;
	uint64_t shim_id, tables_digest;
	uint32_t flags, n_recs;
	uint64_t dev, ino, size;
	int64_t mtime_ns;
};

struct rdc_dc_rec {
	uint64_t bundle_off;
	struct rdc_target target;
	int32_t verdict;
	int32_t have_patches;
	/* The chosen and the refused entry by what identifies them in any
	 * bundle: the entry id and its size ("" / 0 when none).  Never an
	 * index: the list a decision was made from (HIP 7's unbundle request)
	 * depends on the set of devices in the process. */
	char entry_id[RDC_DC_ID_MAX], refused_id[RDC_DC_ID_MAX];
	uint64_t entry_size, refused_size;
	struct rdc_target chosen;
	uint32_t edge_rank, n_patches;
	uint64_t n_kernels, n_refused, n_candidates;
	char reason[400];
	char need[160];
	uint32_t n_ref;                  /* refused and held kernel triples that follow */
	uint32_t ref_bytes;
	uint64_t n_held;                 /* kernels the decision holds */
	int32_t hold;                    /* the enum rdc_hold it was made for; -1:
	                                    no instruction condition entered it,
	                                    the same for every one */
	int32_t pad_;                    /* zero */
	/* n_patches patches follow the triples */
};

uint64_t rdc_dc_fnv(uint64_t h, const void *p, size_t n);

/* Is every field of record `r` one the policy could have written (verdict
 * and entry consistent, patches only with "mapped", counts bounded, strings
 * terminated)?  NULL when it is, else why. */
const char *rdc_dc_rec_invalid(const struct rdc_dc_rec *r);

/* Check `len` bytes of a cache file (checksum, header, `key` — every field
 * but n_recs must match —, each record, its refused kernels and its
 * patches' bounds) and hand each record to `keep`: its ref bytes in `ref`,
 * its patches' bytes in `patches` (n_patches × struct rdc_patch, not
 * aligned: copy them with memcpy); a non-zero return stops with "out of
 * memory".  NULL when the whole file is good, else why (records already
 * handed over are then to be dropped by the caller). */
const char *rdc_dc_parse(const uint8_t *buf, size_t len, const struct rdc_dc_hdr *key,
			 int (*keep)(void *arg, const struct rdc_dc_rec *r, const char *ref,
				     const uint8_t *patches),
			 void *arg);

#endif
