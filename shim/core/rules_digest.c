/* SPDX-License-Identifier: MIT */
/*
 * rules_digest.c — the two names a kernel rule sees besides the mangled
 * symbol: the demangled name (libiberty's cplus_demangle_v3_callback, the
 * demangler of binutils/GCC, which allocates nothing and writes through a
 * callback) and the code object's SHA-256 (nettle).  Pure.
 */
#include "rdnacompat/rules.h"

#include <string.h>

#include <libiberty/demangle.h>
#include <nettle/sha2.h>

struct sink {
	char *buf;
	size_t n, len;
	bool truncated;
};

static void put(const char *s, size_t l, void *arg)
{
	struct sink *k = arg;
	if (k->len + l >= k->n) {
		k->truncated = true;
		l = k->len < k->n - 1 ? k->n - 1 - k->len : 0;
	}
	memcpy(k->buf + k->len, s, l);
	k->len += l;
	k->buf[k->len] = '\0';
}

int rdc_demangle(const char *name, char *buf, size_t n)
{
	if (!name || !buf || n < 2)
		return RDC_E_INVAL;
	buf[0] = '\0';
	if (strncmp(name, "_Z", 2) != 0)
		return RDC_E_FORMAT;
	struct sink k = { buf, n, 0, false };
	if (!cplus_demangle_v3_callback(name, DMGL_PARAMS | DMGL_ANSI, put, &k)) {
		buf[0] = '\0';
		return RDC_E_FORMAT;
	}
	return k.truncated ? RDC_E_RANGE : 0;
}

void rdc_sha256(const void *p, size_t n, uint8_t out[32])
{
	struct sha256_ctx c;
	sha256_init(&c);
	sha256_update(&c, n, p);
	sha256_digest(&c, SHA256_DIGEST_SIZE, out);
}

void rdc_sha256_hex(const uint8_t sum[32], char out[65])
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < 32; i++) {
		out[2 * i] = digits[sum[i] >> 4];
		out[2 * i + 1] = digits[sum[i] & 15];
	}
	out[64] = '\0';
}
