/* SPDX-License-Identifier: MIT */
/*
 * sem_vcmp.c — vector compares (VOPC, and their VOP3 form): v_cmp_* write a
 * lane mask to VCC or an SGPR (pair), v_cmpx_* write EXEC (only EXEC, as
 * on gfx10 and gfx11); inactive lanes' bits are 0.  v_cmp_class_* test the
 * class bits of src1.  The condition, type and width of each operation are
 * read once from its canonical name ("v_cmp_nge_f32"), so every compare
 * LLVM's tables know is covered by one handler.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "wave.h"

enum kind { K_NONE, K_F, K_I, K_U, K_CLASS };

/* A condition is its truth table, which is also its opcode's low four
 * bits in VOPC: bit 0 holds when S0 < S1, bit 1 when S0 == S1, bit 2 when
 * S0 > S1, bit 3 when they are unordered (a NaN).  So lt = 1, le = 3,
 * lg = 5 (ordered, not equal), o = 7, u = 8, nge = 9 (lt or unordered),
 * t = 15; the integer ne is lg's table. */
enum { O_LT, O_EQ, O_GT, O_UN };

struct cmpinfo { uint8_t kind, cond, bits, x; };
static struct cmpinfo info[RDC_OP_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void build(void)
{
	static const struct { const char *name; uint8_t table; } conds[] = {
		{ "f", 0 }, { "lt", 1 }, { "eq", 2 }, { "le", 3 }, { "gt", 4 }, { "lg", 5 }, { "ge", 6 },
		{ "o", 7 }, { "u", 8 }, { "nge", 9 }, { "nlg", 10 }, { "ngt", 11 }, { "nle", 12 }, { "neq", 13 },
		{ "nlt", 14 }, { "t", 15 }, { "ne", 5 },
	};
	for (unsigned op = 1; op < RDC_OP_COUNT; op++) {
		const char *n = rdc_op_name[op];
		bool x = !strncmp(n, "v_cmpx_", 7);
		if (!x && strncmp(n, "v_cmp_", 6))
			continue;
		const char *p = n + (x ? 7 : 6);
		const char *us = strrchr(p, '_');
		if (!us)
			continue;
		char c[8];
		size_t cl = (size_t)(us - p);
		if (cl >= sizeof c)
			continue;
		memcpy(c, p, cl);
		c[cl] = 0;
		const char *ty = us + 1;
		struct cmpinfo ci = { K_NONE, 0, 0, x };
		ci.bits = (uint8_t)strtoul(ty + 1, NULL, 10);
		if (!strcmp(c, "class")) {
			ci.kind = K_CLASS;
		} else {
			for (unsigned i = 0; i < sizeof conds / sizeof *conds; i++)
				if (!strcmp(c, conds[i].name))
					ci.cond = conds[i].table, ci.kind = ty[0] == 'f' ? K_F : ty[0] == 'i' ? K_I : K_U;
			if (ci.kind == K_NONE)
				continue;
		}
		if (ci.bits != 16 && ci.bits != 32 && ci.bits != 64)
			continue;
		info[op] = ci;
	}
}

/* Which of the four outcomes two values have. */
static unsigned f_outcome(double a, double b)
{
	return a < b ? O_LT : a == b ? O_EQ : a > b ? O_GT : O_UN;
}
static unsigned i_outcome(int64_t a, int64_t b) { return a < b ? O_LT : a == b ? O_EQ : O_GT; }
static unsigned u_outcome(uint64_t a, uint64_t b) { return a < b ? O_LT : a == b ? O_EQ : O_GT; }

/* V_CMP_CLASS's index into S1 for a float's raw bits (fb fraction bits,
 * eb exponent bits): 0 signalling NaN, 1 quiet NaN (top fraction bit set),
 * 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal,
 * 9 +inf.  From the bits, not a converted value: a conversion to double
 * would quiet a signalling NaN and make f16/f32 denormals normal. */
static unsigned fclass(uint64_t u, unsigned fb, unsigned eb)
{
	uint64_t frac = u & ((1ull << fb) - 1), ex = (u >> fb) & ((1ull << eb) - 1), ones = (1ull << eb) - 1;
	bool neg = (u >> (fb + eb)) & 1;
	if (ex == ones)
		return frac ? ((frac >> (fb - 1)) & 1) : neg ? 2 : 9;
	if (ex)
		return neg ? 3 : 8;
	if (frac)
		return neg ? 4 : 7;
	return neg ? 5 : 6;
}

/* The class compares: S0's raw bits after the abs/neg modifiers, S1 the
 * mask (16 bits for f16, whose true16 forms may name a high half). */
static uint64_t class_mask(struct rdc_wave *w, const struct rdc_inst *in, unsigned bits)
{
	uint64_t r = 0;
	if (bits == 64) {
		double d[RDC_LANES];
		uint32_t m[RDC_LANES];
		rdc_vsrcd(w, in, 0, d);
		rdc_vsrc32(w, in, 1, RDC_TY_B32, m);
		for (unsigned l = 0; l < w->n; l++) {
			uint64_t u;
			memcpy(&u, &d[l], 8);
			r |= (uint64_t)((m[l] >> fclass(u, 52, 11)) & 1) << l;
		}
	} else if (bits == 32) {
		float f[RDC_LANES];
		uint32_t m[RDC_LANES];
		rdc_vsrcf(w, in, 0, f);
		rdc_vsrc32(w, in, 1, RDC_TY_B32, m);
		for (unsigned l = 0; l < w->n; l++) {
			uint32_t u;
			memcpy(&u, &f[l], 4);
			r |= (uint64_t)((m[l] >> fclass(u, 23, 8)) & 1) << l;
		}
	} else {
		uint16_t h[RDC_LANES], m[RDC_LANES];
		rdc_vsrc16(w, in, 0, h);
		rdc_vsrc16(w, in, 1, m);
		uint16_t clr = (in->abs & 1) ? 0x7fff : 0xffff, flip = (in->neg & 1) ? 0x8000 : 0;
		for (unsigned l = 0; l < w->n; l++)
			r |= (uint64_t)((m[l] >> fclass((h[l] & clr) ^ flip, 10, 5)) & 1) << l;
	}
	return r;
}

/* Source k of lane values as double (floats), or sign/zero-extended ints. */
static void read_src(struct rdc_wave *w, const struct rdc_inst *in, int k, const struct cmpinfo *ci, double *fd,
		     int64_t *iv)
{
	unsigned n = w->n;
	if (ci->bits == 64) {
		uint64_t v[RDC_LANES];
		if (ci->kind == K_F) {
			rdc_vsrcd(w, in, k, fd);
		} else {
			rdc_vsrc64(w, in, k, false, v);
			for (unsigned l = 0; l < n; l++)
				iv[l] = (int64_t)v[l];
		}
		return;
	}
	if (ci->bits == 16) {
		if (ci->kind == K_F) {
			float f[RDC_LANES];
			rdc_vsrch(w, in, k, f);
			for (unsigned l = 0; l < n; l++)
				fd[l] = f[l];
		} else {
			uint16_t h[RDC_LANES];
			rdc_vsrc16(w, in, k, h);
			for (unsigned l = 0; l < n; l++)
				iv[l] = ci->kind == K_I ? (int16_t)h[l] : (int64_t)h[l];
		}
		return;
	}
	if (ci->kind == K_F) {
		float f[RDC_LANES];
		rdc_vsrcf(w, in, k, f);
		for (unsigned l = 0; l < n; l++)
			fd[l] = f[l];
	} else {
		uint32_t u[RDC_LANES];
		rdc_vsrc32(w, in, k, RDC_TY_B32, u);
		for (unsigned l = 0; l < n; l++)
			iv[l] = ci->kind == K_I ? (int32_t)u[l] : (int64_t)u[l];
	}
}

static void vcmp(struct rdc_wave *w, const struct rdc_inst *in)
{
	const struct cmpinfo *ci = &info[in->op];
	uint64_t r = 0;
	if (ci->kind == K_CLASS) {
		r = class_mask(w, in, ci->bits);
	} else {
		double fa[RDC_LANES], fb[RDC_LANES];
		int64_t ia[RDC_LANES], ib[RDC_LANES];
		unsigned tt = ci->cond;
		read_src(w, in, 0, ci, fa, ia);
		read_src(w, in, 1, ci, fb, ib);
		if (ci->kind == K_F) {
			for (unsigned l = 0; l < w->n; l++)
				r |= (uint64_t)((tt >> f_outcome(fa[l], fb[l])) & 1) << l;
		} else if (ci->kind == K_I) {
			for (unsigned l = 0; l < w->n; l++)
				r |= (uint64_t)((tt >> i_outcome(ia[l], ib[l])) & 1) << l;
		} else { /* read_src zero-extends the unsigned types */
			for (unsigned l = 0; l < w->n; l++)
				r |= (uint64_t)((tt >> u_outcome((uint64_t)ia[l], (uint64_t)ib[l])) & 1) << l;
		}
	}
	/* after the reads: a DPP source without a lane to read disables the lane */
	r &= rdc_exec_mask(w) & ~w->dpp_off;
	if (ci->x)
		rdc_set_exec(w, r);
	else
		rdc_swrite_mask(w, in->sdst, r);
}

rdc_sem_fn rdc_sem_vcmp(uint16_t op)
{
	pthread_once(&once, build);
	return op < RDC_OP_COUNT && info[op].kind != K_NONE ? vcmp : NULL;
}
