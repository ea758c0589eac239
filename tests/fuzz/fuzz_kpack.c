/* SPDX-License-Identifier: MIT */
/*
 * fuzz_kpack.c — libFuzzer target for the kpack readers
 * (include/rdnacompat/kpack.h): the archive parser and, for every entry it
 * lists, extraction (zstd included); the .rocm_kpack_ref marker parser on
 * the same bytes.  Beyond "no crash": every listed entry's stored bytes lie
 * inside the input, an extracted zstd object has exactly original_size
 * bytes, and a marker that parses re-encodes to bytes that parse back to
 * the same fields.  Built and run by `make fuzz-smoke` (tests/fuzz/smoke-all.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/kpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdc_kpack k;
	if (rdc_kpack_parse(data, size, &k, NULL) == 0) {
		for (size_t i = 0; i < k.n_entries; i++) {
			const struct rdc_kpack_entry *e = &k.entries[i];
			if (!rdc_in_bounds(e->offset, e->size, size) || e->ordinal >= k.n_blobs)
				abort();
			if (rdc_kpack_find(&k, e->key, e->arch) == NULL)
				abort();
			uint8_t *o = NULL;
			size_t l = 0;
			if (rdc_kpack_extract(&k, data, size, e, &o, &l, NULL) == 0) {
				if (k.scheme == RDC_KPACK_SCHEME_ZSTD && l != e->original_size)
					abort();
				free(o);
			}
		}
	}
	rdc_kpack_free(&k);
	struct rdc_kpack_ref r, r2;
	if (rdc_kpack_ref_parse(data, size, &r, NULL) == 0) {
		uint8_t *m = NULL;
		size_t l = 0;
		if (rdc_kpack_ref_encode(r.kernel_name, (const char *const *)r.paths, r.n_paths, &m, &l,
					 NULL) == 0) {
			if (rdc_kpack_ref_parse(m, l, &r2, NULL) != 0 || r2.n_paths != r.n_paths ||
			    strcmp(r2.kernel_name, r.kernel_name) != 0)
				abort();
			rdc_kpack_ref_free(&r2);
			free(m);
		}
		rdc_kpack_ref_free(&r);
	}
	return 0;
}
