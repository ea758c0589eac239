/* SPDX-License-Identifier: MIT */
/*
 * test_tool_errtab.c — tools/rdnacompat/errtab.c on tables written here:
 * patterns match within one line of a pasted log (REG_NEWLINE), and
 * rdc_errtab_targets returns the gfx processors named on the matching lines
 * only, distinct, in order, never a family name ("gfx103X", "gfx11-generic").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errtab.h"

static void load(struct rdc_errtab *t, const char *rows)
{
	char path[] = "/tmp/test_errtab_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(rows, f);
	fclose(f);
	struct rdc_diag d = { 0 };
	assert_int_equal(rdc_errtab_load(path, t, &d), 0);
	unlink(path);
}

static void one_line_only(void **state)
{
	(void)state;
	struct rdc_errtab t;
	load(&t, "x\tMIOpen.*(error|failed)\tt\tc\tf\thttps://example.org/1\n");
	/* "MIOpen" and "error" on two different lines: not this row. */
	assert_false(rdc_errtab_match(&t.rows[0], "MIOpen(HIP): Warning [X] not found\nerror: other thing\n"));
	assert_true(rdc_errtab_match(&t.rows[0], "a\nMIOpen(HIP): Error [Compile] failed\n"));
	rdc_errtab_free(&t);
}

static void targets_of_matching_lines(void **state)
{
	(void)state;
	struct rdc_errtab t;
	load(&t, "x\tIllegal seek for GPU arch\tt\tc\tf\thttps://example.org/1\n");
	const char *log = "device gfx1030 found\n"
			  "Cannot read TensileLibrary.dat: Illegal seek for GPU arch : gfx1035\n"
			  "gfx1100 unrelated line\n"
			  "Illegal seek for GPU arch : GFX1103 (again gfx1035)\n"
			  "Illegal seek for GPU arch : gfx103X and gfx11-generic\n";
	char out[8][RDC_PROC_MAX];
	size_t n = rdc_errtab_targets(&t.rows[0], log, out, 8);
	assert_int_equal(n, 2);
	assert_string_equal(out[0], "gfx1035");
	assert_string_equal(out[1], "gfx1103");
	/* max bounds the output */
	assert_int_equal(rdc_errtab_targets(&t.rows[0], log, out, 1), 1);
	assert_string_equal(out[0], "gfx1035");
	/* no match, no targets; a matching line without a target adds none */
	assert_int_equal(rdc_errtab_targets(&t.rows[0], "gfx1031 is fine\n", out, 8), 0);
	assert_int_equal(rdc_errtab_targets(&t.rows[0], "Illegal seek for GPU arch", out, 8), 0);
	rdc_errtab_free(&t);
}

static void gfx90a_and_edges(void **state)
{
	(void)state;
	struct rdc_errtab t;
	load(&t, "x\tno code\tt\tc\tf\thttps://example.org/1\n");
	char out[8][RDC_PROC_MAX];
	/* hex digits (gfx90a), the line's end, and a name glued to a word are not targets. */
	size_t n = rdc_errtab_targets(&t.rows[0], "no code for gfx90a,xgfx1031 or gfx1152", out, 8);
	assert_int_equal(n, 2);
	assert_string_equal(out[0], "gfx90a");
	assert_string_equal(out[1], "gfx1152");
	rdc_errtab_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_line_only),
		cmocka_unit_test(targets_of_matching_lines),
		cmocka_unit_test(gfx90a_and_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
