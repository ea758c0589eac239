/* SPDX-License-Identifier: MIT */
/*
 * test_tool_selftest_ref.c — the CPU references of `doctor --selftest`
 * (tools/rdnacompat/selftest_ref.c): half <-> float bit by bit (known
 * encodings, ties to even, overflow to infinity, subnormals, every one of
 * the 63488 finite halves round-tripping), and attention in double on cases
 * with a known answer (one key: V itself; equal scores: the mean of V).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "selftest.h"

static void test_known(void **state)
{
	(void)state;
	assert_true(rdc_st_h2f(0x3c00) == 1.0f);
	assert_true(rdc_st_h2f(0xc000) == -2.0f);
	assert_true(rdc_st_h2f(0x7bff) == 65504.0f);
	assert_true(rdc_st_h2f(0x0001) == 0x1p-24f);
	assert_true(rdc_st_h2f(0x0400) == 0x1p-14f);
	assert_true(isinf(rdc_st_h2f(0x7c00)) && rdc_st_h2f(0xfc00) < 0);
	assert_true(isnan(rdc_st_h2f(0x7e00)));
	assert_int_equal(rdc_st_f2h(1.0), 0x3c00);
	assert_int_equal(rdc_st_f2h(-0.0), 0x8000);
	assert_int_equal(rdc_st_f2h(65504.0), 0x7bff);
	assert_int_equal(rdc_st_f2h(65519.99), 0x7bff);  /* below the midpoint to inf */
	assert_int_equal(rdc_st_f2h(65520.0), 0x7c00);   /* ties to even: infinity */
	assert_int_equal(rdc_st_f2h(-1e6), 0xfc00);
	assert_int_equal(rdc_st_f2h(0x1p-25), 0x0000);   /* tie between 0 and 2^-24: even (0) */
	assert_int_equal(rdc_st_f2h(0x1.8p-24), 0x0002); /* tie between 1 and 2 units: even (2) */
	assert_int_equal(rdc_st_f2h(0x1.ffcp-15), 0x0400); /* the largest subnormal + half a unit: rounds up to the smallest normal */
	/* 1 + 2^-11 is the tie between 1 and 1 + 2^-10: even (1) */
	assert_int_equal(rdc_st_f2h(1.0 + 0x1p-11), 0x3c00);
	assert_int_equal(rdc_st_f2h(1.0 + 0x1p-10 + 0x1p-11), 0x3c02);
	assert_int_equal(rdc_st_f2h(2047.5), 0x67ff + 1); /* 2047.5 -> 2048 (tie, even) */
}

static void test_roundtrip(void **state)
{
	(void)state;
	unsigned n = 0;
	for (uint32_t h = 0; h < 0x10000; h++) {
		if ((h & 0x7c00) == 0x7c00)
			continue; /* inf, NaN */
		assert_int_equal(rdc_st_f2h(rdc_st_h2f((uint16_t)h)), h);
		n++;
	}
	assert_int_equal(n, 63488);
}

static void test_attn(void **state)
{
	(void)state;
	/* one key: the output is V's row */
	float q[4] = { 0.5f, -1, 2, 0.25f };
	uint16_t k[4], v[4];
	for (int i = 0; i < 4; i++) {
		k[i] = rdc_st_f2h(0.125 * (i + 1));
		v[i] = rdc_st_f2h(i - 1.5);
	}
	double out[4];
	rdc_st_attn_ref(q, k, v, 1, 1, 1, 4, 4, 0.5, out);
	for (int i = 0; i < 4; i++)
		assert_true(out[i] == i - 1.5);
	/* three keys with equal scores (K rows equal): the mean of V's rows */
	uint16_t k3[12], v3[6];
	for (int i = 0; i < 12; i++)
		k3[i] = k[i % 4];
	for (int i = 0; i < 6; i++)
		v3[i] = rdc_st_f2h(i);
	double o2[2];
	rdc_st_attn_ref(q, k3, v3, 1, 1, 3, 4, 2, 0.5, o2);
	assert_true(fabs(o2[0] - 2.0) < 1e-12 && fabs(o2[1] - 3.0) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_attn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
