/* SPDX-License-Identifier: MIT */
/*
 * codeobj_walk.c — the code objects of a file and their .text: a thin walk
 * over the core's container and bundle readers (rdc_container_open,
 * rdc_bundle_scan) and a bounds-checked read of the ELF section headers.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/codeobj.h"
#include "rdnacompat/container.h"

#include "codeobj_walk.h"

struct walk {
	rdc_co_walk_fn fn;
	void *arg;
	uint64_t base;
	int rc;
};

static void fill_proc(struct rdc_co_ref *r)
{
	r->proc[0] = 0;
	if (r->size >= sizeof(Elf64_Ehdr)) {
		Elf64_Ehdr eh;
		memcpy(&eh, r->data, sizeof eh);
		const char *p = rdc_mach_to_proc((uint8_t)(eh.e_flags & 0xff));
		if (p)
			snprintf(r->proc, sizeof r->proc, "%s", p);
	}
}

static int on_bundle(size_t index, uint64_t offset, const struct rdc_bundle *b, void *arg)
{
	struct walk *w = arg;
	for (size_t i = 0; i < b->n_entries; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		if (!e->data || !rdc_is_codeobj(e->data, e->size))
			continue;
		struct rdc_co_ref r = {
			.bundle = (long)index, .entry = (long)i, .id = e->id, .id_len = e->id_len,
			.data = e->data, .size = e->size,
			.file_offset = b->compressed ? UINT64_MAX : w->base + offset + e->offset,
		};
		fill_proc(&r);
		int rc = w->fn(&r, w->arg);
		if (rc) {
			w->rc = rc;
			return rc;
		}
	}
	return 0;
}

int rdc_co_walk(const char *path, rdc_co_walk_fn fn, void *arg, struct rdc_diag *d)
{
	struct rdc_container ct;
	int rc = rdc_container_open(path, &ct, d);
	if (rc) {
		rdc_container_close(&ct);
		return rc;
	}
	struct walk w = { fn, arg, ct.offset, 0 };
	if (ct.kind == RDC_CONT_CODE_OBJECT) {
		struct rdc_co_ref r = { .bundle = -1, .entry = -1, .id = "", .data = ct.data, .size = ct.size,
					.file_offset = 0 };
		fill_proc(&r);
		rc = fn(&r, arg);
	} else if ((ct.kind == RDC_CONT_HOST_ELF || ct.kind == RDC_CONT_BUNDLE) && ct.data && ct.size) {
		rc = rdc_bundle_scan(ct.data, ct.size, on_bundle, &w, d);
		if (w.rc)
			rc = w.rc;
	}
	rdc_container_close(&ct);
	return rc;
}

int rdc_co_text(const uint8_t *co, size_t n, const uint8_t **text, size_t *len, uint64_t *addr,
		struct rdc_diag *d)
{
	Elf64_Ehdr eh;
	if (!rdc_is_codeobj(co, n) || n < sizeof eh)
		return rdc_diag_set(d, RDC_E_FORMAT, 0, "not an AMDGPU ELF");
	memcpy(&eh, co, sizeof eh);
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
	    !rdc_in_bounds(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), n))
		return rdc_diag_set(d, RDC_E_RANGE, 0, "section headers outside the code object");
	Elf64_Shdr str;
	memcpy(&str, co + eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof str, sizeof str);
	if (!rdc_in_bounds(str.sh_offset, str.sh_size, n))
		return rdc_diag_set(d, RDC_E_RANGE, eh.e_shoff, "section name table outside the code object");
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		memcpy(&sh, co + eh.e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
		if (sh.sh_name >= str.sh_size || str.sh_size - sh.sh_name < 6 ||
		    memcmp(co + str.sh_offset + sh.sh_name, ".text", 6))
			continue;
		if (sh.sh_type != SHT_PROGBITS || !rdc_in_bounds(sh.sh_offset, sh.sh_size, n))
			return rdc_diag_set(d, RDC_E_RANGE, eh.e_shoff, ".text outside the code object");
		*text = co + sh.sh_offset;
		*len = sh.sh_size;
		*addr = sh.sh_addr;
		return 0;
	}
	return rdc_diag_set(d, RDC_E_NOTFOUND, 0, "no .text section");
}

unsigned rdc_co_engine_gen(const char *proc)
{
	if (!strncmp(proc, "gfx103", 6) || !strcmp(proc, "gfx10-3-generic"))
		return 10;
	if (!strncmp(proc, "gfx11", 5))
		return 11;
	return 0;
}
