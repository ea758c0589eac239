/* SPDX-License-Identifier: MIT */
/*
 * test_rtcnames.c — tables/rtc-names.tsv (rdnacompat/rtcnames.h): the
 * shipped table parses and names MIOpen with the targets its CK config
 * knows (gfx1030, gfx1102; not gfx1032, gfx1103); a library is matched by
 * base name up to ".so"; bad rows are refused with their line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdnacompat/rtcnames.h"

static struct rdc_rtcnames t;

static int parse(const char *s, struct rdc_diag *d)
{
	return rdc_rtcnames_parse(s, strlen(s), &t, d);
}

static void test_shipped_table(void **state)
{
	(void)state;
	const char *src = getenv("RDC_SRCDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/tables/rtc-names.tsv", src ? src : ".");
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[65536];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_rtcnames_parse(buf, n, &t, &d), 0);
	const struct rdc_rtcname *r = rdc_rtcnames_find(&t, "/usr/lib/x86_64-linux-gnu/libMIOpen.so.1");
	assert_non_null(r);
	assert_true(rdc_rtcname_knows(r, "gfx1030"));
	assert_true(rdc_rtcname_knows(r, "gfx1031"));
	assert_true(rdc_rtcname_knows(r, "gfx1102"));
	assert_false(rdc_rtcname_knows(r, "gfx1032"));
	assert_false(rdc_rtcname_knows(r, "gfx1103"));
	assert_null(rdc_rtcnames_find(&t, "/usr/lib/x86_64-linux-gnu/librocblas.so.5"));
}

static void test_match(void **state)
{
	(void)state;
	struct rdc_diag d = { 0 };
	assert_int_equal(parse("# c\nlib\tknows\tsource\nlibX.so\tgfx1030,gfx90a\ts\n", &d), 0);
	assert_int_equal(t.n, 1);
	assert_non_null(rdc_rtcnames_find(&t, "libX.so"));
	assert_non_null(rdc_rtcnames_find(&t, "/a/b/libX.so.7.2"));
	assert_null(rdc_rtcnames_find(&t, "/a/libX.sox"));
	assert_null(rdc_rtcnames_find(&t, "/a/libXY.so"));
	assert_true(rdc_rtcname_knows(&t.rows[0], "gfx90a"));
	assert_false(rdc_rtcname_knows(&t.rows[0], "gfx90"));
}

static void test_bad(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"",                                                  /* no header */
		"lib\tknow\tsource\n",                               /* wrong header */
		"lib\tknows\tsource\nlibX.so\tgfx1030\n",            /* two fields */
		"lib\tknows\tsource\nlibX.so\tgfx10 30\ts\n",        /* bad name */
		"lib\tknows\tsource\nlibX.so\tgfx1030,\ts\n",        /* empty name */
		"lib\tknows\tsource\nlibX.so\t\ts\n",                /* empty field */
		"lib\tknows\tsource\na/libX.so\tgfx1030\ts\n",       /* a path */
		"lib\tknows\tsource\nlibX.so\tgfx1030\ts\nlibX.so\tgfx1100\ts\n", /* twice */
		"lib\tknows\tsource\nlibX.so\tgfx1030\ts\tx\n",      /* four fields */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rdc_diag d = { 0 };
		assert_true(parse(bad[i], &d) < 0);
		assert_int_equal(t.n, 0);
		assert_true(d.msg[0] != 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_table),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
