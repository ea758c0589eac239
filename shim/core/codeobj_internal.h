/* SPDX-License-Identifier: MIT */
/*
 * codeobj_internal.h — shared between the shim/core/codeobj_*.c files and
 * mach.c only (not installed, not part of the API).
 *
 * The split: mach.c (e_flags machine byte table), codeobj_elf.c (ELF header,
 * note and symbol lookup with libelf, rdc_codeobj_parse), codeobj_meta.c
 * (NT_AMDGPU_METADATA with msgpack-c), codeobj_kd.c (kernel descriptors),
 * codeobj_retarget.c (patches and rewritten copies).
 */
#ifndef RDNACOMPAT_CODEOBJ_INTERNAL_H
#define RDNACOMPAT_CODEOBJ_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libelf.h>

#include "rdnacompat/codeobj.h"

/* ELF constants of the AMDGPU ABI (LLVM BinaryFormat/ELF.h). */
#define RDC_ELFOSABI_AMDGPU_HSA 64
#define RDC_NT_AMDGPU_METADATA 32
#define RDC_EF_MACH 0xffu
#define RDC_EF_XNACK_V2 0x01u
#define RDC_EF_XNACK_V3 0x100u
#define RDC_EF_SRAMECC_V3 0x200u
#define RDC_EF_XNACK_V4 0x300u
#define RDC_EF_SRAMECC_V4 0xc00u
#define RDC_EF_GENERIC_VERSION 0xff000000u
#define RDC_EF_GENERIC_VERSION_SHIFT 24
#define RDC_EHDR_FLAGS_OFF 48 /* offsetof(Elf64_Ehdr, e_flags) */

struct rdc_mach_info {
	uint8_t mach;
	const char *name;
	bool xnack;    /* processor supports the xnack feature (ROCR GetMachInfo) */
	bool sramecc;  /* processor supports the sramecc feature */
	bool generic;  /* a generic (code object v6) processor */
};

const struct rdc_mach_info *rdc_mach_info(uint8_t mach);
const struct rdc_mach_info *rdc_mach_info_by_name(const char *proc);

/* The ELF header facts, without libelf (cheap). */
struct rdc_co_header {
	uint32_t e_flags;
	uint8_t abi_version;
	unsigned cov;
	uint16_t e_type;
	uint64_t e_phoff, e_shoff;
	uint16_t e_phnum, e_shnum, e_phentsize, e_shentsize;
};
int rdc_co_read_header(const void *p, size_t n, struct rdc_co_header *h, struct rdc_diag *d);

/* Decode target (processor + features) from e_flags for that version. */
int rdc_co_target_from_flags(uint32_t e_flags, unsigned cov, struct rdc_target *t,
			     struct rdc_diag *d);

/* A libelf handle over caller memory (never written: see codeobj_elf.c). */
int rdc_co_elf_open(const void *p, size_t n, Elf **out, struct rdc_diag *d);

/* Where one metadata note is. */
struct rdc_co_note_loc {
	bool found;
	bool from_phdr;          /* found through a PT_NOTE program header */
	size_t phdr_index;       /* that PT_NOTE */
	bool has_section;        /* a SHT_NOTE section holds this note */
	size_t shdr_index;
	uint64_t sec_offset, sec_size;   /* that section (within the segment) */
	uint64_t seg_offset, seg_size;   /* the whole note segment/section */
	uint64_t align;                  /* 8: notes use 8-byte padding (ELF_T_NHDR8) */
	uint64_t note_offset;            /* this note's header */
	uint64_t note_size;              /* header + name + desc, padded */
	uint64_t desc_offset, desc_size; /* its desc (MessagePack) */
};

/* Every NT_AMDGPU_METADATA note, in file order, where comgr looks for them
 * (comgr-metadata.cpp getElfMetadataRoot): in every PT_NOTE segment, and
 * only when those hold none, in every SHT_NOTE section.  A code object
 * linked from several objects carries one note per input (rocBLAS's Tensile
 * .co files: one per kernel); comgr merges their amdhsa.kernels.  Free with
 * rdc_co_notes_free (also done on error). */
struct rdc_co_notes {
	size_t n, cap;
	struct rdc_co_note_loc *v;
};
int rdc_co_find_metadata_notes(Elf *e, size_t n, struct rdc_co_notes *ns, struct rdc_diag *d);
void rdc_co_notes_free(struct rdc_co_notes *ns);

/* co's metadata from every note of `ns` (codeobj_notes.c): the first
 * note's amdhsa.target and version, every note's kernels in note order,
 * every note's target span (co->note_target_offsets).  Notes that disagree
 * on amdhsa.target or amdhsa.version are refused (RDC_E_UNSUPPORTED): comgr
 * would keep the first note's target for kernels built for another.
 * _decoded: MessagePack decoded (rdc_co_decode_metadata, `flags` as for
 * rdc_codeobj_parse); _tails: spans and versions from each note's last
 * bytes only (rdc_co_meta_target_tail), RDC_E_UNSUPPORTED when a note does
 * not end as LLVM writes it or the notes differ. */
int rdc_co_read_notes_decoded(const void *p, const struct rdc_co_notes *ns, unsigned flags,
			      struct rdc_codeobj *co, struct rdc_diag *d);
int rdc_co_read_notes_tails(const void *p, const struct rdc_co_notes *ns, struct rdc_codeobj *co,
			    struct rdc_diag *d);

/* Decode the MessagePack metadata into co (meta_target, meta_version,
 * kernels).  `base` is desc's file offset, for messages.  `flags`: the
 * rdc_codeobj_parse flags (RDC_CO_NO_ARGS skips .args). */
/* Refuse MessagePack whose declared lengths or element counts exceed the
 * bytes present, before msgpack-c allocates for them
 * (codeobj_msgpack_bounds.c).  0, RDC_E_FORMAT or RDC_E_TRUNCATED;
 * *objects (when not NULL): how many objects the root holds, itself, map
 * keys and values included. */
int rdc_co_msgpack_bounds(const uint8_t *p, size_t size, uint64_t base, uint64_t *objects,
			  struct rdc_diag *d);

int rdc_co_decode_metadata(const uint8_t *desc, size_t size, uint64_t base, unsigned flags,
			   struct rdc_codeobj *co, struct rdc_diag *d);

/* Where the "amdhsa.target" string bytes are within desc (0 = absent). */
int rdc_co_meta_target_span(const uint8_t *desc, size_t size, uint64_t base,
			    size_t *str_off, size_t *str_len, struct rdc_diag *d);

/* The same from the note's last bytes, as LLVM writes them (sorted root
 * keys: amdhsa.target, then amdhsa.version [a, b] at the very end), without
 * decoding (codeobj_tail.c); also the version.  false: not that layout,
 * decode instead. */
bool rdc_co_meta_target_tail(const uint8_t *desc, size_t size, size_t *str_off, size_t *str_len,
			     uint32_t version[2]);

/* Kernels from the symbol table: every STT_OBJECT "<name>.kd" of .dynsym
 * (else .symtab) becomes a kernel named <name> with its descriptor read;
 * nothing else of a kernel is known (codeobj_kd.c). */
int rdc_co_kernels_from_symbols(Elf *e, const void *p, size_t n, struct rdc_codeobj *co,
				struct rdc_diag *d);

/* Where a kernel is named in one metadata note: the file offsets of its
 * ".name" and ".symbol" string bytes and the .symbol itself
 * (rdc_co_meta_kernel_refs, for rdc_codeobj_hide_patches).  count: the
 * kernel maps with that .name seen so far (added to); unusable: one of
 * them had no string .symbol inside the note, or one too long to keep. */
struct rdc_co_kernel_ref {
	unsigned count;
	bool unusable;
	uint64_t name_off, symbol_off;
	char symbol[1024];
};
/* For each of the k names, the kernel maps of amdhsa.kernels with that
 * .name in this note (desc at file offset `base`): refs[i] is added to. */
int rdc_co_meta_kernel_refs(const uint8_t *desc, size_t size, uint64_t base, const char *const *names,
			    size_t k, struct rdc_co_kernel_ref *refs, struct rdc_diag *d);
/* Re-encode the metadata with "amdhsa.target" = new_target (added when
 * absent); everything else is packed back unchanged.  *out is malloc'd. */
int rdc_co_meta_reencode(const uint8_t *desc, size_t size, uint64_t base,
			 const char *new_target, uint8_t **out, size_t *out_len,
			 struct rdc_diag *d);

/* Read the "<kernel>.kd" descriptors of co->kernels. */
int rdc_co_read_descriptors(Elf *e, const void *p, size_t n, struct rdc_codeobj *co,
			    struct rdc_diag *d);

/* e_flags for `to` (keeps all other bits of `from`; v6 generic version
 * handled; RDC_E_UNSUPPORTED with a message when not expressible). */
int rdc_co_retarget_flags(uint32_t from, unsigned cov, const struct rdc_target *to,
			  uint32_t *out, struct rdc_diag *d);

#endif
