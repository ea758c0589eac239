/* SPDX-License-Identifier: MIT */
/*
 * test_retarget_prop.c — a property of the retargeter, checked on every
 * input we have: the fixture code objects, the regression inputs under
 * tests/fuzz/regress/ (audit C2's among them) and, when present, the fuzz
 * corpus a `make fuzz-smoke` left in $RDC_BUILD/fuzz/corpus-co.  For each
 * input and each of several targets, rdc_codeobj_retarget either refuses,
 * or its output
 *   - parses back (RDC_CO_METADATA) with the requested processor,
 *   - keeps every kernel (same count, same names, same order),
 *   - differs from the input only where the plan says: for a same-length
 *     change exactly the bytes of rdc_codeobj_retarget_patches; for a
 *     length change only e_flags, the program and section header tables,
 *     and what is appended after the input.
 * Audit C2: a parseable input whose retarget did not parse back.
 * Also: where the decode finds amdhsa.target, RDC_CO_SYMBOLS's reading of
 * the note's tail finds it at the same place or not at all.
 */
#include <dirent.h>
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fixture.h"
#include "rdnacompat/codeobj.h"

static const char *const targets[] = { "gfx1031", "gfx1100", "gfx90a", "gfx1010",
				       "gfx11-generic", "gfx1151" };

struct tally {
	size_t inputs, parsed, retargeted, refused;
};

static bool in_range(size_t i, uint64_t off, uint64_t len)
{
	return i >= off && i - off < len;
}

/* One input, one target: the property above (fails the test otherwise). */
static void check_one(const char *name, const uint8_t *in, size_t n, const struct rdc_codeobj *co,
		      const char *proc, struct tally *t)
{
	struct rdc_target to;
	memset(&to, 0, sizeof to);
	snprintf(to.proc, sizeof to.proc, "%s", proc);
	struct rdc_diag d = { 0 };
	uint8_t *out = NULL;
	size_t on = 0;
	if (rdc_codeobj_retarget(in, n, &to, &out, &on, &d) != 0) {
		t->refused++;
		return;
	}
	t->retargeted++;
	struct rdc_codeobj r;
	int rc = rdc_codeobj_parse(out, on, RDC_CO_METADATA, &r, &d);
	if (rc != 0)
		fail_msg("%s -> %s: output does not parse: %s", name, proc, d.msg);
	if (strcmp(r.target.proc, proc) != 0)
		fail_msg("%s -> %s: output claims %s", name, proc, r.target.proc);
	if (r.n_kernels != co->n_kernels)
		fail_msg("%s -> %s: %zu kernels, input has %zu", name, proc, r.n_kernels, co->n_kernels);
	for (size_t k = 0; k < r.n_kernels; k++)
		if (strcmp(r.kernels[k].name ? r.kernels[k].name : "",
			   co->kernels[k].name ? co->kernels[k].name : "") != 0)
			fail_msg("%s -> %s: kernel %zu renamed", name, proc, k);
	rdc_codeobj_free(&r);

	struct rdc_patch p[8];
	size_t np = 8;
	if (rdc_codeobj_retarget_patches(in, n, &to, p, &np, &d) == 0) {
		/* Same length: exactly the patches. */
		assert_int_equal(on, n);
		uint8_t *want = malloc(n ? n : 1);
		assert_non_null(want);
		memcpy(want, in, n);
		for (size_t i = 0; i < np; i++) {
			assert_true(rdc_in_bounds(p[i].offset, p[i].len, n));
			memcpy(want + p[i].offset, p[i].bytes, p[i].len);
		}
		if (memcmp(want, out, n) != 0)
			fail_msg("%s -> %s: copy differs from the patch plan", name, proc);
		free(want);
	} else {
		/* Length change: the input's bytes stay but for e_flags and the
		 * header tables; the new note is appended. */
		assert_true(on > n);
		Elf64_Ehdr eh;
		memcpy(&eh, in, sizeof eh);
		for (size_t i = 0; i < n; i++) {
			if (in[i] == out[i])
				continue;
			if (in_range(i, 48, 4) ||
			    in_range(i, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr)) ||
			    in_range(i, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)))
				continue;
			fail_msg("%s -> %s: byte %zu changed outside the headers", name, proc, i);
		}
	}
	free(out);
}

static void check_file(const char *path, struct tally *t)
{
	size_t n;
	uint8_t *b = slurp(path, &n);
	if (!b)
		return;
	t->inputs++;
	struct rdc_codeobj co;
	struct rdc_diag d = { 0 };
	if (rdc_codeobj_parse(b, n, RDC_CO_METADATA, &co, &d) == 0) {
		t->parsed++;
		/* The note's tail (RDC_CO_SYMBOLS) never disagrees with the
		 * decode about amdhsa.target (regress/codeobj-tail-dup-target.co:
		 * the key twice, found by fuzz_codeobj). */
		struct rdc_codeobj q;
		if (co.meta_target && rdc_codeobj_parse(b, n, RDC_CO_SYMBOLS, &q, &d) == 0) {
			if (q.meta_target_offset != co.meta_target_offset ||
			    q.meta_target_len != co.meta_target_len)
				fail_msg("%s: the tail reads amdhsa.target at %llu, the decode at %llu", path,
					 (unsigned long long)q.meta_target_offset,
					 (unsigned long long)co.meta_target_offset);
			rdc_codeobj_free(&q);
		}
		for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
			check_one(path, b, n, &co, targets[i], t);
		rdc_codeobj_free(&co);
	} else {
		/* Not parseable: the retargeter must refuse it too (or at
		 * least never produce something unparseable). */
		for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
			struct rdc_target to;
			memset(&to, 0, sizeof to);
			snprintf(to.proc, sizeof to.proc, "%s", targets[i]);
			uint8_t *out = NULL;
			size_t on = 0;
			if (rdc_codeobj_retarget(b, n, &to, &out, &on, &d) == 0) {
				struct rdc_codeobj r;
				if (rdc_codeobj_parse(out, on, RDC_CO_HEADER_ONLY, &r, &d) != 0)
					fail_msg("%s -> %s: unparseable input, unparseable output", path,
						 targets[i]);
				rdc_codeobj_free(&r);
				free(out);
			}
		}
	}
	free(b);
}

/* Every regular file of `dir` (at most `max`). */
static void check_dir(const char *dir, size_t max, struct tally *t)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *de;
	size_t seen = 0;
	while ((de = readdir(dp)) != NULL && seen < max) {
		if (de->d_name[0] == '.')
			continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (8 << 20))
			continue;
		seen++;
		check_file(p, t);
	}
	closedir(dp);
}

static void test_fixtures(void **state)
{
	(void)state;
	struct tally t = { 0 };
	const char *fx = getenv("RDC_FIXTURES");
	char p[4096];
	static const char *const sub[] = { "co", "codeobj", "policy" };
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", fx ? fx : "build/fixtures", sub[i]);
		check_dir(p, 1000, &t);
	}
	if (t.parsed == 0) {
		print_message("skipped: no fixture code objects under RDC_FIXTURES co/, codeobj/, policy/ (make fixtures)\n");
		skip();
	}
	/* Real code objects: most retargets succeed (the generic one needs v6). */
	assert_true(t.retargeted > t.parsed);
	print_message("fixtures: %zu inputs, %zu parsed, %zu retargets, %zu refused\n", t.inputs,
		      t.parsed, t.retargeted, t.refused);
}

static void test_regress_and_corpus(void **state)
{
	(void)state;
	struct tally t = { 0 };
	const char *src = getenv("RDC_SRCDIR"), *bld = getenv("RDC_BUILD");
	char p[4096];
	snprintf(p, sizeof p, "%s/tests/fuzz/regress", src ? src : ".");
	check_dir(p, 1000, &t);
	assert_true(t.inputs > 0);   /* the C2 input at least */
	/* Refusing everything satisfies the properties above trivially; the
	 * regression inputs hold a code object that parses and retargets
	 * (codeobj-tail-dup-target.co: a valid object whose note names
	 * amdhsa.target twice), so progress is required too. */
	assert_true(t.parsed > 0);
	assert_true(t.retargeted > 0);
	if (bld) {
		snprintf(p, sizeof p, "%s/fuzz/corpus-co", bld);
		check_dir(p, 20000, &t);
	}
	print_message("regression + corpus: %zu inputs, %zu parsed, %zu retargets, %zu refused\n",
		      t.inputs, t.parsed, t.retargeted, t.refused);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_regress_and_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
