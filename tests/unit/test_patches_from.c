/* SPDX-License-Identifier: MIT */
/*
 * test_patches_from.c — rdc_codeobj_retarget_patches_from (patches from an
 * already parsed code object, what the shim uses) gives exactly the patches
 * and errors of rdc_codeobj_retarget_patches on the raw bytes, for every
 * clang-built fixture code object and a set of targets (same length, other
 * length, same target, generic); and the parse records where amdhsa.target
 * sits.  Also: the RDC_CO_NO_ARGS parse mode yields the same kernels as the
 * full parse, without .args.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/target.h"
#include "fixture.h"

static const char *const objs[] = {
	"co/gfx1030.co", "co/gfx1031.co", "co/gfx1032.co", "co/gfx1100.co", "co/gfx1101.co",
	"co/gfx1102.co", "co/gfx1103.co", "co/gfx906.co", "co/gfx90a_xnackoff.co",
	"co/gfx90a_xnackon.co",
};
static const char *const targets[] = {
	"gfx1030", "gfx1031", "gfx1036", "gfx1101", "gfx1100", "gfx906", "gfx90a:xnack-",
	"gfx90a:xnack+", "gfx940", "gfx10-3-generic", "gfx11-generic",
};

static void test_same_as_raw(void **state)
{
	(void)state;
	size_t tried = 0, patched = 0;
	for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) {
		size_t n = 0;
		uint8_t *b = load_fixture(objs[i], &n);
		if (!b) {
			print_message("fixture %s missing, skipped\n", objs[i]);
			continue;
		}
		struct rdc_codeobj co;
		struct rdc_diag d;
		assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_METADATA, &co, &d), 0);
		/* The recorded span holds the decoded string. */
		assert_non_null(co.meta_target);
		assert_int_equal(co.meta_target_len, strlen(co.meta_target));
		assert_true(co.meta_target_offset > 0 && co.meta_target_offset + co.meta_target_len <= n);
		assert_memory_equal(b + co.meta_target_offset, co.meta_target, co.meta_target_len);
		for (size_t j = 0; j < sizeof targets / sizeof targets[0]; j++) {
			struct rdc_target to;
			assert_int_equal(rdc_target_parse(targets[j], (size_t)-1, &to, NULL), 0);
			struct rdc_patch p1[8], p2[8];
			size_t k1 = 8, k2 = 8;
			memset(p1, 0, sizeof p1);
			memset(p2, 0, sizeof p2);
			int r1 = rdc_codeobj_retarget_patches(b, n, &to, p1, &k1, &d);
			int r2 = rdc_codeobj_retarget_patches_from(&co, &to, p2, &k2, &d);
			assert_int_equal(r1, r2);
			assert_int_equal(k1, k2);
			if (r1 == 0) {
				assert_memory_equal(p1, p2, k1 * sizeof p1[0]);
				patched += k1 > 0;
			}
			/* Too little room: the count needed, the same error. */
			if (r1 == 0 && k1 > 0) {
				k1 = k2 = 1;
				assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p1, &k1, &d) != 0,
						 rdc_codeobj_retarget_patches_from(&co, &to, p2, &k2, &d) != 0);
			}
			tried++;
		}
		rdc_codeobj_free(&co);
		/* A header-only parse cannot give patches. */
		assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_HEADER_ONLY, &co, &d), 0);
		struct rdc_target to;
		assert_int_equal(rdc_target_parse("gfx1031", (size_t)-1, &to, NULL), 0);
		struct rdc_patch p[8];
		size_t k = 8;
		assert_int_equal(rdc_codeobj_retarget_patches_from(&co, &to, p, &k, &d), RDC_E_INVAL);
		rdc_codeobj_free(&co);
		free(b);
	}
	if (tried == 0) {
		print_message("skipped: no fixture code object to patch (make fixtures)\n");
		skip();
	}
	assert_true(patched > 0);
}

static void test_no_args_mode(void **state)
{
	(void)state;
	size_t n = 0;
	uint8_t *b = load_fixture("co/gfx1030.co", &n);
	if (!b) {
		print_message("skipped: fixture co/gfx1030.co missing (make fixtures)\n");
		skip();
	}
	struct rdc_codeobj full, lean;
	struct rdc_diag d;
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_DESCRIPTORS, &full, &d), 0);
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_DESCRIPTORS | RDC_CO_NO_ARGS, &lean, &d), 0);
	assert_int_equal(full.n_kernels, lean.n_kernels);
	assert_true(full.n_kernels > 0);
	size_t args = 0;
	for (size_t i = 0; i < full.n_kernels; i++) {
		const struct rdc_kernel *a = &full.kernels[i], *l = &lean.kernels[i];
		assert_string_equal(a->name, l->name);
		assert_string_equal(a->symbol, l->symbol);
		assert_int_equal(a->vgpr_count, l->vgpr_count);
		assert_int_equal(a->sgpr_count, l->sgpr_count);
		assert_int_equal(a->kernarg_size, l->kernarg_size);
		assert_int_equal(a->max_flat_workgroup_size, l->max_flat_workgroup_size);
		assert_int_equal(a->wavefront_size, l->wavefront_size);
		assert_int_equal(a->group_segment_fixed_size, l->group_segment_fixed_size);
		assert_memory_equal(&a->kd, &l->kd, sizeof a->kd);
		assert_int_equal(l->n_args, 0);
		assert_null(l->args);
		args += a->n_args;
	}
	assert_true(args > 0);
	assert_string_equal(full.meta_target, lean.meta_target);
	assert_int_equal(full.meta_target_offset, lean.meta_target_offset);
	rdc_codeobj_free(&full);
	rdc_codeobj_free(&lean);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_raw),
		cmocka_unit_test(test_no_args_mode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
