/* SPDX-License-Identifier: MIT */
/*
 * codeobj_retarget.c — make a code object claim another processor, never
 * writing the input.
 *
 * What identifies the target (ROCR libamdhsacode GetIsa derives the ISA from
 * e_flags alone; CLR/comgr read the metadata):
 *   - e_flags: machine byte, xnack/sramecc fields, v6 generic version byte;
 *   - metadata "amdhsa.target" ("amdgcn-amd-amdhsa--gfx1031").
 * rdc_codeobj_retarget_patches: in-place byte patches when the target string
 * keeps its length (gfx1030 -> gfx1031, gfx1100 -> gfx1101): the MessagePack
 * string header is unchanged, so only its bytes and e_flags change.
 * rdc_codeobj_retarget: a malloc'd copy for any target: the metadata is
 * re-encoded with msgpack-c and, when its size changes, the whole note
 * segment (with the new note in place of the old) is appended at the end of
 * the file (8-aligned); the PT_NOTE program header and the SHT_NOTE section
 * header are repointed there.  The relocated note is no longer inside a
 * PT_LOAD, so the section loses SHF_ALLOC and its address, and PT_NOTE gets
 * p_vaddr = p_paddr = 0 (ROCR's loader only maps PT_LOAD; comgr/LLVM read
 * PT_NOTE by p_offset/p_filesz; llvm-readelf --notes reads the section).
 * The old note bytes stay where they were, unreferenced.
 * Generic targets need code object v6 (the generic version lives in e_flags
 * bits 24..31, AMDGPUUsage "ELF Header"): generic -> specific clears that
 * byte; specific -> generic is done only for v6 input (version 1); v4/v5
 * input is refused with RDC_E_UNSUPPORTED.  Code object v2 (ISA in an
 * NT_AMD_HSA_ISA_VERSION note) is refused too.
 * Whether the code is correct on the new processor is the policy's question.
 */
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"

static uint32_t feat_field_v4(uint8_t f, bool supported)
{
	switch (f) {
	case RDC_FEAT_ON: return 3;
	case RDC_FEAT_OFF: return 2;
	default: return supported ? 1 : 0;
	}
}

int rdc_co_retarget_flags(uint32_t from, unsigned cov, const struct rdc_target *to, uint32_t *out,
			  struct rdc_diag *d)
{
	const struct rdc_mach_info *m = rdc_mach_info_by_name(to->proc);
	if (!m)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET,
				    "retarget: %.*s is not a known AMDGCN processor",
				    (int)sizeof to->proc, to->proc);
	if (cov < 3)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, EI_ABIVERSION,
				    "retarget: code object v2 keeps its ISA in an NT_AMD_HSA_ISA_VERSION note; not handled");
	if (m->generic && cov < 6)
		return rdc_diag_set(d, RDC_E_UNSUPPORTED, EI_ABIVERSION,
				    "retarget: %s is a generic processor, which needs code object v6 "
				    "(generic version in e_flags); this is v%u", m->name, cov);
	uint32_t f = (from & ~RDC_EF_MACH) | m->mach;
	if (cov == 3) {
		f &= ~(RDC_EF_XNACK_V3 | RDC_EF_SRAMECC_V3);
		/* LLVM sets the V3 bit for "on" and for "any" (isXnackOnOrAny). */
		if (to->xnack == RDC_FEAT_ON || (to->xnack == RDC_FEAT_ANY && m->xnack))
			f |= RDC_EF_XNACK_V3;
		if (to->sramecc == RDC_FEAT_ON || (to->sramecc == RDC_FEAT_ANY && m->sramecc))
			f |= RDC_EF_SRAMECC_V3;
	} else {
		f &= ~(RDC_EF_XNACK_V4 | RDC_EF_SRAMECC_V4);
		f |= feat_field_v4(to->xnack, m->xnack) << 8;
		f |= feat_field_v4(to->sramecc, m->sramecc) << 10;
	}
	if (cov >= 6) {
		uint32_t gv = (from & RDC_EF_GENERIC_VERSION) >> RDC_EF_GENERIC_VERSION_SHIFT;
		f &= ~RDC_EF_GENERIC_VERSION;
		if (m->generic)
			f |= (gv ? gv : 1u) << RDC_EF_GENERIC_VERSION_SHIFT;
	}
	*out = f;
	return 0;
}

int rdc_codeobj_flags_patch(const void *ehdr, size_t n, uint64_t size, const struct rdc_target *to,
			    struct rdc_patch *out, struct rdc_diag *d)
{
	if (!ehdr || !to || !out || n < sizeof(Elf64_Ehdr))
		return rdc_diag_set(d, RDC_E_TRUNCATED, RDC_NO_OFFSET,
				    "retarget: the ELF header needs %zu bytes", sizeof(Elf64_Ehdr));
	/* the header's own checks; the tables it points to are not read */
	struct rdc_co_header h;
	int rc = rdc_co_read_header(ehdr, size < SIZE_MAX ? (size_t)size : SIZE_MAX, &h, d);
	if (rc)
		return rc;
	uint32_t f;
	rc = rdc_co_retarget_flags(h.e_flags, h.cov, to, &f, d);
	if (rc)
		return rc;
	memset(out, 0, sizeof *out);
	out->offset = offsetof(Elf64_Ehdr, e_flags);
	out->len = sizeof f;
	memcpy(out->bytes, &f, sizeof f);
	return 0;
}

/* Everything both entry points need to know about the input. */
struct plan {
	struct rdc_co_header h;
	uint32_t new_flags;
	char new_target[96];
	size_t new_target_len;
	struct rdc_co_notes ns;  /* every metadata note (none: v3 without one) */
	bool have_str;           /* the notes name a target (v4+) */
	size_t str_len;          /* its length, the same in every note */
	uint64_t *str_at;        /* [ns.n]: file offset of each note's string */
	const uint8_t *cur;      /* the current target string's bytes */
	bool has_section;        /* one SHT_NOTE section holds every note */
	size_t shdr_index;
	uint64_t sec_offset, sec_size;
};

static void plan_free(struct plan *pl)
{
	rdc_co_notes_free(&pl->ns);
	free(pl->str_at);
	pl->str_at = NULL;
}

/* The SHT_NOTE section holding every metadata note, inside their PT_NOTE
 * segment (usually the same bytes; a segment may span several note
 * sections). */
static int find_note_section(Elf *e, struct plan *pl, struct rdc_diag *d)
{
	const struct rdc_co_note_loc *first = &pl->ns.v[0], *last = &pl->ns.v[pl->ns.n - 1];
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "libelf: section header: %s",
					    elf_errmsg(-1));
		if (sh.sh_type == SHT_NOTE && sh.sh_offset >= first->seg_offset &&
		    sh.sh_offset <= first->note_offset &&
		    last->note_offset + last->note_size <= sh.sh_offset + sh.sh_size &&
		    sh.sh_offset + sh.sh_size <= first->seg_offset + first->seg_size) {
			pl->has_section = true;
			pl->shdr_index = elf_ndxscn(scn);
			pl->sec_offset = sh.sh_offset;
			pl->sec_size = sh.sh_size;
			return 0;
		}
	}
	return 0;
}

/* Every note's target span, decoded (what is retargeted must decode); the
 * notes must name the same target. */
static int plan_spans(const uint8_t *p, struct plan *pl, struct rdc_diag *d)
{
	pl->str_at = calloc(pl->ns.n, sizeof *pl->str_at);
	if (!pl->str_at)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < pl->ns.n; i++) {
		const struct rdc_co_note_loc *L = &pl->ns.v[i];
		size_t off = 0, len = 0;
		int rc = rdc_co_meta_target_span(p + L->desc_offset, L->desc_size, L->desc_offset,
						 &off, &len, d);
		if (rc)
			return rc;
		if (i == 0) {
			pl->have_str = len > 0;
			pl->str_len = len;
			pl->cur = p + L->desc_offset + off;
		} else if ((len > 0) != pl->have_str || len != pl->str_len ||
			   memcmp(p + L->desc_offset + off, pl->cur, len) != 0) {
			return rdc_diag_set(d, RDC_E_UNSUPPORTED, L->desc_offset,
					    "retarget: metadata note %zu of %zu names another "
					    "amdhsa.target than the first", i + 1, pl->ns.n);
		}
		pl->str_at[i] = L->desc_offset + off;
	}
	return 0;
}

static int make_plan(const void *p, size_t n, const struct rdc_target *to, bool want_section,
		     struct plan *pl, struct rdc_diag *d)
{
	memset(pl, 0, sizeof *pl);
	if (!p || !to)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: no input or target");
	int rc = rdc_co_read_header(p, n, &pl->h, d);
	if (rc)
		return rc;
	struct rdc_target cur;
	rc = rdc_co_target_from_flags(pl->h.e_flags, pl->h.cov, &cur, d);
	if (rc)
		return rc;
	rc = rdc_co_retarget_flags(pl->h.e_flags, pl->h.cov, to, &pl->new_flags, d);
	if (rc)
		return rc;
	pl->new_target_len = rdc_target_format_isa_name(to, pl->new_target, sizeof pl->new_target);
	if (pl->new_target_len >= sizeof pl->new_target)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: target name too long");

	Elf *e = NULL;
	rc = rdc_co_elf_open(p, n, &e, d);
	if (rc)
		return rc;
	rc = rdc_co_find_metadata_notes(e, n, &pl->ns, d);
	if (!rc && pl->ns.n && want_section)
		rc = find_note_section(e, pl, d);
	elf_end(e);
	if (!rc && pl->ns.n)
		rc = plan_spans(p, pl, d);
	if (rc)
		plan_free(pl);
	return rc;
}

static size_t add_patch(struct rdc_patch *pt, size_t cap, size_t k, uint64_t off, const void *b,
			size_t len)
{
	const uint8_t *s = b;
	while (len) {
		uint32_t l = len > sizeof pt->bytes ? (uint32_t)sizeof pt->bytes : (uint32_t)len;
		if (k < cap) {
			pt[k].offset = off;
			pt[k].len = l;
			memcpy(pt[k].bytes, s, l);
		}
		k++;
		off += l;
		s += l;
		len -= l;
	}
	return k;
}

/* The patches for a same-length change; returns how many are needed:
 * e_flags, and each string of `at` (n of them, pl->str_len bytes, now
 * pl->cur's text). */
static size_t plan_patches(const struct plan *pl, const uint64_t *at, size_t n,
			   struct rdc_patch *pt, size_t cap)
{
	size_t k = 0;
	if (pl->new_flags != pl->h.e_flags) {
		uint8_t b[4] = { (uint8_t)pl->new_flags, (uint8_t)(pl->new_flags >> 8),
				 (uint8_t)(pl->new_flags >> 16), (uint8_t)(pl->new_flags >> 24) };
		k = add_patch(pt, cap, k, RDC_EHDR_FLAGS_OFF, b, 4);
	}
	if (pl->have_str && memcmp(pl->cur, pl->new_target, pl->str_len) != 0)
		for (size_t i = 0; i < n; i++)
			k = add_patch(pt, cap, k, at[i], pl->new_target, pl->str_len);
	return k;
}

static int length_changes(const struct plan *pl, uint64_t at, struct rdc_diag *d)
{
	return rdc_diag_set(d, RDC_E_UNSUPPORTED, at,
			    "retarget: amdhsa.target changes length (%zu -> %zu bytes): "
			    "not expressible as in-place patches, use rdc_codeobj_retarget",
			    pl->str_len, pl->new_target_len);
}

static int too_many(size_t need, size_t cap, struct rdc_diag *d)
{
	return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: %zu patches needed, room for %zu",
			    need, cap);
}

int rdc_codeobj_retarget_patches(const void *p, size_t n, const struct rdc_target *to,
				 struct rdc_patch *patches, size_t *n_patches, struct rdc_diag *d)
{
	struct plan pl;
	if (!n_patches || (!patches && *n_patches))
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: no patch array");
	size_t cap = *n_patches;
	*n_patches = 0;
	int rc = make_plan(p, n, to, false, &pl, d);
	if (rc)
		return rc;
	if (pl.have_str && pl.str_len != pl.new_target_len)
		rc = length_changes(&pl, pl.str_at[0], d);
	size_t need = rc ? 0 : plan_patches(&pl, pl.str_at, pl.ns.n, patches, cap);
	plan_free(&pl);
	if (rc)
		return rc;
	*n_patches = need;
	return need > cap ? too_many(need, cap, d) : 0;
}

int rdc_codeobj_retarget_patches_alloc(const void *p, size_t n, const struct rdc_target *to,
				       struct rdc_patch **patches, size_t *n_patches, struct rdc_diag *d)
{
	struct plan pl;
	if (!patches || !n_patches)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: no patch array");
	*patches = NULL;
	*n_patches = 0;
	int rc = make_plan(p, n, to, false, &pl, d);
	if (rc)
		return rc;
	if (pl.have_str && pl.str_len != pl.new_target_len)
		rc = length_changes(&pl, pl.str_at[0], d);
	size_t need = rc ? 0 : plan_patches(&pl, pl.str_at, pl.ns.n, NULL, 0);
	struct rdc_patch *v = rc ? NULL : malloc((need ? need : 1) * sizeof *v);
	if (!rc && !v)
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	if (!rc)
		plan_patches(&pl, pl.str_at, pl.ns.n, v, need);
	plan_free(&pl);
	if (rc)
		return rc;
	*patches = v;
	*n_patches = need;
	return 0;
}

int rdc_codeobj_retarget_patches_from(const struct rdc_codeobj *co, const struct rdc_target *to,
				      struct rdc_patch *patches, size_t *n_patches,
				      struct rdc_diag *d)
{
	struct plan pl;
	if (!n_patches || (!patches && *n_patches))
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: no patch array");
	size_t cap = *n_patches;
	*n_patches = 0;
	if (!co || !to)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: no input or target");
	if (co->note_desc_size == 0 || co->n_notes == 0 || !co->note_target_offsets)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET,
				    "retarget: code object parsed without its metadata");
	memset(&pl, 0, sizeof pl);
	pl.h.e_flags = co->e_flags;
	pl.h.cov = co->cov;
	int rc = rdc_co_retarget_flags(co->e_flags, co->cov, to, &pl.new_flags, d);
	if (rc)
		return rc;
	pl.new_target_len = rdc_target_format_isa_name(to, pl.new_target, sizeof pl.new_target);
	if (pl.new_target_len >= sizeof pl.new_target)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: target name too long");
	for (size_t i = 0; co->meta_target && i < co->n_notes; i++)
		if (co->note_target_offsets[i] == 0)
			return rdc_diag_set(d, RDC_E_FORMAT, co->note_desc_offset,
					    "metadata amdhsa.target is not a string inside the note");
	pl.have_str = co->meta_target && co->meta_target_len > 0;
	pl.str_len = co->meta_target_len;
	/* The current string is co->meta_target (a copy of those bytes). */
	pl.cur = (const uint8_t *)co->meta_target;
	if (pl.have_str && pl.str_len != pl.new_target_len)
		return length_changes(&pl, co->meta_target_offset, d);
	size_t need = plan_patches(&pl, co->note_target_offsets, co->n_notes, patches, cap);
	*n_patches = need;
	return need > cap ? too_many(need, cap, d) : 0;
}

static void put_le32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The rebuilt object must read back: libelf opens it, its notes are found
 * where we put them, and every amdhsa.target is the new one.  Anything in
 * the input that pointed past its end (and so into what we appended) shows
 * here; the object is then refused instead of being handed to a runtime. */
static int check_output(const uint8_t *c, size_t total, const struct rdc_target *to,
			const struct plan *in, struct rdc_diag *d)
{
	struct plan pl;
	struct rdc_diag why = { 0 };
	Elf *e = NULL;
	size_t shnum = 0;
	int rc = rdc_co_elf_open(c, total, &e, &why);
	if (!rc && elf_getshdrnum(e, &shnum) != 0)
		rc = rdc_diag_set(&why, RDC_E_FORMAT, 0, "libelf: %s", elf_errmsg(-1));
	if (e)
		elf_end(e);
	if (!rc)
		rc = make_plan(c, total, to, true, &pl, &why);  /* frees pl when it fails */
	if (!rc) {
		if (pl.ns.n != in->ns.n || !pl.have_str || pl.str_len != in->new_target_len ||
		    memcmp(pl.cur, in->new_target, pl.str_len) != 0)
			rc = rdc_diag_set(&why, RDC_E_FORMAT, RDC_NO_OFFSET,
					  "its target strings are not found");
		plan_free(&pl);
	}
	if (rc)
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET,
				    "retarget: the rebuilt code object does not read back (%s); input refused",
				    why.msg);
	return 0;
}

/* Same length (or v3: no amdhsa.target to change): a copy, patched. */
static int copy_patched(const uint8_t *p, size_t n, const struct plan *pl, uint8_t **out,
			size_t *out_len, struct rdc_diag *d)
{
	uint8_t *c = malloc(n ? n : 1);
	if (!c)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	memcpy(c, p, n);
	put_le32(c + RDC_EHDR_FLAGS_OFF, pl->new_flags);
	for (size_t i = 0; pl->have_str && i < pl->ns.n; i++)
		memcpy(c + pl->str_at[i], pl->new_target, pl->str_len);
	*out = c;
	*out_len = n;
	return 0;
}

/* The notes re-encoded for the new target ([i]: note i's desc). */
struct renotes {
	size_t n;
	uint8_t **desc;
	size_t *len;
};

static void renotes_free(struct renotes *r)
{
	for (size_t i = 0; r->desc && i < r->n; i++)
		free(r->desc[i]);
	free(r->desc);
	free(r->len);
}

static int reencode_all(const uint8_t *p, const struct plan *pl, struct renotes *r,
			struct rdc_diag *d)
{
	r->n = pl->ns.n;
	r->desc = calloc(r->n, sizeof *r->desc);
	r->len = calloc(r->n, sizeof *r->len);
	if (!r->desc || !r->len)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	const struct rdc_co_note_loc *L0 = &pl->ns.v[0];
	for (size_t i = 0; i < r->n; i++) {
		const struct rdc_co_note_loc *L = &pl->ns.v[i];
		if (L->seg_offset != L0->seg_offset || L->seg_size != L0->seg_size ||
		    L->from_phdr != L0->from_phdr || L->phdr_index != L0->phdr_index)
			return rdc_diag_set(d, RDC_E_UNSUPPORTED, L->note_offset,
					    "retarget: metadata notes in more than one note segment "
					    "and the target's length changes: not handled");
		int rc = rdc_co_meta_reencode(p + L->desc_offset, L->desc_size, L->desc_offset,
					      pl->new_target, &r->desc[i], &r->len[i], d);
		if (rc)
			return rc;
		if (r->len[i] > UINT32_MAX)
			return rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET, "retarget: metadata too large");
	}
	return 0;
}

/* The target's length changes: every note re-encoded, the note segment
 * rebuilt around them and appended; PT_NOTE and the section repointed. */
static int rebuild_notes(const uint8_t *p, size_t n, const struct plan *pl,
			 const struct rdc_target *to, uint8_t **out, size_t *out_len,
			 struct rdc_diag *d)
{
	struct renotes r = { 0 };
	int rc = reencode_all(p, pl, &r, d);
	if (rc)
		goto out;
	const struct rdc_co_note_loc *L0 = &pl->ns.v[0];
	size_t a = L0->align == 8 ? 8 : 4;
	size_t desc_at = align_up(12 + 7, a); /* nhdr, "AMDGPU\0", padding */
	size_t blob = (size_t)L0->seg_size;
	for (size_t i = 0; i < r.n; i++)
		blob = blob - (size_t)pl->ns.v[i].note_size + desc_at + align_up(r.len[i], a);
	size_t new_off = align_up(n, 8);
	size_t total = new_off + blob;
	uint8_t *c = calloc(1, total);
	if (!c) {
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		goto out;
	}
	memcpy(c, p, n);
	uint8_t *w = c + new_off;
	uint64_t cur = L0->seg_offset;
	for (size_t i = 0; i < r.n; i++) {
		const struct rdc_co_note_loc *L = &pl->ns.v[i];
		memcpy(w, p + cur, (size_t)(L->note_offset - cur));
		w += L->note_offset - cur;
		put_le32(w, 7);
		put_le32(w + 4, (uint32_t)r.len[i]);
		put_le32(w + 8, RDC_NT_AMDGPU_METADATA);
		memcpy(w + 12, "AMDGPU", 7);
		memcpy(w + desc_at, r.desc[i], r.len[i]);
		w += desc_at + align_up(r.len[i], a);
		cur = L->note_offset + L->note_size;
	}
	memcpy(w, p + cur, (size_t)(L0->seg_offset + L0->seg_size - cur));

	put_le32(c + RDC_EHDR_FLAGS_OFF, pl->new_flags);
	if (L0->from_phdr) {
		Elf64_Phdr ph;
		uint8_t *at = c + pl->h.e_phoff + L0->phdr_index * sizeof ph;
		memcpy(&ph, at, sizeof ph);
		ph.p_offset = new_off;
		ph.p_vaddr = ph.p_paddr = 0;
		ph.p_filesz = ph.p_memsz = blob;
		memcpy(at, &ph, sizeof ph);
	}
	if (pl->has_section) {
		Elf64_Shdr sh;
		uint8_t *at = c + pl->h.e_shoff + pl->shdr_index * sizeof sh;
		memcpy(&sh, at, sizeof sh);
		sh.sh_offset = new_off + (pl->sec_offset - L0->seg_offset);
		/* every note lies in the section (find_note_section) */
		sh.sh_size = blob - (L0->seg_size - pl->sec_size);
		sh.sh_addr = 0;
		sh.sh_flags &= ~(uint64_t)SHF_ALLOC;
		memcpy(at, &sh, sizeof sh);
	}
	rc = check_output(c, total, to, pl, d);
	if (rc) {
		free(c);
		goto out;
	}
	*out = c;
	*out_len = total;
out:
	renotes_free(&r);
	return rc;
}

int rdc_codeobj_retarget(const void *p, size_t n, const struct rdc_target *to, uint8_t **out,
			 size_t *out_len, struct rdc_diag *d)
{
	struct plan pl;
	if (!out || !out_len)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "retarget: no output");
	*out = NULL;
	*out_len = 0;
	int rc = make_plan(p, n, to, true, &pl, d);
	if (rc)
		return rc;
	if (!pl.have_str || pl.str_len == pl.new_target_len)
		rc = copy_patched(p, n, &pl, out, out_len, d);
	else
		rc = rebuild_notes(p, n, &pl, to, out, out_len, d);
	plan_free(&pl);
	return rc;
}
