/* SPDX-License-Identifier: MIT */
/*
 * test_bundle.c — offload bundles (shim/core/bundle*.c) against the real
 * tools: entries, ids and bytes must match what clang-offload-bundler-15
 * lists and unbundles from the fixtures; rdc_bundle_write must reproduce the
 * bundler's files byte for byte; CCOB v1/v2/v3 x zlib/zstd must round-trip
 * and match LLVM's header layout (checked field by field and by
 * decompressing the payload with zlib/libzstd directly); the truncated MD5
 * must match RFC 1321 and md5sum; and lying inputs (truncated, oversized,
 * overlapping, wrong magic, offset+size past the end, u64 overflow, huge
 * counts, bad CCOB sizes) must fail with the right code and offset, never
 * crash.
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
#include <zlib.h>

/* What include/rdnacompat/bundle.h says rdc_bundle_parse_table reads of a CCOB. */
#define RDC_TABLE_PREFIX_TEST (64u << 10)
#include <zstd.h>

#include "rdnacompat/bundle.h"
#include "fixture.h"

/* ---- helpers --------------------------------------------------------------- */

static void st64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t ld64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A small plain bundle made by hand: header + entries, align 8. */
static uint8_t *make_bundle(size_t *len)
{
	static const char a[] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	static const char b[] = "BBBBBBBBBBBBBBBBB";
	struct rdc_bundle_input in[3] = {
		{ "host-x86_64-unknown-linux", NULL, 0 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1030", a, sizeof a },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1100", b, sizeof b },
	};
	uint8_t *out = NULL;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_write(in, 3, 8, &out, len, &d), 0);
	return out;
}

/* Byte offset of entry i's descriptor in a plain bundle. */
static size_t desc_at(const uint8_t *p, size_t i)
{
	size_t off = 32;
	while (i--)
		off += 24 + (size_t)ld64(p + off + 16);
	return off;
}

static void expect_fail(const void *p, uint64_t avail, int code, uint64_t offset,
			const char *needle)
{
	struct rdc_bundle b;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_bundle_parse(p, avail, &b, &d);
	if (rc != code || (offset != RDC_NO_OFFSET + 0 && d.offset != offset) ||
	    (needle && !strstr(d.msg, needle)))
		print_error("got rc %d offset %llu msg '%s'; wanted rc %d offset %llu '%s'\n", rc,
			    (unsigned long long)d.offset, d.msg, code, (unsigned long long)offset,
			    needle ? needle : "");
	assert_int_equal(rc, code);
	assert_true(d.msg[0] != '\0');
	if (offset != RDC_NO_OFFSET)
		assert_int_equal(d.offset, offset);
	if (needle)
		assert_non_null(strstr(d.msg, needle));
	assert_int_equal(b.n_entries, 0);
	assert_null(b.entries);
}

/* ---- MD5 ------------------------------------------------------------------- */

static uint64_t low64_of_hex(const char *hex)
{
	uint8_t bytes[8];
	for (int i = 0; i < 8; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		bytes[i] = (uint8_t)v;
	}
	return ld64(bytes);
}

static void test_md5_rfc1321(void **state)
{
	(void)state;
	static const struct { const char *in, *md5; } v[] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "d174ab98d277d9f5a5611c2c9f419d9f" },
		{ "1234567890123456789012345678901234567890123456789012345678901234567890"
		  "1234567890", "57edf4a22be3c955ac49da2e2107b67a" },
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		assert_true(rdc_bundle_hash(v[i].in, strlen(v[i].in)) == low64_of_hex(v[i].md5));
}

static void test_md5_matches_md5sum(void **state)
{
	(void)state;
	char *path = have_tool("md5sum") ? fixture_path("bundle/iota.bundle") : NULL;
	if (!path) {
		print_message("skipped: no md5sum, or fixture bundle/iota.bundle missing (make fixtures)\n");
		skip();
		return; /* skip() longjmps; the compiler does not know */
	}
	char cmd[4096], out[64] = "";
	snprintf(cmd, sizeof cmd, "md5sum '%s'", path);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(out, sizeof out, f));
	pclose(f);
	size_t len;
	uint8_t *buf = slurp(path, &len);
	assert_non_null(buf);
	/* Every split length too: the block buffering must not matter. */
	assert_true(rdc_bundle_hash(buf, len) == low64_of_hex(out));
	free(buf);
	free(path);
}

/* ---- real bundles vs clang-offload-bundler-15 -------------------------------- */

static void check_against_bundler(const char *rel)
{
	char *path = have_tool("clang-offload-bundler-15") ? fixture_path(rel) : NULL;
	if (!path) {
		print_message("skipped: no clang-offload-bundler-15, or fixture %s missing (make fixtures)\n", rel);
		skip();
		return; /* skip() longjmps; the compiler does not know */
	}
	size_t len;
	uint8_t *buf = slurp(path, &len);
	assert_non_null(buf);
	struct rdc_bundle b;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_bundle_parse(buf, len, &b, &d);
	if (rc)
		print_error("%s: %s\n", rel, d.msg);
	assert_int_equal(rc, 0);
	assert_false(b.compressed);
	assert_true(b.extent == len); /* the bundler writes nothing after the last entry */
	uint64_t ext = 0;
	assert_int_equal(rdc_bundle_extent(buf, len, &ext, &d), 0);
	assert_true(ext == len);

	/* --list prints the ids (in hash order): compare as sets. */
	char cmd[8192], line[512];
	snprintf(cmd, sizeof cmd, "clang-offload-bundler-15 -list -type=o -input='%s'", path);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t listed = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		listed++;
		assert_true(rdc_bundle_find(&b, line, strlen(line)) >= 0);
	}
	assert_int_equal(pclose(f), 0);
	assert_int_equal(listed, b.n_entries);

	/* Each entry's bytes == what the bundler unbundles for its id. */
	char tmp[] = "/tmp/rdc-test-bundle-XXXXXX";
	int fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < b.n_entries; i++) {
		const struct rdc_bundle_entry *e = &b.entries[i];
		char id[256];
		assert_true(e->id_len < sizeof id);
		memcpy(id, e->id, e->id_len);
		id[e->id_len] = '\0';
		snprintf(cmd, sizeof cmd,
			 "clang-offload-bundler-15 -unbundle -type=o -input='%s' -targets=%s "
			 "-output=%s", path, id, tmp);
		assert_int_equal(system(cmd), 0);
		size_t xl;
		uint8_t *x = slurp(tmp, &xl);
		assert_non_null(x);
		if (e->parsed.kind == RDC_KIND_HOST) {
			/* The bundler writes the whole input for the host when it is empty;
			 * our entry is the real (empty) entry. */
			assert_int_equal(e->size, 0);
		} else {
			assert_true(xl == e->size);
			assert_memory_equal(x, e->data, xl);
			/* Device entries are AMDGPU ELF code objects. */
			assert_memory_equal(e->data, "\177ELF", 4);
			assert_int_equal(e->parsed.kind, RDC_KIND_HIPV4);
			assert_true(e->parsed.has_target);
			assert_int_equal(strncmp(id + strlen("hipv4-amdgcn-amd-amdhsa--"),
						 e->parsed.target.proc, strlen(e->parsed.target.proc)),
					 0);
		}
		free(x);
	}
	unlink(tmp);
	rdc_bundle_free(&b);
	free(buf);
	free(path);
}

static void test_fixture_iota(void **s) { (void)s; check_against_bundler("bundle/iota.bundle"); }
static void test_fixture_iota_1030(void **s) { (void)s; check_against_bundler("bundle/iota-1030.bundle"); }
static void test_fixture_iota_align4096(void **s) { (void)s; check_against_bundler("bundle/iota-a4096.bundle"); }

/* rdc_bundle_write reproduces the bundler's files byte for byte, from the
 * same inputs in the same order (build.sh / bundles.d/hostlibs.sh). */
static void check_writer_matches(const char *rel, uint64_t align, const char *const *targets,
				 const char *const *stems, size_t n)
{
	char *path = fixture_path(rel);
	if (!path) {
		print_message("skipped: fixture %s missing (make fixtures)\n", rel);
		skip();
	}
	size_t len;
	uint8_t *want = slurp(path, &len);
	assert_non_null(want);
	struct rdc_bundle_input in[8];
	uint8_t *co[8] = { 0 };
	char ids[8][128];
	in[0] = (struct rdc_bundle_input){ "host-x86_64-unknown-linux", NULL, 0 };
	for (size_t i = 0; i < n; i++) {
		char rel_co[128];
		snprintf(rel_co, sizeof rel_co, "co/%s.co", stems[i]);
		char *cp = fixture_path(rel_co);
		assert_non_null(cp);
		size_t cl;
		co[i] = slurp(cp, &cl);
		free(cp);
		snprintf(ids[i], sizeof ids[i], "hipv4-amdgcn-amd-amdhsa--%s", targets[i]);
		in[i + 1] = (struct rdc_bundle_input){ ids[i], co[i], cl };
	}
	uint8_t *out = NULL;
	size_t out_len = 0;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_write(in, n + 1, align, &out, &out_len, &d), 0);
	assert_int_equal(out_len, len);
	assert_memory_equal(out, want, len);
	/* And in entries 1.. the offsets are multiples of align. */
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse(out, out_len, &b, &d), 0);
	for (size_t i = 0; i < b.n_entries; i++)
		assert_int_equal(b.entries[i].offset % align, 0);
	rdc_bundle_free(&b);
	free(out);
	for (size_t i = 0; i < n; i++)
		free(co[i]);
	free(want);
	free(path);
}

/* build.sh uses the tool's default alignment, 1. */
static void test_writer_matches_bundler_align1(void **s)
{
	(void)s;
	static const char *const t[] = { "gfx1030", "gfx1100", "gfx90a:xnack+", "gfx906" };
	static const char *const st[] = { "gfx1030", "gfx1100", "gfx90a_xnackon", "gfx906" };
	check_writer_matches("bundle/iota.bundle", 1, t, st, 4);
}

/* 4096 is what the HIP driver passes (-bundle-align=4096). */
static void test_writer_matches_bundler_4096(void **s)
{
	(void)s;
	static const char *const t[] = { "gfx1030", "gfx1100" };
	check_writer_matches("bundle/iota-a4096.bundle", 4096, t, t, 2);
}

/* ---- write -> parse ------------------------------------------------------------ */

static void test_write_parse_roundtrip(void **state)
{
	(void)state;
	size_t len;
	uint8_t *p = make_bundle(&len);
	struct rdc_bundle b;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_parse(p, len, &b, &d), 0);
	assert_int_equal(b.n_entries, 3);
	assert_true(b.extent == len);
	assert_true(b.bytes == p); /* zero-copy */
	assert_int_equal(b.method, RDC_COMP_NONE);
	assert_null(b.entries[0].data);
	assert_int_equal(b.entries[0].parsed.kind, RDC_KIND_HOST);
	assert_int_equal(b.entries[1].size, 32);
	assert_memory_equal(b.entries[1].data, "AAAA", 4);
	assert_true(b.entries[1].data == p + b.entries[1].offset);
	assert_int_equal(b.entries[1].offset % 8, 0);
	assert_string_equal(b.entries[2].parsed.target.proc, "gfx1100");
	assert_int_equal(rdc_bundle_find(&b, "hipv4-amdgcn-amd-amdhsa--gfx1100", 32), 2);
	assert_int_equal(rdc_bundle_find(&b, "hipv4-amdgcn-amd-amdhsa--gfx110", 31), -1);
	assert_true(rdc_is_bundle(p, len));
	assert_false(rdc_is_bundle(p, 23));
	rdc_bundle_free(&b);

	/* No entries at all: a 32-byte bundle. */
	uint8_t *e = NULL;
	size_t el;
	assert_int_equal(rdc_bundle_write(NULL, 0, 4096, &e, &el, &d), 0);
	assert_int_equal(el, 32);
	assert_int_equal(rdc_bundle_parse(e, el, &b, &d), 0);
	assert_int_equal(b.n_entries, 0);
	assert_true(b.extent == 32);
	rdc_bundle_free(&b);
	free(e);

	/* Bad writer arguments. */
	struct rdc_bundle_input bad = { "", "x", 1 };
	assert_int_equal(rdc_bundle_write(&bad, 1, 1, &e, &el, &d), RDC_E_INVAL);
	bad.id = "x";
	assert_int_equal(rdc_bundle_write(&bad, 1, 0, &e, &el, &d), RDC_E_INVAL);
	free(p);
}

/* ---- CCOB ------------------------------------------------------------------------ */

static void check_ccob(const uint8_t *plain, size_t plen, int method, unsigned version)
{
	struct rdc_diag d;
	rdc_diag_clear(&d);
	uint8_t *z = NULL;
	size_t zl = 0;
	assert_int_equal(rdc_bundle_compress(plain, plen, method, version, &z, &zl, &d), 0);
	/* LLVM's layout, field by field. */
	size_t hdr = version == 1 ? 20 : version == 2 ? 24 : 32;
	assert_memory_equal(z, "CCOB", 4);
	assert_int_equal(z[4] | z[5] << 8, version);
	assert_int_equal(z[6] | z[7] << 8, method);
	uint64_t usize, hash;
	if (version == 1) {
		usize = ld32(z + 8);
		hash = ld64(z + 12);
	} else if (version == 2) {
		assert_int_equal(ld32(z + 8), zl);
		usize = ld32(z + 12);
		hash = ld64(z + 16);
	} else {
		assert_true(ld64(z + 8) == zl);
		usize = ld64(z + 16);
		hash = ld64(z + 24);
	}
	assert_true(usize == plen);
	assert_true(hash == rdc_bundle_hash(plain, plen));
	/* The payload decompresses with the plain libraries. */
	uint8_t *raw = malloc(plen + 1);
	if (method == RDC_COMP_ZLIB) {
		uLongf rl = plen + 1;
		assert_int_equal(uncompress(raw, &rl, z + hdr, zl - hdr), Z_OK);
		assert_int_equal(rl, plen);
	} else {
		assert_true(ZSTD_getFrameContentSize(z + hdr, zl - hdr) == plen);
		assert_int_equal(ZSTD_decompress(raw, plen + 1, z + hdr, zl - hdr), plen);
	}
	assert_memory_equal(raw, plain, plen);
	free(raw);

	/* Parse; trailing bytes after the CCOB must not change its extent (v1
	 * has no size field: its end is the stream's end). */
	uint8_t *pad = malloc(zl + 4096);
	memcpy(pad, z, zl);
	memset(pad + zl, 0, 4096);
	for (int withpad = 0; withpad < 2; withpad++) {
		uint64_t avail = zl + (withpad ? 4096 : 0);
		struct rdc_bundle b;
		int rc = rdc_bundle_parse(pad, avail, &b, &d);
		if (rc)
			print_error("v%u %s: %s\n", version, method ? "zstd" : "zlib", d.msg);
		assert_int_equal(rc, 0);
		assert_true(b.compressed);
		assert_int_equal(b.ccob_version, version);
		assert_int_equal(b.method, method);
		assert_true(b.extent == zl);
		assert_true(b.uncompressed_size == plen);
		assert_true(b.size == plen);
		assert_true(b.hash == hash);
		assert_memory_equal(b.bytes, plain, plen);
		struct rdc_bundle p;
		assert_int_equal(rdc_bundle_parse(plain, plen, &p, &d), 0);
		assert_int_equal(b.n_entries, p.n_entries);
		for (size_t i = 0; i < p.n_entries; i++) {
			assert_int_equal(b.entries[i].id_len, p.entries[i].id_len);
			assert_memory_equal(b.entries[i].id, p.entries[i].id, p.entries[i].id_len);
			assert_true(b.entries[i].size == p.entries[i].size);
			if (p.entries[i].size)
				assert_memory_equal(b.entries[i].data, p.entries[i].data,
						    p.entries[i].size);
		}
		rdc_bundle_free(&p);
		rdc_bundle_free(&b);
		uint64_t ext = 0;
		assert_int_equal(rdc_bundle_extent(pad, avail, &ext, &d), 0);
		assert_true(ext == zl);
	}
	free(pad);
	free(z);
}

static void test_ccob_roundtrip_all(void **state)
{
	(void)state;
	char *path = fixture_path("bundle/iota.bundle");
	size_t len;
	uint8_t *plain = path ? slurp(path, &len) : make_bundle(&len);
	for (unsigned v = 1; v <= 3; v++) {
		check_ccob(plain, len, RDC_COMP_ZLIB, v);
		check_ccob(plain, len, RDC_COMP_ZSTD, v);
	}
	free(plain);
	free(path);
}

static void test_ccob_bad_args(void **state)
{
	(void)state;
	uint8_t *z;
	size_t zl;
	struct rdc_diag d;
	assert_int_equal(rdc_bundle_compress("x", 1, RDC_COMP_ZLIB, 4, &z, &zl, &d),
			 RDC_E_UNSUPPORTED);
	assert_int_equal(rdc_bundle_compress("x", 1, 7, 2, &z, &zl, &d), RDC_E_UNSUPPORTED);
	assert_int_equal(rdc_bundle_compress(NULL, 1, RDC_COMP_ZLIB, 2, &z, &zl, &d), RDC_E_INVAL);
}

/* Header lies in a CCOB: each must fail with its code at its field. */
static void test_ccob_lies(void **state)
{
	(void)state;
	size_t len;
	uint8_t *plain = make_bundle(&len);
	uint8_t *z;
	size_t zl;
	struct rdc_diag d;
	for (int m = 0; m < 2; m++) {
		/* v2 */
		assert_int_equal(rdc_bundle_compress(plain, len, m, 2, &z, &zl, &d), 0);
		uint8_t *c = malloc(zl);
		memcpy(c, z, zl);
		c[4] = 4; /* version 4 */
		expect_fail(c, zl, RDC_E_UNSUPPORTED, 4, "version 4");
		memcpy(c, z, zl);
		c[6] = 2; /* method 2 */
		expect_fail(c, zl, RDC_E_UNSUPPORTED, 6, "method 2");
		memcpy(c, z, zl);
		c[8] = 10, c[9] = c[10] = c[11] = 0; /* total < header */
		expect_fail(c, zl, RDC_E_RANGE, 8, "smaller than");
		expect_fail(z, zl - 1, RDC_E_RANGE, 8, "runs past"); /* total > avail */
		expect_fail(z, 10, RDC_E_TRUNCATED, 8, NULL);        /* header cut */
		expect_fail(z, 5, RDC_E_TRUNCATED, 0, NULL);
		memcpy(c, z, zl);
		c[12]++; /* uncompressed size + 1 */
		expect_fail(c, zl, RDC_E_CORRUPT, RDC_NO_OFFSET, NULL);
		memcpy(c, z, zl);
		c[12]--; /* uncompressed size - 1 */
		expect_fail(c, zl, RDC_E_CORRUPT, RDC_NO_OFFSET, NULL);
		memcpy(c, z, zl);
		c[15] = 0x7f; /* ~2 GB claimed from a few hundred bytes */
		expect_fail(c, zl, RDC_E_CORRUPT, 12, NULL);
		memcpy(c, z, zl);
		c[16] ^= 1; /* hash */
		expect_fail(c, zl, RDC_E_CORRUPT, 16, "hash");
		{	/* as the runtime reads it: the stored hash is not recomputed */
			struct rdc_bundle rb;
			assert_int_equal(rdc_bundle_parse_as_runtime(c, zl, &rb, &d), 0);
			assert_int_equal(rb.n_entries, 3);
			rdc_bundle_free(&rb);
			c[12]++; /* but a wrong size is still refused */
			assert_int_equal(rdc_bundle_parse_as_runtime(c, zl, &rb, &d), RDC_E_CORRUPT);
		}
		memcpy(c, z, zl);
		c[zl / 2 + 12] ^= 0x55; /* payload damage */
		struct rdc_bundle b;
		int rc = rdc_bundle_parse(c, zl, &b, &d);
		assert_int_equal(rc, RDC_E_CORRUPT);
		/* Payload truncated, total size adjusted to match. */
		memcpy(c, z, zl);
		uint32_t t = (uint32_t)zl - 8;
		c[8] = (uint8_t)t, c[9] = (uint8_t)(t >> 8), c[10] = (uint8_t)(t >> 16), c[11] = 0;
		expect_fail(c, zl - 8, RDC_E_CORRUPT, RDC_NO_OFFSET, NULL);
		free(c);
		free(z);

		/* v3: a 2^40-byte claim must be refused before allocating. */
		assert_int_equal(rdc_bundle_compress(plain, len, m, 3, &z, &zl, &d), 0);
		c = malloc(zl);
		memcpy(c, z, zl);
		st64(c + 16, 1ull << 40);
		expect_fail(c, zl, RDC_E_CORRUPT, m == RDC_COMP_ZSTD ? 16 : 16, NULL);
		memcpy(c, z, zl);
		st64(c + 8, UINT64_MAX); /* total size lies */
		expect_fail(c, zl, RDC_E_RANGE, 8, NULL);
		uint64_t ext;
		assert_int_equal(rdc_bundle_extent(c, zl, &ext, &d), RDC_E_RANGE);
		free(c);
		free(z);

		/* v1: no total; the stream must end inside avail. */
		assert_int_equal(rdc_bundle_compress(plain, len, m, 1, &z, &zl, &d), 0);
		expect_fail(z, zl - 3, RDC_E_CORRUPT, RDC_NO_OFFSET, NULL);
		assert_int_equal(rdc_bundle_extent(z, zl - 3, &ext, &d), RDC_E_CORRUPT);
		free(z);
	}
	/* A CCOB wrapping something that is not a plain bundle. */
	assert_int_equal(rdc_bundle_compress("CCOBCCOBCCOB", 12, RDC_COMP_ZSTD, 2, &z, &zl, &d), 0);
	expect_fail(z, zl, RDC_E_TRUNCATED, 0, "decompressed");
	free(z);
	static const char junk[40] = "__CLANG_OFFLOAD_BUNDLX";
	assert_int_equal(rdc_bundle_compress(junk, sizeof junk, RDC_COMP_ZLIB, 2, &z, &zl, &d), 0);
	expect_fail(z, zl, RDC_E_FORMAT, 0, "decompressed byte 0");
	free(z);
	free(plain);
}

/* A zstd frame without a recorded content size (allowed by the format):
 * parses when the header is right; a plausible but wrong claim fails. */
/* A payload that compresses far better than code does (96 MiB of zeros)
 * takes the growing sink instead of the up-front buffer; both give the same
 * bundle, and a claim one byte short fails on either path. */
static void test_ccob_zstd_big_zeros(void **state)
{
	(void)state;
	const size_t big = (size_t)96 << 20;
	uint8_t *zeros = calloc(1, big);
	assert_non_null(zeros);
	struct rdc_bundle_input in[2] = {
		{ "host-x86_64-unknown-linux", NULL, 0 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1030", zeros, big },
	};
	uint8_t *plain = NULL, *z = NULL;
	size_t plen = 0, zl = 0;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_write(in, 2, 4096, &plain, &plen, &d), 0);
	free(zeros);
	assert_int_equal(rdc_bundle_compress(plain, plen, RDC_COMP_ZSTD, 3, &z, &zl, &d), 0);
	assert_true(zl * 256 < plen); /* the sink's case */
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse_as_runtime(z, zl, &b, &d), 0);
	assert_int_equal(b.n_entries, 2);
	assert_true(b.entries[1].size == big && b.entries[1].data[big - 1] == 0);
	assert_true(b.uncompressed_size == plen);
	rdc_bundle_free(&b);
	st64(z + 16, (uint64_t)plen - 1); /* v3: the claim one byte short */
	assert_int_equal(rdc_bundle_parse_as_runtime(z, zl, &b, &d), RDC_E_CORRUPT);
	free(plain);
	free(z);
}

/* The entry table of a CCOB from a 64 KiB prefix: the same ids, offsets and
 * sizes as a whole read, no data; a table past the prefix is UNSUPPORTED
 * (read it whole); damage after the prefix is left to the whole read. */
static void test_ccob_table_only(void **state)
{
	(void)state;
	const size_t big = (size_t)1 << 20;
	uint8_t *body = malloc(big);
	assert_non_null(body);
	uint32_t x = 2463534242u;   /* xorshift32: compresses poorly, so the */
	for (size_t i = 0; i < big; i++) {   /* payload's end is far from its table */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		body[i] = (uint8_t)x;
	}
	struct rdc_bundle_input in[3] = {
		{ "host-x86_64-unknown-linux", NULL, 0 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1030", body, big },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1100", body, 4096 },
	};
	uint8_t *plain = NULL, *z = NULL;
	size_t plen = 0, zl = 0;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_write(in, 3, 4096, &plain, &plen, &d), 0);
	for (int method = RDC_COMP_ZLIB; method <= RDC_COMP_ZSTD; method++) {
		assert_int_equal(rdc_bundle_compress(plain, plen, method, 3, &z, &zl, &d), 0);
		struct rdc_bundle t, w;
		assert_int_equal(rdc_bundle_parse_table(z, zl, &t, &d), 0);
		assert_int_equal(rdc_bundle_parse(z, zl, &w, &d), 0);
		assert_int_equal(t.n_entries, 3);
		assert_true(t.compressed && t.uncompressed_size == plen && t.extent == w.extent);
		for (size_t i = 0; i < 3; i++) {
			assert_true(t.entries[i].offset == w.entries[i].offset);
			assert_true(t.entries[i].size == w.entries[i].size);
			assert_memory_equal(t.entries[i].id, w.entries[i].id, w.entries[i].id_len);
			assert_null(t.entries[i].data);
		}
		rdc_bundle_free(&t);
		rdc_bundle_free(&w);
		free(z);
	}
	/* damage late in the payload (inside a stored block of random bytes):
	 * the table still reads; only the MD5 check of a whole read finds it,
	 * which the runtime does not make (rdc_bundle_parse_as_runtime) */
	assert_int_equal(rdc_bundle_compress(plain, plen, RDC_COMP_ZSTD, 3, &z, &zl, &d), 0);
	z[zl - 64] ^= 0xff;
	struct rdc_bundle t;
	assert_int_equal(rdc_bundle_parse_table(z, zl, &t, &d), 0);
	rdc_bundle_free(&t);
	assert_int_equal(rdc_bundle_parse(z, zl, &t, &d), RDC_E_CORRUPT);
	assert_non_null(strstr(d.msg, "MD5"));
	free(z);
	free(plain);
	free(body);
	/* a table longer than the prefix: 2000 entries with 40-byte ids */
	enum { N = 2000 };
	struct rdc_bundle_input *many = calloc(N, sizeof *many);
	char (*ids)[64] = calloc(N, sizeof *ids);
	assert_non_null(many);
	assert_non_null(ids);
	for (int i = 0; i < N; i++) {
		snprintf(ids[i], sizeof ids[i], "hipv4-amdgcn-amd-amdhsa--gfx1030:x%014d", i);
		many[i].id = ids[i];
	}
	assert_int_equal(rdc_bundle_write(many, N, 8, &plain, &plen, &d), 0);
	assert_true(plen > RDC_TABLE_PREFIX_TEST);
	assert_int_equal(rdc_bundle_compress(plain, plen, RDC_COMP_ZSTD, 3, &z, &zl, &d), 0);
	assert_int_equal(rdc_bundle_parse_table(z, zl, &t, &d), RDC_E_UNSUPPORTED);
	assert_int_equal(rdc_bundle_parse_as_runtime(z, zl, &t, &d), 0);
	assert_int_equal(t.n_entries, N);
	rdc_bundle_free(&t);
	free(z);
	free(plain);
	free(many);
	free(ids);
}

static void test_ccob_zstd_without_content_size(void **state)
{
	(void)state;
	size_t len;
	uint8_t *plain = make_bundle(&len);
	ZSTD_CCtx *c = ZSTD_createCCtx();
	assert_non_null(c);
	assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0)));
	size_t cap = ZSTD_compressBound(len);
	uint8_t *z = malloc(24 + cap);
	size_t zl = ZSTD_compress2(c, z + 24, cap, plain, len);
	ZSTD_freeCCtx(c);
	assert_false(ZSTD_isError(zl));
	assert_true(ZSTD_getFrameContentSize(z + 24, zl) == ZSTD_CONTENTSIZE_UNKNOWN);
	memcpy(z, "CCOB\2\0\1\0", 8);
	uint32_t total = (uint32_t)(24 + zl);
	for (int i = 0; i < 4; i++) {
		z[8 + i] = (uint8_t)(total >> (8 * i));
		z[12 + i] = (uint8_t)((uint32_t)len >> (8 * i));
	}
	st64(z + 16, rdc_bundle_hash(plain, len));
	struct rdc_bundle b;
	struct rdc_diag d;
	assert_int_equal(rdc_bundle_parse(z, total, &b, &d), 0);
	assert_int_equal(b.n_entries, 3);
	assert_true(b.extent == total);
	rdc_bundle_free(&b);
	uint32_t lie = (uint32_t)len + 100000;
	for (int i = 0; i < 4; i++)
		z[12 + i] = (uint8_t)(lie >> (8 * i));
	expect_fail(z, total, RDC_E_CORRUPT, 12, "holds");
	free(z);
	free(plain);
}

/* ---- plain-bundle lies --------------------------------------------------------------- */

static void test_plain_lies(void **state)
{
	(void)state;
	size_t len;
	uint8_t *p = make_bundle(&len);
	uint8_t *c = malloc(len);
	size_t d1 = desc_at(p, 1), d2 = desc_at(p, 2), end = desc_at(p, 3);

	memcpy(c, p, len);
	c[0] = 'X';
	expect_fail(c, len, RDC_E_FORMAT, 0, "magic");
	expect_fail(p, 20, RDC_E_TRUNCATED, 0, NULL);
	expect_fail(p, 30, RDC_E_TRUNCATED, 24, NULL);

	/* Huge entry count. */
	memcpy(c, p, len);
	st64(c + 24, UINT64_MAX);
	expect_fail(c, len, RDC_E_RANGE, 24, "claims");
	memcpy(c, p, len);
	st64(c + 24, 1ull << 62);
	expect_fail(c, len, RDC_E_RANGE, 24, NULL);

	/* Entry offset + size past the end. */
	memcpy(c, p, len);
	st64(c + d2 + 8, len); /* size = whole bundle */
	expect_fail(c, len, RDC_E_RANGE, d2, "ends past");
	/* u64 overflow of offset + size. */
	memcpy(c, p, len);
	st64(c + d2, UINT64_MAX - 15);
	st64(c + d2 + 8, 32);
	expect_fail(c, len, RDC_E_RANGE, d2, "overflows");
	/* Offset alone past the end, size 0 (even the host entry must be in bounds). */
	memcpy(c, p, len);
	st64(c + 32, len + 1);
	expect_fail(c, len, RDC_E_RANGE, 32, NULL);

	/* Overlapping entries. */
	memcpy(c, p, len);
	st64(c + d2, ld64(p + d1) + 8);
	expect_fail(c, len, RDC_E_RANGE, 24, "overlap");
	/* Entry overlapping the header. */
	memcpy(c, p, len);
	st64(c + d1, end - 4);
	expect_fail(c, len, RDC_E_RANGE, d1, "header");

	/* Id length lies. */
	memcpy(c, p, len);
	st64(c + d1 + 16, UINT64_MAX);
	expect_fail(c, len, RDC_E_RANGE, d1 + 16, "id length");
	memcpy(c, p, len);
	st64(c + d1 + 16, 0);
	expect_fail(c, len, RDC_E_FORMAT, d1 + 16, "empty id");

	/* Truncation anywhere: always an error, never a crash, never an entry. */
	for (size_t n = 0; n < len; n++) {
		struct rdc_bundle b;
		struct rdc_diag d;
		int rc = rdc_bundle_parse(p, n, &b, &d);
		assert_true(rc < 0);
		uint64_t ext;
		assert_true(rdc_bundle_extent(p, n, &ext, &d) < 0);
	}
	free(c);
	free(p);
}

/* Every byte of the header set to each of a few values: parse and extent
 * may succeed or fail but agree, and never crash (ASan build: make asan). */
static void test_header_mutations(void **state)
{
	(void)state;
	size_t len;
	uint8_t *p = make_bundle(&len);
	uint8_t *z[3];
	size_t zl[3];
	struct rdc_diag d;
	for (unsigned v = 1; v <= 3; v++)
		assert_int_equal(rdc_bundle_compress(p, len, v == 2 ? RDC_COMP_ZLIB : RDC_COMP_ZSTD, v,
						     &z[v - 1], &zl[v - 1], &d), 0);
	static const uint8_t vals[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	for (int which = 0; which < 4; which++) {
		const uint8_t *src = which == 0 ? p : z[which - 1];
		size_t n = which == 0 ? len : zl[which - 1];
		size_t upto = which == 0 ? desc_at(p, 3) : (which == 1 ? 20 : which == 2 ? 24 : 32);
		uint8_t *c = malloc(n);
		for (size_t i = 0; i < upto; i++) {
			for (size_t k = 0; k < sizeof vals; k++) {
				memcpy(c, src, n);
				c[i] = vals[k];
				struct rdc_bundle b;
				int rc = rdc_bundle_parse(c, n, &b, &d);
				uint64_t ext = 0;
				int re = rdc_bundle_extent(c, n, &ext, &d);
				if (rc == 0) {
					assert_int_equal(re, 0);
					assert_true(ext == b.extent);
					assert_true(b.extent <= n);
					for (size_t e = 0; e < b.n_entries; e++)
						assert_true(b.entries[e].offset + b.entries[e].size <=
							    b.size);
					rdc_bundle_free(&b);
				} else {
					assert_true(rc < 0);
				}
			}
		}
		free(c);
	}
	for (int i = 0; i < 3; i++)
		free(z[i]);
	free(p);
}

/* ---- scan ------------------------------------------------------------------------------- */

struct seen {
	size_t n;
	uint64_t off[8];
	size_t entries[8];
	bool compressed[8];
	int stop_at;
};

static int on_bundle(size_t i, uint64_t off, const struct rdc_bundle *b, void *arg)
{
	struct seen *s = arg;
	if (s->n < 8) {
		s->off[s->n] = off;
		s->entries[s->n] = b->n_entries;
		s->compressed[s->n] = b->compressed;
	}
	assert_int_equal(i, s->n);
	s->n++;
	return (int)s->n == s->stop_at ? 42 : 0;
}

static void test_scan_region(void **state)
{
	(void)state;
	size_t len;
	uint8_t *p = make_bundle(&len);
	uint8_t *z1, *z2;
	size_t l1, l2;
	struct rdc_diag d;
	assert_int_equal(rdc_bundle_compress(p, len, RDC_COMP_ZLIB, 1, &z1, &l1, &d), 0);
	assert_int_equal(rdc_bundle_compress(p, len, RDC_COMP_ZSTD, 2, &z2, &l2, &d), 0);
	/* plain | pad to 4096 | CCOB v1 zlib | pad | CCOB v2 zstd | plain right after | pad */
	size_t size = 4 * 4096;
	uint8_t *r = calloc(1, size);
	uint64_t at[4] = { 0, 4096, 8192, 8192 + l2 };
	memcpy(r + at[0], p, len);
	memcpy(r + at[1], z1, l1);
	memcpy(r + at[2], z2, l2);
	memcpy(r + at[3], p, len);
	struct seen s = { 0 };
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_scan(r, size, on_bundle, &s, &d), 0);
	assert_int_equal(s.n, 4);
	for (int i = 0; i < 4; i++) {
		assert_true(s.off[i] == at[i]);
		assert_int_equal(s.entries[i], 3);
	}
	assert_false(s.compressed[0]);
	assert_true(s.compressed[1]);
	assert_true(s.compressed[2]);

	/* Early stop returns the callback's value. */
	struct seen s2 = { .stop_at = 2 };
	assert_int_equal(rdc_bundle_scan(r, size, on_bundle, &s2, &d), 42);
	assert_int_equal(s2.n, 2);

	/* Garbage where a bundle should start: FORMAT at that region offset. */
	r[12000] = 0x5a;
	struct seen s3 = { 0 };
	assert_int_equal(rdc_bundle_scan(r, size, on_bundle, &s3, &d), RDC_E_FORMAT);
	assert_true(d.offset == 12000);
	assert_int_equal(s3.n, 4);
	r[12000] = 0;

	/* A broken second bundle: the error names it and its region offset. */
	r[at[1] + 4] = 9; /* CCOB version 9 */
	struct seen s4 = { 0 };
	assert_int_equal(rdc_bundle_scan(r, size, on_bundle, &s4, &d), RDC_E_UNSUPPORTED);
	assert_true(d.offset == at[1] + 4);
	assert_non_null(strstr(d.msg, "bundle 1"));
	assert_int_equal(s4.n, 1);

	/* Region cut inside the last bundle. */
	r[at[1] + 4] = 1;
	struct seen s5 = { 0 };
	assert_true(rdc_bundle_scan(r, at[3] + len - 1, on_bundle, &s5, &d) < 0);
	assert_int_equal(s5.n, 3);

	/* Empty and all-zero regions hold no bundles. */
	struct seen s6 = { 0 };
	assert_int_equal(rdc_bundle_scan(r + size - 100, 100, on_bundle, &s6, &d), 0);
	assert_int_equal(s6.n, 0);
	free(r);
	free(z1);
	free(z2);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_md5_rfc1321),
		cmocka_unit_test(test_md5_matches_md5sum),
		cmocka_unit_test(test_fixture_iota),
		cmocka_unit_test(test_fixture_iota_1030),
		cmocka_unit_test(test_fixture_iota_align4096),
		cmocka_unit_test(test_writer_matches_bundler_4096),
		cmocka_unit_test(test_writer_matches_bundler_align1),
		cmocka_unit_test(test_write_parse_roundtrip),
		cmocka_unit_test(test_ccob_roundtrip_all),
		cmocka_unit_test(test_ccob_bad_args),
		cmocka_unit_test(test_ccob_lies),
		cmocka_unit_test(test_ccob_zstd_without_content_size),
		cmocka_unit_test(test_ccob_zstd_big_zeros),
		cmocka_unit_test(test_ccob_table_only),
		cmocka_unit_test(test_plain_lies),
		cmocka_unit_test(test_header_mutations),
		cmocka_unit_test(test_scan_region),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
