/* SPDX-License-Identifier: MIT */
/*
 * test_isa_class.c — the shared instruction decoder's classes
 * (rdc_isa_decode, rdc_isa_classify) and the policy's per-kernel
 * instruction conditions (policy_isa.c): hand-assembled words (encodings as
 * llvm-objdump-15 prints them), then the real objects of
 * tests/fixtures/codeobj.d/isa.sh (kernels plain, sampler, msaa, mad64) on
 * synthetic tables with a point-sample / msaa-load / mad-intra-fwd edge, and
 * iota (no protected instruction) on the same edge.
 */
#include <elf.h>
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
#include "rdnacompat/codeobj.h"
#include "rdnacompat/isa.h"
#include "rdnacompat/isa_class.h"
#include "rdnacompat/policy.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

/* Hidden in the core archive (policy_internal.h). */
bool rdc_pol_producer_has_mad_fix(const char *producer);

static void words(uint32_t a, uint32_t b, uint8_t *out)
{
	memcpy(out, &a, 4);
	memcpy(out + 4, &b, 4);
}

static void test_decode_words(void **state)
{
	(void)state;
	uint8_t w[16] = { 0 };
	struct rdc_inst in;
	/* gfx1100: image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf dim:2D */
	words(0xF06C0F04, 0x08000004, w);
	assert_int_equal(rdc_isa_decode(11, w, sizeof w, &in), 0); /* operands: isa_decode_mimg.c */
	assert_int_equal(in.op, RDC_OP_IMAGE_SAMPLE);
	assert_int_equal(in.mimg.dmask, 0xf);
	assert_int_equal(in.len, 8);
	/* gfx1100: image_msaa_load v[0:3], v[4:6], s[0:7] dmask:0x1 dim:2D_MSAA */
	words(0xF0600118, 0x00000004, w);
	rdc_isa_decode(11, w, sizeof w, &in);
	assert_int_equal(in.op, RDC_OP_IMAGE_MSAA_LOAD);
	/* gfx1100: v_mad_u64_u32 v[2:3], null, v6, v5, v[0:1] */
	words(0xD6FE7C02, 0x04020B06, w);
	assert_int_equal(rdc_isa_decode(11, w, sizeof w, &in), 0);
	assert_int_equal(in.op, RDC_OP_V_MAD_U64_U32);
	assert_int_equal(in.len, 8);
	/* gfx1030: image_sample, and v_mad_u64_u32 v[0:1], null, v4, v3, v[0:1] */
	words(0xF0800F08, 0x00400004, w);
	rdc_isa_decode(10, w, sizeof w, &in);
	assert_int_equal(in.op, RDC_OP_IMAGE_SAMPLE);
	words(0xD5767D00, 0x04020704, w);
	assert_int_equal(rdc_isa_decode(10, w, sizeof w, &in), 0);
	assert_int_equal(in.op, RDC_OP_V_MAD_U64_U32);
	/* No instruction: op INVALID, still a length. */
	words(0xFFFFFFFF, 0, w);
	assert_int_equal(rdc_isa_decode(11, w, sizeof w, &in), -1);
	assert_int_equal(in.op, RDC_OP_INVALID);
	assert_true(in.len >= 4);
}

/* Fixture `rel` (its length in *n), or NULL with the test marked skipped
 * and why said (`built_by`, when given, names what builds it). */
static uint8_t *fixture_or_skip(const char *rel, const char *built_by, size_t *n)
{
	uint8_t *b = load_fixture(rel, n);
	if (!b) {
		if (built_by)
			print_message("%s not built (%s)\n", rel, built_by);
		print_message("skipped: a fixture this test reads is missing (make fixtures)\n");
		skip();
	}
	return b;
}

static const struct rdc_kernel *kernel(const struct rdc_codeobj *co, const char *name, size_t *idx)
{
	for (size_t i = 0; i < co->n_kernels; i++)
		if (!strcmp(co->kernels[i].name, name)) {
			*idx = i;
			return &co->kernels[i];
		}
	fail_msg("no kernel %s", name);
	return NULL;
}

static void classify_one(const char *rel, bool msaa)
{
	size_t n;
	uint8_t *b = fixture_or_skip(rel, "tests/fixtures/codeobj.d/isa.sh", &n);
	if (!b)
		return;
	struct rdc_codeobj co;
	memset(&co, 0, sizeof co);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_DESCRIPTORS | RDC_CO_NO_ARGS, &co, &d), 0);
	struct rdc_isa_kernel *ik = calloc(co.n_kernels, sizeof *ik);
	assert_non_null(ik);
	assert_int_equal(rdc_isa_classify(b, n, &co, ik, &d), 0);
	size_t i;
	kernel(&co, "plain", &i);
	assert_int_equal(ik[i].classes, 0);
	kernel(&co, "sampler", &i);
	assert_int_equal(ik[i].classes, 1u << RDC_ISA_SAMPLE);
	assert_string_equal(ik[i].first[RDC_ISA_SAMPLE].mnemonic, "image_sample");
	assert_true(ik[i].first[RDC_ISA_SAMPLE].kernel_off < 64);
	kernel(&co, "mad64", &i);
	assert_int_equal(ik[i].classes, 1u << RDC_ISA_MAD64);
	assert_string_equal(ik[i].first[RDC_ISA_MAD64].mnemonic, "v_mad_u64_u32");
	if (msaa) {
		kernel(&co, "msaa", &i);
		assert_int_equal(ik[i].classes, 1u << RDC_ISA_MSAA_LOAD);
	}
	/* Every hit lies at an instruction of the file. */
	free(ik);
	/* The same code for a generation the decoder has no tables for. */
	struct rdc_codeobj other = co;
	snprintf(other.target.proc, sizeof other.target.proc, "gfx906");
	struct rdc_isa_kernel one[8];
	assert_true(co.n_kernels <= 8);
	assert_int_equal(rdc_isa_classify(b, n, &other, one, &d), RDC_E_UNSUPPORTED);
	rdc_codeobj_free(&co);
	free(b);
}

static void test_classify_gfx1100(void **state)
{
	(void)state;
	classify_one("codeobj/isa-gfx1100.co", true);
}

static void test_classify_gfx1030(void **state)
{
	(void)state;
	classify_one("codeobj/isa-gfx1030.co", false);
}

static void test_classify_truncated(void **state)
{
	(void)state;
	size_t n;
	uint8_t *b = fixture_or_skip("codeobj/isa-gfx1100.co", NULL, &n);
	if (!b)
		return;
	struct rdc_codeobj co;
	memset(&co, 0, sizeof co);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_DESCRIPTORS | RDC_CO_NO_ARGS, &co, &d), 0);
	struct rdc_isa_kernel ik[8];
	assert_true(co.n_kernels <= 8);
	/* Only the first 1 KiB: the kernels' code is not there -> unknown. */
	int rc = rdc_isa_classify(b, 1024, &co, ik, &d);
	if (rc == 0)
		for (size_t i = 0; i < co.n_kernels; i++)
			assert_true(ik[i].classes & (1u << RDC_ISA_UNKNOWN));
	rdc_codeobj_free(&co);
	free(b);
}

/* The symbol table of `b` (n bytes), each function symbol handed to `f`
 * with its file offset (through .text's address and offset). */
static void each_func(uint8_t *b, size_t n, void (*f)(Elf64_Sym *s, uint64_t off, void *arg), void *arg)
{
	Elf64_Ehdr eh;
	memcpy(&eh, b, sizeof eh);
	Elf64_Shdr *sh = (Elf64_Shdr *)(b + eh.e_shoff), *text = NULL;
	assert_true(eh.e_shoff + (uint64_t)eh.e_shnum * sizeof *sh <= n);
	for (unsigned i = 0; i < eh.e_shnum; i++)
		if (sh[i].sh_type == SHT_PROGBITS && (sh[i].sh_flags & SHF_EXECINSTR))
			text = &sh[i];
	assert_non_null(text);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		Elf64_Sym *sym = (Elf64_Sym *)(b + sh[i].sh_offset);
		for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++)
			if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC)
				f(&sym[k], sym[k].st_value - text->sh_addr + text->sh_offset, arg);
	}
}

/* Zero the padding after each function (up to the next 256-byte boundary,
 * where LLVM aligns kernel entries): a word the gfx11 decoder does not
 * know, as in Debian's ggml objects built by LLVM 17. */
static void zero_padding(Elf64_Sym *s, uint64_t off, void *arg)
{
	uint8_t *b = arg;
	uint64_t end = off + s->st_size, next = (end + 255) & ~(uint64_t)255;
	memset(b + end, 0, next - end);
}

static void drop_size(Elf64_Sym *s, uint64_t off, void *arg)
{
	(void)off;
	(void)arg;
	s->st_size = 0;
}

static unsigned classes_of(uint8_t *b, size_t n, const char *name)
{
	struct rdc_codeobj co;
	memset(&co, 0, sizeof co);
	struct rdc_diag d;
	rdc_diag_clear(&d);
	assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_DESCRIPTORS | RDC_CO_NO_ARGS, &co, &d), 0);
	struct rdc_isa_kernel ik[8];
	assert_true(co.n_kernels <= 8);
	assert_int_equal(rdc_isa_classify(b, n, &co, ik, &d), 0);
	size_t i;
	kernel(&co, name, &i);
	unsigned c = ik[i].classes;
	rdc_codeobj_free(&co);
	return c;
}

/* Padding between functions is not code: zero words there (unknown to the
 * decoder) leave a plain kernel clean; without sized function symbols the
 * same bytes are walked and make it unknown (the conservative reading). */
static void test_classify_padding(void **state)
{
	(void)state;
	size_t n;
	uint8_t *b = fixture_or_skip("codeobj/isa-gfx1100.co", NULL, &n);
	if (!b)
		return;
	struct rdc_inst in;
	static const uint8_t zero[8];
	rdc_isa_decode(11, zero, sizeof zero, &in);
	assert_int_equal(in.op, RDC_OP_INVALID);
	assert_int_equal(classes_of(b, n, "plain"), 0);
	each_func(b, n, zero_padding, b);
	assert_int_equal(classes_of(b, n, "plain"), 0);
	assert_int_equal(classes_of(b, n, "sampler"), 1u << RDC_ISA_SAMPLE);
	each_func(b, n, drop_size, NULL);
	assert_true(classes_of(b, n, "plain") & (1u << RDC_ISA_UNKNOWN));
	free(b);
}

static void test_producer_window(void **state)
{
	(void)state;
	assert_false(rdc_pol_producer_has_mad_fix(""));
	assert_false(rdc_pol_producer_has_mad_fix("Debian clang version 15.0.6"));
	assert_false(rdc_pol_producer_has_mad_fix("clang version 19.0.0git (https://github.com/llvm/llvm-project 1234)"));
	assert_true(rdc_pol_producer_has_mad_fix("Debian clang version 19.1.7 (3)"));
	assert_true(rdc_pol_producer_has_mad_fix("AMD clang version 20.0.0git (roc-7.0.0)"));
}

/* ---- the policy on a point-sample edge ----------------------------------- */

static const struct rdc_isa ISA[] = {
	{ "gfx1100", "rdna3", 0x41, false, "gfx11-generic", 0, 32, false, false, 65536, 1536, 768, 24, 12, 16, "t" },
	{ "gfx1150", "rdna3.5", 0x43, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1102", "rdna3", 0x47, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1103", "rdna3", 0x44, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1101", "rdna3", 0x46, false, "gfx11-generic", 0, 32, false, false, 65536, 1536, 768, 24, 12, 16, "t" },
};
static const struct rdc_compat_edge EDGES[] = {
	{ "gfx1150", "gfx1100", 1, "vgpr-fit+point-sample", "t" },
	{ "gfx1102", "gfx1100", 1, "msaa-load+mad-intra-fwd", "t" },
	{ "gfx1103", "gfx1100", 1, "no-such-word", "t" },
	{ "gfx1101", "gfx1100", 1, "none", "t" },
};

static struct rdc_tables tables(void)
{
	struct rdc_tables t = {
		.isa = ISA, .n_isa = sizeof ISA / sizeof ISA[0],
		.edges = EDGES, .n_edges = sizeof EDGES / sizeof EDGES[0],
	};
	return t;
}

static int choose(const char *rel, const char *dev, struct rdc_choice *c)
{
	size_t n;
	uint8_t *b = load_fixture(rel, &n);
	if (!b)
		return -1;
	struct rdc_tables t = tables();
	struct rdc_target d;
	memset(&d, 0, sizeof d);
	assert_int_equal(rdc_target_parse(dev, (size_t)-1, &d, NULL), 0);
	struct rdc_diag dg;
	rdc_diag_clear(&dg);
	memset(c, 0, sizeof *c);
	int rc = rdc_policy_choose_codeobj(&t, &d, b, n, RDC_POLICY_KERNELS, c, &dg);
	free(b);
	return rc;
}

static const struct rdc_kernel_verdict *verdict(const struct rdc_choice *c, const char *name)
{
	for (size_t i = 0; i < c->n_kernels; i++)
		if (!strcmp(c->kernels[i].kernel, name))
			return &c->kernels[i];
	fail_msg("no verdict for %s", name);
	return NULL;
}

static void test_policy_point_sample(void **state)
{
	(void)state;
	struct rdc_choice c;
	if (choose("codeobj/isa-gfx1100.co", "gfx1150", &c) < 0) {
		print_message("skipped: a fixture this test reads is missing (make fixtures)\n");
		skip();
		return;
	}
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_non_null(strstr(c.reason, "sampler"));
	assert_non_null(strstr(c.reason, "PointSampleAccel"));
	assert_int_equal(c.n_refused, 1);           /* only the sampling kernel */
	const struct rdc_kernel_verdict *v = verdict(&c, "sampler");
	assert_false(v->ok);
	assert_string_equal(v->check, "point-sample");
	assert_non_null(strstr(v->reason, "image_sample at +0x"));
	assert_non_null(strstr(v->reason, "#127991"));
	assert_true(verdict(&c, "plain")->ok);
	assert_true(verdict(&c, "mad64")->ok);      /* not this edge's class */
	assert_true(verdict(&c, "msaa")->ok);
	rdc_choice_free(&c);

	/* The same edge, code without image samples: mapped. */
	assert_int_equal(choose("co/gfx1100.co", "gfx1150", &c), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	assert_int_equal(c.n_refused, 0);
	rdc_choice_free(&c);
}

static void test_policy_msaa_mad(void **state)
{
	(void)state;
	struct rdc_choice c;
	if (choose("codeobj/isa-gfx1100.co", "gfx1102", &c) < 0) {
		print_message("skipped: a fixture this test reads is missing (make fixtures)\n");
		skip();
		return;
	}
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_int_equal(c.n_refused, 2);
	assert_true(verdict(&c, "sampler")->ok);
	assert_non_null(strstr(verdict(&c, "msaa")->reason, "MSAALoadDstSelBug"));
	/* clang 15 predates #89936: held to the check, producer named. */
	const struct rdc_kernel_verdict *v = verdict(&c, "mad64");
	assert_non_null(strstr(v->reason, "MADIntraFwdBug"));
	assert_non_null(strstr(v->reason, "clang version 15"));
	rdc_choice_free(&c);
}

static void test_policy_unknown_word(void **state)
{
	(void)state;
	struct rdc_choice c;
	if (choose("co/gfx1100.co", "gfx1103", &c) < 0) {
		print_message("skipped: a fixture this test reads is missing (make fixtures)\n");
		skip();
		return;
	}
	assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
	assert_non_null(strstr(c.reason, "'no-such-word'"));
	rdc_choice_free(&c);
	/* An edge without instruction conditions decodes nothing and maps. */
	assert_int_equal(choose("codeobj/isa-gfx1100.co", "gfx1101", &c), 0);
	assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
	rdc_choice_free(&c);
}

/* LLVM 22's own image-sample code for gfx1153 and gfx11-generic (no
 * PointSampleAccel waits) on gfx1150 edges with point-sample: only the
 * sampling kernel is refused; the same code on the gfx1153 card is native. */
static const struct rdc_isa ISA115[] = {
	{ "gfx1150", "rdna3.5", 0x43, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx1153", "rdna3.5", 0x58, false, "gfx11-generic", 0, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
	{ "gfx11-generic", "rdna3", 0x54, true, NULL, 1, 32, false, false, 65536, 1024, 512, 16, 8, 16, "t" },
};
static const struct rdc_compat_edge EDGES115[] = {
	{ "gfx1150", "gfx11-generic", 1, "point-sample", "t" },
	{ "gfx1150", "gfx1153", 2, "point-sample", "t" },
	{ "gfx1153", "gfx11-generic", 1, "none", "t" },
};

static void test_policy_llvm22_texture(void **state)
{
	(void)state;
	struct rdc_tables t = {
		.isa = ISA115, .n_isa = sizeof ISA115 / sizeof ISA115[0],
		.edges = EDGES115, .n_edges = sizeof EDGES115 / sizeof EDGES115[0],
	};
	const char *objs[] = { "codeobj/tex-gfx1153.co", "codeobj/tex-gfx11-generic.co" };
	for (size_t o = 0; o < 2; o++) {
		size_t n;
		uint8_t *b = fixture_or_skip(objs[o], "the rocm-7.2 root's clang 22", &n);
		if (!b)
			return;
		struct rdc_target d;
		memset(&d, 0, sizeof d);
		assert_int_equal(rdc_target_parse("gfx1150", (size_t)-1, &d, NULL), 0);
		struct rdc_choice c;
		memset(&c, 0, sizeof c);
		assert_int_equal(rdc_policy_choose_codeobj(&t, &d, b, n, RDC_POLICY_KERNELS, &c, NULL), 0);
		assert_int_equal(c.verdict, RDC_VERDICT_MISSING);
		assert_int_equal(c.n_refused, 1);
		assert_string_equal(verdict(&c, "sampler")->check, "point-sample");
		assert_non_null(strstr(verdict(&c, "sampler")->reason, "image_sample at +0x"));
		assert_true(verdict(&c, "plain")->ok);
		rdc_choice_free(&c);
		/* With RDC_POLICY_HOLD the entry runs, the sampling kernel held:
		 * renamed in the object the card gets, its descriptor with it. */
		memset(&c, 0, sizeof c);
		assert_int_equal(rdc_policy_choose_codeobj(&t, &d, b, n, RDC_POLICY_KERNELS | RDC_POLICY_HOLD, &c,
							   NULL), 0);
		assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
		assert_int_equal(c.n_refused, 0);
		assert_int_equal(c.n_held, 1);
		assert_true(verdict(&c, "sampler")->held);
		assert_false(verdict(&c, "plain")->held);
		assert_true(verdict(&c, "plain")->ok);
		assert_non_null(strstr(c.reason, "1 of 2 kernels pass and 1 is held"));
		assert_true(c.n_hide >= 3);   /* .name, .symbol and at least the descriptor symbol */
		uint8_t *h = malloc(n);
		assert_non_null(h);
		memcpy(h, b, n);
		for (size_t k = 0; k < c.n_hide; k++) {
			assert_int_equal(c.hide[k].len, 1);
			assert_true(c.hide[k].offset < n);
			h[c.hide[k].offset] = c.hide[k].bytes[0];
		}
		rdc_choice_free(&c);
		struct rdc_codeobj co;
		assert_int_equal(rdc_codeobj_parse(h, n, RDC_CO_DESCRIPTORS, &co, NULL), 0);
		size_t seen = 0;
		for (size_t k = 0; k < co.n_kernels; k++) {
			const struct rdc_kernel *kk = &co.kernels[k];
			assert_true(kk->kd.present);   /* .symbol names a descriptor symbol that exists */
			if (!strcmp(kk->name, "!ampler")) {
				assert_string_equal(kk->symbol, "!ampler.kd");
				seen++;
			}
			assert_string_not_equal(kk->name, "sampler");
		}
		assert_int_equal(seen, 1);
		rdc_codeobj_free(&co);
		/* the same patches from the bytes, as the shim computes them where
		 * the decision's are not at hand */
		struct rdc_patch *hp = NULL;
		size_t nh = 0, held = 0;
		assert_int_equal(rdc_policy_hold_patches(&t, "gfx1150", b, n, b, n, &hp, &nh, &held, NULL), 0);
		assert_int_equal(held, 1);
		for (size_t k = 0; k < nh; k++)
			assert_int_equal(h[hp[k].offset], hp[k].bytes[0]);
		free(hp);
		char **names = NULL;
		assert_int_equal(rdc_policy_held_kernels(&t, "gfx1150", b, n, &names, &nh, NULL), 0);
		assert_int_equal(nh, 1);
		assert_string_equal(names[0], "sampler");
		free(names);
		/* a name no kernel has, and a renamed one asked again: refused */
		const char *none[] = { "no_such_kernel" };
		struct rdc_diag dd = { 0 };
		assert_int_equal(rdc_codeobj_hide_patches(b, n, none, 1, &hp, &nh, &dd), RDC_E_UNSUPPORTED);
		assert_non_null(strstr(dd.msg, "no_such_kernel"));
		const char *again[] = { "sampler" };
		assert_int_equal(rdc_codeobj_hide_patches(h, n, again, 1, &hp, &nh, NULL), RDC_E_UNSUPPORTED);
		free(h);
		/* On the gfx1153 card the same code is clean. */
		assert_int_equal(rdc_target_parse("gfx1153", (size_t)-1, &d, NULL), 0);
		memset(&c, 0, sizeof c);
		assert_int_equal(rdc_policy_choose_codeobj(&t, &d, b, n, RDC_POLICY_KERNELS, &c, NULL), 0);
		assert_true(c.verdict == RDC_VERDICT_NATIVE || c.verdict == RDC_VERDICT_MAPPED);
		assert_int_equal(c.n_refused, 0);
		rdc_choice_free(&c);
		free(b);
	}
}

/* A candidate that runs only with kernels held is kept aside: a later
 * candidate that passes whole is chosen over it, and without one the held
 * candidate is; the other order of ranks changes nothing of that. */
static void test_policy_held_order(void **state)
{
	(void)state;
	size_t n1, n2;
	uint8_t *a = fixture_or_skip("codeobj/tex-gfx1153.co", "the rocm-7.2 root's clang 22", &n1);
	if (!a)
		return;
	uint8_t *g = fixture_or_skip("codeobj/tex-gfx11-generic.co", "the rocm-7.2 root's clang 22", &n2);
	if (!g) {
		free(a);
		return;
	}
	struct rdc_bundle_input in[] = {
		{ "hipv4-amdgcn-amd-amdhsa--gfx1153", a, n1 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx11-generic", g, n2 },
	};
	uint8_t *bb = NULL;
	size_t bn = 0;
	assert_int_equal(rdc_bundle_write(in, 2, 4096, &bb, &bn, NULL), 0);
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse(bb, bn, &b, NULL), 0);
	/* gfx1153 first (held: point-sample), generic second without condition */
	static const struct rdc_compat_edge clean_later[] = {
		{ "gfx1150", "gfx1153", 1, "point-sample", "t" },
		{ "gfx1150", "gfx11-generic", 2, "none", "t" },
	};
	/* both need holding: the first in rank order is taken */
	static const struct rdc_compat_edge both_held[] = {
		{ "gfx1150", "gfx1153", 1, "point-sample", "t" },
		{ "gfx1150", "gfx11-generic", 2, "point-sample", "t" },
	};
	struct rdc_target d;
	memset(&d, 0, sizeof d);
	assert_int_equal(rdc_target_parse("gfx1150", (size_t)-1, &d, NULL), 0);
	for (int k = 0; k < 2; k++) {
		struct rdc_tables t = { .isa = ISA115, .n_isa = sizeof ISA115 / sizeof ISA115[0],
					.edges = k ? both_held : clean_later, .n_edges = 2 };
		struct rdc_choice c;
		memset(&c, 0, sizeof c);
		assert_int_equal(rdc_policy_choose(&t, &d, &b, RDC_POLICY_KERNELS | RDC_POLICY_HOLD, &c, NULL), 0);
		assert_int_equal(c.verdict, RDC_VERDICT_MAPPED);
		assert_string_equal(c.chosen.proc, k ? "gfx1153" : "gfx11-generic");
		assert_int_equal(c.n_held, k ? 1 : 0);
		assert_int_equal(c.n_hide == 0, k == 0);
		rdc_choice_free(&c);
	}
	rdc_bundle_free(&b);
	free(bb);
	free(a);
	free(g);
}

/* Code the runtime loads by itself: reported, per kernel. */
static void test_isa_report(void **state)
{
	(void)state;
	size_t n;
	uint8_t *b = fixture_or_skip("codeobj/isa-gfx1100.co", NULL, &n);
	if (!b)
		return;
	struct rdc_tables t = tables();
	struct rdc_isa_report r;
	assert_int_equal(rdc_policy_isa_check(&t, "gfx1150", b, n, &r), 0);
	assert_int_equal(r.n_lacking, 1);
	assert_string_equal(r.first_kernel, "sampler");
	assert_string_equal(r.first_check, "point-sample");
	assert_int_equal(rdc_policy_isa_check(&t, "gfx1101", b, n, &r), 0);  /* condition none */
	assert_int_equal(r.n_lacking, 0);
	assert_int_equal(rdc_policy_isa_check(&t, "gfx1103", b, n, &r), 0);  /* unknown word */
	assert_int_equal(r.n_lacking, r.n_kernels);
	assert_non_null(strstr(r.first_reason, "no-such-word"));
	assert_true(rdc_policy_isa_check(&t, "gfx1150", b, 100, &r) < 0);  /* unreadable */
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_words),
		cmocka_unit_test(test_classify_gfx1100),
		cmocka_unit_test(test_classify_gfx1030),
		cmocka_unit_test(test_classify_truncated),
		cmocka_unit_test(test_classify_padding),
		cmocka_unit_test(test_producer_window),
		cmocka_unit_test(test_policy_point_sample),
		cmocka_unit_test(test_policy_held_order),
		cmocka_unit_test(test_policy_msaa_mad),
		cmocka_unit_test(test_policy_unknown_word),
		cmocka_unit_test(test_isa_report),
		cmocka_unit_test(test_policy_llvm22_texture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
