/* SPDX-License-Identifier: MIT */
/*
 * sem_salu.c — scalar ALU: SOP2, SOP1, SOPC, SOPK arithmetic (not control
 * flow: sem_sctl.c).  Each format has one evaluator, a pure function of the
 * operation and its source values (and SCC) that says whether it knows the
 * operation: the handler calls it to execute, rdc_sem_salu calls it with
 * dummy values to learn what the engine covers, so the two cannot differ.
 */
#include <stdbool.h>
#include <stdint.h>

#include "wave.h"

struct sval {
	uint64_t d;     /* result */
	bool scc;       /* in: SCC; out: SCC (unchanged unless the op sets it) */
	bool wd;        /* the op writes its destination */
	bool d64;       /* destination is 64-bit */
};

static int popc64(uint64_t x) { return __builtin_popcountll(x); }

/* src64: bit 0 = src0 is 64-bit, bit 1 = src1. */
static unsigned sop2_src64(uint16_t op)
{
	switch (op) {
	case RDC_OP_S_AND_B64: case RDC_OP_S_OR_B64: case RDC_OP_S_XOR_B64: case RDC_OP_S_AND_NOT1_B64:
	case RDC_OP_S_OR_NOT1_B64: case RDC_OP_S_NAND_B64: case RDC_OP_S_NOR_B64: case RDC_OP_S_XNOR_B64:
	case RDC_OP_S_CSELECT_B64:
		return 3;
	case RDC_OP_S_LSHL_B64: case RDC_OP_S_LSHR_B64: case RDC_OP_S_ASHR_I64: case RDC_OP_S_BFE_U64:
	case RDC_OP_S_BFE_I64:
		return 1;
	default:
		return 0;
	}
}

static bool sop2_eval(uint16_t op, uint64_t a, uint64_t b, struct sval *r)
{
	uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
	uint64_t t;
	r->wd = true;
	r->d64 = false;
	switch (op) {
	case RDC_OP_S_ADD_U32: t = (uint64_t)a32 + b32; r->d = (uint32_t)t; r->scc = t >> 32; break;
	case RDC_OP_S_SUB_U32: r->d = a32 - b32; r->scc = b32 > a32; break;
	case RDC_OP_S_ADD_I32: r->d = a32 + b32; r->scc = ((~(a32 ^ b32)) & (a32 ^ (uint32_t)r->d)) >> 31; break;
	case RDC_OP_S_SUB_I32: r->d = a32 - b32; r->scc = ((a32 ^ b32) & (a32 ^ (uint32_t)r->d)) >> 31; break;
	case RDC_OP_S_ADDC_U32: t = (uint64_t)a32 + b32 + r->scc; r->d = (uint32_t)t; r->scc = t >> 32; break;
	case RDC_OP_S_SUBB_U32: t = (uint64_t)a32 - b32 - r->scc; r->d = (uint32_t)t; r->scc = (uint64_t)b32 + r->scc > a32; break;
	case RDC_OP_S_MIN_I32: r->scc = (int32_t)a32 < (int32_t)b32; r->d = r->scc ? a32 : b32; break;
	case RDC_OP_S_MIN_U32: r->scc = a32 < b32; r->d = r->scc ? a32 : b32; break;
	/* max: SCC = S0 >= S1 (the RDNA3 pseudocode; equal operands select S0) */
	case RDC_OP_S_MAX_I32: r->scc = (int32_t)a32 >= (int32_t)b32; r->d = r->scc ? a32 : b32; break;
	case RDC_OP_S_MAX_U32: r->scc = a32 >= b32; r->d = r->scc ? a32 : b32; break;
	case RDC_OP_S_CSELECT_B32: r->d = r->scc ? a32 : b32; break;
	case RDC_OP_S_CSELECT_B64: r->d = r->scc ? a : b; r->d64 = true; break;
	case RDC_OP_S_AND_B32: r->d = a32 & b32; r->scc = r->d != 0; break;
	case RDC_OP_S_OR_B32: r->d = a32 | b32; r->scc = r->d != 0; break;
	case RDC_OP_S_XOR_B32: r->d = a32 ^ b32; r->scc = r->d != 0; break;
	case RDC_OP_S_AND_NOT1_B32: r->d = a32 & ~b32; r->scc = r->d != 0; break;
	case RDC_OP_S_OR_NOT1_B32: r->d = (uint32_t)(a32 | ~b32); r->scc = r->d != 0; break;
	case RDC_OP_S_NAND_B32: r->d = (uint32_t)~(a32 & b32); r->scc = r->d != 0; break;
	case RDC_OP_S_NOR_B32: r->d = (uint32_t)~(a32 | b32); r->scc = r->d != 0; break;
	case RDC_OP_S_XNOR_B32: r->d = (uint32_t)~(a32 ^ b32); r->scc = r->d != 0; break;
	case RDC_OP_S_AND_B64: r->d = a & b; r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_OR_B64: r->d = a | b; r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_XOR_B64: r->d = a ^ b; r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_AND_NOT1_B64: r->d = a & ~b; r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_OR_NOT1_B64: r->d = a | ~b; r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_NAND_B64: r->d = ~(a & b); r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_NOR_B64: r->d = ~(a | b); r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_XNOR_B64: r->d = ~(a ^ b); r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_LSHL_B32: r->d = a32 << (b32 & 31); r->scc = r->d != 0; break;
	case RDC_OP_S_LSHR_B32: r->d = a32 >> (b32 & 31); r->scc = r->d != 0; break;
	case RDC_OP_S_ASHR_I32: r->d = (uint32_t)((int32_t)a32 >> (b32 & 31)); r->scc = r->d != 0; break;
	case RDC_OP_S_LSHL_B64: r->d = a << (b32 & 63); r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_LSHR_B64: r->d = a >> (b32 & 63); r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_ASHR_I64: r->d = (uint64_t)((int64_t)a >> (b32 & 63)); r->scc = r->d != 0; r->d64 = true; break;
	case RDC_OP_S_LSHL1_ADD_U32: case RDC_OP_S_LSHL2_ADD_U32: case RDC_OP_S_LSHL3_ADD_U32:
	case RDC_OP_S_LSHL4_ADD_U32: {
		unsigned sh = op == RDC_OP_S_LSHL1_ADD_U32 ? 1 : op == RDC_OP_S_LSHL2_ADD_U32 ? 2 :
			      op == RDC_OP_S_LSHL3_ADD_U32 ? 3 : 4;
		t = ((uint64_t)a32 << sh) + b32;
		r->d = (uint32_t)t;
		r->scc = t >> 32;
		break;
	}
	case RDC_OP_S_BFM_B32: r->d = ((1u << (a32 & 31)) - 1) << (b32 & 31); break;
	case RDC_OP_S_BFM_B64: r->d = ((1ull << (a32 & 63)) - 1) << (b32 & 63); r->d64 = true; break;
	case RDC_OP_S_MUL_I32: r->d = (uint32_t)((int32_t)a32 * (int64_t)(int32_t)b32); break;
	case RDC_OP_S_MUL_HI_U32: r->d = (uint32_t)(((uint64_t)a32 * b32) >> 32); break;
	case RDC_OP_S_MUL_HI_I32: r->d = (uint32_t)(((int64_t)(int32_t)a32 * (int32_t)b32) >> 32); break;
	case RDC_OP_S_BFE_U32: {
		unsigned off = b32 & 31, w = (b32 >> 16) & 0x7f;
		r->d = w ? (a32 >> off) & (w >= 32 ? ~0u : (1u << w) - 1) : 0;
		r->scc = r->d != 0;
		break;
	}
	/* Signed extracts shift S0 arithmetically (the pseudocode's S0.i32 >> offset): a field reaching past
	 * the top takes its sign from the top bit (as LLVM folds sbfe). */
	case RDC_OP_S_BFE_I32: {
		unsigned off = b32 & 31, w = (b32 >> 16) & 0x7f;
		uint32_t v = (uint32_t)((int32_t)a32 >> off);
		if (!w)
			v = 0;
		else if (w < 32)
			v = (uint32_t)(((int32_t)(v << (32 - w))) >> (32 - w));
		r->d = v;
		r->scc = v != 0;
		break;
	}
	case RDC_OP_S_BFE_U64: {
		unsigned off = b32 & 63, w = (b32 >> 16) & 0x7f;
		r->d = w ? (a >> off) & (w >= 64 ? ~0ull : (1ull << w) - 1) : 0;
		r->scc = r->d != 0;
		r->d64 = true;
		break;
	}
	case RDC_OP_S_BFE_I64: {
		unsigned off = b32 & 63, w = (b32 >> 16) & 0x7f;
		uint64_t v = (uint64_t)((int64_t)a >> off);
		if (!w)
			v = 0;
		else if (w < 64)
			v = (uint64_t)(((int64_t)(v << (64 - w))) >> (64 - w));
		r->d = v;
		r->scc = v != 0;
		r->d64 = true;
		break;
	}
	case RDC_OP_S_ABSDIFF_I32: { /* the difference wraps to 32 bits first: (0x80000000, 1) gives 0x7fffffff */
		uint32_t dd = a32 - b32;
		r->d = (int32_t)dd < 0 ? 0u - dd : dd;
		r->scc = r->d != 0;
		break;
	}
	case RDC_OP_S_PACK_LL_B32_B16: r->d = (a32 & 0xffff) | (b32 << 16); break;
	case RDC_OP_S_PACK_LH_B32_B16: r->d = (a32 & 0xffff) | (b32 & 0xffff0000u); break;
	case RDC_OP_S_PACK_HH_B32_B16: r->d = (a32 >> 16) | (b32 & 0xffff0000u); break;
	case RDC_OP_S_PACK_HL_B32_B16: r->d = (a32 >> 16) | (b32 << 16); break;
	default:
		return false;
	}
	return true;
}

static void sop2(struct rdc_wave *w, const struct rdc_inst *in)
{
	unsigned s64 = sop2_src64(in->op);
	uint64_t a = s64 & 1 ? rdc_sread64(w, in, in->src[0], false) : rdc_sread(w, in, in->src[0]);
	uint64_t b = s64 & 2 ? rdc_sread64(w, in, in->src[1], false) : rdc_sread(w, in, in->src[1]);
	struct sval r = { .scc = w->scc };
	sop2_eval(in->op, a, b, &r);
	w->scc = r.scc;
	if (r.d64)
		rdc_swrite64(w, in->dst, r.d);
	else
		rdc_swrite(w, in->dst, (uint32_t)r.d);
}

static bool sopc_eval(uint16_t op, uint64_t a, uint64_t b, bool *scc)
{
	uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
	int32_t ai = (int32_t)a32, bi = (int32_t)b32;
	switch (op) {
	case RDC_OP_S_CMP_EQ_I32: case RDC_OP_S_CMP_EQ_U32: *scc = a32 == b32; break;
	case RDC_OP_S_CMP_LG_I32: case RDC_OP_S_CMP_LG_U32: *scc = a32 != b32; break;
	case RDC_OP_S_CMP_GT_I32: *scc = ai > bi; break;
	case RDC_OP_S_CMP_GE_I32: *scc = ai >= bi; break;
	case RDC_OP_S_CMP_LT_I32: *scc = ai < bi; break;
	case RDC_OP_S_CMP_LE_I32: *scc = ai <= bi; break;
	case RDC_OP_S_CMP_GT_U32: *scc = a32 > b32; break;
	case RDC_OP_S_CMP_GE_U32: *scc = a32 >= b32; break;
	case RDC_OP_S_CMP_LT_U32: *scc = a32 < b32; break;
	case RDC_OP_S_CMP_LE_U32: *scc = a32 <= b32; break;
	case RDC_OP_S_BITCMP0_B32: *scc = !((a32 >> (b32 & 31)) & 1); break;
	case RDC_OP_S_BITCMP1_B32: *scc = (a32 >> (b32 & 31)) & 1; break;
	case RDC_OP_S_BITCMP0_B64: *scc = !((a >> (b32 & 63)) & 1); break;
	case RDC_OP_S_BITCMP1_B64: *scc = (a >> (b32 & 63)) & 1; break;
	case RDC_OP_S_CMP_EQ_U64: *scc = a == b; break;
	case RDC_OP_S_CMP_LG_U64: *scc = a != b; break;
	default:
		return false;
	}
	return true;
}

static void sopc(struct rdc_wave *w, const struct rdc_inst *in)
{
	bool a64 = in->op == RDC_OP_S_CMP_EQ_U64 || in->op == RDC_OP_S_CMP_LG_U64 ||
		   in->op == RDC_OP_S_BITCMP0_B64 || in->op == RDC_OP_S_BITCMP1_B64;
	bool b64 = in->op == RDC_OP_S_CMP_EQ_U64 || in->op == RDC_OP_S_CMP_LG_U64;
	uint64_t a = a64 ? rdc_sread64(w, in, in->src[0], false) : rdc_sread(w, in, in->src[0]);
	uint64_t b = b64 ? rdc_sread64(w, in, in->src[1], false) : rdc_sread(w, in, in->src[1]);
	bool scc = w->scc;
	sopc_eval(in->op, a, b, &scc);
	w->scc = scc;
}

/* SOP1 value ops: a is the source (64-bit where the name says b64/i64),
 * d the old destination (s_bitset*, s_cmov). */
static bool sop1_eval(uint16_t op, uint64_t a, uint64_t d, struct sval *r, bool *src64)
{
	uint32_t a32 = (uint32_t)a;
	r->wd = true;
	r->d64 = false;
	*src64 = false;
	switch (op) {
	case RDC_OP_S_MOV_B32: r->d = a32; break;
	case RDC_OP_S_MOV_B64: r->d = a; r->d64 = *src64 = true; break;
	case RDC_OP_S_CMOV_B32: r->d = r->scc ? a32 : (uint32_t)d; break;
	case RDC_OP_S_CMOV_B64: r->d = r->scc ? a : d; r->d64 = *src64 = true; break;
	case RDC_OP_S_NOT_B32: r->d = (uint32_t)~a32; r->scc = r->d != 0; break;
	case RDC_OP_S_NOT_B64: r->d = ~a; r->scc = r->d != 0; r->d64 = *src64 = true; break;
	case RDC_OP_S_BREV_B32: r->d = rdc_brev32(a32); break;
	case RDC_OP_S_BCNT0_I32_B32: r->d = (uint32_t)(32 - __builtin_popcount(a32)); r->scc = r->d != 0; break;
	case RDC_OP_S_BCNT1_I32_B32: r->d = (uint32_t)__builtin_popcount(a32); r->scc = r->d != 0; break;
	case RDC_OP_S_BCNT0_I32_B64: r->d = (uint32_t)(64 - popc64(a)); r->scc = r->d != 0; *src64 = true; break;
	case RDC_OP_S_BCNT1_I32_B64: r->d = (uint32_t)popc64(a); r->scc = r->d != 0; *src64 = true; break;
	case RDC_OP_S_CTZ_I32_B32: r->d = a32 ? (uint32_t)__builtin_ctz(a32) : ~0u; break;
	case RDC_OP_S_CTZ_I32_B64: r->d = a ? (uint32_t)__builtin_ctzll(a) : ~0u; *src64 = true; break;
	/* gfx10's s_ff0: the first zero bit from the LSB, -1 when there is none */
	case RDC_OP_S_FF0_I32_B32: r->d = ~a32 ? (uint32_t)__builtin_ctz(~a32) : ~0u; break;
	case RDC_OP_S_FF0_I32_B64: r->d = ~a ? (uint32_t)__builtin_ctzll(~a) : ~0u; *src64 = true; break;
	case RDC_OP_S_CLZ_I32_U32: r->d = a32 ? (uint32_t)__builtin_clz(a32) : ~0u; break;
	case RDC_OP_S_CLZ_I32_U64: r->d = a ? (uint32_t)__builtin_clzll(a) : ~0u; *src64 = true; break;
	case RDC_OP_S_CLS_I32:
		r->d = (a32 == 0 || a32 == ~0u) ? ~0u : (uint32_t)__builtin_clz((a32 >> 31) ? ~a32 : a32);
		break;
	case RDC_OP_S_CLS_I32_I64:
		r->d = (a == 0 || a == ~0ull) ? ~0u : (uint32_t)__builtin_clzll((a >> 63) ? ~a : a);
		*src64 = true;
		break;
	case RDC_OP_S_SEXT_I32_I8: r->d = (uint32_t)(int32_t)(int8_t)a32; break;
	case RDC_OP_S_SEXT_I32_I16: r->d = (uint32_t)(int32_t)(int16_t)a32; break;
	case RDC_OP_S_BITSET0_B32: r->d = (uint32_t)d & ~(1u << (a32 & 31)); break;
	case RDC_OP_S_BITSET1_B32: r->d = (uint32_t)d | (1u << (a32 & 31)); break;
	case RDC_OP_S_BITSET0_B64: r->d = d & ~(1ull << (a32 & 63)); r->d64 = true; break;
	case RDC_OP_S_BITSET1_B64: r->d = d | (1ull << (a32 & 63)); r->d64 = true; break;
	case RDC_OP_S_ABS_I32: r->d = (uint32_t)((int32_t)a32 < 0 ? -(int64_t)(int32_t)a32 : (int32_t)a32); r->scc = r->d != 0; break;
	case RDC_OP_S_BREV_B64: r->d = rdc_brev64(a); r->d64 = *src64 = true; break;
	case RDC_OP_S_BITREPLICATE_B64_B32: { /* each bit of S0 twice: D[2i] = D[2i+1] = S0[i] */
		uint64_t m = 0;
		for (int i = 0; i < 32; i++)
			m |= (uint64_t)((a32 >> i) & 1) * 3 << (2 * i);
		r->d = m;
		r->d64 = true;
		break;
	}
	case RDC_OP_S_QUADMASK_B32: case RDC_OP_S_QUADMASK_B64: { /* D[i] = S0[4i+3:4i] != 0 */
		bool b64 = op == RDC_OP_S_QUADMASK_B64;
		uint64_t m = 0;
		for (int q = 0; q < (b64 ? 16 : 8); q++)
			if ((a >> (4 * q)) & 0xf)
				m |= 1ull << q;
		r->d = m;
		r->d64 = *src64 = b64;
		r->scc = m != 0;
		break;
	}
	case RDC_OP_S_WQM_B32: case RDC_OP_S_WQM_B64: {
		uint64_t m = 0;
		for (int q = 0; q < 64; q += 4)
			if ((a >> q) & 0xf)
				m |= 0xfull << q;
		r->d = op == RDC_OP_S_WQM_B32 ? (uint32_t)m : m;
		r->d64 = *src64 = op == RDC_OP_S_WQM_B64;
		r->scc = r->d != 0;
		break;
	}
	default:
		return false;
	}
	return true;
}

static void sop1(struct rdc_wave *w, const struct rdc_inst *in)
{
	struct sval r = { .scc = w->scc };
	bool s64;
	sop1_eval(in->op, 0, 0, &r, &s64); /* learn the widths */
	uint64_t a = s64 ? rdc_sread64(w, in, in->src[0], false) : rdc_sread(w, in, in->src[0]);
	uint64_t d = r.d64 ? rdc_sread64(w, in, in->dst, false) : rdc_sread(w, in, in->dst);
	r.scc = w->scc;
	sop1_eval(in->op, a, d, &r, &s64);
	w->scc = r.scc;
	if (r.d64)
		rdc_swrite64(w, in->dst, r.d);
	else
		rdc_swrite(w, in->dst, (uint32_t)r.d);
}

/* s_*_saveexec / wrexec: D = EXEC, EXEC = op(S0, EXEC) (wrexec: D = EXEC = op). */
static bool saveexec_eval(uint16_t op, uint64_t s, uint64_t e, uint64_t *ne, bool *wrexec)
{
	*wrexec = false;
	switch (op) {
	case RDC_OP_S_AND_SAVEEXEC_B32: case RDC_OP_S_AND_SAVEEXEC_B64: *ne = s & e; break;
	case RDC_OP_S_OR_SAVEEXEC_B32: case RDC_OP_S_OR_SAVEEXEC_B64: *ne = s | e; break;
	case RDC_OP_S_XOR_SAVEEXEC_B32: case RDC_OP_S_XOR_SAVEEXEC_B64: *ne = s ^ e; break;
	case RDC_OP_S_AND_NOT1_SAVEEXEC_B32: case RDC_OP_S_AND_NOT1_SAVEEXEC_B64: *ne = s & ~e; break;
	case RDC_OP_S_OR_NOT1_SAVEEXEC_B32: case RDC_OP_S_OR_NOT1_SAVEEXEC_B64: *ne = s | ~e; break;
	case RDC_OP_S_AND_NOT0_SAVEEXEC_B32: case RDC_OP_S_AND_NOT0_SAVEEXEC_B64: *ne = ~s & e; break;
	case RDC_OP_S_OR_NOT0_SAVEEXEC_B32: case RDC_OP_S_OR_NOT0_SAVEEXEC_B64: *ne = ~s | e; break;
	case RDC_OP_S_NAND_SAVEEXEC_B32: case RDC_OP_S_NAND_SAVEEXEC_B64: *ne = ~(s & e); break;
	case RDC_OP_S_NOR_SAVEEXEC_B32: case RDC_OP_S_NOR_SAVEEXEC_B64: *ne = ~(s | e); break;
	case RDC_OP_S_XNOR_SAVEEXEC_B32: case RDC_OP_S_XNOR_SAVEEXEC_B64: *ne = ~(s ^ e); break;
	case RDC_OP_S_AND_NOT0_WREXEC_B32: case RDC_OP_S_AND_NOT0_WREXEC_B64: *ne = ~s & e; *wrexec = true; break;
	case RDC_OP_S_AND_NOT1_WREXEC_B32: case RDC_OP_S_AND_NOT1_WREXEC_B64: *ne = s & ~e; *wrexec = true; break;
	default:
		return false;
	}
	return true;
}

static void saveexec(struct rdc_wave *w, const struct rdc_inst *in)
{
	bool b64 = rdc_op_name[in->op][strlen(rdc_op_name[in->op]) - 1] == '4';
	uint64_t s = b64 ? rdc_sread64(w, in, in->src[0], false) : rdc_sread(w, in, in->src[0]);
	uint64_t e = rdc_exec_mask(w), ne;
	bool wr;
	saveexec_eval(in->op, s, e, &ne, &wr);
	ne &= rdc_lanemask(w);
	if (b64)
		rdc_swrite64(w, in->dst, wr ? ne : e);
	else
		rdc_swrite(w, in->dst, (uint32_t)(wr ? ne : e));
	rdc_set_exec(w, ne);
	w->scc = ne != 0;
}

/* s_movrels (D = SGPR[S + M0]), s_movreld (SGPR[D + M0] = S) and
 * s_movrelsd_2 (SGPR[D + M0[25:16]] = SGPR[S + M0[9:0]]). */
static void movrel(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t m0 = w->s[RDC_OPD_M0];
	if (in->op == RDC_OP_S_MOVRELSD_2_B32) {
		uint32_t src = in->src[0] + (m0 & 0x3ff), dst = in->dst + ((m0 >> 16) & 0x3ff);
		if (src >= 106 || dst >= 106) {
			rdc_fail(w, RDC_EXEC_BAD, in, "s_movrelsd_2 moves SGPR %u to SGPR %u", src, dst);
			return;
		}
		rdc_swrite(w, (uint16_t)dst, w->s[src]);
		return;
	}
	bool b64 = in->op == RDC_OP_S_MOVRELS_B64 || in->op == RDC_OP_S_MOVRELD_B64;
	if (in->op == RDC_OP_S_MOVRELS_B32 || in->op == RDC_OP_S_MOVRELS_B64) {
		uint32_t src = in->src[0] + m0;
		if (src >= 106) {
			rdc_fail(w, RDC_EXEC_BAD, in, "s_movrels reads SGPR %u", src);
			return;
		}
		if (b64)
			rdc_swrite64(w, in->dst, rdc_sread64(w, in, (uint16_t)src, false));
		else
			rdc_swrite(w, in->dst, w->s[src]);
	} else {
		uint32_t dst = in->dst + m0;
		if (dst >= 106) {
			rdc_fail(w, RDC_EXEC_BAD, in, "s_movreld writes SGPR %u", dst);
			return;
		}
		if (b64)
			rdc_swrite64(w, (uint16_t)dst, rdc_sread64(w, in, in->src[0], false));
		else
			rdc_swrite(w, (uint16_t)dst, rdc_sread(w, in, in->src[0]));
	}
}

/* SOPK arithmetic: simm16 is the source. */
static void sopk(struct rdc_wave *w, const struct rdc_inst *in)
{
	int32_t k = (int16_t)in->imm;
	uint32_t d = rdc_sread(w, in, in->dst), uk = (uint16_t)in->imm;
	switch (in->op) {
	case RDC_OP_S_MOVK_I32: rdc_swrite(w, in->dst, (uint32_t)k); break;
	case RDC_OP_S_CMOVK_I32: if (w->scc) rdc_swrite(w, in->dst, (uint32_t)k); break;
	case RDC_OP_S_CMPK_EQ_I32: w->scc = (int32_t)d == k; break;
	case RDC_OP_S_CMPK_LG_I32: w->scc = (int32_t)d != k; break;
	case RDC_OP_S_CMPK_GT_I32: w->scc = (int32_t)d > k; break;
	case RDC_OP_S_CMPK_GE_I32: w->scc = (int32_t)d >= k; break;
	case RDC_OP_S_CMPK_LT_I32: w->scc = (int32_t)d < k; break;
	case RDC_OP_S_CMPK_LE_I32: w->scc = (int32_t)d <= k; break;
	case RDC_OP_S_CMPK_EQ_U32: w->scc = d == uk; break;
	case RDC_OP_S_CMPK_LG_U32: w->scc = d != uk; break;
	case RDC_OP_S_CMPK_GT_U32: w->scc = d > uk; break;
	case RDC_OP_S_CMPK_GE_U32: w->scc = d >= uk; break;
	case RDC_OP_S_CMPK_LT_U32: w->scc = d < uk; break;
	case RDC_OP_S_CMPK_LE_U32: w->scc = d <= uk; break;
	case RDC_OP_S_ADDK_I32: {
		uint32_t r = d + (uint32_t)k;
		w->scc = ((~(d ^ (uint32_t)k)) & (d ^ r)) >> 31;
		rdc_swrite(w, in->dst, r);
		break;
	}
	case RDC_OP_S_MULK_I32: rdc_swrite(w, in->dst, (uint32_t)((int32_t)d * (int64_t)k)); break;
	default: break;
	}
}

static bool sopk_known(uint16_t op)
{
	switch (op) {
	case RDC_OP_S_MOVK_I32: case RDC_OP_S_CMOVK_I32: case RDC_OP_S_CMPK_EQ_I32: case RDC_OP_S_CMPK_LG_I32:
	case RDC_OP_S_CMPK_GT_I32: case RDC_OP_S_CMPK_GE_I32: case RDC_OP_S_CMPK_LT_I32: case RDC_OP_S_CMPK_LE_I32:
	case RDC_OP_S_CMPK_EQ_U32: case RDC_OP_S_CMPK_LG_U32: case RDC_OP_S_CMPK_GT_U32: case RDC_OP_S_CMPK_GE_U32:
	case RDC_OP_S_CMPK_LT_U32: case RDC_OP_S_CMPK_LE_U32: case RDC_OP_S_ADDK_I32: case RDC_OP_S_MULK_I32:
		return true;
	default:
		return false;
	}
}

rdc_sem_fn rdc_sem_salu(uint16_t op)
{
	struct sval r = { 0 };
	bool b, wr;
	uint64_t ne;
	if (sop2_eval(op, 1, 1, &r))
		return sop2;
	if (sopc_eval(op, 1, 1, &b))
		return sopc;
	if (sop1_eval(op, 1, 1, &r, &b))
		return sop1;
	if (saveexec_eval(op, 1, 1, &ne, &wr))
		return saveexec;
	if (sopk_known(op))
		return sopk;
	if (op == RDC_OP_S_MOVRELS_B32 || op == RDC_OP_S_MOVRELS_B64 || op == RDC_OP_S_MOVRELD_B32 ||
	    op == RDC_OP_S_MOVRELD_B64 || op == RDC_OP_S_MOVRELSD_2_B32)
		return movrel;
	return NULL;
}
