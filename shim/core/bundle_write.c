/* SPDX-License-Identifier: MIT */
/*
 * bundle_write.c — rdc_bundle_write: lay out a plain clang offload bundle the
 * way clang-offload-bundler's BinaryFileHandler does (WriteHeader /
 * WriteBundle in clang/lib/Driver/OffloadBundler.cpp): the header, then each
 * entry at alignTo(previous end, align) — the first at the aligned end of the
 * header — zero padding between, nothing after the last entry.
 * Pure: builds the result in memory the caller frees.
 */
#include "rdnacompat/bundle.h"

#include <stdlib.h>
#include <string.h>

#include "bundle_internal.h"

/* alignTo with overflow check. */
static bool align_up(uint64_t v, uint64_t a, uint64_t *out)
{
	uint64_t r = v % a;
	if (r == 0) {
		*out = v;
		return true;
	}
	if (v > UINT64_MAX - (a - r))
		return false;
	*out = v + (a - r);
	return true;
}

int rdc_bundle_write(const struct rdc_bundle_input *in, size_t n, uint64_t align,
		     uint8_t **out, size_t *out_len, struct rdc_diag *d)
{
	if (!out || !out_len || (!in && n))
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no input or no output");
	*out = NULL;
	*out_len = 0;
	if (align == 0)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "alignment 0");
	uint64_t hdr = RDC_BUNDLE_HDR_LEN;
	for (size_t i = 0; i < n; i++) {
		if (!in[i].id || !in[i].id[0])
			return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "entry %zu has no id", i);
		if (!in[i].data && in[i].size)
			return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET,
					    "entry %zu has a size but no data", i);
		size_t l = strlen(in[i].id);
		if (l > UINT64_MAX - RDC_BUNDLE_DESC_LEN - hdr)
			return rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET, "header too large");
		hdr += RDC_BUNDLE_DESC_LEN + l;
	}
	/* Offsets, exactly as WriteHeader computes them. */
	uint64_t *off = n ? malloc(n * sizeof *off) : NULL;
	if (n && !off)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	uint64_t cur = hdr, end = hdr;
	for (size_t i = 0; i < n; i++) {
		if (!align_up(cur, align, &off[i]) || in[i].size > UINT64_MAX - off[i]) {
			free(off);
			return rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET,
					    "entry %zu does not fit in 64 bits", i);
		}
		cur = off[i] + in[i].size;
		end = cur;
	}
	/* A file ends where its last entry ends (the header if there is none). */
	if (end > SIZE_MAX) {
		free(off);
		return rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET, "bundle of %llu bytes",
				    (unsigned long long)end);
	}
	uint8_t *buf = calloc(1, end ? (size_t)end : 1);
	if (!buf) {
		free(off);
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory for %llu bytes",
				    (unsigned long long)end);
	}
	memcpy(buf, RDC_BUNDLE_MAGIC, RDC_BUNDLE_MAGIC_LEN);
	rdc_st64(buf + 24, n);
	uint64_t p = RDC_BUNDLE_HDR_LEN;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(in[i].id);
		rdc_st64(buf + p, off[i]);
		rdc_st64(buf + p + 8, in[i].size);
		rdc_st64(buf + p + 16, l);
		memcpy(buf + p + RDC_BUNDLE_DESC_LEN, in[i].id, l);
		p += RDC_BUNDLE_DESC_LEN + l;
		if (in[i].size)
			memcpy(buf + off[i], in[i].data, (size_t)in[i].size);
	}
	free(off);
	*out = buf;
	*out_len = (size_t)end;
	return 0;
}
