/* SPDX-License-Identifier: MIT */
/*
 * codeobj_hide.c — held kernels: the in-place patches that keep a runtime
 * from finding some kernels of a code object by name, leaving the others
 * as they are (rdc_codeobj_hide_patches, codeobj.h).
 *
 * A runtime finds a kernel by name twice: CLR reads each kernel of the
 * metadata note (".name", what hipModuleGetFunction and a registered host
 * stub's device name are matched against; ".symbol", the descriptor's
 * symbol it then looks up in the loaded executable), and ROCR resolves that
 * ".symbol" through the ELF symbol tables.  Renaming a kernel consistently
 * in all three — the metadata's .name and .symbol, the symbol tables'
 * "<name>" and "<name>.kd" — leaves a code object every runtime loads whole,
 * in which that kernel answers to no name a program knows: a launch of it
 * fails as for a kernel the card has no code for (hipErrorInvalidDeviceFunction,
 * hipModuleGetFunction: hipErrorNotFound), the other kernels run.  Each name
 * changes in its first byte only ('!', which neither C identifiers nor the
 * Itanium mangling use), so every offset and length stays.
 *
 * Refused (RDC_E_UNSUPPORTED, with why) rather than guessed: a name in no
 * or several kernel maps, a descriptor symbol in no symbol table, a string
 * a linker shares with another symbol's or a section's name (tail merging:
 * the byte would rename that one too), or a new name another symbol
 * already has.  The caller then refuses the whole object, as without holds.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"

#define HIDE_BYTE '!'
#define HIDE_ALT '?'

/* One string to rename in a string table: [off, off + len) of the table. */
struct hide_str {
	uint64_t off, len;
	uint8_t to;      /* the new first byte */
};

static uint8_t new_first(const char *s)
{
	return (uint8_t)(s[0] == HIDE_BYTE ? HIDE_ALT : HIDE_BYTE);
}

/* Is `name` with its first byte replaced by `to` equal to `other`? */
static bool renamed_equals(const char *name, uint8_t to, const char *other)
{
	return other[0] == (char)to && name[0] && !strcmp(name + 1, other + 1);
}

static bool wanted(const char *s, const char *const *names, const struct rdc_co_kernel_ref *refs, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (!strcmp(s, names[i]) || !strcmp(s, refs[i].symbol))
			return true;
	return false;
}

static int add_patch(struct rdc_patch **pt, size_t *np, size_t *cap, uint64_t off, uint8_t byte,
		     struct rdc_diag *d)
{
	for (size_t i = 0; i < *np; i++)
		if ((*pt)[i].offset == off)
			return 0;   /* two symbols with one string: one byte */
	if (*np == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct rdc_patch *n = realloc(*pt, nc * sizeof *n);
		if (!n)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		*pt = n;
		*cap = nc;
	}
	struct rdc_patch *p = &(*pt)[(*np)++];
	memset(p, 0, sizeof *p);
	p->offset = off;
	p->len = 1;
	p->bytes[0] = byte;
	return 0;
}

/* The names of one symbol table (`sh`, strings in section sh_link) to
 * rename, checked against every other name in that string table: the
 * symbols' and, when the table is also the section-name table, the
 * sections'.  *found[i]: kernel i's descriptor symbol is in this table. */
static int hide_in_table(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, size_t shstrndx, const void *p,
			 size_t n, const char *const *names, const struct rdc_co_kernel_ref *refs, size_t k,
			 bool *found, struct rdc_patch **pt, size_t *np, size_t *cap, struct rdc_diag *d)
{
	if (sh->sh_entsize != sizeof(Elf64_Sym) || !rdc_in_bounds(sh->sh_offset, sh->sh_size, n))
		return rdc_diag_set(d, RDC_E_FORMAT, sh->sh_offset, "symbol table unreadable");
	Elf_Scn *strscn = elf_getscn(e, sh->sh_link);
	GElf_Shdr ssh;
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!strscn || !gelf_getshdr(strscn, &ssh) || !data ||
	    !rdc_in_bounds(ssh.sh_offset, ssh.sh_size, n))
		return rdc_diag_set(d, RDC_E_FORMAT, sh->sh_offset, "symbol table's strings unreadable");
	const char *strs = (const char *)p + ssh.sh_offset;
	size_t count = sh->sh_size / sizeof(Elf64_Sym);
	/* pass 0: what to rename; pass 1: check every other name against it */
	struct hide_str *hs = NULL;
	size_t nh = 0;
	int rc = 0;
	for (int pass = 0; pass < 2 && !rc; pass++) {
		for (size_t i = 0; i < count && !rc; i++) {
			GElf_Sym s;
			if (!gelf_getsym(data, (int)i, &s) || s.st_name == 0 || s.st_name >= ssh.sh_size)
				continue;
			const char *name = strs + s.st_name;
			size_t l = strnlen(name, ssh.sh_size - s.st_name);
			if (l == ssh.sh_size - s.st_name)
				continue;   /* not terminated inside the table */
			bool mine = wanted(name, names, refs, k);
			if (pass == 0) {
				if (!mine)
					continue;
				struct hide_str *x = realloc(hs, (nh + 1) * sizeof *hs);
				if (!x) {
					rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
					break;
				}
				hs = x;
				hs[nh++] = (struct hide_str){ s.st_name, l, new_first(name) };
				for (size_t j = 0; j < k; j++)
					if (!strcmp(name, refs[j].symbol))
						found[j] = true;
				continue;
			}
			for (size_t h = 0; h < nh && !rc; h++) {
				const char *hn = strs + hs[h].off;
				bool same = s.st_name == hs[h].off;
				if (!same && hs[h].off >= s.st_name && hs[h].off < s.st_name + l)
					rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, ssh.sh_offset + hs[h].off,
							  "symbol %s shares its name's bytes with %s", hn, name);
				else if (!same && !mine && renamed_equals(hn, hs[h].to, name))
					rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, ssh.sh_offset + hs[h].off,
							  "renamed, %s would be named as symbol %s is", hn, name);
			}
		}
	}
	/* renamed names among themselves, and section names sharing the table */
	for (size_t a = 0; a < nh && !rc; a++)
		for (size_t b = a + 1; b < nh && !rc; b++)
			if (hs[a].off != hs[b].off && strcmp(strs + hs[a].off, strs + hs[b].off) &&
			    hs[a].to == hs[b].to && !strcmp(strs + hs[a].off + 1, strs + hs[b].off + 1))
				rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, ssh.sh_offset + hs[a].off,
						  "renamed, %s and %s would have one name", strs + hs[a].off,
						  strs + hs[b].off);
	if (!rc && sh->sh_link == shstrndx) {
		Elf_Scn *x = NULL;
		while (!rc && (x = elf_nextscn(e, x)) != NULL) {
			GElf_Shdr xs;
			if (!gelf_getshdr(x, &xs) || xs.sh_name >= ssh.sh_size)
				continue;
			size_t l = strnlen(strs + xs.sh_name, ssh.sh_size - xs.sh_name);
			for (size_t h = 0; h < nh && !rc; h++)
				if (hs[h].off >= xs.sh_name && hs[h].off <= xs.sh_name + l)
					rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, ssh.sh_offset + hs[h].off,
							  "symbol %s shares its name's bytes with a section name",
							  strs + hs[h].off);
		}
	}
	for (size_t h = 0; h < nh && !rc; h++)
		rc = add_patch(pt, np, cap, ssh.sh_offset + hs[h].off, hs[h].to, d);
	free(hs);
	return rc;
}

int rdc_codeobj_hide_patches(const void *p, size_t n, const char *const *names, size_t k,
			     struct rdc_patch **patches, size_t *n_patches, struct rdc_diag *d)
{
	*patches = NULL;
	*n_patches = 0;
	if (!k)
		return 0;
	struct rdc_co_kernel_ref *refs = calloc(k, sizeof *refs);
	bool *found = calloc(k, sizeof *found);
	struct rdc_patch *pt = NULL;
	size_t np = 0, cap = 0;
	Elf *e = NULL;
	struct rdc_co_notes ns = { 0 };
	int rc = refs && found ? 0 : rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	if (!rc)
		rc = rdc_co_elf_open(p, n, &e, d);
	if (!rc)
		rc = rdc_co_find_metadata_notes(e, n, &ns, d);
	for (size_t i = 0; !rc && i < ns.n; i++)
		rc = rdc_co_meta_kernel_refs((const uint8_t *)p + ns.v[i].desc_offset, (size_t)ns.v[i].desc_size,
					     ns.v[i].desc_offset, names, k, refs, d);
	for (size_t i = 0; !rc && i < k; i++) {
		if (refs[i].count != 1 || refs[i].unusable)
			rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET,
					  "kernel %s is named by %u kernel entries of the metadata%s", names[i],
					  refs[i].count, refs[i].unusable ? ", one without a usable .symbol" : "");
		else if (!strcmp(refs[i].symbol, names[i]))
			rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET,
					  "kernel %s: its .symbol is its name", names[i]);
	}
	for (size_t i = 0; !rc && i < k; i++) {
		const char *nm = names[i], *sy = refs[i].symbol;
		if (!(rc = add_patch(&pt, &np, &cap, refs[i].name_off, new_first(nm), d)))
			rc = add_patch(&pt, &np, &cap, refs[i].symbol_off, new_first(sy), d);
	}
	size_t shstrndx = 0;
	if (!rc && elf_getshdrstrndx(e, &shstrndx) != 0)
		rc = rdc_diag_set(d, RDC_E_FORMAT, 0, "libelf: section name table: %s", elf_errmsg(-1));
	Elf_Scn *scn = NULL;
	while (!rc && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			rc = rdc_diag_set(d, RDC_E_FORMAT, 0, "libelf: section header: %s", elf_errmsg(-1));
		else if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			rc = hide_in_table(e, scn, &sh, shstrndx, p, n, names, refs, k, found, &pt, &np, &cap, d);
	}
	for (size_t i = 0; !rc && i < k; i++)
		if (!found[i])
			rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET,
					  "kernel %s: its descriptor %s is in no symbol table", names[i],
					  refs[i].symbol);
	if (e)
		elf_end(e);
	rdc_co_notes_free(&ns);
	free(refs);
	free(found);
	if (rc) {
		free(pt);
		return rc;
	}
	*patches = pt;
	*n_patches = np;
	return 0;
}
