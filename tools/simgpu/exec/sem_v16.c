/* SPDX-License-Identifier: MIT */
/*
 * sem_v16.c — 16-bit and packed vector operations: f16/i16/u16 arithmetic
 * and conversions, packed (VOP3P) f16/i16 math, dot products and fma_mix.
 */
#include "wave.h"

rdc_sem_fn rdc_sem_v16(uint16_t op)
{
	(void)op;
	return NULL;
}
