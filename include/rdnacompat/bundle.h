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
	const uint8_t *bytes;    /* the plain bundle: input or owned buffer */
	uint64_t size;           /* size of `bytes` */
	size_t n_entries;
	struct rdc_bundle_entry *entries;
	void *owned_;            /* decompressed buffer, freed by rdc_bundle_free */
};

/* Parse one bundle (plain or compressed) starting at `p`.  `avail` is how
 * many bytes starting at `p` may be read.  On success fills `b` (free with
 * rdc_bundle_free).  Errors: RDC_E_FORMAT (magic), RDC_E_TRUNCATED,
 * RDC_E_RANGE, RDC_E_UNSUPPORTED (CCOB version/method), RDC_E_CORRUPT,
 * RDC_E_NOMEM. */
int rdc_bundle_parse(const void *p, uint64_t avail, struct rdc_bundle *b, struct rdc_diag *d);

/* Only the extent: what __hipRegisterFatBinary's callee must derive, since
 * HIP hands a pointer without a size.  Reads headers only. */
int rdc_bundle_extent(const void *p, uint64_t avail, uint64_t *extent, struct rdc_diag *d);

/* True when `p` starts with either magic (needs avail >= 4 / 24). */
bool rdc_is_bundle(const void *p, uint64_t avail);

void rdc_bundle_free(struct rdc_bundle *b);

/* Index of the entry whose id is exactly `id` (len bytes), or -1. */
long rdc_bundle_find(const struct rdc_bundle *b, const char *id, size_t len);

/* Walk a region holding bundles back to back (a `.hip_fatbin` section):
 * calls `cb(index, offset_in_region, bundle, arg)` for each; stops early
 * when cb returns non-zero (that value is returned).  Padding between
 * bundles (zeros up to the next alignment) is skipped. */
typedef int (*rdc_bundle_cb)(size_t index, uint64_t offset, const struct rdc_bundle *b, void *arg);
int rdc_bundle_scan(const void *region, uint64_t size, rdc_bundle_cb cb, void *arg,
		    struct rdc_diag *d);

/* Writing.  Entries are laid out in the given order, each aligned to `align`
 * (clang uses 4096; 1 allowed), like clang-offload-bundler. */
struct rdc_bundle_input {
	const char *id;          /* NUL-terminated entry id */
	const void *data;
	uint64_t size;
};
int rdc_bundle_write(const struct rdc_bundle_input *in, size_t n, uint64_t align,
		     uint8_t **out, size_t *out_len, struct rdc_diag *d);

/* Wrap a plain bundle as CCOB `version` (1, 2 or 3) using `method`. */
int rdc_bundle_compress(const void *plain, size_t len, int method, unsigned version,
			uint8_t **out, size_t *out_len, struct rdc_diag *d);

#endif
