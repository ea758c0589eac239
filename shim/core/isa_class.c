/* SPDX-License-Identifier: MIT */
/*
 * isa_class.c — rdc_isa_classify: per kernel of a code object, the first
 * instruction of each class that a compat condition protects (isa_class.h).
 *
 * Sections: the ELF reads (program headers to turn the kernel descriptor's
 * file offset into its address and the entry address back into a file
 * offset; section headers for the executable section holding the entry),
 * the symbol table's function extents, then one linear walk of each
 * executable section with the shared decoder (isa_decode.c), charging each
 * instruction to the kernel whose entry precedes it.  Bytes outside every
 * function symbol (the zero padding LLVM puts between 256-byte aligned
 * kernels, s_code_end) are not code and are skipped; an object without
 * sized function symbols is walked whole.  Every read of the input is bounds-checked; nothing is
 * written to it.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/isa.h"
#include "rdnacompat/isa_class.h"

const char *rdc_isa_cls_name(enum rdc_isa_cls c)
{
	switch (c) {
	case RDC_ISA_SAMPLE: return "image-sample";
	case RDC_ISA_MSAA_LOAD: return "image-msaa-load";
	case RDC_ISA_MAD64: return "v_mad_u64_u32";
	case RDC_ISA_UNKNOWN: return "unknown";
	default: return "?";
	}
}

unsigned rdc_isa_gen(const char *proc)
{
	if (!strncmp(proc, "gfx103", 6) || !strcmp(proc, "gfx10-3-generic"))
		return 10;
	if (!strncmp(proc, "gfx11", 5))
		return 11;
	return 0;
}

/* The class of one decoded instruction, or -1.  MIMG opcodes are named and
 * measured by the decoder (rc -1) but carry in->op. */
static int cls_of(const struct rdc_inst *in, int rc)
{
	if (in->op == RDC_OP_INVALID)
		return rc < 0 ? RDC_ISA_UNKNOWN : -1;
	if (in->fmt == RDC_FMT_MIMG || in->fmt == RDC_FMT_MIMGHI) {
		const char *n = rdc_op_name[in->op];
		if (in->op == RDC_OP_IMAGE_MSAA_LOAD)
			return RDC_ISA_MSAA_LOAD;
		if (!strncmp(n, "image_sample", 12) || !strncmp(n, "image_gather4", 13))
			return RDC_ISA_SAMPLE;
		return -1;
	}
	if (in->op == RDC_OP_V_MAD_U64_U32 || in->op == RDC_OP_V_MAD_I64_I32)
		return RDC_ISA_MAD64;
	return -1;
}

static bool calls(const struct rdc_inst *in)
{
	return in->op == RDC_OP_S_SWAPPC_B64 || in->op == RDC_OP_S_CALL_B64;
}

struct elf_view {
	const uint8_t *p;
	size_t n;
	Elf64_Ehdr eh;
};

static bool rd(const struct elf_view *e, uint64_t off, void *out, size_t len)
{
	if (off > e->n || len > e->n - off)
		return false;
	memcpy(out, e->p + off, len);
	return true;
}

/* File offset -> address (to_addr) or address -> file offset, through the
 * PT_LOAD segments; false when no segment holds it. */
static bool map(const struct elf_view *e, uint64_t x, bool to_addr, uint64_t *out)
{
	for (unsigned i = 0; i < e->eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (!rd(e, e->eh.e_phoff + (uint64_t)i * sizeof ph, &ph, sizeof ph))
			return false;
		if (ph.p_type != PT_LOAD)
			continue;
		uint64_t from = to_addr ? ph.p_offset : ph.p_vaddr;
		if (x >= from && x - from < ph.p_filesz) {
			*out = x - from + (to_addr ? ph.p_vaddr : ph.p_offset);
			return true;
		}
	}
	return false;
}

/* The executable section holding file offset `off`: [*lo, *hi). */
static bool exec_section(const struct elf_view *e, uint64_t off, uint64_t *lo, uint64_t *hi)
{
	for (unsigned i = 0; i < e->eh.e_shnum; i++) {
		Elf64_Shdr sh;
		if (!rd(e, e->eh.e_shoff + (uint64_t)i * sizeof sh, &sh, sizeof sh))
			return false;
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (sh.sh_offset > e->n || sh.sh_size > e->n - sh.sh_offset)
			continue;
		if (off >= sh.sh_offset && off < sh.sh_offset + sh.sh_size) {
			*lo = sh.sh_offset;
			*hi = sh.sh_offset + sh.sh_size;
			return true;
		}
	}
	return false;
}

static void hit(struct rdc_isa_kernel *k, int c, uint64_t off, uint64_t koff, const char *mn)
{
	if (k->classes & (1u << c))
		return;
	k->classes |= 1u << c;
	k->first[c].offset = off;
	k->first[c].kernel_off = koff;
	k->first[c].mnemonic = mn;
}

static void unknown(struct rdc_isa_kernel *k, uint64_t off, const char *why)
{
	if (!(k->classes & (1u << RDC_ISA_UNKNOWN)))
		k->why_unknown = why;
	hit(k, RDC_ISA_UNKNOWN, off, UINT64_MAX, "<code not found>");
}

struct entry { size_t kernel; uint64_t off, lo, hi; };

/* [lo, hi) file offsets of one function symbol's code. */
struct extent { uint64_t lo, hi; };

static int extent_cmp(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The sized STT_FUNC symbols of .symtab (else .dynsym) as sorted file
 * extents: *out NULL and *n 0 when there are none (or on a malformed table:
 * the walk then covers every byte, which is the conservative reading). */
static int func_extents(const struct elf_view *e, struct extent **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	Elf64_Shdr best = { 0 };
	for (unsigned i = 0; i < e->eh.e_shnum; i++) {
		Elf64_Shdr sh;
		if (!rd(e, e->eh.e_shoff + (uint64_t)i * sizeof sh, &sh, sizeof sh))
			return 0;
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && best.sh_type != SHT_SYMTAB))
			best = sh;
	}
	if (!best.sh_type || best.sh_entsize != sizeof(Elf64_Sym) || best.sh_offset > e->n ||
	    best.sh_size > e->n - best.sh_offset)
		return 0;
	size_t ns = best.sh_size / sizeof(Elf64_Sym), k = 0;
	struct extent *x = calloc(ns ? ns : 1, sizeof *x);
	if (!x)
		return -1;
	for (size_t i = 0; i < ns; i++) {
		Elf64_Sym sym;
		uint64_t lo;
		memcpy(&sym, e->p + best.sh_offset + i * sizeof sym, sizeof sym);
		if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size || sym.st_shndx == SHN_UNDEF ||
		    !map(e, sym.st_value, false, &lo) || lo > e->n || sym.st_size > e->n - lo)
			continue;
		x[k++] = (struct extent){ lo, lo + sym.st_size };
	}
	if (!k) {
		free(x);
		return 0;
	}
	qsort(x, k, sizeof *x, extent_cmp);
	*out = x;
	*n = k;
	return 0;
}

/* With extents: `off` itself when inside one, else the start of the next
 * (or `hi` when none is left before it).  *at advances monotonically. */
static uint64_t in_code(const struct extent *x, size_t n, size_t *at, uint64_t off, uint64_t hi)
{
	if (!n)
		return off;
	while (*at < n && x[*at].hi <= off)
		(*at)++;
	if (*at == n)
		return hi;
	return x[*at].lo > off ? (x[*at].lo < hi ? x[*at].lo : hi) : off;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

int rdc_isa_classify(const void *co, size_t n, const struct rdc_codeobj *parsed,
		     struct rdc_isa_kernel *out, struct rdc_diag *d)
{
	struct elf_view e = { .p = co, .n = n };
	size_t nk = parsed->n_kernels;
	memset(out, 0, nk * sizeof *out);
	unsigned gfx = rdc_isa_gen(parsed->target.proc);
	if (!gfx)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, 0, "no instruction decoder for %s code",
				    parsed->target.proc);
	if (!rd(&e, 0, &e.eh, sizeof e.eh) || e.eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    e.eh.e_shentsize != sizeof(Elf64_Shdr))
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "ELF headers not as expected");
	struct entry *en = calloc(nk ? nk : 1, sizeof *en);
	if (!en)
		return rdc_diag_set(d, RDC_E_NOMEM, 0, "out of memory");
	size_t ne = 0;
	for (size_t i = 0; i < nk; i++) {
		const struct rdc_kernel_desc *kd = &parsed->kernels[i].kd;
		int64_t rel;
		uint64_t kva, eva, eoff, lo, hi;
		if (!kd->present || !rd(&e, kd->file_offset + 16, &rel, sizeof rel) ||
		    !map(&e, kd->file_offset, true, &kva) || !map(&e, kva + (uint64_t)rel, false, &eva)) {
			unknown(&out[i], kd->file_offset, "its kernel descriptor or entry is not in the file");
			continue;
		}
		eoff = eva;
		if (!exec_section(&e, eoff, &lo, &hi)) {
			unknown(&out[i], eoff, "its entry is in no executable section");
			continue;
		}
		en[ne++] = (struct entry){ i, eoff, lo, hi };
	}
	qsort(en, ne, sizeof *en, entry_cmp);
	struct extent *fx;
	size_t nfx;
	if (func_extents(&e, &fx, &nfx) < 0) {
		free(en);
		return rdc_diag_set(d, RDC_E_NOMEM, 0, "out of memory");
	}
	/* Every kernel's entry must lie in a function extent, else the symbols
	 * do not describe this code: walk every byte. */
	for (size_t i = 0, at = 0; nfx && i < ne; i++)
		if (in_code(fx, nfx, &at, en[i].off, UINT64_MAX) != en[i].off) {
			free(fx);
			fx = NULL;
			nfx = 0;
		}
	/* One walk per executable section: from its start, instructions
	 * before the first entry belong to no kernel (called functions). */
	struct rdc_isa_kernel sec = { 0 };
	size_t s0 = 0;
	while (s0 < ne) {
		size_t s1 = s0;
		while (s1 < ne && en[s1].lo == en[s0].lo)
			s1++;
		memset(&sec, 0, sizeof sec);
		bool *caller = calloc(s1 - s0, sizeof *caller);
		if (!caller) {
			free(fx);
			free(en);
			return rdc_diag_set(d, RDC_E_NOMEM, 0, "out of memory");
		}
		size_t cur = SIZE_MAX; /* index into en, SIZE_MAX: before the first entry */
		size_t at = 0;         /* index into fx */
		for (uint64_t off = en[s0].lo; off + 4 <= en[s0].hi;) {
			uint64_t next = in_code(fx, nfx, &at, off, en[s0].hi);
			if (next != off) {
				off = next;
				continue;
			}
			while ((cur == SIZE_MAX ? s0 : cur + 1) < s1 && en[cur == SIZE_MAX ? s0 : cur + 1].off <= off)
				cur = cur == SIZE_MAX ? s0 : cur + 1;
			struct rdc_inst in;
			int rc = rdc_isa_decode(gfx, e.p + off, en[s0].hi - off, &in);
			int c = cls_of(&in, rc);
			if (c >= 0) {
				const char *mn = c == RDC_ISA_UNKNOWN ? in.mnemonic
					       : in.mnemonic ? in.mnemonic : rdc_op_name[in.op];
				hit(&sec, c, off, UINT64_MAX, mn);
				if (cur != SIZE_MAX) {
					if (c == RDC_ISA_UNKNOWN && !(out[en[cur].kernel].classes & (1u << c)))
						out[en[cur].kernel].why_unknown = "the decoder does not know an instruction";
					hit(&out[en[cur].kernel], c, off, off - en[cur].off, mn);
				}
			}
			if (cur != SIZE_MAX && calls(&in))
				caller[cur - s0] = true;
			off += in.len ? in.len : 4;
		}
		/* A kernel that calls: charged with the whole section's classes. */
		for (size_t j = s0; j < s1; j++) {
			struct rdc_isa_kernel *k = &out[en[j].kernel];
			if (!caller[j - s0])
				continue;
			for (int c = 0; c < RDC_ISA_NCLASS; c++)
				if ((sec.classes & (1u << c)) && !(k->classes & (1u << c))) {
					hit(k, c, sec.first[c].offset, UINT64_MAX, sec.first[c].mnemonic);
					if (c == RDC_ISA_UNKNOWN)
						k->why_unknown = "a function it may call holds an instruction the decoder does not know";
				}
		}
		free(caller);
		s0 = s1;
	}
	free(fx);
	free(en);
	return 0;
}
