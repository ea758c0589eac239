/* SPDX-License-Identifier: MIT */
/*
 * isa_decode.c — machine words to struct rdc_inst, for gfx10.3 and gfx11:
 * the one decoder that the shim's per-kernel instruction checks
 * (isa_class.c), `rdnacompat inspect` and the simulator's engine share
 * (include/rdnacompat/isa.h).  Pure: bytes in, fields out.
 *
 * The opcode of each format is looked up in the tables that gen_optab.py
 * generated from Debian's LLVM (isa_optab_gen.c); the field positions below are
 * the ISA manuals' format tables (RDNA2 and RDNA3 ISA guides, chapter
 * "Microcode Formats"), written out per generation where they differ:
 * SMEM's glc/dlc, FLAT's offset width and segment field, MUBUF's
 * offen/idxen, and the M0/NULL swap of operand codes 124/125 on gfx11.
 * gfx11-only: VOPD, true16 halves of 16-bit VOP1/2/C operands, DPP on VOP3.
 * gfx10-only: SDWA.
 */
#include <string.h>

#include "rdnacompat/isa.h"

static uint32_t word(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* gfx11 numbers NULL 124 and M0 125; the engine's codes are gfx10's. */
static uint16_t sopd(unsigned gfx, uint32_t code)
{
	if (gfx == 11 && (code == 124 || code == 125))
		return (uint16_t)(249 - code);
	return (uint16_t)code;
}

static bool lookup(unsigned gfx, enum rdc_fmt f, unsigned opc, struct rdc_inst *in)
{
	const struct rdc_optab *t = &rdc_optab[gfx == 11][f];
	in->fmt = (uint8_t)f;
	if (opc >= t->size || !t->op || !t->op[opc])
		return false;
	in->op = t->op[opc];
	in->mnemonic = t->mnemonic[opc];
	return true;
}

static bool is_vop3b(uint16_t op)
{
	switch (op) {
	case RDC_OP_V_ADD_CO_U32: case RDC_OP_V_SUB_CO_U32: case RDC_OP_V_SUBREV_CO_U32:
	case RDC_OP_V_ADD_CO_CI_U32: case RDC_OP_V_SUB_CO_CI_U32: case RDC_OP_V_SUBREV_CO_CI_U32:
	case RDC_OP_V_DIV_SCALE_F32: case RDC_OP_V_DIV_SCALE_F64:
	case RDC_OP_V_MAD_U64_U32: case RDC_OP_V_MAD_I64_I32:
		return true;
	default:
		return false;
	}
}

/* The destination is an SGPR (not a VGPR) in the vdst field. */
static bool sgpr_dst(uint16_t op)
{
	return op == RDC_OP_V_READLANE_B32 || op == RDC_OP_V_READFIRSTLANE_B32;
}

/* 16-bit operand facts for gfx11 true16 (VOP1/2/C e32 and DPP): the last
 * type in the name is the sources', the first the destination's. */
static void types16(const struct rdc_inst *in, bool *dst16, bool *src16)
{
	const char *n = rdc_op_name[in->op];
	const char *first = NULL, *last = NULL;
	for (const char *p = n; *p; p++) {
		if (p[0] == '_' && (p[1] == 'f' || p[1] == 'i' || p[1] == 'u' || p[1] == 'b') &&
		    p[2] >= '0' && p[2] <= '9') {
			if (!first)
				first = p + 1;
			last = p + 1;
		}
	}
	*dst16 = first && !strncmp(first + 1, "16", 2) && (first[3] == '_' || !first[3]);
	*src16 = last && !strncmp(last + 1, "16", 2) && !last[3];
	if (!strncmp(n, "v_pk_", 5) || !strncmp(n, "v_cmp", 5))
		*dst16 = false;
	if (!strncmp(n, "v_pk_", 5))
		*src16 = false;
	/* Names whose types are not their operands' (LLVM's VOP profiles, and
	 * llvm-mc 19 taking v128-v255 in these e32 forms): packed 32-bit
	 * sources and 32-bit results, and sat_pk's 16-bit result of a 32-bit
	 * source. */
	if (in->op == RDC_OP_V_DOT2ACC_F32_F16 || in->op == RDC_OP_V_CVT_PK_RTZ_F16_F32) {
		*dst16 = false;
		*src16 = false;
	}
	if (in->op == RDC_OP_V_SAT_PK_U8_I16) {
		*dst16 = true;
		*src16 = false;
	}
}

static int literal(const uint8_t *code, size_t avail, struct rdc_inst *in, size_t at)
{
	if (avail < at + 4)
		return -1;
	in->lit = word(code + at);
	in->len = (uint8_t)(at + 4);
	return 0;
}

static int sop(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	unsigned top9 = w >> 23;
	in->len = 4;
	if (top9 == 0x17D) { /* SOP1 */
		if (!lookup(gfx, RDC_FMT_SOP1, (w >> 8) & 0xff, in))
			return -1;
		in->dst = sopd(gfx, (w >> 16) & 0x7f);
		in->src[0] = sopd(gfx, w & 0xff);
	} else if (top9 == 0x17E) { /* SOPC */
		if (!lookup(gfx, RDC_FMT_SOPC, (w >> 16) & 0x7f, in))
			return -1;
		in->src[0] = sopd(gfx, w & 0xff);
		in->src[1] = sopd(gfx, (w >> 8) & 0xff);
	} else if (top9 == 0x17F) { /* SOPP */
		if (!lookup(gfx, RDC_FMT_SOPP, (w >> 16) & 0x7f, in))
			return -1;
		in->imm = (int16_t)(w & 0xffff);
		return 0;
	} else if ((w >> 28) == 0xB) { /* SOPK */
		if (!lookup(gfx, RDC_FMT_SOPK, (w >> 23) & 0x1f, in))
			return -1;
		in->dst = sopd(gfx, (w >> 16) & 0x7f);
		in->imm = (int32_t)(w & 0xffff);
		if (in->op == RDC_OP_S_SETREG_IMM32_B32)
			return literal(code, avail, in, 4);
		return 0;
	} else { /* SOP2 */
		if (!lookup(gfx, RDC_FMT_SOP2, (w >> 23) & 0x7f, in))
			return -1;
		in->dst = sopd(gfx, (w >> 16) & 0x7f);
		in->src[0] = sopd(gfx, w & 0xff);
		in->src[1] = sopd(gfx, (w >> 8) & 0xff);
	}
	/* gfx1150's s_fmaak/s_fmamk_f32 always carry their constant K. */
	if (in->src[0] == RDC_OPD_LIT || in->src[1] == RDC_OPD_LIT || in->op == RDC_OP_S_FMAAK_F32 ||
	    in->op == RDC_OP_S_FMAMK_F32)
		return literal(code, avail, in, 4);
	return 0;
}

/* src0 of a VOP1/2/C: SDWA, DPP16 or DPP8 extension dword, or a literal. */
static int vop_src0(unsigned gfx, const uint8_t *code, size_t avail, struct rdc_inst *in, uint32_t s0)
{
	in->len = 4;
	in->enc = RDC_ENC_E32;
	if (s0 == 0xF9 && gfx == 10) { /* SDWA */
		if (avail < 8)
			return -1;
		uint32_t x = word(code + 4);
		in->enc = RDC_ENC_SDWA;
		in->len = 8;
		in->src[0] = (uint16_t)((x & 0xff) + ((x >> 23) & 1 ? 0 : RDC_OPD_VGPR));
		in->src0_sel = (x >> 16) & 7;
		in->sext = (uint8_t)(((x >> 19) & 1) | (((x >> 27) & 1) << 1));
		in->neg = (uint8_t)(((x >> 20) & 1) | (((x >> 28) & 1) << 1));
		in->abs = (uint8_t)(((x >> 21) & 1) | (((x >> 29) & 1) << 1));
		in->src1_sel = (x >> 24) & 7;
		if ((x >> 31) & 1)
			in->src[1] = (uint16_t)(in->src[1] - RDC_OPD_VGPR); /* src1 is an SGPR */
		if (in->fmt == RDC_FMT_VOPC) {
			in->sdst = (x >> 15) & 1 ? (uint16_t)((x >> 8) & 0x7f) : RDC_OPD_VCC;
		} else {
			in->dst_sel = (x >> 8) & 7;
			in->dst_unused = (x >> 11) & 3;
			in->clamp = (x >> 13) & 1;
			in->omod = (x >> 14) & 3;
		}
		return 0;
	}
	if (s0 == 0xFA) { /* DPP16 */
		if (avail < 8)
			return -1;
		uint32_t x = word(code + 4);
		in->enc = RDC_ENC_DPP16;
		in->len = 8;
		in->src[0] = (uint16_t)((x & 0xff) + RDC_OPD_VGPR);
		in->dpp_ctrl = (x >> 8) & 0x1ff;
		in->fi = (x >> 18) & 1;
		in->bound_ctrl = (x >> 19) & 1;
		in->neg = (uint8_t)(((x >> 20) & 1) | (((x >> 22) & 1) << 1));
		in->abs = (uint8_t)(((x >> 21) & 1) | (((x >> 23) & 1) << 1));
		in->bank_mask = (x >> 24) & 0xf;
		in->row_mask = (x >> 28) & 0xf;
		return 0;
	}
	if (s0 == 0xE9 || s0 == 0xEA) { /* DPP8 */
		if (avail < 8)
			return -1;
		uint32_t x = word(code + 4);
		in->enc = RDC_ENC_DPP8;
		in->len = 8;
		in->src[0] = (uint16_t)((x & 0xff) + RDC_OPD_VGPR);
		in->dpp8 = x >> 8;
		in->fi = s0 == 0xEA;
		return 0;
	}
	in->src[0] = sopd(gfx, s0);
	if (s0 == RDC_OPD_LIT)
		return literal(code, avail, in, 4);
	return 0;
}

/* gfx11 true16: bit 7 of a VGPR field in VOP1/2/C picks the high half. */
static void true16(struct rdc_inst *in, bool vdst)
{
	bool d16, s16;
	types16(in, &d16, &s16);
	if (s16) {
		for (int k = 0; k < 2; k++) {
			if (in->src[k] >= RDC_OPD_VGPR && ((in->src[k] - RDC_OPD_VGPR) & 0x80)) {
				in->src[k] = (uint16_t)(in->src[k] - 0x80);
				in->opsel |= (uint8_t)(1u << k);
			}
		}
	}
	if (vdst && d16 && ((in->dst - RDC_OPD_VGPR) & 0x80)) {
		in->dst = (uint16_t)(in->dst - 0x80);
		in->opsel |= 8;
	}
}

static int vop12c(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	unsigned top7 = w >> 25;
	if (top7 == 0x3F) { /* VOP1 */
		if (!lookup(gfx, RDC_FMT_VOP1, (w >> 9) & 0xff, in))
			return -1;
		in->dst = (uint16_t)(((w >> 17) & 0xff) + (sgpr_dst(in->op) ? 0 : RDC_OPD_VGPR));
		if (sgpr_dst(in->op))
			in->dst = sopd(gfx, in->dst);
	} else if (top7 == 0x3E) { /* VOPC */
		if (!lookup(gfx, RDC_FMT_VOPC, (w >> 17) & 0xff, in))
			return -1;
		in->src[1] = (uint16_t)(((w >> 9) & 0xff) + RDC_OPD_VGPR);
		in->sdst = RDC_OPD_VCC;
	} else { /* VOP2 */
		if (!lookup(gfx, RDC_FMT_VOP2, (w >> 25) & 0x3f, in))
			return -1;
		in->dst = (uint16_t)(((w >> 17) & 0xff) + RDC_OPD_VGPR);
		in->src[1] = (uint16_t)(((w >> 9) & 0xff) + RDC_OPD_VGPR);
		in->sdst = RDC_OPD_VCC; /* carry out / cndmask's mask */
		in->src[2] = RDC_OPD_VCC;
	}
	if (vop_src0(gfx, code, avail, in, w & 0x1ff) < 0)
		return -1;
	/* fmaak/fmamk carry their constant K in a literal dword, which a
	 * literal src0 shares: an instruction has at most one literal
	 * (v_fmaak_f32 v13, 0x2f800000, v13, 0x2f800000 is 8 bytes). */
	if ((in->op == RDC_OP_V_FMAMK_F32 || in->op == RDC_OP_V_FMAAK_F32 || in->op == RDC_OP_V_FMAMK_F16 ||
	     in->op == RDC_OP_V_FMAAK_F16) && in->src[0] != RDC_OPD_LIT) {
		if (literal(code, avail, in, in->len) < 0)
			return -1;
	}
	if (gfx == 11 && in->enc != RDC_ENC_SDWA)
		true16(in, in->fmt != RDC_FMT_VOPC && !sgpr_dst(in->op));
	return 0;
}

/* gfx11 VOP3/VOP3P with DPP: src0 0xFA (DPP16) or 0xE9/0xEA (DPP8) in the
 * second dword, the DPP dword third (its VGPR is src0).  VOP3P keeps its
 * own enc for the operand rules; the DPP fields say how src0 is read. */
static int vop3_dpp(const uint8_t *code, size_t avail, uint32_t x, struct rdc_inst *in)
{
	if (avail < 12)
		return -1;
	uint32_t d = word(code + 8);
	in->len = 12;
	in->src[0] = (uint16_t)((d & 0xff) + RDC_OPD_VGPR);
	if ((x & 0x1ff) == 0xFA) {
		in->enc = RDC_ENC_DPP16;
		in->dpp_ctrl = (d >> 8) & 0x1ff;
		in->fi = (d >> 18) & 1;
		in->bound_ctrl = (d >> 19) & 1;
		in->bank_mask = (d >> 24) & 0xf;
		in->row_mask = (d >> 28) & 0xf;
	} else {
		in->enc = RDC_ENC_DPP8;
		in->dpp8 = d >> 8;
		in->fi = (x & 0x1ff) == 0xEA;
	}
	return 0;
}

/* The second dword of VOP3 and VOP3P: three 9-bit sources. */
static void srcs3(unsigned gfx, uint32_t x, struct rdc_inst *in)
{
	in->src[0] = sopd(gfx, x & 0x1ff);
	in->src[1] = sopd(gfx, (x >> 9) & 0x1ff);
	in->src[2] = sopd(gfx, (x >> 18) & 0x1ff);
}

/* A literal follows an 8-byte encoding when any source names one. */
static int lit3(const uint8_t *code, size_t avail, struct rdc_inst *in)
{
	for (int k = 0; k < 3; k++)
		if (in->src[k] == RDC_OPD_LIT)
			return literal(code, avail, in, 8);
	return 0;
}

static int vop3(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8 || !lookup(gfx, RDC_FMT_VOP3, (w >> 16) & 0x3ff, in))
		return -1;
	uint32_t x = word(code + 4);
	in->enc = RDC_ENC_E64;
	in->len = 8;
	unsigned vdst = w & 0xff;
	srcs3(gfx, x, in);
	in->omod = (x >> 27) & 3;
	in->neg = (x >> 29) & 7;
	in->clamp = (w >> 15) & 1;
	bool cmp = !strncmp(rdc_op_name[in->op], "v_cmp", 5);
	if (is_vop3b(in->op)) {
		in->sdst = sopd(gfx, (w >> 8) & 0x7f);
		in->dst = (uint16_t)(vdst + RDC_OPD_VGPR);
	} else {
		in->abs = (w >> 8) & 7;
		in->opsel = (w >> 11) & 0xf;
		if (cmp)
			in->sdst = sopd(gfx, vdst);
		else if (sgpr_dst(in->op))
			in->dst = sopd(gfx, vdst);
		else
			in->dst = (uint16_t)(vdst + RDC_OPD_VGPR);
	}
	if (gfx == 11 && (in->src[0] == 0xFA || in->src[0] == 0xE9 || in->src[0] == 0xEA))
		return vop3_dpp(code, avail, x, in);
	return lit3(code, avail, in);
}

static int vop3p(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8 || !lookup(gfx, RDC_FMT_VOP3P, (w >> 16) & 0x7f, in))
		return -1;
	uint32_t x = word(code + 4);
	in->enc = RDC_ENC_VOP3P;
	in->len = 8;
	in->dst = (uint16_t)((w & 0xff) + RDC_OPD_VGPR);
	in->neg_hi = (w >> 8) & 7;
	in->opsel = (w >> 11) & 7;
	in->opsel_hi = (uint8_t)(((x >> 27) & 3) | (((w >> 14) & 1) << 2));
	in->clamp = (w >> 15) & 1;
	srcs3(gfx, x, in);
	in->neg = (x >> 29) & 7;
	if (gfx == 11 && (in->src[0] == 0xFA || in->src[0] == 0xE9 || in->src[0] == 0xEA))
		return vop3_dpp(code, avail, x, in);
	return lit3(code, avail, in);
}

static int vopd(const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8)
		return -1;
	struct rdc_inst y;
	memset(&y, 0, sizeof y);
	if (!lookup(11, RDC_FMT_VOPDY, (w >> 17) & 0x1f, &y) || !lookup(11, RDC_FMT_VOPD, (w >> 22) & 0xf, in))
		return -1;
	uint32_t x = word(code + 4);
	in->enc = RDC_ENC_E32;
	in->len = 8;
	in->src[0] = sopd(11, w & 0x1ff);
	in->src[1] = (uint16_t)(((w >> 9) & 0xff) + RDC_OPD_VGPR);
	in->src[2] = RDC_OPD_VCC;
	in->sdst = RDC_OPD_VCC;
	in->dst = (uint16_t)(((x >> 24) & 0xff) + RDC_OPD_VGPR);
	in->op_y = y.op;
	in->src_y[0] = sopd(11, x & 0x1ff);
	in->src_y[1] = (uint16_t)(((x >> 9) & 0xff) + RDC_OPD_VGPR);
	unsigned dy = (((x >> 17) & 0x7f) << 1) | (((x >> 24) & 1) ^ 1);
	in->dst_y = (uint16_t)(dy + RDC_OPD_VGPR);
	bool k = in->op == RDC_OP_V_FMAAK_F32 || in->op == RDC_OP_V_FMAMK_F32 || y.op == RDC_OP_V_FMAAK_F32 ||
		 y.op == RDC_OP_V_FMAMK_F32;
	if (k || in->src[0] == RDC_OPD_LIT || in->src_y[0] == RDC_OPD_LIT)
		return literal(code, avail, in, 8);
	return 0;
}

static int smem(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8 || !lookup(gfx, RDC_FMT_SMEM, (w >> 18) & 0xff, in))
		return -1;
	uint32_t x = word(code + 4);
	in->len = 8;
	in->addr = (uint16_t)((w & 0x3f) << 1);          /* sbase, an SGPR pair */
	in->dst = sopd(gfx, (w >> 6) & 0x7f);             /* sdata */
	in->glc = gfx == 11 ? (w >> 14) & 1 : (w >> 16) & 1;
	in->dlc = gfx == 11 ? (w >> 13) & 1 : (w >> 14) & 1;
	in->imm = (int32_t)(x << 11) >> 11;               /* 21-bit signed */
	in->soffset = sopd(gfx, x >> 25);
	return 0;
}

static int ds(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8 || !lookup(gfx, RDC_FMT_DS, (w >> 18) & 0xff, in))
		return -1;
	uint32_t x = word(code + 4);
	in->len = 8;
	in->imm = (int32_t)(w & 0xff);
	in->offset1 = (w >> 8) & 0xff;
	in->gds = (w >> 17) & 1;
	in->addr = (uint16_t)((x & 0xff) + RDC_OPD_VGPR);
	in->data0 = (uint16_t)(((x >> 8) & 0xff) + RDC_OPD_VGPR);
	in->data1 = (uint16_t)(((x >> 16) & 0xff) + RDC_OPD_VGPR);
	in->dst = (uint16_t)(((x >> 24) & 0xff) + RDC_OPD_VGPR);
	return 0;
}

static int flat(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8)
		return -1;
	unsigned seg = gfx == 11 ? (w >> 16) & 3 : (w >> 14) & 3;
	enum rdc_fmt f = seg == 0 ? RDC_FMT_FLAT : seg == 1 ? RDC_FMT_SCRATCH : RDC_FMT_GLOBAL;
	if (seg == 3 || !lookup(gfx, f, (w >> 18) & 0x7f, in))
		return -1;
	uint32_t x = word(code + 4);
	in->len = 8;
	if (gfx == 11) {
		in->imm = f == RDC_FMT_FLAT ? (int32_t)(w & 0xfff) : (int32_t)(w << 19) >> 19;
		in->dlc = (w >> 13) & 1;
		in->glc = (w >> 14) & 1;
		in->slc = (w >> 15) & 1;
		in->sve = (x >> 23) & 1;
	} else {
		in->imm = f == RDC_FMT_FLAT ? (int32_t)(w & 0x7ff) : (int32_t)(w << 20) >> 20;
		in->dlc = (w >> 12) & 1;
		in->lds = (w >> 13) & 1;
		in->glc = (w >> 16) & 1;
		in->slc = (w >> 17) & 1;
	}
	in->addr = (uint16_t)((x & 0xff) + RDC_OPD_VGPR);
	in->data0 = (uint16_t)(((x >> 8) & 0xff) + RDC_OPD_VGPR);
	in->saddr = sopd(gfx, (x >> 16) & 0x7f);
	in->dst = (uint16_t)(((x >> 24) & 0xff) + RDC_OPD_VGPR);
	if (f == RDC_FMT_SCRATCH && gfx == 10)
		in->sve = in->saddr == RDC_OPD_NULL; /* gfx10: the address is in a VGPR when saddr is off */
	return 0;
}

static int mubuf(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8 || !lookup(gfx, RDC_FMT_MUBUF, (w >> 18) & 0xff, in))
		return -1;
	uint32_t x = word(code + 4);
	in->len = 8;
	in->imm = (int32_t)(w & 0xfff);
	if (gfx == 11) {
		in->slc = (w >> 12) & 1;
		in->dlc = (w >> 13) & 1;
		in->glc = (w >> 14) & 1;
		in->offen = (x >> 22) & 1;
		in->idxen = (x >> 23) & 1;
	} else {
		in->offen = (w >> 12) & 1;
		in->idxen = (w >> 13) & 1;
		in->glc = (w >> 14) & 1;
		in->dlc = (w >> 15) & 1;
		in->lds = (w >> 16) & 1;
		in->slc = (x >> 22) & 1;
	}
	in->addr = (uint16_t)((x & 0xff) + RDC_OPD_VGPR);
	in->data0 = (uint16_t)(((x >> 8) & 0xff) + RDC_OPD_VGPR);
	in->srsrc = (uint16_t)(((x >> 16) & 0x1f) << 2);
	in->soffset = sopd(gfx, x >> 24);
	return 0;
}

/* MTBUF: MUBUF's fields with the data format in the instruction.  RDNA2:
 * op[2:0] in [18:16] and op[3] in bit 21 of the second dword (the d16
 * forms, table MTBUFHI), format [25:19], offen/idxen/glc/dlc as MUBUF;
 * RDNA3: op in [18:15], format [25:19], slc/dlc/glc in [14:12], offen and
 * idxen in bits 22/23 of the second dword (the ISA guides' MTBUF tables;
 * LLVM MTBUF_Real_gfx10/gfx11). */
static int mtbuf(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	if (avail < 8)
		return -1;
	uint32_t x = word(code + 4);
	bool ok = gfx == 11 ? lookup(gfx, RDC_FMT_MTBUF, (w >> 15) & 0xf, in)
			    : lookup(gfx, (x >> 21) & 1 ? RDC_FMT_MTBUFHI : RDC_FMT_MTBUF, (w >> 16) & 7, in);
	in->len = 8;
	if (!ok) {
		in->mnemonic = "<MTBUF tbuffer_*>";
		return -1;
	}
	in->imm = (int32_t)(w & 0xfff);
	in->bfmt = (w >> 19) & 0x7f;
	if (gfx == 11) {
		in->slc = (w >> 12) & 1;
		in->dlc = (w >> 13) & 1;
		in->glc = (w >> 14) & 1;
		in->offen = (x >> 22) & 1;
		in->idxen = (x >> 23) & 1;
	} else {
		in->offen = (w >> 12) & 1;
		in->idxen = (w >> 13) & 1;
		in->glc = (w >> 14) & 1;
		in->dlc = (w >> 15) & 1;
		in->slc = (x >> 22) & 1;
	}
	in->addr = (uint16_t)((x & 0xff) + RDC_OPD_VGPR);
	in->data0 = (uint16_t)(((x >> 8) & 0xff) + RDC_OPD_VGPR);
	in->srsrc = (uint16_t)(((x >> 16) & 0x1f) << 2);
	in->soffset = sopd(gfx, x >> 24);
	return 0;
}

/* MIMG: the opcode here (RDNA2: op[6:0] in [24:18], op[7] in bit 0;
 * RDNA3: op in [25:18]), the operands in isa_decode_mimg.c.  A word whose
 * opcode the tables lack keeps its length (NSA dwords included) so that a
 * linear walk stays on instruction boundaries.  LLVM AMDGPU
 * SIInstrFormats.td (MIMGe_gfx10, MIMGe_gfx11) and the ISA guides' MIMG
 * format tables. */
static int mimg(unsigned gfx, const uint8_t *code, size_t avail, uint32_t w, struct rdc_inst *in)
{
	bool ok;
	if (gfx == 10) {
		in->len = (uint8_t)(8 + 4 * ((w >> 1) & 3));
		ok = lookup(gfx, w & 1 ? RDC_FMT_MIMGHI : RDC_FMT_MIMG, (w >> 18) & 0x7f, in);
	} else {
		in->len = w & 1 ? 12 : 8;
		ok = lookup(gfx, RDC_FMT_MIMG, (w >> 18) & 0xff, in);
	}
	if (!ok)
		return -1;
	return rdc_decode_mimg(gfx, code, avail, in);
}

/* Formats the decoder does not decode: a name for the coverage listing and
 * the length, so that a linear walk stays on instruction boundaries.
 * Encodings: RDNA2/RDNA3 ISA guides, "Microcode Formats" (EXP 111110, gfx10 VINTRP 110010, gfx11 VINTERP 11001101 and LDSDIR
 * 11001110). */
static int other(unsigned gfx, uint32_t w, struct rdc_inst *in)
{
	unsigned top6 = w >> 26;
	in->len = 4;
	if (top6 == 0x3E) {
		in->mnemonic = "exp";
		in->len = 8;
	} else if (gfx == 10 && top6 == 0x32) {
		in->mnemonic = "<VINTRP v_interp_*>";
	} else if (gfx == 11 && (w >> 24) == 0xCD) {
		in->mnemonic = "<VINTERP v_interp_*>";
		in->len = 8;
	} else if (gfx == 11 && (w >> 24) == 0xCE) {
		in->mnemonic = "<LDSDIR lds_*>";
	}
	return -1;
}

/* The length of a word of a known format whose opcode the tables lack:
 * 4 for SOP* and VOP1/2/C, 8 for the two-dword formats. */
static uint8_t refused_len(uint32_t w)
{
	if ((w >> 30) == 2 || (w >> 31) == 0)
		return 4;
	return 8;
}

int rdc_isa_decode(unsigned gfx, const uint8_t *code, size_t avail, struct rdc_inst *in)
{
	memset(in, 0, sizeof *in);
	in->mnemonic = "<unknown encoding>";
	if (avail < 4)
		return -1;
	uint32_t w = word(code);
	int rc;
	if ((w >> 30) == 2)
		rc = sop(gfx, code, avail, w, in);
	else if ((w >> 31) == 0)
		rc = vop12c(gfx, code, avail, w, in);
	else if ((w >> 26) == 0x3D)
		rc = smem(gfx, code, avail, w, in);
	else if ((w >> 26) == 0x35)
		rc = vop3(gfx, code, avail, w, in);
	else if ((w >> 24) == 0xCC)
		rc = vop3p(gfx, code, avail, w, in);
	else if ((w >> 26) == 0x32 && gfx == 11)
		rc = vopd(code, avail, w, in);
	else if ((w >> 26) == 0x36)
		rc = ds(gfx, code, avail, w, in);
	else if ((w >> 26) == 0x37)
		rc = flat(gfx, code, avail, w, in);
	else if ((w >> 26) == 0x38)
		rc = mubuf(gfx, code, avail, w, in);
	else if ((w >> 26) == 0x3A)
		rc = mtbuf(gfx, code, avail, w, in);
	else if ((w >> 26) == 0x3C)
		rc = mimg(gfx, code, avail, w, in);
	else
		rc = other(gfx, w, in);
	if (rc < 0) {
		if (!in->len)
			in->len = refused_len(w);
		return -1;
	}
	return 0;
}
