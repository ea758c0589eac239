/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_vcmp.c — single-instruction tests of the vector compares v_cmp_* and v_cmpx_* of every type, in VOPC and VOP3 forms.
 * References follow the ISA guides' pseudocode, written here in plain C.
 *
 * The compares of one type come from a table of {condition, predicate}:
 * the snippets are built from the tables when the program starts (a
 * constructor fills the bodies), the references read the same tables.
 * Every compare's lane mask is copied to an SGPR (VCC after a VOPC
 * compare, the VOP3 form's own SGPR, EXEC after a v_cmpx) and from there
 * into one output dword, so each output holds the whole wave's mask: lanes
 * that EXEC leaves out (XP_OFF) must read 0.  The VOP3 forms take their
 * sources swapped, so they check the operand order too.  Further tests:
 * source operands (modifiers, constants, literals, SGPRs, VCC untouched by
 * v_cmpx), gfx10 SDWA, gfx11 DPP and true16 halves, and the class compares.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "exec_harness.h"

/* EXEC while the compares run: lanes 5 and 30 are off (both hold inputs
 * that make most conditions true). */
#define XP_OFF ((1u << 5) | (1u << 30))
#define XP_EXEC (~XP_OFF)

enum vty { T_F16, T_F32, T_F64, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64 };
static const char *const tyname[] = { "f16", "f32", "f64", "i16", "u16", "i32", "u32", "i64", "u64" };
static bool is_float(enum vty t) { return t <= T_F64; }
static bool is_64(enum vty t) { return t == T_F64 || t == T_I64 || t == T_U64; }

/* ---- the conditions, from the guides' pseudocode ---------------------------------------- */
/* Float compares on the sources' values (a = S0, b = S1); C's relational
 * operators are false for NaN, as the guides' are. */
static bool f_f(double a, double b) { (void)a, (void)b; return false; }
static bool f_lt(double a, double b) { return a < b; }
static bool f_eq(double a, double b) { return a == b; }
static bool f_le(double a, double b) { return a <= b; }
static bool f_gt(double a, double b) { return a > b; }
static bool f_lg(double a, double b) { return a < b || a > b; } /* S0 <> S1: ordered and not equal */
static bool f_ge(double a, double b) { return a >= b; }
static bool f_o(double a, double b) { return !isnan(a) && !isnan(b); }
static bool f_u(double a, double b) { return isnan(a) || isnan(b); }
static bool f_nge(double a, double b) { return !(a >= b); }
static bool f_nlg(double a, double b) { return !(a < b || a > b); }
static bool f_ngt(double a, double b) { return !(a > b); }
static bool f_nle(double a, double b) { return !(a <= b); }
static bool f_neq(double a, double b) { return !(a == b); }
static bool f_nlt(double a, double b) { return !(a < b); }
static bool f_t(double a, double b) { (void)a, (void)b; return true; }

/* Integer compares: c is the sign of S0 - S1, taken as signed or unsigned
 * values of the type's width. */
static bool i_f(int c) { (void)c; return false; }
static bool i_lt(int c) { return c < 0; }
static bool i_eq(int c) { return c == 0; }
static bool i_le(int c) { return c <= 0; }
static bool i_gt(int c) { return c > 0; }
static bool i_ne(int c) { return c != 0; }
static bool i_ge(int c) { return c >= 0; }
static bool i_t(int c) { (void)c; return true; }

struct cond {
	const char *name; /* gfx11 spelling; gfx10 spells the float "t" as "tru" */
	bool (*f)(double a, double b);
	bool (*i)(int c);
};
static const struct cond fconds[] = {
	{ "f", f_f, NULL },     { "lt", f_lt, NULL },   { "eq", f_eq, NULL },   { "le", f_le, NULL },
	{ "gt", f_gt, NULL },   { "lg", f_lg, NULL },   { "ge", f_ge, NULL },   { "o", f_o, NULL },
	{ "u", f_u, NULL },     { "nge", f_nge, NULL }, { "nlg", f_nlg, NULL }, { "ngt", f_ngt, NULL },
	{ "nle", f_nle, NULL }, { "neq", f_neq, NULL }, { "nlt", f_nlt, NULL }, { "t", f_t, NULL },
};
static const struct cond iconds[] = {
	{ "f", NULL, i_f },   { "lt", NULL, i_lt }, { "eq", NULL, i_eq }, { "le", NULL, i_le },
	{ "gt", NULL, i_gt }, { "ne", NULL, i_ne }, { "ge", NULL, i_ge }, { "t", NULL, i_t },
};
/* the 16-bit integer compares have no f and t */
static const struct cond iconds16[] = {
	{ "lt", NULL, i_lt }, { "eq", NULL, i_eq }, { "le", NULL, i_le },
	{ "gt", NULL, i_gt }, { "ne", NULL, i_ne }, { "ge", NULL, i_ge },
};
#define NCOND(t) (sizeof(t) / sizeof(t)[0])

/* ---- operands --------------------------------------------------------------------------- */
/* Source k (0: S0 in v1 or v[1:2], 1: S1 in v3 or v[3:4]) of one lane. */
static uint64_t src_bits(const uint32_t *in, unsigned k, enum vty t)
{
	uint64_t v = in[2 * k];
	if (is_64(t))
		v |= (uint64_t)in[2 * k + 1] << 32;
	else if (t == T_F16 || t == T_I16 || t == T_U16)
		v &= 0xffff;
	return v;
}

static double fval(uint64_t bits, enum vty t)
{
	if (t == T_F16)
		return xt_h2d((uint16_t)bits);
	if (t == T_F32)
		return (double)xt_u2f((uint32_t)bits);
	double d;
	memcpy(&d, &bits, 8);
	return d;
}

/* The sign of a - b for integer type t. */
static int icmp3(uint64_t a, uint64_t b, enum vty t)
{
	if (t == T_I16 || t == T_I32 || t == T_I64) {
		int64_t x = t == T_I16 ? (int16_t)a : t == T_I32 ? (int32_t)a : (int64_t)a;
		int64_t y = t == T_I16 ? (int16_t)b : t == T_I32 ? (int32_t)b : (int64_t)b;
		return x < y ? -1 : x > y;
	}
	return a < b ? -1 : a > b;
}

static bool holds(const struct cond *c, enum vty t, uint64_t a, uint64_t b)
{
	return is_float(t) ? c->f(fval(a, t), fval(b, t)) : c->i(icmp3(a, b, t));
}

/* ---- inputs ----------------------------------------------------------------------------- */
/* Float kinds, and their bit patterns per type. */
enum {
	K_PZ, K_NZ, K_P1, K_N1, K_PINF, K_NINF, K_QNAN, K_SNAN, K_NQNAN, K_NSNAN, /* signed zeros, ones, inf, NaNs */
	K_PDEN, K_NDEN, K_BDEN, K_MINN, K_MAXF, K_NMAX, K_P15, K_NKIND,          /* denormals, extremes, 1.5 */
};
static const uint16_t kh[K_NKIND] = { 0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01,
				   0xfd00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3e00 };
static const uint32_t kf[K_NKIND] = { 0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
				   0x7fc00000, 0x7f800001, 0xffc00001, 0xffa00000, 0x00000001, 0x80000001,
				   0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3fc00000 };
static const uint64_t kd[K_NKIND] = {
	0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
	0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
	0xfff8000000000001ull, 0xfff4000000000000ull, 0x0000000000000001ull, 0x8000000000000001ull,
	0x000fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
	0x3ff8000000000000ull,
};

/* One lane's (S0, S1) kinds: signed zeros, NaNs either side, infinities,
 * denormals against zero and each other, the largest values.  Lanes 5
 * and 30 (off while compares run) hold pairs most conditions accept. */
static const uint8_t fpair[XT_LANES][2] = {
	{ K_PZ, K_NZ }, { K_NZ, K_PZ }, { K_P1, K_P1 }, { K_P1, K_N1 },
	{ K_N1, K_P1 }, { K_P1, K_P1 }, { K_PINF, K_NINF }, { K_NINF, K_PINF },
	{ K_PINF, K_MAXF }, { K_MAXF, K_PINF }, { K_QNAN, K_P1 }, { K_P1, K_QNAN },
	{ K_QNAN, K_QNAN }, { K_SNAN, K_PZ }, { K_PZ, K_SNAN }, { K_NQNAN, K_NINF },
	{ K_PDEN, K_PZ }, { K_PDEN, K_NDEN }, { K_NDEN, K_PDEN }, { K_PDEN, K_BDEN },
	{ K_BDEN, K_MINN }, { K_MINN, K_BDEN }, { K_P15, K_P1 }, { K_P1, K_P15 },
	{ K_NMAX, K_NINF }, { K_NINF, K_NINF }, { K_PDEN, K_PDEN }, { K_NZ, K_NDEN },
	{ K_NSNAN, K_SNAN }, { K_MAXF, K_MAXF }, { K_QNAN, K_QNAN }, { K_NMAX, K_MAXF },
};

static uint64_t kind_bits(unsigned k, enum vty t)
{
	return t == T_F16 ? kh[k] : t == T_F32 ? kf[k] : kd[k];
}

/* S0 in in[0] (and in[1]), S1 in in[2] (and in[3]); the 16-bit types get
 * random upper halves, which the compares must not see. */
static void put(uint32_t *in, unsigned k, uint64_t v, enum vty t, unsigned lane)
{
	in[2 * k] = (uint32_t)v;
	if (t == T_F16 || t == T_I16 || t == T_U16)
		in[2 * k] |= xt_rand(lane, 10 + k, 7) << 16;
	if (is_64(t))
		in[2 * k + 1] = (uint32_t)(v >> 32);
}

static void init_float(unsigned lane, uint32_t *in, enum vty t)
{
	for (unsigned k = 0; k < 2; k++)
		put(in, k, kind_bits(fpair[lane][k], t), t, lane);
}

/* Integer specials, the same list per width: 0, 1, -1, the most negative
 * and most positive values, and values near them; for 64 bits, values
 * whose halves compare the other way from the whole. */
static const uint64_t ispec16[8] = { 0, 1, 0xffff, 0x8000, 0x7fff, 0x8001, 0xfffe, 2 };
static const uint64_t ispec32[8] = { 0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x80000001u, 0xfffffffeu, 2 };
static const uint64_t ispec64[8] = { 0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull,
				     0x0000000100000000ull, 0x00000000ffffffffull, 0xffffffff00000000ull };
static const uint8_t ipair[20][2] = {
	{ 0, 0 }, { 0, 1 }, { 1, 0 }, { 2, 1 }, { 1, 2 }, { 3, 4 }, { 4, 3 }, { 3, 3 }, { 2, 2 }, { 5, 3 },
	{ 3, 5 }, { 6, 2 }, { 2, 6 }, { 0, 2 }, { 2, 0 }, { 4, 4 }, { 7, 5 }, { 5, 7 }, { 6, 7 }, { 7, 6 },
};

static void init_int(unsigned lane, uint32_t *in, enum vty t)
{
	const uint64_t *sp = t == T_I16 || t == T_U16 ? ispec16 : is_64(t) ? ispec64 : ispec32;
	uint64_t a, b;
	if (lane < 20) {
		a = sp[ipair[lane][0]];
		b = sp[ipair[lane][1]];
	} else {
		a = (uint64_t)xt_rand(lane, 0, 8) << 32 | xt_rand(lane, 1, 8);
		b = lane % 3 == 2 ? a : (uint64_t)xt_rand(lane, 2, 8) << 32 | xt_rand(lane, 3, 8);
		if (lane == 21)
			b = a ^ 0x8000000000000000ull; /* only the 64-bit sign differs */
	}
	put(in, 0, a, t, lane);
	put(in, 1, b, t, lane);
}

/* ---- compares of one or two types, every condition, VOPC and VOP3 ----------------------- */
struct group {
	enum vty t;
	const struct cond *c;
	unsigned n;
};
struct cmp_spec {
	bool x; /* v_cmpx: the mask goes to EXEC */
	unsigned ng;
	struct group g[2];
};

static const char *opnd(enum vty t, unsigned k)
{
	return is_64(t) ? (k ? "v[3:4]" : "v[1:2]") : (k ? "v3" : "v1");
}

static const char *spell(const struct cond *c, enum vty t, unsigned gfx)
{
	return gfx == 10 && is_float(t) && !strcmp(c->name, "t") ? "tru" : c->name;
}

#define EMIT(...) (n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__))

/* s8 keeps EXEC, s9 the partial EXEC; output j's mask lies in s[10 + j]. */
static void build_cmp(const struct cmp_spec *s, unsigned gfx, char *buf, size_t cap)
{
	size_t n = 0;
	unsigned j = 0;
	EMIT("s_mov_b32 s8, exec_lo\ns_mov_b32 s9, 0x%x\ns_mov_b32 exec_lo, s9\n", XP_EXEC);
	for (unsigned g = 0; g < s->ng; g++) {
		enum vty ty = s->g[g].t;
		const char *a = opnd(ty, 0), *b = opnd(ty, 1);
		for (unsigned form = 0; form < 2; form++) {
			for (unsigned i = 0; i < s->g[g].n; i++, j++) {
				const char *c = spell(&s->g[g].c[i], ty, gfx);
				if (s->x && !form)
					EMIT("s_mov_b32 exec_lo, s9\nv_cmpx_%s_%s %s, %s\ns_mov_b32 s%u, exec_lo\n", c,
					     tyname[ty], a, b, 10 + j);
				else if (s->x)
					EMIT("s_mov_b32 exec_lo, s9\nv_cmpx_%s_%s_e64 %s, %s\ns_mov_b32 s%u, exec_lo\n", c,
					     tyname[ty], b, a, 10 + j);
				else if (!form)
					EMIT("v_cmp_%s_%s vcc_lo, %s, %s\ns_mov_b32 s%u, vcc_lo\n", c, tyname[ty], a, b,
					     10 + j);
				else
					EMIT("v_cmp_%s_%s_e64 s%u, %s, %s\n", c, tyname[ty], 10 + j, b, a);
			}
		}
	}
	EMIT("s_mov_b32 exec_lo, s8\n");
	for (unsigned k = 0; k < j; k++)
		EMIT("v_mov_b32 v%u, s%u\n", 40 + k, 10 + k);
}

static void ref_cmp(const struct cmp_spec *s, const struct xt_ctx *c, uint32_t *out)
{
	unsigned j = 0;
	for (unsigned g = 0; g < s->ng; g++) {
		enum vty ty = s->g[g].t;
		for (unsigned form = 0; form < 2; form++) {
			for (unsigned i = 0; i < s->g[g].n; i++, j++) {
				uint32_t m = 0;
				for (unsigned l = 0; l < XT_LANES; l++) {
					const uint32_t *in = c->in + l * c->nin;
					uint64_t a = src_bits(in, form, ty), b = src_bits(in, !form, ty);
					if (((XP_EXEC >> l) & 1) && holds(&s->g[g].c[i], ty, a, b))
						m |= 1u << l;
				}
				out[j] = m;
			}
		}
	}
}

static void init_f16(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	init_float(lane, in, T_F16);
}
static void init_f32(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	init_float(lane, in, T_F32);
}
static void init_f64(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	init_float(lane, in, T_F64);
}
static void init_i16(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	init_int(lane, in, T_I16);
}
static void init_i32(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	init_int(lane, in, T_I32);
}
static void init_i64(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	init_int(lane, in, T_I64);
}

#define FSPEC(x, ty) { x, 1, { { ty, fconds, NCOND(fconds) } } }
#define ISPEC(x, ty, tbl) { x, 2, { { T_I##ty, tbl, NCOND(tbl) }, { T_U##ty, tbl, NCOND(tbl) } } }
static const struct cmp_spec s_cmp_f16 = FSPEC(false, T_F16), s_cmpx_f16 = FSPEC(true, T_F16);
static const struct cmp_spec s_cmp_f32 = FSPEC(false, T_F32), s_cmpx_f32 = FSPEC(true, T_F32);
static const struct cmp_spec s_cmp_f64 = FSPEC(false, T_F64), s_cmpx_f64 = FSPEC(true, T_F64);
static const struct cmp_spec s_cmp_iu16 = ISPEC(false, 16, iconds16), s_cmpx_iu16 = ISPEC(true, 16, iconds16);
static const struct cmp_spec s_cmp_iu32 = ISPEC(false, 32, iconds), s_cmpx_iu32 = ISPEC(true, 32, iconds);
static const struct cmp_spec s_cmp_iu64 = ISPEC(false, 64, iconds), s_cmpx_iu64 = ISPEC(true, 64, iconds);

/* ---- v_cmp_class / v_cmpx_class ------------------------------------------------------- */
/* The class bit the guides' pseudocode picks from S1: 0 signalling NaN,
 * 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
 * 8 +normal, 9 +inf; from the raw bits (a quiet NaN has the top fraction
 * bit set). */
static unsigned class_of(uint64_t bits, enum vty t)
{
	unsigned fb = t == T_F16 ? 10 : t == T_F32 ? 23 : 52, eb = t == T_F16 ? 5 : t == T_F32 ? 8 : 11;
	uint64_t frac = bits & ((1ull << fb) - 1), ex = (bits >> fb) & ((1ull << eb) - 1);
	bool neg = (bits >> (fb + eb)) & 1;
	if (ex == (1ull << eb) - 1 && frac)
		return (frac >> (fb - 1)) & 1 ? 1 : 0;
	if (ex == (1ull << eb) - 1)
		return neg ? 2 : 9;
	if (ex)
		return neg ? 3 : 8;
	if (frac)
		return neg ? 4 : 7;
	return neg ? 5 : 6;
}

/* Inputs: S0 as f64 in v[1:2], f32 in v3, f16 in v4's low half (the same
 * kind of value in each), the class mask in v5: the value's own class bit
 * with garbage above bit 9, every bit but its own, or random. */
static void init_class(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	unsigned k = lane < K_NKIND ? lane : (lane * 5) % K_NKIND;
	in[0] = (uint32_t)kd[k];
	in[1] = (uint32_t)(kd[k] >> 32);
	in[2] = kf[k];
	in[3] = kh[k] | xt_rand(lane, 4, 9) << 16;
	uint32_t own = 1u << class_of(kd[k], T_F64);
	in[4] = lane < K_NKIND ? own | (xt_rand(lane, 5, 9) & ~0x3ffu) : lane < 25 ? ~own : xt_rand(lane, 5, 9);
}

/* Per type (f64, f32, f16): VOPC, VOP3, VOP3 with -S0, VOP3 with |S0|,
 * v_cmpx VOPC, v_cmpx VOP3. */
#define CLASS_FORMS 6
static const enum vty class_ty[3] = { T_F64, T_F32, T_F16 };
static const char *const class_src[3] = { "v[1:2]", "v3", "v4" };

static void build_class(const void *unused, unsigned gfx, char *buf, size_t cap)
{
	size_t n = 0;
	unsigned j = 10;
	(void)unused, (void)gfx;
	EMIT("s_mov_b32 s8, exec_lo\ns_mov_b32 s9, 0x%x\ns_mov_b32 exec_lo, s9\n", XP_EXEC);
	for (unsigned i = 0; i < 3; i++) {
		const char *ty = tyname[class_ty[i]], *a = class_src[i];
		EMIT("v_cmp_class_%s vcc_lo, %s, v5\ns_mov_b32 s%u, vcc_lo\n", ty, a, j++);
		EMIT("v_cmp_class_%s_e64 s%u, %s, v5\n", ty, j++, a);
		EMIT("v_cmp_class_%s_e64 s%u, -%s, v5\n", ty, j++, a);
		EMIT("v_cmp_class_%s_e64 s%u, |%s|, v5\n", ty, j++, a);
		EMIT("v_cmpx_class_%s %s, v5\ns_mov_b32 s%u, exec_lo\ns_mov_b32 exec_lo, s9\n", ty, a, j++);
		EMIT("v_cmpx_class_%s_e64 %s, v5\ns_mov_b32 s%u, exec_lo\ns_mov_b32 exec_lo, s9\n", ty, a, j++);
	}
	EMIT("s_mov_b32 exec_lo, s8\n");
	for (unsigned k = 10; k < j; k++)
		EMIT("v_mov_b32 v%u, s%u\n", 30 + k, k);
}

static void ref_class(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	for (unsigned i = 0; i < 3; i++) {
		enum vty t = class_ty[i];
		unsigned w = t == T_F16 ? 16 : t == T_F32 ? 32 : 64;
		uint64_t sign = 1ull << (w - 1);
		for (unsigned f = 0; f < CLASS_FORMS; f++) {
			uint32_t m = 0;
			for (unsigned l = 0; l < XT_LANES; l++) {
				const uint32_t *in = c->in + l * c->nin;
				uint64_t v = t == T_F64 ? (uint64_t)in[1] << 32 | in[0] : t == T_F32 ? in[2] : in[3] & 0xffff;
				if (f == 2)
					v ^= sign; /* -S0 */
				if (f == 3)
					v &= ~sign; /* |S0| */
				if (((XP_EXEC >> l) & 1) && ((in[4] >> class_of(v, t)) & 1))
					m |= 1u << l;
			}
			out[i * CLASS_FORMS + f] = m;
		}
	}
}

/* ---- source operands: modifiers, constants, literals, SGPRs; VCC and v_cmpx ------------- */
/* v1/v2 f32 S0/S1, v[3:4]/v[5:6] f64 S0/S1, v7/v10 f16 S0/S1 (low halves),
 * v[8:9] a 64-bit integer whose halves are also compared as 32- and
 * 16-bit values.  The compares: VOP3 modifiers, inline constants and
 * literals of each type, an SGPR (pair) source, a VOP3 compare writing
 * VCC, and v_cmpx leaving VCC alone. */
static void init_opnd(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	unsigned a = fpair[lane][0], b = fpair[lane][1];
	in[0] = kf[a];
	in[1] = kf[b];
	in[2] = (uint32_t)kd[a];
	in[3] = (uint32_t)(kd[a] >> 32);
	in[4] = (uint32_t)kd[b];
	in[5] = (uint32_t)(kd[b] >> 32);
	in[6] = kh[a] | xt_rand(lane, 6, 10) << 16;
	in[9] = kh[b] | xt_rand(lane, 9, 10) << 16;
	if (lane < 20) {
		in[7] = (uint32_t)ispec32[ipair[lane][1]];
		in[8] = (uint32_t)ispec32[ipair[lane][0]];
	}
}

static const char body_opnd[] =
	"s_mov_b32 s8, exec_lo\ns_mov_b32 s9, 0xbfffffdf\ns_mov_b32 exec_lo, s9\n"
	"v_cmp_lt_f32_e64 s10, -v1, |v2|\n"
	"v_cmp_eq_f32_e64 s11, -|v1|, v2\n"
	"v_cmp_nge_f64_e64 s12, |v[3:4]|, -v[5:6]\n"
	"v_cmp_lt_f16_e64 s13, -v7, |v10|\n"
	"v_cmp_gt_f32 vcc_lo, 0.5, v2\ns_mov_b32 s14, vcc_lo\n"
	"v_cmp_le_f16 vcc_lo, -2.0, v10\ns_mov_b32 s15, vcc_lo\n"
	"v_cmp_lt_f64 vcc_lo, 1.0, v[5:6]\ns_mov_b32 s16, vcc_lo\n"
	"v_cmp_eq_f32 vcc_lo, 0x3fc00000, v2\ns_mov_b32 s17, vcc_lo\n"
	"v_cmp_lt_i32 vcc_lo, -1, v9\ns_mov_b32 s18, vcc_lo\n"
	"v_cmp_gt_u32 vcc_lo, 0x80000000, v9\ns_mov_b32 s19, vcc_lo\n"
	"v_cmp_eq_i16 vcc_lo, -1, v9\ns_mov_b32 s20, vcc_lo\n"
	"v_cmp_lt_i64 vcc_lo, -1, v[8:9]\ns_mov_b32 s21, vcc_lo\n"
	"v_cmp_ge_u64_e64 s22, v[8:9], 64\n"
	"s_mov_b32 s40, 0x7fffffff\nv_cmp_lt_i32 vcc_lo, s40, v9\ns_mov_b32 s23, vcc_lo\n"
	"v_cmp_lt_u32_e64 vcc_lo, v8, v9\ns_mov_b32 s24, vcc_lo\n"
	"s_mov_b32 vcc_lo, 0x5a5a5a5a\n"
	"v_cmpx_lt_f32 v1, v2\ns_mov_b32 s25, exec_lo\ns_mov_b32 exec_lo, s9\ns_mov_b32 s26, vcc_lo\n"
	"v_cmpx_eq_u32_e64 v8, v9\ns_mov_b32 s27, exec_lo\ns_mov_b32 exec_lo, s9\ns_mov_b32 s28, vcc_lo\n"
	"v_cmp_gt_f64 vcc_lo, 0x40080000, v[5:6]\ns_mov_b32 s29, vcc_lo\n"
	"s_mov_b32 vcc_hi, 0x12345678\nv_cmp_t_u32 vcc_lo, v8, v9\nv_cmp_lt_f32_e64 vcc_lo, v1, v2\ns_mov_b32 s31, vcc_hi\n"
	"s_mov_b32 s40, 1\ns_mov_b32 s41, 0x80000000\nv_cmp_lt_i64 vcc_lo, s[40:41], v[8:9]\ns_mov_b32 s30, vcc_lo\n"
	"s_mov_b32 exec_lo, s8\n"
	"v_mov_b32 v40, s10\nv_mov_b32 v41, s11\nv_mov_b32 v42, s12\nv_mov_b32 v43, s13\nv_mov_b32 v44, s14\n"
	"v_mov_b32 v45, s15\nv_mov_b32 v46, s16\nv_mov_b32 v47, s17\nv_mov_b32 v48, s18\nv_mov_b32 v49, s19\n"
	"v_mov_b32 v50, s20\nv_mov_b32 v51, s21\nv_mov_b32 v52, s22\nv_mov_b32 v53, s23\nv_mov_b32 v54, s24\n"
	"v_mov_b32 v55, s25\nv_mov_b32 v56, s26\nv_mov_b32 v57, s27\nv_mov_b32 v58, s28\nv_mov_b32 v59, s29\n"
	"v_mov_b32 v60, s30\nv_mov_b32 v61, s31";

static float in_f(const uint32_t *in, unsigned k) { return xt_u2f(in[k]); }
static double in_d(const uint32_t *in, unsigned k)
{
	uint64_t u = (uint64_t)in[k + 1] << 32 | in[k];
	double d;
	memcpy(&d, &u, 8);
	return d;
}
static double in_h(const uint32_t *in, unsigned k) { return xt_h2d(xt_lo(in[k])); }

/* Compare j of body_opnd on one lane's inputs (modifiers applied by hand). */
static bool opnd_holds(unsigned j, const uint32_t *in)
{
	int64_t x64 = (int64_t)((uint64_t)in[8] << 32 | in[7]);
	switch (j) {
	case 0: return -in_f(in, 0) < fabsf(in_f(in, 1));
	case 1: return -fabsf(in_f(in, 0)) == in_f(in, 1);
	case 2: return !(fabs(in_d(in, 2)) >= -in_d(in, 4));
	case 3: return -in_h(in, 6) < fabs(in_h(in, 9));
	case 4: return 0.5f > in_f(in, 1);
	case 5: return -2.0 <= in_h(in, 9);
	case 6: return 1.0 < in_d(in, 4);
	case 7: return 1.5f == in_f(in, 1);
	case 8: return -1 < (int32_t)in[8];
	case 9: return 0x80000000u > in[8];
	case 10: return (int16_t)-1 == (int16_t)in[8];
	case 11: return -1 < x64;
	case 12: return (uint64_t)x64 >= 64;
	case 13: return 0x7fffffff < (int32_t)in[8];
	case 14: return in[7] < in[8];
	case 15: return in_f(in, 0) < in_f(in, 1);
	case 17: return in[7] == in[8];
	case 19: return 3.0 > in_d(in, 4); /* a 32-bit literal is an f64's high half */
	case 20: return (int64_t)0x8000000000000001ull < x64;
	default: return false;
	}
}

static void ref_opnd(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	for (unsigned j = 0; j < 21; j++) {
		uint32_t m = 0;
		for (unsigned l = 0; l < XT_LANES; l++)
			if (((XP_EXEC >> l) & 1) && opnd_holds(j, c->in + l * c->nin))
				m |= 1u << l;
		out[j] = m;
	}
	out[16] = out[18] = 0x5a5a5a5a; /* v_cmpx writes EXEC only, VCC keeps its value */
	out[21] = 0x12345678;           /* wave32 compares write VCC_LO only */
}

/* ---- encodings: gfx10 SDWA, gfx11 DPP and true16 halves -------------------------------------- */
/* body_opnd's inputs, with f16 values in v7's and v10's high halves too. */
static void init_enc(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	init_opnd(lane, in, out, nin, nout);
	unsigned o = (lane + 7) % XT_LANES;
	in[6] = xt_lo(in[6]) | (uint32_t)kh[fpair[o][0]] << 16;
	in[9] = xt_lo(in[9]) | (uint32_t)kh[fpair[o][1]] << 16;
}

/* Every mask below is the compare on active lanes (XP_EXEC); holds(j, c, l)
 * says whether compare j is true for lane l. */
static void ref_masks(const struct xt_ctx *c, uint32_t *out, unsigned nout,
		      bool (*holds_at)(unsigned j, const struct xt_ctx *c, unsigned l))
{
	for (unsigned j = 0; j < nout; j++) {
		uint32_t m = 0;
		for (unsigned l = 0; l < XT_LANES; l++)
			if (((XP_EXEC >> l) & 1) && holds_at(j, c, l))
				m |= 1u << l;
		out[j] = m;
	}
}

static uint32_t lane_in(const struct xt_ctx *c, unsigned l, unsigned k) { return c->in[l * c->nin + k]; }

/* SDWA source select: byte or word n, zero- or sign-extended to 32 bits. */
static uint32_t sel_byte(uint32_t v, unsigned n, bool sx)
{
	uint32_t b = (v >> (8 * n)) & 0xff;
	return sx ? (uint32_t)(int32_t)(int8_t)b : b;
}
static uint32_t sel_word(uint32_t v, unsigned n) { return (v >> (16 * n)) & 0xffff; }

static const char body_sdwa[] =
	"s_mov_b32 s8, exec_lo\ns_mov_b32 s9, 0xbfffffdf\ns_mov_b32 exec_lo, s9\ns_mov_b32 s40, 1\n"
	"v_cmp_lt_f16_sdwa s10, v7, v10 src0_sel:WORD_1 src1_sel:WORD_1\n"
	"v_cmp_eq_u32_sdwa vcc_lo, v8, v9 src0_sel:BYTE_1 src1_sel:BYTE_0\ns_mov_b32 s11, vcc_lo\n"
	"v_cmp_lt_i32_sdwa s12, sext(v8), v9 src0_sel:BYTE_0 src1_sel:WORD_1\n"
	"v_cmp_gt_i16_sdwa s13, sext(v8), sext(v9) src0_sel:BYTE_3 src1_sel:BYTE_2\n"
	"v_cmpx_ge_u16_sdwa v8, v9 src0_sel:WORD_1 src1_sel:BYTE_2\ns_mov_b32 s14, exec_lo\ns_mov_b32 exec_lo, s9\n"
	"v_cmp_nlt_f32_sdwa s15, -v1, |v2| src0_sel:DWORD src1_sel:DWORD\n"
	"v_cmp_class_f32_sdwa s16, v1, v9 src0_sel:DWORD src1_sel:WORD_1\n"
	"v_cmp_eq_u32_sdwa s17, v8, s40 src0_sel:WORD_0 src1_sel:DWORD\n"
	"v_cmp_lt_f16_sdwa s18, -v7, |v10| src0_sel:WORD_0 src1_sel:WORD_1\n"
	"s_mov_b32 exec_lo, s8\n"
	"v_mov_b32 v40, s10\nv_mov_b32 v41, s11\nv_mov_b32 v42, s12\nv_mov_b32 v43, s13\nv_mov_b32 v44, s14\n"
	"v_mov_b32 v45, s15\nv_mov_b32 v46, s16\nv_mov_b32 v47, s17\nv_mov_b32 v48, s18";

static bool sdwa_holds(unsigned j, const struct xt_ctx *c, unsigned l)
{
	uint32_t v1 = lane_in(c, l, 0), v2 = lane_in(c, l, 1), v7 = lane_in(c, l, 6), v8 = lane_in(c, l, 7),
		 v9 = lane_in(c, l, 8), v10 = lane_in(c, l, 9);
	switch (j) {
	case 0: return xt_h2d(xt_hi(v7)) < xt_h2d(xt_hi(v10));
	case 1: return sel_byte(v8, 1, false) == sel_byte(v9, 0, false);
	case 2: return (int32_t)sel_byte(v8, 0, true) < (int32_t)sel_word(v9, 1);
	case 3: return (int16_t)sel_byte(v8, 3, true) > (int16_t)sel_byte(v9, 2, true);
	case 4: return sel_word(v8, 1) >= sel_byte(v9, 2, false);
	case 5: return !(-xt_u2f(v1) < fabsf(xt_u2f(v2)));
	case 6: return (sel_word(v9, 1) >> class_of(v1, T_F32)) & 1;
	case 7: return sel_word(v8, 0) == 1;
	case 8: return -xt_h2d(xt_lo(v7)) < fabs(xt_h2d(xt_hi(v10)));
	default: return false;
	}
}
static void ref_sdwa(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	ref_masks(c, out, 9, sdwa_holds);
}

/* gfx11 DPP, fetching inactive lanes (fi:1) so that only the lane's own
 * EXEC bit matters; row_shl with bound_ctrl reads 0 past the row's end. */
static const char body_dpp[] =
	"s_mov_b32 s8, exec_lo\ns_mov_b32 s9, 0xbfffffdf\ns_mov_b32 exec_lo, s9\n"
	"v_cmp_lt_f32 vcc_lo, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf fi:1\ns_mov_b32 s10, vcc_lo\n"
	"v_cmp_eq_u32_e64_dpp s11, v8, v9 row_shl:3 row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1\n"
	"v_cmpx_gt_f16 v7, v10 dpp8:[7,6,5,4,3,2,1,0] fi:1\ns_mov_b32 s12, exec_lo\ns_mov_b32 exec_lo, s9\n"
	"v_cmp_lt_f16_e64_dpp s13, -v7, |v10| row_mirror row_mask:0xf bank_mask:0xf fi:1\n"
	"v_cmp_class_f32 vcc_lo, v1, v9 row_xmask:1 row_mask:0xf bank_mask:0xf fi:1\ns_mov_b32 s14, vcc_lo\n"
	"v_cmpx_lt_i32_e64_dpp v8, v9 row_half_mirror row_mask:0xf bank_mask:0xf fi:1\ns_mov_b32 s15, exec_lo\n"
	"s_mov_b32 exec_lo, s9\n"
	"v_cmp_ge_u16 vcc_lo, v8, v9 dpp8:[1,2,3,4,5,6,7,0] fi:1\ns_mov_b32 s16, vcc_lo\n"
	"v_cmp_ne_u32 vcc_lo, v8, v9 row_shr:1 row_mask:0xf bank_mask:0xf\ns_mov_b32 s17, vcc_lo\n"
	"s_mov_b32 exec_lo, s8\n"
	"v_mov_b32 v40, s10\nv_mov_b32 v41, s11\nv_mov_b32 v42, s12\nv_mov_b32 v43, s13\nv_mov_b32 v44, s14\n"
	"v_mov_b32 v45, s15\nv_mov_b32 v46, s16\nv_mov_b32 v47, s17";

static bool dpp_holds(unsigned j, const struct xt_ctx *c, unsigned l)
{
	unsigned row = l & ~15u, r = l & 15, oct = l & ~7u, o = l & 7;
	uint32_t v2 = lane_in(c, l, 1), v9 = lane_in(c, l, 8), v10 = lane_in(c, l, 9);
	switch (j) {
	case 0: return xt_u2f(lane_in(c, l ^ 1, 0)) < xt_u2f(v2);
	case 1: return (r + 3 < 16 ? lane_in(c, l + 3, 7) : 0) == v9;
	case 2: return xt_h2d(xt_lo(lane_in(c, oct + 7 - o, 6))) > xt_h2d(xt_lo(v10));
	case 3: return -xt_h2d(xt_lo(lane_in(c, row + 15 - r, 6))) < fabs(xt_h2d(xt_lo(v10)));
	case 4: return (v9 >> class_of(lane_in(c, row + (r ^ 1), 0), T_F32)) & 1;
	case 5: return (int32_t)lane_in(c, oct + 7 - o, 7) < (int32_t)v9;
	case 6: return xt_lo(lane_in(c, oct + ((o + 1) & 7), 7)) >= xt_lo(v9);
	/* without fi and bound_ctrl, a lane whose source is past the row's
	 * start or off in EXEC is disabled like an inactive lane: its bit is 0 */
	case 7: return r >= 1 && ((XP_EXEC >> (l - 1)) & 1) && lane_in(c, l - 1, 7) != v9;
	default: return false;
	}
}
static void ref_dpp(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	ref_masks(c, out, 8, dpp_holds);
}

/* gfx11 true16: in VOPC, bit 7 of a 16-bit operand's VGPR number picks its
 * high half; in VOP3, op_sel does.  llvm-mc 19 does not take v1.h in these
 * forms, so they are written as words:
 *   v_cmp_lt_f16 vcc_lo, v7.h, v10.h          v_cmp_eq_u16 vcc_lo, v8.l, v9.h
 *   v_cmpx_gt_i16 v8.h, v9.l                  v_cmp_class_f16 vcc_lo, v7.h, v9.l
 *   v_cmp_ngt_f16_e64 s14, v7.h, v10.l        v_cmp_le_u16_e64 s15, v8.l, v9.h
 *   v_cmpx_class_f16_e64 v7.h, v9.l */
static const char body_t16[] =
	"s_mov_b32 s8, exec_lo\ns_mov_b32 s9, 0xbfffffdf\ns_mov_b32 exec_lo, s9\n"
	".long 0x7c031587\ns_mov_b32 s10, vcc_lo\n"
	".long 0x7c751308\ns_mov_b32 s11, vcc_lo\n"
	".long 0x7d681388\ns_mov_b32 s12, exec_lo\ns_mov_b32 exec_lo, s9\n"
	".long 0x7cfa1387\ns_mov_b32 s13, vcc_lo\n"
	".long 0xd40b080e, 0x00021507\n"
	".long 0xd43b100f, 0x00021308\n"
	".long 0xd4fd087e, 0x00021307\ns_mov_b32 s16, exec_lo\n"
	"s_mov_b32 exec_lo, s8\n"
	"v_mov_b32 v40, s10\nv_mov_b32 v41, s11\nv_mov_b32 v42, s12\nv_mov_b32 v43, s13\nv_mov_b32 v44, s14\n"
	"v_mov_b32 v45, s15\nv_mov_b32 v46, s16";

static bool t16_holds(unsigned j, const struct xt_ctx *c, unsigned l)
{
	uint32_t v7 = lane_in(c, l, 6), v8 = lane_in(c, l, 7), v9 = lane_in(c, l, 8), v10 = lane_in(c, l, 9);
	switch (j) {
	case 0: return xt_h2d(xt_hi(v7)) < xt_h2d(xt_hi(v10));
	case 1: return xt_lo(v8) == xt_hi(v9);
	case 2: return (int16_t)xt_hi(v8) > (int16_t)xt_lo(v9);
	case 3: case 6: return (xt_lo(v9) >> class_of(xt_hi(v7), T_F16)) & 1;
	case 4: return !(xt_h2d(xt_hi(v7)) > xt_h2d(xt_lo(v10)));
	case 5: return xt_lo(v8) <= xt_hi(v9);
	default: return false;
	}
}
static void ref_t16(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	ref_masks(c, out, 7, t16_holds);
}

/* The table-built tests: id, inputs, outputs.  Each gets two bodies (gfx10
 * and gfx11 spellings) and a reference bound to its spec. */
#define CMP_TESTS(X) \
	X(cmp_f16, init_f16, 32) X(cmpx_f16, init_f16, 32) X(cmp_f32, init_f32, 32) X(cmpx_f32, init_f32, 32) \
	X(cmp_f64, init_f64, 32) X(cmpx_f64, init_f64, 32) X(cmp_iu16, init_i16, 24) X(cmpx_iu16, init_i16, 24) \
	X(cmp_iu32, init_i32, 32) X(cmpx_iu32, init_i32, 32) X(cmp_iu64, init_i64, 32) X(cmpx_iu64, init_i64, 32)
#define BODYCAP 4096

#define CMP_DEF(id, init, nout) \
	static char b10_##id[BODYCAP], b11_##id[BODYCAP]; \
	static void ref_##id(const struct xt_ctx *c, unsigned lane, uint32_t *out) \
	{ \
		(void)lane; \
		ref_cmp(&s_##id, c, out); \
	}
CMP_TESTS(CMP_DEF)
static char b10_class[BODYCAP], b11_class[BODYCAP];

__attribute__((constructor)) static void build_bodies(void)
{
#define CMP_BUILD(id, init, nout) \
	build_cmp(&s_##id, 10, b10_##id, BODYCAP); \
	build_cmp(&s_##id, 11, b11_##id, BODYCAP);
	CMP_TESTS(CMP_BUILD)
	build_class(NULL, 10, b10_class, BODYCAP);
	build_class(NULL, 11, b11_class, BODYCAP);
}

#define CMP_ENTRY(id, init, nout) { "v" #id, XT_BOTH, b10_##id, b11_##id, NULL, 4, nout, init, ref_##id, XT_EXACT },

const struct xt_test xt_tests_vcmp[] = {
	CMP_TESTS(CMP_ENTRY)
	{ "vcmp_operands", XT_BOTH, body_opnd, NULL, NULL, 10, 22, init_opnd, ref_opnd, XT_EXACT },
	{ "vcmp_sdwa_gfx10", XT_G10, body_sdwa, NULL, NULL, 10, 9, init_enc, ref_sdwa, XT_EXACT },
	{ "vcmp_dpp_gfx11", XT_G11, body_dpp, NULL, NULL, 10, 8, init_enc, ref_dpp, XT_EXACT },
	{ "vcmp_true16_gfx11", XT_G11, body_t16, NULL, NULL, 10, 7, init_enc, ref_t16, XT_EXACT },
	{ "vcmp_class", XT_BOTH, b10_class, b11_class, NULL, 5, 3 * CLASS_FORMS, init_class, ref_class, XT_EXACT },
};
const unsigned xt_ntests_vcmp = sizeof xt_tests_vcmp / sizeof xt_tests_vcmp[0];
