/* SPDX-License-Identifier: MIT */
/*
 * sem_smem.c — scalar memory: s_load_b32..b512 (address = SGPR pair +
 * offset + soffset) and s_buffer_load_b32..b512 (through a buffer V#:
 * base + offset + soffset, dwords past num_records read 0, as the hardware's
 * range check gives).  Loads complete at once (s_waitcnt has nothing to do).
 */
#include <string.h>

#include "wave.h"

static unsigned dwords(uint16_t op)
{
	switch (op) {
	case RDC_OP_S_LOAD_B32: case RDC_OP_S_BUFFER_LOAD_B32: return 1;
	case RDC_OP_S_LOAD_B64: case RDC_OP_S_BUFFER_LOAD_B64: return 2;
	case RDC_OP_S_LOAD_B128: case RDC_OP_S_BUFFER_LOAD_B128: return 4;
	case RDC_OP_S_LOAD_B256: case RDC_OP_S_BUFFER_LOAD_B256: return 8;
	case RDC_OP_S_LOAD_B512: case RDC_OP_S_BUFFER_LOAD_B512: return 16;
	default: return 0;
	}
}

static void sload(struct rdc_wave *w, const struct rdc_inst *in)
{
	unsigned n = dwords(in->op);
	uint64_t base = rdc_sread64(w, in, in->addr, false) & 0xffffffffffffull;
	uint64_t off = (uint64_t)(int64_t)in->imm;
	if (in->soffset != RDC_OPD_NULL)
		off += rdc_sread(w, in, in->soffset);
	uint32_t v[16];
	bool buffer = in->op == RDC_OP_S_BUFFER_LOAD_B32 || in->op == RDC_OP_S_BUFFER_LOAD_B64 ||
		      in->op == RDC_OP_S_BUFFER_LOAD_B128 || in->op == RDC_OP_S_BUFFER_LOAD_B256 ||
		      in->op == RDC_OP_S_BUFFER_LOAD_B512;
	if (buffer) {
		uint32_t d0 = w->s[in->addr], d1 = w->s[in->addr + 1], d2 = w->s[in->addr + 2];
		uint64_t b = ((uint64_t)(d1 & 0xffff) << 32) | d0;
		uint64_t a = (off & ~3ull);
		for (unsigned i = 0; i < n; i++) {
			uint64_t o = a + 4ull * i;
			if (o + 4 > d2) {
				v[i] = 0;
				continue;
			}
			uint8_t *p = rdc_gptr(w, b + o, 4, false);
			if (!p)
				return;
			memcpy(&v[i], p, 4);
		}
	} else {
		uint8_t *p = rdc_gptr(w, (base + off) & ~3ull, 4 * n, false);
		if (!p)
			return;
		memcpy(v, p, 4 * n);
	}
	for (unsigned i = 0; i < n; i++)
		rdc_swrite(w, (uint16_t)(in->dst + i), v[i]);
}

rdc_sem_fn rdc_sem_smem(uint16_t op)
{
	return dwords(op) ? sload : NULL;
}
