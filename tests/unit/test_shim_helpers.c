/* SPDX-License-Identifier: MIT */
/*
 * test_shim_helpers.c — cmocka tests of the shim's pure helpers
 * (shim/hooks/): the environment parser, the log line formatter, the bundle
 * header writer, image extents, and the bundle rebuild (remap.c) on real
 * clang-built fixtures (tests/fixtures/build.sh): the rebuilt bundle parses,
 * keeps the original entries byte for byte, carries a gfx1031 entry whose
 * code object says gfx1031, never changes the input file, and makes private
 * only a few pages.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/codeobj.h"
#include "shim.h"
#include "fixture.h"

/* ---- environment ---------------------------------------------------------- */

static const char *tbl_get(const char *name, void *arg)
{
	const char *const *kv = arg;
	for (; kv[0]; kv += 2)
		if (strcmp(kv[0], name) == 0)
			return kv[1];
	return NULL;
}

static void test_config_defaults(void **state)
{
	(void)state;
	const char *env[] = { NULL };
	struct rdc_config c;
	rdc_config_parse(&c, tbl_get, (void *)env);
	assert_int_equal(c.mode, RDC_MODE_MAP);
	assert_int_equal(c.level, RDC_LOG_WARN);
	assert_false(c.json);
	assert_true(c.redirect_files);
	assert_string_equal(c.problems, "");
	assert_int_equal(rdc_config_device_mode(&c, 3), RDC_MODE_MAP);
	/* default spoof targets: rocBLAS and MIOpen, any soname version */
	assert_true(rdc_config_spoof_matches(&c, "/opt/rocm/lib/librocblas.so.4.1"));
	assert_true(rdc_config_spoof_matches(&c, "libMIOpen.so"));
	assert_false(rdc_config_spoof_matches(&c, "/usr/lib/librocblas_extra.so"));
	assert_false(rdc_config_spoof_matches(&c, "/usr/lib/libamdhip64.so.5"));
	assert_false(rdc_config_spoof_matches(&c, NULL));
}

static void test_config_values(void **state)
{
	(void)state;
	const char *env[] = {
		"RDNACOMPAT_MODE", "Spoof", "RDNACOMPAT_DEVICE_2", "off", "RDNACOMPAT_DEVICE_5", "audit",
		"RDNACOMPAT_SPOOF_FOR", "libfoo.so,libbar.so.2", "RDNACOMPAT_LOG", "debug",
		"RDNACOMPAT_LOG_FORMAT", "json", "RDNACOMPAT_LOG_FILE", "/tmp/x.log",
		"RDNACOMPAT_REDIRECT_FILES", "0", NULL,
	};
	struct rdc_config c;
	rdc_config_parse(&c, tbl_get, (void *)env);
	assert_int_equal(c.mode, RDC_MODE_SPOOF);
	assert_int_equal(rdc_config_device_mode(&c, 0), RDC_MODE_SPOOF);
	assert_int_equal(rdc_config_device_mode(&c, 2), RDC_MODE_OFF);
	assert_int_equal(rdc_config_device_mode(&c, 5), RDC_MODE_AUDIT);
	assert_int_equal(rdc_config_device_mode(&c, 999), RDC_MODE_SPOOF);
	assert_int_equal(c.level, RDC_LOG_DEBUG);
	assert_true(c.json);
	assert_false(c.redirect_files);
	assert_string_equal(c.log_file, "/tmp/x.log");
	assert_true(rdc_config_spoof_matches(&c, "/x/libfoo.so"));
	assert_true(rdc_config_spoof_matches(&c, "/x/libbar.so.2.7"));
	assert_false(rdc_config_spoof_matches(&c, "/x/librocblas.so"));
	const char *audit[] = { "RDNACOMPAT_MODE", "audit", NULL };
	rdc_config_parse(&c, tbl_get, (void *)audit);
	assert_int_equal(c.level, RDC_LOG_INFO);   /* audit shows its decisions */
	const char *audit_quiet[] = { "RDNACOMPAT_MODE", "audit", "RDNACOMPAT_LOG", "error", NULL };
	rdc_config_parse(&c, tbl_get, (void *)audit_quiet);
	assert_int_equal(c.level, RDC_LOG_ERROR);
	const char *all[] = { "RDNACOMPAT_SPOOF_FOR", "*", NULL };
	rdc_config_parse(&c, tbl_get, (void *)all);
	assert_true(rdc_config_spoof_matches(&c, "/anything.so"));
}

static void test_config_bad_values(void **state)
{
	(void)state;
	const char *env[] = { "RDNACOMPAT_MODE", "mapp", "RDNACOMPAT_LOG", "loud",
			      "RDNACOMPAT_DEVICE_1", "x", "RDNACOMPAT_LOG_FORMAT", "xml", NULL };
	struct rdc_config c;
	rdc_config_parse(&c, tbl_get, (void *)env);
	assert_int_equal(c.mode, RDC_MODE_MAP);
	assert_int_equal(c.level, RDC_LOG_WARN);
	assert_int_equal(rdc_config_device_mode(&c, 1), RDC_MODE_MAP);
	assert_false(c.json);
	assert_non_null(strstr(c.problems, "RDNACOMPAT_MODE=mapp"));
	assert_non_null(strstr(c.problems, "RDNACOMPAT_LOG=loud"));
	assert_non_null(strstr(c.problems, "RDNACOMPAT_DEVICE_1=x"));
	assert_non_null(strstr(c.problems, "RDNACOMPAT_LOG_FORMAT=xml"));
	assert_int_equal(rdc_mode_parse("OFF"), RDC_MODE_OFF);
	assert_int_equal(rdc_mode_parse(""), -1);
	assert_int_equal(rdc_mode_parse(NULL), -1);
	assert_int_equal(rdc_level_parse("warning"), RDC_LOG_WARN);
}

/* Audit W1: every boolean takes 0/1, off/on, no/yes, false/true in any
 * case; anything else keeps the default (off for RDNACOMPAT_OPT_IN: "no"
 * once switched opt-in edges on) and is a problem. */
static void test_config_booleans(void **state)
{
	(void)state;
	static const char *const on[] = { "1", "on", "yes", "true", "ON", "Yes", "TRUE" };
	static const char *const off[] = { "0", "off", "no", "false", "OFF", "No", "False" };
	static const char *const bad[] = { "bogus", "2", "-1", "y", "n", "onn", " 1" };
	struct rdc_config c;
	for (size_t i = 0; i < 7; i++) {
		const char *e1[] = { "RDNACOMPAT_OPT_IN", on[i], "RDNACOMPAT_CACHE", off[i],
				     "RDNACOMPAT_REDIRECT_FILES", off[i], "RDNACOMPAT_FALLBACK", on[i], NULL };
		rdc_config_parse(&c, tbl_get, (void *)e1);
		assert_true(c.opt_in);
		assert_true(c.prefer_fallback);   /* audit 2026-12-03 L1: "yes" was ignored */
		assert_false(c.cache);
		assert_false(c.redirect_files);
		assert_string_equal(c.problems, "");
		const char *e2[] = { "RDNACOMPAT_OPT_IN", off[i], "RDNACOMPAT_CACHE", on[i],
				     "RDNACOMPAT_REDIRECT_FILES", on[i], "RDNACOMPAT_FALLBACK", off[i], NULL };
		rdc_config_parse(&c, tbl_get, (void *)e2);
		assert_false(c.opt_in);
		assert_false(c.prefer_fallback);
		assert_true(c.cache);
		assert_true(c.redirect_files);
		const char *e3[] = { "RDNACOMPAT_OPT_IN", bad[i], "RDNACOMPAT_CACHE", bad[i],
				     "RDNACOMPAT_REDIRECT_FILES", bad[i], "RDNACOMPAT_FALLBACK", bad[i], NULL };
		rdc_config_parse(&c, tbl_get, (void *)e3);
		assert_false(c.opt_in);          /* the safe default */
		assert_false(c.prefer_fallback);
		assert_non_null(strstr(c.problems, "RDNACOMPAT_FALLBACK="));
		assert_true(c.cache);
		assert_true(c.redirect_files);
		assert_non_null(strstr(c.problems, "RDNACOMPAT_OPT_IN="));
		assert_non_null(strstr(c.problems, "(using 0)"));
		assert_non_null(strstr(c.problems, "RDNACOMPAT_CACHE="));
	}
	/* A value cannot forge a log line: control characters escaped. */
	const char *e4[] = { "RDNACOMPAT_MODE", "x\nrdnacompat[1]: info: map: forged", NULL };
	rdc_config_parse(&c, tbl_get, (void *)e4);
	assert_null(strchr(c.problems, '\n'));
	assert_non_null(strstr(c.problems, "x\\x0ardnacompat[1]"));
	/* RDNACOMPAT_DEVICE_<N> names out of range are problems (N6). */
	char *env[] = { "RDNACOMPAT_DEVICE_-1=map", "RDNACOMPAT_DEVICE_64=off", "RDNACOMPAT_DEVICE_007=off",
			"RDNACOMPAT_DEVICE_63=off", "RDNACOMPAT_DEVICE_0=map", "PATH=/bin", NULL };
	const char *none[] = { NULL };
	rdc_config_parse(&c, tbl_get, (void *)none);
	rdc_config_check_names(&c, env);
	assert_non_null(strstr(c.problems, "RDNACOMPAT_DEVICE_=-1 "));
	assert_non_null(strstr(c.problems, "RDNACOMPAT_DEVICE_=64 "));
	assert_non_null(strstr(c.problems, "RDNACOMPAT_DEVICE_=007 "));
	assert_null(strstr(c.problems, "=63 "));
	assert_null(strstr(c.problems, "=0 "));
}

static void test_hip_ordinal(void **state)
{
	(void)state;
	assert_int_equal(rdc_hip_ordinal(NULL, 3), 3);
	assert_int_equal(rdc_hip_ordinal("1,0", 0), 1);
	assert_int_equal(rdc_hip_ordinal("1,0", 1), 0);
	assert_int_equal(rdc_hip_ordinal("1,0", 2), -1);
	assert_int_equal(rdc_hip_ordinal("2", 2), 0);
	assert_int_equal(rdc_hip_ordinal("", 0), -1);
	assert_int_equal(rdc_hip_ordinal("0,x,1", 1), -1);   /* HIP stops at "x" */
}

/* ---- log lines ------------------------------------------------------------ */

static void test_log_format(void **state)
{
	(void)state;
	char buf[512];
	struct rdc_kv kv[] = { RDC_KV_S("lib", "/usr/lib/libx.so"), RDC_KV_N("bundle", 3),
			       RDC_KV_S("reason", "a \"quoted\" thing\n") };
	size_t n = rdc_log_format(buf, sizeof buf, false, 42, RDC_LOG_INFO, "map", kv, 3);
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, "rdnacompat[42]: info: map: lib=/usr/lib/libx.so bundle=3 "
				 "reason=\"a \\\"quoted\\\" thing\\x0a\"\n");
	n = rdc_log_format(buf, sizeof buf, true, 42, RDC_LOG_WARN, "map", kv, 3);
	assert_string_equal(buf, "{\"pid\":42,\"level\":\"warn\",\"event\":\"map\",\"lib\":\"/usr/lib/libx.so\","
				 "\"bundle\":3,\"reason\":\"a \\\"quoted\\\" thing\\u000a\"}\n");
	/* Truncated lines still end with a newline and stay in the buffer. */
	char small[24];
	n = rdc_log_format(small, sizeof small, false, 42, RDC_LOG_INFO, "map", kv, 3);
	assert_int_equal(n, sizeof small - 1);
	assert_int_equal(small[n - 1], '\n');
	assert_int_equal(small[n], 0);
}

/* ---- header writer --------------------------------------------------------- */

static void test_hdr_roundtrip(void **state)
{
	(void)state;
	static const char a[] = "host-x86_64-unknown-linux", b[] = "hipv4-amdgcn-amd-amdhsa--gfx1031";
	struct rdc_hdr_entry e[2] = { { 0, 0, a, sizeof a - 1 }, { 4096, 100, b, sizeof b - 1 } };
	uint64_t hs = rdc_hdr_size(e, 2);
	assert_int_equal(hs, 24 + 8 + 2 * 24 + (sizeof a - 1) + (sizeof b - 1));
	uint8_t *buf = calloc(1, 4096 + 100);
	assert_int_equal(rdc_hdr_write(e, 2, buf, 4096), 0);
	memset(buf + 4096, 0xab, 100);
	struct rdc_bundle bd;
	assert_int_equal(rdc_bundle_parse(buf, 4096 + 100, &bd, NULL), 0);
	assert_int_equal(bd.n_entries, 2);
	assert_int_equal(bd.entries[1].offset, 4096);
	assert_int_equal(bd.entries[1].size, 100);
	assert_int_equal(rdc_bundle_find(&bd, b, sizeof b - 1), 1);
	assert_int_equal(bd.entries[1].data[99], 0xab);
	rdc_bundle_free(&bd);
	/* Too small a buffer, or data inside the header: refused. */
	assert_int_equal(rdc_hdr_write(e, 2, buf, hs - 1), RDC_E_RANGE);
	e[1].offset = 8;
	assert_int_equal(rdc_hdr_write(e, 2, buf, 4096), RDC_E_RANGE);
	free(buf);
}

/* ---- image extents ------------------------------------------------------------ */

static void test_extents(void **state)
{
	(void)state;
	size_t n = 0;
	uint8_t *co = load_fixture("co/gfx1030.co", &n);
	if (!co) {
		print_message("fixture co/gfx1030.co missing (make fixtures), skipped\n");
		skip();
		return; /* skip() longjmps; the compiler does not know */
	}
	uint64_t ext = 0;
	assert_int_equal(rdc_elf_extent(co, n, &ext), 0);
	assert_int_equal(ext, n);  /* clang puts the section table last */
	assert_int_not_equal(rdc_elf_extent(co, n / 2, &ext), 0);
	assert_int_not_equal(rdc_elf_extent(co, 16, &ext), 0);
	assert_true(rdc_readable_extent(co) >= n);
	/* An anonymous mapping followed by a hole ends exactly there. */
	long ps = sysconf(_SC_PAGESIZE);
	uint8_t *m = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + 2 * ps, ps, PROT_NONE), 0);
	assert_int_equal(rdc_readable_extent(m + 10), 2 * ps - 10);
	assert_int_equal(rdc_readable_extent(m + 2 * ps), 0);
	munmap(m, 3 * ps);
	free(co);
}

/* ---- rebuild -------------------------------------------------------------- */

/* `originals`: the rebuilt bundle holds the original entries, then the
 * added gfx1031 one; else the added one alone. */
static void check_rebuilt(const struct rdc_region *r, const struct rdc_bundle *orig, bool originals)
{
	struct rdc_bundle nb;
	size_t n_orig = originals ? orig->n_entries : 0;
	assert_int_equal(rdc_bundle_parse(r->bundle, r->bundle_size, &nb, NULL), 0);
	assert_int_equal(nb.n_entries, n_orig + 1);
	for (size_t i = 0; i < n_orig; i++) {
		assert_int_equal(nb.entries[i].size, orig->entries[i].size);
		assert_memory_equal(nb.entries[i].id, orig->entries[i].id, orig->entries[i].id_len);
		if (orig->entries[i].size)
			assert_memory_equal(nb.entries[i].data, orig->entries[i].data, orig->entries[i].size);
	}
	static const char id[] = "hipv4-amdgcn-amd-amdhsa--gfx1031";
	long k = rdc_bundle_find(&nb, id, sizeof id - 1);
	assert_int_equal(k, (long)n_orig);
	struct rdc_codeobj co;
	assert_int_equal(rdc_codeobj_parse(nb.entries[k].data, nb.entries[k].size, RDC_CO_METADATA, &co,
					   NULL), 0);
	assert_string_equal(co.target.proc, "gfx1031");
	assert_int_equal(co.mach, 0x37);
	assert_true(co.n_kernels >= 1);
	rdc_codeobj_free(&co);
	rdc_bundle_free(&nb);
}

/* What the decision adds for a simulated gfx1031: b's gfx1030 entry,
 * retargeted, no patches given. */
static struct rdc_add gfx1030_as_gfx1031(const struct rdc_bundle *b)
{
	static const char src_id[] = "hipv4-amdgcn-amd-amdhsa--gfx1030";
	long from = rdc_bundle_find(b, src_id, sizeof src_id - 1);
	assert_true(from >= 0);
	struct rdc_add add = { .from = from };
	assert_int_equal(rdc_target_parse("gfx1031", (size_t)-1, &add.to, NULL), 0);
	rdc_target_format_bundle_id(&add.to, add.id, sizeof add.id);
	return add;
}

static void test_remap_file_and_copy(void **state)
{
	(void)state;
	char *path = fixture_path("bundle/iota-1030.bundle");
	if (!path) {
		print_message("fixture bundle/iota-1030.bundle missing (make fixtures), skipped\n");
		skip();
		return;
	}
	size_t n = 0;
	uint8_t *before = slurp(path, &n);
	assert_non_null(before);
	void *mb = NULL;
	size_t ml = 0;
	const void *q = rdc_map_file_range(path, 0, n, &mb, &ml);
	assert_non_null(q);
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse(q, n, &b, NULL), 0);
	struct rdc_add add = gfx1030_as_gfx1031(&b);

	struct rdc_region r;
	struct rdc_diag d = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	uint64_t file_size[2] = { 0, 0 }, copy_size[2] = { 0, 0 };
	for (int originals = 1; originals >= 0; originals--) {
		uint8_t *added[1] = { NULL };
		assert_int_equal(rdc_remap_file(&b, fd, 0, &add, 1, originals, NULL, &r, added, &d), 0);
		assert_true(r.file_mapped);
		check_rebuilt(&r, &b, originals);
		/* `added` says where the added entry lies: the header's own answer */
		struct rdc_bundle nb;
		assert_int_equal(rdc_bundle_parse(r.bundle, r.bundle_size, &nb, NULL), 0);
		assert_ptr_equal(added[0], nb.entries[nb.n_entries - 1].data);
		rdc_bundle_free(&nb);
		/* header page + the e_flags/metadata pages: far below a copy */
		assert_true(r.private_bytes <= 4 * 4096);
		assert_true(r.private_bytes < r.bundle_size);
		file_size[originals] = r.len;
		/* the header went to the arena, below its entries */
		assert_non_null(r.hdr);
		assert_ptr_equal(r.bundle, r.hdr);
		assert_true(rdc_arena_holds(r.bundle));
		assert_true((uintptr_t)r.base > (uintptr_t)r.hdr);
		/* Measured without the maps: the bundle by its header, a pointer
		 * in the region by the rest of the region; memory between the
		 * header and the region (the heap) is no part of it (it was
		 * taken for the bundle's interior, ~100 TB readable). */
		assert_int_equal(rdc_readable_extent(r.bundle), r.bundle_size);
		assert_true(rdc_readable_extent((uint8_t *)r.base + 100) <= r.len - 100);
		void *heap = malloc(64);
		assert_non_null(heap);
		if ((uintptr_t)heap > (uintptr_t)r.hdr && (uintptr_t)heap < (uintptr_t)r.base)
			assert_true(rdc_readable_extent(heap) < ((uint64_t)1 << 40));
		free(heap);
		uint8_t *hdr_was = r.hdr;
		rdc_region_free(&r);
		/* released pages are taken again */
		uint8_t *again = rdc_arena_take(4096);
		assert_ptr_equal(again, hdr_was);
		rdc_arena_release(again, 4096, false);

		/* A region HIP let go of keeps its header page until the next
		 * registration's drain (no madvise between HIP's exit walks); a
		 * page handed out before that is zeroed, and the drain gives it
		 * back to the kernel. */
		assert_int_equal(rdc_remap_file(&b, fd, 0, &add, 1, originals, NULL, &r, NULL, &d), 0);
		hdr_was = r.hdr;
		rdc_region_retire(&r);
		unsigned char resident = 0;
		assert_int_equal(mincore(hdr_was, 4096, &resident), 0);
		assert_true(resident & 1);
		assert_memory_equal(hdr_was, RDC_BUNDLE_MAGIC, RDC_BUNDLE_MAGIC_LEN);
		again = rdc_arena_take(4096);
		assert_ptr_equal(again, hdr_was);
		for (size_t k = 0; k < 4096; k++)
			assert_int_equal(again[k], 0);
		memset(again, 0xab, 4096);
		rdc_arena_release(again, 4096, true);
		rdc_region_drain();
		assert_int_equal(mincore(hdr_was, 4096, &resident), 0);
		assert_false(resident & 1);
		assert_int_equal(hdr_was[0], 0);

		assert_int_equal(rdc_remap_copy(&b, &add, 1, originals, NULL, &r, &d), 0);
		assert_false(r.file_mapped);
		check_rebuilt(&r, &b, originals);
		copy_size[originals] = r.bundle_size;
		rdc_region_free(&r);
	}
	/* without the originals: smaller in both layouts */
	assert_true(file_size[0] < file_size[1]);
	assert_true(copy_size[0] < copy_size[1]);

	/* A full arena: the header leads the region, as without one. */
	uint8_t *all = rdc_arena_take((size_t)4096 * 4096);
	assert_non_null(all);
	assert_null(rdc_arena_take(4096));
	assert_int_equal(rdc_remap_file(&b, fd, 0, &add, 1, false, NULL, &r, NULL, &d), 0);
	assert_null(r.hdr);
	assert_ptr_equal(r.bundle, r.base);
	check_rebuilt(&r, &b, false);
	rdc_region_free(&r);
	rdc_arena_release(all, (size_t)4096 * 4096, false);
	assert_non_null(rdc_arena_take(4096));

	/* The input file is unchanged. */
	size_t n2 = 0;
	uint8_t *after = slurp(path, &n2);
	assert_int_equal(n2, n);
	assert_memory_equal(after, before, n);
	close(fd);
	rdc_bundle_free(&b);
	munmap(mb, ml);
	free(before);
	free(after);
	free(path);
}

/* A code object with two metadata notes (as rocBLAS's Tensile .co files):
 * the decision carries no patches (a Tensile .co needs more than the cache
 * keeps), so rdc_remap_file computes one per note, and the entry is still
 * patched in place (a few private pages), not copied; every note of the
 * rebuilt entry names gfx1031. */
static void test_remap_multinote(void **state)
{
	(void)state;
	char *path = fixture_path("codeobj/multinote-1030.bundle");
	if (!path) {
		print_message("fixture codeobj/multinote-1030.bundle missing, skipped\n");
		skip();
		return;
	}
	size_t n = 0;
	uint8_t *bytes = slurp(path, &n);
	assert_non_null(bytes);
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse(bytes, n, &b, NULL), 0);
	struct rdc_add add = gfx1030_as_gfx1031(&b);
	struct rdc_region r;
	struct rdc_diag d = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(rdc_remap_file(&b, fd, 0, &add, 1, false, NULL, &r, NULL, &d), 0);
	check_rebuilt(&r, &b, false);
	/* header page + the e_flags and note pages, not the 22 KB copy */
	assert_true(r.private_bytes <= 3 * 4096);
	struct rdc_bundle nb;
	assert_int_equal(rdc_bundle_parse(r.bundle, r.bundle_size, &nb, NULL), 0);
	struct rdc_codeobj co;
	assert_int_equal(rdc_codeobj_parse(nb.entries[0].data, nb.entries[0].size, RDC_CO_METADATA, &co,
					   NULL), 0);
	assert_int_equal(co.n_notes, 2);
	assert_int_equal(co.n_kernels, 3);
	for (size_t i = 0; i < co.n_notes; i++)
		assert_memory_equal(nb.entries[0].data + co.note_target_offsets[i],
				    "amdgcn-amd-amdhsa--gfx1031", co.meta_target_len);
	rdc_codeobj_free(&co);
	rdc_bundle_free(&nb);
	rdc_region_free(&r);
	close(fd);
	rdc_bundle_free(&b);
	free(bytes);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_defaults),
		cmocka_unit_test(test_config_values),
		cmocka_unit_test(test_config_bad_values),
		cmocka_unit_test(test_config_booleans),
		cmocka_unit_test(test_hip_ordinal),
		cmocka_unit_test(test_log_format),
		cmocka_unit_test(test_hdr_roundtrip),
		cmocka_unit_test(test_extents),
		cmocka_unit_test(test_remap_file_and_copy),
		cmocka_unit_test(test_remap_multinote),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
