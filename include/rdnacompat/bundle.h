/* SPDX-License-Identifier: MIT */
/*
 * bundle.h — clang offload bundles, plain ("__CLANG_OFFLOAD_BUNDLE__") and
 * compressed ("CCOB", versions 1-3, zlib or zstd), as clang-offload-bundler
 * writes them (llvm clang/docs/ClangOffloadBundler.rst).
 *
 * Reading is zero-copy for plain bundles: entries point into the caller's
 * bytes.  A compressed bundle is decompressed into memory the bundle owns.
 * Every offset and size read from the input is bounds- and overflow-checked
 * against `avail`, the number of bytes the caller can prove readable; errors
 * say what and at which byte offset.
 *
 * Scanning: a host ELF keeps its bundles back to back in `.hip_fatbin`;
 * rdc_bundle_scan walks such a region.
 *
 * Layouts and their sources: docs/FORMATS.md.  In short (all little-endian):
 *   plain:  "__CLANG_OFFLOAD_BUNDLE__" u64 n, n x {u64 offset, u64 size,
 *           u64 id_len, id[id_len]}, then the entries (offsets from the start)
 *   CCOB v1: "CCOB" u16 version u16 method u32 uncompressed u64 hash  (20 B,
 *            no total size: the compressed stream's own end delimits it)
 *   CCOB v2: "CCOB" u16 u16 u32 total u32 uncompressed u64 hash        (24 B)
 *   CCOB v3: "CCOB" u16 u16 u64 total u64 uncompressed u64 hash        (32 B)
 *   method = llvm::compression::Format: 0 zlib, 1 zstd.  hash = the first 8
 *   bytes of the MD5 of the uncompressed bundle, read as little-endian u64.
 */
#ifndef RDNACOMPAT_BUNDLE_H
#define RDNACOMPAT_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/error.h"
#include "rdnacompat/target.h"

#define RDC_BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define RDC_BUNDLE_MAGIC_LEN 24
#define RDC_CCOB_MAGIC "CCOB"

enum rdc_compression { RDC_COMP_NONE = -1, RDC_COMP_ZLIB = 0, RDC_COMP_ZSTD = 1 };

struct rdc_bundle_entry {
	const char *id;          /* not NUL-terminated; id_len bytes */
	size_t id_len;
	uint64_t offset;         /* from the start of the (decompressed) bundle */
	uint64_t size;
	const uint8_t *data;     /* offset applied; NULL when size == 0 */
	struct rdc_bundle_id parsed; /* kind/triple/target; kind UNKNOWN if unparseable */
};

struct rdc_bundle {
	uint64_t extent;         /* bytes the bundle occupies in the input
	                            (compressed: the CCOB total size; plain: header
	                            and the furthest entry end) */
	bool compressed;
	uint16_t ccob_version;   /* 0 when not compressed */
	int method;              /* enum rdc_compression */
	uint64_t uncompressed_size;
	uint64_t hash;           /* CCOB: stored truncated MD5 (verified by
	                            rdc_bundle_parse only); 0 if plain */
	const uint8_t *bytes;    /* the plain bundle: input or owned buffer */
	uint64_t size;           /* size of `bytes` */
	size_t n_entries;
	struct rdc_bundle_entry *entries;
	void *owned_;            /* decompressed buffer, freed by rdc_bundle_free */
};

/* Parse one bundle (plain or compressed) starting at `p`.  `avail` is how
 * many bytes starting at `p` may be read.  On success fills `b` (free with
 * rdc_bundle_free; on failure `b` holds nothing to free).  Errors:
 * RDC_E_FORMAT (magic, empty entry id), RDC_E_TRUNCATED, RDC_E_RANGE (an
 * entry outside the bundle, overlapping the header or another entry, a lying
 * count or size), RDC_E_UNSUPPORTED (CCOB version/method), RDC_E_CORRUPT
 * (decompression failed, decompressed size or MD5 differs), RDC_E_NOMEM.
 * Zero-size entries (the host entry) may sit anywhere in bounds, even at
 * another entry's offset.  Entries whose id rdc_bundle_id_parse rejects are
 * kept with parsed.kind == RDC_KIND_UNKNOWN.  Errors inside a CCOB's
 * decompressed data report the CCOB's start as offset and name the
 * decompressed byte in the message. */
int rdc_bundle_parse(const void *p, uint64_t avail, struct rdc_bundle *b, struct rdc_diag *d);

/* rdc_bundle_parse as the runtime reads a bundle: a CCOB's stored MD5 is not
 * recomputed (b->hash is the stored value, unverified).  LLVM's own reader
 * recomputes it only to print it with -verbose and never fails on it
 * (clang/lib/Driver/OffloadBundler.cpp, CompressedOffloadBundle::decompress),
 * so checking it in the preload would refuse nothing HIP refuses and would
 * cost the MD5 of every decompressed bundle at start-up.  Every other check
 * (sizes, bounds, the decompressor's own) is the same.  The tools use
 * rdc_bundle_parse, which reports a wrong hash. */
int rdc_bundle_parse_as_runtime(const void *p, uint64_t avail, struct rdc_bundle *b,
				struct rdc_diag *d);

/* The entry table only, for a caller that may not need the entries' bytes
 * (the preload deciding that a card has its own entry): a plain bundle is
 * read as rdc_bundle_parse_as_runtime reads it; of a CCOB only the first
 * RDC_TABLE_PREFIX (64 KiB) bytes are decompressed, the entries are checked
 * against the claimed uncompressed size and their `data` is NULL.
 * RDC_E_UNSUPPORTED when the table cannot be read from that prefix (the
 * caller reads the bundle whole, which reports any real damage). */
int rdc_bundle_parse_table(const void *p, uint64_t avail, struct rdc_bundle *b,
			   struct rdc_diag *d);

/* Only the extent: what __hipRegisterFatBinary's callee must derive, since
 * HIP hands a pointer without a size.  Reads headers only (plain: the entry
 * table; CCOB v2/v3: the total size), except CCOB v1, whose end is found by
 * walking the zstd frame headers or inflating the zlib stream into scratch
 * (nothing allocated in proportion to the input).  Checks everything it
 * reads against `avail`. */
int rdc_bundle_extent(const void *p, uint64_t avail, uint64_t *extent, struct rdc_diag *d);

/* True when `p` starts with either magic (needs avail >= 4 / 24). */
bool rdc_is_bundle(const void *p, uint64_t avail);
/* True when `p` starts with the compressed magic "CCOB". */
bool rdc_is_ccob(const void *p, uint64_t avail);

void rdc_bundle_free(struct rdc_bundle *b);

/* The truncated MD5 that CCOB headers store: the first 8 bytes of the MD5
 * digest of `len` bytes, as a little-endian u64 (llvm::MD5Result::low()). */
uint64_t rdc_bundle_hash(const void *p, size_t len);

/* Index of the entry whose id is exactly `id` (len bytes), or -1. */
long rdc_bundle_find(const struct rdc_bundle *b, const char *id, size_t len);

/* Walk a region holding bundles back to back (a `.hip_fatbin` section):
 * calls `cb(index, offset_in_region, bundle, arg)` for each; stops early
 * when cb returns non-zero (that value is returned).  Padding between
 * bundles (zeros up to the next alignment) is skipped; any other byte where
 * a bundle should start is RDC_E_FORMAT.  The bundle passed to cb is freed
 * when cb returns.  Diag offsets are relative to `region`. */
typedef int (*rdc_bundle_cb)(size_t index, uint64_t offset, const struct rdc_bundle *b, void *arg);
int rdc_bundle_scan(const void *region, uint64_t size, rdc_bundle_cb cb, void *arg,
		    struct rdc_diag *d);

/* Writing.  Entries are laid out in the given order, each aligned to `align`
 * (clang uses 4096; 1 allowed; any non-zero value), like clang-offload-
 * bundler: the first entry starts at the aligned end of the header, a
 * zero-size entry shares the next entry's offset, and the output ends at the
 * last entry's end (no trailing padding).  Free *out with free(). */
struct rdc_bundle_input {
	const char *id;          /* NUL-terminated entry id */
	const void *data;
	uint64_t size;
};
int rdc_bundle_write(const struct rdc_bundle_input *in, size_t n, uint64_t align,
		     uint8_t **out, size_t *out_len, struct rdc_diag *d);

/* Wrap a plain bundle as CCOB `version` (1, 2 or 3) using `method`
 * (RDC_COMP_ZLIB: zlib format, level 6; RDC_COMP_ZSTD: level 3 with long
 * distance matching, as clang-offload-bundler does).  The input is not
 * checked (any bytes may be wrapped).  Version 2 refuses inputs or outputs
 * over 4 GiB - 1 with RDC_E_RANGE, like LLVM.  Free *out with free(). */
int rdc_bundle_compress(const void *plain, size_t len, int method, unsigned version,
			uint8_t **out, size_t *out_len, struct rdc_diag *d);

#endif
