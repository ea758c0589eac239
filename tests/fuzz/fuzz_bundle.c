/* SPDX-License-Identifier: MIT */
/*
 * fuzz_bundle.c — libFuzzer target for the bundle reader (shim/core/bundle*.c).
 * Build: clang-15 -fsanitize=fuzzer,address (make fuzz-smoke BUILD=...).
 *
 * First input byte = mode:
 *   bit 7 clear: the rest is untrusted bytes.  rdc_bundle_parse,
 *     rdc_bundle_extent and rdc_bundle_scan must not crash, and must agree:
 *     a parse that succeeds implies an extent that succeeds with the same
 *     value, every entry inside the bundle, and a scan that sees it first.
 *   bit 7 set: the rest is wrapped with rdc_bundle_compress (bit 0: zstd,
 *     bits 1-2: version 1..3) and parsed back: the compressed bundle must
 *     parse exactly when the bytes parse as a plain bundle (a CCOB inside a
 *     CCOB is refused), to the same entries.
 * Any disagreement aborts (a finding).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/bundle.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

static int first_only(size_t i, uint64_t off, const struct rdc_bundle *b, void *arg)
{
	uint64_t *ext = arg;
	check(i == 0);
	*ext = b->extent + off;
	return 1;
}

static void raw(const uint8_t *p, size_t n)
{
	struct rdc_bundle b;
	struct rdc_diag d;
	int rc = rdc_bundle_parse(p, n, &b, &d);
	uint64_t ext = 0;
	int re = rdc_bundle_extent(p, n, &ext, &d);
	if (rc == 0) {
		check(re == 0 && ext == b.extent && b.extent <= n && b.extent > 0);
		for (size_t i = 0; i < b.n_entries; i++) {
			const struct rdc_bundle_entry *e = &b.entries[i];
			check(e->offset <= b.size && e->size <= b.size - e->offset);
			check(e->id_len > 0);
			if (e->size) {
				volatile uint8_t x = e->data[0];
				x = e->data[e->size - 1];
				(void)x;
			}
		}
		check(rdc_bundle_find(&b, b.n_entries ? b.entries[0].id : "", b.n_entries ?
				      b.entries[0].id_len : 0) == (b.n_entries ? 0 : -1));
		uint64_t first = 0;
		/* A region starting with this bundle: the scan sees it first, same extent. */
		if (p[0] != 0) {
			int rs = rdc_bundle_scan(p, n, first_only, &first, &d);
			check(rs == 1 && first == b.extent);
		}
		rdc_bundle_free(&b);
	} else {
		check(rc < 0 && d.msg[0]);
		check(b.entries == NULL && b.owned_ == NULL);
	}
	rdc_bundle_scan(p, n, first_only, &ext, &d);
}

static void wrapped(uint8_t mode, const uint8_t *p, size_t n)
{
	int method = mode & 1 ? RDC_COMP_ZSTD : RDC_COMP_ZLIB;
	unsigned version = 1 + ((mode >> 1) & 3) % 3;
	uint8_t *z = NULL;
	size_t zl = 0;
	struct rdc_diag d;
	check(rdc_bundle_compress(p, n, method, version, &z, &zl, &d) == 0);
	struct rdc_bundle a, b;
	/* A CCOB holds a plain bundle, never another CCOB. */
	bool nested = n >= 4 && memcmp(p, RDC_CCOB_MAGIC, 4) == 0;
	int ra = nested ? RDC_E_FORMAT : rdc_bundle_parse(p, n, &a, &d);
	int rb = rdc_bundle_parse(z, zl, &b, &d);
	/* A plain bundle shorter than its input still parses (extent < n);
	 * the decompressed one must then parse too, to the same entries. */
	check((ra == 0) == (rb == 0));
	if (ra == 0) {
		check(b.compressed && b.extent == zl && b.uncompressed_size == n);
		check(a.n_entries == b.n_entries);
		for (size_t i = 0; i < a.n_entries; i++) {
			check(a.entries[i].size == b.entries[i].size);
			check(a.entries[i].offset == b.entries[i].offset);
			check(a.entries[i].id_len == b.entries[i].id_len);
			check(memcmp(a.entries[i].id, b.entries[i].id, a.entries[i].id_len) == 0);
		}
		rdc_bundle_free(&a);
		rdc_bundle_free(&b);
	}
	free(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 0x80)
		wrapped(data[0], data + 1, size - 1);
	else
		raw(data + 1, size - 1);
	return 0;
}
