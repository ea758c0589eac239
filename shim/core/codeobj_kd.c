/* SPDX-License-Identifier: MIT */
/*
 * codeobj_kd.c — kernel descriptors: the 64 bytes at symbol "<kernel>.kd"
 * (the metadata's .symbol), found through .dynsym (where the loader finds
 * them) and, for kernels still missing, .symtab (relocatable objects).
 *
 * Layout (LLVM AMDGPUUsage "Kernel Descriptor"; llvm/Support/
 * AMDHSAKernelDescriptor.h, LLVM 16 as installed here; ROCR
 * loader/AMDHSAKernelDescriptor.h has the same offsets):
 *   0 group_segment_fixed_size  4 private_segment_fixed_size  8 kernarg_size
 *   16 kernel_code_entry_byte_offset (i64)  44 compute_pgm_rsrc3
 *   48 compute_pgm_rsrc1  52 compute_pgm_rsrc2  56 kernel_code_properties (u16)
 * COMPUTE_PGM_RSRC1 bit 29 = WGP_MODE (GFX10+); kernel_code_properties
 * bit 10 = ENABLE_WAVEFRONT_SIZE32 (GFX10+).
 * Symbols are matched with one pass over the table and a binary search over
 * the kernels sorted by symbol name.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"

#define KD_SIZE 64
#define RSRC1_WGP_MODE (1u << 29)
#define KCP_WAVE32 (1u << 10)

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Kernels' .symbol names, sorted by (hash, name): a symbol-table name is
 * looked up by its hash first, so the long mangled names that share
 * prefixes are compared with strcmp only on a real candidate (strcmp in the
 * bsearch was ~13% of parsing librocsparse's objects). */
struct symref {
	uint64_t hash;
	const char *sym;
	size_t kernel;
};

/* Cheap: the length (a vectorised strlen) and the last 8 bytes, where
 * mangled kernel names differ (template arguments); ties go to strcmp. */
static uint64_t name_hash(const char *s)
{
	size_t l = strlen(s);
	uint64_t tail = 0;
	memcpy(&tail, s + (l > 8 ? l - 8 : 0), l > 8 ? 8 : l);
	return (tail ^ (tail >> 29)) * 0x9e3779b97f4a7c15ull + l;
}

static int cmp_symref(const void *a, const void *b)
{
	const struct symref *x = a, *y = b;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return strcmp(x->sym, y->sym);
}

static void decode_kd(const uint8_t *b, uint64_t off, struct rdc_kernel_desc *kd)
{
	kd->present = true;
	kd->file_offset = off;
	kd->group_segment_fixed_size = le32(b + 0);
	kd->private_segment_fixed_size = le32(b + 4);
	kd->kernarg_size = le32(b + 8);
	kd->rsrc3 = le32(b + 44);
	kd->rsrc1 = le32(b + 48);
	kd->rsrc2 = le32(b + 52);
	kd->code_properties = (uint16_t)(b[56] | b[57] << 8);
	kd->wgp_mode = (kd->rsrc1 & RSRC1_WGP_MODE) != 0;
	kd->wave32 = (kd->code_properties & KCP_WAVE32) != 0;
}

/* Symbol value -> file offset of its 64 bytes, via the section it is in. */
static int locate(Elf *e, const GElf_Ehdr *eh, const GElf_Sym *s, const char *name, size_t n,
		  uint64_t *off, struct rdc_diag *d)
{
	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
				    "descriptor symbol %s is not defined in a section (index %u)",
				    name, s->st_shndx);
	Elf_Scn *scn = elf_getscn(e, s->st_shndx);
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh))
		return rdc_diag_set(d, RDC_E_RANGE, eh->e_shoff,
				    "descriptor symbol %s names section %u, which does not exist",
				    name, s->st_shndx);
	if (sh.sh_type == SHT_NOBITS)
		return rdc_diag_set(d, RDC_E_FORMAT, sh.sh_offset,
				    "descriptor symbol %s is in a section without file bytes", name);
	uint64_t in_sec;
	if (eh->e_type == ET_REL) {
		in_sec = s->st_value;
	} else {
		if (s->st_value < sh.sh_addr)
			return rdc_diag_set(d, RDC_E_RANGE, sh.sh_offset,
					    "descriptor symbol %s (0x%llx) lies before its section (0x%llx)",
					    name, (unsigned long long)s->st_value,
					    (unsigned long long)sh.sh_addr);
		in_sec = s->st_value - sh.sh_addr;
	}
	if (!rdc_in_bounds(in_sec, KD_SIZE, sh.sh_size) ||
	    !rdc_in_bounds(sh.sh_offset, sh.sh_size, n))
		return rdc_diag_set(d, RDC_E_RANGE, sh.sh_offset,
				    "descriptor %s (64 bytes at +%llu) runs past its section (%llu bytes) or the input",
				    name, (unsigned long long)in_sec, (unsigned long long)sh.sh_size);
	*off = sh.sh_offset + in_sec;
	return 0;
}

/* One pass over a symbol table; fills kernels whose descriptor is missing. */
static int scan_symtab(Elf *e, const GElf_Ehdr *eh, Elf_Scn *scn, const GElf_Shdr *sh,
		       const void *p, size_t n, struct symref *refs, size_t nrefs,
		       struct rdc_codeobj *co, size_t *missing, struct rdc_diag *d)
{
	if (sh->sh_entsize != sizeof(Elf64_Sym))
		return rdc_diag_set(d, RDC_E_FORMAT, sh->sh_offset,
				    "symbol table entry size %llu is not %zu",
				    (unsigned long long)sh->sh_entsize, sizeof(Elf64_Sym));
	if (!rdc_in_bounds(sh->sh_offset, sh->sh_size, n))
		return rdc_diag_set(d, RDC_E_RANGE, sh->sh_offset,
				    "symbol table (%llu bytes) runs past the %zu-byte input",
				    (unsigned long long)sh->sh_size, n);
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data)
		return rdc_diag_set(d, RDC_E_FORMAT, sh->sh_offset, "libelf: symbol table: %s",
				    elf_errmsg(-1));
	size_t count = sh->sh_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < count && *missing; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			break;
		const char *name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		struct symref key = { name_hash(name), name, 0 };
		struct symref *r = bsearch(&key, refs, nrefs, sizeof *refs, cmp_symref);
		if (!r)
			continue;
		/* Several kernels could share a .symbol; handle the run. */
		while (r > refs && cmp_symref(&r[-1], &key) == 0)
			r--;
		for (; r < refs + nrefs && cmp_symref(r, &key) == 0; r++) {
			struct rdc_kernel_desc *kd = &co->kernels[r->kernel].kd;
			if (kd->present)
				continue;
			uint64_t off = 0;
			int rc = locate(e, eh, &s, name, n, &off, d);
			if (rc)
				return rc;
			decode_kd((const uint8_t *)p + off, off, kd);
			(*missing)--;
		}
	}
	return 0;
}

int rdc_co_read_descriptors(Elf *e, const void *p, size_t n, struct rdc_codeobj *co,
			    struct rdc_diag *d)
{
	if (co->n_kernels == 0)
		return 0;
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh))
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "libelf: ELF header: %s", elf_errmsg(-1));
	struct symref *refs = calloc(co->n_kernels, sizeof *refs);
	if (!refs)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < co->n_kernels; i++) {
		refs[i].sym = co->kernels[i].symbol;
		refs[i].hash = name_hash(refs[i].sym);
		refs[i].kernel = i;
	}
	qsort(refs, co->n_kernels, sizeof *refs, cmp_symref);
	size_t missing = co->n_kernels;
	int rc = 0;
	/* .dynsym first (small, and what the loader uses), then .symtab. */
	static const Elf64_Word order[2] = { SHT_DYNSYM, SHT_SYMTAB };
	for (int pass = 0; pass < 2 && missing && !rc; pass++) {
		Elf_Scn *scn = NULL;
		while (!rc && missing && (scn = elf_nextscn(e, scn)) != NULL) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh)) {
				rc = rdc_diag_set(d, RDC_E_FORMAT, eh.e_shoff, "libelf: section header: %s",
						  elf_errmsg(-1));
				break;
			}
			if (sh.sh_type == order[pass])
				rc = scan_symtab(e, &eh, scn, &sh, p, n, refs, co->n_kernels, co,
						 &missing, d);
		}
	}
	free(refs);
	return rc;
}

/* One table's "<name>.kd" objects appended to co->kernels (name, symbol,
 * descriptor). */
static int kernels_of_table(Elf *e, const GElf_Ehdr *eh, Elf_Scn *scn, const GElf_Shdr *sh,
			    const void *p, size_t n, struct rdc_codeobj *co, size_t *cap,
			    struct rdc_diag *d)
{
	if (sh->sh_entsize != sizeof(Elf64_Sym))
		return rdc_diag_set(d, RDC_E_FORMAT, sh->sh_offset,
				    "symbol table entry size %llu is not %zu",
				    (unsigned long long)sh->sh_entsize, sizeof(Elf64_Sym));
	if (!rdc_in_bounds(sh->sh_offset, sh->sh_size, n))
		return rdc_diag_set(d, RDC_E_RANGE, sh->sh_offset,
				    "symbol table (%llu bytes) runs past the %zu-byte input",
				    (unsigned long long)sh->sh_size, n);
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data)
		return rdc_diag_set(d, RDC_E_FORMAT, sh->sh_offset, "libelf: symbol table: %s",
				    elf_errmsg(-1));
	size_t count = sh->sh_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < count; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s))
			break;
		if (GELF_ST_TYPE(s.st_info) != STT_OBJECT)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, s.st_name);
		size_t l = name ? strlen(name) : 0;
		if (l <= 3 || strcmp(name + l - 3, ".kd") != 0)
			continue;
		uint64_t off = 0;
		int rc = locate(e, eh, &s, name, n, &off, d);
		if (rc)
			return rc;
		if (co->n_kernels == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			struct rdc_kernel *nk = realloc(co->kernels, nc * sizeof *nk);
			if (!nk)
				return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
			co->kernels = nk;
			*cap = nc;
		}
		struct rdc_kernel *k = &co->kernels[co->n_kernels];
		memset(k, 0, sizeof *k);
		k->symbol = strdup(name);
		k->name = strndup(name, l - 3);
		co->n_kernels++;   /* counted first: rdc_codeobj_free frees what is set */
		if (!k->symbol || !k->name)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		decode_kd((const uint8_t *)p + off, off, &k->kd);
	}
	return 0;
}

int rdc_co_kernels_from_symbols(Elf *e, const void *p, size_t n, struct rdc_codeobj *co,
				struct rdc_diag *d)
{
	GElf_Ehdr eh;
	if (!gelf_getehdr(e, &eh))
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "libelf: ELF header: %s", elf_errmsg(-1));
	size_t cap = 0;
	/* .dynsym (what the loader reads); .symtab only when it has none */
	static const Elf64_Word order[2] = { SHT_DYNSYM, SHT_SYMTAB };
	for (int pass = 0; pass < 2 && co->n_kernels == 0; pass++) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(e, scn)) != NULL) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh))
				return rdc_diag_set(d, RDC_E_FORMAT, eh.e_shoff, "libelf: section header: %s",
						    elf_errmsg(-1));
			if (sh.sh_type != order[pass])
				continue;
			int rc = kernels_of_table(e, &eh, scn, &sh, p, n, co, &cap, d);
			if (rc)
				return rc;
		}
	}
	return 0;
}
