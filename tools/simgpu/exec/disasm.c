/* SPDX-License-Identifier: MIT */
/*
 * disasm.c — a decoded instruction (struct rdc_inst) as one line of text:
 * the generation's mnemonic, the canonical operation, the format, then
 * every field the decoder filled as role=value (dst, sdst, src0..2, addr,
 * data0, saddr, imm, ...; modifiers as bit masks, memory flags by name).
 *
 * The line is not assembler syntax: it says what the engine will execute,
 * so that tests/decode/decode-diff.py can hold it against what LLVM's
 * disassembler prints for the same bytes (operands in LLVM's order are
 * mapped to these roles there).  Operand codes print as LLVM names them:
 * s5, vcc_lo, ttmp3, m0, null, exec_lo, integer and float inline
 * constants, the literal as 0x... (its value), v7.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wave.h"

struct out { char *p; size_t n, at; };

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	if (o->at >= o->n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(o->p + o->at, o->n - o->at, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->at += (size_t)k;
}

/* Operand code -> LLVM's name for it (the literal by value). */
static void opd(struct out *o, const char *role, const struct rdc_inst *in, uint16_t c)
{
	static const char *const fc[9] = { "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "inv2pi" };
	put(o, " %s=", role);
	if (c >= RDC_OPD_VGPR)
		put(o, "v%u", c - RDC_OPD_VGPR);
	else if (c < 106)
		put(o, "s%u", c);
	else if (c == 106 || c == 107)
		put(o, "vcc_%s", c == 106 ? "lo" : "hi");
	else if (c >= 108 && c <= 123)
		put(o, "ttmp%u", c - 108);
	else if (c == RDC_OPD_M0)
		put(o, "m0");
	else if (c == RDC_OPD_NULL)
		put(o, "null");
	else if (c == 126 || c == 127)
		put(o, "exec_%s", c == 126 ? "lo" : "hi");
	else if (c >= 128 && c <= 192)
		put(o, "%u", c - 128);
	else if (c >= 193 && c <= 208)
		put(o, "%d", 192 - (int)c);
	else if (c >= 240 && c <= 248)
		put(o, "%s", fc[c - 240]);
	else if (c == RDC_OPD_LIT)
		put(o, "0x%x", in->lit);
	else {
		static const struct { uint16_t c; const char *n; } named[] = {
			{ 235, "src_shared_base" }, { 236, "src_shared_limit" }, { 237, "src_private_base" },
			{ 238, "src_private_limit" }, { 239, "src_pops_exiting_wave_id" }, { 251, "src_vccz" },
			{ 252, "src_execz" }, { 253, "src_scc" }, { 254, "src_lds_direct" },
		};
		for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
			if (named[i].c == c) {
				put(o, "%s", named[i].n);
				return;
			}
		put(o, "opd%u", c);
	}
}

static bool is_fmt(const struct rdc_inst *in, enum rdc_fmt f) { return in->fmt == (uint8_t)f; }

/* gfx11 VOP1/2/C e32 and DPP: a true16 high half is bit 7 of the VGPR
 * field; print the field as LLVM does (v128 + r). */
static uint16_t raw16(unsigned gfx, const struct rdc_inst *in, uint16_t c, int bit)
{
	bool vop = is_fmt(in, RDC_FMT_VOP1) || is_fmt(in, RDC_FMT_VOP2) || is_fmt(in, RDC_FMT_VOPC);
	if (gfx == 11 && vop && c >= RDC_OPD_VGPR && (in->opsel >> bit & 1))
		return (uint16_t)(c + 128);
	return c;
}

static void valu(struct out *o, unsigned gfx, const struct rdc_inst *in)
{
	static const char *const enc[] = { "none", "e32", "e64", "sdwa", "dpp16", "dpp8", "vop3p" };
	put(o, " enc=%s", in->enc < sizeof enc / sizeof enc[0] ? enc[in->enc] : "?");
	opd(o, "dst", in, raw16(gfx, in, in->dst, 3));
	opd(o, "sdst", in, in->sdst);
	for (int k = 0; k < 3; k++) {
		char r[8];
		snprintf(r, sizeof r, "src%d", k);
		opd(o, r, in, raw16(gfx, in, in->src[k], k));
	}
	if (in->len > 4 && (in->src[0] == RDC_OPD_LIT || in->src[1] == RDC_OPD_LIT || in->src[2] == RDC_OPD_LIT ||
			    in->op == RDC_OP_V_FMAMK_F32 || in->op == RDC_OP_V_FMAAK_F32 ||
			    in->op == RDC_OP_V_FMAMK_F16 || in->op == RDC_OP_V_FMAAK_F16))
		put(o, " lit=0x%x", in->lit);
	put(o, " abs=%u neg=%u", in->abs, in->neg);
	if (in->enc == RDC_ENC_VOP3P)
		put(o, " neg_hi=%u opsel_hi=%u", in->neg_hi, in->opsel_hi);
	if (in->enc == RDC_ENC_E64 || in->enc == RDC_ENC_VOP3P || (gfx == 10 && in->enc == RDC_ENC_DPP16))
		put(o, " opsel=%u", in->opsel);
	put(o, " clamp=%u omod=%u", in->clamp, in->omod);
	if (in->enc == RDC_ENC_DPP16)
		put(o, " dpp_ctrl=0x%x row_mask=0x%x bank_mask=0x%x bound_ctrl=%u fi=%u", in->dpp_ctrl, in->row_mask,
		    in->bank_mask, in->bound_ctrl, in->fi);
	if (in->enc == RDC_ENC_DPP8)
		put(o, " dpp8=0x%x fi=%u", in->dpp8 & 0xffffff, in->fi);
	if (in->enc == RDC_ENC_SDWA)
		put(o, " dst_sel=%u dst_unused=%u src0_sel=%u src1_sel=%u sext=%u", in->dst_sel, in->dst_unused,
		    in->src0_sel, in->src1_sel, in->sext);
}

int rdc_disasm(unsigned gfx, const struct rdc_inst *in, char *buf, size_t n)
{
	struct out o = { buf, n, 0 };
	if (n)
		buf[0] = 0;
	put(&o, "%s op=%s fmt=%s", in->mnemonic, rdc_op_name[in->op],
	    in->fmt < RDC_FMT_COUNT ? rdc_fmt_name[in->fmt] : "?");
	switch ((enum rdc_fmt)in->fmt) {
	case RDC_FMT_SOP1: case RDC_FMT_SOP2: case RDC_FMT_SOPC:
		if (!is_fmt(in, RDC_FMT_SOPC))
			opd(&o, "dst", in, in->dst);
		opd(&o, "src0", in, in->src[0]);
		if (!is_fmt(in, RDC_FMT_SOP1))
			opd(&o, "src1", in, in->src[1]);
		break;
	case RDC_FMT_SOPK:
		opd(&o, "dst", in, in->dst);
		put(&o, " imm=%d", in->imm);
		if (in->len == 8)
			put(&o, " lit=0x%x", in->lit);
		break;
	case RDC_FMT_SOPP:
		put(&o, " imm=%d", in->imm);
		break;
	case RDC_FMT_SMEM:
		opd(&o, "dst", in, in->dst);
		opd(&o, "addr", in, in->addr);
		opd(&o, "soffset", in, in->soffset);
		put(&o, " imm=%d glc=%u dlc=%u", in->imm, in->glc, in->dlc);
		break;
	case RDC_FMT_DS:
		opd(&o, "dst", in, in->dst);
		opd(&o, "addr", in, in->addr);
		opd(&o, "data0", in, in->data0);
		opd(&o, "data1", in, in->data1);
		put(&o, " imm=%d offset1=%u gds=%u", in->imm, in->offset1, in->gds);
		break;
	case RDC_FMT_FLAT: case RDC_FMT_SCRATCH: case RDC_FMT_GLOBAL:
		opd(&o, "dst", in, in->dst);
		opd(&o, "addr", in, in->addr);
		opd(&o, "data0", in, in->data0);
		if (!is_fmt(in, RDC_FMT_FLAT))
			opd(&o, "saddr", in, in->saddr);
		put(&o, " imm=%d glc=%u slc=%u dlc=%u lds=%u sve=%u", in->imm, in->glc, in->slc, in->dlc, in->lds,
		    in->sve);
		break;
	case RDC_FMT_MTBUF: case RDC_FMT_MTBUFHI:
		put(&o, " format=%u", in->bfmt);
		/* fall through */
	case RDC_FMT_MUBUF:
		opd(&o, "data0", in, in->data0);
		opd(&o, "addr", in, in->addr);
		opd(&o, "srsrc", in, in->srsrc);
		opd(&o, "soffset", in, in->soffset);
		put(&o, " imm=%d offen=%u idxen=%u glc=%u slc=%u dlc=%u lds=%u", in->imm, in->offen, in->idxen,
		    in->glc, in->slc, in->dlc, in->lds);
		break;
	case RDC_FMT_MIMG: case RDC_FMT_MIMGHI:
		opd(&o, "dst", in, in->dst);
		opd(&o, "addr", in, in->addr);
		if (in->mimg.naddr) {
			put(&o, " addrs=");
			for (unsigned i = 0; i < in->mimg.naddr; i++)
				put(&o, "%sv%u", i ? "," : "", in->mimg.vaddr[i]);
		}
		opd(&o, "srsrc", in, in->srsrc);
		opd(&o, "ssamp", in, in->saddr);
		put(&o, " dmask=%u dim=%u unorm=%u a16=%u d16=%u tfe=%u lwe=%u r128=%u glc=%u slc=%u dlc=%u",
		    in->mimg.dmask, in->mimg.dim, in->mimg.unorm, in->mimg.a16, in->mimg.d16, in->mimg.tfe,
		    in->mimg.lwe, in->mimg.r128, in->glc, in->slc, in->dlc);
		break;
	case RDC_FMT_VOPD:
		opd(&o, "dst", in, in->dst);
		opd(&o, "src0", in, in->src[0]);
		opd(&o, "src1", in, in->src[1]);
		put(&o, " op_y=%s", rdc_op_name[in->op_y]);
		opd(&o, "dst_y", in, in->dst_y);
		opd(&o, "src_y0", in, in->src_y[0]);
		opd(&o, "src_y1", in, in->src_y[1]);
		if (in->len > 8)
			put(&o, " lit=0x%x", in->lit);
		break;
	default:
		valu(&o, gfx, in);
		break;
	}
	return o.at < n ? 0 : -1;
}
