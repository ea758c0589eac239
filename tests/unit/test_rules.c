/* SPDX-License-Identifier: MIT */
/*
 * test_rules.c — the kernel rules (tables/kernels.tsv, rdnacompat/rules.h):
 * the built-in rows, bad rows refused with file:line, matching by mangled and
 * demangled name, scope by library and by hash, targets by processor and
 * family, runtime ranges, allow over a broader rule, provisional rows; the
 * occupancy arithmetic, the .args comparison, demangling and SHA-256; what a
 * match needs computed (rdc_rules_needs, rdc_rules_any_admit) and that the
 * lazy answer equals the full one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rdnacompat/rules.h"
#include "rdnacompat/tables_parse.h"

#define FA "_ZL15flash_attn_tileILi256ELi256ELi4ELi8ELb0EEvPKcS1_S1_S1_S1_PKiPfP15HIP_vector_typeIfLj2EEffffjfiS5_IjLj3EEiiiiiiiiiiiliiliiiiil"
#define V71 70152802u
#define V70 70051831u
#define V52 50221153u

/* Built-in tables plus `text` (sections format); NULL on error (msg in d). */
static struct rdc_tables_build *with(const char *text, struct rdc_diag *d)
{
	struct rdc_tables_build *b = malloc(sizeof *b);
	rdc_tables_build_init(b);
	if (rdc_tables_build_add(b, rdc_tables_builtin(), "<built-in>", d) ||
	    (text && rdc_tables_parse_sections(b, text, strlen(text), "user.tsv", d)) ||
	    rdc_tables_validate(b, d)) {
		rdc_tables_build_free(b);
		free(b);
		return NULL;
	}
	return b;
}

static void done(struct rdc_tables_build *b)
{
	rdc_tables_build_free(b);
	free(b);
}

static int match(const struct rdc_tables *t, const char *name, const char *lib, const uint8_t *sha,
		 const char *dev, uint32_t rt, bool prov, struct rdc_rule_match *m)
{
	char dem[1024];
	struct rdc_rule_subject s = { .name = name, .lib = lib, .sha256 = sha, .device = dev,
				      .runtime = rt, .provisional = prov };
	if (rdc_demangle(name, dem, sizeof dem) == 0)
		s.demangled = dem;
	return rdc_rules_match(t, &s, m);
}

/* The code-object hash a built-in fallback row with pattern `pat` names
 * (the checked ggml build's), as bytes. */
static void row_hash(const struct rdc_tables *t, const char *pat, uint8_t out[32])
{
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (r->action != RDC_RULE_FALLBACK || strcmp(r->pattern, pat) || !r->scope_sha256)
			continue;
		for (size_t j = 0; j < 32; j++) {
			unsigned v;
			assert_int_equal(sscanf(r->scope_sha256 + 2 * j, "%2x", &v), 1);
			out[j] = (uint8_t)v;
		}
		return;
	}
	fail_msg("no hash-scoped fallback row %s", pat);
}

#define FA192 "_ZL15flash_attn_tileILi192ELi128ELi8ELi4ELb1EEvPKcS1_S1_S1_S1_PKiPfP15HIP_vector_typeIfLj2EEffffjfiS5_IjLj3EEiiiiiiiiiiiliiliiiiil"
#define FA128 "_ZL15flash_attn_tileILi128ELi128ELi64ELi1ELb0EEvPKcS1_S1_S1_S1_PKiPfP15HIP_vector_typeIfLj2EEffffjfiS5_IjLj3EEiiiiiiiiiiiliiliiiiil"
#define FA576 "_ZL15flash_attn_tileILi576ELi512ELi2ELi1ELb0EEvPKcS1_S1_S1_S1_PKiPfP15HIP_vector_typeIfLj2EEffffjfiS5_IjLj3EEiiiiiiiiiiiliiliiiiil"
#define GGML "/usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so"

static void test_builtin_rows(void **state)
{
	(void)state;
	const struct rdc_tables *t = rdc_tables_builtin();
	assert_true(t->n_rules >= 4);
	struct rdc_rule_match m;
	uint8_t h256[32], h192[32], h128[32];
	row_hash(t, "_ZL15flash_attn_tileILi256ELi256E*", h256);
	row_hash(t, "_ZL15flash_attn_tileILi192ELi128E*", h192);
	row_hash(t, "_ZL15flash_attn_tileILi128ELi128E*", h128);
	/* row 1+2: RDNA2 under 7.1, from the checked build of libggml-hip.so:
	 * the occupancy row and the (reviewed) fallback row */
	assert_int_equal(match(t, FA, GGML, h256, "gfx1031", V71, false, &m), 2);
	assert_non_null(m.occupancy);
	assert_non_null(m.fallback);
	assert_false(m.fallback->provisional);
	assert_null(m.unchecked);
	assert_string_equal(m.fallback->fallback, "rdnacompat_fb_fattn_tile_dv256");
	/* one fallback per DV: <192,128> goes to dv128, <128,128,64,1> too (ncols1
	 * 64 is not mistaken for DV 64) */
	assert_int_equal(match(t, FA192, "libggml-hip.so", h192, "gfx1030", V71, false, &m), 2);
	assert_null(m.unchecked);
	assert_string_equal(m.fallback->fallback, "rdnacompat_fb_fattn_tile_dv128");
	assert_int_equal(match(t, FA128, "libggml-hip.so", h128, "gfx1030", V71, false, &m), 2);
	assert_string_equal(m.fallback->fallback, "rdnacompat_fb_fattn_tile_dv128");
	/* each row names its own code object: dv256's hash is not dv128's */
	assert_int_equal(match(t, FA128, "libggml-hip.so", h256, "gfx1030", V71, false, &m), 1);
	assert_null(m.fallback);
	assert_null(m.deny);
	/* 7.0 works (case a): nothing */
	assert_int_equal(match(t, FA, "libggml-hip.so", NULL, "gfx1030", V70, false, &m), 0);
	assert_int_equal(match(t, FA, "libggml-hip.so", NULL, "gfx1030", V52, false, &m), 0);
	/* runtime unknown: only "*" rows */
	assert_int_equal(match(t, FA, "libggml-hip.so", NULL, "gfx1030", 0, false, &m), 0);
	/* another library: nothing */
	assert_int_equal(match(t, FA, "/opt/x/libother.so", NULL, "gfx1031", V71, false, &m), 0);
	assert_int_equal(match(t, FA, NULL, NULL, "gfx1031", V71, false, &m), 0);
	/* RDNA3: the allow row, gfx1101 only and provisional (audit 2026-12-03 M3) */
	assert_int_equal(match(t, FA, "libggml-hip.so", NULL, "gfx1101", V71, true, &m), 0);
	assert_non_null(m.allow);
	assert_false(m.allow->user);
	assert_int_equal(match(t, FA, "libggml-hip.so", NULL, "gfx1101", V71, false, &m), 0);
	assert_null(m.allow);
	for (const char *const *g = (const char *const[]){ "gfx1100", "gfx1102", "gfx1103", "gfx1150",
							    "gfx1151", NULL }; *g; g++) {
		assert_int_equal(match(t, FA, "libggml-hip.so", NULL, *g, V71, true, &m), 0);
		assert_null(m.allow);
	}
	/* another kernel: nothing */
	assert_int_equal(match(t, "_ZL26flash_attn_combine_resultsILi256EEvPKfPK15HIP_vector_typeIfLj2EEPfi",
			       "libggml-hip.so", NULL, "gfx1031", V71, false, &m), 0);
	/* row 5 is provisional: only with opt-in */
	assert_int_equal(match(t, "MIOpenCvBwdWrW", "libMIOpen.so.1", NULL, "gfx1031", V52, false, &m), 0);
	assert_int_equal(match(t, "MIOpenCvBwdWrW", "libMIOpen.so.1", NULL, "gfx1031", V52, true, &m), 1);
	assert_non_null(m.deny);
	assert_int_equal(match(t, "MIOpenCvBwdWrW", "libMIOpen.so.1", NULL, "gfx1030", V52, true, &m), 0);
	/* the client's fast filter */
	assert_true(rdc_rules_any_for(t, "gfx1031", V71, false));
	assert_true(rdc_rules_any_for(t, "gfx1031", 0, false));
	assert_false(rdc_rules_any_for(t, "gfx1030", V52, false));
	assert_false(rdc_rules_any_for(t, "gfx1101", V71, false));
	assert_false(rdc_rules_any_for(t, "gfx906", V71, true));
}

/* Audit 2026-12-03 M4: the fallback rows are scoped to the ggml builds whose
 * launch contract was checked.  Another build (another hash, one byte
 * changed, or no hash known) gets no fallback: `unchecked` names the row
 * (the client's refusal line) and the occupancy row applies as it is. */
static void test_fallback_unchecked_build(void **state)
{
	(void)state;
	const struct rdc_tables *t = rdc_tables_builtin();
	struct rdc_rule_match m;
	uint8_t h[32], other[32], h576[32];
	row_hash(t, "_ZL15flash_attn_tileILi256ELi256E*", h);
	row_hash(t, "_ZL15flash_attn_tileILi576ELi512E*", h576);
	memcpy(other, h, 32);
	other[31] ^= 1;
	assert_int_equal(match(t, FA, GGML, other, "gfx1031", V71, false, &m), 1);
	assert_non_null(m.occupancy);
	assert_null(m.fallback);
	assert_non_null(m.unchecked);
	assert_string_equal(m.unchecked->fallback, "rdnacompat_fb_fattn_tile_dv256");
	assert_false(m.unchecked->user);
	/* hash unknown: the same */
	assert_int_equal(match(t, FA, GGML, NULL, "gfx1031", V71, false, &m), 1);
	assert_non_null(m.unchecked);
	/* nothing to refuse where the row would not apply anyway: another
	 * runtime, another card, another library, the built-in allow (a
	 * provisional row without opt-in: below) */
	assert_int_equal(match(t, FA, GGML, other, "gfx1031", V70, false, &m), 0);
	assert_null(m.unchecked);
	assert_int_equal(match(t, FA, GGML, other, "gfx1100", V71, true, &m), 0);
	assert_null(m.unchecked);
	assert_int_equal(match(t, FA, "libother.so", other, "gfx1031", V71, true, &m), 0);
	assert_null(m.unchecked);
	assert_int_equal(match(t, FA576, GGML, other, "gfx1031", V71, false, &m), 1);
	assert_string_equal(m.unchecked->fallback, "rdnacompat_fb_fattn_tile_dv512");
	assert_int_equal(match(t, FA576, GGML, h576, "gfx1031", V71, false, &m), 2);
	assert_null(m.unchecked);
	assert_int_equal(match(t, FA, GGML, other, "gfx1101", V71, true, &m), 0);
	assert_non_null(m.allow);
	assert_null(m.unchecked);

	/* the opt-in: a user's row naming this build's hash applies; a user's
	 * hash-scoped row for yet another build is itself `unchecked` */
	char hex[65], text[1024];
	rdc_sha256_hex(other, hex);
	snprintf(text, sizeof text,
		 "[kernels]\n"
		 "_ZL15flash_attn_tileILi256ELi256E*\tlibggml-hip.so*+sha256:%s\tgfx1031\t*\t"
		 "fallback:rdnacompat_fb_fattn_tile_dv256\treviewed\tchecked my build\tme\n"
		 "_ZL15flash_attn_tileILi128ELi128E*\tsha256:%s\tgfx1031\t*\t"
		 "fallback:rdnacompat_fb_fattn_tile_dv128\treviewed\tmine\tme\n",
		 hex, hex);
	struct rdc_diag d;
	struct rdc_tables_build *b = with(text, &d);
	if (!b)
		fail_msg("%s", d.msg);
	assert_int_equal(match(&b->t, FA, GGML, other, "gfx1031", V71, false, &m), 2);
	assert_true(m.fallback->user);
	assert_null(m.unchecked);
	assert_int_equal(match(&b->t, FA, GGML, h, "gfx1031", V71, false, &m), 2);
	assert_false(m.fallback->user); /* the checked build: the built-in row */
	uint8_t h128[32];
	row_hash(rdc_tables_builtin(), "_ZL15flash_attn_tileILi128ELi128E*", h128);
	h128[0] ^= 0x80;
	assert_int_equal(match(&b->t, FA128, GGML, h128, "gfx1031", V71, false, &m), 1);
	assert_non_null(m.unchecked);
	assert_true(m.unchecked->user); /* the user's row first */
	done(b);
	/* a provisional hash-scoped row says nothing without opt-in */
	snprintf(text, sizeof text,
		 "[kernels]\n_Z4kfa*\tlibx.so+sha256:%s\tgfx1031\t*\tfallback:fb\tprovisional\tp\tme\n", hex);
	b = with(text, &d);
	if (!b)
		fail_msg("%s", d.msg);
	assert_int_equal(match(&b->t, "_Z4kfav", "libx.so", h, "gfx1031", V71, false, &m), 0);
	assert_null(m.unchecked);
	assert_int_equal(match(&b->t, "_Z4kfav", "libx.so", h, "gfx1031", V71, true, &m), 0);
	assert_non_null(m.unchecked);
	assert_int_equal(match(&b->t, "_Z4kfav", "libx.so", other, "gfx1031", V71, true, &m), 1);
	done(b);
}

static void test_demangled_family_hash(void **state)
{
	(void)state;
	uint8_t a[32], c[32];
	rdc_sha256("object A", 8, a);
	rdc_sha256("object B", 8, c);
	char hex[65], text[1024];
	rdc_sha256_hex(a, hex);
	snprintf(text, sizeof text,
		 "[kernels]\n"
		 "void flash_attn_tile<128, *\t*\trdna2\t*\tdeny\treviewed\tdemangled glob\tt\n"
		 "attn_fwd\tsha256:%s\tgfx1150\t*\tfallback:fb_attn\treviewed\thash scope\tt\n"
		 "attn_fwd\tlibaotriton_v2.so*+sha256:%s\tgfx1151\t*\tdeny\treviewed\tboth\tt\n",
		 hex, hex);
	struct rdc_diag d;
	struct rdc_tables_build *b = with(text, &d);
	if (!b)
		fail_msg("%s", d.msg);
	struct rdc_rule_match m;
	const char *fa128 = "_ZL15flash_attn_tileILi128ELi128ELi4ELi8ELb0EEvPKcS1_S1_S1_S1_PKiPfP15HIP_vector_typeIfLj2EEffffjfiS5_IjLj3EEiiiiiiiiiiiliiliiiiil";
	assert_int_equal(match(&b->t, fa128, NULL, NULL, "gfx1032", V52, false, &m), 1); /* family */
	assert_non_null(m.deny);
	assert_int_equal(match(&b->t, FA, NULL, NULL, "gfx1032", V52, false, &m), 0);       /* 256 */
	assert_int_equal(match(&b->t, fa128, NULL, NULL, "gfx1101", V52, false, &m), 0);    /* rdna3 */
	/* hash scope: only the object with that hash */
	assert_int_equal(match(&b->t, "attn_fwd", "x.so", a, "gfx1150", V52, false, &m), 1);
	assert_string_equal(m.fallback->fallback, "fb_attn");
	assert_int_equal(match(&b->t, "attn_fwd", "x.so", c, "gfx1150", V52, false, &m), 0);
	assert_int_equal(match(&b->t, "attn_fwd", "x.so", NULL, "gfx1150", V52, false, &m), 0);
	/* library and hash */
	assert_int_equal(match(&b->t, "attn_fwd", "/p/libaotriton_v2.so.0.12", a, "gfx1151", 0, false, &m), 1);
	assert_int_equal(match(&b->t, "attn_fwd", "/p/libother.so", a, "gfx1151", 0, false, &m), 0);
	assert_int_equal(match(&b->t, "attn_fwd", "/p/libaotriton_v2.so.0.12", c, "gfx1151", 0, false, &m), 0);
	done(b);
}

/* Audit 2026-12-03 M3: built-in rows never silently defeat a user's.  A
 * user's row comes before a built-in one of its kind; a built-in allow
 * cancels only built-in rows and is named in `overruled` when user rows
 * win over it; a user's allow cancels everything. */
static void test_user_over_builtin(void **state)
{
	(void)state;
	struct rdc_kernel_rule rows[] = {
		{ .pattern = "_Z4k*", .targets = "gfx1102", .rt_min = 0, .rt_max = UINT32_MAX,
		  .action = RDC_RULE_ALLOW, .source = "built-in allow" },
		{ .pattern = "_Z4k*", .targets = "gfx1102", .rt_min = 0, .rt_max = UINT32_MAX,
		  .action = RDC_RULE_FALLBACK, .fallback = "fb_builtin", .source = "built-in fallback" },
		{ .pattern = "_Z4kone*", .targets = "gfx1102", .rt_min = 0, .rt_max = UINT32_MAX,
		  .action = RDC_RULE_OCCUPANCY, .source = "user occupancy", .user = true },
		{ .pattern = "_Z4ktwo*", .targets = "gfx1102", .rt_min = 0, .rt_max = UINT32_MAX,
		  .action = RDC_RULE_ALLOW, .source = "user allow", .user = true },
		{ .pattern = "_Z4ktwo*", .targets = "gfx1102", .rt_min = 0, .rt_max = UINT32_MAX,
		  .action = RDC_RULE_DENY, .source = "user deny", .user = true },
		{ .pattern = "_Z4kthree*", .targets = "gfx1103", .rt_min = 0, .rt_max = UINT32_MAX,
		  .action = RDC_RULE_FALLBACK, .fallback = "fb_builtin", .source = "built-in fb" },
		{ .pattern = "_Z4kthree*", .targets = "gfx1103", .rt_min = 0, .rt_max = UINT32_MAX,
		  .action = RDC_RULE_FALLBACK, .fallback = "fb_user", .source = "user fb", .user = true },
	};
	struct rdc_tables t = { .rules = rows, .n_rules = sizeof rows / sizeof rows[0] };
	struct rdc_rule_match m;
	/* only built-in rows match: the built-in allow cancels the built-in fallback */
	assert_int_equal(match(&t, "_Z4kzerov", NULL, NULL, "gfx1102", V71, false, &m), 0);
	assert_ptr_equal(m.allow, &rows[0]);
	assert_null(m.fallback);
	assert_null(m.overruled);
	/* a user's occupancy row applies over the built-in allow, which is named */
	assert_int_equal(match(&t, "_Z4konev", NULL, NULL, "gfx1102", V71, false, &m), 1);
	assert_null(m.allow);
	assert_ptr_equal(m.occupancy, &rows[2]);
	assert_null(m.fallback);          /* the built-in fallback stays cancelled */
	assert_ptr_equal(m.overruled, &rows[0]);
	/* a user's allow cancels everything, the user's own deny too */
	assert_int_equal(match(&t, "_Z4ktwov", NULL, NULL, "gfx1102", V71, false, &m), 0);
	assert_ptr_equal(m.allow, &rows[3]);
	assert_null(m.deny);
	assert_null(m.fallback);
	/* same kind, different key: the user's row, although later in the table */
	assert_int_equal(match(&t, "_Z4kthreev", NULL, NULL, "gfx1103", V71, false, &m), 1);
	assert_string_equal(m.fallback->fallback, "fb_user");
	assert_null(m.overruled);

	/* The shipped tables: a gfx1102 user's occupancy row for ggml's tile
	 * kernels applies (the built-in RDNA3 allow row cancelled it on
	 * c924ca0), and on gfx1101 with opt-in it wins over the narrowed row. */
	const char *text = "[kernels]\n_ZL15flash_attn_tileI*\tlibggml-hip.so*\tgfx1101,gfx1102\t*\t"
			   "occupancy\treviewed\tmax_blocks_per_sm assert on my card\tme\n";
	struct rdc_diag d;
	struct rdc_tables_build *b = with(text, &d);
	if (!b)
		fail_msg("%s", d.msg);
	assert_int_equal(match(&b->t, FA, "libggml-hip.so", NULL, "gfx1102", V71, false, &m), 1);
	assert_non_null(m.occupancy);
	assert_true(m.occupancy->user);
	assert_null(m.overruled);
	assert_int_equal(match(&b->t, FA, "libggml-hip.so", NULL, "gfx1102", V71, true, &m), 1);
	assert_int_equal(match(&b->t, FA, "libggml-hip.so", NULL, "gfx1101", V71, true, &m), 1);
	assert_non_null(m.occupancy);
	assert_non_null(m.overruled);
	assert_int_equal(m.overruled->action, RDC_RULE_ALLOW);
	done(b);
}

static void test_allow_and_ranges(void **state)
{
	(void)state;
	const char *text = "[kernels]\n"
			   "_Z4k*\t*\t*\t>=6.4,<7.1\tdeny\treviewed\tbroad\tt\n"
			   "_Z4kone*\tlibkeep.so*\tgfx1031\t*\tallow\treviewed\tnarrow allow\tt\n"
			   "_Z4ktwo*\t*\tgfx1032\t7.0\toccupancy\treviewed\tone series\tt\n";
	struct rdc_diag d;
	struct rdc_tables_build *b = with(text, &d);
	if (!b)
		fail_msg("%s", d.msg);
	struct rdc_rule_match m;
	assert_int_equal(match(&b->t, "_Z4konev", "libx.so", NULL, "gfx1031", 60400000u, false, &m), 1);
	assert_int_equal(match(&b->t, "_Z4konev", "libx.so", NULL, "gfx1031", 60343000u, false, &m), 0);
	assert_int_equal(match(&b->t, "_Z4konev", "libx.so", NULL, "gfx1031", 70100000u, false, &m), 0);
	assert_int_equal(match(&b->t, "_Z4konev", "libx.so", NULL, "gfx1031", 70099999u, false, &m), 1);
	/* allow wins over the broader deny */
	assert_int_equal(match(&b->t, "_Z4konev", "/l/libkeep.so.2", NULL, "gfx1031", 60400000u, false, &m), 0);
	assert_non_null(m.allow);
	assert_null(m.deny);
	/* ... only where it applies */
	assert_int_equal(match(&b->t, "_Z4konev", "/l/libkeep.so.2", NULL, "gfx1032", 60400000u, false, &m), 1);
	/* "7.0" = the 7.0 series */
	assert_int_equal(match(&b->t, "_Z4ktwov", "l.so", NULL, "gfx1032", 70051831u, false, &m), 2);
	assert_non_null(m.occupancy);
	assert_int_equal(match(&b->t, "_Z4ktwov", "l.so", NULL, "gfx1032", 70100000u, false, &m), 0);
	/* runtime checked later by the client */
	struct rdc_rule_subject s = { .name = "_Z4ktwov", .device = "gfx1032", .runtime_later = true };
	assert_int_equal(rdc_rules_match(&b->t, &s, &m), 2);
	assert_false(rdc_rule_runtime_ok(m.occupancy, 60400000u));
	assert_true(rdc_rule_runtime_ok(m.occupancy, 70000000u));
	assert_false(rdc_rule_runtime_ok(m.occupancy, 0));
	/* a user row with a built-in key replaces it */
	const char *repl = "[kernels]\n_ZL15flash_attn_tileI*\tlibggml-hip.so*\t"
			   "gfx1030,gfx1031,gfx1032,gfx1034,gfx1035,gfx1036\t>=7.1\toccupancy\tprovisional\tmine\tme\n";
	done(b);
	b = with(repl, &d);
	if (!b)
		fail_msg("%s", d.msg);
	assert_int_equal(b->t.n_rules, rdc_tables_builtin()->n_rules);
	uint8_t h256[32];
	row_hash(&b->t, "_ZL15flash_attn_tileILi256ELi256E*", h256);
	assert_int_equal(match(&b->t, FA, "libggml-hip.so", h256, "gfx1031", V71, false, &m), 1);
	assert_null(m.occupancy); /* now provisional */
	assert_non_null(m.fallback);
	assert_int_equal(match(&b->t, FA, "libggml-hip.so", h256, "gfx1031", V71, true, &m), 2);
	assert_true(m.occupancy->user);
	assert_string_equal(m.occupancy->reason, "mine");
	done(b);
}

/* The client's lazy order (inspect_rules.c): demangle, then hash, only when
 * rdc_rules_needs asks; *asked gets what it asked for. */
static int lazy_match(const struct rdc_tables *t, const char *name, const char *lib, const uint8_t *sum,
		      const char *dev, struct rdc_rule_match *m, unsigned *asked)
{
	char dem[1024];
	struct rdc_rule_subject s = { .name = name, .lib = lib, .device = dev, .runtime_later = true,
				      .provisional = true };
	*asked = 0;
	if (!rdc_rules_any_admit(t, &s)) {
		memset(m, 0, sizeof *m);
		return 0;
	}
	unsigned need = rdc_rules_needs(t, &s);
	*asked |= need & RDC_RULES_NEED_DEMANGLED;
	if ((need & RDC_RULES_NEED_DEMANGLED) && rdc_demangle(name, dem, sizeof dem) == 0) {
		s.demangled = dem;
		need = rdc_rules_needs(t, &s);
	}
	*asked |= need & RDC_RULES_NEED_SHA256;
	if (need & RDC_RULES_NEED_SHA256)
		s.sha256 = sum;
	return rdc_rules_match(t, &s, m);
}

static void test_needs(void **state)
{
	(void)state;
	uint8_t sum[32], other[32];
	rdc_sha256("abc", 3, sum);
	rdc_sha256("abd", 3, other);
	char hex[65], row[2048];
	rdc_sha256_hex(sum, hex);
	snprintf(row, sizeof row,
		 "[kernels]\n"
		 "_Z4kone*\tsha256:%s\tgfx1031\t*\tdeny\treviewed\thash\tt\n"
		 "kthree(*\tlibd.so+sha256:%s\tgfx1031\t*\tdeny\treviewed\tdemangled+hash\tt\n"
		 "_Z4kfou*\tsha256:%s\tgfx1101\t*\tdeny\treviewed\tother card\tt\n"
		 "_Z4ktwo*\tlibt.so\t*\t*\toccupancy\treviewed\tno hash\tt\n",
		 hex, hex, hex);
	struct rdc_diag d;
	struct rdc_tables_build *b = with(row, &d);
	if (!b)
		fail_msg("%s", d.msg);
	const struct rdc_tables *t = &b->t;
	unsigned asked;
	struct rdc_rule_match m;
	/* the hash row: the hash is asked for, the mangled pattern needs no demangling */
	assert_int_equal(lazy_match(t, "_Z4konev", "x.so", sum, "gfx1031", &m, &asked), 1);
	assert_int_equal(asked, RDC_RULES_NEED_SHA256);
	assert_int_equal(lazy_match(t, "_Z4konev", "x.so", other, "gfx1031", &m, &asked), 0);
	/* no row's pattern can match: neither */
	assert_int_equal(lazy_match(t, "_Z4kzzzv", "x.so", sum, "gfx1031", &m, &asked), 0);
	assert_int_equal(asked, 0);
	/* ... unless "_Z" recurs in the name (an identifier could start with it) */
	lazy_match(t, "_Z4kzzzIXadL_Z3fooEEEvv", "x.so", sum, "gfx1031", &m, &asked);
	assert_true(asked & RDC_RULES_NEED_DEMANGLED);
	/* a demangled pattern: demangling asked for, then the hash */
	assert_int_equal(lazy_match(t, "_Z6kthreei", "/l/libd.so", sum, "gfx1031", &m, &asked), 1);
	assert_int_equal(asked, RDC_RULES_NEED_DEMANGLED | RDC_RULES_NEED_SHA256);
	/* the hash row of another card, a library out of scope: nothing */
	assert_int_equal(lazy_match(t, "_Z4kfouv", "x.so", sum, "gfx1031", &m, &asked), 0);
	assert_int_equal(asked, 0);
	struct rdc_rule_subject s = { .name = "_Z6kthreei", .lib = "libx.so", .device = "gfx1030" };
	assert_false(rdc_rules_any_admit(t, &s)); /* built-in rows: libggml-hip only */
	s.lib = "libt.so";
	assert_true(rdc_rules_any_admit(t, &s));
	/* the lazy answer is the full answer, for every row and name here */
	const char *names[] = { "_Z4konev", "_Z4ktwov", "_Z6kthreei", "_Z4kfouv", "_Z4kzzzv", FA,
				"plain", "_Z4kzzzIXadL_Z3fooEEEvv" };
	const char *libs[] = { "x.so", "/l/libd.so", "libt.so", "libggml-hip.so" };
	const char *devs[] = { "gfx1031", "gfx1101", "gfx1030" };
	const uint8_t *sums[] = { sum, other };
	for (size_t n = 0; n < sizeof names / sizeof *names; n++)
		for (size_t l = 0; l < 4; l++)
			for (size_t v = 0; v < 3; v++)
				for (size_t h = 0; h < 2; h++) {
					struct rdc_rule_match full, lazy;
					char dem[1024];
					struct rdc_rule_subject fs = { .name = names[n], .lib = libs[l],
								       .device = devs[v], .sha256 = sums[h],
								       .runtime_later = true, .provisional = true };
					if (rdc_demangle(names[n], dem, sizeof dem) == 0)
						fs.demangled = dem;
					int rf = rdc_rules_match(t, &fs, &full);
					int rl = lazy_match(t, names[n], libs[l], sums[h], devs[v], &lazy, &asked);
					assert_int_equal(rf, rl);
					assert_ptr_equal(full.allow, lazy.allow);
					assert_ptr_equal(full.deny, lazy.deny);
					assert_ptr_equal(full.fallback, lazy.fallback);
					assert_ptr_equal(full.occupancy, lazy.occupancy);
					assert_ptr_equal(full.prefer, lazy.prefer);
					assert_ptr_equal(full.overruled, lazy.overruled);
				}
	done(b);
}

static void expect_bad_at(const char *row, unsigned line, const char *what)
{
	char text[1024];
	snprintf(text, sizeof text, "# c\n[kernels]\n%s\n", row);
	struct rdc_diag d;
	struct rdc_tables_build *b = with(text, &d);
	if (b) {
		done(b);
		fail_msg("accepted: %s", row);
	}
	char at[32];
	snprintf(at, sizeof at, "user.tsv:%u: ", line);
	if (!strstr(d.msg, at) || !strstr(d.msg, what))
		fail_msg("'%s' refused with '%s', want %s and '%s'", row, d.msg, at, what);
}

static void expect_bad(const char *row, const char *what)
{
	expect_bad_at(row, 3, what);
}

static void test_bad_rows(void **state)
{
	(void)state;
	expect_bad("k\t*\t*\t*\tdeny\treviewed\twhy", "fields");
	expect_bad("k\t*\t*\t>=7\tdeny\treviewed\twhy\tsrc", "runtime");
	expect_bad("k\t*\t*\t>=7.1,>=7.2\tdeny\treviewed\twhy\tsrc", "two lower");
	expect_bad("k\t*\t*\t>=7.1,<7.0\tdeny\treviewed\twhy\tsrc", "empty range");
	expect_bad("k\t*\t*\t<=7.1\tdeny\treviewed\twhy\tsrc", "runtime");
	expect_bad("k\t*\t*\t*\trefuse\treviewed\twhy\tsrc", "action");
	expect_bad("k\t*\t*\t*\tfallback:\treviewed\twhy\tsrc", "action");
	expect_bad("k\t*\t*\t*\tfallback:a-b\treviewed\twhy\tsrc", "action");
	expect_bad("k\t*\t*\t*\tdeny\tmaybe\twhy\tsrc", "status");
	expect_bad("k\tsha256:abc\t*\t*\tdeny\treviewed\twhy\tsrc", "sha256");
	expect_bad("k\t/usr/lib/libx.so\t*\t*\tdeny\treviewed\twhy\tsrc", "file name");
	expect_bad("k\t*\tgfx1039\t*\tdeny\treviewed\twhy\tsrc", "neither a processor nor a family");
	expect_bad("k\t*\tgfx1031,,gfx1032\t*\tdeny\treviewed\twhy\tsrc", "empty entry");
	expect_bad("k\t*\trdna9\t*\tdeny\treviewed\twhy\tsrc", "neither");
	expect_bad("k\t*\t*\t*\tdeny\treviewed\twhy\t", "empty");
	expect_bad_at("k\t*\t*\t*\tdeny\treviewed\twhy\tsrc\nk\t*\t*\t*\tdeny\treviewed\tagain\tsrc", 4,
		      "duplicate");
}

static struct rdc_kernel kern(uint32_t vgpr, uint32_t lds, uint32_t flat, bool wgp)
{
	struct rdc_kernel k;
	memset(&k, 0, sizeof k);
	k.vgpr_count = vgpr;
	k.sgpr_count = 40;
	k.group_segment_fixed_size = lds;
	k.max_flat_workgroup_size = flat;
	k.wavefront_size = 32;
	k.kd.present = true;
	k.kd.wave32 = true;
	k.kd.wgp_mode = wgp;
	return k;
}

static void test_occupancy(void **state)
{
	(void)state;
	/* Expected values are literals worked out by hand from the hardware's
	 * numbers, not from the table the implementation reads: a wave32 SIMD has
	 * 1024 VGPRs on gfx1030 and gfx1102 and 1536 on gfx1100/gfx1101 (LLVM's
	 * AMDGPU::IsaInfo::getTotalNumVGPRs; AMD's RDNA2/RDNA3 ISA guides), VGPRs
	 * are allocated in granules of 8 in wave32, a SIMD holds at most 16 waves,
	 * a WGP has 4 SIMDs (2 in CU mode) and 64 KiB of LDS per workgroup. */
	const struct rdc_isa *g1030 = rdc_isa_find(rdc_tables_builtin(), "gfx1030");
	const struct rdc_isa *g1102 = rdc_isa_find(rdc_tables_builtin(), "gfx1102");
	assert_non_null(g1030);
	assert_non_null(g1102);
	uint32_t n;
	/* ggml's tile <256,256,4,8,false> on gfx1030: 158 VGPRs -> 160,
	 * 1024/160 = 6 waves/SIMD, 4 SIMDs x 6 x 32 = 768 threads = 3 blocks of
	 * 256; LDS: 65536/37888 = 1 block -> 1 */
	struct rdc_kernel k = kern(158, 37888, 256, true);
	assert_int_equal(rdc_rules_occupancy(g1030, &k, 256, 0, &n), 0);
	assert_int_equal(n, 1);
	/* without the LDS: the register bound, 3 */
	k.group_segment_fixed_size = 0;
	assert_int_equal(rdc_rules_occupancy(g1030, &k, 256, 0, &n), 0);
	assert_int_equal(n, 3);
	/* CU mode: 2 SIMDs x 6 x 32 = 384 threads = 1 block of 256 */
	k.kd.wgp_mode = false;
	assert_int_equal(rdc_rules_occupancy(g1030, &k, 256, 0, &n), 0);
	assert_int_equal(n, 1);
	/* dynamic LDS counts; over the device's LDS no block fits */
	k = kern(158, 37888, 256, true);
	assert_int_equal(rdc_rules_occupancy(g1030, &k, 256, 30000, &n), 0);
	assert_int_equal(n, 0);
	/* more threads than the kernel allows: 0 */
	assert_int_equal(rdc_rules_occupancy(g1030, &k, 512, 0, &n), 0);
	assert_int_equal(n, 0);
	/* a partial wave counts whole: 200 threads take 7 waves (224 lanes);
	 * 24 VGPRs allow 42 waves, capped at 16: 4 x 16 x 32 / 224 = 9 blocks */
	k = kern(24, 0, 1024, true);
	assert_int_equal(rdc_rules_occupancy(g1030, &k, 200, 0, &n), 0);
	assert_int_equal(n, 9);
	/* the device's own VGPR file: 238 -> 240 VGPRs; gfx1102's 1024 give
	 * 4 waves/SIMD, 4 x 4 x 32 / 256 = 2 blocks */
	k = kern(238, 0, 256, true);
	assert_int_equal(rdc_rules_occupancy(g1102, &k, 256, 0, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rdc_rules_occupancy(NULL, &k, 256, 0, &n), RDC_E_INVAL);
	assert_int_equal(rdc_rules_occupancy(g1030, &k, 0, 0, &n), RDC_E_INVAL);
}

static void test_args_equal(void **state)
{
	(void)state;
	struct rdc_kernel_arg a1[] = { { NULL, "global_buffer", 0, 8 }, { NULL, "by_value", 8, 4 },
				       { (char *)"nb13", "by_value", 16, 8 },
				       { NULL, "hidden_block_count_x", 24, 4 } };
	struct rdc_kernel_arg a2[] = { { NULL, "global_buffer", 0, 8 }, { NULL, "by_value", 8, 4 },
				       { NULL, "by_value", 12, 4 }, { NULL, "hidden_block_count_x", 24, 4 } };
	struct rdc_kernel x, y;
	memset(&x, 0, sizeof x);
	x.kernarg_size = 280;
	x.kernarg_align = 8;
	x.args = a1;
	x.n_args = 4;
	y = x;
	char why[200];
	assert_int_equal(rdc_rules_args_equal(&x, &y, why, sizeof why), 0);
	y.args = a2;
	assert_int_equal(rdc_rules_args_equal(&x, &y, why, sizeof why), 1);
	assert_non_null(strstr(why, "entry 2 nb13: offset 16 size 8 by_value vs offset 12 size 4 by_value"));
	y.args = a1;
	y.n_args = 3;
	assert_int_equal(rdc_rules_args_equal(&x, &y, why, sizeof why), 1);
	assert_non_null(strstr(why, "entry 3"));
	y.n_args = 4;
	y.kernarg_size = 288;
	assert_int_equal(rdc_rules_args_equal(&x, &y, why, sizeof why), 1);
	assert_non_null(strstr(why, "kernarg_segment_size 280 vs 288"));
	y.kernarg_size = 280;
	y.kernarg_align = 16;
	assert_int_equal(rdc_rules_args_equal(&x, &y, why, sizeof why), 1);
	a2[2] = a1[2];
	a2[2].value_kind = (char *)"global_buffer";
	y.kernarg_align = 8;
	y.args = a2;
	assert_int_equal(rdc_rules_args_equal(&x, &y, why, sizeof why), 1);
	assert_non_null(strstr(why, "global_buffer"));
}

static void test_digests(void **state)
{
	(void)state;
	char buf[1024];
	assert_int_equal(rdc_demangle(FA, buf, sizeof buf), 0);
	assert_string_equal(buf, "void flash_attn_tile<256, 256, 4, 8, false>(char const*, char const*, "
				 "char const*, char const*, char const*, int const*, float*, "
				 "HIP_vector_type<float, 2u>*, float, float, float, float, unsigned int, "
				 "float, int, HIP_vector_type<unsigned int, 3u>, int, int, int, int, int, "
				 "int, int, int, int, int, int, long, int, int, long, int, int, int, int, "
				 "int, long)");
	assert_int_equal(rdc_demangle("MIOpenCvBwdWrW", buf, sizeof buf), RDC_E_FORMAT);
	assert_int_equal(rdc_demangle("_Zgarbage", buf, sizeof buf), RDC_E_FORMAT);
	assert_int_equal(rdc_demangle(FA, buf, 20), RDC_E_RANGE);
	assert_int_equal(strlen(buf), 19);
	uint8_t s[32];
	char hex[65];
	rdc_sha256("abc", 3, s);
	rdc_sha256_hex(s, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(rdc_rule_version("7.1", 3), 70100000);
	assert_int_equal(rdc_rule_version("5.2.21153", 9), 50221153);
	assert_int_equal(rdc_rule_version("7", 1), -1);
	assert_int_equal(rdc_rule_version("7.100", 5), -1);
	assert_string_equal(rdc_rule_action_name(RDC_RULE_OCCUPANCY), "occupancy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_rows),  cmocka_unit_test(test_fallback_unchecked_build),
		cmocka_unit_test(test_demangled_family_hash),
		cmocka_unit_test(test_allow_and_ranges), cmocka_unit_test(test_user_over_builtin), cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_occupancy),     cmocka_unit_test(test_args_equal),
		cmocka_unit_test(test_digests),       cmocka_unit_test(test_needs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
