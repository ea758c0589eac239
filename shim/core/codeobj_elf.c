/* SPDX-License-Identifier: MIT */
/*
 * codeobj_elf.c — the ELF side of AMDGPU code objects: header facts
 * (e_flags, EI_ABIVERSION) read straight from the 64-byte Elf64_Ehdr without
 * libelf (the cheap "headers only" mode), every NT_AMDGPU_METADATA note
 * found through PT_NOTE program headers (sections only as a fallback) with
 * libelf, and rdc_codeobj_parse (rdc_codeobj_free is with the decoder that
 * allocates what it frees, codeobj_meta.c).
 *
 * libelf over caller memory: elf_memory() takes a non-const pointer.  We
 * never write through it and only use read calls (elf_getphdrnum,
 * gelf_getphdr, elf_getdata_rawchunk, elf_nextscn, gelf_getshdr,
 * elf_getdata, elf_strptr); for native-endian (little-endian) input libelf
 * reads in place or copies to aligned memory, it does not convert in place.
 * tests/unit/test_codeobj.c parses from PROT_READ pages (aligned and
 * misaligned) to prove it.
 *
 * Sources: LLVM AMDGPUUsage "ELF Header", "Note Records"; LLVM ELF.h;
 * ROCR libamdhsacode/amd_hsa_code.cpp (GetIsa, GetCodeObjectVersion).
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"

bool rdc_is_codeobj(const void *p, uint64_t avail)
{
	const unsigned char *b = p;
	if (!p || avail < 20)
		return false;
	if (memcmp(b, ELFMAG, SELFMAG) != 0 || b[EI_CLASS] != ELFCLASS64 || b[EI_DATA] != ELFDATA2LSB)
		return false;
	return (unsigned)(b[18] | (b[19] << 8)) == RDC_EM_AMDGPU;
}

int rdc_co_read_header(const void *p, size_t n, struct rdc_co_header *h, struct rdc_diag *d)
{
	Elf64_Ehdr eh;
	const unsigned char *b = p;
	if (!p || !h)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no input");
	if (n < SELFMAG || memcmp(b, ELFMAG, SELFMAG) != 0)
		return rdc_diag_set(d, n < SELFMAG ? RDC_E_TRUNCATED : RDC_E_FORMAT, 0,
				    "not an ELF file (no \\177ELF magic)");
	if (n < sizeof eh)
		return rdc_diag_set(d, RDC_E_TRUNCATED, n,
				    "ELF header needs %zu bytes, input has %zu", sizeof eh, n);
	memcpy(&eh, p, sizeof eh);
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return rdc_diag_set(d, RDC_E_FORMAT, EI_CLASS,
				    "ELF class %u is not ELFCLASS64 (AMDGCN code objects are 64-bit)",
				    eh.e_ident[EI_CLASS]);
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return rdc_diag_set(d, RDC_E_FORMAT, EI_DATA, "ELF data encoding %u is not little-endian",
				    eh.e_ident[EI_DATA]);
	if (eh.e_machine != RDC_EM_AMDGPU)
		return rdc_diag_set(d, RDC_E_FORMAT, 18, "e_machine %u is not EM_AMDGPU (224)",
				    eh.e_machine);
	if (eh.e_ident[EI_OSABI] != RDC_ELFOSABI_AMDGPU_HSA)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, EI_OSABI,
				    "OS ABI %u is not ELFOSABI_AMDGPU_HSA (64); only HSA code objects are handled",
				    eh.e_ident[EI_OSABI]);
	/* ELFABIVERSION_AMDGPU_HSA_V2..V6 = 0..4 (ELF.h). */
	if (eh.e_ident[EI_ABIVERSION] > 4)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, EI_ABIVERSION,
				    "EI_ABIVERSION %u is not a known code object version (0..4 = v2..v6)",
				    eh.e_ident[EI_ABIVERSION]);
	if (eh.e_phnum) {
		if (eh.e_phentsize != sizeof(Elf64_Phdr))
			return rdc_diag_set(d, RDC_E_FORMAT, 54, "e_phentsize %u is not %zu",
					    eh.e_phentsize, sizeof(Elf64_Phdr));
		if (!rdc_in_bounds(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), n))
			return rdc_diag_set(d, RDC_E_RANGE, 32,
					    "program headers (offset %llu, %u entries) end past the %zu-byte input",
					    (unsigned long long)eh.e_phoff, eh.e_phnum, n);
	}
	if (eh.e_shnum) {
		if (eh.e_shentsize != sizeof(Elf64_Shdr))
			return rdc_diag_set(d, RDC_E_FORMAT, 58, "e_shentsize %u is not %zu",
					    eh.e_shentsize, sizeof(Elf64_Shdr));
		if (!rdc_in_bounds(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), n))
			return rdc_diag_set(d, RDC_E_RANGE, 40,
					    "section headers (offset %llu, %u entries) end past the %zu-byte input",
					    (unsigned long long)eh.e_shoff, eh.e_shnum, n);
	}
	/* ELF extended numbering: e_shnum 0 (or e_phnum PN_XNUM, e_shstrndx
	 * SHN_XINDEX) with a section table means section 0 holds the real
	 * counts; that header must be in the input, or libelf reads whatever
	 * lies past the end (audit C2: an appended note became the count). */
	if (eh.e_shoff && (eh.e_shnum == 0 || eh.e_phnum == PN_XNUM || eh.e_shstrndx == SHN_XINDEX)) {
		if (eh.e_shentsize != sizeof(Elf64_Shdr))
			return rdc_diag_set(d, RDC_E_FORMAT, 58, "e_shentsize %u is not %zu",
					    eh.e_shentsize, sizeof(Elf64_Shdr));
		if (!rdc_in_bounds(eh.e_shoff, sizeof(Elf64_Shdr), n))
			return rdc_diag_set(d, RDC_E_RANGE, 40,
					    "section header 0 (offset %llu, extended numbering) ends past the %zu-byte input",
					    (unsigned long long)eh.e_shoff, n);
	}
	h->e_flags = eh.e_flags;
	h->abi_version = eh.e_ident[EI_ABIVERSION];
	h->cov = h->abi_version + 2u;
	h->e_type = eh.e_type;
	h->e_phoff = eh.e_phoff;
	h->e_shoff = eh.e_shoff;
	h->e_phnum = eh.e_phnum;
	h->e_shnum = eh.e_shnum;
	h->e_phentsize = eh.e_phentsize;
	h->e_shentsize = eh.e_shentsize;
	return 0;
}

/* v2/v3: one bit per feature; a clear bit means "off" on a processor that
 * has the feature (ROCR GetIsa), "not applicable" (any) otherwise.  LLVM
 * writes the V3 bits for v2 as well (clang-15 -mcode-object-version=2 for
 * gfx906 gives 0x32f); XNACK_V2 (0x01) is honoured too. */
static uint8_t feat_bit(bool set, bool supported)
{
	return set ? RDC_FEAT_ON : (supported ? RDC_FEAT_OFF : RDC_FEAT_ANY);
}

/* v4+: a two-bit field: 0 unsupported, 1 any, 2 off, 3 on. */
static uint8_t feat_v4(uint32_t field)
{
	switch (field) {
	case 2: return RDC_FEAT_OFF;
	case 3: return RDC_FEAT_ON;
	default: return RDC_FEAT_ANY;
	}
}

int rdc_co_target_from_flags(uint32_t f, unsigned cov, struct rdc_target *t, struct rdc_diag *d)
{
	const struct rdc_mach_info *m = rdc_mach_info((uint8_t)(f & RDC_EF_MACH));
	memset(t, 0, sizeof *t);
	if (!m)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_EHDR_FLAGS_OFF,
				    "e_flags machine 0x%02x is not a known AMDGCN processor",
				    (unsigned)(f & RDC_EF_MACH));
	strncpy(t->proc, m->name, sizeof t->proc - 1);
	if (cov <= 3) {
		bool x = (f & RDC_EF_XNACK_V3) || (cov == 2 && (f & RDC_EF_XNACK_V2));
		t->xnack = feat_bit(x, m->xnack);
		t->sramecc = feat_bit(f & RDC_EF_SRAMECC_V3, m->sramecc);
	} else {
		t->xnack = feat_v4((f & RDC_EF_XNACK_V4) >> 8);
		t->sramecc = feat_v4((f & RDC_EF_SRAMECC_V4) >> 10);
	}
	return 0;
}

int rdc_co_elf_open(const void *p, size_t n, Elf **out, struct rdc_diag *d)
{
	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET, "libelf: %s", elf_errmsg(-1));
	/* Read-only use only: see the file comment. */
	Elf *e = elf_memory((char *)(uintptr_t)p, n);
	if (!e)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "libelf cannot read the ELF: %s", elf_errmsg(-1));
	if (elf_kind(e) != ELF_K_ELF) {
		elf_end(e);
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "libelf: not an ELF object");
	}
	*out = e;
	return 0;
}

/* The most metadata notes one code object may carry: LLVM writes one per
 * linked input (a Tensile .co of rocBLAS 6.4 has up to 534); a cap keeps a
 * file of tiny notes from costing more memory than it is large. */
#define RDC_CO_MAX_NOTES 65536

static int add_note(struct rdc_co_notes *ns, const struct rdc_co_note_loc *loc, struct rdc_diag *d)
{
	if (ns->n == ns->cap) {
		if (ns->cap >= RDC_CO_MAX_NOTES)
			return rdc_diag_set(d, RDC_E_UNSUPPORTED, loc->note_offset,
					    "more than %d NT_AMDGPU_METADATA notes", RDC_CO_MAX_NOTES);
		size_t cap = ns->cap ? ns->cap * 2 : 4;
		struct rdc_co_note_loc *v = realloc(ns->v, cap * sizeof *v);
		if (!v)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		ns->v = v;
		ns->cap = cap;
	}
	ns->v[ns->n++] = *loc;
	return 0;
}

void rdc_co_notes_free(struct rdc_co_notes *ns)
{
	free(ns->v);
	memset(ns, 0, sizeof *ns);
}

/* Walk the notes of [off, off+size) and add every ("AMDGPU", 32) one;
 * `region` carries what the caller knows of where they are. */
static int scan_notes(Elf *e, uint64_t off, uint64_t size, uint64_t align,
		      const struct rdc_co_note_loc *region, struct rdc_co_notes *ns,
		      struct rdc_diag *d)
{
	if (size == 0)
		return 0;
	Elf_Data *dd = elf_getdata_rawchunk(e, (int64_t)off, size,
					    align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
	if (!dd || !dd->d_buf)
		return rdc_diag_set(d, RDC_E_RANGE, off, "notes (%llu bytes) cannot be read: %s",
				    (unsigned long long)size, elf_errmsg(-1));
	size_t pos = 0;
	while (pos < dd->d_size) {
		GElf_Nhdr nh;
		size_t name_off, desc_off;
		size_t next = gelf_getnote(dd, pos, &nh, &name_off, &desc_off);
		if (next == 0 || next <= pos) {
			if (dd->d_size - pos < 12)
				return rdc_diag_set(d, RDC_E_TRUNCATED, off + pos,
						    "note header needs 12 bytes, %zu left in the note segment",
						    dd->d_size - pos);
			return rdc_diag_set(d, RDC_E_RANGE, off + pos,
					    "note name/desc sizes run past the end of the note segment "
					    "(%llu bytes at offset %llu)", (unsigned long long)size,
					    (unsigned long long)off);
		}
		const char *name = (const char *)dd->d_buf + name_off;
		if (nh.n_type == RDC_NT_AMDGPU_METADATA && nh.n_namesz == 7 &&
		    memcmp(name, "AMDGPU", 7) == 0) {
			struct rdc_co_note_loc loc = *region;
			loc.found = true;
			loc.seg_offset = off;
			loc.seg_size = size;
			loc.align = align == 8 ? 8 : 4;
			loc.note_offset = off + pos;
			loc.note_size = next - pos;
			loc.desc_offset = off + desc_off;
			loc.desc_size = nh.n_descsz;
			int rc = add_note(ns, &loc, d);
			if (rc)
				return rc;
		}
		pos = next;
	}
	return 0;
}

/* scan_notes over the region of PT_NOTE / note section `idx` (`what`),
 * whose header lies at `hdr_at`, after checking it lies inside the input. */
static int scan_region(Elf *e, uint64_t off, uint64_t size, uint64_t align, size_t n,
		       const char *what, size_t idx, uint64_t hdr_at,
		       const struct rdc_co_note_loc *region, struct rdc_co_notes *ns,
		       struct rdc_diag *d)
{
	if (!rdc_in_bounds(off, size, n))
		return rdc_diag_set(d, RDC_E_RANGE, hdr_at,
				    "%s %zu (offset %llu, %llu bytes) lies outside the %zu-byte input",
				    what, idx, (unsigned long long)off, (unsigned long long)size, n);
	return scan_notes(e, off, size, align, region, ns, d);
}

int rdc_co_find_metadata_notes(Elf *e, size_t n, struct rdc_co_notes *ns, struct rdc_diag *d)
{
	memset(ns, 0, sizeof *ns);
	size_t phnum = 0;
	int rc = 0;
	if (elf_getphdrnum(e, &phnum) != 0)
		return rdc_diag_set(d, RDC_E_FORMAT, 56, "libelf: program headers: %s", elf_errmsg(-1));
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh))
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "libelf: ELF header: %s", elf_errmsg(-1));
	for (size_t i = 0; i < phnum && !rc; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph)) {
			rc = rdc_diag_set(d, RDC_E_FORMAT, eh.e_phoff + i * sizeof(Elf64_Phdr),
					  "libelf: program header %zu: %s", i, elf_errmsg(-1));
			break;
		}
		if (ph.p_type != PT_NOTE)
			continue;
		struct rdc_co_note_loc region = { .from_phdr = true, .phdr_index = i };
		rc = scan_region(e, ph.p_offset, ph.p_filesz, ph.p_align, n, "PT_NOTE", i,
				 eh.e_phoff + i * sizeof(Elf64_Phdr), &region, ns, d);
	}
	/* No program headers (relocatable objects) or no note there: the
	 * notes of every SHT_NOTE section, as comgr reads them. */
	Elf_Scn *scn = NULL;
	bool sections = ns->n == 0;
	while (!rc && sections && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh)) {
			rc = rdc_diag_set(d, RDC_E_FORMAT, eh.e_shoff, "libelf: section header: %s",
					  elf_errmsg(-1));
			break;
		}
		if (sh.sh_type != SHT_NOTE)
			continue;
		size_t idx = elf_ndxscn(scn);
		struct rdc_co_note_loc region = { .has_section = true, .shdr_index = idx,
						  .sec_offset = sh.sh_offset, .sec_size = sh.sh_size };
		rc = scan_region(e, sh.sh_offset, sh.sh_size, sh.sh_addralign, n, "note section", idx,
				 eh.e_shoff + idx * sizeof(Elf64_Shdr), &region, ns, d);
	}
	if (rc)
		rdc_co_notes_free(ns);
	return rc;
}

int rdc_codeobj_parse(const void *p, size_t n, unsigned flags, struct rdc_codeobj *co,
		      struct rdc_diag *d)
{
	struct rdc_co_header h;
	int rc;
	if (!co)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "no output");
	memset(co, 0, sizeof *co);
	rc = rdc_co_read_header(p, n, &h, d);
	if (rc)
		return rc;
	co->e_flags = h.e_flags;
	co->abi_version = h.abi_version;
	co->cov = h.cov;
	co->mach = (uint8_t)(h.e_flags & RDC_EF_MACH);
	co->generic_version = h.cov >= 6 ? (uint8_t)(h.e_flags >> RDC_EF_GENERIC_VERSION_SHIFT) : 0;
	rc = rdc_co_target_from_flags(h.e_flags, h.cov, &co->target, d);
	if (rc)
		return rc;
	if (!(flags & (RDC_CO_METADATA | RDC_CO_DESCRIPTORS | RDC_CO_SYMBOLS)))
		return 0;
	if (h.cov < 3)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, EI_ABIVERSION,
				    "code object v2 metadata (YAML note NT_AMD_HSA_METADATA) is not decoded");

	Elf *e = NULL;
	rc = rdc_co_elf_open(p, n, &e, d);
	if (rc)
		return rc;
	struct rdc_co_notes ns;
	rc = rdc_co_find_metadata_notes(e, n, &ns, d);
	if (rc)
		goto out;
	if (ns.n == 0) {
		rc = rdc_diag_set(d, RDC_E_NOTFOUND, RDC_NO_OFFSET,
				  "no NT_AMDGPU_METADATA note (name \"AMDGPU\", type 32)");
		goto out;
	}
	co->note_desc_offset = ns.v[0].desc_offset;
	co->note_desc_size = ns.v[0].desc_size;
	if (flags & RDC_CO_SYMBOLS) {
		rc = rdc_co_read_notes_tails(p, &ns, co, d);
		if (!rc)
			rc = rdc_co_kernels_from_symbols(e, p, n, co, d);
	} else {
		rc = rdc_co_read_notes_decoded(p, &ns, flags, co, d);
		if (!rc && (flags & RDC_CO_DESCRIPTORS))
			rc = rdc_co_read_descriptors(e, p, n, co, d);
	}
	rdc_co_notes_free(&ns);
out:
	elf_end(e);
	if (rc)
		rdc_codeobj_free(co);
	return rc;
}
