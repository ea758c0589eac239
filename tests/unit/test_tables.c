/* SPDX-License-Identifier: MIT */
/*
 * test_tables.c — the reviewed tables and their parser (shim/core/tables*.c,
 * tools/tablegen): invariants of the built-in tables (every processor the
 * project needs is there, mach values unique and equal to what clang-15
 * writes into real code objects, generic membership consistent, compat
 * edges between known processors of one family with vgpr-fit exactly where
 * the code's register file is larger, every card's target known), the card
 * lookups, the RDNACOMPAT_TABLES override (rows merge by key, bad rows are
 * refused with file:line), and tablegen sharing the same parser
 * (regenerates the built-in C byte for byte; fails a bad row with
 * file:line).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdnacompat/tables.h"
#include "rdnacompat/tables_parse.h"
#include "rdnacompat/target.h"

static const struct rdc_tables *B(void)
{
	return rdc_tables_builtin();
}

static const char *cond_of(const struct rdc_tables *t, const char *dev, const char *code)
{
	for (size_t i = 0; i < t->n_edges; i++)
		if (!strcmp(t->edges[i].device, dev) && !strcmp(t->edges[i].code, code))
			return t->edges[i].condition;
	return NULL;
}

static bool has_token(const char *cond, const char *tok)
{
	if (!cond)
		return false;
	size_t l = strlen(tok);
	for (const char *p = cond; (p = strstr(p, tok)); p += l)
		if ((p == cond || p[-1] == '+') && (p[l] == '\0' || p[l] == '+'))
			return true;
	return false;
}

/* ---- built-in table invariants -------------------------------------------- */

static void test_isa_complete(void **state)
{
	(void)state;
	const char *need[] = {
		"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c", "gfx940",
		"gfx941", "gfx942", "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031",
		"gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036", "gfx1100", "gfx1101", "gfx1102",
		"gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153", "gfx1200", "gfx1201",
		"gfx9-generic", "gfx9-4-generic", "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic",
		"gfx12-generic",
	};
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
		const struct rdc_isa *r = rdc_isa_find(B(), need[i]);
		if (!r)
			fail_msg("%s missing from isa.tsv", need[i]);
		assert_non_null(r->source);
		assert_true(r->source[0] != '\0');
	}
	assert_null(rdc_isa_find(B(), "gfx1037"));
	assert_null(rdc_isa_find(B(), NULL));
	assert_null(rdc_isa_find(NULL, "gfx1030"));
}

static void test_isa_invariants(void **state)
{
	(void)state;
	const struct rdc_tables *t = B();
	for (size_t i = 0; i < t->n_isa; i++) {
		const struct rdc_isa *r = &t->isa[i];
		for (size_t j = i + 1; j < t->n_isa; j++) {
			assert_int_not_equal(r->mach, t->isa[j].mach);
			assert_string_not_equal(r->name, t->isa[j].name);
		}
		assert_int_equal(r->generic, strstr(r->name, "-generic") != NULL);
		if (r->generic) {
			assert_null(r->generic_target);
			assert_true(r->min_generic_version >= 1);
			size_t members = 0;
			for (size_t j = 0; j < t->n_isa; j++)
				members += t->isa[j].generic_target && !strcmp(t->isa[j].generic_target, r->name);
			assert_true(members >= 2);
		} else if (r->generic_target) {
			const struct rdc_isa *g = rdc_isa_find(t, r->generic_target);
			assert_non_null(g);
			assert_true(g->generic);
			/* a generic never promises more registers than its members have */
			assert_true(g->vgprs_per_simd_w64 <= r->vgprs_per_simd_w64);
			assert_int_equal(g->default_wave, r->default_wave);
		}
		/* gfx10+ default to wave32 and have a wave32 register file; gfx9 is wave64 only */
		unsigned ma = 0, mi, st;
		if (!r->generic) {
			assert_int_equal(rdc_proc_to_version(r->name, &ma, &mi, &st), 0);
			assert_int_equal(r->default_wave, ma >= 10 ? 32 : 64);
			assert_int_equal(r->vgprs_per_simd_w32 != 0, ma >= 10);
		}
		if (r->vgprs_per_simd_w32) {
			/* wave64 halves the per-lane file and the granule (getTotalNumVGPRs/AllocGranule) */
			assert_int_equal(r->vgprs_per_simd_w32, 2 * r->vgprs_per_simd_w64);
			assert_int_equal(r->vgpr_granule_w32, 2 * r->vgpr_granule_w64);
			/* 1.5x file <=> granule 24 */
			assert_int_equal(r->vgprs_per_simd_w32 == 1536, r->vgpr_granule_w32 == 24);
		}
		assert_int_equal(r->lds_per_workgroup, 65536);
	}
	/* the members AMDGPUUsage lists for the generics the shim relies on */
	const char *g103[] = { "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036" };
	for (size_t i = 0; i < 7; i++)
		assert_string_equal(rdc_isa_find(t, g103[i])->generic_target, "gfx10-3-generic");
	const char *g11[] = { "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153" };
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(rdc_isa_find(t, g11[i])->generic_target, "gfx11-generic");
	assert_null(rdc_isa_find(t, "gfx908")->generic_target);
	assert_null(rdc_isa_find(t, "gfx90a")->generic_target);
	/* the 1.5x register file: exactly gfx1100, gfx1101, gfx1151, gfx1200, gfx1201, gfx12-generic */
	size_t big = 0;
	for (size_t i = 0; i < t->n_isa; i++)
		big += t->isa[i].vgprs_per_simd_w32 == 1536;
	assert_int_equal(big, 6);
	assert_int_equal(rdc_isa_find(t, "gfx1101")->vgprs_per_simd_w32, 1536);
	assert_int_equal(rdc_isa_find(t, "gfx1152")->vgprs_per_simd_w32, 1024);
	assert_int_equal(rdc_isa_find(t, "gfx11-generic")->vgprs_per_simd_w32, 1024);
}

/* The mach byte clang-15 writes into real code objects equals isa.tsv's. */
static void test_isa_mach_vs_clang(void **state)
{
	(void)state;
	const char *dir = getenv("RDC_FIXTURES");
	const char *t[] = { "gfx1030", "gfx1031", "gfx1032", "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx906" };
	size_t checked = 0;
	elf_version(EV_CURRENT);
	for (size_t i = 0; dir && i < sizeof t / sizeof t[0]; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/co/%s.co", dir, t[i]);
		int fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		Elf *e = elf_begin(fd, ELF_C_READ, NULL);
		GElf_Ehdr eh;
		assert_non_null(e);
		assert_non_null(gelf_getehdr(e, &eh));
		assert_int_equal(eh.e_flags & 0xff, rdc_isa_find(B(), t[i])->mach);
		elf_end(e);
		close(fd);
		checked++;
	}
	if (!checked) {
		print_message("skipped: no code object fixture for any target of the table (make fixtures)\n");
		skip();
	}
}

static void test_compat_invariants(void **state)
{
	(void)state;
	const struct rdc_tables *t = B();
	assert_true(t->n_edges > 40);
	for (size_t i = 0; i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		const struct rdc_isa *dv = rdc_isa_find(t, e->device), *cd = rdc_isa_find(t, e->code);
		if (!dv || !cd)
			fail_msg("edge %s <- %s names an unknown processor", e->device, e->code);
		assert_false(dv->generic);
		assert_string_not_equal(e->device, e->code);
		assert_non_null(e->source);
		assert_true(e->rank >= 1);
		for (size_t j = i + 1; j < t->n_edges; j++)
			if (!strcmp(t->edges[j].device, e->device))
				assert_int_not_equal(t->edges[j].rank, e->rank);
		/* same family: same major version, and for gfx10 the same minor (10.1 vs 10.3) */
		if (cd->generic) {
			assert_string_equal(dv->generic_target, cd->name);
		} else {
			unsigned a, b, c, x, y, z;
			assert_int_equal(rdc_proc_to_version(dv->name, &a, &b, &c), 0);
			assert_int_equal(rdc_proc_to_version(cd->name, &x, &y, &z), 0);
			assert_int_equal(a, x);
			if (a == 10)
				assert_int_equal(b, y);
		}
		/* vgpr-fit exactly where the code's register file is larger than the device's */
		bool larger = cd->vgprs_per_simd_w32 > dv->vgprs_per_simd_w32 ||
			      cd->vgprs_per_simd_w64 > dv->vgprs_per_simd_w64;
		if (larger != has_token(e->condition, "vgpr-fit"))
			fail_msg("%s <- %s: condition '%s' but code file %u vs device %u", e->device, e->code,
				 e->condition, cd->vgprs_per_simd_w32, dv->vgprs_per_simd_w32);
	}
	/* the edges the project exists for */
	const char *rdna2[] = { "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036" };
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(cond_of(t, rdna2[i], "gfx1030"), "none");
		assert_string_equal(cond_of(t, rdna2[i], "gfx10-3-generic"), "none");
		/* never RDNA3 code on RDNA2 */
		for (size_t j = 0; j < t->n_edges; j++)
			if (!strcmp(t->edges[j].device, rdna2[i]))
				assert_true(strncmp(t->edges[j].code, "gfx11", 5) != 0);
	}
	assert_string_equal(cond_of(t, "gfx1101", "gfx1100"), "none");
	/* gfx11-generic objects carry MADIntraFwdBug only from llvm-project #89936 on */
	assert_string_equal(cond_of(t, "gfx1101", "gfx11-generic"), "mad-intra-fwd");
	/* PointSampleAccel: gfx11-generic and gfx1153 code lack the waits gfx1150/1151/1152 need;
	 * gfx1150/1152 code on gfx1153 only carries extra ones (features.tsv) */
	const char *ps[] = { "gfx1150", "gfx1151", "gfx1152" };
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(cond_of(t, ps[i], "gfx11-generic"), "point-sample");
		assert_string_equal(cond_of(t, ps[i], "gfx1153"), "point-sample");
	}
	assert_string_equal(cond_of(t, "gfx1153", "gfx1150"), "none");
	assert_string_equal(cond_of(t, "gfx1153", "gfx1152"), "none");
	assert_string_equal(cond_of(t, "gfx1153", "gfx11-generic"), "none");
	assert_true(has_token(cond_of(t, "gfx1102", "gfx1100"), "vgpr-fit"));
	assert_true(has_token(cond_of(t, "gfx1102", "gfx1101"), "vgpr-fit"));
	assert_true(has_token(cond_of(t, "gfx1103", "gfx1100"), "vgpr-fit"));
	assert_true(has_token(cond_of(t, "gfx1103", "gfx1101"), "vgpr-fit"));
	assert_string_equal(cond_of(t, "gfx1103", "gfx1102"), "none");
	assert_null(cond_of(t, "gfx1100", "gfx1030"));
	assert_null(cond_of(t, "gfx1030", "gfx1100"));

	const struct rdc_compat_edge *out[16];
	size_t n = rdc_compat_edges_for(t, "gfx1103", out, 16);
	assert_true(n >= 3);
	for (size_t i = 1; i < n; i++)
		assert_true(out[i - 1]->rank < out[i]->rank);
	assert_string_equal(out[0]->code, "gfx1102");
	assert_int_equal(rdc_compat_edges_for(t, "gfx1030", out, 0), 0);
	assert_int_equal(rdc_compat_edges_for(t, "nope", out, 16), 0);
}

static void test_cards(void **state)
{
	(void)state;
	const struct rdc_tables *t = B();
	assert_true(t->n_cards >= 80);
	for (size_t i = 0; i < t->n_cards; i++) {
		const struct rdc_card *c = &t->cards[i];
		const struct rdc_isa *x = rdc_isa_find(t, c->target);
		if (!x || x->generic)
			fail_msg("card %04x %s: target %s not a processor in isa", c->device, c->name, c->target);
		assert_int_equal(c->vendor, 0x1002);
		assert_true(c->status >= RDC_STATUS_OFFICIAL && c->status <= RDC_STATUS_UNSUPPORTED);
		assert_non_null(c->source);
		for (size_t j = i + 1; j < t->n_cards; j++)
			assert_false(t->cards[j].device == c->device && t->cards[j].revision == c->revision);
	}
	struct {
		uint16_t dev;
		int rev;
		const char *name, *target;
	} want[] = {
		{ 0x73DF, 0xC1, "RX 6700 XT", "gfx1031" }, { 0x73DF, 0xC0, "RX 6750 XT", "gfx1031" },
		{ 0x73FF, 0xC7, "RX 6600", "gfx1032" },    { 0x744C, 0xC8, "RX 7900 XTX", "gfx1100" },
		{ 0x747E, 0xC8, "RX 7800 XT", "gfx1101" }, { 0x747E, 0xFF, "RX 7700 XT", "gfx1101" },
		{ 0x7480, 0xCF, "RX 7600", "gfx1102" },    { 0x15BF, 0xC1, "780M", "gfx1103" },
		{ 0x15BF, -1, "780M", "gfx1103" },         { 0x73DF, 0x01, "6700", "gfx1031" },
		{ 0x7550, 0xC0, "RX 9070 XT", "gfx1201" }, { 0x740F, 0x02, "MI210", "gfx90a" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct rdc_card *c = rdc_card_find_pci(t, 0x1002, want[i].dev, want[i].rev);
		if (!c)
			fail_msg("no card for %04x rev %d", want[i].dev, want[i].rev);
		if (!strstr(c->name, want[i].name))
			fail_msg("%04x rev %d: '%s' lacks '%s'", want[i].dev, want[i].rev, c->name, want[i].name);
		assert_string_equal(c->target, want[i].target);
	}
	/* an unknown revision falls back to the '*' row; unknown ids find nothing */
	const struct rdc_card *any = rdc_card_find_pci(t, 0x1002, 0x73DF, 0x42);
	assert_non_null(any);
	assert_int_equal(any->revision, -1);
	assert_null(rdc_card_find_pci(t, 0x1002, 0x0001, -1));
	assert_null(rdc_card_find_pci(t, 0x10DE, 0x73DF, 0xC1));
	assert_null(rdc_card_find_pci(NULL, 0x1002, 0x73DF, 0xC1));

	assert_int_equal(rdc_card_find_pci(t, 0x1002, 0x744C, 0xC8)->status, RDC_STATUS_OFFICIAL);
	assert_int_equal(rdc_card_find_pci(t, 0x1002, 0x73DF, 0xC1)->status, RDC_STATUS_UNSUPPORTED);
	assert_int_equal(rdc_card_find_pci(t, 0x1002, 0x747E, 0xDB)->status, RDC_STATUS_UNOFFICIAL);

	const struct rdc_card *res[64];
	size_t n = rdc_card_search(t, "rx 6700 XT", res, 64);
	assert_true(n >= 2);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(res[i]->target, "gfx1031");
	n = rdc_card_search(t, "GFX1103", res, 64);
	assert_true(n >= 4);
	assert_int_equal(rdc_card_search(t, "gfx", res, 3), 3);
	assert_int_equal(rdc_card_search(t, "no such card", res, 64), 0);

	assert_string_equal(rdc_card_status_name(RDC_STATUS_OFFICIAL), "official");
	assert_string_equal(rdc_card_status_name(RDC_STATUS_UNOFFICIAL), "unofficial");
	assert_string_equal(rdc_card_status_name(RDC_STATUS_UNSUPPORTED), "unsupported");
	assert_string_equal(rdc_card_status_name(12345), "unknown");
}

/* The TSV files re-parse to exactly the built-in rows. */
static void test_tsv_matches_builtin(void **state)
{
	(void)state;
	const char *src = getenv("RDC_SRCDIR");
	if (!src) {
		print_message("skipped: RDC_SRCDIR not set (run through tests/run-unit.sh)\n");
		skip();
	}
	struct rdc_tables_build b;
	rdc_tables_build_init(&b);
	struct rdc_diag d;
	for (int k = 0; k < RDC_TAB_N; k++) {
		if (!rdc_table_has_file((enum rdc_table_kind)k))
			continue; /* [badkernels]: override files only */
		char path[4096], *text;
		size_t len;
		snprintf(path, sizeof path, "%s/tables/%s.tsv", src, rdc_table_kind_name(k));
		assert_int_equal(rdc_tables_read_file(path, &text, &len, &d), 0);
		if (rdc_tables_parse_tsv(&b, (enum rdc_table_kind)k, text, len, path, &d))
			fail_msg("%s", d.msg);
		free(text);
	}
	assert_int_equal(rdc_tables_validate(&b, &d), 0);
	assert_int_equal(b.t.n_isa, B()->n_isa);
	assert_int_equal(b.t.n_edges, B()->n_edges);
	assert_int_equal(b.t.n_cards, B()->n_cards);
	assert_int_equal(b.t.n_bad, B()->n_bad);
	assert_int_equal(b.t.n_rules, B()->n_rules);
	for (size_t i = 0; i < b.t.n_isa; i++) {
		assert_string_equal(b.t.isa[i].name, B()->isa[i].name);
		assert_int_equal(b.t.isa[i].mach, B()->isa[i].mach);
		assert_int_equal(b.t.isa[i].vgprs_per_simd_w32, B()->isa[i].vgprs_per_simd_w32);
	}
	rdc_tables_build_free(&b);
}

/* A huge override file is refused early (row cap), not parsed for minutes. */
static void test_row_cap(void **state)
{
	(void)state;
	size_t rows = 9000, cap = 64 + rows * 64;
	char *text = malloc(cap);
	size_t n = (size_t)snprintf(text, cap, "[compat]\n");
	for (size_t i = 0; i < rows; i++)
		n += (size_t)snprintf(text + n, cap - n, "gfx1031\tgfx1030\t%zu\tnone\ts%zu\n", i % 99 + 1, i);
	struct rdc_tables_build b;
	rdc_tables_build_init(&b);
	struct rdc_diag d;
	int rc = rdc_tables_parse_sections(&b, text, n, "big", &d);
	/* duplicates (same device+code) are caught first; distinct keys hit the cap */
	assert_int_equal(rc, RDC_E_FORMAT);
	assert_non_null(strstr(d.msg, "big:3: duplicate"));
	rdc_tables_build_free(&b);
	n = (size_t)snprintf(text, cap, "[cards]\n");
	for (size_t i = 0; i < rows; i++)
		n += (size_t)snprintf(text + n, cap - n, "0x1002\t0x%04zx\t*\tX\tgfx1031\tofficial\tdesktop\ts\n", i);
	rdc_tables_build_init(&b);
	rc = rdc_tables_parse_sections(&b, text, n, "big", &d);
	assert_int_equal(rc, RDC_E_RANGE);
	assert_non_null(strstr(d.msg, "big:8194: more than 8192 cards rows"));
	rdc_tables_build_free(&b);
	free(text);
}

/* ---- the override file ----------------------------------------------------- */

static char *write_tmp(const char *text)
{
	char *p = strdup("/tmp/rdc-tables-XXXXXX");
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	return p;
}

static void test_override_merges(void **state)
{
	(void)state;
	char *p = write_tmp(
		"# my overrides\n"
		"\n"
		"[cards]\n"
		"vendor\tdevice\trevision\tname\ttarget\tstatus\tkind\tsource\n"
		"0x1002\t0x9999\t*\tTest Card\tgfx1031\tunofficial\tdesktop\tlocal test\n"
		"0x1002\t0x73DF\t0xC1\tMy 6700 XT\tgfx1031\tofficial\tdesktop\tlocal test\n"
		"[compat]\n"
		"gfx1031\tgfx1032\t9\tnone\tlocal: same ISA\n"
		"[isa]\n"
		"gfx1031\trdna2\t0x037\tno\tgfx10-3-generic\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\toverridden\n"
		"[badkernels]\n"
		"gfx1031\t*\tbroken_*\trefuse\tmiscompiles\tlocal test\n"
		"gfx1103\tgfx1100\tfoo\tfallback:foo_slow\tneeds more VGPRs\tlocal test\n");
	struct rdc_tables *t = NULL;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	if (rdc_tables_load(p, &t, &d))
		fail_msg("%s", d.msg);
	assert_non_null(t);
	assert_int_equal(t->n_cards, B()->n_cards + 1);
	assert_int_equal(t->n_edges, B()->n_edges + 1);
	assert_int_equal(t->n_isa, B()->n_isa);
	assert_int_equal(t->n_bad, B()->n_bad + 2);
	assert_string_equal(rdc_card_find_pci(t, 0x1002, 0x9999, 3)->name, "Test Card");
	const struct rdc_card *c = rdc_card_find_pci(t, 0x1002, 0x73DF, 0xC1);
	assert_string_equal(c->name, "My 6700 XT");
	assert_int_equal(c->status, RDC_STATUS_OFFICIAL);
	assert_string_equal(rdc_isa_find(t, "gfx1031")->source, "overridden");
	assert_string_equal(cond_of(t, "gfx1031", "gfx1032"), "none");
	/* the built-in tables are untouched */
	assert_string_not_equal(rdc_card_find_pci(B(), 0x1002, 0x73DF, 0xC1)->name, "My 6700 XT");
	assert_null(rdc_card_find_pci(B(), 0x1002, 0x9999, 3));
	rdc_tables_free(t);
	rdc_tables_free(NULL);
	rdc_tables_free((struct rdc_tables *)B()); /* not owned: no-op */
	unlink(p);
	free(p);
}

static void expect_bad(const char *text, unsigned line, const char *needle)
{
	char *p = write_tmp(text);
	struct rdc_tables *t = (struct rdc_tables *)1;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_tables_load(p, &t, &d);
	if (rc == 0)
		fail_msg("accepted:\n%s", text);
	assert_null(t);
	char want[4200];
	snprintf(want, sizeof want, "%s:%u: ", p, line);
	if (strncmp(d.msg, want, strlen(want)) != 0 || !strstr(d.msg, needle))
		fail_msg("got '%s', want prefix '%s' and '%s'", d.msg, want, needle);
	assert_int_equal(d.line, line);
	unlink(p);
	free(p);
}

static void test_override_bad_rows(void **state)
{
	(void)state;
	expect_bad("[gpus]\n", 1, "unknown section");
	expect_bad("0x1002\t0x9999\t*\tX\tgfx1031\tofficial\tdesktop\tsrc\n", 1, "before any [section]");
	expect_bad("# c\n[cards]\n0x1002\t0x9999\t*\tX\tgfx1031\tofficial\tdesktop\n", 3, "fields");
	expect_bad("[cards]\n0x1002\t0x9999\t*\tX\tgfx1031\tmaybe\tdesktop\tsrc\n", 2, "status");
	expect_bad("[cards]\n0x1002\t0x9999\t0x1FF\tX\tgfx1031\tofficial\tdesktop\tsrc\n", 2, "revision");
	expect_bad("[cards]\n0x1002\t0x99\t*\tX\tgfx1031\tofficial\tdesktop\tsrc\n", 2, "device");
	expect_bad("[cards]\n0x1002\t0x9999\t*\tX\tgfx10-3-generic\tofficial\tdesktop\tsrc\n", 2, "generic");
	expect_bad("[cards]\n0x1002\t0x9999\t*\tX\tgfx1031\tofficial\tlaptop\tsrc\n", 2, "kind");
	expect_bad("[cards]\n0x1002\t0x9999\t*\tX\tgfx1031\tofficial\tdesktop\t-\n", 2, "source");
	expect_bad("[cards]\n0x1002\t0x9999\t*\tX\tgfx1031\tofficial\tdesktop\ts\n"
		   "0x1002\t0x9999\t*\tY\tgfx1031\tofficial\tdesktop\ts\n", 3, "duplicate");
	expect_bad("[cards]\n0x1002\t0x9999\t*\tX\tgfx1039\tofficial\tdesktop\tsrc\n", 2, "not a processor in isa");
	expect_bad("[compat]\ngfx1031\tgfx1100\t5\tnone\tsrc\n", 2, "crosses ISA families");
	expect_bad("[compat]\ngfx1100\tgfx1030\t5\tnone\tsrc\n", 2, "crosses ISA families");
	expect_bad("[compat]\ngfx1031\tgfx1031\t5\tnone\tsrc\n", 2, "itself");
	expect_bad("[compat]\ngfx1031\tgfx1032\t0\tnone\tsrc\n", 2, "rank");
	expect_bad("[compat]\ngfx1031\tgfx1032\t1\tnone\tsrc\n", 2, "rank 1");
	expect_bad("[compat]\ngfx1031\tgfx1032\t7\tmaybe\tsrc\n", 2, "condition");
	expect_bad("[compat]\ngfx1031\tgfx1032\t7\tvgpr-fit+vgpr-fit\tsrc\n", 2, "condition");
	expect_bad("[compat]\ngfx1031\tgfx1032\t7\tnone+\tsrc\n", 2, "condition");
	expect_bad("[compat]\ngfx1039\tgfx1030\t7\tnone\tsrc\n", 2, "not in isa");
	expect_bad("[compat]\ngfx11-generic\tgfx1100\t7\tnone\tsrc\n", 2, "generic");
	expect_bad("\n\n[isa]\ngfx1031\trdna2\t0x036\tno\tgfx10-3-generic\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n",
		   4, "mach 0x036");
	/* collision with a built-in row that comes later: still blamed on the user's line */
	expect_bad("[isa]\ngfx1031\trdna2\t0x03e\tno\tgfx10-3-generic\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n",
		   2, "already used by gfx1034");
	expect_bad("[compat]\ngfx1101\tgfx1100\t2\tnone\tsrc\n", 2, "rank 2 for device gfx1101");
	expect_bad("[isa]\ngfx1031\trdna2\t37\tno\tgfx10-3-generic\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n",
		   2, "mach");
	expect_bad("[isa]\ngfx1031\trdna2\t0x037\tno\tgfx10-3-generic\t-\t48\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n",
		   2, "wave");
	expect_bad("[isa]\ngfx1031\trdna2\t0x037\tno\tgfx10-3-generic\t-\t32\tno\tno\t65536\t1024\t512\t24\t8\t16\ts\n",
		   2, "granule");
	expect_bad("[isa]\ngfx1031\trdna2\t0x037\tyes\t-\t1\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n", 2,
		   "generic");
	expect_bad("[isa]\ngfx1031\trdna2\t0x037\tno\tgfx1030\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n", 2,
		   "generic");
	expect_bad("[isa]\ngfx1039\trdna2\t0x0fe\tno\tgfx9-generic\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n", 2,
		   "default wave");
	expect_bad("[isa]\ngfx1031\tRDNA2\t0x037\tno\tgfx10-3-generic\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n",
		   2, "family");
	expect_bad("[badkernels]\ngfx1031\t*\tk\tskip\twhy\tsrc\n", 2, "action");
	expect_bad("[badkernels]\ngfx1031\t*\tk\tfallback:\twhy\tsrc\n", 2, "action");
	expect_bad("[badkernels]\ngfx1031\t*\tk\tfallback:a b\twhy\tsrc\n", 2, "action");
	expect_bad("[badkernels]\ngfx1039\t*\tk\trefuse\twhy\tsrc\n", 2, "not in isa");
	expect_bad("[badkernels]\ngfx1031\t*\t\trefuse\twhy\tsrc\n", 2, "empty");

	struct rdc_tables *t = NULL;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_tables_load("/nonexistent/rdc-tables", &t, &d), RDC_E_IO);
	assert_null(t);
	assert_non_null(strstr(d.msg, "/nonexistent/rdc-tables"));
	assert_int_equal(rdc_tables_load("/tmp", &t, &d), RDC_E_IO);
	assert_int_equal(rdc_tables_load(NULL, &t, NULL), RDC_E_INVAL);
}

/* NUL bytes, over-long lines and missing headers, through the parser directly. */
static void test_parser_nul_and_long_lines(void **state)
{
	(void)state;
	struct rdc_tables_build b;
	rdc_tables_build_init(&b);
	struct rdc_diag d;
	const char text[] = "[cards]\n0x1002\t0x9999\t*\tX\0Y\tgfx1031\tofficial\tdesktop\tsrc\n";
	assert_int_equal(rdc_tables_parse_sections(&b, text, sizeof text - 1, "mem", &d), RDC_E_FORMAT);
	assert_string_equal(d.msg, "mem:2: NUL byte in text");
	char *big = malloc(10000);
	memset(big, 'a', 9999);
	big[9999] = '\0';
	memcpy(big, "[cards]\n", 8);
	assert_int_equal(rdc_tables_parse_sections(&b, big, 9999, "mem2", &d), RDC_E_FORMAT);
	assert_non_null(strstr(d.msg, "mem2:2: line longer"));
	free(big);
	/* a TSV file must start with its header */
	const char nohdr[] = "# c\ngfx1031\tgfx1030\t1\tnone\ts\n";
	assert_int_equal(rdc_tables_parse_tsv(&b, RDC_TAB_COMPAT, nohdr, sizeof nohdr - 1, "c.tsv", &d),
			 RDC_E_FORMAT);
	assert_non_null(strstr(d.msg, "c.tsv:2: first line must be the compat header"));
	const char empty[] = "# only comments\n";
	assert_int_equal(rdc_tables_parse_tsv(&b, RDC_TAB_BAD, empty, sizeof empty - 1, "e.tsv", &d),
			 RDC_E_FORMAT);
	assert_int_equal(b.t.n_cards, 0);
	rdc_tables_build_free(&b);
}

/* Byte mutations of a valid override file: never crash, never leak (ASan);
 * an accepted file still satisfies the validator. */
static void test_override_mutations(void **state)
{
	(void)state;
	const char base[] =
		"[cards]\n0x1002\t0x9999\t*\tX\tgfx1031\tunofficial\tdesktop\tsrc\n"
		"[compat]\ngfx1031\tgfx1032\t9\tvgpr-fit+opt-in\tsrc\n"
		"[isa]\ngfx1031\trdna2\t0x037\tno\tgfx10-3-generic\t-\t32\tno\tno\t65536\t1024\t512\t16\t8\t16\ts\n"
		"[badkernels]\ngfx1031\t*\tk*\tfallback:k2\twhy\tsrc\n";
	static const char noise[] = "\t\n[]#-+:*0x19afgXYZ \r";
	unsigned seed = 777;
	size_t ok = 0;
	for (int iter = 0; iter < 3000; iter++) {
		char buf[sizeof base];
		memcpy(buf, base, sizeof base);
		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 8) % (sizeof base - 1);
			seed = seed * 1103515245u + 12345u;
			buf[at] = noise[(seed >> 16) % (sizeof noise - 1)];
		}
		struct rdc_tables_build b;
		rdc_tables_build_init(&b);
		assert_int_equal(rdc_tables_build_add(&b, B(), "<built-in>", NULL), 0);
		struct rdc_diag d;
		rdc_diag_clear(&d);
		int rc = rdc_tables_parse_sections(&b, buf, sizeof base - 1, "m", &d);
		if (!rc)
			rc = rdc_tables_validate(&b, &d);
		if (rc && strncmp(d.msg, "m:", 2) != 0)
			fail_msg("error not blamed on the override file: %s", d.msg);
		else
			ok++;
		rdc_tables_build_free(&b);
	}
	assert_true(ok > 0);
}

/* rdc_tables_build_copy (the fuzzer's per-input base): the copy holds the
 * same rows and origins, an override parsed over it gives what it gives over
 * the original, and a build holding parsed strings is refused. */
static void test_build_copy(void **state)
{
	(void)state;
	struct rdc_tables_build a, c;
	rdc_tables_build_init(&a);
	assert_int_equal(rdc_tables_build_add(&a, B(), "<built-in>", NULL), 0);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_tables_build_copy(&c, &a, &d), 0);
	assert_int_equal(c.t.n_isa, a.t.n_isa);
	assert_int_equal(c.t.n_edges, a.t.n_edges);
	assert_int_equal(c.t.n_cards, a.t.n_cards);
	assert_int_equal(c.t.n_rules, a.t.n_rules);
	assert_true(c.t.isa != a.t.isa);
	assert_memory_equal(c.t.isa, a.t.isa, a.t.n_isa * sizeof *a.t.isa);
	assert_memory_equal(c.t.cards, a.t.cards, a.t.n_cards * sizeof *a.t.cards);
	assert_memory_equal(c.origin[RDC_TAB_COMPAT], a.origin[RDC_TAB_COMPAT],
			    a.t.n_edges * sizeof *a.origin[RDC_TAB_COMPAT]);
	const char ov[] = "[compat]\ngfx1031\tgfx1032\t9\tvgpr-fit+opt-in\tsrc\n";
	assert_int_equal(rdc_tables_parse_sections(&a, ov, sizeof ov - 1, "o", &d), 0);
	assert_int_equal(rdc_tables_parse_sections(&c, ov, sizeof ov - 1, "o", &d), 0);
	assert_int_equal(c.t.n_edges, a.t.n_edges);
	assert_int_equal(rdc_tables_validate(&c, &d), 0);
	/* `a` and `c` now own parsed strings: neither can be copied */
	struct rdc_tables_build x;
	assert_int_equal(rdc_tables_build_copy(&x, &c, &d), RDC_E_UNSUPPORTED);
	assert_true(strstr(d.msg, "cannot be copied") != NULL);
	assert_int_equal(x.t.n_isa, 0);
	rdc_tables_build_free(&a);
	rdc_tables_build_free(&c);
}

/* ---- tablegen uses the same parser ------------------------------------------ */

static int run_tablegen(const char *dir, const char *out, char *err, size_t errn)
{
	const char *bld = getenv("RDC_BUILD");
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "'%s/host/tablegen' '%s' '%s' 2>&1", bld, dir, out);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t n = fread(err, 1, errn - 1, f);
	err[n] = '\0';
	int st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *path, size_t *len)
{
	char *t = NULL;
	if (rdc_tables_read_file(path, &t, len, NULL))
		return NULL;
	return t;
}

static void test_tablegen(void **state)
{
	(void)state;
	const char *src = getenv("RDC_SRCDIR"), *bld = getenv("RDC_BUILD");
	if (!src || !bld) {
		print_message("skipped: RDC_SRCDIR or RDC_BUILD not set (run through tests/run-unit.sh)\n");
		skip();
	}
	char gen[4096], out[] = "/tmp/rdc-tg-XXXXXX", err[8192];
	int fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	/* regenerates the built-in C byte for byte (Makefile runs it from the source root) */
	char cwd[4096];
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(src), 0);
	int rc = run_tablegen("tables", out, err, sizeof err);
	assert_int_equal(chdir(cwd), 0);
	if (rc)
		fail_msg("tablegen failed: %s", err);
	snprintf(gen, sizeof gen, "%s/gen/tables_data.c", bld);
	size_t a, b;
	char *x = slurp(out, &a), *y = slurp(gen, &b);
	assert_non_null(x);
	assert_non_null(y);
	assert_int_equal(a, b);
	assert_memory_equal(x, y, a);
	assert_non_null(strstr(x, "do not edit"));
	free(x);
	free(y);

	/* a bad row fails the build with file:line */
	char dir[] = "/tmp/rdc-tgdir-XXXXXX";
	assert_non_null(mkdtemp(dir));
	const char *names[] = { "isa", "compat", "cards", "kernels", "features" };
	for (int k = 0; k < 5; k++) {
		char from[4096], to[4096];
		snprintf(from, sizeof from, "%s/tables/%s.tsv", src, names[k]);
		snprintf(to, sizeof to, "%s/%s.tsv", dir, names[k]);
		size_t n;
		char *t = slurp(from, &n);
		assert_non_null(t);
		FILE *f = fopen(to, "w");
		assert_non_null(f);
		fwrite(t, 1, n, f);
		if (k == 1)
			fputs("gfx1031\tgfx1101\t9\tnone\tbogus\n", f);
		fclose(f);
		free(t);
	}
	size_t lines = 0;
	{
		char pth[4096];
		snprintf(pth, sizeof pth, "%s/compat.tsv", dir);
		size_t n;
		char *t = slurp(pth, &n);
		for (size_t i = 0; i < n; i++)
			lines += t[i] == '\n';
		free(t);
	}
	rc = run_tablegen(dir, out, err, sizeof err);
	assert_int_not_equal(rc, 0);
	char want[4200];
	snprintf(want, sizeof want, "%s/compat.tsv:%zu: ", dir, lines);
	if (!strstr(err, want) || !strstr(err, "crosses ISA families"))
		fail_msg("tablegen said '%s', want '%s'", err, want);
	for (int k = 0; k < 5; k++) {
		char to[4096];
		snprintf(to, sizeof to, "%s/%s.tsv", dir, names[k]);
		unlink(to);
	}
	rmdir(dir);
	unlink(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa_complete),
		cmocka_unit_test(test_isa_invariants),
		cmocka_unit_test(test_isa_mach_vs_clang),
		cmocka_unit_test(test_compat_invariants),
		cmocka_unit_test(test_cards),
		cmocka_unit_test(test_tsv_matches_builtin),
		cmocka_unit_test(test_row_cap),
		cmocka_unit_test(test_override_merges),
		cmocka_unit_test(test_override_bad_rows),
		cmocka_unit_test(test_parser_nul_and_long_lines),
		cmocka_unit_test(test_override_mutations),
		cmocka_unit_test(test_build_copy),
		cmocka_unit_test(test_tablegen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
