/* SPDX-License-Identifier: MIT */
/*
 * isa.h — the one instruction decoder of rdnacompat (shim/core/isa_decode.c):
 * machine words of gfx10.3 (RDNA2) and gfx11 (RDNA3) to struct rdc_inst.
 * The shim's per-kernel instruction checks, `rdnacompat inspect` and the
 * simulator's execution engine (tools/simgpu/exec) all decode with it; the
 * opcode tables are generated from Debian's LLVM (tools/isagen/gen_optab.py
 * -> isa_optab_gen.{h,c}).
 *
 * Operand codes are the hardware's 9-bit source encoding in one spelling for
 * both generations: 0-105 SGPRs, 106/107 VCC, 108-123 TTMP, 124 M0, 125 NULL
 * (gfx11 swaps M0 and NULL; the decoder swaps them back), 126/127 EXEC,
 * 128-208 integer constants, 235-238 the aperture registers, 240-248 float
 * constants, 251 VCCZ, 252 EXECZ, 253 SCC, 255 a literal, 256-511 VGPRs.
 */
#ifndef RDNACOMPAT_ISA_H
#define RDNACOMPAT_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/isa_optab_gen.h"

#define RDC_OPD_VCC 106
#define RDC_OPD_M0 124
#define RDC_OPD_NULL 125
#define RDC_OPD_EXEC 126
#define RDC_OPD_LIT 255
#define RDC_OPD_VGPR 256

/* The engine's semantic function (tools/simgpu/exec/wave.h).  The decoder
 * leaves fn and fn_y NULL; the engine's rdc_decode() fills them. */
struct rdc_wave;
struct rdc_inst;
typedef void (*rdc_sem_fn)(struct rdc_wave *w, const struct rdc_inst *in);

/* How a VALU instruction was encoded (operand modifiers differ). */
enum rdc_enc { RDC_ENC_NONE, RDC_ENC_E32, RDC_ENC_E64, RDC_ENC_SDWA, RDC_ENC_DPP16, RDC_ENC_DPP8, RDC_ENC_VOP3P };

struct rdc_inst {
	rdc_sem_fn fn;           /* NULL: not executable (the mnemonic says what) */
	uint16_t op;             /* enum rdc_op */
	uint8_t fmt;             /* enum rdc_fmt */
	uint8_t len;             /* bytes */
	uint8_t enc;             /* enum rdc_enc */
	uint8_t abs, neg, neg_hi;/* per source bits */
	uint8_t opsel, opsel_hi; /* VOP3 op_sel (bit 3: dst), VOP3P op_sel_hi */
	uint8_t clamp, omod;
	uint16_t dst, sdst;      /* VALU: dst is a VGPR code (or SGPR for readlane); sdst VOP3b/VOPC */
	uint16_t src[3];
	uint32_t lit;            /* the literal (RDC_OPD_LIT) */
	int32_t imm;             /* SOPP/SOPK simm16; memory instruction offset */
	/* memory */
	uint8_t glc, slc, dlc, gds, offen, idxen, sve, lds;
	uint16_t addr, data0, data1, saddr, soffset, srsrc; /* operand codes */
	uint8_t offset1;         /* DS second offset */
	uint8_t bfmt;            /* MTBUF: the instruction's data format (BUF_FMT_*) */
	/* DPP / SDWA */
	uint16_t dpp_ctrl;
	uint8_t row_mask, bank_mask, bound_ctrl, fi;
	uint32_t dpp8;           /* 8 x 3-bit lane selects */
	uint8_t dst_sel, dst_unused, src0_sel, src1_sel, sext;
	/* VOPD: the Y half (the X half is the instruction itself) */
	uint16_t op_y, dst_y, src_y[2];
	rdc_sem_fn fn_y;
	/* MIMG (isa_decode_mimg.c): vdata is dst, the T# srsrc, the S# saddr */
	struct rdc_mimg {
		uint8_t dmask, dim, unorm, a16, d16, tfe, lwe, r128;
		uint8_t naddr;           /* address VGPRs named (NSA), 0: consecutive from addr */
		uint8_t vaddr[13];       /* NSA: each address's VGPR */
	} mimg;
	const char *mnemonic;    /* the generation's own spelling */
};

/* Decode the instruction at code (avail bytes readable) for generation gfx
 * (10: gfx10.3, 11: gfx11); 0 on success, -1 when the word is no instruction
 * the decoder decodes in full.  On -1, in->len is still the word's length
 * (so a linear walk stays on instruction boundaries), in->mnemonic names the
 * instruction or format, and in->op is set where the opcode tables know the
 * opcode. */
int rdc_isa_decode(unsigned gfx, const uint8_t *code, size_t avail, struct rdc_inst *in);

/* isa_decode_mimg.c — the operand fields of an MIMG word whose opcode
 * rdc_isa_decode looked up: 0, or -1 when the bytes end early or the form
 * is not one the generation has. */
int rdc_decode_mimg(unsigned gfx, const uint8_t *code, size_t avail, struct rdc_inst *in);

#endif
