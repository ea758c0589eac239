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

void rdc_exec_optable(unsigned gfx, struct rdc_exec_optable *out)
{
	static const enum rdc_fmt compute[] = {
		RDC_FMT_SOP1, RDC_FMT_SOP2, RDC_FMT_SOPC, RDC_FMT_SOPK, RDC_FMT_SOPP, RDC_FMT_SMEM,
		RDC_FMT_VOP1, RDC_FMT_VOP2, RDC_FMT_VOP3, RDC_FMT_VOP3P, RDC_FMT_VOPC, RDC_FMT_VOPD,
		RDC_FMT_VOPDY, RDC_FMT_DS, RDC_FMT_FLAT, RDC_FMT_GLOBAL, RDC_FMT_SCRATCH, RDC_FMT_MUBUF,
		RDC_FMT_MTBUF, RDC_FMT_MTBUFHI,
	};
	bool seen[RDC_OP_COUNT];
	memset(out, 0, sizeof *out);
	memset(seen, 0, sizeof seen);
	for (size_t f = 0; f < sizeof compute / sizeof compute[0]; f++) {
		const struct rdc_optab *t = &rdc_optab[gfx == 11][compute[f]];
		for (unsigned o = 0; t->op && o < t->size; o++) {
			uint16_t op = t->op[o];
			if (!op || seen[op])
				continue;
			seen[op] = true;
			out->opcodes++;
			out->executable += rdc_sem_lookup(op) != NULL;
			out->out_of_scope += rdc_exec_scope(op) != NULL;
		}
	}
}
