/* SPDX-License-Identifier: MIT */
/*
 * bundle_md5.c — rdc_bundle_hash: the truncated MD5 that compressed offload
 * bundles ("CCOB") store, computed like llvm::MD5 + MD5Result::low() (the
 * first 8 digest bytes as a little-endian u64).
 *
 * MD5 itself is RFC 1321.  It is here, ~80 lines, rather than taken from
 * libcrypto because the core is linked into an LD_PRELOAD library that must
 * not drag OpenSSL into every process.  Pure; checked against the RFC 1321
 * test vectors and md5sum in tests/unit/test_bundle.c.
 */
#include "rdnacompat/bundle.h"

#include <string.h>

#include "bundle_internal.h"

struct md5 {
	uint32_t h[4];
	uint64_t len;
	uint8_t buf[64];
	size_t fill;
};

static const uint32_t K[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
	0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
	0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
	0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
	0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
	0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
	0xeb86d391,
};

static const uint8_t R[64] = {
	7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
	5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
	4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
	6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

static uint32_t rol(uint32_t x, unsigned c)
{
	return (x << c) | (x >> (32 - c));
}

static void block(struct md5 *m, const uint8_t *p)
{
	uint32_t w[16];
	for (int i = 0; i < 16; i++)
		w[i] = rdc_ld32(p + 4 * i);
	uint32_t a = m->h[0], b = m->h[1], c = m->h[2], d = m->h[3];
	for (unsigned i = 0; i < 64; i++) {
		uint32_t f;
		unsigned g;
		if (i < 16) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (i < 32) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) % 16;
		} else if (i < 48) {
			f = b ^ c ^ d;
			g = (3 * i + 5) % 16;
		} else {
			f = c ^ (b | ~d);
			g = (7 * i) % 16;
		}
		uint32_t t = d;
		d = c;
		c = b;
		b = b + rol(a + f + K[i] + w[g], R[i]);
		a = t;
	}
	m->h[0] += a;
	m->h[1] += b;
	m->h[2] += c;
	m->h[3] += d;
}

static void update(struct md5 *m, const uint8_t *p, size_t n)
{
	m->len += n;
	if (m->fill) {
		size_t k = 64 - m->fill < n ? 64 - m->fill : n;
		memcpy(m->buf + m->fill, p, k);
		m->fill += k;
		p += k;
		n -= k;
		if (m->fill < 64)
			return;
		block(m, m->buf);
		m->fill = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		block(m, p);
	memcpy(m->buf, p, n);
	m->fill = n;
}

uint64_t rdc_bundle_hash(const void *p, size_t len)
{
	struct md5 m = { .h = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 } };
	if (len)
		update(&m, p, len);
	uint64_t bits = m.len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t padlen = (m.fill < 56 ? 56 : 120) - m.fill;
	rdc_st64(pad + padlen, bits);
	update(&m, pad, padlen + 8);
	/* Digest bytes 0..7 are h[0], h[1] little-endian: low() reads them LE. */
	return (uint64_t)m.h[0] | (uint64_t)m.h[1] << 32;
}
