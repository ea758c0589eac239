/* SPDX-License-Identifier: MIT */
/*
 * buffmt.c — the buffer data formats of typed buffer accesses (MTBUF's
 * format field, a buffer resource's FORMAT for buffer_load/store_format_*):
 * what an element holds and how it converts to and from the 32-bit (or,
 * for the d16 forms, 16-bit) values of the VGPRs.
 *
 * The formats by value come from Debian's LLVM (rdc_buf_fmt_name in
 * isa_optab_gen.c, "8_8_UNORM", "2_10_10_10_SNORM", "10_11_11_FLOAT"); a name
 * lists its components from the most significant bits down, so X is the
 * last number (10_11_11 is R11G11B10: X in bits 0-10), and an element is
 * the components packed from bit 0 up.  Conversions, as the ISA guides'
 * "Buffer Data Format" and "Numeric Format" tables define them:
 * UNORM u / (2^b - 1), SNORM max(s / (2^(b-1) - 1), -1), USCALED/SSCALED
 * the integer as a float, UINT/SINT the integer (zero- or sign-extended),
 * FLOAT IEEE binary32/binary16 or the unsigned 11- and 10-bit floats (5-bit
 * exponent, 6/5-bit mantissa).  Each value is computed exactly and rounded
 * once (to nearest even) to its destination type.  Stores clamp normalized
 * and scaled values to the format's range and round to nearest even; UINT
 * and SINT stores keep the value's low bits.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "wave.h"

static struct rdc_buffmt fmts[2][128];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void parse(const char *name, struct rdc_buffmt *f)
{
	unsigned bits[4], n = 0;
	const char *p = name;
	while (*p >= '0' && *p <= '9' && n < 4) {
		bits[n++] = (unsigned)strtoul(p, (char **)&p, 10);
		if (*p == '_')
			p++;
	}
	static const struct { const char *s; uint8_t t; } types[] = {
		{ "UNORM", RDC_BF_UNORM }, { "SNORM", RDC_BF_SNORM }, { "USCALED", RDC_BF_USCALED },
		{ "SSCALED", RDC_BF_SSCALED }, { "UINT", RDC_BF_UINT }, { "SINT", RDC_BF_SINT }, { "FLOAT", RDC_BF_FLOAT },
	};
	for (unsigned i = 0; i < sizeof types / sizeof *types; i++) {
		if (!strcmp(p, types[i].s)) {
			unsigned shift = 0;
			f->n = (uint8_t)n;
			f->type = types[i].t;
			for (unsigned c = 0; c < n; c++) { /* X is the last number */
				f->bits[c] = (uint8_t)bits[n - 1 - c];
				f->shift[c] = (uint8_t)shift;
				shift += bits[n - 1 - c];
			}
			f->bytes = (uint8_t)(shift / 8);
			f->valid = shift % 8 == 0 && shift <= 128;
			return;
		}
	}
}

static void build(void)
{
	for (unsigned g = 0; g < 2; g++)
		for (unsigned v = 0; v < 128; v++)
			if (rdc_buf_fmt_name[g][v])
				parse(rdc_buf_fmt_name[g][v], &fmts[g][v]);
}

const struct rdc_buffmt *rdc_buffmt(unsigned gfx, unsigned value)
{
	pthread_once(&once, build);
	if (value >= 128 || !fmts[gfx == 11][value].valid)
		return NULL;
	return &fmts[gfx == 11][value];
}

bool rdc_buffmt_isfloat(const struct rdc_buffmt *f)
{
	return f->type != RDC_BF_UINT && f->type != RDC_BF_SINT;
}

/* A binary float with a 5-bit exponent (bias 15) and mb mantissa bits,
 * signed (binary16) or not (the 11/10-bit formats). */
static double small2d(uint32_t v, unsigned mb, bool sign)
{
	uint32_t m = v & ((1u << mb) - 1), e = (v >> mb) & 31;
	bool neg = sign && ((v >> (mb + 5)) & 1);
	double d;
	if (e == 31)
		d = m ? NAN : INFINITY;
	else if (e == 0)
		d = ldexp((double)m, -14 - (int)mb);
	else
		d = ldexp(1.0 + ldexp((double)m, -(int)mb), (int)e - 15);
	return neg ? -d : d;
}

static uint32_t d2small(double v, unsigned mb, bool sign)
{
	uint32_t s = sign && signbit(v) ? 1u << (mb + 5) : 0;
	uint32_t inf = 31u << mb;
	if (isnan(v))
		return s | inf | (1u << (mb - 1));
	if (!sign && v < 0)
		return 0;
	v = fabs(v);
	if (isinf(v))
		return s | inf;
	if (v < 0x1p-14) /* denormal: units of 2^(-14-mb); may round up to the smallest normal */
		return s | (uint32_t)nearbyint(ldexp(v, 14 + (int)mb));
	int e;
	(void)frexp(v, &e);
	int exp = e - 1; /* v = 1.f * 2^exp */
	double q = nearbyint(ldexp(v, (int)mb - exp));
	if (q >= ldexp(1.0, (int)mb + 1)) {
		q /= 2;
		exp++;
	}
	if (exp > 15)
		return s | inf;
	return s | (uint32_t)(exp + 15) << mb | ((uint32_t)q & ((1u << mb) - 1));
}

uint16_t rdc_buffmt_d2h(double v) { return (uint16_t)d2small(v, 10, true); }
double rdc_buffmt_h2d(uint16_t h) { return small2d(h, 10, true); }

static uint32_t field(const uint8_t *el, unsigned shift, unsigned bits)
{
	uint64_t v = 0;
	unsigned first = shift / 8, last = (shift + bits - 1) / 8;
	for (unsigned b = first; b <= last; b++)
		v |= (uint64_t)el[b] << (8 * (b - first));
	v >>= shift % 8;
	return (uint32_t)(bits == 32 ? v : v & ((1ull << bits) - 1));
}

static void put_field(uint8_t *el, unsigned shift, unsigned bits, uint32_t x)
{
	for (unsigned i = 0; i < bits; i++) {
		unsigned at = shift + i;
		uint8_t bit = (uint8_t)(1u << (at % 8));
		if ((x >> i) & 1)
			el[at / 8] |= bit;
		else
			el[at / 8] &= (uint8_t)~bit;
	}
}

static int32_t sext(uint32_t v, unsigned bits)
{
	return bits >= 32 ? (int32_t)v : (int32_t)(v << (32 - bits)) >> (32 - bits);
}

void rdc_buffmt_unpack(const struct rdc_buffmt *f, const uint8_t *el, struct rdc_bfval out[4])
{
	bool isf = rdc_buffmt_isfloat(f);
	for (unsigned c = 0; c < 4; c++) {
		out[c].isf = isf;
		out[c].raw = false;
		out[c].f = c == 3 ? 1.0 : 0.0;
		out[c].u = c == 3;
	}
	for (unsigned c = 0; c < f->n; c++) {
		unsigned b = f->bits[c];
		uint32_t r = field(el, f->shift[c], b);
		double max = ldexp(1.0, (int)b) - 1, smax = ldexp(1.0, (int)b - 1) - 1;
		switch (f->type) {
		case RDC_BF_UNORM: out[c].f = r / max; break;
		case RDC_BF_SNORM: out[c].f = fmax(sext(r, b) / smax, -1.0); break;
		case RDC_BF_USCALED: out[c].f = r; break;
		case RDC_BF_SSCALED: out[c].f = sext(r, b); break;
		case RDC_BF_UINT: out[c].u = r; break;
		case RDC_BF_SINT: out[c].u = (uint32_t)sext(r, b); break;
		default:
			if (b == 32) {
				out[c].f = rdc_u2f(r);
				out[c].u = r; /* the bits as they are (NaN payloads) */
				out[c].raw = true;
			} else if (b == 16)
				out[c].f = small2d(r, 10, true);
			else
				out[c].f = small2d(r, b - 5, false);
			break;
		}
	}
}

static double clampd(double v, double lo, double hi)
{
	if (isnan(v))
		return 0;
	return v < lo ? lo : v > hi ? hi : v;
}

void rdc_buffmt_pack(const struct rdc_buffmt *f, const struct rdc_bfval in[4], uint8_t *el)
{
	memset(el, 0, f->bytes);
	for (unsigned c = 0; c < f->n; c++) {
		unsigned b = f->bits[c];
		double max = ldexp(1.0, (int)b) - 1, smax = ldexp(1.0, (int)b - 1) - 1;
		double d = in[c].f;
		uint32_t r;
		switch (f->type) {
		case RDC_BF_UNORM: r = (uint32_t)nearbyint(clampd(d, 0, 1) * max); break;
		case RDC_BF_SNORM: r = (uint32_t)(int32_t)nearbyint(clampd(d, -1, 1) * smax); break;
		case RDC_BF_USCALED: r = (uint32_t)nearbyint(clampd(d, 0, max)); break;
		case RDC_BF_SSCALED: r = (uint32_t)(int32_t)nearbyint(clampd(d, -smax - 1, smax)); break;
		case RDC_BF_UINT: case RDC_BF_SINT: r = in[c].u; break;
		default:
			if (b == 32)
				r = in[c].raw ? in[c].u : rdc_f2u((float)d);
			else if (b == 16)
				r = d2small(d, 10, true);
			else
				r = d2small(d, b - 5, false);
			break;
		}
		put_field(el, f->shift[c], b, b == 32 ? r : r & ((1u << b) - 1));
	}
}
