/* SPDX-License-Identifier: MIT */
/*
 * test_policy.c — the mapping decision (shim/core/policy.c).
 *
 * Two halves: struct-level kernels against hand-made isa rows for the edge
 * cases of rdc_check_kernel (VGPR granule x waves per SIMD in WGP and CU
 * mode, addressable limit, wave size, LDS, xnack, bad-kernel globs) and of
 * rdc_policy_need; then real fixtures (tests/fixtures/build.sh and
 * policy.d/vgpr.sh) against the built-in tables: native, mapped, refused
 * with the kernel/check/numbers, missing with need and family note.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/codeobj.h"
#include "fixture.h"
#include "rdnacompat/policy.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"
#include "../../shim/core/policy_internal.h"   /* rdc_pol_check_user_sgpr16 */

/* ---- synthetic rows ------------------------------------------------------- */

static const struct rdc_isa ISA_SYN[] = {
	/* name, family, mach, generic, generic_target, min_gen, wave, xnack, sramecc,
	 * lds, vgpr w32, vgpr w64, gran w32, gran w64, max waves, source */
	{ "gfx1030", "rdna2", 0x36, false, "gfx10-3-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1031", "rdna2", 0x37, false, "gfx10-3-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1032", "rdna2", 0x38, false, "gfx10-3-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1033", "rdna2", 0x39, false, "gfx10-3-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1100", "rdna3", 0x41, false, "gfx11-generic", 0, 32, false, false, 65536, 1536, 768, 24, 12, 16, "t" },
	{ "gfx1101", "rdna3", 0x46, false, "gfx11-generic", 0, 32, false, false, 65536, 1536, 768, 24, 12, 16, "t" },
	{ "gfx1102", "rdna3", 0x47, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1103", "rdna3", 0x44, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1150", "rdna3.5", 0x43, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx10-3-generic", "rdna2", 0x52, true, NULL, 1, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx11-generic", "rdna3", 0x54, true, NULL, 1, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx906", "gcn5", 0x2f, false, "gfx9-generic", 0, 64, true, true, 65536, 0, 256, 0, 4, 10, "t" },
	{ "gfx90a", "cdna2", 0x3f, false, NULL, 0, 64, true, true, 65536, 0, 512, 0, 8, 8, "t" },
};

static const struct rdc_compat_edge EDGE_SYN[] = {
	{ "gfx1031", "gfx1030", 1, "none", "t" },
	{ "gfx1031", "gfx1032", 2, "none", "t" },
	{ "gfx1031", "gfx1033", 3, "none", "t" },
	{ "gfx1031", "gfx10-3-generic", 4, "none", "t" },
	{ "gfx1101", "gfx1100", 1, "vgpr-fit", "t" },
	{ "gfx1101", "gfx1102", 2, "none", "t" },
	{ "gfx1101", "gfx1103", 3, "none", "t" },
	{ "gfx1101", "gfx1150", 4, "none", "t" },
	{ "gfx1101", "gfx11-generic", 5, "none", "t" },
	{ "gfx1102", "gfx1100", 1, "vgpr-fit", "t" },
};

static const struct rdc_bad_kernel BAD_SYN[] = {
	{ "gfx1102", "gfx1100", "*reduce_kernel*", "refuse", "hangs (synthetic rule)", "t" },
};

static struct rdc_tables syn_tables(void)
{
	struct rdc_tables t = {
		.isa = ISA_SYN, .n_isa = sizeof ISA_SYN / sizeof ISA_SYN[0],
		.edges = EDGE_SYN, .n_edges = sizeof EDGE_SYN / sizeof EDGE_SYN[0],
		.cards = NULL, .n_cards = 0,
		.bad = BAD_SYN, .n_bad = sizeof BAD_SYN / sizeof BAD_SYN[0],
		.owned_ = NULL,
	};
	return t;
}

static const struct rdc_isa *row(const char *name)
{
	for (size_t i = 0; i < sizeof ISA_SYN / sizeof ISA_SYN[0]; i++)
		if (!strcmp(ISA_SYN[i].name, name))
			return &ISA_SYN[i];
	fail_msg("no synthetic row %s", name);
	return NULL;
}

static struct rdc_target tgt(const char *s)
{
	struct rdc_target t;
	memset(&t, 0, sizeof t);
	assert_int_equal(rdc_target_parse(s, (size_t)-1, &t, NULL), 0);
	return t;
}

static struct rdc_kernel kern(const char *name, uint32_t vgprs, uint32_t flat, uint32_t wave,
			      bool kd, bool wgp)
{
	struct rdc_kernel k;
	memset(&k, 0, sizeof k);
	k.name = (char *)name;
	k.vgpr_count = vgprs;
	k.max_flat_workgroup_size = flat;
	k.wavefront_size = wave;
	k.kd.present = kd;
	k.kd.wgp_mode = wgp;
	k.kd.wave32 = wave == 32;
	return k;
}

static void test_vgpr_wgp_fits_1_5x_not_1x(void **state)
{
	(void)state;
	struct rdc_tables t = syn_tables();
	struct rdc_kernel k = kern("_Z3fooPf", 181, 1024, 32, true, true);
	struct rdc_target code = tgt("gfx1100");
	struct rdc_kernel_verdict v;

	struct rdc_target d1 = tgt("gfx1101");
	assert_true(rdc_check_kernel(&t, row("gfx1101"), &d1, &code, &k, &v));
	assert_int_equal(v.vgprs_alloc, 192); /* granule 24 */
	assert_int_equal(v.waves_per_simd, 8);  /* 32 waves over 4 SIMDs */
	assert_int_equal(v.vgprs_needed, 1536);

	struct rdc_target d2 = tgt("gfx1102");
	assert_false(rdc_check_kernel(&t, row("gfx1102"), &d2, &code, &k, &v));
	assert_string_equal(v.check, "vgpr");
	assert_int_equal(v.vgprs_alloc, 192); /* granule 16 */
	assert_int_equal(v.vgprs_needed, 1536);
	assert_non_null(strstr(v.reason, "181 VGPRs (192 allocated) x 8 waves/SIMD (1024 threads, WGP mode) needs 1536, gfx1102 has 1024"));
	assert_string_equal(v.kernel, "_Z3fooPf");
}

static void test_vgpr_cu_mode_doubles_waves(void **state)
{
	(void)state;
	struct rdc_tables t = syn_tables();
	struct rdc_target code = tgt("gfx1030"), dev = tgt("gfx1031");
	struct rdc_kernel_verdict v;
	/* 64 VGPRs, 1024 threads: WGP 8 waves/SIMD -> 512 fits; CU 16 -> 1024 fits. */
	struct rdc_kernel k = kern("k64", 64, 1024, 32, true, false);
	assert_true(rdc_check_kernel(&t, row("gfx1031"), &dev, &code, &k, &v));
	assert_int_equal(v.waves_per_simd, 16);
	assert_false(v.wgp_mode);
	/* 72 VGPRs -> 80 allocated: CU mode 16 x 80 = 1280 > 1024 refused, WGP fits. */
	k = kern("k72", 72, 1024, 32, true, false);
	assert_false(rdc_check_kernel(&t, row("gfx1031"), &dev, &code, &k, &v));
	assert_string_equal(v.check, "vgpr");
	assert_non_null(strstr(v.reason, "CU mode"));
	assert_int_equal(v.vgprs_needed, 1280);
	k = kern("k72", 72, 1024, 32, true, true);
	assert_true(rdc_check_kernel(&t, row("gfx1031"), &dev, &code, &k, &v));
	/* No descriptor: WGP mode is assumed on gfx10+. */
	k = kern("k72", 72, 1024, 32, false, false);
	assert_true(rdc_check_kernel(&t, row("gfx1031"), &dev, &code, &k, &v));
	assert_true(v.wgp_mode);
	/* wave64: 1024/64 = 16 waves, 4 per SIMD; 136 VGPRs -> 136 (granule 8) x 4 = 544 > 512. */
	k = kern("w64", 136, 1024, 64, true, true);
	assert_false(rdc_check_kernel(&t, row("gfx1031"), &dev, &code, &k, &v));
	assert_int_equal(v.wave, 64);
	assert_int_equal(v.waves_per_simd, 4);
	assert_int_equal(v.vgprs_needed, 544);
}

static void test_addressable_wave_lds(void **state)
{
	(void)state;
	struct rdc_tables t = syn_tables();
	struct rdc_target code = tgt("gfx1100"), dev = tgt("gfx1101");
	struct rdc_kernel_verdict v;
	struct rdc_kernel k = kern("big", 264, 64, 32, true, true);
	assert_false(rdc_check_kernel(&t, row("gfx1101"), &dev, &code, &k, &v));
	assert_string_equal(v.check, "vgpr");
	assert_non_null(strstr(v.reason, "256 addressable"));

	k = kern("lds", 32, 256, 32, true, true);
	k.group_segment_fixed_size = 65537;
	assert_false(rdc_check_kernel(&t, row("gfx1101"), &dev, &code, &k, &v));
	assert_string_equal(v.check, "lds");
	assert_non_null(strstr(v.reason, "65537"));
	k.group_segment_fixed_size = 65536;
	k.private_segment_fixed_size = 16384; /* scratch is allowed */
	k.uses_dynamic_stack = true;
	assert_true(rdc_check_kernel(&t, row("gfx1101"), &dev, &code, &k, &v));
	assert_string_equal(v.check, "");

	/* wave32 code on a wave64-only device (gfx9 row has no wave32 file). */
	struct rdc_target d9 = tgt("gfx906"), c9 = tgt("gfx906");
	k = kern("w32", 32, 256, 32, false, false);
	assert_false(rdc_check_kernel(&t, row("gfx906"), &d9, &c9, &k, &v));
	assert_string_equal(v.check, "wave");
	/* gfx9 descriptor: the wave32 bit means nothing, wave64, 4 SIMDs per CU. */
	k = kern("w64", 64, 1024, 64, true, false); /* 64 x 4 = 256: the whole file */
	assert_true(rdc_check_kernel(&t, row("gfx906"), &d9, &c9, &k, &v));
	assert_int_equal(v.waves_per_simd, 4);
	k = kern("w64", 65, 1024, 64, true, false);
	assert_false(rdc_check_kernel(&t, row("gfx906"), &d9, &c9, &k, &v));
	assert_int_equal(v.vgprs_alloc, 68);

	/* gfx90a: one 512-entry VGPR+AGPR file; AGPRs follow the VGPRs rounded
	 * to 4.  62 -> 64 + 64 AGPRs = 128 x 4 waves/SIMD = 512 fits; 65 does not. */
	struct rdc_target da = tgt("gfx90a"), ca = tgt("gfx90a");
	k = kern("acc", 62, 1024, 64, true, false);
	k.agpr_count = 64;
	assert_true(rdc_check_kernel(&t, row("gfx90a"), &da, &ca, &k, &v));
	assert_int_equal(v.vgprs_alloc, 128);
	k.agpr_count = 65;
	assert_false(rdc_check_kernel(&t, row("gfx90a"), &da, &ca, &k, &v));
	assert_non_null(strstr(v.reason, "62 VGPRs + 65 AGPRs (136 allocated)"));
	/* gfx906 has a separate AGPR-less file: AGPRs are not added. */
	k = kern("acc", 62, 256, 64, true, false);
	k.agpr_count = 200;
	assert_true(rdc_check_kernel(&t, row("gfx906"), &d9, &c9, &k, &v));
}

static void test_features_and_badlist(void **state)
{
	(void)state;
	struct rdc_tables t = syn_tables();
	struct rdc_kernel_verdict v;
	struct rdc_kernel k = kern("x", 32, 256, 64, false, false);
	struct rdc_target code = tgt("gfx906:xnack+"), dev = tgt("gfx906:xnack-");
	assert_false(rdc_check_kernel(&t, row("gfx906"), &dev, &code, &k, &v));
	assert_string_equal(v.check, "xnack");
	code = tgt("gfx906:sramecc+");
	dev = tgt("gfx906:sramecc-");
	assert_false(rdc_check_kernel(&t, row("gfx906"), &dev, &code, &k, &v));
	assert_string_equal(v.check, "sramecc");
	code = tgt("gfx906");
	assert_true(rdc_check_kernel(&t, row("gfx906"), &dev, &code, &k, &v));

	struct rdc_target c11 = tgt("gfx1100"), d11 = tgt("gfx1102");
	k = kern("_Z13reduce_kernelPf", 32, 256, 32, true, true);
	assert_false(rdc_check_kernel(&t, row("gfx1102"), &d11, &c11, &k, &v));
	assert_string_equal(v.check, "badlist");
	assert_non_null(strstr(v.reason, "synthetic rule"));
	/* The rule is for gfx1100 code only. */
	struct rdc_target c13 = tgt("gfx1103");
	assert_true(rdc_check_kernel(&t, row("gfx1102"), &d11, &c13, &k, &v));
	k.name = (char *)"_Z6reducePf";
	assert_true(rdc_check_kernel(&t, row("gfx1102"), &d11, &c11, &k, &v));
}

/* Bundle `in` (n entries, 8-byte alignment) written and parsed into *b;
 * *p holds the bytes (free it after rdc_bundle_free). */
static void fake_bundle(const struct rdc_bundle_input *in, size_t n, struct rdc_bundle *b,
			uint8_t **p)
{
	size_t len = 0;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_write(in, n, 8, p, &len, &d), 0);
	assert_int_equal(rdc_bundle_parse(*p, len, b, &d), 0);
}

/* "native" from the entry ids alone: the card's own hipv4 entry and no
 * bad-kernel rule for its own code; anything else means "read it whole". */
static void test_native_by_id(void **state)
{
	(void)state;
	static const char code[] = "not read";
	struct rdc_bundle_input in[3] = {
		{ "host-x86_64-unknown-linux", NULL, 0 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1030", code, sizeof code },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1102", code, sizeof code },
	};
	uint8_t *p = NULL;
	struct rdc_bundle b;
	fake_bundle(in, 3, &b, &p);
	struct rdc_target g1030 = tgt("gfx1030"), g1031 = tgt("gfx1031"), g1102 = tgt("gfx1102");
	assert_true(rdc_policy_native_by_id(rdc_tables_builtin(), &g1030, &b));
	assert_false(rdc_policy_native_by_id(rdc_tables_builtin(), &g1031, &b));
	struct rdc_tables t = syn_tables();   /* its rule: gfx1102 card, gfx1100 code */
	assert_true(rdc_policy_native_by_id(&t, &g1102, &b));
	static const struct rdc_bad_kernel own[] = {
		{ "gfx1102", "gfx1102", "*", "refuse", "own code (test)", "t" },
	};
	t.bad = own;
	t.n_bad = 1;
	assert_false(rdc_policy_native_by_id(&t, &g1102, &b));
	rdc_bundle_free(&b);
	free(p);
	/* an old-style id names no target by itself: read it whole */
	in[1].id = "hip-amdgcn-amd-amdhsa-gfx1030";
	fake_bundle(in, 2, &b, &p);
	assert_false(rdc_policy_native_by_id(rdc_tables_builtin(), &g1030, &b));
	rdc_bundle_free(&b);
	free(p);
}

static void test_need_text(void **state)
{
	(void)state;
	struct rdc_tables t = syn_tables();
	char buf[160];
	rdc_policy_need(&t, "gfx1031", buf, sizeof buf);
	/* Contiguous members: a range, then the generic. */
	assert_string_equal(buf, "gfx1030..gfx1033 or gfx10-3-generic code");
	rdc_policy_need(&t, "gfx1101", buf, sizeof buf);
	/* All members of gfx11-generic, not contiguous: the family. */
	assert_string_equal(buf, "gfx11 family or gfx11-generic code");
	rdc_policy_need(&t, "gfx1102", buf, sizeof buf);
	assert_string_equal(buf, "gfx1100 or gfx1102 code");
	rdc_policy_need(&t, "gfx906", buf, sizeof buf);
	assert_string_equal(buf, "gfx906 code");
	/* Truncation is safe and reports the full length. */
	char small[8];
	size_t need = rdc_policy_need(&t, "gfx1031", small, sizeof small);
	assert_int_equal(need, strlen("gfx1030..gfx1033 or gfx10-3-generic code"));
	assert_int_equal(strlen(small), 7);
}

/* ---- real fixtures --------------------------------------------------------- */

struct blob {
	uint8_t *p;
	size_t n;
};

static bool load(const char *rel, struct blob *b)
{
	b->p = load_fixture(rel, &b->n);
	return b->p && b->n > 0;
}

static int choose_file(const char *rel, const char *dev, unsigned flags, struct rdc_choice *c)
{
	struct blob bl;
	if (!load(rel, &bl))
		return 77;
	struct rdc_bundle b;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_parse(bl.p, bl.n, &b, &d), 0);
	struct rdc_target t = tgt(dev);
	int rc = rdc_policy_choose(rdc_tables_builtin(), &t, &b, flags, c, &d);
	if (rc)
		print_error("choose: %s\n", d.msg);
	assert_int_equal(rc, 0);
	rdc_bundle_free(&b);
	/* Verdicts point into c->co, not into the freed input. */
	free(bl.p);
	return 0;
}

/* The mapped entry from the ids alone: the first candidate, when nothing
 * but a bad-kernel rule or an unreadable object could refuse it. */
static void test_mapped_by_id(void **state)
{
	(void)state;
	static const char code[] = "not read";
	struct rdc_bundle_input in[3] = {
		{ "host-x86_64-unknown-linux", NULL, 0 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1030", code, sizeof code },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1100", code, sizeof code },
	};
	uint8_t *p = NULL;
	struct rdc_bundle b;
	fake_bundle(in, 3, &b, &p);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	const struct rdc_tables *bt = rdc_tables_builtin();
	struct rdc_target g1030 = tgt("gfx1030"), g1031 = tgt("gfx1031"), g1101 = tgt("gfx1101");
	long k1030 = -1;
	for (size_t i = 0; i < b.n_entries; i++)
		if (!strcmp(b.entries[i].parsed.target.proc, "gfx1030"))
			k1030 = (long)i;
	assert_true(k1030 >= 0);
	assert_int_equal(rdc_policy_mapped_by_id(bt, &g1031, &b, 0), k1030);
	assert_int_equal(rdc_policy_mapped_by_id(bt, &g1030, &b, 0), -1);   /* native */
	/* a bad-kernel rule for the pair: the kernels must be read */
	struct rdc_tables t = *bt;
	static const struct rdc_bad_kernel rule[] = {
		{ "gfx1031", "gfx1030", "*", "refuse", "test", "t" },
	};
	t.bad = rule;
	t.n_bad = 1;
	assert_int_equal(rdc_policy_mapped_by_id(&t, &g1031, &b, 0), -1);
	(void)g1101;
	rdc_bundle_free(&b);
	free(p);
	/* an old-style id keeps its target in the ELF header */
	in[1].id = "hip-amdgcn-amd-amdhsa-gfx1030";
	fake_bundle(in, 3, &b, &p);
	assert_int_equal(rdc_policy_mapped_by_id(bt, &g1031, &b, 0), -1);
	rdc_bundle_free(&b);
	free(p);

	/* On real code objects: whenever the ids tell, the policy agrees, and
	 * the e_flags patch from the header alone is the retarget's own. */
	static const char *const files[] = { "bundle/iota.bundle", "bundle/iota-1030.bundle" };
	static const char *const devs[] = { "gfx1030", "gfx1031", "gfx1032", "gfx1034", "gfx1035",
					    "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150",
					    "gfx1151" };
	size_t told = 0;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		struct blob bl;
		if (!load(files[f], &bl)) {
			print_message("skipped: fixture %s missing (make fixtures)\n", files[f]);
			skip();
		}
		assert_int_equal(rdc_bundle_parse(bl.p, bl.n, &b, &d), 0);
		for (size_t v = 0; v < sizeof devs / sizeof devs[0]; v++) {
			struct rdc_target dev = tgt(devs[v]);
			long k = rdc_policy_mapped_by_id(bt, &dev, &b, 0);
			if (k < 0)
				continue;
			told++;
			struct rdc_choice c;
			assert_int_equal(rdc_policy_choose(bt, &dev, &b, RDC_POLICY_SYMBOLS, &c, &d), 0);
			assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
			assert_int_equal(c.entry, k);
			rdc_choice_free(&c);
			struct rdc_target to = b.entries[k].parsed.target;
			snprintf(to.proc, sizeof to.proc, "%s", devs[v]);
			struct rdc_patch all[8], one;
			size_t np = 8;
			assert_int_equal(rdc_codeobj_retarget_patches(b.entries[k].data, b.entries[k].size,
								      &to, all, &np, &d), 0);
			assert_int_equal(rdc_codeobj_flags_patch(b.entries[k].data, 64, b.entries[k].size,
								 &to, &one, &d), 0);
			assert_true(np >= 1);
			assert_int_equal(one.offset, all[0].offset);
			assert_int_equal(one.len, all[0].len);
			assert_memory_equal(one.bytes, all[0].bytes, one.len);
		}
		rdc_bundle_free(&b);
		free(bl.p);
	}
	assert_true(told >= 2);   /* gfx1031 on gfx1030 code, in both files */
}

static void test_fixture_iota_native_mapped_missing(void **state)
{
	(void)state;
	struct rdc_choice c;
	if (choose_file("bundle/iota.bundle", "gfx1030", 0, &c) == 77) {
		print_message("skipped: fixture bundle/iota.bundle missing (make fixtures)\n");
		skip();
	}
	assert_int_equal(c.verdict, RDC_VERDICT_NATIVE);
	assert_string_equal(c.chosen.proc, "gfx1030");
	assert_int_equal(c.edge_rank, 0);
	rdc_choice_free(&c);

	choose_file("bundle/iota.bundle", "gfx1031", RDC_POLICY_KERNELS, &c);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_string_equal(c.chosen.proc, "gfx1030");
	assert_true(c.edge_rank >= 1);
	assert_int_equal(c.n_kernels, 2); /* fill_iota, scale_add */
	assert_non_null(c.kernels);
	for (size_t i = 0; i < c.n_kernels; i++)
		assert_true(c.kernels[i].ok);
	assert_non_null(strstr(c.kernels[0].kernel, "fill_iota"));
	rdc_choice_free(&c);

	/* gfx1101: iota's gfx1100 code is small, so it maps. */
	choose_file("bundle/iota.bundle", "gfx1101", 0, &c);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_string_equal(c.chosen.proc, "gfx1100");
	rdc_choice_free(&c);

	/* Only RDNA2 code for an RDNA3 card: missing, with the family note. */
	choose_file("bundle/iota-1030.bundle", "gfx1101", 0, &c);
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_int_equal(c.entry, -1);
	assert_non_null(strstr(c.reason, "RDNA2"));
	assert_non_null(strstr(c.reason, "RDNA3"));
	assert_non_null(strstr(c.need, "gfx11"));
	rdc_choice_free(&c);
}

static void test_fixture_vgpr_heavy(void **state)
{
	(void)state;
	struct rdc_choice c;
	if (choose_file("policy/vgpr-gfx1100.bundle", "gfx1101", RDC_POLICY_KERNELS, &c) == 77) {
		print_message("skipped: fixture policy/vgpr-gfx1100.bundle missing (make fixtures)\n");
		skip();
	}
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_string_equal(c.chosen.proc, "gfx1100");
	assert_int_equal(c.n_kernels, 1);
	assert_true(c.kernels[0].ok);
	assert_true(c.kernels[0].k->vgpr_count > 160);  /* the fixture is what it claims */
	assert_int_equal(c.kernels[0].k->max_flat_workgroup_size, 1024);
	assert_int_equal(c.kernels[0].waves_per_simd, 8);
	rdc_choice_free(&c);

	const char *refuse[] = { "gfx1102", "gfx1103" };
	for (size_t i = 0; i < 2; i++) {
		choose_file("policy/vgpr-gfx1100.bundle", refuse[i], RDC_POLICY_KERNELS, &c);
		assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
		assert_int_equal(c.n_refused, 1);
		assert_int_equal(c.refused_entry, 1);
		assert_non_null(strstr(c.reason, "vgpr_heavy: vgpr: "));
		assert_non_null(strstr(c.reason, "x 8 waves/SIMD (1024 threads, WGP mode) needs 1536"));
		char has[32];
		snprintf(has, sizeof has, "%s has 1024", refuse[i]);
		assert_non_null(strstr(c.reason, has));
		assert_non_null(c.kernels);
		assert_false(c.kernels[0].ok);
		assert_string_equal(c.kernels[0].check, "vgpr");
		assert_true(c.need[0] != '\0');
		assert_true(c.hold_failed);   /* a limit a held kernel answers */
		rdc_choice_free(&c);
		/* with holds: its only kernel would be held, so nothing of the
		 * entry would run: refused as without them */
		choose_file("policy/vgpr-gfx1100.bundle", refuse[i], RDC_POLICY_KERNELS | RDC_POLICY_HOLD, &c);
		assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
		assert_int_equal(c.n_held, 0);
		assert_false(c.kernels[0].held);
		assert_string_equal(c.kernels[0].check, "vgpr");
		assert_null(c.hide);
		rdc_choice_free(&c);
	}
}

/* Which edges of the built-in tables may hold kernels (the launch watch
 * is on only where one does): smaller limits, instruction conditions. */
static void test_edge_may_hold(void **state)
{
	(void)state;
	const struct rdc_tables *t = rdc_tables_builtin();
	struct { const char *dev, *code; bool may; } cases[] = {
		{ "gfx1103", "gfx1100", true },    /* 1024 VGPRs against 1536 */
		{ "gfx1102", "gfx1101", true },
		{ "gfx1031", "gfx1030", false },   /* the same limits, no condition */
		{ "gfx1101", "gfx1100", false },
		{ "gfx1150", "gfx1153", true },    /* point-sample */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct rdc_compat_edge *edges[64], *e = NULL;
		size_t n = rdc_compat_edges_for(t, cases[i].dev, edges, 64);
		for (size_t k = 0; k < n; k++)
			if (!strcmp(edges[k]->code, cases[i].code))
				e = edges[k];
		if (!e)
			fail_msg("no edge %s <- %s in the built-in tables", cases[i].dev, cases[i].code);
		if (rdc_edge_may_hold(t, e) != cases[i].may)
			fail_msg("%s <- %s: may hold %d, want %d", cases[i].dev, cases[i].code, !cases[i].may,
				 cases[i].may);
	}
	assert_false(rdc_edge_may_hold(t, NULL));
}

static void test_fixture_bare_codeobj(void **state)
{
	(void)state;
	struct blob bl;
	if (!load("co/gfx1030.co", &bl)) {
		print_message("skipped: fixture co/gfx1030.co missing (make fixtures)\n");
		skip();
	}
	struct rdc_choice c;
	struct rdc_target dev = tgt("gfx1030");
	assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_NATIVE);
	rdc_choice_free(&c);
	dev = tgt("gfx1032");
	assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	rdc_choice_free(&c);
	dev = tgt("gfx1102");
	assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_non_null(strstr(c.reason, "RDNA2"));
	rdc_choice_free(&c);
	/* Not a code object: an error with a message, not a crash. */
	struct rdc_diag d;
	rdc_diag_clear(&d);
	bl.p[1] = 'X';
	assert_true(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, bl.p, bl.n, 0, &c, &d) < 0);
	assert_true(d.msg[0] != '\0');
	rdc_choice_free(&c);
	free(bl.p);
}

/* The other fixture: exactly 192 VGPRs (tests/fixtures/codeobj.d/vgpr.sh). */
static void test_fixture_vgpr192(void **state)
{
	(void)state;
	struct blob bl;
	if (!load("codeobj/vgpr192-gfx1100.co", &bl)) {
		print_message("skipped: fixture codeobj/vgpr192-gfx1100.co missing (make fixtures)\n");
		skip();
	}
	struct rdc_choice c;
	struct rdc_target dev = tgt("gfx1101");
	assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, bl.p, bl.n,
						   RDC_POLICY_KERNELS, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_int_equal(c.kernels[0].k->vgpr_count, 192);
	assert_int_equal(c.kernels[0].vgprs_needed, 1536);
	assert_int_equal(c.kernels[0].vgprs_have, 1536);
	rdc_choice_free(&c);
	const char *refuse[] = { "gfx1102", "gfx1103" };
	for (size_t i = 0; i < 2; i++) {
		dev = tgt(refuse[i]);
		assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, bl.p, bl.n, 0, &c, NULL), 0);
		assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
		assert_non_null(strstr(c.reason, ": vgpr: 192 VGPRs x 8 waves/SIMD (1024 threads, WGP mode) needs 1536"));
		assert_non_null(strstr(c.reason, "vgpr_hog"));
		rdc_choice_free(&c);
	}
	free(bl.p);
}

/* Edge conditions with synthetic edges over a real clang-15 gfx1101 code
 * object (its kernels enable 4 user + 1 system SGPRs, no padding to 16). */
static void test_edge_conditions(void **state)
{
	(void)state;
	struct blob bl;
	if (!load("co/gfx1101.co", &bl)) {
		print_message("skipped: fixture co/gfx1101.co missing (make fixtures)\n");
		skip();
	}
	struct rdc_compat_edge edges[] = { { "gfx1100", "gfx1101", 1, "none", "t" } };
	struct rdc_tables t = syn_tables();
	t.edges = edges;
	t.n_edges = 1;
	t.n_bad = 0;
	struct rdc_choice c;
	struct rdc_target dev = tgt("gfx1100");
	assert_int_equal(rdc_policy_choose_codeobj(&t, &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_int_equal(c.edge_rank, 1);
	rdc_choice_free(&c);

	edges[0].condition = "vgpr-fit+user-sgpr-16";
	assert_int_equal(rdc_policy_choose_codeobj(&t, &dev, bl.p, bl.n, RDC_POLICY_KERNELS, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_non_null(strstr(c.reason, "user-sgpr: "));
	assert_non_null(strstr(c.reason, ">= 16"));
	assert_string_equal(c.kernels[0].check, "user-sgpr");
	assert_int_equal(c.n_refused, c.n_kernels);
	rdc_choice_free(&c);

	/* "user-sgpr-16x" is not the condition: whole "+"-separated words only;
	 * and a word the policy does not evaluate refuses the edge, never
	 * silently ignored (policy_isa.c). */
	edges[0].condition = "user-sgpr-16x";
	assert_int_equal(rdc_policy_choose_codeobj(&t, &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_non_null(strstr(c.reason, "'user-sgpr-16x', which this policy does not evaluate"));
	assert_null(strstr(c.reason, "user-sgpr: "));
	rdc_choice_free(&c);

	edges[0].condition = "opt-in";
	assert_int_equal(rdc_policy_choose_codeobj(&t, &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_non_null(strstr(c.reason, "opt-in"));
	/* An opt-in edge is not something the card "needs". */
	assert_null(strstr(c.need, "gfx1101"));
	rdc_choice_free(&c);
	assert_int_equal(rdc_policy_choose_codeobj(&t, &dev, bl.p, bl.n, RDC_POLICY_OPT_IN, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	rdc_choice_free(&c);

	/* Native needs no edge, and a bad-kernel rule for native code refuses it
	 * too; with no other candidate the bundle is missing. */
	dev = tgt("gfx1101");
	struct rdc_bad_kernel bad[] = { { "gfx1101", "*", "_Z9fill_*", "refuse", "synthetic", "t" } };
	t.bad = bad;
	t.n_bad = 1;
	assert_int_equal(rdc_policy_choose_codeobj(&t, &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_non_null(strstr(c.reason, "badlist"));
	rdc_choice_free(&c);
	t.n_bad = 0;
	assert_int_equal(rdc_policy_choose_codeobj(&t, &dev, bl.p, bl.n, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_NATIVE);
	assert_null(c.co); /* native without --kernels parses no metadata */
	rdc_choice_free(&c);
	free(bl.p);
}

/* user-sgpr-16 counts USER_SGPR_COUNT + workgroup id X/Y/Z + workgroup
 * info of COMPUTE_PGM_RSRC2, for wave32 kernels only (LLVM's
 * hasUserSGPRInit16Bug() is UserSGPRInit16Bug && isWave32()). */
static void test_user_sgpr16_wave32_only(void **state)
{
	(void)state;
	struct rdc_kernel_verdict v;
	struct rdc_kernel k = kern("k", 16, 256, 32, true, true);
	k.kd.rsrc2 = (6u << 1) | (1u << 7);            /* 6 user + workgroup id x = 7 */
	memset(&v, 0, sizeof v);
	assert_false(rdc_pol_check_user_sgpr16(&k, &v));
	assert_non_null(strstr(v.reason, "6 user + 1 system"));
	k.kd.rsrc2 = (12u << 1) | (0xfu << 7) | 1u;    /* 12 + 4, private segment not counted */
	memset(&v, 0, sizeof v);
	assert_true(rdc_pol_check_user_sgpr16(&k, &v));
	k.kd.rsrc2 = (11u << 1) | (0xfu << 7) | 1u;    /* 11 + 4 + private segment: 15 */
	assert_false(rdc_pol_check_user_sgpr16(&k, &v));
	k = kern("k64", 16, 256, 64, true, true);       /* wave64: no padding needed */
	k.kd.rsrc2 = (6u << 1) | (1u << 7);
	memset(&v, 0, sizeof v);
	assert_true(rdc_pol_check_user_sgpr16(&k, &v));
	k.kd.present = false;                            /* nothing to verify: refused */
	assert_false(rdc_pol_check_user_sgpr16(&k, &v));
}

/* RDC_POLICY_SYMBOLS: gfx1030 code on gfx1031 (the same limits, an edge
 * without condition) is read from its symbol table and checked by name; the
 * verdict, kernels and patches equal the full decode's; a bad-kernel rule
 * still refuses by name; an edge between different limits (gfx1100 code on
 * gfx1103: vgpr-fit) still decodes and checks the numbers. */
static void test_symbols_flag(void **state)
{
	(void)state;
	struct rdc_choice full, q;
	if (choose_file("bundle/iota.bundle", "gfx1031", RDC_POLICY_KERNELS, &full) == 77) {
		print_message("skipped: fixture bundle/iota.bundle missing (make fixtures)\n");
		skip();
	}
	choose_file("bundle/iota.bundle", "gfx1031", RDC_POLICY_KERNELS | RDC_POLICY_SYMBOLS, &q);
	assert_int_equal(q.verdict, RDC_VERDICT_MAPPED);
	assert_int_equal(q.entry, full.entry);
	assert_int_equal(q.n_kernels, full.n_kernels);
	assert_true(q.by_name);
	assert_false(full.by_name);
	assert_non_null(strstr(q.reason, "gfx1030 has gfx1031's limits: checked by name"));
	for (size_t i = 0; i < q.n_kernels; i++) {
		assert_true(q.kernels[i].ok);
		size_t j;
		for (j = 0; j < full.n_kernels && strcmp(full.kernels[j].kernel, q.kernels[i].kernel); j++)
			;
		assert_true(j < full.n_kernels);
	}
	assert_int_equal(q.co->meta_target_offset, full.co->meta_target_offset);
	rdc_choice_free(&q);
	rdc_choice_free(&full);

	/* native code too: by name */
	choose_file("bundle/iota.bundle", "gfx1030", RDC_POLICY_KERNELS | RDC_POLICY_SYMBOLS, &q);
	assert_int_equal(q.verdict, RDC_VERDICT_NATIVE);
	assert_true(q.by_name);
	rdc_choice_free(&q);

	/* a rule by name refuses under the symbol path as under the decode */
	struct blob bl;
	if (!load("bundle/iota.bundle", &bl)) {
		print_message("skipped: fixture bundle/iota.bundle missing (make fixtures)\n");
		skip();
	}
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse(bl.p, bl.n, &b, NULL), 0);
	struct rdc_tables t = *rdc_tables_builtin();
	struct rdc_bad_kernel bad[] = { { "gfx1031", "gfx1030", "*fill_iota*", "refuse", "synthetic", "t" } };
	t.bad = bad;
	t.n_bad = 1;
	struct rdc_target dev = tgt("gfx1031");
	for (unsigned f = 0; f < 2; f++) {
		unsigned flags = RDC_POLICY_KERNELS | (f ? RDC_POLICY_SYMBOLS : 0);
		assert_int_equal(rdc_policy_choose(&t, &dev, &b, flags, &q, NULL), 0);
		/* the gfx1030 entry is not the one mapped */
		assert_true(q.verdict != RDC_VERDICT_MAPPED || strcmp(q.chosen.proc, "gfx1030") != 0);
		assert_true(q.n_refused >= 1);
		assert_non_null(strstr(q.reason, "badlist"));
		rdc_choice_free(&q);
	}
	/* different limits: the numbers are still decoded and checked */
	dev = tgt("gfx1103");
	assert_int_equal(rdc_policy_choose(rdc_tables_builtin(), &dev, &b, RDC_POLICY_KERNELS | RDC_POLICY_SYMBOLS,
					   &q, NULL), 0);
	assert_false(q.by_name);
	rdc_choice_free(&q);
	rdc_bundle_free(&b);
	free(bl.p);
}

static void test_unknown_device(void **state)
{
	(void)state;
	struct rdc_tables t = syn_tables();
	struct rdc_bundle b;
	memset(&b, 0, sizeof b);
	struct rdc_choice c;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	struct rdc_target dev = tgt("gfx1999");
	assert_int_equal(rdc_policy_choose(&t, &dev, &b, 0, &c, &d), RDC_E_NOTFOUND);
	assert_non_null(strstr(d.msg, "gfx1999"));
	rdc_choice_free(&c);
}

/* A 64-byte AMDGPU ELF header (code object v5) for processor mach `mach`
 * with xnack/sramecc "any": what rdc_policy_handover_check reads. */
static void elf_header(uint8_t *h, uint8_t mach)
{
	memset(h, 0, 64);
	memcpy(h, "\x7f" "ELF", 4);
	h[4] = 2;          /* ELFCLASS64 */
	h[5] = 1;          /* little endian */
	h[6] = 1;          /* EV_CURRENT */
	h[7] = 64;         /* ELFOSABI_AMDGPU_HSA */
	h[8] = 3;          /* ABI version 3: code object v5 */
	h[16] = 3;         /* ET_DYN */
	h[18] = 224;       /* EM_AMDGPU */
	h[20] = 1;
	uint32_t flags = mach | 0x100u | 0x400u;   /* xnack any, sramecc any (v4+) */
	memcpy(h + 48, &flags, 4);
	h[52] = 64;        /* e_ehsize */
}

/* The last check before hand-over reads what the object is, not what a
 * decision says: the device's own code and an edge's code pass; code of a
 * processor the table has no edge for, an opt-in edge without the flag,
 * and bytes that are no code object are refused (RDC_E_REFUSED), named. */
static void test_handover_check(void **state)
{
	(void)state;
	static const struct rdc_compat_edge edges[] = {
		{ "gfx1031", "gfx1030", 1, "none", "t" },
		{ "gfx1031", "gfx10-3-generic", 2, "none", "t" },
		{ "gfx1031", "gfx1032", 3, "opt-in", "t" },
	};
	struct rdc_tables t = syn_tables();
	t.edges = edges;
	t.n_edges = sizeof edges / sizeof edges[0];
	struct rdc_target dev = tgt("gfx1031");
	uint8_t h[64];
	char proc[32];
	struct rdc_diag d;

	static const struct { unsigned flags; int rc; const char *proc, *why; } cases[] = {
		{ 0, 0, "gfx1031", NULL },                         /* its own */
		{ 0, 0, "gfx1030", NULL },                         /* an edge */
		{ 0, 0, "gfx10-3-generic", NULL },                 /* the generic edge */
		{ 0, RDC_E_REFUSED, "gfx1101", "no edge gfx1031 <- gfx1101" },
		{ 0, RDC_E_REFUSED, "gfx1032", "opt-in, which is off" },
		{ RDC_POLICY_OPT_IN, 0, "gfx1032", NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int mach = rdc_proc_to_mach(cases[i].proc);
		assert_true(mach > 0);
		elf_header(h, (uint8_t)mach);
		rdc_diag_clear(&d);
		int rc = rdc_policy_handover_check(&t, &dev, h, sizeof h, cases[i].flags, proc, sizeof proc, &d);
		if (rc != cases[i].rc)
			fail_msg("case %zu: rc %d (%s)", i, rc, d.msg);
		assert_string_equal(proc, cases[i].proc);
		if (cases[i].why)
			assert_non_null(strstr(d.msg, cases[i].why));
	}
	/* not a code object: refused, never passed */
	memset(h, 0, sizeof h);
	rdc_diag_clear(&d);
	assert_int_equal(rdc_policy_handover_check(&t, &dev, h, sizeof h, 0, proc, sizeof proc, &d),
			 RDC_E_REFUSED);
	assert_non_null(strstr(d.msg, "not a readable code object"));
	assert_int_equal(rdc_policy_handover_check(&t, &dev, NULL, 0, 0, NULL, 0, &d), RDC_E_REFUSED);
	/* xnack-on code on an xnack-off device is refused by its features */
	elf_header(h, (uint8_t)rdc_proc_to_mach("gfx1030"));
	uint32_t flags = (uint32_t)rdc_proc_to_mach("gfx1030") | 0x300u | 0x400u;   /* xnack on */
	memcpy(h + 48, &flags, 4);
	struct rdc_target off = tgt("gfx1031:xnack-");
	rdc_diag_clear(&d);
	assert_int_equal(rdc_policy_handover_check(&t, &off, h, sizeof h, 0, NULL, 0, &d), RDC_E_REFUSED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vgpr_wgp_fits_1_5x_not_1x),
		cmocka_unit_test(test_symbols_flag),
		cmocka_unit_test(test_vgpr_cu_mode_doubles_waves),
		cmocka_unit_test(test_addressable_wave_lds),
		cmocka_unit_test(test_features_and_badlist),
		cmocka_unit_test(test_need_text),
		cmocka_unit_test(test_native_by_id),
		cmocka_unit_test(test_unknown_device),
		cmocka_unit_test(test_fixture_iota_native_mapped_missing),
		cmocka_unit_test(test_fixture_vgpr_heavy),
		cmocka_unit_test(test_edge_may_hold),
		cmocka_unit_test(test_fixture_bare_codeobj),
		cmocka_unit_test(test_fixture_vgpr192),
		cmocka_unit_test(test_edge_conditions),
		cmocka_unit_test(test_mapped_by_id),
		cmocka_unit_test(test_handover_check),
		cmocka_unit_test(test_user_sgpr16_wave32_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
