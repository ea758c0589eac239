/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_buf.c — single-instruction tests of the typed buffer
 * accesses: MTBUF (tbuffer_load/store_format_*, the data format in the
 * instruction, written symbolically so that llvm-mc encodes each
 * generation's value) and MUBUF's buffer_load/store_format_* (the format in
 * the resource's dword 3, with its DST_SEL swizzle and the range check),
 * d16 forms included.  The body builds a buffer resource over the lane
 * data (s[8:11]: base = the input buffer, stride 0); the references decode
 * and encode elements from the ISA guides' data and numeric format
 * definitions, written here in plain C: UNORM u/(2^b-1), SNORM
 * max(s/(2^(b-1)-1), -1), SCALED the integer, FLOAT IEEE or the unsigned
 * 11/10-bit floats; a missing component reads 0 (w: 1); stores clamp and
 * round to nearest even; d16 forms pack two components per VGPR.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

enum nt { UN, SN, US, SS, UI, SI, FL };
struct tf { unsigned n, bits[4]; enum nt t; }; /* bits: x first */

static const struct tf F8888UN = { 4, { 8, 8, 8, 8 }, UN }, F8888SN = { 4, { 8, 8, 8, 8 }, SN },
		       F1616FL = { 2, { 16, 16 }, FL }, F2101010UI = { 4, { 10, 10, 10, 2 }, UI },
		       F101111FL = { 3, { 11, 11, 10 }, FL }, F8SS = { 1, { 8 }, SS }, F1616SI = { 2, { 16, 16 }, SI },
		       F32FL = { 1, { 32 }, FL }, F16UI = { 1, { 16 }, UI },
		       F16x4SN = { 4, { 16, 16, 16, 16 }, SN }, F88US = { 2, { 8, 8 }, US },
		       F111110FL = { 3, { 10, 11, 11 }, FL }, F8888SI = { 4, { 8, 8, 8, 8 }, SI },
		       F1616SN = { 2, { 16, 16 }, SN }, F1616UN = { 2, { 16, 16 }, UN }, F1616UI = { 2, { 16, 16 }, UI },
		       F8888UI = { 4, { 8, 8, 8, 8 }, UI }, F16FL = { 1, { 16 }, FL }, F88UN = { 2, { 8, 8 }, UN },
		       F8UN = { 1, { 8 }, UN }, F32UI = { 1, { 32 }, UI }, F8SI = { 1, { 8 }, SI },
		       F88SI = { 2, { 8, 8 }, SI };

static bool isint(const struct tf *f) { return f->t == UI || f->t == SI; }

static uint64_t bits_at(const uint8_t *p, unsigned shift, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)((p[(shift + i) / 8] >> ((shift + i) % 8)) & 1) << i;
	return v;
}

/* Unsigned float, 5-bit exponent (bias 15), m mantissa bits. */
static double ufloat(uint32_t v, unsigned m)
{
	uint32_t man = v & ((1u << m) - 1), e = v >> m;
	if (e == 31)
		return man ? NAN : INFINITY;
	if (e == 0)
		return man * pow(2, -14) / (1 << m);
	return (1 + (double)man / (1 << m)) * pow(2, (int)e - 15);
}

/* Component c of the element at p, as a double (float types) or an
 * integer; missing ones 0 (w: 1). */
static double comp(const struct tf *f, const uint8_t *p, unsigned c, uint32_t *iv)
{
	if (c >= f->n) {
		*iv = c == 3;
		return c == 3;
	}
	unsigned shift = 0;
	for (unsigned k = 0; k < c; k++)
		shift += f->bits[k];
	unsigned b = f->bits[c];
	uint32_t u = (uint32_t)bits_at(p, shift, b);
	int64_t s = (u >> (b - 1)) & 1 ? (int64_t)u - ((int64_t)1 << b) : (int64_t)u;
	*iv = f->t == SI ? (uint32_t)(int32_t)s : u;
	switch (f->t) {
	case UN: return u / (pow(2, b) - 1);
	case SN: return fmax(s / (pow(2, b - 1) - 1), -1.0);
	case US: return u;
	case SS: return (double)s;
	case FL: return b == 32 ? xt_u2f(u) : b == 16 ? xt_h2d((uint16_t)u) : ufloat(u, b - 5);
	default: return 0;
	}
}

/* A full-width load of n components into out[0..n). */
static void ld(const struct tf *f, const uint8_t *p, unsigned n, uint32_t *out)
{
	for (unsigned c = 0; c < n; c++) {
		uint32_t iv;
		double d = comp(f, p, c, &iv);
		out[c] = isint(f) ? iv : (f->t == FL && c < f->n && f->bits[c] == 32) ? iv : xt_f2u((float)d);
	}
}

/* A d16 load: component c into half c&1 of out[c/2] (the other half kept). */
static void ld16(const struct tf *f, const uint8_t *p, unsigned n, uint32_t *out)
{
	for (unsigned c = 0; c < n; c++) {
		uint32_t iv;
		double d = comp(f, p, c, &iv);
		uint16_t h = isint(f) ? (uint16_t)iv : xt_d2h(d);
		out[c / 2] = c & 1 ? xt_sethi(out[c / 2], h) : xt_setlo(out[c / 2], h);
	}
}

static uint32_t to_ufloat(double v, unsigned m)
{
	if (isnan(v))
		return 31u << m | 1u << (m - 1);
	if (v <= 0)
		return 0;
	if (v < pow(2, -14)) /* denormal (may round up to the smallest normal) */
		return (uint32_t)nearbyint(v / pow(2, -14 - (int)m));
	int e = 1;
	while (e < 31 && v >= pow(2, e - 14))
		e++;
	if (e == 31)
		return 31u << m;
	double q = nearbyint(v / pow(2, e - 15) * (1 << m)); /* in [2^m, 2^(m+1)] */
	if (q >= 2 << m) {
		q = 1 << m;
		e++;
	}
	return e >= 31 ? 31u << m : (uint32_t)e << m | ((uint32_t)q & ((1u << m) - 1));
}

/* Store components vals (double for float types, iv for integers). */
static void st(const struct tf *f, uint8_t *p, unsigned n, const double *vals, const uint32_t *iv, const uint32_t *raw)
{
	unsigned shift = 0;
	for (unsigned c = 0; c < f->n; c++) {
		unsigned b = f->bits[c];
		double v = c < n ? vals[c] : 0, mx = pow(2, b) - 1, sm = pow(2, b - 1) - 1;
		uint64_t r = 0;
		if (isnan(v) && f->t != FL)
			v = 0;
		switch (f->t) {
		case UN: r = (uint64_t)nearbyint(fmin(fmax(v, 0), 1) * mx); break;
		case SN: r = (uint64_t)(int64_t)nearbyint(fmin(fmax(v, -1), 1) * sm); break;
		case US: r = (uint64_t)nearbyint(fmin(fmax(v, 0), mx)); break;
		case SS: r = (uint64_t)(int64_t)nearbyint(fmin(fmax(v, -sm - 1), sm)); break;
		case UI: case SI: r = c < n ? iv[c] : 0; break;
		case FL:
			if (b == 32)
				r = c < n ? raw[c] : 0;
			else if (b == 16)
				r = xt_d2h(v);
			else
				r = to_ufloat(v, b - 5);
			break;
		}
		for (unsigned i = 0; i < b; i++) {
			unsigned at = shift + i;
			p[at / 8] = (uint8_t)((p[at / 8] & ~(1u << (at % 8))) | (((r >> i) & 1) << (at % 8)));
		}
		shift += b;
	}
}

/* ---- MTBUF loads ---------------------------------------------------------------------- */
#define VSHARP "s_mov_b32 s8, s4\ns_and_b32 s9, s5, 0xffff\ns_mov_b32 s10, -1\ns_mov_b32 s11, 0xfac\n"
static const char tload10[] = VSHARP
	"tbuffer_load_format_xyzw v[40:43], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen\n"
	"tbuffer_load_format_xyzw v[44:47], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SNORM] offen offset:4\n"
	"tbuffer_load_format_xy v[48:49], v33, s[8:11], 0 format:[BUF_FMT_16_16_FLOAT] offen offset:8\n"
	"tbuffer_load_format_xyzw v[50:53], v33, s[8:11], 0 format:[BUF_FMT_2_10_10_10_UINT] offen offset:12\n"
	"tbuffer_load_format_xyz v[54:56], v33, s[8:11], 0 format:[BUF_FMT_10_11_11_FLOAT] offen\n"
	"tbuffer_load_format_xyzw v[57:60], v33, s[8:11], 0 format:[BUF_FMT_8_SSCALED] offen offset:3\n"
	"tbuffer_load_format_xy v[61:62], v33, s[8:11], 0 format:[BUF_FMT_16_16_SINT] offen offset:4\n"
	"tbuffer_load_format_x v63, v33, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offen offset:8\n"
	"tbuffer_load_format_d16_xyzw v[64:65], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen\n"
	"tbuffer_load_format_d16_x v66, v33, s[8:11], 0 format:[BUF_FMT_16_UINT] offen offset:6\n"
	"tbuffer_load_format_d16_xyz v[67:68], v33, s[8:11], 0 format:[BUF_FMT_16_16_16_16_SNORM] offen\n"
	"tbuffer_load_format_d16_xy v69, v33, s[8:11], 0 format:[BUF_FMT_8_8_USCALED] offen offset:2\n"
	"tbuffer_load_format_x v70, v33, s[8:11], 0 format:[BUF_FMT_11_11_10_FLOAT] offen offset:4\n"
	"tbuffer_load_format_x v71, v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SINT] offen offset:8\n"
	"s_waitcnt vmcnt(0)";
static const char tload11[] = VSHARP
	"tbuffer_load_format_xyzw v[40:43], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen\n"
	"tbuffer_load_format_xyzw v[44:47], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SNORM] offen offset:4\n"
	"tbuffer_load_format_xy v[48:49], v33, s[8:11], 0 format:[BUF_FMT_16_16_FLOAT] offen offset:8\n"
	"tbuffer_load_format_xyzw v[50:53], v33, s[8:11], 0 format:[BUF_FMT_2_10_10_10_UINT] offen offset:12\n"
	"tbuffer_load_format_xyz v[54:56], v33, s[8:11], 0 format:[BUF_FMT_10_11_11_FLOAT] offen\n"
	"tbuffer_load_format_xyzw v[57:60], v33, s[8:11], 0 format:[BUF_FMT_8_SSCALED] offen offset:3\n"
	"tbuffer_load_format_xy v[61:62], v33, s[8:11], 0 format:[BUF_FMT_16_16_SINT] offen offset:4\n"
	"tbuffer_load_format_x v63, v33, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offen offset:8\n"
	"tbuffer_load_d16_format_xyzw v[64:65], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen\n"
	"tbuffer_load_d16_format_x v66, v33, s[8:11], 0 format:[BUF_FMT_16_UINT] offen offset:6\n"
	"tbuffer_load_d16_format_xyz v[67:68], v33, s[8:11], 0 format:[BUF_FMT_16_16_16_16_SNORM] offen\n"
	"tbuffer_load_d16_format_xy v69, v33, s[8:11], 0 format:[BUF_FMT_8_8_USCALED] offen offset:2\n"
	"tbuffer_load_format_x v70, v33, s[8:11], 0 format:[BUF_FMT_11_11_10_FLOAT] offen offset:4\n"
	"tbuffer_load_format_x v71, v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SINT] offen offset:8\n"
	"s_waitcnt vmcnt(0)";

static void init_bytes(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	if (lane == 0)
		in[0] = 0x80ff7f00u; /* 0, 127, 255, -128: the ends of each normalized range */
	if (lane == 1)
		in[2] = 0x7c00fc00u; /* -inf, +inf halves */
}

static void ref_tload(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint8_t *p = (const uint8_t *)(c->in + lane * c->nin);
	ld(&F8888UN, p, 4, out + 0);
	ld(&F8888SN, p + 4, 4, out + 4);
	ld(&F1616FL, p + 8, 2, out + 8);
	ld(&F2101010UI, p + 12, 4, out + 10);
	ld(&F101111FL, p, 3, out + 14);
	ld(&F8SS, p + 3, 4, out + 17);
	ld(&F1616SI, p + 4, 2, out + 21);
	ld(&F32FL, p + 8, 1, out + 23);
	ld16(&F8888UN, p, 4, out + 24);
	ld16(&F16UI, p + 6, 1, out + 26);
	ld16(&F16x4SN, p, 3, out + 27);
	ld16(&F88US, p + 2, 2, out + 29);
	ld(&F111110FL, p + 4, 1, out + 30);
	ld(&F8888SI, p + 8, 1, out + 31);
}

/* ---- MTBUF stores: sources v1-v8 (in[0..7]), targets in[8..16] -------------------------- */
#define TSTORE(D16XY, D16XYZW, D16XYZ, D16X) VSHARP \
	"tbuffer_store_format_xyzw v[1:4], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen offset:32\n" \
	"tbuffer_store_format_xy v[1:2], v33, s[8:11], 0 format:[BUF_FMT_16_16_SNORM] offen offset:36\n" \
	"tbuffer_store_format_x v1, v33, s[8:11], 0 format:[BUF_FMT_16_FLOAT] offen offset:40\n" \
	"tbuffer_store_format_xyz v[1:3], v33, s[8:11], 0 format:[BUF_FMT_10_11_11_FLOAT] offen offset:44\n" \
	"tbuffer_store_format_xy v[6:7], v33, s[8:11], 0 format:[BUF_FMT_16_16_UINT] offen offset:48\n" \
	D16XY " v5, v33, s[8:11], 0 format:[BUF_FMT_16_16_UNORM] offen offset:52\n" \
	D16XYZW " v[5:6], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SINT] offen offset:56\n" \
	D16XYZ " v[7:8], v33, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UINT] offen offset:60\n" \
	D16X " v8, v33, s[8:11], 0 format:[BUF_FMT_16_FLOAT] offen offset:64\n" \
	"s_waitcnt vmcnt(0)\n" \
	"global_load_dword v40, v33, s[4:5] offset:32\nglobal_load_dword v41, v33, s[4:5] offset:36\n" \
	"global_load_dword v42, v33, s[4:5] offset:40\nglobal_load_dword v43, v33, s[4:5] offset:44\n" \
	"global_load_dword v44, v33, s[4:5] offset:48\nglobal_load_dword v45, v33, s[4:5] offset:52\n" \
	"global_load_dword v46, v33, s[4:5] offset:56\nglobal_load_dword v47, v33, s[4:5] offset:60\n" \
	"global_load_dword v48, v33, s[4:5] offset:64\ns_waitcnt vmcnt(0)"
static const char tstore10[] = TSTORE("tbuffer_store_format_d16_xy", "tbuffer_store_format_d16_xyzw",
				      "tbuffer_store_format_d16_xyz", "tbuffer_store_format_d16_x");
static const char tstore11[] = TSTORE("tbuffer_store_d16_format_xy", "tbuffer_store_d16_format_xyzw",
				      "tbuffer_store_d16_format_xyz", "tbuffer_store_d16_format_x");

/* f32 sources around and beyond the normalized ranges; f16 pairs without NaN. */
static void init_store(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	for (unsigned k = 0; k < 4; k++) {
		uint32_t r = xt_rand(lane, k, 11);
		in[k] = xt_f2u(((float)(r % 4001) - 2000.0f) / 1000.0f * (lane % 3 == 2 ? 100000.0f : 1.0f));
	}
	static const float edge[][4] = { { 0.5f, -0.5f, 1.0f / 510, 3.0f / 510 }, { NAN, INFINITY, -INFINITY, -0.0f },
					 { 1.0f, -1.0f, 65504.0f, 70000.0f }, { 1e-7f, 6e-5f, 4e-8f, 0.25f } };
	if (lane < 4)
		for (unsigned k = 0; k < 4; k++)
			in[k] = xt_f2u(edge[lane][k]);
	for (unsigned k = 4; k <= 7; k += 3) { /* f16 pairs: no NaN (exponent 31 -> 30) */
		uint32_t v = in[k];
		if ((v & 0x7c00u) == 0x7c00u)
			v &= ~0x0400u;
		if ((v & 0x7c000000u) == 0x7c000000u)
			v &= ~0x04000000u;
		in[k] = v;
	}
}

static void ref_tstore(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	/* the targets as they were: init_store is deterministic */
	uint32_t orig[17], dummy[XT_MAXOUT];
	init_store(lane, orig, dummy, 17, 0);
	uint8_t t[9][4];
	for (unsigned k = 0; k < 9; k++)
		memcpy(t[k], &orig[8 + k], 4);
	double f[4], h[4];
	uint32_t raw[4], iv[4];
	for (unsigned k = 0; k < 4; k++) {
		f[k] = xt_u2f(in[k]);
		raw[k] = in[k];
	}
	st(&F8888UN, t[0], 4, f, raw, raw);
	st(&F1616SN, t[1], 2, f, raw, raw);
	st(&F16FL, t[2], 1, f, raw, raw);
	st(&F101111FL, t[3], 3, f, raw, raw);
	iv[0] = in[5];
	iv[1] = in[6];
	st(&F1616UI, t[4], 2, f, iv, raw);
	h[0] = xt_h2d(xt_lo(in[4]));
	h[1] = xt_h2d(xt_hi(in[4]));
	st(&F1616UN, t[5], 2, h, iv, raw);
	uint32_t s16[4] = { (uint32_t)(int16_t)xt_lo(in[4]), (uint32_t)(int16_t)xt_hi(in[4]),
			    (uint32_t)(int16_t)xt_lo(in[5]), (uint32_t)(int16_t)xt_hi(in[5]) };
	st(&F8888SI, t[6], 4, h, s16, raw);
	uint32_t u16[3] = { xt_lo(in[6]), xt_hi(in[6]), xt_lo(in[7]) };
	st(&F8888UI, t[7], 3, h, u16, raw);
	h[0] = xt_h2d(xt_lo(in[7]));
	st(&F16FL, t[8], 1, h, iv, raw);
	for (unsigned k = 0; k < 9; k++)
		memcpy(&out[k], t[k], 4);
}

/* ---- MUBUF *_format_*: the format and swizzle from the resource ------------------------- */
#define MLOAD(D16X, D16HIX, D16XYZW, D16XYZ, D16XY) \
	"s_mov_b32 s8, s4\ns_and_b32 s9, s5, 0xffff\ns_mov_b32 s10, -1\n" \
	"s_mov_b32 s11, 0xefac\n" /* 8_8_UNORM (14) */ \
	"buffer_load_format_xyzw v[40:43], v33, s[8:11], 0 offen\n" \
	"s_mov_b32 s11, 0xe065\n" /* 8_8_UNORM, DST_SEL y, x, 1, 0 */ \
	"buffer_load_format_xyz v[44:46], v33, s[8:11], 0 offen offset:2\n" \
	"s_mov_b32 s11, 0x18fac\n" /* 16_16_SNORM (24) */ \
	"buffer_load_format_xy v[47:48], v33, s[8:11], 0 offen offset:4\n" \
	"s_mov_b32 s11, 0x14fac\n" /* 32_UINT (20) */ \
	"buffer_load_format_x v49, v33, s[8:11], 0 offen offset:12\n" \
	"s_mov_b32 s11, 0xdfac\n" /* 16_FLOAT (13) */ \
	D16X " v50, v33, s[8:11], 0 offen\n" \
	D16HIX " v50, v33, s[8:11], 0 offen offset:2\n" \
	"s_mov_b32 s11, 0x17fac\n" /* 16_16_UNORM (23) */ \
	D16XYZW " v[51:52], v33, s[8:11], 0 offen offset:4\n" \
	D16XYZ " v[53:54], v33, s[8:11], 0 offen offset:8\n" \
	D16XY " v55, v33, s[8:11], 0 offen offset:12\n" \
	"s_mov_b32 s11, 0x6fac\n" /* 8_SINT (6), 40 bytes: lanes 0-2 in range */ \
	"s_mov_b32 s10, 40\n" \
	"buffer_load_format_x v56, v33, s[8:11], 0 offen offset:1\n" \
	"s_waitcnt vmcnt(0)"
static const char mload10[] = MLOAD("buffer_load_format_d16_x", "buffer_load_format_d16_hi_x",
				    "buffer_load_format_d16_xyzw", "buffer_load_format_d16_xyz",
				    "buffer_load_format_d16_xy");
static const char mload11[] = MLOAD("buffer_load_d16_format_x", "buffer_load_d16_hi_format_x",
				    "buffer_load_d16_format_xyzw", "buffer_load_d16_format_xyz",
				    "buffer_load_d16_format_xy");

static void ref_mload(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint8_t *p = (const uint8_t *)(c->in + lane * c->nin);
	ld(&F88UN, p, 4, out + 0);
	uint32_t t[4];
	ld(&F88UN, p + 2, 4, t); /* x, y, z = 0, w = 1 */
	out[4] = t[1];
	out[5] = t[0];
	out[6] = xt_f2u(1.0f);
	ld(&F1616SN, p + 4, 2, out + 7);
	ld(&F32UI, p + 12, 1, out + 9);
	ld16(&F16FL, p, 1, out + 10);
	uint32_t hi = 0;
	ld16(&F16FL, p + 2, 1, &hi);
	out[10] = xt_sethi(out[10], xt_lo(hi));
	ld16(&F1616UN, p + 4, 4, out + 11);
	ld16(&F1616UN, p + 8, 3, out + 13);
	ld16(&F1616UN, p + 12, 2, out + 15);
	if (lane * 16 + 1 < 40)
		ld(&F8SI, p + 1, 1, out + 16);
	else
		out[16] = 0;
}

/* ---- MUBUF stores ----------------------------------------------------------------------- */
#define MSTORE(D16XY, D16XYZ, D16X, D16HIX, D16XYZW) \
	"s_mov_b32 s8, s4\ns_and_b32 s9, s5, 0xffff\ns_mov_b32 s10, -1\n" \
	"s_mov_b32 s11, 0xefac\n" /* 8_8_UNORM */ \
	"buffer_store_format_xy v[1:2], v33, s[8:11], 0 offen offset:32\n" \
	"s_mov_b32 s11, 0x17fac\n" /* 16_16_UNORM */ \
	"buffer_store_format_xyz v[1:3], v33, s[8:11], 0 offen offset:36\n" \
	"s_mov_b32 s11, 0x1fac\n" /* 8_UNORM */ \
	"buffer_store_format_xyzw v[1:4], v33, s[8:11], 0 offen offset:40\n" \
	"s_mov_b32 s11, 0x16fac\n" /* 32_FLOAT */ \
	"buffer_store_format_x v2, v33, s[8:11], 0 offen offset:44\n" \
	"s_mov_b32 s11, 0x1dfac\n" /* 16_16_FLOAT */ \
	D16XY " v5, v33, s[8:11], 0 offen offset:48\n" \
	"s_mov_b32 s11, 0x13fac\n" /* 8_8_SINT */ \
	D16XYZ " v[6:7], v33, s[8:11], 0 offen offset:52\n" \
	"s_mov_b32 s11, 0xdfac\n" /* 16_FLOAT */ \
	D16X " v8, v33, s[8:11], 0 offen offset:56\n" \
	D16HIX " v8, v33, s[8:11], 0 offen offset:58\n" \
	"s_mov_b32 s11, 0x1bfac\n" /* 16_16_UINT */ \
	D16XYZW " v[6:7], v33, s[8:11], 0 offen offset:60\n" \
	"s_waitcnt vmcnt(0)\n" \
	"global_load_dword v40, v33, s[4:5] offset:32\nglobal_load_dword v41, v33, s[4:5] offset:36\n" \
	"global_load_dword v42, v33, s[4:5] offset:40\nglobal_load_dword v43, v33, s[4:5] offset:44\n" \
	"global_load_dword v44, v33, s[4:5] offset:48\nglobal_load_dword v45, v33, s[4:5] offset:52\n" \
	"global_load_dword v46, v33, s[4:5] offset:56\nglobal_load_dword v47, v33, s[4:5] offset:60\n" \
	"s_waitcnt vmcnt(0)"
static const char mstore10[] = MSTORE("buffer_store_format_d16_xy", "buffer_store_format_d16_xyz",
				      "buffer_store_format_d16_x", "buffer_store_format_d16_hi_x",
				      "buffer_store_format_d16_xyzw");
static const char mstore11[] = MSTORE("buffer_store_d16_format_xy", "buffer_store_d16_format_xyz",
				      "buffer_store_d16_format_x", "buffer_store_d16_hi_format_x",
				      "buffer_store_d16_format_xyzw");

static void ref_mstore(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint32_t orig[16], dummy[XT_MAXOUT];
	init_store(lane, orig, dummy, 16, 0);
	uint8_t t[8][4];
	for (unsigned k = 0; k < 8; k++)
		memcpy(t[k], &orig[8 + k], 4);
	double f[4], h[4];
	uint32_t raw[4];
	for (unsigned k = 0; k < 4; k++) {
		f[k] = xt_u2f(in[k]);
		raw[k] = in[k];
	}
	st(&F88UN, t[0], 2, f, raw, raw);
	st(&F1616UN, t[1], 3, f, raw, raw);
	st(&F8UN, t[2], 4, f, raw, raw);
	st(&F32FL, t[3], 1, f + 1, raw + 1, raw + 1);
	h[0] = xt_h2d(xt_lo(in[4]));
	h[1] = xt_h2d(xt_hi(in[4]));
	st(&F1616FL, t[4], 2, h, raw, raw);
	uint32_t s16[3] = { (uint32_t)(int16_t)xt_lo(in[5]), (uint32_t)(int16_t)xt_hi(in[5]),
			    (uint32_t)(int16_t)xt_lo(in[6]) };
	st(&F88SI, t[5], 3, h, s16, raw);
	h[0] = xt_h2d(xt_lo(in[7]));
	st(&F16FL, t[6], 1, h, raw, raw);
	h[0] = xt_h2d(xt_hi(in[7]));
	st(&F16FL, t[6] + 2, 1, h, raw, raw);
	uint32_t u16[4] = { xt_lo(in[5]), xt_hi(in[5]), xt_lo(in[6]), xt_hi(in[6]) };
	st(&F1616UI, t[7], 4, h, u16, raw);
	for (unsigned k = 0; k < 8; k++)
		memcpy(&out[k], t[k], 4);
}

const struct xt_test xt_tests_buf[] = {
	{ "tbuffer_load_format", XT_BOTH, tload10, tload11, NULL, 4, 32, init_bytes, ref_tload, XT_EXACT },
	{ "tbuffer_store_format", XT_BOTH, tstore10, tstore11, NULL, 17, 9, init_store, ref_tstore, XT_EXACT },
	{ "buffer_load_format", XT_BOTH, mload10, mload11, NULL, 4, 17, init_bytes, ref_mload, XT_EXACT },
	{ "buffer_store_format", XT_BOTH, mstore10, mstore11, NULL, 16, 8, init_store, ref_mstore, XT_EXACT },
};
const unsigned xt_ntests_buf = sizeof xt_tests_buf / sizeof xt_tests_buf[0];
