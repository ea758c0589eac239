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

static bool fclass(double v, uint32_t m, unsigned bits)
{
	int c;
	if (isnan(v)) {
		/* a signalling NaN has the top mantissa bit clear */
		(void)bits;
		return (m & 3) != 0;
	}
	bool neg = signbit(v);
	switch (fpclassify(v)) {
	case FP_INFINITE: c = neg ? 2 : 9; break;
	case FP_NORMAL: c = neg ? 3 : 8; break;
	case FP_SUBNORMAL: c = neg ? 4 : 7; break;
	case FP_ZERO: c = neg ? 5 : 6; break;
	default: c = 1; break;
	}
	return (m >> c) & 1;
}

/* Source k of lane values as double (floats), or sign/zero-extended ints. */
static void read_src(struct rdc_wave *w, const struct rdc_inst *in, int k, const struct cmpinfo *ci, double *fd,
		     int64_t *iv)
{
	unsigned n = w->n;
	if (ci->bits == 64) {
		uint64_t v[RDC_LANES];
		if (ci->kind == K_F || (ci->kind == K_CLASS && k == 0)) {
			double d[RDC_LANES];
			rdc_vsrcd(w, in, k, d);
			for (unsigned l = 0; l < n; l++)
				fd[l] = d[l];
		} else {
			rdc_vsrc64(w, in, k, false, v);
			for (unsigned l = 0; l < n; l++)
				iv[l] = (int64_t)v[l];
		}
		return;
	}
	if (ci->bits == 16) {
		if (ci->kind == K_F || (ci->kind == K_CLASS && k == 0)) {
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
	if (ci->kind == K_F || (ci->kind == K_CLASS && k == 0)) {
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
	double fa[RDC_LANES], fb[RDC_LANES];
	int64_t ia[RDC_LANES], ib[RDC_LANES];
	read_src(w, in, 0, ci, fa, ia);
	if (ci->kind == K_CLASS) {
		uint32_t m[RDC_LANES];
		rdc_vsrc32(w, in, 1, RDC_TY_B32, m);
		for (unsigned l = 0; l < w->n; l++)
			ib[l] = m[l];
	} else {
		read_src(w, in, 1, ci, fb, ib);
	}
	uint64_t exec = rdc_exec_mask(w) & ~w->dpp_off, r = 0;
	for (unsigned l = 0; l < w->n; l++) {
		bool v;
		if (ci->kind == K_F)
			v = fcmp(ci->cond, fa[l], fb[l]);
		else if (ci->kind == K_CLASS)
			v = fclass(fa[l], (uint32_t)ib[l], ci->bits);
		else
			v = icmp(ci->cond, ia[l], ib[l], ci->kind == K_I, ci->bits);
		if (v)
			r |= 1ull << l;
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
