/* SPDX-License-Identifier: MIT */
/*
 * remap_header.c — writes the header of a plain clang offload bundle
 * ("__CLANG_OFFLOAD_BUNDLE__", u64 count, then per entry u64 offset, u64
 * size, u64 id length, id bytes; little-endian — clang
 * docs/ClangOffloadBundler.rst) for entries whose bytes live elsewhere.
 * The rebuilt bundles keep the caller's code objects where they are (a
 * private file mapping) and only need a new header in front.  Pure.
 */
#include <string.h>

#include "shim.h"

uint64_t rdc_hdr_size(const struct rdc_hdr_entry *e, size_t n)
{
	uint64_t s = RDC_BUNDLE_MAGIC_LEN + 8;
	for (size_t i = 0; i < n; i++)
		s += 24 + e[i].id_len;
	return s;
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return p + 8;
}

int rdc_hdr_write(const struct rdc_hdr_entry *e, size_t n, uint8_t *buf, uint64_t cap)
{
	uint64_t need = rdc_hdr_size(e, n);
	if (!buf || need > cap)
		return RDC_E_RANGE;
	for (size_t i = 0; i < n; i++)
		if (e[i].size && e[i].offset < need)  /* data must follow the header */
			return RDC_E_RANGE;
	uint8_t *p = buf;
	memcpy(p, RDC_BUNDLE_MAGIC, RDC_BUNDLE_MAGIC_LEN);
	p += RDC_BUNDLE_MAGIC_LEN;
	p = put64(p, n);
	for (size_t i = 0; i < n; i++) {
		p = put64(p, e[i].offset);
		p = put64(p, e[i].size);
		p = put64(p, e[i].id_len);
		memcpy(p, e[i].id, e[i].id_len);
		p += e[i].id_len;
	}
	return 0;
}
