/* SPDX-License-Identifier: MIT */
/*
 * kpack_write.c — making a `.kpack` archive byte for byte as
 * rocm_kpack.kpack.PackedKernelArchive.write does (ROCm/rocm-kpack@e3483286
 * python/rocm_kpack/kpack.py:185-327, compression.py:150-299):
 *
 *   "KPAK", u32 1, u64 TOC offset, zeros to 64, blob, MessagePack TOC.
 *
 * TOC map in this key order: format_version, group_name, gfx_arch_family,
 * gfx_arches, toc, compression_scheme, then blobs (none) or zstd_offset,
 * zstd_size (zstd).  Entries {type "hsaco", ordinal, original_size[,
 * metadata {target, source_prefix}]}; ordinals in input order; keys and
 * arches in first-seen order (Python dicts keep insertion order).  msgpack-c
 * packs integers and strings in their smallest forms, as msgpack-python
 * does with use_bin_type=True.  zstd: one frame per code object at level 3
 * with the content size and no checksum (python-zstandard's defaults for
 * ZstdCompressor(level=3).compress).  Checked against rocm-kpack's own test
 * assets (tests/unit/test_kpack.c, tests/fixtures/kpack/).
 */
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "rdnacompat/kpack.h"

struct buf {
	uint8_t *p;
	size_t n, cap;
	bool oom;
};

static void put(struct buf *b, const void *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *q = realloc(b->p, cap);
		if (!q) {
			b->oom = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void put_le(struct buf *b, uint64_t v, unsigned n)
{
	uint8_t x[8];
	for (unsigned i = 0; i < n; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	put(b, x, n);
}

static void pstr(msgpack_packer *pk, const char *s)
{
	size_t l = strlen(s);
	msgpack_pack_str(pk, l);
	msgpack_pack_str_body(pk, s, l);
}

/* Is in[i] the first input with its key (TOC keys in first-seen order)? */
static bool first_key(const struct rdc_kpack_input *in, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(in[j].key, in[i].key) == 0)
			return false;
	return true;
}

static size_t count_key(const struct rdc_kpack_input *in, size_t n, const char *key)
{
	size_t c = 0;
	for (size_t j = 0; j < n; j++)
		c += strcmp(in[j].key, key) == 0;
	return c;
}

int rdc_kpack_write(const char *group_name, const char *arch_family, const char *const *arches,
		    size_t n_arches, const struct rdc_kpack_input *in, size_t n_in,
		    enum rdc_kpack_scheme scheme, uint8_t **out, size_t *out_len,
		    struct rdc_diag *d)
{
	if (!out || !out_len || (n_in && !in) || (n_arches && !arches) || !group_name || !arch_family ||
	    n_in > RDC_KPACK_MAX_KERNELS)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "kpack write: bad arguments");
	for (size_t i = 0; i < n_in; i++) {
		if (!in[i].key || !in[i].arch || (!in[i].data && in[i].size))
			return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "kpack write: input %zu incomplete", i);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(in[j].key, in[i].key) && !strcmp(in[j].arch, in[i].arch))
				return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET,
						    "kpack write: %s @ %s given twice", in[i].key, in[i].arch);
	}
	*out = NULL;
	*out_len = 0;
	struct buf b = { 0 };
	static const uint8_t zero[RDC_KPACK_BLOB_ALIGN];
	put(&b, RDC_KPACK_MAGIC, 4);
	put_le(&b, RDC_KPACK_VERSION, 4);
	put_le(&b, 0, 8);                       /* TOC offset, patched below */
	put(&b, zero, RDC_KPACK_BLOB_ALIGN - 16);
	const uint64_t blob = b.n;
	uint64_t *boff = calloc(n_in ? n_in : 1, sizeof *boff);
	ZSTD_CCtx *cc = scheme == RDC_KPACK_SCHEME_ZSTD ? ZSTD_createCCtx() : NULL;
	if (!boff || (scheme == RDC_KPACK_SCHEME_ZSTD && !cc)) {
		free(boff);
		ZSTD_freeCCtx(cc);
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack write: out of memory");
	}
	int rc = 0;
	if (scheme == RDC_KPACK_SCHEME_ZSTD) {
		put_le(&b, n_in, 4);
		for (size_t i = 0; i < n_in && rc == 0; i++) {
			size_t cap = ZSTD_compressBound(in[i].size);
			uint8_t *f = malloc(cap ? cap : 1);
			size_t fs = 0;
			if (!f) {
				rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack write: out of memory");
				break;
			}
			ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
			ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
			ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
			ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0);
			ZSTD_CCtx_setPledgedSrcSize(cc, in[i].size);
			fs = ZSTD_compress2(cc, f, cap, in[i].data, in[i].size);
			if (ZSTD_isError(fs) || fs > UINT32_MAX)
				rc = rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "kpack write: zstd: %s",
						  ZSTD_isError(fs) ? ZSTD_getErrorName(fs) : "frame too large");
			else {
				put_le(&b, fs, 4);
				put(&b, f, fs);
			}
			free(f);
		}
	} else {
		for (size_t i = 0; i < n_in; i++) {
			boff[i] = b.n;
			put(&b, in[i].data, in[i].size);
		}
	}
	ZSTD_freeCCtx(cc);
	uint64_t blob_size = b.n - blob;
	if (rc == 0 && blob_size > RDC_KPACK_MAX_ZSTD_BLOB && scheme == RDC_KPACK_SCHEME_ZSTD)
		rc = rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET, "kpack write: blob exceeds 4 GiB");
	const uint64_t toc_off = b.n;
	msgpack_sbuffer sb;
	msgpack_sbuffer_init(&sb);
	if (rc == 0) {
		msgpack_packer pk;
		msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
		msgpack_pack_map(&pk, scheme == RDC_KPACK_SCHEME_ZSTD ? 8 : 7);
		pstr(&pk, "format_version");
		msgpack_pack_uint64(&pk, RDC_KPACK_VERSION);
		pstr(&pk, "group_name");
		pstr(&pk, group_name);
		pstr(&pk, "gfx_arch_family");
		pstr(&pk, arch_family);
		pstr(&pk, "gfx_arches");
		msgpack_pack_array(&pk, n_arches);
		for (size_t i = 0; i < n_arches; i++)
			pstr(&pk, arches[i]);
		pstr(&pk, "toc");
		size_t nkeys = 0;
		for (size_t i = 0; i < n_in; i++)
			nkeys += first_key(in, i);
		msgpack_pack_map(&pk, nkeys);
		for (size_t i = 0; i < n_in; i++) {
			if (!first_key(in, i))
				continue;
			pstr(&pk, in[i].key);
			msgpack_pack_map(&pk, count_key(in, n_in, in[i].key));
			for (size_t j = i; j < n_in; j++) {
				if (strcmp(in[j].key, in[i].key) != 0)
					continue;
				pstr(&pk, in[j].arch);
				msgpack_pack_map(&pk, in[j].target ? 4 : 3);
				pstr(&pk, "type");
				pstr(&pk, "hsaco");
				pstr(&pk, "ordinal");
				msgpack_pack_uint64(&pk, j);
				pstr(&pk, "original_size");
				msgpack_pack_uint64(&pk, in[j].size);
				if (in[j].target) {
					pstr(&pk, "metadata");
					msgpack_pack_map(&pk, 2);
					pstr(&pk, "target");
					pstr(&pk, in[j].target);
					pstr(&pk, "source_prefix");
					pstr(&pk, in[j].source_prefix ? in[j].source_prefix : "");
				}
			}
		}
		pstr(&pk, "compression_scheme");
		if (scheme == RDC_KPACK_SCHEME_ZSTD) {
			pstr(&pk, "zstd-per-kernel");
			pstr(&pk, "zstd_offset");
			msgpack_pack_uint64(&pk, blob);
			pstr(&pk, "zstd_size");
			msgpack_pack_uint64(&pk, blob_size);
		} else {
			pstr(&pk, "none");
			pstr(&pk, "blobs");
			msgpack_pack_array(&pk, n_in);
			for (size_t i = 0; i < n_in; i++) {
				msgpack_pack_map(&pk, 2);
				pstr(&pk, "offset");
				msgpack_pack_uint64(&pk, boff[i]);
				pstr(&pk, "size");
				msgpack_pack_uint64(&pk, in[i].size);
			}
		}
		put(&b, sb.data, sb.size);
	}
	msgpack_sbuffer_destroy(&sb);
	free(boff);
	if (rc == 0 && b.oom)
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "kpack write: out of memory");
	if (rc != 0) {
		free(b.p);
		return rc;
	}
	for (unsigned i = 0; i < 8; i++)
		b.p[8 + i] = (uint8_t)(toc_off >> (8 * i));
	*out = b.p;
	*out_len = b.n;
	return 0;
}
