/* SPDX-License-Identifier: MIT */
/*
 * codeobj_msgpack_bounds.c — a size check run over untrusted MessagePack
 * before msgpack-c decodes it.
 *
 * msgpack-c allocates a container's declared element count before reading
 * the elements, so a corrupt note of a few bytes ("array32 of 2^32-1
 * entries") asks for up to 100 GB.  This pass reads only the type bytes and
 * length fields (MessagePack spec, "Formats") and refuses any string, binary,
 * extension or container that declares more than the bytes left could hold
 * (every element takes at least one byte), and stops as soon as the objects
 * still declared outnumber the bytes left: RDC_E_TRUNCATED at the end of the
 * input, as msgpack-c's own "continue" would have said, only without the
 * allocation.  It builds no values: decoding
 * stays msgpack-c's job (codeobj_meta.c), which sizes its zone by the
 * count of objects this pass returns.
 */
#include <stdint.h>

#include "codeobj_internal.h"

static uint64_t be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

int rdc_co_msgpack_bounds(const uint8_t *p, size_t size, uint64_t base, uint64_t *objects,
			  struct rdc_diag *d)
{
	size_t off = 0;
	uint64_t pending = 1; /* objects still to read; the root first */
	uint64_t seen = 0;
	while (pending > 0) {
		seen++;
		if (off >= size)
			return rdc_diag_set(d, RDC_E_TRUNCATED, base + size,
					    "metadata MessagePack ends with %llu object(s) unread",
					    (unsigned long long)pending);
		uint8_t t = p[off];
		size_t at = off++;
		pending--;
		unsigned lenbytes = 0;  /* size of a length field that follows */
		uint64_t payload = 0;   /* fixed payload bytes */
		uint64_t elems = 0;     /* container elements (maps count key+value) */
		int kind = 0;           /* 0 scalar, 1 bytes of `len`, 2 ext, 3 array, 4 map */
		if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3) {
			/* fixint, nil, bool */
		} else if (t <= 0x8f) {
			elems = 2u * (t & 0x0f);
		} else if (t <= 0x9f) {
			elems = t & 0x0f;
		} else if (t <= 0xbf) {
			payload = t & 0x1f;
		} else {
			switch (t) {
			case 0xc4: case 0xd9: lenbytes = 1; kind = 1; break; /* bin8, str8 */
			case 0xc5: case 0xda: lenbytes = 2; kind = 1; break;
			case 0xc6: case 0xdb: lenbytes = 4; kind = 1; break;
			case 0xc7: lenbytes = 1; kind = 2; break;            /* ext8/16/32 */
			case 0xc8: lenbytes = 2; kind = 2; break;
			case 0xc9: lenbytes = 4; kind = 2; break;
			case 0xca: case 0xce: case 0xd2: payload = 4; break;
			case 0xcb: case 0xcf: case 0xd3: payload = 8; break;
			case 0xcc: case 0xd0: payload = 1; break;
			case 0xcd: case 0xd1: payload = 2; break;
			case 0xd4: payload = 2; break;                        /* fixext: type + data */
			case 0xd5: payload = 3; break;
			case 0xd6: payload = 5; break;
			case 0xd7: payload = 9; break;
			case 0xd8: payload = 17; break;
			case 0xdc: lenbytes = 2; kind = 3; break;             /* array16/32 */
			case 0xdd: lenbytes = 4; kind = 3; break;
			case 0xde: lenbytes = 2; kind = 4; break;             /* map16/32 */
			case 0xdf: lenbytes = 4; kind = 4; break;
			default:
				return rdc_diag_set(d, RDC_E_FORMAT, base + at,
						    "metadata MessagePack: invalid type byte 0x%02x", t);
			}
		}
		if (lenbytes) {
			if (size - off < lenbytes)
				return rdc_diag_set(d, RDC_E_TRUNCATED, base + size,
						    "metadata MessagePack ends early: the length field of the object at byte %llu is cut off",
						    (unsigned long long)(base + at));
			uint64_t n = be(p + off, lenbytes);
			off += lenbytes;
			if (kind == 1)
				payload = n;
			else if (kind == 2)
				payload = n + 1; /* the type byte, then n bytes */
			else
				elems = kind == 4 ? 2 * n : n;
		}
		uint64_t left = size - off;
		/* Input that ends before what it declares is truncated: reported at
		 * its end, naming the object that over-declares. */
		if (payload > left)
			return rdc_diag_set(d, RDC_E_TRUNCATED, base + size,
					    "metadata MessagePack ends early: the object at byte %llu declares %llu bytes, %llu left",
					    (unsigned long long)(base + at), (unsigned long long)payload,
					    (unsigned long long)left);
		off += payload;
		pending += elems;
		/* Every object still to read takes at least one byte. */
		if (pending > size - off)
			return rdc_diag_set(d, RDC_E_TRUNCATED, base + size,
					    "metadata MessagePack ends early: after the object at byte %llu, %llu objects are declared and %llu bytes left",
					    (unsigned long long)(base + at), (unsigned long long)pending,
					    (unsigned long long)(size - off));
	}
	if (objects)
		*objects = seen;
	return 0;
}
