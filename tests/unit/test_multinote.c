/* SPDX-License-Identifier: MIT */
/*
 * test_multinote.c — code objects with several NT_AMDGPU_METADATA notes
 * (linked from several objects, as rocBLAS's Tensile .co files are; built by
 * tests/fixtures/codeobj.d/multinote.sh: fill_iota and scale_add in the
 * first note, vgpr_hog at 192 VGPRs in the second):
 *   - every note is read: all kernels, with their descriptors, in both the
 *     decode and the symbol-table reading, and every note's target span;
 *   - a retarget changes every note (patches, patches from the parse, the
 *     copy, and the rebuilt notes when the target's length changes);
 *   - notes that disagree on the target are refused by every reading;
 *   - the policy checks the second note's kernel: gfx1100 code with a
 *     192-VGPR kernel in its second note is refused on gfx1103 (with one
 *     note read it was "mapped, all 2 kernels pass").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "fixture.h"
#include "rdnacompat/codeobj.h"
#include "rdnacompat/policy.h"
#include "rdnacompat/tables.h"

#define LOAD_OR_SKIP(b, n, rel)                                  \
	size_t n = 0;                                            \
	uint8_t *b = load_fixture(rel, &n);                      \
	if (!b) {                                                \
		print_message("fixture %s missing, skipped\n", rel); \
		skip();                                          \
	}

static struct rdc_target tgt(const char *s)
{
	struct rdc_target t;
	assert_int_equal(rdc_target_parse(s, (size_t)-1, &t, NULL), 0);
	return t;
}

static bool has_kernel(const struct rdc_codeobj *co, const char *name)
{
	for (size_t i = 0; i < co->n_kernels; i++)
		if (co->kernels[i].name && strcmp(co->kernels[i].name, name) == 0)
			return true;
	return false;
}

/* Every note's amdhsa.target says `want`. */
static void assert_targets(const uint8_t *b, const struct rdc_codeobj *co, const char *want)
{
	assert_int_equal(co->n_notes, 2);
	assert_non_null(co->note_target_offsets);
	assert_int_equal(co->note_target_offsets[0], co->meta_target_offset);
	assert_true(co->note_target_offsets[1] > co->note_target_offsets[0]);
	for (size_t i = 0; i < co->n_notes; i++)
		assert_memory_equal(b + co->note_target_offsets[i], want, strlen(want));
	assert_string_equal(co->meta_target, want);
}

static void test_every_note_read(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "codeobj/multinote-gfx1100.co");
	struct rdc_codeobj full, sym;
	struct rdc_diag d;
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_DESCRIPTORS, &full, &d), 0);
	assert_int_equal(full.n_kernels, 3);
	assert_true(has_kernel(&full, "_Z9fill_iotaPii"));
	assert_true(has_kernel(&full, "_Z8vgpr_hogPfPKfi"));
	for (size_t i = 0; i < full.n_kernels; i++) {
		assert_true(full.kernels[i].kd.present);
		if (strcmp(full.kernels[i].name, "_Z8vgpr_hogPfPKfi") == 0)
			assert_int_equal(full.kernels[i].vgpr_count, 192);
	}
	assert_targets(b, &full, "amdgcn-amd-amdhsa--gfx1100");
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_SYMBOLS, &sym, &d), 0);
	assert_int_equal(sym.n_kernels, 3);
	assert_int_equal(sym.n_notes, 2);
	for (size_t i = 0; i < 2; i++)
		assert_int_equal(sym.note_target_offsets[i], full.note_target_offsets[i]);
	rdc_codeobj_free(&sym);
	rdc_codeobj_free(&full);
	free(b);
}

static void apply(uint8_t *c, const struct rdc_patch *p, size_t k)
{
	for (size_t i = 0; i < k; i++)
		memcpy(c + p[i].offset, p[i].bytes, p[i].len);
}

static void test_retarget_every_note(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "codeobj/multinote-gfx1100.co");
	struct rdc_target to = tgt("gfx1101");
	struct rdc_patch p[8], q[8];
	size_t k = 8, kq = 8;
	struct rdc_diag d;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &k, &d), 0);
	assert_int_equal(k, 3);  /* e_flags and one string per note */
	struct rdc_codeobj co;
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_METADATA, &co, &d), 0);
	assert_int_equal(rdc_codeobj_retarget_patches_from(&co, &to, q, &kq, &d), 0);
	assert_int_equal(kq, k);
	for (size_t i = 0; i < k; i++) {
		assert_int_equal(p[i].offset, q[i].offset);
		assert_int_equal(p[i].len, q[i].len);
		assert_memory_equal(p[i].bytes, q[i].bytes, p[i].len);
	}
	size_t small = 2;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &small, &d), RDC_E_INVAL);
	assert_int_equal(small, 3);
	/* however many there are, in one reading: the same patches, malloc'd */
	struct rdc_patch *v = NULL;
	size_t kv = 0;
	assert_int_equal(rdc_codeobj_retarget_patches_alloc(b, n, &to, &v, &kv, &d), 0);
	assert_int_equal(kv, k);
	for (size_t i = 0; i < k; i++) {
		assert_int_equal(v[i].offset, p[i].offset);
		assert_int_equal(v[i].len, p[i].len);
		assert_memory_equal(v[i].bytes, p[i].bytes, p[i].len);
	}
	free(v);
	rdc_codeobj_free(&co);

	uint8_t *c = malloc(n);
	memcpy(c, b, n);
	apply(c, q, kq);
	assert_int_equal(rdc_codeobj_parse(c, n, RDC_CO_METADATA, &co, &d), 0);
	assert_string_equal(co.target.proc, "gfx1101");
	assert_targets(c, &co, "amdgcn-amd-amdhsa--gfx1101");
	rdc_codeobj_free(&co);
	/* The copy is the patched input. */
	uint8_t *r = NULL;
	size_t rn = 0;
	assert_int_equal(rdc_codeobj_retarget(b, n, &to, &r, &rn, &d), 0);
	assert_int_equal(rn, n);
	assert_memory_equal(r, c, n);
	free(r);
	free(c);

	/* Another length: every note re-encoded, the segment rebuilt. */
	to = tgt("gfx90a:xnack-");
	k = 8;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &k, &d), RDC_E_UNSUPPORTED);
	v = (struct rdc_patch *)1;
	assert_int_equal(rdc_codeobj_retarget_patches_alloc(b, n, &to, &v, &kv, &d), RDC_E_UNSUPPORTED);
	assert_null(v);
	assert_int_equal(rdc_codeobj_retarget(b, n, &to, &r, &rn, &d), 0);
	assert_true(rn > n);
	assert_int_equal(rdc_codeobj_parse(r, rn, RDC_CO_DESCRIPTORS, &co, &d), 0);
	assert_int_equal(co.n_kernels, 3);
	assert_true(has_kernel(&co, "_Z8vgpr_hogPfPKfi"));
	for (size_t i = 0; i < co.n_kernels; i++)
		assert_true(co.kernels[i].kd.present);
	assert_true(co.note_target_offsets[0] >= n);   /* in the appended segment */
	assert_targets(r, &co, "amdgcn-amd-amdhsa--gfx90a:xnack-");
	rdc_codeobj_free(&co);
	free(r);
	free(b);
}

static void test_disagreeing_notes_refused(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "codeobj/multinote-gfx1100.co");
	struct rdc_codeobj co;
	struct rdc_diag d;
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_METADATA, &co, &d), 0);
	uint64_t second = co.note_target_offsets[1];
	size_t len = co.meta_target_len;
	rdc_codeobj_free(&co);
	/* The second note now claims gfx1101 (same length). */
	memcpy(b + second, "amdgcn-amd-amdhsa--gfx1101", len);
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_METADATA, &co, &d), RDC_E_UNSUPPORTED);
	assert_non_null(strstr(d.msg, "note 2 of 2"));
	assert_non_null(strstr(d.msg, "amdhsa.target"));
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_SYMBOLS, &co, &d), RDC_E_UNSUPPORTED);
	struct rdc_target to = tgt("gfx1101");
	struct rdc_patch p[8];
	size_t k = 8;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &k, &d), RDC_E_UNSUPPORTED);
	uint8_t *r = NULL;
	size_t rn = 0;
	assert_int_equal(rdc_codeobj_retarget(b, n, &to, &r, &rn, &d), RDC_E_UNSUPPORTED);
	assert_null(r);
	free(b);
}

static void test_policy_checks_every_note(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "codeobj/multinote-gfx1100.co");
	struct rdc_choice c;
	/* gfx1101 has gfx1100's 1.5x file: mapped, three kernels checked. */
	struct rdc_target dev = tgt("gfx1101");
	assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, b, n, RDC_POLICY_KERNELS,
						   &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_int_equal(c.n_kernels, 3);
	rdc_choice_free(&c);
	/* gfx1102/gfx1103: the second note's vgpr_hog does not fit. */
	const char *refuse[] = { "gfx1102", "gfx1103" };
	for (size_t i = 0; i < 2; i++) {
		dev = tgt(refuse[i]);
		assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, b, n, 0, &c, NULL), 0);
		assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
		assert_non_null(strstr(c.reason, "vgpr_hog"));
		assert_non_null(strstr(c.reason, "192 VGPRs"));
		rdc_choice_free(&c);
	}
	free(b);
}

/* gfx1030 code on gfx1031 (an edge to the same limits): read by name from
 * the symbol table; all three kernels seen, and both notes' spans kept for
 * the patches. */
static void test_same_limits_by_name(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "codeobj/multinote-gfx1030.co");
	struct rdc_choice c;
	struct rdc_target dev = tgt("gfx1031");
	assert_int_equal(rdc_policy_choose_codeobj(rdc_tables_builtin(), &dev, b, n,
						   RDC_POLICY_SYMBOLS, &c, NULL), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_true(c.by_name);
	assert_non_null(c.co);
	assert_int_equal(c.co->n_kernels, 3);
	assert_int_equal(c.co->n_notes, 2);
	struct rdc_patch p[8];
	size_t k = 8;
	assert_int_equal(rdc_codeobj_retarget_patches_from(c.co, &dev, p, &k, NULL), 0);
	assert_int_equal(k, 3);
	rdc_choice_free(&c);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_note_read),
		cmocka_unit_test(test_retarget_every_note),
		cmocka_unit_test(test_disagreeing_notes_refused),
		cmocka_unit_test(test_policy_checks_every_note),
		cmocka_unit_test(test_same_limits_by_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
