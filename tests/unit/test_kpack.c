/* SPDX-License-Identifier: MIT */
/*
 * test_kpack.c — the kpack reader and writer (include/rdnacompat/kpack.h)
 * against rocm-kpack's own test archives (tests/fixtures/kpack/, MIT, from
 * ROCm/rocm-kpack@e3483286 runtime/tests/test_assets, made by its
 * runtime/tests/generate_test_data.py): parsing both schemes, extracting
 * every code object and comparing it with the generator's inputs, writing
 * the same inputs back byte for byte; a real gfx1030 code object through
 * both schemes; the .rocm_kpack_ref marker (encoding, parsing, a host
 * library with the section added by objcopy); and malformed archives
 * (every truncation, bad magic and version, TOC offset out of range, zstd
 * size mismatch, frame and count limits, a forged MessagePack count, every
 * single-byte corruption) failing with a code, never a crash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdnacompat/kpack.h"
#include "fixture.h"

static uint8_t *src_fixture(const char *name, size_t *len)
{
	const char *src = getenv("RDC_SRCDIR");
	char p[4096];
	snprintf(p, sizeof p, "%s/tests/fixtures/kpack/%s", src ? src : ".", name);
	uint8_t *b = slurp(p, len);
	assert_non_null(b);
	return b;
}

/* The inputs of generate_test_data.py, built the same way. */
struct gen {
	uint8_t d[3][1100];
	size_t n[3];
};

static void fill(uint8_t *p, size_t *n, const char *head, int c1, size_t n1, int c2, size_t n2)
{
	size_t h = strlen(head);
	memcpy(p, head, h);
	memset(p + h, c1, n1);
	memset(p + h + n1, c2, n2);
	*n = h + n1 + n2;
}

static void gen_noop(struct gen *g)
{
	fill(g->d[0], &g->n[0], "KERNEL1_GFX900_DATA", 0, 100, 0, 0);
	fill(g->d[1], &g->n[1], "KERNEL2_GFX906_DATA", 0, 200, 0, 0);
	fill(g->d[2], &g->n[2], "KERNEL3_APP_GFX900", 0xff, 150, 0, 0);
}

static void gen_zstd(struct gen *g)
{
	fill(g->d[0], &g->n[0], "HIP_KERNEL_GFX1100_", 'A', 500, 'B', 500);
	fill(g->d[1], &g->n[1], "HIP_KERNEL_GFX1101_", 'X', 300, 'Y', 300);
	fill(g->d[2], &g->n[2], "TEST_APP_KERNEL___", 0x42, 1000, 0, 0);
}

static void check_extract(const struct rdc_kpack *k, const uint8_t *a, size_t n, const char *key,
			  const char *arch, const uint8_t *want, size_t want_n)
{
	const struct rdc_kpack_entry *e = rdc_kpack_find(k, key, arch);
	assert_non_null(e);
	uint8_t *out = NULL;
	size_t len = 0;
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_kpack_extract(k, a, n, e, &out, &len, &d), 0);
	assert_int_equal(len, want_n);
	assert_memory_equal(out, want, want_n);
	free(out);
}

static void test_noop_asset(void **state)
{
	(void)state;
	size_t n;
	uint8_t *a = src_fixture("test_noop.kpack", &n);
	struct rdc_kpack k;
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_kpack_parse(a, n, &k, &d), 0);
	assert_int_equal(k.version, 1);
	assert_int_equal(k.toc_offset, 0x23a);
	assert_int_equal(k.scheme, RDC_KPACK_SCHEME_NONE);
	assert_string_equal(k.group_name, "test");
	assert_string_equal(k.arch_family, "gfx900X");
	assert_int_equal(k.n_arches, 2);
	assert_string_equal(k.arches[0], "gfx900");
	assert_string_equal(k.arches[1], "gfx906");
	assert_int_equal(k.n_entries, 3);
	assert_int_equal(k.n_keys, 2);
	assert_int_equal(k.n_blobs, 3);
	assert_true(rdc_kpack_has_arch(&k, "gfx906"));
	assert_false(rdc_kpack_has_arch(&k, "gfx1030"));
	assert_null(rdc_kpack_find(&k, "bin/testapp#0", "gfx906"));
	assert_string_equal(k.entries[1].type, "hsaco");
	assert_int_equal(k.entries[1].offset, 64 + 119);
	struct gen g;
	gen_noop(&g);
	check_extract(&k, a, n, "lib/libtest.so#0", "gfx900", g.d[0], g.n[0]);
	check_extract(&k, a, n, "lib/libtest.so#0", "gfx906", g.d[1], g.n[1]);
	check_extract(&k, a, n, "bin/testapp#0", "gfx900", g.d[2], g.n[2]);
	rdc_kpack_free(&k);
	free(a);
}

static void test_zstd_asset(void **state)
{
	(void)state;
	size_t n;
	uint8_t *a = src_fixture("test_zstd.kpack", &n);
	struct rdc_kpack k;
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_kpack_parse(a, n, &k, &d), 0);
	assert_int_equal(k.scheme, RDC_KPACK_SCHEME_ZSTD);
	assert_int_equal(k.blob_offset, 64);
	assert_int_equal(k.n_blobs, 3);
	assert_string_equal(k.arches[1], "gfx1101");
	struct gen g;
	gen_zstd(&g);
	check_extract(&k, a, n, "lib/libhip.so#0", "gfx1100", g.d[0], g.n[0]);
	check_extract(&k, a, n, "lib/libhip.so#0", "gfx1101", g.d[1], g.n[1]);
	check_extract(&k, a, n, "bin/hiptest#0", "gfx1100", g.d[2], g.n[2]);
	rdc_kpack_free(&k);
	free(a);
}

/* The writer gives the generator's bytes exactly. */
static void write_same(const char *asset, enum rdc_kpack_scheme s, const char *family,
		       const char *const arches[2], const char *keys[3], const char *karch[3],
		       struct gen *g)
{
	struct rdc_kpack_input in[3];
	for (int i = 0; i < 3; i++)
		in[i] = (struct rdc_kpack_input){ keys[i], karch[i], NULL, NULL, g->d[i], g->n[i] };
	uint8_t *out = NULL;
	size_t len = 0;
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_kpack_write("test", family, arches, 2, in, 3, s, &out, &len, &d), 0);
	size_t n;
	uint8_t *a = src_fixture(asset, &n);
	assert_int_equal(len, n);
	assert_memory_equal(out, a, n);
	free(out);
	free(a);
}

static void test_write_assets(void **state)
{
	(void)state;
	struct gen g;
	gen_noop(&g);
	const char *a1[2] = { "gfx900", "gfx906" };
	const char *k1[3] = { "lib/libtest.so#0", "lib/libtest.so#0", "bin/testapp#0" };
	const char *r1[3] = { "gfx900", "gfx906", "gfx900" };
	write_same("test_noop.kpack", RDC_KPACK_SCHEME_NONE, "gfx900X", a1, k1, r1, &g);
	gen_zstd(&g);
	const char *a2[2] = { "gfx1100", "gfx1101" };
	const char *k2[3] = { "lib/libhip.so#0", "lib/libhip.so#0", "bin/hiptest#0" };
	const char *r2[3] = { "gfx1100", "gfx1101", "gfx1100" };
	write_same("test_zstd.kpack", RDC_KPACK_SCHEME_ZSTD, "gfx110X", a2, k2, r2, &g);
}

/* A real code object, both schemes, with TheRock's metadata map. */
static void test_real_codeobj(void **state)
{
	(void)state;
	size_t con;
	uint8_t *co = load_fixture("codeobj/iota-gfx1030-v5.co", &con);
	if (!co) {
		print_message("skipped: fixture codeobj/iota-gfx1030-v5.co missing (make fixtures)\n");
		skip();
	}
	const char *arches[] = { "gfx1030" };
	struct rdc_kpack_input in = { "demo/stage/lib/libdemo.so.1#0", "gfx1030",
				      "hipv4-amdgcn-amd-amdhsa--gfx1030", "demo/stage", co, con };
	for (int s = 0; s < 2; s++) {
		uint8_t *out = NULL;
		size_t len = 0;
		struct rdc_diag d = { 0 };
		assert_int_equal(rdc_kpack_write("demo_lib", "gfx1030", arches, 1, &in, 1, s, &out, &len, &d), 0);
		struct rdc_kpack k;
		assert_int_equal(rdc_kpack_parse(out, len, &k, &d), 0);
		assert_int_equal(k.scheme, s);
		assert_string_equal(k.entries[0].target, "hipv4-amdgcn-amd-amdhsa--gfx1030");
		assert_int_equal(k.entries[0].original_size, con);
		if (s == RDC_KPACK_SCHEME_ZSTD)
			assert_true(k.entries[0].size < con);   /* compressed blocks, not raw */
		check_extract(&k, out, len, in.key, "gfx1030", co, con);
		rdc_kpack_free(&k);
		free(out);
	}
	free(co);
}

static int parse_rc(const uint8_t *p, size_t n, struct rdc_diag *d)
{
	struct rdc_kpack k;
	int rc = rdc_kpack_parse(p, n, &k, d);
	if (rc == 0) {   /* everything the listing shows must extract or fail cleanly */
		for (size_t i = 0; i < k.n_entries; i++) {
			uint8_t *o = NULL;
			size_t l = 0;
			if (rdc_kpack_extract(&k, p, n, &k.entries[i], &o, &l, NULL) == 0)
				free(o);
		}
	}
	rdc_kpack_free(&k);
	return rc;
}

static void test_malformed(void **state)
{
	(void)state;
	size_t n;
	uint8_t *a = src_fixture("test_noop.kpack", &n);
	uint8_t *b = malloc(n);
	struct rdc_diag d = { 0 };
	/* every truncation fails */
	for (size_t l = 0; l < n; l++) {
		uint8_t *t = malloc(l ? l : 1);
		memcpy(t, a, l);
		assert_int_not_equal(parse_rc(t, l, &d), 0);
		free(t);
	}
	assert_int_equal(parse_rc(a, 10, &d), RDC_E_TRUNCATED);
	memcpy(b, a, n);
	b[0] = 'X';
	assert_int_equal(parse_rc(b, n, &d), RDC_E_FORMAT);
	memcpy(b, a, n);
	b[4] = 2;
	assert_int_equal(parse_rc(b, n, &d), RDC_E_UNSUPPORTED);
	assert_int_equal(d.offset, 4);
	memcpy(b, a, n);
	b[9] = 0x40;   /* TOC offset 0x403a > file */
	assert_int_equal(parse_rc(b, n, &d), RDC_E_RANGE);
	assert_int_equal(d.offset, 8);
	memcpy(b, a, n);
	b[8] = 0x3b;   /* TOC offset one byte late: not a map */
	assert_int_not_equal(parse_rc(b, n, &d), 0);
	/* blob 2's offset 0x192 -> 0x392, past the 903-byte file */
	memcpy(b, a, n);
	uint8_t *of = memmem(b + 0x23a, n - 0x23a, "\xa6offset\xcd\x01\x92", 10);
	assert_non_null(of);
	of[8] = 0x03;
	assert_int_equal(parse_rc(b, n, &d), RDC_E_RANGE);
	assert_int_equal(d.offset, 0x392);
	/* a blob ordinal with no blob: entry 2's ordinal 2 -> 9 */
	memcpy(b, a, n);
	uint8_t *ord = memmem(b + 0x23a, n - 0x23a, "\xa7ordinal\x02", 9);
	assert_non_null(ord);
	ord[8] = 9;
	assert_int_equal(parse_rc(b, n, &d), RDC_E_RANGE);
	/* every single-byte corruption: no crash, and a result */
	for (size_t i = 0; i < n; i++)
		for (int v = 0; v < 256; v += 51) {
			memcpy(b, a, n);
			b[i] = (uint8_t)v;
			(void)parse_rc(b, n, NULL);
		}
	free(a);
	free(b);
}

static void test_malformed_zstd(void **state)
{
	(void)state;
	size_t n;
	uint8_t *a = src_fixture("test_zstd.kpack", &n);
	uint8_t *b = malloc(n);
	struct rdc_diag d = { 0 };
	struct rdc_kpack k;
	/* original_size one more than the frame holds: 1019 -> 1020 */
	memcpy(b, a, n);
	uint8_t *os = memmem(b, n, "\xadoriginal_size\xcd\x03\xfb", 17);
	assert_non_null(os);
	os[16] = 0xfc;
	assert_int_equal(rdc_kpack_parse(b, n, &k, &d), 0);
	const struct rdc_kpack_entry *e = rdc_kpack_find(&k, "lib/libhip.so#0", "gfx1100");
	uint8_t *out = NULL;
	size_t len = 0;
	assert_int_equal(rdc_kpack_extract(&k, b, n, e, &out, &len, &d), RDC_E_CORRUPT);
	assert_null(out);
	assert_non_null(strstr(d.msg, "1020"));
	rdc_kpack_free(&k);
	/* frame count beyond librocm_kpack's limit, and beyond the blob */
	memcpy(b, a, n);
	b[64] = 0xff, b[65] = 0xff, b[66] = 0xff, b[67] = 0xff;
	assert_int_equal(rdc_kpack_parse(b, n, &k, &d), RDC_E_RANGE);
	rdc_kpack_free(&k);
	memcpy(b, a, n);
	b[64] = 200;
	assert_int_equal(rdc_kpack_parse(b, n, &k, &d), RDC_E_RANGE);
	rdc_kpack_free(&k);
	/* first frame's size past the blob */
	memcpy(b, a, n);
	b[70] = 0x10;
	assert_int_equal(rdc_kpack_parse(b, n, &k, &d), RDC_E_RANGE);
	rdc_kpack_free(&k);
	/* every single-byte corruption */
	for (size_t i = 0; i < n; i++)
		for (int v = 0; v < 256; v += 37) {
			memcpy(b, a, n);
			b[i] = (uint8_t)v;
			(void)parse_rc(b, n, NULL);
		}
	free(a);
	free(b);
}

/* A TOC declaring 2^32-1 array elements in a few bytes: refused before
 * msgpack-c allocates. */
static void test_huge_counts(void **state)
{
	(void)state;
	uint8_t b[64 + 8] = { 'K', 'P', 'A', 'K', 1, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0 };
	b[64] = 0xdd, b[65] = 0xff, b[66] = 0xff, b[67] = 0xff, b[68] = 0xff;
	struct rdc_diag d = { 0 };
	assert_int_not_equal(parse_rc(b, 69, &d), 0);
	b[64] = 0xdf;   /* map32 */
	assert_int_not_equal(parse_rc(b, 69, &d), 0);
}

static void test_marker(void **state)
{
	(void)state;
	const char *paths[] = { "../.kpack/rand_lib_@GFXARCH@.kpack" };
	uint8_t *m = NULL;
	size_t len = 0;
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_kpack_ref_encode("rocrand/lib/librocrand.so.1.1", paths, 1, &m, &len, &d), 0);
	/* 82, b2 "kpack_search_paths", 91, d9 22 <34 bytes>, ab "kernel_name", bd <29 bytes> */
	assert_int_equal(len, 1 + 19 + 1 + 2 + 34 + 12 + 1 + 29);
	assert_int_equal(m[0], 0x82);
	assert_int_equal(m[1], 0xb2);
	assert_memory_equal(m + 2, "kpack_search_paths", 18);
	assert_int_equal(m[20], 0x91);
	assert_int_equal(m[21], 0xd9);
	assert_int_equal(m[22], 34);
	struct rdc_kpack_ref r;
	assert_int_equal(rdc_kpack_ref_parse(m, len, &r, &d), 0);
	assert_string_equal(r.kernel_name, "rocrand/lib/librocrand.so.1.1");
	assert_int_equal(r.n_paths, 1);
	assert_string_equal(r.paths[0], paths[0]);
	assert_int_equal(r.used, len);
	rdc_kpack_ref_free(&r);
	/* trailing bytes (the section may be padded) are fine; truncation not */
	for (size_t l = 0; l < len; l++)
		assert_int_not_equal(rdc_kpack_ref_parse(m, l, &r, &d), 0);
	free(m);
	char buf[128];
	assert_int_equal(rdc_kpack_expand(paths[0], "gfx10-3-generic", buf, sizeof buf),
			 (int)strlen("../.kpack/rand_lib_gfx10-3-generic.kpack"));
	assert_string_equal(buf, "../.kpack/rand_lib_gfx10-3-generic.kpack");
	assert_int_equal(rdc_kpack_expand("a.kpack", "gfx1030", buf, sizeof buf), RDC_E_NOTFOUND);
	assert_int_equal(rdc_kpack_expand(paths[0], "gfx1030", buf, 8), RDC_E_RANGE);
	/* what librocm_kpack refuses (KPACK_ERROR_INVALID_METADATA) */
	static const uint8_t no_name[] = { 0x81, 0xb2, 'k', 'p', 'a', 'c', 'k', '_', 's', 'e', 'a', 'r', 'c',
					   'h', '_', 'p', 'a', 't', 'h', 's', 0x91, 0xa1, 'x' };
	assert_int_equal(rdc_kpack_ref_parse(no_name, sizeof no_name, &r, &d), RDC_E_FORMAT);
	static const uint8_t empty_paths[] = { 0x82, 0xb2, 'k', 'p', 'a', 'c', 'k', '_', 's', 'e', 'a', 'r', 'c',
					       'h', '_', 'p', 'a', 't', 'h', 's', 0x90, 0xab, 'k', 'e', 'r',
					       'n', 'e', 'l', '_', 'n', 'a', 'm', 'e', 0xa1, 'x' };
	assert_int_equal(rdc_kpack_ref_parse(empty_paths, sizeof empty_paths, &r, &d), RDC_E_FORMAT);
	assert_non_null(strstr(d.msg, "empty"));
	/* a non-string path is skipped, as the loader does */
	static const uint8_t mixed[] = { 0x82, 0xb2, 'k', 'p', 'a', 'c', 'k', '_', 's', 'e', 'a', 'r', 'c',
					 'h', '_', 'p', 'a', 't', 'h', 's', 0x92, 0x07, 0xa1, 'p', 0xab, 'k', 'e', 'r',
					 'n', 'e', 'l', '_', 'n', 'a', 'm', 'e', 0xa1, 'x', 0, 0, 0 };
	assert_int_equal(rdc_kpack_ref_parse(mixed, sizeof mixed, &r, &d), 0);
	assert_int_equal(r.n_paths, 1);
	assert_string_equal(r.paths[0], "p");
	assert_string_equal(r.kernel_name, "x");
	rdc_kpack_ref_free(&r);
	static const uint8_t not_map[] = { 0x91, 0x01 };
	assert_int_equal(rdc_kpack_ref_parse(not_map, sizeof not_map, &r, &d), RDC_E_FORMAT);
}

/* A host library with the marker added by objcopy: found where readelf
 * says, wrappers counted (still HIPF: nothing else was changed). */
static void test_host_scan(void **state)
{
	(void)state;
	char *lib = fixture_path("host/libiota-1030.so");
	if (!lib || !have_tool("objcopy") || !have_tool("readelf")) {
		free(lib);
		print_message("skipped: fixture host/libiota-1030.so missing, or no objcopy/readelf (binutils)\n");
		skip();
	}
	const char *paths[] = { "../.kpack/demo_lib_@GFXARCH@.kpack" };
	uint8_t *m = NULL;
	size_t len = 0;
	assert_int_equal(rdc_kpack_ref_encode("demo/lib/libiota.so", paths, 1, &m, &len, NULL), 0);
	char dir[] = "/tmp/rdc-kpack-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char mp[300], out[300], cmd[1400];
	snprintf(mp, sizeof mp, "%s/marker", dir);
	snprintf(out, sizeof out, "%s/lib.so", dir);
	FILE *f = fopen(mp, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(m, 1, len, f), len);
	fclose(f);
	snprintf(cmd, sizeof cmd, "objcopy --add-section .rocm_kpack_ref=%s --set-section-flags "
		 ".rocm_kpack_ref=readonly,contents %s %s", mp, lib, out);
	assert_int_equal(system(cmd), 0);
	size_t n;
	uint8_t *b = slurp(out, &n);
	assert_non_null(b);
	struct rdc_kpack_host h;
	assert_int_equal(rdc_kpack_host_scan(b, n, &h, NULL), 0);
	assert_true(h.has_ref);
	assert_int_equal(h.ref_size, len);
	assert_memory_equal(b + h.ref_offset, m, len);
	assert_true(h.has_fatbin);
	assert_false(h.fatbin_nobits);
	assert_true(h.n_wrappers >= 1);
	assert_int_equal(h.n_hipk, 0);
	struct rdc_kpack_ref r;
	assert_int_equal(rdc_kpack_ref_parse(b + h.ref_offset, h.ref_size, &r, NULL), 0);
	assert_string_equal(r.kernel_name, "demo/lib/libiota.so");
	rdc_kpack_ref_free(&r);
	/* the original has none */
	size_t n0;
	uint8_t *b0 = slurp(lib, &n0);
	assert_int_equal(rdc_kpack_host_scan(b0, n0, &h, NULL), 0);
	assert_false(h.has_ref);
	assert_int_equal(rdc_kpack_host_scan(m, len, &h, NULL), RDC_E_FORMAT);
	free(b0);
	free(b);
	free(m);
	free(lib);
	unlink(mp);
	unlink(out);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noop_asset),
		cmocka_unit_test(test_zstd_asset),
		cmocka_unit_test(test_write_assets),
		cmocka_unit_test(test_real_codeobj),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_malformed_zstd),
		cmocka_unit_test(test_huge_counts),
		cmocka_unit_test(test_marker),
		cmocka_unit_test(test_host_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
