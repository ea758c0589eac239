/* SPDX-License-Identifier: MIT */
/*
 * fuzz_codeobj.c — libFuzzer target for the code-object reader and the
 * retargeter (include/rdnacompat/codeobj.h).  Not part of the normal build
 * (the Makefile does not glob tests/fuzz/; `make fuzz-smoke` builds and runs it
 * with tests/fuzz/smoke-codeobj.sh).  By hand, from the repo root:
 *
 *   clang-15 -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *     -Iinclude tests/fuzz/fuzz_codeobj.c shim/core/codeobj_*.c shim/core/mach.c \
 *     shim/core/target.c shim/core/error.c -lelf -lmsgpackc -o build-fuzz/fuzz_codeobj
 *   ASAN_OPTIONS=allocator_may_return_null=1 build-fuzz/fuzz_codeobj \
 *     -max_total_time=60 -malloc_limit_mb=4096 CORPUS_DIR BUILD/fixtures/co
 *
 * (msgpack-c allocates a container's declared entry count up front; the
 * reader refuses declarations larger than the note before msgpack-c sees
 * them (shim/core/codeobj_msgpack_bounds.c), so the malloc limit is not hit.)
 * Invariants checked beyond "no crash": the input is never written (it is
 * compared with a checksum), and a successful retarget of a parseable object
 * parses back with the same kernels and the requested processor.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/codeobj.h"

static uint64_t sum(const uint8_t *b, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static void check_retarget(const uint8_t *data, size_t size, const struct rdc_codeobj *in,
			   const char *proc)
{
	struct rdc_target to;
	memset(&to, 0, sizeof to);
	strncpy(to.proc, proc, sizeof to.proc - 1);
	struct rdc_diag d;
	struct rdc_patch p[8];
	size_t k = 8;
	(void)rdc_codeobj_retarget_patches(data, size, &to, p, &k, &d);
	uint8_t *out = NULL;
	size_t on = 0;
	if (rdc_codeobj_retarget(data, size, &to, &out, &on, &d) != 0)
		return;
	struct rdc_codeobj r;
	if (in && rdc_codeobj_parse(out, on, RDC_CO_METADATA, &r, &d) == 0) {
		if (r.n_kernels != in->n_kernels || r.n_notes != in->n_notes ||
		    strcmp(r.target.proc, proc) != 0)
			abort();
		rdc_codeobj_free(&r);
	} else if (in) {
		abort(); /* the input's metadata parsed; the output's must too */
	}
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t before = sum(data, size);
	(void)rdc_is_codeobj(data, size);
	struct rdc_codeobj co, meta;
	struct rdc_diag d;
	if (rdc_codeobj_parse(data, size, RDC_CO_HEADER_ONLY, &co, &d) == 0)
		rdc_codeobj_free(&co);
	if (rdc_codeobj_parse(data, size, RDC_CO_DESCRIPTORS, &co, &d) == 0)
		rdc_codeobj_free(&co);
	bool have_meta = rdc_codeobj_parse(data, size, RDC_CO_METADATA, &meta, &d) == 0;
	/* The notes' tails, read without decoding (RDC_CO_SYMBOLS), never
	 * disagree with the decode about where amdhsa.target is, in any note. */
	struct rdc_codeobj sym;
	if (rdc_codeobj_parse(data, size, RDC_CO_SYMBOLS, &sym, &d) == 0) {
		if (have_meta && meta.meta_target &&
		    (sym.meta_target_offset != meta.meta_target_offset ||
		     sym.meta_target_len != meta.meta_target_len ||
		     strcmp(sym.meta_target, meta.meta_target) != 0 || sym.n_notes != meta.n_notes ||
		     memcmp(sym.note_target_offsets, meta.note_target_offsets,
			    meta.n_notes * sizeof *meta.note_target_offsets) != 0))
			abort();
		rdc_codeobj_free(&sym);
	}
	/* same length as gfx1030/gfx1100 names, a longer one, and a generic */
	check_retarget(data, size, have_meta ? &meta : NULL, "gfx1031");
	check_retarget(data, size, have_meta ? &meta : NULL, "gfx90a");
	check_retarget(data, size, have_meta ? &meta : NULL, "gfx11-generic");
	if (have_meta)
		rdc_codeobj_free(&meta);
	if (sum(data, size) != before)
		abort(); /* the input was written */
	return 0;
}
