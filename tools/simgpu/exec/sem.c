/* SPDX-License-Identifier: MIT */
/*
 * sem.c — the semantic core's one lookup: an operation's handler from the
 * family that implements it (the same handler for gfx10 and gfx11 code), or
 * NULL when no family does — then executing it fails the dispatch and
 * `rdnacompat sim --coverage` lists it.
 */
#include "wave.h"

rdc_sem_fn rdc_sem_lookup(uint16_t op)
{
	rdc_sem_fn f;
	if (!op || op >= RDC_OP_COUNT)
		return NULL;
	if ((f = rdc_sem_sctl(op)) || (f = rdc_sem_salu(op)) || (f = rdc_sem_smem(op)) || (f = rdc_sem_valu(op)) ||
	    (f = rdc_sem_vcmp(op)) || (f = rdc_sem_v16(op)) || (f = rdc_sem_vmem(op)) || (f = rdc_sem_lds(op)) || (f = rdc_sem_sfloat(op)) ||
	    (f = rdc_sem_vmedia(op)) || (f = rdc_sem_image(op)))
		return f;
	return NULL;
}
