/* SPDX-License-Identifier: MIT */
/*
 * codeobj_tail.c — where the metadata's amdhsa.target string is, read from
 * the end of the note without decoding it.
 *
 * LLVM writes the code object's MessagePack metadata (AMDGPU HSA metadata
 * v3+, llvm/lib/Target/AMDGPU/AMDGPUHSAMetadataStreamer.cpp) as one
 * msgpack::Document whose root map keeps its keys sorted, so the note ends
 *     ... fixstr "amdhsa.target"  str TARGET  fixstr "amdhsa.version"
 *         fixarray(2) fixint fixint
 * exactly at the end of the note's descriptor.  Reading those bytes
 * backwards gives the target string's span in a few bytes, where a decode
 * builds the whole document (every kernel and argument) first.  The key's
 * text must occur once in the whole note: a document that names
 * amdhsa.target twice (or elsewhere, in any encoding) could be read
 * differently by a decoder (fuzz_codeobj found one).  Anything else —
 * another order, wider integers, a target string that does not start
 * "amdgcn-amd-amdhsa--", more than one way to read the tail — is "not
 * found", and the caller decodes the note (codeobj_meta.c).
 */
#include <string.h>

#include "codeobj_internal.h"

static const char key_target[] = "amdhsa.target";    /* 13: fixstr 0xad */
static const char key_version[] = "amdhsa.version";  /* 14: fixstr 0xae */
static const char isa_prefix[] = "amdgcn-amd-amdhsa--";

static bool fixstr_at(const uint8_t *p, size_t at, size_t size, const char *s)
{
	size_t l = strlen(s);
	return at + 1 + l <= size && p[at] == (0xa0 | l) && memcmp(p + at + 1, s, l) == 0;
}

/* TARGET of length l ending at `end`: its header's start, or SIZE_MAX. */
static size_t str_header(const uint8_t *p, size_t end, size_t l)
{
	if (l < 32 && end >= l + 1 && p[end - l - 1] == (0xa0 | l))
		return end - l - 1;
	if (l < 256 && end >= l + 2 && p[end - l - 2] == 0xd9 && p[end - l - 1] == l)
		return end - l - 2;
	return SIZE_MAX;
}

static bool printable(const uint8_t *s, size_t l)
{
	for (size_t i = 0; i < l; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return false;
	return true;
}

bool rdc_co_meta_target_tail(const uint8_t *desc, size_t size, size_t *str_off, size_t *str_len,
			     uint32_t version[2])
{
	const size_t kv = 1 + sizeof key_version - 1;
	if (size < 3 + kv || ((desc[0] & 0xf0) != 0x80 && desc[0] != 0xde && desc[0] != 0xdf))
		return false;
	/* fixarray(2) of two positive fixints, then the version key before it */
	size_t arr = size - 3;
	if (desc[arr] != 0x92 || desc[arr + 1] > 0x7f || desc[arr + 2] > 0x7f ||
	    !fixstr_at(desc, arr - kv, size, key_version))
		return false;
	size_t end = arr - kv;   /* where TARGET ends */
	size_t found = 0, off = 0, len = 0;
	for (size_t l = sizeof isa_prefix - 1; l < 256 && l < end; l++) {
		size_t h = str_header(desc, end, l);
		if (h == SIZE_MAX || h < 1 + sizeof key_target - 1 ||
		    !fixstr_at(desc, h - (1 + sizeof key_target - 1), size, key_target))
			continue;
		const uint8_t *s = desc + end - l;
		if (memcmp(s, isa_prefix, sizeof isa_prefix - 1) != 0 || !printable(s, l))
			continue;
		found++;
		off = end - l;
		len = l;
	}
	if (found != 1)
		return false;
	/* the key's text once in the note: this one */
	const void *first = memmem(desc, size, key_target, sizeof key_target - 1);
	if (first != desc + off - (len < 32 ? 1 : 2) - (sizeof key_target - 1))
		return false;
	*str_off = off;
	*str_len = len;
	if (version) {
		version[0] = desc[arr + 1];
		version[1] = desc[arr + 2];
	}
	return true;
}
