/* SPDX-License-Identifier: MIT */
/*
 * kpack.h — TheRock's split device code: `.kpack` archives and the
 * `.rocm_kpack_ref` marker a host binary carries instead of its
 * `.hip_fatbin` (docs/KPACK.md; format from ROCm/rocm-kpack@e3483286
 * python/rocm_kpack/kpack.py, compression.py and runtime/src/).
 *
 * Archive: "KPAK", u32 version 1, u64 TOC offset, zeros to 64, the blob
 * (scheme "none": code objects back to back; "zstd-per-kernel": u32 count,
 * then count x {u32 frame size, one zstd frame}), then a MessagePack TOC
 * to the end of the file.  The TOC maps key ("<prefix>/<binary>#<n>") ->
 * arch ("gfx1030") -> {type, ordinal, original_size[, metadata]}.
 *
 * Pure: bytes in, structs out; nothing here touches files or process
 * state.  Every offset read from the input is bounds-checked; errors are
 * RDC_E_* with a struct rdc_diag naming the byte offset.
 */
#ifndef RDNACOMPAT_KPACK_H
#define RDNACOMPAT_KPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/error.h"

#define RDC_KPACK_MAGIC        "KPAK"
#define RDC_KPACK_VERSION      1u
#define RDC_KPACK_BLOB_ALIGN   64u
/* Limits of librocm_kpack's reader (runtime/src/compression.cpp). */
#define RDC_KPACK_MAX_ZSTD_BLOB (4ull << 30)
#define RDC_KPACK_MAX_KERNELS  (1u << 20)
/* Our own cap on one code object's declared size (allocation guard). */
#define RDC_KPACK_MAX_OBJECT   (1ull << 31)
/* The marker section and the wrapper magic of a kpack'd host binary. */
#define RDC_KPACK_REF_SECTION  ".rocm_kpack_ref"
#define RDC_KPACK_HIPK_MAGIC   0x4B504948u   /* "HIPK" little-endian */
#define RDC_KPACK_HIPF_MAGIC   0x48495046u   /* "HIPF" */
#define RDC_KPACK_GFXARCH      "@GFXARCH@"

enum rdc_kpack_scheme { RDC_KPACK_SCHEME_NONE = 0, RDC_KPACK_SCHEME_ZSTD };

/* One code object of the archive: toc[key][arch]. */
struct rdc_kpack_entry {
	const char *key;         /* "rocrand/lib/librocrand.so.1.1#0" (NUL-terminated, owned) */
	const char *arch;        /* "gfx1030" */
	const char *type;        /* "hsaco" (as written; "" when absent) */
	const char *target;      /* metadata.target, NULL when absent */
	uint32_t ordinal;
	uint64_t original_size;  /* 0 when absent (scheme none only) */
	uint64_t offset, size;   /* the stored bytes in the archive: the code object
	                            (none) or its zstd frame (zstd) */
};

struct rdc_kpack {
	uint32_t version;
	uint64_t toc_offset;
	enum rdc_kpack_scheme scheme;
	const char *group_name;      /* "" when absent */
	const char *arch_family;     /* "" when absent */
	const char **arches;         /* gfx_arches: what the loader matches on */
	size_t n_arches;
	struct rdc_kpack_entry *entries; /* TOC order: key, then arch */
	size_t n_entries;
	size_t n_keys;               /* distinct keys */
	size_t n_blobs;              /* blobs (none) or frames (zstd) */
	uint64_t blob_offset, blob_size; /* zstd_offset/zstd_size; none: 0 */
	void *owned_;
};

/* Does it start with the archive magic? */
bool rdc_is_kpack(const void *p, uint64_t n);

/* Parse the header, the TOC and the blob index of an archive of `n`
 * bytes.  `p` is read only during the call except through the returned
 * offsets.  Errors: RDC_E_FORMAT (magic, TOC shape, unknown scheme),
 * RDC_E_UNSUPPORTED (version), RDC_E_TRUNCATED, RDC_E_RANGE (TOC offset,
 * blob or frame outside the file, counts beyond the limits, an ordinal with
 * no blob), RDC_E_NOMEM.  Free with rdc_kpack_free (also after an error). */
int rdc_kpack_parse(const void *p, uint64_t n, struct rdc_kpack *k, struct rdc_diag *d);
void rdc_kpack_free(struct rdc_kpack *k);

/* Is `arch` in gfx_arches (what librocm_kpack matches, not the TOC)? */
bool rdc_kpack_has_arch(const struct rdc_kpack *k, const char *arch);
/* toc[key][arch], or NULL. */
const struct rdc_kpack_entry *rdc_kpack_find(const struct rdc_kpack *k, const char *key,
					      const char *arch);

/* The code object of entry `e` as a malloc'd copy (free()).  zstd: the
 * frame must decompress to exactly original_size bytes (RDC_E_CORRUPT
 * otherwise, as librocm_kpack's KPACK_ERROR_DECOMPRESSION_FAILED); none:
 * the blob's bytes.  `p`/`n`: the archive parsed into `k`. */
int rdc_kpack_extract(const struct rdc_kpack *k, const void *p, uint64_t n,
		      const struct rdc_kpack_entry *e, uint8_t **out, size_t *out_len,
		      struct rdc_diag *d);

/* ---- the .rocm_kpack_ref marker ---------------------------------------- */
struct rdc_kpack_ref {
	char *kernel_name;       /* TOC key without "#<n>" */
	char **paths;            /* kpack_search_paths (relative to the binary's dir) */
	size_t n_paths;
	size_t used;             /* bytes the MessagePack map took */
};

/* Parse marker bytes (a map with "kernel_name" (str) and
 * "kpack_search_paths" (array; non-strings skipped, at least one string),
 * as librocm_kpack requires; other keys are ignored; bytes after the map
 * are ignored).  Free with rdc_kpack_ref_free. */
int rdc_kpack_ref_parse(const void *p, size_t n, struct rdc_kpack_ref *r, struct rdc_diag *d);
void rdc_kpack_ref_free(struct rdc_kpack_ref *r);

/* Encode a marker as TheRock writes it (keys kpack_search_paths, then
 * kernel_name; msgpack's smallest forms).  malloc'd into *out. */
int rdc_kpack_ref_encode(const char *kernel_name, const char *const *paths, size_t n_paths,
			 uint8_t **out, size_t *out_len, struct rdc_diag *d);

/* What a host ELF holds of kpack (libelf; any machine). */
struct rdc_kpack_host {
	bool has_ref;            /* a .rocm_kpack_ref section with bytes in the file */
	uint64_t ref_offset, ref_size;   /* file offset/size of its bytes */
	uint64_t ref_addr;               /* its sh_addr (0: not allocated) */
	size_t n_wrappers;       /* 24-byte wrappers in .hipFatBinSegment */
	size_t n_hipk;           /* ... whose magic is HIPK */
	bool fatbin_nobits;      /* .hip_fatbin present as SHT_NOBITS (cut out) */
	bool has_fatbin;         /* .hip_fatbin present at all */
};
/* Scan `n` bytes of an ELF.  RDC_E_FORMAT when it is no ELF. */
int rdc_kpack_host_scan(const void *p, size_t n, struct rdc_kpack_host *h, struct rdc_diag *d);

/* Replace the first "@GFXARCH@" of `pattern` by `arch` into buf (n bytes).
 * Returns the length, or RDC_E_NOTFOUND (no placeholder) / RDC_E_RANGE. */
int rdc_kpack_expand(const char *pattern, const char *arch, char *buf, size_t n);

/* ---- writing (kpack_write.c) ------------------------------------------- */
struct rdc_kpack_input {
	const char *key;         /* "<prefix>/<binary>#<n>" */
	const char *arch;        /* "gfx1030" */
	const char *target;      /* metadata.target, NULL: no metadata map */
	const char *source_prefix; /* metadata.source_prefix (with target) */
	const void *data;
	size_t size;
};
/* An archive as rocm_kpack.kpack.PackedKernelArchive.write makes it:
 * ordinals in input order, TOC keys in first-seen order, zstd level 3 (one
 * frame per code object, content size, no checksum) or none.  malloc'd. */
int rdc_kpack_write(const char *group_name, const char *arch_family, const char *const *arches,
		    size_t n_arches, const struct rdc_kpack_input *in, size_t n_in,
		    enum rdc_kpack_scheme scheme, uint8_t **out, size_t *out_len,
		    struct rdc_diag *d);

#endif
