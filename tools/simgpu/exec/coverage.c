/* SPDX-License-Identifier: MIT */
/*
 * coverage.c — which instructions of a code object's text the engine can
 * execute: decodes [code, code+len) linearly (the .text of a code object is
 * instructions only; s_code_end padding included) and reports each distinct
 * mnemonic once, with its count, first offset and whether a handler exists.
 * A zero word the decoder refuses (gfx11: LLVM's v_illegal) is the zero fill
 * between kernels (rocBLAS's Tensile objects align each kernel to 256
 * bytes): it is skipped, neither counted nor reported.
 * `rdnacompat sim --coverage` prints it per code object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wave.h"

struct cov { const char *mn; char *owned; uint64_t count, first; bool ok; };

long rdc_exec_coverage(unsigned gfx, const uint8_t *code, size_t len,
		       void (*fn)(void *ctx, const char *mnemonic, bool executable, uint64_t count, uint64_t first),
		       void *ctx)
{
	struct cov *seen = NULL;
	size_t nseen = 0, cap = 0;
	long insts = 0;
	for (size_t off = 0; off + 4 <= len;) {
		struct rdc_inst in;
		int rc = rdc_decode(gfx, code + off, len - off, &in);
		if (rc < 0 && !memcmp(code + off, "\0\0\0\0", 4)) {
			off += 4;
			continue;
		}
		const char *mn = in.mnemonic; /* "<unknown encoding>", a format's name, or the op's */
		bool ok = rc == 0 && in.fn != NULL;
		char dual[96];
		if (rc == 0 && in.fmt == RDC_FMT_VOPD) {
			/* the pair's mnemonic as LLVM prints it */
			snprintf(dual, sizeof dual, "v_dual_%s :: v_dual_%s", rdc_op_name[in.op] + 2,
				 rdc_op_name[in.op_y] + 2);
			mn = NULL;
		}
		size_t i;
		for (i = 0; i < nseen; i++)
			if (mn ? seen[i].mn == mn : (seen[i].mn && !strcmp(seen[i].mn, dual)))
				break;
		if (i == nseen) {
			if (nseen == cap) {
				cap = cap ? cap * 2 : 64;
				struct cov *n = realloc(seen, cap * sizeof *seen);
				if (!n) {
					free(seen);
					return -1;
				}
				seen = n;
			}
			char *own = mn ? NULL : strdup(dual);
			seen[nseen++] = (struct cov){ mn ? mn : own, own, 0, off, ok };
		}
		seen[i].count++;
		insts++;
		off += in.len ? in.len : 4;
	}
	for (size_t i = 0; i < nseen; i++) {
		fn(ctx, seen[i].mn ? seen[i].mn : "?", seen[i].ok, seen[i].count, seen[i].first);
		free(seen[i].owned);
	}
	free(seen);
	return insts;
}
