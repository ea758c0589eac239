/* SPDX-License-Identifier: MIT */
/*
 * test_target.c — target ids in every spelling (shim/core/target.c): each
 * spelling parses to the same target and formats back; every processor of
 * tables/isa.tsv round-trips through name <-> version <-> KFD number; the
 * HSA_OVERRIDE_GFX_VERSION parser accepts exactly what the thunk's
 * sscanf("%u.%u.%u%c") accepts (checked against sscanf itself); bad inputs
 * are refused with a message, never crash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

static struct rdc_target parse_ok(const char *s)
{
	struct rdc_target t;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_target_parse(s, (size_t)-1, &t, &d);
	if (rc)
		fail_msg("parse '%s': %s", s, d.msg);
	return t;
}

static void parse_bad(const char *s)
{
	struct rdc_target t;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_target_parse(s, (size_t)-1, &t, &d);
	if (rc == 0)
		fail_msg("'%s' was accepted as %s", s, t.proc);
	assert_int_equal(rc, RDC_E_FORMAT);
	assert_true(d.msg[0] != '\0');
}

static void test_parse_spellings(void **state)
{
	(void)state;
	struct rdc_target t = parse_ok("gfx1031");
	assert_string_equal(t.proc, "gfx1031");
	assert_int_equal(t.xnack, RDC_FEAT_ANY);
	assert_int_equal(t.sramecc, RDC_FEAT_ANY);

	t = parse_ok("gfx90a:xnack+");
	assert_string_equal(t.proc, "gfx90a");
	assert_int_equal(t.xnack, RDC_FEAT_ON);
	assert_int_equal(t.sramecc, RDC_FEAT_ANY);

	t = parse_ok("gfx90a:sramecc-:xnack+");
	assert_int_equal(t.xnack, RDC_FEAT_ON);
	assert_int_equal(t.sramecc, RDC_FEAT_OFF);
	/* order of features does not matter */
	struct rdc_target u = parse_ok("gfx90a:xnack+:sramecc-");
	assert_memory_equal(&t, &u, sizeof t);

	t = parse_ok("amdgcn-amd-amdhsa--gfx1030");
	assert_string_equal(t.proc, "gfx1030");
	t = parse_ok("amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-");
	assert_string_equal(t.proc, "gfx906");
	assert_int_equal(t.sramecc, RDC_FEAT_ON);
	assert_int_equal(t.xnack, RDC_FEAT_OFF);

	t = parse_ok("gfx10-3-generic");
	assert_string_equal(t.proc, "gfx10-3-generic");
	t = parse_ok("gfx9-4-generic:xnack-");
	assert_int_equal(t.xnack, RDC_FEAT_OFF);
	t = parse_ok("gfx11-generic");
	assert_string_equal(t.proc, "gfx11-generic");

	/* explicit length: not NUL-terminated input */
	const char buf[] = { 'g', 'f', 'x', '1', '1', '0', '2', 'X', 'Y' };
	assert_int_equal(rdc_target_parse(buf, 7, &t, NULL), 0);
	assert_string_equal(t.proc, "gfx1102");
}

static void test_parse_rejects(void **state)
{
	(void)state;
	const char *bad[] = {
		"", ":xnack+", "gfx", "gfx10", "gfx90a:", "gfx90a:xnack", "gfx90a:xnack+:xnack-",
		"gfx90a:xnack+:xnack+", "gfx90a:foo+", "gfx90a:sramecc*", "GFX1030", "gfx1030 ",
		" gfx1030", "gfx10310", "gfx1030x", "gfxabc", "gfx10-3", "gfx-generic", "gfx1-2-3-generic",
		"gfx100-generic", "amdgcn-amd-amdhsa-gfx1030", "amdgcn-amd-amdhsa--", "r600", "sm_80",
		"gfx1030::xnack+", "gfx12345678901234567890123",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		parse_bad(bad[i]);
	struct rdc_target t;
	/* embedded NUL inside the given length */
	assert_int_equal(rdc_target_parse("gfx1030\0:xnack+", 15, &t, NULL), RDC_E_FORMAT);
	assert_int_equal(rdc_target_parse(NULL, 3, &t, NULL), RDC_E_INVAL);
}

static void test_format(void **state)
{
	(void)state;
	struct rdc_target t = parse_ok("gfx90a:xnack+:sramecc-");
	char buf[64];
	assert_int_equal(rdc_target_format(&t, buf, sizeof buf), strlen("gfx90a:sramecc-:xnack+"));
	assert_string_equal(buf, "gfx90a:sramecc-:xnack+");
	assert_int_equal(rdc_target_format_isa_name(&t, buf, sizeof buf),
			 strlen("amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+"));
	assert_string_equal(buf, "amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+");
	t = parse_ok("gfx10-3-generic");
	rdc_target_format_bundle_id(&t, buf, sizeof buf);
	assert_string_equal(buf, "hipv4-amdgcn-amd-amdhsa--gfx10-3-generic");
	/* snprintf semantics: full length returned, output truncated and terminated */
	char small[8];
	memset(small, 'Z', sizeof small);
	size_t need = rdc_target_format_isa_name(&t, small, sizeof small);
	assert_int_equal(need, strlen("amdgcn-amd-amdhsa--gfx10-3-generic"));
	assert_int_equal(small[7], '\0');
	assert_memory_equal(small, "amdgcn-", 7);
	assert_int_equal(rdc_target_format(&t, NULL, 0), strlen("gfx10-3-generic"));
	char one[1] = { 'Z' };
	rdc_target_format(&t, one, 1);
	assert_int_equal(one[0], '\0');
}

/* Every processor of the built-in isa table, with every feature setting it
 * supports, formats and parses back to itself in all three spellings. */
static void test_roundtrip_all_processors(void **state)
{
	(void)state;
	const struct rdc_tables *tb = rdc_tables_builtin();
	assert_true(tb->n_isa >= 38);
	for (size_t i = 0; i < tb->n_isa; i++) {
		const struct rdc_isa *isa = &tb->isa[i];
		for (int x = 0; x < 3; x++) {
			for (int s = 0; s < 3; s++) {
				if ((x && !isa->xnack_supported) || (s && !isa->sramecc_supported))
					continue;
				struct rdc_target t, u;
				memset(&t, 0, sizeof t);
				snprintf(t.proc, sizeof t.proc, "%s", isa->name);
				t.xnack = (uint8_t)x;
				t.sramecc = (uint8_t)s;
				char a[96], b[96], c[96];
				rdc_target_format(&t, a, sizeof a);
				rdc_target_format_isa_name(&t, b, sizeof b);
				rdc_target_format_bundle_id(&t, c, sizeof c);
				assert_int_equal(rdc_target_parse(a, (size_t)-1, &u, NULL), 0);
				assert_memory_equal(&t, &u, sizeof t);
				assert_int_equal(rdc_target_parse(b, (size_t)-1, &u, NULL), 0);
				assert_memory_equal(&t, &u, sizeof t);
				struct rdc_bundle_id id;
				assert_int_equal(rdc_bundle_id_parse(c, strlen(c), &id, NULL), 0);
				assert_int_equal(id.kind, RDC_KIND_HIPV4);
				assert_true(id.has_target);
				assert_string_equal(id.triple, "amdgcn-amd-amdhsa");
				assert_memory_equal(&t, &id.target, sizeof t);
			}
		}
		/* versions: processors only */
		unsigned ma, mi, st;
		int rc = rdc_proc_to_version(isa->name, &ma, &mi, &st);
		if (isa->generic) {
			assert_int_equal(rc, RDC_E_INVAL);
			assert_int_equal(rdc_proc_gcn_arch(isa->name), -1);
			continue;
		}
		assert_int_equal(rc, 0);
		char p[RDC_PROC_MAX];
		assert_int_equal(rdc_proc_from_version(ma, mi, st, p, sizeof p), 0);
		assert_string_equal(p, isa->name);
		uint32_t kv = rdc_kfd_version_from_parts(ma, mi, st);
		assert_int_equal(kv, ma * 10000 + mi * 100 + st);
		assert_int_equal(rdc_proc_from_kfd_version(kv, p, sizeof p), 0);
		assert_string_equal(p, isa->name);
		assert_int_equal(rdc_proc_gcn_arch(isa->name), (int)(ma * 100 + mi * 10 + st));
	}
}

static void test_versions(void **state)
{
	(void)state;
	unsigned ma, mi, st;
	assert_int_equal(rdc_proc_to_version("gfx90a", &ma, &mi, &st), 0);
	assert_int_equal(ma, 9);
	assert_int_equal(mi, 0);
	assert_int_equal(st, 10);
	assert_int_equal(rdc_proc_to_version("gfx90c", &ma, &mi, &st), 0);
	assert_int_equal(st, 12);
	assert_int_equal(rdc_proc_to_version("gfx1031", &ma, &mi, &st), 0);
	assert_int_equal(ma * 10000 + mi * 100 + st, 100301);
	assert_int_equal(rdc_proc_to_version("gfx10-3-generic", &ma, &mi, &st), RDC_E_INVAL);
	assert_int_equal(rdc_proc_to_version("gfx1031:xnack+", &ma, &mi, &st), RDC_E_INVAL);
	assert_int_equal(rdc_proc_to_version(NULL, &ma, &mi, &st), RDC_E_INVAL);

	char p[RDC_PROC_MAX];
	assert_int_equal(rdc_proc_from_version(9, 0, 10, p, sizeof p), 0);
	assert_string_equal(p, "gfx90a");
	assert_int_equal(rdc_proc_from_version(10, 3, 0, p, sizeof p), 0);
	assert_string_equal(p, "gfx1030");
	assert_int_equal(rdc_proc_from_version(9, 0, 16, p, sizeof p), RDC_E_INVAL);
	assert_int_equal(rdc_proc_from_version(0, 0, 0, p, sizeof p), RDC_E_INVAL);
	assert_int_equal(rdc_proc_from_version(10, 3, 1, p, 4), RDC_E_RANGE);

	assert_int_equal(rdc_proc_from_kfd_version(100301, p, sizeof p), 0);
	assert_string_equal(p, "gfx1031");
	assert_int_equal(rdc_proc_from_kfd_version(90010, p, sizeof p), 0);
	assert_string_equal(p, "gfx90a");
	assert_int_equal(rdc_proc_from_kfd_version(110003, p, sizeof p), 0);
	assert_string_equal(p, "gfx1103");
	assert_int_equal(rdc_proc_from_kfd_version(0, p, sizeof p), RDC_E_INVAL);
	assert_int_equal(rdc_proc_from_kfd_version(90016, p, sizeof p), RDC_E_INVAL);
	assert_int_equal(rdc_kfd_version_from_parts(10, 3, 1), 100301);
	assert_int_equal(rdc_kfd_version_from_parts(9, 0, 10), 90010);

	assert_int_equal(rdc_proc_gcn_arch("gfx90a"), 910);
	assert_int_equal(rdc_proc_gcn_arch("gfx1031"), 1031);
	assert_int_equal(rdc_proc_gcn_arch("gfx906"), 906);
	assert_int_equal(rdc_proc_gcn_arch("gfx11-generic"), -1);
	assert_int_equal(rdc_proc_gcn_arch("junk"), -1);
}

/* Our parser must agree with the thunk's sscanf on acceptance (for values in range). */
static void test_override_matches_sscanf(void **state)
{
	(void)state;
	const char *in[] = {
		"10.3.0", "9.0.10", "11.0.2", "11.0.0", "10.3.0 ", "10.3.0x", "10.3", "10.3.0.1", "",
		"a.b.c", "10..0", ".3.0", "10.3.", " 10.3.0", "10. 3.0", "+10.3.0", "10.3.0\n",
		"10,3,0", "0x10.3.0", "10.3.0\t", "12.0.1", "9.4.2",
	};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		unsigned a, b, c;
		char dummy;
		int thunk_ok = sscanf(in[i], "%u.%u.%u%c", &a, &b, &c, &dummy) == 3;
		unsigned x = 99, y = 99, z = 99;
		struct rdc_diag d;
		rdc_diag_clear(&d);
		int rc = rdc_parse_gfx_override(in[i], &x, &y, &z, &d);
		if (thunk_ok != (rc == 0))
			fail_msg("'%s': sscanf says %d, rdc says %d (%s)", in[i], thunk_ok, rc, d.msg);
		if (rc == 0) {
			assert_int_equal(x, a);
			assert_int_equal(y, b);
			assert_int_equal(z, c);
		} else {
			assert_true(d.msg[0] != '\0');
		}
	}
	unsigned x, y, z;
	assert_int_equal(rdc_parse_gfx_override("9.0.10", &x, &y, &z, NULL), 0);
	char p[RDC_PROC_MAX];
	assert_int_equal(rdc_proc_from_version(x, y, z, p, sizeof p), 0);
	assert_string_equal(p, "gfx90a");
	/* out of the thunk's masks: refused instead of silently truncated */
	assert_int_equal(rdc_parse_gfx_override("64.0.0", &x, &y, &z, NULL), RDC_E_RANGE);
	assert_int_equal(rdc_parse_gfx_override("10.256.0", &x, &y, &z, NULL), RDC_E_RANGE);
	assert_int_equal(rdc_parse_gfx_override("99999999999.0.0", &x, &y, &z, NULL), RDC_E_FORMAT);
	assert_int_equal(rdc_parse_gfx_override(NULL, &x, &y, &z, NULL), RDC_E_INVAL);
}

static void test_bundle_ids(void **state)
{
	(void)state;
	struct rdc_bundle_id id;
	const char *s = "hipv4-amdgcn-amd-amdhsa--gfx10-3-generic";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_int_equal(id.kind, RDC_KIND_HIPV4);
	assert_string_equal(id.triple, "amdgcn-amd-amdhsa");
	assert_true(id.has_target);
	assert_string_equal(id.target.proc, "gfx10-3-generic");

	s = "hip-amdgcn-amd-amdhsa-gfx906";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_int_equal(id.kind, RDC_KIND_HIP);
	assert_string_equal(id.triple, "amdgcn-amd-amdhsa");
	assert_string_equal(id.target.proc, "gfx906");

	s = "hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_int_equal(id.target.sramecc, RDC_FEAT_ON);
	assert_int_equal(id.target.xnack, RDC_FEAT_OFF);

	s = "hcc-amdgcn-amd-amdhsa--gfx803";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_int_equal(id.kind, RDC_KIND_HCC);
	assert_string_equal(id.target.proc, "gfx803");

	s = "openmp-amdgcn-amd-amdhsa--gfx1100";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_int_equal(id.kind, RDC_KIND_OPENMP);
	assert_string_equal(id.target.proc, "gfx1100");

	s = "hipv4-amdgcn-amd-amdhsa-unknown-gfx1030";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_string_equal(id.triple, "amdgcn-amd-amdhsa-unknown");
	assert_string_equal(id.target.proc, "gfx1030");

	s = "host-x86_64-unknown-linux";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_int_equal(id.kind, RDC_KIND_HOST);
	assert_false(id.has_target);
	assert_string_equal(id.triple, "x86_64-unknown-linux");
	s = "host-x86_64-unknown-linux-gnu";
	assert_int_equal(rdc_bundle_id_parse(s, strlen(s), &id, NULL), 0);
	assert_string_equal(id.triple, "x86_64-unknown-linux-gnu");

	/* length-delimited, as in a bundle header: trailing bytes are not read */
	const char raw[] = "hipv4-amdgcn-amd-amdhsa--gfx1031GARBAGE";
	assert_int_equal(rdc_bundle_id_parse(raw, strlen("hipv4-amdgcn-amd-amdhsa--gfx1031"), &id, NULL), 0);
	assert_string_equal(id.target.proc, "gfx1031");

	const char *bad[] = {
		"cuda-nvptx64-nvidia-cuda--sm_80", "hipv4-amdgcn-amd-amdhsa--", "hipv4-amdgcn-amd-amdhsa",
		"hipv4-amdgcn-amd-amdhsa--gfx1030:xnack", "hipv4-", "host-", "host-amdgcn-amd-amdhsa--gfx1030",
		"hipv4-amdgcn-amd-amdhsa-a-b-gfx1030", "hipv4-amdgcn-amd-amdhsa--gfx99999", "", "hipv4",
		"host-x86 64", "hipv4-amdgcn-amd-amdhsa--GFX1030",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rdc_diag d;
		rdc_diag_clear(&d);
		if (rdc_bundle_id_parse(bad[i], strlen(bad[i]), &id, &d) == 0)
			fail_msg("bundle id '%s' accepted", bad[i]);
		assert_true(d.msg[0] != '\0');
	}
	char nul[] = "hipv4-amdgcn-amd-amdhsa--gfx1030";
	nul[10] = '\0';
	assert_int_not_equal(rdc_bundle_id_parse(nul, sizeof nul - 1, &id, NULL), 0);
}

static void test_feature_matching(void **state)
{
	(void)state;
	/* unset in the code matches either; set must be equal */
	for (int c = 0; c < 3; c++) {
		for (int dv = 1; dv < 3; dv++) {
			struct rdc_target code, dev;
			memset(&code, 0, sizeof code);
			memset(&dev, 0, sizeof dev);
			strcpy(code.proc, "gfx90a");
			strcpy(dev.proc, "gfx90a");
			code.xnack = (uint8_t)c;
			dev.xnack = (uint8_t)dv;
			bool want = c == RDC_FEAT_ANY || c == dv;
			assert_int_equal(rdc_target_features_match(&code, &dev), want);
			assert_int_equal(rdc_target_matches(&code, &dev), want);
			code.xnack = 0;
			code.sramecc = (uint8_t)c;
			dev.sramecc = (uint8_t)dv;
			assert_int_equal(rdc_target_features_match(&code, &dev), want);
		}
	}
	struct rdc_target a = parse_ok("gfx1030"), b = parse_ok("gfx1031");
	assert_true(rdc_target_features_match(&a, &b));
	assert_false(rdc_target_matches(&a, &b));
	assert_true(rdc_target_matches(&a, &a));
	assert_false(rdc_target_matches(NULL, &a));
	struct rdc_target x = parse_ok("gfx90a:xnack+"), y = parse_ok("gfx90a:xnack-:sramecc+");
	assert_false(rdc_target_matches(&x, &y));
	x = parse_ok("gfx90a:sramecc+");
	assert_true(rdc_target_matches(&x, &y));
}

/* Random strings over the target-id alphabet: never crash; whatever is
 * accepted formats and re-parses to the same target. */
static void test_random_inputs(void **state)
{
	(void)state;
	static const char alpha[] = "gfx0123456789abcdefgenric-:+amdhsxk";
	unsigned seed = 12345;
	size_t accepted = 0;
	for (int iter = 0; iter < 200000; iter++) {
		char s[40];
		seed = seed * 1103515245u + 12345u;
		size_t n = (seed >> 16) % 32;
		size_t i = 0;
		if (seed & 1)
			memcpy(s, "gfx1", 4), i = 4;
		for (; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			s[i] = alpha[(seed >> 16) % (sizeof alpha - 1)];
		}
		s[n] = '\0';
		struct rdc_target t, u;
		if (rdc_target_parse(s, n, &t, NULL) == 0) {
			char f[96];
			accepted++;
			rdc_target_format(&t, f, sizeof f);
			assert_int_equal(rdc_target_parse(f, (size_t)-1, &u, NULL), 0);
			assert_memory_equal(&t, &u, sizeof t);
		}
		struct rdc_bundle_id id;
		(void)rdc_bundle_id_parse(s, n, &id, NULL);
		unsigned a, b, c;
		(void)rdc_parse_gfx_override(s, &a, &b, &c, NULL);
	}
	assert_true(accepted > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_spellings),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_roundtrip_all_processors),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_override_matches_sscanf),
		cmocka_unit_test(test_bundle_ids),
		cmocka_unit_test(test_feature_matching),
		cmocka_unit_test(test_random_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
