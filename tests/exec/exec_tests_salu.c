/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_salu.c — single-instruction tests of scalar ALU, scalar control, SMEM and the scalar float instructions (SOP1/SOP2/SOPC/SOPK/SOPP/SMEM).
 * References follow the ISA guides' pseudocode, written here in plain C.
 *
 * Most tests are table-driven: a loop over the 32 lanes reads one lane's
 * inputs into SGPRs (v_readlane with the lane number in s30), runs every
 * operation of the table on them and puts each result back into that
 * lane of its output VGPR (v_writelane), so each lane checks one set of
 * scalar inputs.  The SGPRs of a lane: A = s[10:11] (v1, v2), B = s[12:13]
 * (v3, v4), C = s14 (v5).  Before each operation the destination s[16:17]
 * holds B and SCC is bit i of C (s_bitcmp1_b32), i the operation's index;
 * SCC after it goes to bit i of the last output, so operations that must
 * leave SCC alone are checked too.  s[4:7] (the buffer pointers) are kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_harness.h"

/* ---- the lanes' inputs ----------------------------------------------------------------- */

/* Edge values first: zeros, all ones, the signed limits, equal operands,
 * shift counts and bitfields past the width, the SOPK constant's
 * sign- and zero-extended forms; random dwords after lane 15 (lanes 8-15
 * keep B small, a shift count or a bitfield's offset and width). */
static void init_s(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	static const uint32_t e[8][4] = {
		{ 0, 0, 0, 0 },
		{ ~0u, ~0u, ~0u, ~0u },
		{ 0x80000000u, 0x80000000u, 1, 0 },
		{ 0x12345678u, 0x9abcdef0u, 0x12345678u, 0x9abcdef0u },
		{ 0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu },
		{ 0x80000000u, 0, 0xffffffffu, 0xffffffffu },
		{ 0xf0f00f0fu, 0x00ff00ffu, 33, 0 },
		{ 0xffff8000u, 0x00008000u, 0xffff8000u, 0 },
	};
	if (lane < 8)
		memcpy(in, e[lane], 4 * (nin < 4 ? nin : 4));
	else if (lane < 16 && nin > 2)
		in[2] = (xt_rand(lane, 9, 7) & 0x007f003fu) | (lane == 8 ? 0x8000u : lane == 9 ? 0x20u : 0);
	if (lane == 10 && nin > 2)
		in[2] = 0x00008000u;
	if (lane == 11 && nin > 2)
		in[2] = 0x00007fffu;
	if (lane == 12 && nin > 2)
		in[2] = 0xffff7fffu;
	if (lane == 13 && nin > 2)
		in[2] = 0x00400010u, in[1] |= 0x80000000u; /* bfe: width 64 at offset 16 of a negative A */
	if (lane == 14 && nin > 1)
		in[1] = 0; /* 64-bit A with a zero high half */
	if (lane == 15 && nin > 1)
		in[0] = 0x11110000u, in[1] = 0x0000f000u; /* quads */
	if (lane == 16 && nin > 2)
		in[2] = 0x80000010u; /* s_addk_i32 of a negative constant overflows */
}

/* ---- table-driven loops ----------------------------------------------------------------- */

struct sop {
	const char *asm10;  /* the instruction as gfx1030 writes it (NULL: not on gfx1030) */
	const char *asm11;  /* on gfx1100 (NULL: asm10; "": not there) */
	unsigned dw;        /* destination dwords written back (0: SCC only) */
	bool noscc;         /* SCC is not checked (wave32's view of a 64-bit EXEC op) */
	/* a = A, b = B, d = the destination's old value (B); scc in and out */
	void (*ref)(uint64_t a, uint64_t b, uint64_t *d, bool *scc);
};

struct table {
	const struct sop *op;
	unsigned n;
	const char *pre;   /* before each operation (after the destination and SCC are set) */
	const char *post;  /* after it */
};

static bool present(const struct sop *s, unsigned gfx)
{
	const char *a = gfx == 11 && s->asm11 ? s->asm11 : s->asm10;
	return a && *a;
}

/* The loop for one generation into buf. */
static void table_body(const struct table *t, unsigned gfx, char *buf, size_t cap)
{
	size_t n = 0;
#define EMIT(...) (n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__))
	EMIT("s_mov_b32 s30, 0\n.Lloop:\n");
	for (unsigned k = 0; k < 5; k++)
		EMIT("v_readlane_b32 s%u, v%u, s30\n", 10 + k, 1 + k);
	EMIT("s_mov_b32 s18, 0\n");
	unsigned out = 40;
	for (unsigned i = 0; i < t->n; i++) {
		const struct sop *s = &t->op[i];
		if (!present(s, gfx)) {
			out += s->dw;
			continue;
		}
		EMIT("s_mov_b64 s[16:17], s[12:13]\ns_bitcmp1_b32 s14, %u\n%s", i, t->pre ? t->pre : "");
		EMIT("%s\n%s", gfx == 11 && s->asm11 ? s->asm11 : s->asm10, t->post ? t->post : "");
		if (!s->noscc)
			EMIT("s_cselect_b32 s19, 0x%x, 0\ns_or_b32 s18, s18, s19\n", 1u << i);
		for (unsigned j = 0; j < s->dw; j++)
			EMIT("v_writelane_b32 v%u, s%u, s30\n", out++, 16 + j);
	}
	EMIT("v_writelane_b32 v%u, s18, s30\n", out);
	EMIT("s_add_u32 s30, s30, 1\ns_cmp_lt_u32 s30, 32\ns_cbranch_scc1 .Lloop\n");
#undef EMIT
}

static void table_ref(const struct table *t, const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint64_t a = in[0] | (uint64_t)in[1] << 32, b = in[2] | (uint64_t)in[3] << 32;
	uint32_t sccw = 0;
	unsigned o = 0;
	for (unsigned i = 0; i < t->n; i++) {
		const struct sop *s = &t->op[i];
		if (!present(s, c->gfx)) {
			o += s->dw;
			continue;
		}
		uint64_t d = b;
		bool scc = (in[4] >> i) & 1;
		s->ref(a, b, &d, &scc);
		if (!s->noscc)
			sccw |= (uint32_t)scc << i;
		for (unsigned j = 0; j < s->dw; j++)
			out[o++] = (uint32_t)(d >> (32 * j));
	}
	out[o] = sccw;
}

/* The number of output dwords of a table. */
static unsigned table_nout(const struct table *t)
{
	unsigned n = 1;
	for (unsigned i = 0; i < t->n; i++)
		n += t->op[i].dw;
	return n;
}

#define A32 ((uint32_t)a)
#define B32 ((uint32_t)b)
#define OP(name, body) \
	static void name(uint64_t a, uint64_t b, uint64_t *d, bool *scc) \
	{ \
		(void)a, (void)b, (void)d, (void)scc; \
		body; \
	}
#define NZ32 (*scc = (uint32_t)*d != 0)
#define NZ64 (*scc = *d != 0)

/* ---- SOP2 arithmetic ---- */
OP(r_add_u32, { uint64_t t = (uint64_t)A32 + B32; *d = (uint32_t)t; *scc = t >= 0x100000000ull; })
OP(r_sub_u32, { *d = (uint32_t)(A32 - B32); *scc = B32 > A32; })
OP(r_add_i32, { uint32_t t = A32 + B32; *d = t; *scc = (A32 >> 31) == (B32 >> 31) && (A32 >> 31) != (t >> 31); })
OP(r_sub_i32, { uint32_t t = A32 - B32; *d = t; *scc = (A32 >> 31) != (B32 >> 31) && (A32 >> 31) != (t >> 31); })
OP(r_addc_u32, { uint64_t t = (uint64_t)A32 + B32 + *scc; *d = (uint32_t)t; *scc = t >= 0x100000000ull; })
OP(r_subb_u32, { uint32_t t = A32 - B32 - *scc; *scc = (uint64_t)B32 + *scc > A32; *d = t; })
OP(r_min_i32, { *scc = (int32_t)A32 < (int32_t)B32; *d = *scc ? A32 : B32; })
OP(r_min_u32, { *scc = A32 < B32; *d = *scc ? A32 : B32; })
OP(r_max_i32, { *scc = (int32_t)A32 >= (int32_t)B32; *d = *scc ? A32 : B32; })
OP(r_max_u32, { *scc = A32 >= B32; *d = *scc ? A32 : B32; })
OP(r_absdiff_i32, { int32_t t = (int32_t)(A32 - B32); *d = (uint32_t)(t < 0 ? 0u - (uint32_t)t : (uint32_t)t); NZ32; })
OP(r_mul_i32, { *d = A32 * B32; })
OP(r_mul_hi_u32, { *d = (uint32_t)(((uint64_t)A32 * B32) >> 32); })
OP(r_mul_hi_i32, { *d = (uint32_t)((uint64_t)((int64_t)(int32_t)A32 * (int32_t)B32) >> 32); })
OP(r_cselect_b32, { *d = *scc ? A32 : B32; })
OP(r_cselect_b64, { *d = *scc ? a : b; })

static const struct sop t_arith[] = {
	{ "s_add_u32 s16, s10, s12", NULL, 1, false, r_add_u32 },
	{ "s_sub_u32 s16, s10, s12", NULL, 1, false, r_sub_u32 },
	{ "s_add_i32 s16, s10, s12", NULL, 1, false, r_add_i32 },
	{ "s_sub_i32 s16, s10, s12", NULL, 1, false, r_sub_i32 },
	{ "s_addc_u32 s16, s10, s12", NULL, 1, false, r_addc_u32 },
	{ "s_subb_u32 s16, s10, s12", NULL, 1, false, r_subb_u32 },
	{ "s_min_i32 s16, s10, s12", NULL, 1, false, r_min_i32 },
	{ "s_min_u32 s16, s10, s12", NULL, 1, false, r_min_u32 },
	{ "s_max_i32 s16, s10, s12", NULL, 1, false, r_max_i32 },
	{ "s_max_u32 s16, s10, s12", NULL, 1, false, r_max_u32 },
	{ "s_absdiff_i32 s16, s10, s12", NULL, 1, false, r_absdiff_i32 },
	{ "s_mul_i32 s16, s10, s12", NULL, 1, false, r_mul_i32 },
	{ "s_mul_hi_u32 s16, s10, s12", NULL, 1, false, r_mul_hi_u32 },
	{ "s_mul_hi_i32 s16, s10, s12", NULL, 1, false, r_mul_hi_i32 },
	{ "s_cselect_b32 s16, s10, s12", NULL, 1, false, r_cselect_b32 },
	{ "s_cselect_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_cselect_b64 },
};

/* ---- shifts, shift-and-add, bitfield masks ---- */
OP(r_lshl_b32, { *d = A32 << (B32 & 31); NZ32; })
OP(r_lshr_b32, { *d = A32 >> (B32 & 31); NZ32; })
OP(r_ashr_i32, { *d = (uint32_t)((int32_t)A32 >> (B32 & 31)); NZ32; })
OP(r_lshl_b64, { *d = a << (B32 & 63); NZ64; })
OP(r_lshr_b64, { *d = a >> (B32 & 63); NZ64; })
OP(r_ashr_i64, { *d = (uint64_t)((int64_t)a >> (B32 & 63)); NZ64; })
static void lshl_add(uint64_t a, uint64_t b, uint64_t *d, bool *scc, unsigned n)
{
	uint64_t t = ((uint64_t)A32 << n) + B32;
	*d = (uint32_t)t;
	*scc = t >= 0x100000000ull;
}
OP(r_lshl1_add, lshl_add(a, b, d, scc, 1))
OP(r_lshl2_add, lshl_add(a, b, d, scc, 2))
OP(r_lshl3_add, lshl_add(a, b, d, scc, 3))
OP(r_lshl4_add, lshl_add(a, b, d, scc, 4))
OP(r_bfm_b32, { *d = (uint32_t)(((1ull << (A32 & 31)) - 1) << (B32 & 31)); })
OP(r_bfm_b64, { unsigned w = A32 & 63; *d = (w ? ~0ull >> (64 - w) : 0) << (B32 & 63); })

static const struct sop t_shift[] = {
	{ "s_lshl_b32 s16, s10, s12", NULL, 1, false, r_lshl_b32 },
	{ "s_lshr_b32 s16, s10, s12", NULL, 1, false, r_lshr_b32 },
	{ "s_ashr_i32 s16, s10, s12", NULL, 1, false, r_ashr_i32 },
	{ "s_lshl_b64 s[16:17], s[10:11], s12", NULL, 2, false, r_lshl_b64 },
	{ "s_lshr_b64 s[16:17], s[10:11], s12", NULL, 2, false, r_lshr_b64 },
	{ "s_ashr_i64 s[16:17], s[10:11], s12", NULL, 2, false, r_ashr_i64 },
	{ "s_lshl1_add_u32 s16, s10, s12", NULL, 1, false, r_lshl1_add },
	{ "s_lshl2_add_u32 s16, s10, s12", NULL, 1, false, r_lshl2_add },
	{ "s_lshl3_add_u32 s16, s10, s12", NULL, 1, false, r_lshl3_add },
	{ "s_lshl4_add_u32 s16, s10, s12", NULL, 1, false, r_lshl4_add },
	{ "s_bfm_b32 s16, s10, s12", NULL, 1, false, r_bfm_b32 },
	{ "s_bfm_b64 s[16:17], s10, s12", NULL, 2, false, r_bfm_b64 },
};
/* s_bfm: S0 is the width, S1 the offset. */

/* ---- bitfield extract, 16-bit packs ---- */
/* S1[4:0] (64-bit: [5:0]) is the offset, S1[22:16] the width. */
static uint64_t field(uint64_t v, unsigned off, unsigned w, unsigned bits)
{
	v >>= off;
	return w >= bits ? v : v & ((1ull << w) - 1);
}
static uint64_t sext_from(uint64_t v, unsigned w, unsigned bits)
{
	if (w == 0)
		return 0;
	if (w >= bits)
		return v;
	return (v >> (w - 1)) & 1 ? v | ~0ull << w : v;
}
OP(r_bfe_u32, { *d = field(A32, B32 & 31, (B32 >> 16) & 0x7f, 32); NZ32; })
/* signed: tmp = (S0.i >> offset) & mask, an arithmetic shift, then sign-extended from the field's top bit */
OP(r_bfe_i32, { unsigned w = (B32 >> 16) & 0x7f; uint32_t t = (uint32_t)((int32_t)A32 >> (B32 & 31));
		*d = (uint32_t)sext_from(w >= 32 ? t : t & ((1u << w) - 1), w, 32); NZ32; })
OP(r_bfe_u64, { *d = field(a, B32 & 63, (B32 >> 16) & 0x7f, 64); NZ64; })
OP(r_bfe_i64, { unsigned w = (B32 >> 16) & 0x7f; uint64_t t = (uint64_t)((int64_t)a >> (B32 & 63));
		*d = sext_from(w >= 64 ? t : t & ((1ull << w) - 1), w, 64); NZ64; })
OP(r_pack_ll, { *d = (A32 & 0xffff) | B32 << 16; })
OP(r_pack_lh, { *d = (A32 & 0xffff) | (B32 & 0xffff0000u); })
OP(r_pack_hh, { *d = A32 >> 16 | (B32 & 0xffff0000u); })
OP(r_pack_hl, { *d = A32 >> 16 | B32 << 16; })

static const struct sop t_bfe[] = {
	{ "s_bfe_u32 s16, s10, s12", NULL, 1, false, r_bfe_u32 },
	{ "s_bfe_i32 s16, s10, s12", NULL, 1, false, r_bfe_i32 },
	{ "s_bfe_u64 s[16:17], s[10:11], s12", NULL, 2, false, r_bfe_u64 },
	{ "s_bfe_i64 s[16:17], s[10:11], s12", NULL, 2, false, r_bfe_i64 },
	{ "s_pack_ll_b32_b16 s16, s10, s12", NULL, 1, false, r_pack_ll },
	{ "s_pack_lh_b32_b16 s16, s10, s12", NULL, 1, false, r_pack_lh },
	{ "s_pack_hh_b32_b16 s16, s10, s12", NULL, 1, false, r_pack_hh },
	{ NULL, "s_pack_hl_b32_b16 s16, s10, s12", 1, false, r_pack_hl },
};

/* ---- bitwise logic (gfx10 names; gfx11 accepts them as aliases of and_not1 ...) ---- */
OP(r_and32, { *d = A32 & B32; NZ32; })
OP(r_or32, { *d = A32 | B32; NZ32; })
OP(r_xor32, { *d = A32 ^ B32; NZ32; })
OP(r_andn2_32, { *d = A32 & ~B32; NZ32; })
OP(r_orn2_32, { *d = (uint32_t)(A32 | ~B32); NZ32; })
OP(r_nand32, { *d = (uint32_t)~(A32 & B32); NZ32; })
OP(r_nor32, { *d = (uint32_t)~(A32 | B32); NZ32; })
OP(r_xnor32, { *d = (uint32_t)~(A32 ^ B32); NZ32; })
OP(r_and64, { *d = a & b; NZ64; })
OP(r_or64, { *d = a | b; NZ64; })
OP(r_xor64, { *d = a ^ b; NZ64; })
OP(r_andn2_64, { *d = a & ~b; NZ64; })
OP(r_orn2_64, { *d = a | ~b; NZ64; })
OP(r_nand64, { *d = ~(a & b); NZ64; })
OP(r_nor64, { *d = ~(a | b); NZ64; })
OP(r_xnor64, { *d = ~(a ^ b); NZ64; })

static const struct sop t_logic[] = {
	{ "s_and_b32 s16, s10, s12", NULL, 1, false, r_and32 },
	{ "s_or_b32 s16, s10, s12", NULL, 1, false, r_or32 },
	{ "s_xor_b32 s16, s10, s12", NULL, 1, false, r_xor32 },
	{ "s_andn2_b32 s16, s10, s12", NULL, 1, false, r_andn2_32 },
	{ "s_orn2_b32 s16, s10, s12", NULL, 1, false, r_orn2_32 },
	{ "s_nand_b32 s16, s10, s12", NULL, 1, false, r_nand32 },
	{ "s_nor_b32 s16, s10, s12", NULL, 1, false, r_nor32 },
	{ "s_xnor_b32 s16, s10, s12", NULL, 1, false, r_xnor32 },
	{ "s_and_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_and64 },
	{ "s_or_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_or64 },
	{ "s_xor_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_xor64 },
	{ "s_andn2_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_andn2_64 },
	{ "s_orn2_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_orn2_64 },
	{ "s_nand_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_nand64 },
	{ "s_nor_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_nor64 },
	{ "s_xnor_b64 s[16:17], s[10:11], s[12:13]", NULL, 2, false, r_xnor64 },
};

/* ---- SOP1 moves and whole-value ops ---- */
static uint64_t brev(uint64_t v, unsigned bits)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < bits; i++)
		r |= ((v >> i) & 1) << (bits - 1 - i);
	return r;
}
OP(r_mov_b64, { *d = a; })
OP(r_cmov_b32, { if (*scc) *d = (*d & ~0xffffffffull) | A32; })
OP(r_cmov_b64, { if (*scc) *d = a; })
OP(r_not_b32, { *d = (uint32_t)~A32; NZ32; })
OP(r_not_b64, { *d = ~a; NZ64; })
OP(r_brev_b32, { *d = brev(A32, 32); })
OP(r_brev_b64, { *d = brev(a, 64); })
OP(r_sext8, { *d = (uint32_t)(int32_t)(int8_t)(A32 & 0xff); })
OP(r_sext16, { *d = (uint32_t)(int32_t)(int16_t)(A32 & 0xffff); })
OP(r_abs, { *d = (int32_t)A32 < 0 ? 0u - A32 : A32; NZ32; })
OP(r_bitrep, { uint64_t r = 0; for (unsigned i = 0; i < 32; i++) if ((A32 >> i) & 1) r |= 3ull << (2 * i); *d = r; })

static const struct sop t_sop1[] = {
	{ "s_mov_b64 s[16:17], s[10:11]", NULL, 2, false, r_mov_b64 },
	{ "s_cmov_b32 s16, s10", NULL, 1, false, r_cmov_b32 },
	{ "s_cmov_b64 s[16:17], s[10:11]", NULL, 2, false, r_cmov_b64 },
	{ "s_not_b32 s16, s10", NULL, 1, false, r_not_b32 },
	{ "s_not_b64 s[16:17], s[10:11]", NULL, 2, false, r_not_b64 },
	{ "s_brev_b32 s16, s10", NULL, 1, false, r_brev_b32 },
	{ "s_brev_b64 s[16:17], s[10:11]", NULL, 2, false, r_brev_b64 },
	{ "s_sext_i32_i8 s16, s10", NULL, 1, false, r_sext8 },
	{ "s_sext_i32_i16 s16, s10", NULL, 1, false, r_sext16 },
	{ "s_abs_i32 s16, s10", NULL, 1, false, r_abs },
	{ "s_bitreplicate_b64_b32 s[16:17], s10", NULL, 2, false, r_bitrep },
};

/* ---- bit counts and searches (gfx10 names: s_ff1 = ctz, s_flbit = clz / cls) ---- */
static int32_t first1(uint64_t v, unsigned bits)
{
	for (unsigned i = 0; i < bits; i++)
		if ((v >> i) & 1)
			return (int32_t)i;
	return -1;
}
static int32_t lead1(uint64_t v, unsigned bits)
{
	for (unsigned i = 0; i < bits; i++)
		if ((v >> (bits - 1 - i)) & 1)
			return (int32_t)i;
	return -1;
}
static int32_t leadsign(uint64_t v, unsigned bits)
{
	unsigned s = (unsigned)(v >> (bits - 1)) & 1;
	for (unsigned i = 1; i < bits; i++)
		if (((v >> (bits - 1 - i)) & 1) != s)
			return (int32_t)i;
	return -1;
}
static unsigned ones(uint64_t v) { unsigned n = 0; for (; v; v &= v - 1) n++; return n; }
OP(r_bcnt0_32, { *d = 32 - ones(A32); NZ32; })
OP(r_bcnt0_64, { *d = 64 - ones(a); NZ32; })
OP(r_bcnt1_32, { *d = ones(A32); NZ32; })
OP(r_bcnt1_64, { *d = ones(a); NZ32; })
OP(r_ctz32, { *d = (uint32_t)first1(A32, 32); })
OP(r_ctz64, { *d = (uint32_t)first1(a, 64); })
OP(r_clz32, { *d = (uint32_t)lead1(A32, 32); })
OP(r_clz64, { *d = (uint32_t)lead1(a, 64); })
OP(r_cls32, { *d = (uint32_t)leadsign(A32, 32); })
OP(r_cls64, { *d = (uint32_t)leadsign(a, 64); })
OP(r_ff0_32, { *d = (uint32_t)first1(~A32 & 0xffffffffu, 32); })
OP(r_ff0_64, { *d = (uint32_t)first1(~a, 64); })

static const struct sop t_bits[] = {
	{ "s_bcnt0_i32_b32 s16, s10", NULL, 1, false, r_bcnt0_32 },
	{ "s_bcnt0_i32_b64 s16, s[10:11]", NULL, 1, false, r_bcnt0_64 },
	{ "s_bcnt1_i32_b32 s16, s10", NULL, 1, false, r_bcnt1_32 },
	{ "s_bcnt1_i32_b64 s16, s[10:11]", NULL, 1, false, r_bcnt1_64 },
	{ "s_ff1_i32_b32 s16, s10", NULL, 1, false, r_ctz32 },
	{ "s_ff1_i32_b64 s16, s[10:11]", NULL, 1, false, r_ctz64 },
	{ "s_flbit_i32_b32 s16, s10", NULL, 1, false, r_clz32 },
	{ "s_flbit_i32_b64 s16, s[10:11]", NULL, 1, false, r_clz64 },
	{ "s_flbit_i32 s16, s10", NULL, 1, false, r_cls32 },
	{ "s_flbit_i32_i64 s16, s[10:11]", NULL, 1, false, r_cls64 },
	{ "s_ff0_i32_b32 s16, s10", "", 1, false, r_ff0_32 },
	{ "s_ff0_i32_b64 s16, s[10:11]", "", 1, false, r_ff0_64 },
};

/* ---- single bits and quad masks ---- */
OP(r_bitset0_32, { *d &= ~(1ull << (A32 & 31)); })
OP(r_bitset0_64, { *d &= ~(1ull << (A32 & 63)); })
OP(r_bitset1_32, { *d |= 1ull << (A32 & 31); })
OP(r_bitset1_64, { *d |= 1ull << (A32 & 63); })
static uint64_t quads(uint64_t v, unsigned nq)
{
	uint64_t r = 0;
	for (unsigned q = 0; q < nq; q++)
		if ((v >> (4 * q)) & 0xf)
			r |= 1ull << q;
	return r;
}
static uint64_t wqm(uint64_t v, unsigned nq)
{
	uint64_t r = 0;
	for (unsigned q = 0; q < nq; q++)
		if ((v >> (4 * q)) & 0xf)
			r |= 0xfull << (4 * q);
	return r;
}
OP(r_quad32, { *d = quads(A32, 8); NZ64; })
OP(r_quad64, { *d = quads(a, 16); NZ64; })
OP(r_wqm32, { *d = wqm(A32, 8); NZ64; })
OP(r_wqm64, { *d = wqm(a, 16); NZ64; })

static const struct sop t_bitset[] = {
	{ "s_bitset0_b32 s16, s10", NULL, 1, false, r_bitset0_32 },
	{ "s_bitset0_b64 s[16:17], s10", NULL, 2, false, r_bitset0_64 },
	{ "s_bitset1_b32 s16, s10", NULL, 1, false, r_bitset1_32 },
	{ "s_bitset1_b64 s[16:17], s10", NULL, 2, false, r_bitset1_64 },
	{ "s_quadmask_b32 s16, s10", NULL, 1, false, r_quad32 },
	{ "s_quadmask_b64 s[16:17], s[10:11]", NULL, 2, false, r_quad64 },
	{ "s_wqm_b32 s16, s10", NULL, 1, false, r_wqm32 },
	{ "s_wqm_b64 s[16:17], s[10:11]", NULL, 2, false, r_wqm64 },
};

/* ---- SOPC compares ---- */
#define I32(x) ((int32_t)(uint32_t)(x))
OP(r_eq_i32, { *scc = A32 == B32; })
OP(r_lg_i32, { *scc = A32 != B32; })
OP(r_gt_i32, { *scc = I32(a) > I32(b); })
OP(r_ge_i32, { *scc = I32(a) >= I32(b); })
OP(r_lt_i32, { *scc = I32(a) < I32(b); })
OP(r_le_i32, { *scc = I32(a) <= I32(b); })
OP(r_gt_u32, { *scc = A32 > B32; })
OP(r_ge_u32, { *scc = A32 >= B32; })
OP(r_lt_u32, { *scc = A32 < B32; })
OP(r_le_u32, { *scc = A32 <= B32; })
OP(r_eq_u64, { *scc = a == b; })
OP(r_lg_u64, { *scc = a != b; })
OP(r_bitcmp0_32, { *scc = !((A32 >> (B32 & 31)) & 1); })
OP(r_bitcmp1_32, { *scc = (A32 >> (B32 & 31)) & 1; })
OP(r_bitcmp0_64, { *scc = !((a >> (B32 & 63)) & 1); })
OP(r_bitcmp1_64, { *scc = (a >> (B32 & 63)) & 1; })

static const struct sop t_cmp[] = {
	{ "s_cmp_eq_i32 s10, s12", NULL, 0, false, r_eq_i32 },
	{ "s_cmp_lg_i32 s10, s12", NULL, 0, false, r_lg_i32 },
	{ "s_cmp_gt_i32 s10, s12", NULL, 0, false, r_gt_i32 },
	{ "s_cmp_ge_i32 s10, s12", NULL, 0, false, r_ge_i32 },
	{ "s_cmp_lt_i32 s10, s12", NULL, 0, false, r_lt_i32 },
	{ "s_cmp_le_i32 s10, s12", NULL, 0, false, r_le_i32 },
	{ "s_cmp_eq_u32 s10, s12", NULL, 0, false, r_eq_i32 },
	{ "s_cmp_lg_u32 s10, s12", NULL, 0, false, r_lg_i32 },
	{ "s_cmp_gt_u32 s10, s12", NULL, 0, false, r_gt_u32 },
	{ "s_cmp_ge_u32 s10, s12", NULL, 0, false, r_ge_u32 },
	{ "s_cmp_lt_u32 s10, s12", NULL, 0, false, r_lt_u32 },
	{ "s_cmp_le_u32 s10, s12", NULL, 0, false, r_le_u32 },
	{ "s_cmp_eq_u64 s[10:11], s[12:13]", NULL, 0, false, r_eq_u64 },
	{ "s_cmp_lg_u64 s[10:11], s[12:13]", NULL, 0, false, r_lg_u64 },
	{ "s_bitcmp0_b32 s10, s12", NULL, 0, false, r_bitcmp0_32 },
	{ "s_bitcmp1_b32 s10, s12", NULL, 0, false, r_bitcmp1_32 },
	{ "s_bitcmp0_b64 s[10:11], s12", NULL, 0, false, r_bitcmp0_64 },
	{ "s_bitcmp1_b64 s[10:11], s12", NULL, 0, false, r_bitcmp1_64 },
};

/* ---- SOPK: the destination (B) against or with simm16 ---- */
#define K16 0x8000u /* as i32: -32768; as u32: 32768 */
#define KS ((int32_t)(int16_t)K16)
OP(r_cmpk_eq_i, { *scc = I32(b) == KS; })
OP(r_cmpk_lg_i, { *scc = I32(b) != KS; })
OP(r_cmpk_gt_i, { *scc = I32(b) > KS; })
OP(r_cmpk_ge_i, { *scc = I32(b) >= KS; })
OP(r_cmpk_lt_i, { *scc = I32(b) < KS; })
OP(r_cmpk_le_i, { *scc = I32(b) <= KS; })
OP(r_cmpk_eq_u, { *scc = B32 == K16; })
OP(r_cmpk_lg_u, { *scc = B32 != K16; })
OP(r_cmpk_gt_u, { *scc = B32 > K16; })
OP(r_cmpk_ge_u, { *scc = B32 >= K16; })
OP(r_cmpk_lt_u, { *scc = B32 < K16; })
OP(r_cmpk_le_u, { *scc = B32 <= K16; })
OP(r_movk, { *d = (*d & ~0xffffffffull) | (uint32_t)(int32_t)(int16_t)0xfedc; })
OP(r_cmovk, { if (*scc) *d = (*d & ~0xffffffffull) | (uint32_t)(int32_t)(int16_t)0x8001; })
/* s_addk_i32: SCC is the signed overflow of D + sext(K) */
static void r_addk(uint64_t a, uint64_t b, uint64_t *d, bool *scc)
{
	(void)a;
	uint32_t k = (uint32_t)(int32_t)(int16_t)0x9abc, t = B32 + k;
	*scc = (B32 >> 31) == (k >> 31) && (B32 >> 31) != (t >> 31);
	*d = t;
}
OP(r_mulk, { *d = B32 * (uint32_t)(int32_t)(int16_t)0xff9c; })

static const struct sop t_sopk[] = {
	{ "s_cmpk_eq_i32 s16, 0x8000", NULL, 0, false, r_cmpk_eq_i },
	{ "s_cmpk_lg_i32 s16, 0x8000", NULL, 0, false, r_cmpk_lg_i },
	{ "s_cmpk_gt_i32 s16, 0x8000", NULL, 0, false, r_cmpk_gt_i },
	{ "s_cmpk_ge_i32 s16, 0x8000", NULL, 0, false, r_cmpk_ge_i },
	{ "s_cmpk_lt_i32 s16, 0x8000", NULL, 0, false, r_cmpk_lt_i },
	{ "s_cmpk_le_i32 s16, 0x8000", NULL, 0, false, r_cmpk_le_i },
	{ "s_cmpk_eq_u32 s16, 0x8000", NULL, 0, false, r_cmpk_eq_u },
	{ "s_cmpk_lg_u32 s16, 0x8000", NULL, 0, false, r_cmpk_lg_u },
	{ "s_cmpk_gt_u32 s16, 0x8000", NULL, 0, false, r_cmpk_gt_u },
	{ "s_cmpk_ge_u32 s16, 0x8000", NULL, 0, false, r_cmpk_ge_u },
	{ "s_cmpk_lt_u32 s16, 0x8000", NULL, 0, false, r_cmpk_lt_u },
	{ "s_cmpk_le_u32 s16, 0x8000", NULL, 0, false, r_cmpk_le_u },
	{ "s_movk_i32 s16, 0xfedc", NULL, 1, false, r_movk },
	{ "s_cmovk_i32 s16, 0x8001", NULL, 1, false, r_cmovk },
	{ "s_addk_i32 s16, 0x9abc", NULL, 1, false, r_addk },
	{ "s_mulk_i32 s16, 0xff9c", NULL, 1, false, r_mulk },
};

/* ---- EXEC ops: EXEC = B before, the destination gets the old EXEC (wrexec:
 * the new one); the second dword written is the new EXEC.  In wave32 only
 * EXEC_LO exists for the lanes: the b64 forms are checked on their low
 * dwords and without SCC. ---- */
static void sx(uint64_t a, uint64_t b, uint64_t *d, bool *scc, unsigned op, bool wr, bool b64)
{
	uint32_t s = A32, e = B32, n;
	switch (op) {
	case 0: n = s & e; break;
	case 1: n = s | e; break;
	case 2: n = s ^ e; break;
	case 3: n = ~(s & e); break;
	case 4: n = ~(s | e); break;
	case 5: n = ~(s ^ e); break;
	case 6: n = ~s & e; break;  /* and_not0 (andn1) */
	case 7: n = ~s | e; break;  /* or_not0 (orn1) */
	case 8: n = s & ~e; break;  /* and_not1 (andn2) */
	default: n = s | ~e; break; /* or_not1 (orn2) */
	}
	*d = (uint64_t)n << 32 | (wr ? n : e);
	if (!b64)
		*scc = n != 0;
}
#define SX(name, op, wr) \
	OP(r_##name##_32x, sx(a, b, d, scc, op, wr, false)) \
	OP(r_##name##_64x, sx(a, b, d, scc, op, wr, true))
SX(and, 0, false)
SX(or, 1, false)
SX(xor, 2, false)
SX(nand, 3, false)
SX(nor, 4, false)
SX(xnor, 5, false)
SX(andn1, 6, false)
SX(orn1, 7, false)
SX(andn2, 8, false)
SX(orn2, 9, false)
SX(andn1w, 6, true)
SX(andn2w, 8, true)
#define SXE(name, r) \
	{ "s_" name "_b32 s16, s10", NULL, 2, false, r_##r##_32x }, \
	{ "s_" name "_b64 s[16:17], s[10:11]", NULL, 2, true, r_##r##_64x }

static const struct sop t_exec1[] = {
	SXE("and_saveexec", and), SXE("or_saveexec", or), SXE("xor_saveexec", xor),
	SXE("nand_saveexec", nand), SXE("nor_saveexec", nor), SXE("xnor_saveexec", xnor),
};
static const struct sop t_exec2[] = {
	SXE("andn1_saveexec", andn1), SXE("orn1_saveexec", orn1), SXE("andn2_saveexec", andn2),
	SXE("orn2_saveexec", orn2), SXE("andn1_wrexec", andn1w), SXE("andn2_wrexec", andn2w),
};
/* Sets EXEC_LO to B (s20 keeps the full mask); afterwards s17 gets the new
 * EXEC_LO and the full mask comes back (s_mov keeps SCC). */
#define EXEC_PRE "s_mov_b32 exec_lo, s12\n"
#define EXEC_POST "s_mov_b32 s17, exec_lo\ns_mov_b32 exec_lo, -1\n"

static const struct table tables[] = {
	{ t_arith, sizeof t_arith / sizeof t_arith[0], NULL, NULL },
	{ t_shift, sizeof t_shift / sizeof t_shift[0], NULL, NULL },
	{ t_bfe, sizeof t_bfe / sizeof t_bfe[0], NULL, NULL },
	{ t_logic, sizeof t_logic / sizeof t_logic[0], NULL, NULL },
	{ t_sop1, sizeof t_sop1 / sizeof t_sop1[0], NULL, NULL },
	{ t_bits, sizeof t_bits / sizeof t_bits[0], NULL, NULL },
	{ t_bitset, sizeof t_bitset / sizeof t_bitset[0], NULL, NULL },
	{ t_cmp, sizeof t_cmp / sizeof t_cmp[0], NULL, NULL },
	{ t_sopk, sizeof t_sopk / sizeof t_sopk[0], NULL, NULL },
	{ t_exec1, sizeof t_exec1 / sizeof t_exec1[0], EXEC_PRE, EXEC_POST },
	{ t_exec2, sizeof t_exec2 / sizeof t_exec2[0], EXEC_PRE, EXEC_POST },
};
#define NTABLES (sizeof tables / sizeof tables[0])
static char table_src[NTABLES][2][12288];

#define TREF(i) \
	static void ref_t##i(const struct xt_ctx *c, unsigned lane, uint32_t *out) \
	{ \
		table_ref(&tables[i], c, lane, out); \
	}
TREF(0) TREF(1) TREF(2) TREF(3) TREF(4) TREF(5) TREF(6) TREF(7) TREF(8) TREF(9) TREF(10)

extern const struct xt_test xt_tests_salu[];

void xt_salu_setup(void)
{
	for (unsigned i = 0; i < NTABLES; i++) {
		for (unsigned g = 0; g < 2; g++)
			table_body(&tables[i], 10 + g, table_src[i][g], sizeof table_src[i][g]);
		if (table_nout(&tables[i]) != xt_tests_salu[i].nout) {
			fprintf(stderr, "exec_tests_salu.c: %s has %u outputs, not %u\n", xt_tests_salu[i].name,
				table_nout(&tables[i]), xt_tests_salu[i].nout);
			abort();
		}
	}
}

/* nout by hand (a constant expression): table_nout() checks it in the tests below. */
#define TTEST(name, i, nout) \
	{ name, XT_BOTH, table_src[i][0], table_src[i][1], NULL, 5, nout, init_s, ref_t##i, XT_EXACT }

const struct xt_test xt_tests_salu[] = {
	TTEST("salu_arith", 0, 18),
	TTEST("salu_shift", 1, 17),
	TTEST("salu_bfe_pack", 2, 11),
	TTEST("salu_logic", 3, 25),
	TTEST("salu_sop1", 4, 17),
	TTEST("salu_bits", 5, 13),
	TTEST("salu_bitset_quad", 6, 13),
	TTEST("salu_cmp", 7, 1),
	TTEST("salu_sopk", 8, 5),
	TTEST("salu_saveexec", 9, 25),
	TTEST("salu_saveexec_not", 10, 25),
};
const unsigned xt_ntests_salu = sizeof xt_tests_salu / sizeof xt_tests_salu[0];
