/* SPDX-License-Identifier: MIT */
/*
 * kpack_extract.c — one code object out of a parsed `.kpack` archive.
 *
 * Scheme "none": the blob's bytes as stored (librocm_kpack's
 * decompress_noop reads blob.size bytes and ignores original_size).
 * Scheme "zstd-per-kernel": the entry's frame must decompress to exactly
 * original_size bytes, as librocm_kpack's decompress_zstd demands
 * (ZSTD_decompressDCtx into an original_size buffer, result == size;
 * ROCm/rocm-kpack@e3483286 runtime/src/compression.cpp).  Before anything
 * is allocated, a frame header that states its content size must state
 * original_size, and original_size is capped (RDC_KPACK_MAX_OBJECT), so a
 * forged size cannot make us allocate gigabytes.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "rdnacompat/kpack.h"

int rdc_kpack_extract(const struct rdc_kpack *k, const void *p, uint64_t n,
		      const struct rdc_kpack_entry *e, uint8_t **out, size_t *out_len,
		      struct rdc_diag *d)
{
	if (!k || !p || !e || !out || !out_len)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "kpack extract: missing argument");
	*out = NULL;
	*out_len = 0;
	if (!rdc_in_bounds(e->offset, e->size, n))
		return rdc_diag_set(d, RDC_E_RANGE, e->offset,
				    "kpack: %s@%s's bytes (offset %llu, %llu bytes) lie outside the archive",
				    e->key, e->arch, (unsigned long long)e->offset, (unsigned long long)e->size);
	const uint8_t *src = (const uint8_t *)p + e->offset;
	if (k->scheme == RDC_KPACK_SCHEME_NONE) {
		if (e->size > RDC_KPACK_MAX_OBJECT)
			return rdc_diag_set(d, RDC_E_RANGE, e->offset, "kpack: %s@%s: %llu bytes is too large",
					    e->key, e->arch, (unsigned long long)e->size);
		uint8_t *b = malloc(e->size ? (size_t)e->size : 1);
		if (!b)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack: out of memory");
		memcpy(b, src, (size_t)e->size);
		*out = b;
		*out_len = (size_t)e->size;
		return 0;
	}
	uint64_t want = e->original_size;
	if (want == 0 || want > RDC_KPACK_MAX_OBJECT)
		return rdc_diag_set(d, RDC_E_RANGE, e->offset,
				    "kpack: %s@%s: original_size %llu is %s", e->key, e->arch,
				    (unsigned long long)want, want ? "too large" : "missing or zero");
	unsigned long long cs = ZSTD_getFrameContentSize(src, (size_t)e->size);
	if (cs == ZSTD_CONTENTSIZE_ERROR)
		return rdc_diag_set(d, RDC_E_CORRUPT, e->offset, "kpack: %s@%s: not a zstd frame",
				    e->key, e->arch);
	if (cs != ZSTD_CONTENTSIZE_UNKNOWN && cs != want)
		return rdc_diag_set(d, RDC_E_CORRUPT, e->offset,
				    "kpack: %s@%s: zstd frame holds %llu bytes, the TOC says %llu", e->key,
				    e->arch, cs, (unsigned long long)want);
	uint8_t *b = malloc((size_t)want);
	if (!b)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack: out of memory for %llu bytes",
				    (unsigned long long)want);
	size_t r = ZSTD_decompress(b, (size_t)want, src, (size_t)e->size);
	if (ZSTD_isError(r) || r != want) {
		free(b);
		if (ZSTD_isError(r))
			return rdc_diag_set(d, RDC_E_CORRUPT, e->offset, "kpack: %s@%s: zstd: %s", e->key,
					    e->arch, ZSTD_getErrorName(r));
		return rdc_diag_set(d, RDC_E_CORRUPT, e->offset,
				    "kpack: %s@%s: zstd frame gave %zu bytes, the TOC says %llu", e->key,
				    e->arch, r, (unsigned long long)want);
	}
	*out = b;
	*out_len = (size_t)want;
	return 0;
}
