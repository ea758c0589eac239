/* SPDX-License-Identifier: MIT */
/*
 * isa_decode_mimg.c — the operand fields of an image (MIMG) instruction, for
 * gfx10.3 and gfx11: data and address VGPRs (the NSA forms name each
 * address's VGPR in extra dwords), the resource (T#) and sampler (S#) SGPRs,
 * dmask, dimension and the modifiers.  rdc_isa_decode (isa_decode.c) has already looked the
 * opcode up and set the length.
 *
 * Field positions: LLVM AMDGPU SIInstrFormats.td, MIMGe (common) with
 * MIMGe_gfx10 and MIMGe_gfx11, cross-checked with Debian's llvm-mc 19
 * (-show-encoding, one modifier at a time):
 *   both:  dmask [11:8], vaddr0 [39:32], vdata [47:40], srsrc [52:48]
 *          (SGPR/4), lwe-less fields below;
 *   gfx10: nsa [2:1] (extra dwords), dim [5:3], dlc 7, unorm 12, glc 13,
 *          r128 15, tfe 16, lwe 17, slc 25, ssamp [57:53], a16 62, d16 63;
 *   gfx11: nsa 0 (one extra dword), dim [4:2], unorm 7, slc 12, dlc 13,
 *          glc 14, r128 15, a16 16, d16 17, tfe 53, lwe 54, ssamp [62:58].
 * NSA dwords hold one address VGPR a byte (vaddr1, vaddr2, ...); LLVM's
 * MIMGNSAHelper: up to 13 addresses on gfx10 (3 dwords), 5 on gfx11.
 */
#include <string.h>

#include "rdnacompat/isa.h"

int rdc_decode_mimg(unsigned gfx, const uint8_t *code, size_t avail, struct rdc_inst *in)
{
	if (avail < in->len || in->len < 8)
		return -1;
	uint32_t w, x;
	memcpy(&w, code, 4);
	memcpy(&x, code + 4, 4);
	struct rdc_mimg *m = &in->mimg;
	m->dmask = (w >> 8) & 0xf;
	m->r128 = (w >> 15) & 1;
	in->addr = (uint16_t)((x & 0xff) + RDC_OPD_VGPR);
	in->dst = (uint16_t)(((x >> 8) & 0xff) + RDC_OPD_VGPR);
	in->srsrc = (uint16_t)(((x >> 16) & 0x1f) << 2);
	if (gfx == 10) {
		m->dim = (w >> 3) & 7;
		in->dlc = (w >> 7) & 1;
		m->unorm = (w >> 12) & 1;
		in->glc = (w >> 13) & 1;
		m->tfe = (w >> 16) & 1;
		m->lwe = (w >> 17) & 1;
		in->slc = (w >> 25) & 1;
		in->saddr = (uint16_t)(((x >> 21) & 0x1f) << 2);
		m->a16 = (x >> 30) & 1;
		m->d16 = (x >> 31) & 1;
	} else {
		m->dim = (w >> 2) & 7;
		m->unorm = (w >> 7) & 1;
		in->slc = (w >> 12) & 1;
		in->dlc = (w >> 13) & 1;
		in->glc = (w >> 14) & 1;
		m->a16 = (w >> 16) & 1;
		m->d16 = (w >> 17) & 1;
		m->tfe = (x >> 21) & 1;
		m->lwe = (x >> 22) & 1;
		in->saddr = (uint16_t)(((x >> 26) & 0x1f) << 2);
	}
	if (in->len > 8) { /* NSA: vaddr0 then one VGPR a byte */
		unsigned n = 1 + (unsigned)(in->len - 8);
		m->naddr = (uint8_t)n;
		m->vaddr[0] = (uint8_t)(x & 0xff);
		for (unsigned i = 1; i < n && i < sizeof m->vaddr; i++)
			m->vaddr[i] = code[8 + i - 1];
	}
	return 0;
}
