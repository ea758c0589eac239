/* SPDX-License-Identifier: MIT */
/*
 * codeobj_walk.h — every AMDGPU code object in a file (the entries of the
 * offload bundles in a host ELF's .hip_fatbin or in a bundle file, or the
 * file itself when it is a bare code object), its .text section and the
 * execution engine's generation for its processor.  Used by `rdnacompat
 * sim --coverage` and tests/decode/decode_dump.
 */
#ifndef RDC_TOOL_CODEOBJ_WALK_H
#define RDC_TOOL_CODEOBJ_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/error.h"

struct rdc_co_ref {
	long bundle;            /* index in the file; -1 for a bare code object */
	long entry;             /* index in the bundle; -1 for a bare code object */
	const char *id;         /* the entry id ("" for a bare code object) */
	size_t id_len;
	char proc[32];          /* processor from e_flags ("gfx1030"), "" if unknown */
	const uint8_t *data;
	size_t size;
	uint64_t file_offset;   /* where data starts in the file; UINT64_MAX when compressed */
};

/* Calls fn for each AMDGPU code object in path, in file order (bundle
 * entries that are no AMDGPU ELF are skipped); stops when fn returns
 * non-zero and returns that.  0, or an RDC_E_* code with d set. */
typedef int (*rdc_co_walk_fn)(const struct rdc_co_ref *r, void *arg);
int rdc_co_walk(const char *path, rdc_co_walk_fn fn, void *arg, struct rdc_diag *d);

/* The .text section of an AMDGPU ELF: its bytes and load address.  0, or
 * RDC_E_FORMAT/RDC_E_RANGE/RDC_E_NOTFOUND with d set. */
int rdc_co_text(const uint8_t *co, size_t n, const uint8_t **text, size_t *len, uint64_t *addr,
		struct rdc_diag *d);

/* The engine's generation for a processor name: 10 (gfx103x, gfx10-3-generic),
 * 11 (gfx11xx, gfx11-generic), or 0 when the engine runs no code of it. */
unsigned rdc_co_engine_gen(const char *proc);

#endif
