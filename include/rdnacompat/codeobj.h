/* SPDX-License-Identifier: MIT */
/*
 * codeobj.h — AMDGPU code objects (ELF, EM_AMDGPU = 224), read with libelf.
 *
 * What is read: e_flags (machine byte, xnack/sramecc bits per ABI version,
 * generic version for v6), EI_ABIVERSION (code-object version 2..6), the
 * NT_AMDGPU_METADATA notes (MessagePack, decoded with msgpack-c) and each
 * kernel's 64-byte descriptor at symbol "<kernel>.kd".  Sources: LLVM
 * AMDGPUUsage "ELF Header", "Code Object V3+ Metadata", "Kernel Descriptor".
 *
 * Retargeting produces a code object for another processor of the same ISA
 * (e_flags machine byte + metadata "amdhsa.target") and never writes the
 * input bytes.
 */
#ifndef RDNACOMPAT_CODEOBJ_H
#define RDNACOMPAT_CODEOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/error.h"
#include "rdnacompat/target.h"

#define RDC_EM_AMDGPU 224

struct rdc_kernel_arg {
	char *name;              /* may be NULL */
	char *value_kind;        /* ".value_kind", e.g. "global_buffer", "by_value"; a
				  * known kind points at a constant shared by all:
				  * read it, never free or write it (rdc_codeobj_free
				  * does what is needed) */
	uint32_t offset;
	uint32_t size;
};

/* Decoded from the kernel descriptor.  present is false when the
 * metadata's .symbol is in neither .dynsym nor .symtab. */
struct rdc_kernel_desc {
	bool present;
	uint32_t group_segment_fixed_size;
	uint32_t private_segment_fixed_size;
	uint32_t kernarg_size;
	uint32_t rsrc1, rsrc2, rsrc3;
	uint16_t code_properties;
	bool wgp_mode;           /* COMPUTE_PGM_RSRC1 bit 29 (gfx10+) */
	bool wave32;             /* kernel_code_properties bit 10 */
	uint64_t file_offset;    /* where the 64 bytes are in the code object */
};

struct rdc_kernel {
	char *name;              /* ".name" */
	char *symbol;            /* ".symbol", e.g. "fill_iota.kd" */
	uint32_t kernarg_size;
	uint32_t kernarg_align;
	uint32_t group_segment_fixed_size;
	uint32_t private_segment_fixed_size;
	uint32_t vgpr_count;
	uint32_t sgpr_count;
	uint32_t agpr_count;
	uint32_t wavefront_size;
	uint32_t max_flat_workgroup_size;
	bool uses_dynamic_stack;
	size_t n_args;
	struct rdc_kernel_arg *args;
	struct rdc_kernel_desc kd;
};

enum rdc_co_flags {
	RDC_CO_HEADER_ONLY = 0,  /* e_flags / version / target only: reads the
				  * 64-byte ELF header (no libelf) */
	RDC_CO_METADATA    = 1,  /* + metadata note (via PT_NOTE) and kernels */
	RDC_CO_DESCRIPTORS = 2,  /* + kernel descriptors (symbol tables);
				  * implies RDC_CO_METADATA */
	RDC_CO_NO_ARGS     = 4,  /* with the above: skip each kernel's .args
				  * (n_args 0, args NULL; the policy reads none) */
	RDC_CO_SYMBOLS     = 8,  /* instead of the above: kernels from the
				  * symbol table's "<name>.kd" objects (name,
				  * symbol, descriptor; no metadata fields) and
				  * amdhsa.target/version read from the note's
				  * tail, no MessagePack decoded; RDC_E_UNSUPPORTED
				  * when the note does not end as LLVM writes it */
};

struct rdc_codeobj {
	uint32_t e_flags;
	uint8_t abi_version;     /* EI_ABIVERSION */
	unsigned cov;            /* code-object version: 2..6 */
	uint8_t mach;            /* e_flags & 0xff */
	uint8_t generic_version; /* v6: e_flags >> 24, else 0 */
	struct rdc_target target;/* from e_flags (proc via tables-free mach map);
				  * features: v4+ two-bit fields, v2/v3 one bit
				  * ("off" when clear on a processor that has it) */
	char *meta_target;       /* "amdhsa.target" string, NULL if absent (v3) */
	uint32_t meta_version[2];/* "amdhsa.version" */
	size_t n_kernels;
	struct rdc_kernel *kernels;
	/* Location of the (first) metadata note's desc in the input. */
	uint64_t note_desc_offset, note_desc_size;
	/* Where the "amdhsa.target" string's bytes are in the input (file
	 * offset and length; 0/0 when absent), recorded by the metadata parse
	 * so patches need no second decode (rdc_codeobj_retarget_patches_from). */
	uint64_t meta_target_offset;
	uint32_t meta_target_len;
	/* Every NT_AMDGPU_METADATA note: a code object linked from several
	 * objects has one per input (rocBLAS's Tensile .co: one per kernel),
	 * and comgr merges their kernels, so `kernels` holds every note's.
	 * note_target_offsets[i]: where note i's amdhsa.target string is
	 * (meta_target_len bytes, the same text in every note; [0] is
	 * meta_target_offset; 0 when absent).  Set with the metadata. */
	size_t n_notes;
	uint64_t *note_target_offsets;
};

/* Is this an AMDGPU ELF (magic, ELFCLASS64, EM_AMDGPU)? */
bool rdc_is_codeobj(const void *p, uint64_t avail);

/* Parse `n` bytes.  `flags` selects how much is read (headers only is what a
 * quick listing needs).  Free with rdc_codeobj_free (also on error: *co is
 * left empty).  Errors: RDC_E_FORMAT, RDC_E_TRUNCATED, RDC_E_RANGE,
 * RDC_E_UNSUPPORTED (non-HSA OS ABI, unknown machine, v2 metadata),
 * RDC_E_NOTFOUND (no metadata note), RDC_E_NOMEM.  `p` is never written. */
int rdc_codeobj_parse(const void *p, size_t n, unsigned flags, struct rdc_codeobj *co,
		      struct rdc_diag *d);
void rdc_codeobj_free(struct rdc_codeobj *co);

/* e_flags machine byte <-> processor name (LLVM ELF.h EF_AMDGPU_MACH_*). */
const char *rdc_mach_to_proc(uint8_t mach);
int rdc_proc_to_mach(const char *proc);   /* -1 if unknown */

/* A byte patch: write `len` bytes of `bytes` at `offset` of the original. */
struct rdc_patch {
	uint64_t offset;
	uint32_t len;
	uint8_t bytes[64];
};

/* The patches that turn code object `p` into one for `to` (same length:
 * e_flags, every metadata note's target string when its length is unchanged).
 * Returns RDC_E_UNSUPPORTED when the change cannot be expressed as in-place
 * patches (then use rdc_codeobj_retarget) or at all (generic target for a
 * v4/v5 object, code object v2).  *n_patches in: capacity; out: the number
 * needed (RDC_E_INVAL when that exceeds the capacity): one for e_flags and
 * one or two per metadata note (a Tensile .co needs hundreds; when they do
 * not fit, rdc_codeobj_retarget makes the copy). */
int rdc_codeobj_retarget_patches(const void *p, size_t n, const struct rdc_target *to,
				 struct rdc_patch *patches, size_t *n_patches,
				 struct rdc_diag *d);

/* The same patches, however many, in one reading of the notes: *patches
 * is malloc'd (the caller frees it) with *n_patches of them.  For objects
 * whose count is not known beforehand (a Tensile .co: one per kernel), where
 * asking rdc_codeobj_retarget_patches for the count first would decode every
 * note twice. */
int rdc_codeobj_retarget_patches_alloc(const void *p, size_t n, const struct rdc_target *to,
				       struct rdc_patch **patches, size_t *n_patches,
				       struct rdc_diag *d);

/* The e_flags patch alone, from the ELF header (`ehdr`, its first `n` >=
 * 64 bytes, of an object of `size` bytes): what a runtime that reads only
 * the header to learn the ISA sees.  The first of
 * rdc_codeobj_retarget_patches' patches, without reading the notes; the
 * object is a complete retarget only with all of them. */
int rdc_codeobj_flags_patch(const void *ehdr, size_t n, uint64_t size, const struct rdc_target *to,
			    struct rdc_patch *out, struct rdc_diag *d);

/* The same patches from an object already parsed with RDC_CO_METADATA
 * (what rdc_policy_choose keeps in choice->co): e_flags and the
 * amdhsa.target span recorded by the parse, without decoding the metadata
 * again.  RDC_E_INVAL when `co` was parsed without metadata; otherwise the
 * same results and errors as rdc_codeobj_retarget_patches on its bytes. */
int rdc_codeobj_retarget_patches_from(const struct rdc_codeobj *co, const struct rdc_target *to,
				      struct rdc_patch *patches, size_t *n_patches,
				      struct rdc_diag *d);

/* Held kernels (codeobj_hide.c): the in-place patches that rename each of
 * the k kernels `names` in the metadata (.name, .symbol) and in every
 * symbol table ("<name>", "<name>.kd"), one first byte each, so that a
 * runtime loads the object whole and finds those kernels by no name a
 * program knows.  *patches is malloc'd (the caller frees it), offsets into
 * `p` (the same in a copy of `p` whose notes were not moved).
 * RDC_E_UNSUPPORTED, with why, when a rename cannot be done cleanly (a
 * string shared with another name, a new name already taken, a kernel in
 * no or several metadata entries, a descriptor in no symbol table). */
int rdc_codeobj_hide_patches(const void *p, size_t n, const char *const *names, size_t k,
			     struct rdc_patch **patches, size_t *n_patches, struct rdc_diag *d);

/* A new malloc'd code object for `to` (any name length: the metadata note is
 * re-encoded and, if its size changes, appended at the end of the file with
 * PT_NOTE and the .note section repointed; see docs/CODEOBJ.md).  v6: the
 * generic version byte is cleared for a specific `to` and set (1, or kept)
 * for a generic one.  Never writes `p`; free *out with free(). */
int rdc_codeobj_retarget(const void *p, size_t n, const struct rdc_target *to,
			 uint8_t **out, size_t *out_len, struct rdc_diag *d);

#endif
