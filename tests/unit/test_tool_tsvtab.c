/* SPDX-License-Identifier: MIT */
/*
 * test_tool_tsvtab.c — tools/rdnacompat/tsvtab.c on files written here and
 * on the shipped tables/builds.tsv and tables/platform.tsv: the header must
 * name the columns, every row has them all, no field is empty, sources are
 * URLs; a bad file is refused with "path:line".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tsvtab.h"

static const char *const cols[] = { "target", "what", "sources", NULL };

static int load_text(const char *text, struct rdc_tsvtab *t, struct rdc_diag *d)
{
	char path[] = "/tmp/test_tsvtab_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	int rc = rdc_tsvtab_load(path, cols, t, d);
	unlink(path);
	return rc;
}

static void good(void **state)
{
	(void)state;
	struct rdc_tsvtab t;
	struct rdc_diag d = { 0 };
	assert_int_equal(load_text("# c\ntarget\twhat\tsources\n\ngfx1031\tx\thttps://a/b http://c\n"
				   "gfx1152\ty\thttps://d\n", &t, &d), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(rdc_tsv_cell(&t, 1, 0), "gfx1152");
	assert_string_equal(rdc_tsv_cell(&t, 0, 2), "https://a/b http://c");
	assert_int_equal(t.lines[1], 5);
	rdc_tsvtab_free(&t);
}

static void refused(void **state)
{
	(void)state;
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "target\twhat\n", "2 columns" },
		{ "target\twho\tsources\n", "header column 2" },
		{ "target\twhat\tsources\ngfx1031\t\thttps://a\n", "column 2 (what) is empty" },
		{ "target\twhat\tsources\ngfx1031\tx\tnot-a-url\n", "source 'not-a-url'" },
		{ "target\twhat\tsources\ngfx1031\tx\n", ":2: 2 columns" },
		{ "# only a comment\n", "no header" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rdc_tsvtab t;
		struct rdc_diag d = { 0 };
		assert_int_equal(load_text(bad[i].text, &t, &d), RDC_E_FORMAT);
		if (!strstr(d.msg, bad[i].why))
			fail_msg("'%s': message '%s' lacks '%s'", bad[i].text, d.msg, bad[i].why);
		assert_int_equal(t.n, 0);
	}
}

/* The shipped tables load with the columns doctor_build.c / doctor_platform.c ask for. */
static void shipped(void **state)
{
	(void)state;
	const char *src = getenv("RDC_SRCDIR");
	if (!src) {
		print_message("skipped: RDC_SRCDIR not set (run through tests/run-unit.sh)\n");
		skip();
	}
	static const char *const bcols[] = { "target", "legacy_index", "leaves_out", "sources", NULL };
	static const char *const pcols[] = { "id", "targets", "kernel", "condition", "finding", "fix", "sources", NULL };
	char p[4096];
	struct rdc_tsvtab t;
	struct rdc_diag d = { 0 };
	snprintf(p, sizeof p, "%s/tables/builds.tsv", src);
	if (rdc_tsvtab_load(p, bcols, &t, &d) != 0)
		fail_msg("%s", d.msg);
	bool g1031 = false;
	for (size_t i = 0; i < t.n; i++)
		if (!strcmp(rdc_tsv_cell(&t, i, 0), "gfx1031"))
			g1031 = strstr(rdc_tsv_cell(&t, i, 2), "hipBLASLt") != NULL;
	assert_true(g1031);
	rdc_tsvtab_free(&t);
	snprintf(p, sizeof p, "%s/tables/platform.tsv", src);
	if (rdc_tsvtab_load(p, pcols, &t, &d) != 0)
		fail_msg("%s", d.msg);
	assert_true(t.n >= 1);
	rdc_tsvtab_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good),
		cmocka_unit_test(refused),
		cmocka_unit_test(shipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
