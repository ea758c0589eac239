/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tables.c — libFuzzer target for the tables parser as a user's
 * RDNACOMPAT_TABLES / --table file reaches it (shim/core/tables_parse.c):
 * the built-in tables, then the override sections parsed over them, then
 * the cross-row checks.  Beyond "no crash": a file that is accepted keeps
 * every row count within what was parsed, and a parse error always says
 * why.  Built and run by `make fuzz-smoke` (tests/fuzz/smoke-all.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/tables_parse.h"

/* The compiled-in rows, added once: re-adding them for every input (a
 * quadratic key check over ~500 rows) was most of each execution. */
static struct rdc_tables_build base;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	struct rdc_diag d = { 0 };
	rdc_tables_build_init(&base);
	if (rdc_tables_build_add(&base, rdc_tables_builtin(), "built-in", &d) != 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdc_tables_build b;
	struct rdc_diag d;
	memset(&d, 0, sizeof d);
	const struct rdc_tables *bi = rdc_tables_builtin();
	if (rdc_tables_build_copy(&b, &base, &d) != 0)
		abort();
	int rc = rdc_tables_parse_sections(&b, (const char *)data, size, "fuzz.tsv", &d);
	if (rc == 0)
		rc = rdc_tables_validate(&b, &d);
	if (rc != 0 && d.msg[0] == 0)
		abort();   /* refused without a reason */
	if (rc == 0 && (b.t.n_isa < bi->n_isa || b.t.n_edges > bi->n_edges + size))
		abort();
	rdc_tables_build_free(&b);
	return 0;
}
