/* SPDX-License-Identifier: MIT */
/*
 * sem_vcmp.c — vector compares (VOPC, and their VOP3 form): v_cmp_* write a
 * lane mask to VCC or an SGPR (pair), v_cmpx_* write EXEC (only EXEC, as
 * on gfx10 and gfx11); inactive lanes' bits are 0.  v_cmp_class_* test the
 * class bits of src1.  The condition, type and width of each operation are
 * read once from its canonical name ("v_cmp_nge_f32"), so every compare
 * LLVM's tables know is covered by one handler.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "wave.h"

enum kind { K_NONE, K_F, K_I, K_U, K_CLASS };
enum cond { C_F, C_LT, C_EQ, C_LE, C_GT, C_LG, C_GE, C_O, C_U, C_NGE, C_NLG, C_NGT, C_NLE, C_NEQ, C_NLT, C_T, C_NE };

struct cmpinfo { uint8_t kind, cond, bits, x; };
static struct cmpinfo info[RDC_OP_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void build(void)
{
	static const char *const conds[] = { "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg",
					     "ngt", "nle", "neq", "nlt", "t", "ne" };
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
				if (!strcmp(c, conds[i]))
					ci.cond = (uint8_t)i, ci.kind = ty[0] == 'f' ? K_F : ty[0] == 'i' ? K_I : K_U;
			if (ci.kind == K_NONE)
				continue;
		}
		if (ci.bits != 16 && ci.bits != 32 && ci.bits != 64)
			continue;
		info[op] = ci;
	}
}

static bool fcmp(unsigned c, double a, double b)
{
	bool un = isnan(a) || isnan(b);
	switch (c) {
	case C_F: return false;
	case C_LT: return a < b;
	case C_EQ: return a == b;
	case C_LE: return a <= b;
	case C_GT: return a > b;
	case C_LG: return !un && a != b;
	case C_GE: return a >= b;
	case C_O: return !un;
	case C_U: return un;
	case C_NGE: return !(a >= b);
	case C_NLG: return un || a == b;
	case C_NGT: return !(a > b);
	case C_NLE: return !(a <= b);
	case C_NEQ: return !(a == b);
	case C_NLT: return !(a < b);
	case C_T: return true;
	default: return false;
	}
}

static bool icmp(unsigned c, int64_t a, int64_t b, bool sgn, unsigned bits)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	if (!sgn && bits < 64) {
		ua &= (1ull << bits) - 1;
		ub &= (1ull << bits) - 1;
	}
	switch (c) {
	case C_F: return false;
	case C_LT: return sgn ? a < b : ua < ub;
	case C_EQ: return ua == ub;
	case C_LE: return sgn ? a <= b : ua <= ub;
	case C_GT: return sgn ? a > b : ua > ub;
	case C_NE: case C_LG: return ua != ub;
	case C_GE: return sgn ? a >= b : ua >= ub;
	case C_T: return true;
	default: return false;
	}
}

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
	uint64_t exec = rdc_exec_mask(w) & ~w->dpp_off, r = 0;
	if (ci->kind == K_CLASS) {
		r = class_mask(w, in, ci->bits);
	} else {
		double fa[RDC_LANES], fb[RDC_LANES];
		int64_t ia[RDC_LANES], ib[RDC_LANES];
		read_src(w, in, 0, ci, fa, ia);
		read_src(w, in, 1, ci, fb, ib);
		for (unsigned l = 0; l < w->n; l++) {
			bool v = ci->kind == K_F ? fcmp(ci->cond, fa[l], fb[l])
						 : icmp(ci->cond, ia[l], ib[l], ci->kind == K_I, ci->bits);
			if (v)
				r |= 1ull << l;
		}
	}
	r &= exec;
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
