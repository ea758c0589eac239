/* SPDX-License-Identifier: MIT */
/*
 * bundle_md5.c — rdc_bundle_hash: the truncated MD5 that compressed offload
 * bundles ("CCOB") store, computed like llvm::MD5 + MD5Result::low() (the
 * first 8 digest bytes as a little-endian u64).
 *
 * MD5 is nettle's (already linked for the rules' SHA-256; static in the
 * shim, so no libcrypto in every process).  Checked against the RFC 1321
 * test vectors and md5sum in tests/unit/test_bundle.c.  Pure.
 */
#include "rdnacompat/bundle.h"

#include <nettle/md5.h>

#include "bundle_internal.h"

uint64_t rdc_bundle_hash(const void *p, size_t len)
{
	struct md5_ctx m;
	uint8_t dig[MD5_DIGEST_SIZE];
	md5_init(&m);
	/* nettle takes size_t lengths; feed in bounded pieces all the same. */
	const uint8_t *q = p;
	while (len) {
		size_t n = len > ((size_t)1 << 30) ? (size_t)1 << 30 : len;
		md5_update(&m, n, q);
		q += n;
		len -= n;
	}
	md5_digest(&m, sizeof dig, dig);
	return rdc_ld64(dig);
}
