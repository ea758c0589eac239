/* SPDX-License-Identifier: MIT */
/*
 * isa_class.h — which instruction classes each kernel of a code object
 * contains (shim/core/isa_class.c), for the compat conditions that a missing
 * hardware workaround makes per-kernel (tables/compat.tsv: point-sample,
 * msaa-load, mad-intra-fwd).  Decoded with the one decoder (isa.h), once per
 * code object.  Pure: bytes in, per-kernel classes out.
 */
#ifndef RDNACOMPAT_ISA_CLASS_H
#define RDNACOMPAT_ISA_CLASS_H

#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/error.h"

enum rdc_isa_cls {
	RDC_ISA_SAMPLE = 0,   /* image sample / gather4 (MIMG): PointSampleAccel */
	RDC_ISA_MSAA_LOAD,    /* image_msaa_load: MSAALoadDstSelBug */
	RDC_ISA_MAD64,        /* v_mad_u64_u32, v_mad_i64_i32: MADIntraFwdBug */
	RDC_ISA_UNKNOWN,      /* bytes the decoder does not know, or code it
	                         could not find: counts as every class */
	RDC_ISA_NCLASS
};

/* The first instruction of one class in a kernel. */
struct rdc_isa_hit {
	uint64_t offset;      /* file offset in the code object */
	uint64_t kernel_off;  /* bytes from the kernel's entry (UINT64_MAX: in
	                         a called function outside the kernel's code) */
	const char *mnemonic; /* static (the opcode tables'), or a fixed text */
};

struct rdc_isa_kernel {
	unsigned classes;     /* bit (1u << enum rdc_isa_cls) per class seen */
	struct rdc_isa_hit first[RDC_ISA_NCLASS];
	const char *why_unknown; /* static text when RDC_ISA_UNKNOWN is set */
};

/* Classify every kernel of `co` (n bytes; `parsed` its parse with kernel
 * descriptors, RDC_CO_DESCRIPTORS or RDC_CO_SYMBOLS) into out[0 ..
 * parsed->n_kernels).  A kernel's code runs from its entry (descriptor
 * kernel_code_entry_byte_offset) to the next kernel's entry or the end of its
 * executable section, bytes outside the symbol table's sized function
 * symbols (padding) excluded when every entry starts one; a kernel that calls (s_swappc_b64, s_call_b64) is
 * charged with every class found anywhere in that section.  Bytes the decoder
 * does not know and kernels whose code cannot be found set RDC_ISA_UNKNOWN
 * (conservative: a condition treats them as containing the class).  Returns
 * 0, or RDC_E_UNSUPPORTED when the decoder has no tables for the code's
 * generation (only gfx10.3 and gfx11), RDC_E_FORMAT/RDC_E_RANGE for a
 * malformed ELF (d set). */
int rdc_isa_classify(const void *co, size_t n, const struct rdc_codeobj *parsed,
		     struct rdc_isa_kernel *out, struct rdc_diag *d);

/* "image-sample", "image-msaa-load", "v_mad_u64_u32", "unknown". */
const char *rdc_isa_cls_name(enum rdc_isa_cls c);

/* The decoder's generation for a processor name: 10 (gfx103x, gfx10-3-generic),
 * 11 (gfx11xx, gfx11-generic), 0 for none. */
unsigned rdc_isa_gen(const char *proc);

#endif
