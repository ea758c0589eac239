/* SPDX-License-Identifier: MIT */
/*
 * test_tablegen.c — tools/tablegen proves every compat edge from
 * tables/features.tsv (tools/tablegen/derive.c, docs/TABLES.md): the real
 * tables pass; a planted edge that breaks the rule fails the build with
 * file:line and the features that break it (a missing workaround without its
 * token, code instructions the device lacks, a token nothing asks for, a
 * reason that does not name the deciding feature, sets read at different
 * LLVM commits); a planted edge the features support passes; the features
 * parser refuses bad rows (unknown member, bad token, cycle) with file:line;
 * and the real features say what docs/TABLES.md says of them.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdnacompat/features.h"
#include "rdnacompat/tables_parse.h"

static const char *const files[] = { "isa", "compat", "cards", "kernels", "features" };
enum { N_FILES = sizeof files / sizeof files[0] };

static char *slurp(const char *path, size_t *len)
{
	char *t = NULL;
	if (rdc_tables_read_file(path, &t, len, NULL))
		return NULL;
	return t;
}

/* Copy tables/ into a fresh directory; in file `which` replace the line
 * starting with `match` (a whole-line prefix) by `repl`, or append `repl`
 * when match is NULL.  Run tablegen on it; return its exit status, its
 * output in `out`, and in *line the line number of the planted row. */
static int run_planted(const char *which, const char *match, const char *repl, char *out, size_t outn,
		       char *dir_out, size_t dirn, size_t *line)
{
	const char *src = getenv("RDC_SRCDIR"), *bld = getenv("RDC_BUILD");
	char dir[] = "/tmp/rdc-tgd-XXXXXX";
	assert_non_null(mkdtemp(dir));
	*line = 0;
	bool planted = false;
	for (int k = 0; k < N_FILES; k++) {
		char from[4096], to[4096];
		snprintf(from, sizeof from, "%s/tables/%s.tsv", src, files[k]);
		snprintf(to, sizeof to, "%s/%s.tsv", dir, files[k]);
		size_t n;
		char *t = slurp(from, &n);
		assert_non_null(t);
		FILE *f = fopen(to, "w");
		assert_non_null(f);
		size_t ln = 0;
		for (char *p = t; p < t + n;) {
			char *e = memchr(p, '\n', (size_t)(t + n - p));
			size_t l = e ? (size_t)(e - p) : (size_t)(t + n - p);
			ln++;
			if (!strcmp(files[k], which) && match && !planted && l >= strlen(match) &&
			    !strncmp(p, match, strlen(match))) {
				fprintf(f, "%s\n", repl);
				planted = true;
				*line = ln;
			} else {
				fwrite(p, 1, l, f);
				fputc('\n', f);
			}
			p += l + 1;
		}
		if (!strcmp(files[k], which) && !match) {
			fprintf(f, "%s\n", repl);
			planted = true;
			*line = ln + 1;
		}
		fclose(f);
		free(t);
	}
	if (!planted)
		fail_msg("no line '%s' in %s.tsv", match, which);
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "'%s/host/tablegen' '%s' '%s/out.c' 2>&1", bld, dir, dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t n = fread(out, 1, outn - 1, p);
	out[n] = '\0';
	int st = pclose(p);
	snprintf(dir_out, dirn, "%s", dir);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void cleanup(const char *dir)
{
	char p[4200];
	for (int k = 0; k < N_FILES; k++) {
		snprintf(p, sizeof p, "%s/%s.tsv", dir, files[k]);
		unlink(p);
	}
	snprintf(p, sizeof p, "%s/out.c", dir);
	unlink(p);
	rmdir(dir);
}

/* Expect failure at `which`.tsv:<planted line> with every string of `want`
 * (NULL-terminated) in the output. */
static void expect_fail_at(const char *which, const char *match, const char *repl, const char *const *want,
			   bool at_line)
{
	char out[16384], dir[64], loc[4200];
	size_t line;
	int rc = run_planted(which, match, repl, out, sizeof out, dir, sizeof dir, &line);
	if (at_line)
		snprintf(loc, sizeof loc, "%s/%s.tsv:%zu: ", dir, which, line);
	else
		snprintf(loc, sizeof loc, "%s/%s.tsv", dir, which);
	if (rc == 0 || !strstr(out, loc))
		fail_msg("planted '%s': rc %d, want a failure at %s; tablegen said:\n%s", repl, rc, loc, out);
	for (size_t i = 0; want[i]; i++)
		if (!strstr(out, want[i]))
			fail_msg("planted '%s': output lacks '%s':\n%s", repl, want[i], out);
	cleanup(dir);
}

static void expect_fail(const char *which, const char *match, const char *repl, const char *const *want)
{
	expect_fail_at(which, match, repl, want, true);
}

static void expect_pass(const char *which, const char *match, const char *repl)
{
	char out[16384], dir[64];
	size_t line;
	int rc = run_planted(which, match, repl, out, sizeof out, dir, sizeof dir, &line);
	if (rc != 0)
		fail_msg("planted '%s': tablegen failed:\n%s", repl, out);
	assert_non_null(strstr(out, "features prove"));
	cleanup(dir);
}

static void test_real_tables_pass(void **state)
{
	(void)state;
	/* a comment appended changes nothing */
	expect_pass("compat", NULL, "# nothing planted");
}

static void test_planted_unsafe_edges_fail(void **state)
{
	(void)state;
	/* the six edges the features refused before 2026-12-06: gfx11-generic code on gfx1150 */
	expect_fail("compat", "gfx1150\tgfx11-generic\t", "gfx1150\tgfx11-generic\t2\tnone\t[GEN] member",
		    (const char *const[]){ "gfx1150 <- gfx11-generic", "PointSampleAccel", "point-sample",
					   "image-sample", NULL });
	/* gfx1153 code on gfx1152 */
	expect_fail("compat", "gfx1152\tgfx1153\t", "gfx1152\tgfx1153\t3\tnone\tsubset",
		    (const char *const[]){ "gfx1152 <- gfx1153", "PointSampleAccel", NULL });
	/* a user-SGPR workaround missing */
	expect_fail("compat", "gfx1100\tgfx1101\t", "gfx1100\tgfx1101\t1\tnone\tsame file",
		    (const char *const[]){ "UserSGPRInit16Bug", "user-sgpr-16", NULL });
	/* the producer window of gfx11-generic's MADIntraFwdBug */
	expect_fail("compat", "gfx1101\tgfx11-generic\t", "gfx1101\tgfx11-generic\t2\tnone\tmember",
		    (const char *const[]){ "MADIntraFwdBug", "#89936", "mad-intra-fwd", NULL });
	/* the larger register file without vgpr-fit */
	expect_fail("compat", "gfx1103\tgfx1101\t", "gfx1103\tgfx1101\t3\tnone\tsame workarounds",
		    (const char *const[]){ "1_5xVGPRs", "vgpr-fit", NULL });
	/* instructions the device lacks: no condition or opt-in helps */
	expect_fail("compat", NULL, "gfx1100\tgfx1150\t9\tpoint-sample+opt-in\tPointSampleAccel",
		    (const char *const[]){ "gfx1100 <- gfx1150", "SALUFloatInsts", "DPPSrc1SGPR", NULL });
	/* a token nothing asks for */
	expect_fail("compat", "gfx1153\tgfx1150\t", "gfx1153\tgfx1150\t2\tpoint-sample\tPointSampleAccel",
		    (const char *const[]){ "names point-sample but no feature requires it", NULL });
	/* the right token, but the reason does not say which feature decided it */
	expect_fail("compat", "gfx1151\tgfx1153\t", "gfx1151\tgfx1153\t4\tpoint-sample\tsubset",
		    (const char *const[]){ "must say which feature decided it", "PointSampleAccel", NULL });
	/* feature sets read at different LLVM commits prove nothing */
	expect_fail("compat", "gfx940\tgfx9-4-generic\t", "gfx940\tgfx9-4-generic\t1\tnone\t[GEN] member",
		    (const char *const[]){ "different LLVM commits", "opt-in or absent", NULL });
}

static void test_planted_safe_edges_pass(void **state)
{
	(void)state;
	/* gfx1151 code on gfx1153: the 1.5x file (vgpr-fit); PointSampleAccel only adds waits */
	expect_pass("compat", NULL, "gfx1153\tgfx1151\t4\tvgpr-fit\t[F] 11_5_1 = 11_5_Common + 1_5xVGPRs + PointSampleAccel");
	/* an opt-in edge still needs the tokens of what it lacks, and passes with them */
	expect_pass("compat", NULL, "gfx1152\tgfx1102\t6\tpoint-sample+opt-in\t[F] lacks PointSampleAccel");
}

static void test_features_parser_refuses(void **state)
{
	(void)state;
	expect_fail("features", "set\tISAVersion11_0_3\t",
		    "set\tISAVersion11_0_3\t-\t-\t-\t@ISAVersion11_0_Common,NoSuchFeature\t-\tllvm/lib/Target/AMDGPU/AMDGPU.td@001c38d03e77\tx",
		    (const char *const[]){ "no feature row 'NoSuchFeature'", NULL });
	expect_fail("features", "feature\tPointSampleAccel\t",
		    "feature\tPointSampleAccel\tworkaround\tpoint-sampel\timage-sample\tImageInsts\t-\tllvm/lib/Target/AMDGPU/AMDGPU.td@001c38d03e77\tx",
		    (const char *const[]){ "no compat condition token", NULL });
	/* a cycle is reported where the walk gives up, not necessarily at the planted row */
	expect_fail_at("features", "set\tISAVersion11_Common\t",
		       "set\tISAVersion11_Common\t-\t-\t-\t@ISAVersion11_0_3,GFX11\t-\tllvm/lib/Target/AMDGPU/AMDGPU.td@001c38d03e77\tx",
		       (const char *const[]){ "nested more than", NULL }, false);
	expect_fail("features", "feature\tGFX11\t",
		    "feature\tGFX11\tinstruction\t-\t-\t-\t-\tAMDGPU.td\tno commit",
		    (const char *const[]){ "llvm:", NULL });
	/* a processor of isa.tsv without a target row */
	expect_fail_at("features", "target\tgfx1036\t", "# gone",
		       (const char *const[]){ "no target row for gfx1036", NULL }, false);
}

/* The facts docs/TABLES.md and compat.tsv state, from the features file. */
static void test_real_features(void **state)
{
	(void)state;
	char path[4096];
	snprintf(path, sizeof path, "%s/tables/features.tsv", getenv("RDC_SRCDIR"));
	size_t n;
	char *t = slurp(path, &n);
	assert_non_null(t);
	struct rdc_features f;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	if (rdc_features_parse(&f, t, n, path, &d))
		fail_msg("%s", d.msg);
	free(t);
	struct rdc_feat_target g1150, g1153, gen, g1100;
	assert_int_equal(rdc_feat_target_expand(&f, "gfx1150", &g1150, &d), 0);
	assert_int_equal(rdc_feat_target_expand(&f, "gfx1153", &g1153, &d), 0);
	assert_int_equal(rdc_feat_target_expand(&f, "gfx11-generic", &gen, &d), 0);
	assert_int_equal(rdc_feat_target_expand(&f, "gfx1100", &g1100, &d), 0);
	const struct rdc_feat_member *m = rdc_feat_target_has(&g1150, "PointSampleAccel");
	assert_non_null(m);
	assert_string_equal(m->late, "#127991");
	assert_null(rdc_feat_target_has(&g1153, "PointSampleAccel"));
	assert_null(rdc_feat_target_has(&gen, "PointSampleAccel"));
	assert_non_null(rdc_feat_target_has(&g1150, "SALUFloatInsts"));
	assert_null(rdc_feat_target_has(&g1100, "SALUFloatInsts"));
	m = rdc_feat_target_has(&gen, "MADIntraFwdBug");
	assert_non_null(m);
	assert_string_equal(m->late, "#89936");
	m = rdc_feat_target_has(&g1100, "MADIntraFwdBug");
	assert_non_null(m);
	assert_null(m->late);
	assert_non_null(rdc_feat_target_has(&g1100, "UserSGPRInit16Bug"));
	assert_non_null(rdc_feat_target_has(&g1100, "1_5xVGPRs"));
	assert_string_equal(g1150.commit, gen.commit);
	const struct rdc_llvm_feature *ft = rdc_llvm_feature_find(&f, "RequiredExportPriority");
	assert_non_null(ft);
	assert_string_equal(ft->token, "exempt");
	assert_non_null(strstr(ft->source, "fixRequiredExportPriority"));
	ft = rdc_llvm_feature_find(&f, "PointSampleAccel");
	assert_string_equal(ft->token, "point-sample");
	assert_int_equal(ft->cls, RDC_FC_WORKAROUND);
	assert_string_equal(rdc_llvm_feature_find(&f, "1_5xVGPRs")->token, "vgpr-fit");
	assert_string_equal(rdc_llvm_feature_find(&f, "UserSGPRInit16Bug")->token, "user-sgpr-16");
	assert_string_equal(rdc_llvm_feature_find(&f, "MSAALoadDstSelBug")->token, "msaa-load");
	assert_string_equal(rdc_llvm_feature_find(&f, "MADIntraFwdBug")->token, "mad-intra-fwd");
	/* every row cites the LLVM file and commit */
	for (size_t i = 0; i < f.n_feat; i++)
		assert_non_null(strchr(f.feat[i].llvm, '@'));
	for (size_t i = 0; i < f.n_list; i++)
		assert_non_null(strchr(f.list[i].llvm, '@'));
	rdc_feat_target_free(&g1150);
	rdc_feat_target_free(&g1153);
	rdc_feat_target_free(&gen);
	rdc_feat_target_free(&g1100);
	rdc_features_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_tables_pass),
		cmocka_unit_test(test_planted_unsafe_edges_fail),
		cmocka_unit_test(test_planted_safe_edges_pass),
		cmocka_unit_test(test_features_parser_refuses),
		cmocka_unit_test(test_real_features),
	};
	if (!getenv("RDC_SRCDIR") || !getenv("RDC_BUILD")) {
		fprintf(stderr, "test_tablegen: RDC_SRCDIR and RDC_BUILD unset (run through tests/run-unit.sh)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
