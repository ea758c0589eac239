/* SPDX-License-Identifier: MIT */
/*
 * decode_sem.c — the engine's decode: the shared decoder
 * (shim/core/isa_decode.c, include/rdnacompat/isa.h) fills the fields, and
 * this file attaches the semantic core's function for the operation (and
 * for VOPD's second half).  An instruction the decoder does not decode in
 * full stays without one: the engine stops there with its mnemonic.
 */
#include "wave.h"

int rdc_decode(unsigned gfx, const uint8_t *code, size_t avail, struct rdc_inst *in)
{
	if (rdc_isa_decode(gfx, code, avail, in) < 0)
		return -1;
	in->fn = rdc_sem_lookup(in->op);
	if (in->fmt == RDC_FMT_VOPD) {
		in->fn_y = rdc_sem_lookup(in->op_y);
		in->fn = in->fn && in->fn_y ? rdc_sem_vopd() : NULL;
	}
	return 0;
}
