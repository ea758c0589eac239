/* SPDX-License-Identifier: MIT */
/*
 * test_rules_prefer.c — the `prefer:<target>` kernel rule: rows refused at
 * parse/validation (bad processor names, a target not in isa, a target none
 * of the row's cards may run), the built-in AOTriton row, matching with the
 * other rows' precedence, and the decision (rdc_policy_prefer) on a real
 * bundle of the clang-15 fixtures co/gfx1030.co, co/gfx1031.co and
 * co/gfx1100.co: which entry a card gets, and why when it keeps its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "rdnacompat/bundle.h"
#include "rdnacompat/policy.h"
#include "rdnacompat/rules.h"
#include "rdnacompat/tables_parse.h"

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

/* One [kernels] row for gfx1031 (or `targets`) into a static buffer. */
static const char *row(const char *pattern, const char *scope, const char *targets,
		       const char *runtime, const char *action, const char *status)
{
	static char buf[4][512];
	static int k;
	char *b = buf[k++ & 3];
	snprintf(b, 512, "%s\t%s\t%s\t%s\t%s\t%s\ttest\ttest_rules_prefer\n", pattern, scope,
		 targets, runtime, action, status);
	return b;
}

static void expect_refused(const char *rows, const char *what)
{
	char text[1200];
	snprintf(text, sizeof text, "[kernels]\n%s", rows);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	struct rdc_tables_build *b = with(text, &d);
	if (b) {
		done(b);
		fail_msg("accepted: %s", rows);
	}
	if (!strstr(d.msg, what))
		fail_msg("'%s' lacks '%s'", d.msg, what);
}

static void test_parse(void **state)
{
	(void)state;
	const char *A = "attn\t*\tgfx1031\t*\t";
	char r[300];
#define BAD(action, what)                                                    \
	do {                                                                 \
		snprintf(r, sizeof r, "%s%s\treviewed\twhy\tsrc\n", A, action); \
		expect_refused(r, what);                                     \
	} while (0)
	BAD("prefer:", "needs a processor");
	BAD("prefer:1030", "needs a processor");
	BAD("prefer:GFX1030", "needs a processor");
	BAD("prefer:gfx1030:xnack-", "bad character ':'");
	BAD("prefer:gfx10 30", "bad character ' '");
	BAD("prefer:gfx1039", "'gfx1039' is not a processor in isa");
	/* gfx1031 may not run gfx1100 (or gfx1032) code: no edge */
	BAD("prefer:gfx1100", "no compat edge lets gfx1031 run gfx1100 code");
	BAD("prefer:gfx1032", "no compat edge lets gfx1031 run gfx1032 code");
#undef BAD
	/* nobody runs gfx1031 code */
	expect_refused(row("k", "*", "*", "*", "prefer:gfx1031", "reviewed"),
		       "no compat edge lets any card run gfx1031 code");
	expect_refused(row("k", "*", "rdna2", "*", "prefer:gfx1031", "reviewed"),
		       "no compat edge lets rdna2 run gfx1031 code");

	/* accepted: an edge from one of the row's targets is enough */
	char text[600];
	snprintf(text, sizeof text, "[kernels]\n%s%s%s", row("a", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"),
		 row("b", "*", "gfx1031,gfx1100", "*", "prefer:gfx1030", "reviewed"),
		 row("c", "*", "rdna3", ">=6.4", "prefer:gfx11-generic", "provisional"));
	struct rdc_diag d;
	rdc_diag_clear(&d);
	struct rdc_tables_build *b = with(text, &d);
	if (!b)
		fail_msg("refused: %s", d.msg);
	size_t seen = 0;
	for (size_t i = 0; i < b->t.n_rules; i++) {
		const struct rdc_kernel_rule *x = &b->t.rules[i];
		if (!x->user)
			continue;
		assert_int_equal(x->action, RDC_RULE_PREFER);
		assert_null(x->fallback);
		assert_non_null(x->prefer);
		seen++;
	}
	assert_int_equal(seen, 3);
	assert_string_equal(rdc_rule_action_name(RDC_RULE_PREFER), "prefer");
	done(b);
}

static void test_builtin_aotriton(void **state)
{
	(void)state;
	const struct rdc_tables *t = rdc_tables_builtin();
	const struct rdc_kernel_rule *r = NULL;
	for (size_t i = 0; i < t->n_rules && !r; i++)
		if (t->rules[i].action == RDC_RULE_PREFER && !strcmp(t->rules[i].pattern, "attn_fwd"))
			r = &t->rules[i];
	assert_non_null(r);
	assert_string_equal(r->prefer, "gfx1151");
	assert_string_equal(r->targets, "gfx1150");
	assert_true(r->provisional);
	assert_non_null(strstr(r->source, "https://github.com/ROCm/aotriton/issues/183"));
	/* provisional: only with opt-in; only AOTriton's library; not on gfx1151 */
	assert_false(rdc_rules_prefer_any(t, "gfx1150", "/x/libaotriton_v2.so.0.12", 0, false));
	assert_true(rdc_rules_prefer_any(t, "gfx1150", "/x/libaotriton_v2.so.0.12", 0, true));
	assert_false(rdc_rules_prefer_any(t, "gfx1150", "/x/libtorch_hip.so", 0, true));
	assert_false(rdc_rules_prefer_any(t, "gfx1151", "/x/libaotriton_v2.so.0.12", 0, true));
	/* no prefer row makes the kernel-rule work of the shim start: */
	struct rdc_rule_subject s = { .name = "attn_fwd", .lib = "libaotriton_v2.so.0.12",
				      .device = "gfx1150", .runtime_later = true, .provisional = true };
	struct rdc_rule_match m;
	assert_int_equal(rdc_rules_match(t, &s, &m), 0); /* not counted: acted on at load */
	assert_ptr_equal(m.prefer, r);
}

/* ---- the decision on a real bundle --------------------------------------- */

struct fx {
	uint8_t *co[3];
	size_t n[3];
	uint8_t *bytes;
	size_t len;
	struct rdc_bundle b;
};

/* host, gfx1030, gfx1031, gfx1100: entries 1, 2, 3. */
static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	const char *names[3] = { "co/gfx1030.co", "co/gfx1031.co", "co/gfx1100.co" };
	for (int i = 0; i < 3; i++)
		if (!(f->co[i] = load_fixture(names[i], &f->n[i]))) {
			print_message("skipped: fixture %s missing (make fixtures)\n", names[i]);
			skip();
		}
	struct rdc_bundle_input in[4] = {
		{ "host-x86_64-unknown-linux-gnu", NULL, 0 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1030", f->co[0], f->n[0] },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1031", f->co[1], f->n[1] },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1100", f->co[2], f->n[2] },
	};
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_bundle_write(in, 4, 4096, &f->bytes, &f->len, &d), 0);
	assert_int_equal(rdc_bundle_parse(f->bytes, f->len, &f->b, &d), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	if (!f)
		return 0;
	rdc_bundle_free(&f->b);
	free(f->bytes);
	for (int i = 0; i < 3; i++)
		free(f->co[i]);
	free(f);
	return 0;
}

struct outcome {
	int rc;
	struct rdc_choice c;
};

/* Choose for `dev` under the built-in tables plus `rows`, then apply
 * prefer rows with `lib`, `runtime`, `prov`, `flags`. */
static struct outcome decide(struct fx *f, const char *rows, const char *dev, const char *lib,
			     uint32_t runtime, bool prov, unsigned flags)
{
	char text[2000];
	snprintf(text, sizeof text, "%s", rows);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	struct rdc_tables_build *b = with(text, &d);
	if (!b)
		fail_msg("tables refused: %s", d.msg);
	struct rdc_target t;
	memset(&t, 0, sizeof t);
	assert_int_equal(rdc_target_parse(dev, (size_t)-1, &t, NULL), 0);
	struct outcome o;
	assert_int_equal(rdc_policy_choose(&b->t, &t, &f->b, flags, &o.c, &d), 0);
	struct rdc_prefer_ctx px = { .lib = lib, .runtime = runtime, .provisional = prov };
	o.rc = rdc_policy_prefer(&b->t, &t, &f->b, flags, &px, &o.c, &d);
	done(b); /* the note and reason are copies: nothing points into b */
	return o;
}

static void expect_kept(struct outcome *o, enum rdc_verdict v, long entry, const char *note)
{
	assert_int_equal(o->rc, 0);
	assert_int_equal(o->c.verdict, v);
	assert_int_equal(o->c.entry, entry);
	assert_false(o->c.preferred);
	if (!note)
		assert_string_equal(o->c.prefer_note, "");
	else if (!strstr(o->c.prefer_note, note))
		fail_msg("note '%s' lacks '%s'", o->c.prefer_note, note);
	rdc_choice_free(&o->c);
}

static void test_decide(void **state)
{
	struct fx *f = *state;
	char rows[1500];
	/* without a row: gfx1031 runs its own entry */
	struct outcome o = decide(f, "", "gfx1031", "/x/prog", V52, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);

	/* a kernel-pattern row: the whole code object goes to gfx1030's entry */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*fill_iota*", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1031", "/x/prog", V52, false, 0);
	assert_int_equal(o.rc, 1);
	assert_int_equal(o.c.verdict, RDC_VERDICT_MAPPED);
	assert_int_equal(o.c.entry, 1);
	assert_string_equal(o.c.chosen.proc, "gfx1030");
	assert_true(o.c.preferred);
	assert_true(o.c.prefer_own);
	assert_int_equal(o.c.prefer_over, 2);
	assert_int_equal(o.c.n_kernels, 2);
	assert_int_equal(o.c.edge_rank, 1);
	assert_non_null(o.c.co); /* the preferred entry's parse, for the retarget patches */
	assert_non_null(strstr(o.c.reason, "prefer row '*fill_iota*' in * on gfx1031 (user row)"));
	assert_non_null(strstr(o.c.reason, "gfx1030 code runs on gfx1031 instead of the gfx1031 entry"));
	assert_non_null(strstr(o.c.prefer_note, "matched kernel"));
	rdc_choice_free(&o.c);
	/* the same with the kernel checks' verdicts asked for */
	o = decide(f, rows, "gfx1031", "/x/prog", V52, false, RDC_POLICY_KERNELS);
	assert_int_equal(o.rc, 1);
	assert_non_null(o.c.kernels);
	assert_true(o.c.kernels[0].ok && o.c.kernels[1].ok);
	rdc_choice_free(&o.c);

	/* a pattern no kernel has: nothing, no note */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("attn_fwd", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1031", "/x/prog", V52, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);

	/* provisional: with opt-in only */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", "*", "gfx1031", "*", "prefer:gfx1030", "provisional"));
	o = decide(f, rows, "gfx1031", "/x/prog", V52, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);
	o = decide(f, rows, "gfx1031", "/x/prog", V52, true, 0);
	assert_int_equal(o.rc, 1);
	rdc_choice_free(&o.c);

	/* an allow row cancels it (user allow: every row) */
	snprintf(rows, sizeof rows, "[kernels]\n%s%s", row("*", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"),
		 row("*iota*", "*", "gfx1031", "*", "allow", "reviewed"));
	o = decide(f, rows, "gfx1031", "/x/prog", V52, false, 0);
	/* scale_add is not allowed: it alone carries the row */
	assert_int_equal(o.rc, 1);
	assert_non_null(strstr(o.c.prefer_note, "scale_add"));
	rdc_choice_free(&o.c);
	snprintf(rows, sizeof rows, "[kernels]\n%s%s", row("*", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"),
		 row("*", "*", "gfx1031", "*", "allow", "reviewed"));
	o = decide(f, rows, "gfx1031", "/x/prog", V52, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);

	/* library scope and runtime range */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", "libfoo.so*", "gfx1031", ">=7.1", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1031", "/x/libfoo.so.1", V52, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);
	o = decide(f, rows, "gfx1031", "/x/libfoo.so.1", 0, false, 0); /* unknown: checked later */
	assert_int_equal(o.rc, 1);
	rdc_choice_free(&o.c);
	o = decide(f, rows, "gfx1031", "/x/libbar.so", 0, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);
	o = decide(f, rows, "gfx1031", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);

	/* a code-object-scoped row: sha256 of the card's own entry */
	uint8_t sum[32];
	char hex[65], scope[80];
	rdc_sha256(f->co[1], f->n[1], sum);
	rdc_sha256_hex(sum, hex);
	snprintf(scope, sizeof scope, "sha256:%s", hex);
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", scope, "gfx1031", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1031", NULL, 0, false, 0);
	assert_int_equal(o.rc, 1);
	rdc_choice_free(&o.c);
	rdc_sha256(f->co[0], f->n[0], sum); /* gfx1030's hash: not what gfx1031 would load */
	rdc_sha256_hex(sum, hex);
	snprintf(scope, sizeof scope, "sha256:%s", hex);
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", scope, "gfx1031", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1031", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, NULL);
}

static void test_decide_kept(void **state)
{
	struct fx *f = *state;
	char rows[1500];
	/* a target the bundle lacks: kept, said */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", "*", "gfx1031", "*", "prefer:gfx10-3-generic", "reviewed"));
	struct outcome o = decide(f, rows, "gfx1031", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, "no gfx10-3-generic entry");

	/* a row for two cards; gfx1100 has no edge to gfx1030: ignored there, said */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", "*", "gfx1031,gfx1100", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1100", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 3, "rule ignored: the tables have no edge gfx1100 <- gfx1030");

	/* an opt-in edge: only with RDC_POLICY_OPT_IN */
	snprintf(rows, sizeof rows, "[compat]\ngfx1031\tgfx1030\t1\topt-in\ttest\n[kernels]\n%s",
		 row("*", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1031", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, "edge is opt-in");
	o = decide(f, rows, "gfx1031", NULL, 0, false, RDC_POLICY_OPT_IN);
	assert_int_equal(o.rc, 1);
	rdc_choice_free(&o.c);

	/* the per-kernel checks: a bad-kernel refusal of gfx1030's fill_iota on
	 * gfx1031 keeps the card's own entry */
	snprintf(rows, sizeof rows,
		 "[badkernels]\ngfx1031\tgfx1030\t*fill_iota*\trefuse\tsynthetic\ttest\n[kernels]\n%s",
		 row("*", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1031", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_NATIVE, 2, "kept gfx1031: gfx1030 refused");

	/* a mapped choice can be preferred over too: gfx1101 maps gfx1100's
	 * entry; a row preferring gfx11-generic finds none; the card's own id
	 * is not in the bundle, so nothing is to be left out */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", "*", "gfx1101", "*", "prefer:gfx11-generic", "reviewed"));
	o = decide(f, rows, "gfx1101", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_MAPPED, 3, "no gfx11-generic entry");
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", "*", "gfx1101", "*", "prefer:gfx1100", "reviewed"));
	o = decide(f, rows, "gfx1101", NULL, 0, false, 0);
	expect_kept(&o, RDC_VERDICT_MAPPED, 3, "is gfx1100 code already");

	/* a choice without an entry, or no row for the card: untouched */
	snprintf(rows, sizeof rows, "[kernels]\n%s", row("*", "*", "gfx1031", "*", "prefer:gfx1030", "reviewed"));
	o = decide(f, rows, "gfx1032", NULL, 0, false, 0); /* maps gfx1030 by itself */
	expect_kept(&o, RDC_VERDICT_MAPPED, 1, NULL);
}

static void test_args(void **state)
{
	(void)state;
	struct rdc_choice c;
	memset(&c, 0, sizeof c);
	struct rdc_prefer_ctx px = { 0 };
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_policy_prefer(NULL, NULL, NULL, 0, &px, &c, &d), RDC_E_INVAL);
	assert_false(rdc_rules_prefer_any(NULL, "gfx1150", NULL, 0, true));
	assert_false(rdc_rules_prefer_any(rdc_tables_builtin(), NULL, NULL, 0, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_builtin_aotriton),
		cmocka_unit_test_setup_teardown(test_decide, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decide_kept, setup, teardown),
		cmocka_unit_test(test_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
