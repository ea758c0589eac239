/* SPDX-License-Identifier: MIT */
/*
 * selftest_ref.c — the CPU references of `doctor --selftest` (selftest.h):
 * IEEE half <-> float conversions done bit by bit (no compiler _Float16, so
 * the reference does not depend on the host's f16 support), attention in
 * double, and the test-data generator.
 */
#include <math.h>
#include <string.h>

#include "selftest.h"

float rdc_st_h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
	if (e == 0x1f) {
		u = sign | 0x7f800000u | (m << 13);
	} else if (e) {
		u = sign | ((e + 112u) << 23) | (m << 13);
	} else if (!m) {
		u = sign;
	} else { /* subnormal: m * 2^-24 */
		float f = (float)m * 0x1p-24f;
		memcpy(&u, &f, sizeof u);
		u |= sign;
	}
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

uint16_t rdc_st_f2h(double x)
{
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double a = fabs(x);
	if (a >= 65520.0)   /* rounds to infinity */
		return sign | 0x7c00;
	if (a < 0x1p-14) {  /* subnormal or zero: units of 2^-24 */
		double q = nearbyint(a * 0x1p24); /* default rounding: to nearest even */
		return sign | (uint16_t)q;
	}
	int e;
	double fr = frexp(a, &e);          /* a = fr * 2^e, fr in [0.5, 1) */
	double q = nearbyint(fr * 2048.0); /* 11 significant bits */
	if (q >= 2048.0) {
		q /= 2;
		e++;
	}
	if (e + 14 >= 31)
		return sign | 0x7c00;
	return sign | (uint16_t)((uint16_t)(e + 14) << 10) | (uint16_t)((uint32_t)q & 0x3ff);
}

void rdc_st_attn_ref(const float *q, const uint16_t *k, const uint16_t *v, int H, int L, int S, int dkq,
		     int dv, double scale, double *out)
{
	for (int h = 0; h < H; h++)
		for (int r = 0; r < L; r++) {
			const float *qr = q + ((size_t)h * L + r) * dkq;
			double mx = -INFINITY, den = 0;
			double *o = out + ((size_t)r * H + h) * dv;
			for (int d = 0; d < dv; d++)
				o[d] = 0;
			for (int pass = 0; pass < 2; pass++)
				for (int s = 0; s < S; s++) {
					const uint16_t *kr = k + ((size_t)h * S + s) * dkq;
					double x = 0;
					for (int d = 0; d < dkq; d++)
						x += (double)qr[d] * rdc_st_h2f(kr[d]);
					x *= scale;
					if (pass == 0) {
						mx = x > mx ? x : mx;
						continue;
					}
					double w = exp(x - mx);
					den += w;
					const uint16_t *vr = v + ((size_t)h * S + s) * dv;
					for (int d = 0; d < dv; d++)
						o[d] += w * rdc_st_h2f(vr[d]);
				}
			for (int d = 0; d < dv; d++)
				o[d] /= den;
		}
}

uint32_t rdc_st_rand(uint32_t *s)
{
	uint32_t x = *s ? *s : 0x9e3779b9u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

float rdc_st_randf(uint32_t *s, float lo, float hi)
{
	return lo + (hi - lo) * (float)(rdc_st_rand(s) >> 8) * 0x1p-24f;
}
