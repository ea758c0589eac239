/* SPDX-License-Identifier: MIT */
/*
 * codeobj_notes.c — a code object's metadata notes read as one, the way
 * comgr merges them.
 *
 * The linker keeps every input's NT_AMDGPU_METADATA note: a code object
 * linked from N objects carries N notes.  rocBLAS's Tensile .co files are
 * kernels assembled one by one and linked (534 notes in
 * TensileLibrary_Type_SS_Contraction_l_Alik_Bljk_Cijk_Dijk_gfx1030.co of
 * rocBLAS 6.4.4).  comgr (comgr-metadata.cpp: getElfMetadataRoot,
 * processNote, mergeNoteRecords) reads every note and appends each one's
 * amdhsa.kernels to the first's when amdhsa.version agrees; the merged root
 * keeps the first note's amdhsa.target.  So the kernels a runtime knows are
 * every note's, and a check of the first note alone would pass 533 kernels
 * unseen.
 *
 * Here every note is read, its kernels appended in note order, and its
 * amdhsa.target span kept (co->note_target_offsets) so that a retarget
 * patches all of them.  Notes that disagree on amdhsa.target or
 * amdhsa.version are refused: comgr would label kernels built for one
 * target with another's name, or drop them; a linker's output never has
 * them.
 */
#include <stdlib.h>
#include <string.h>

#include "codeobj_internal.h"

static int alloc_offsets(struct rdc_codeobj *co, size_t n, struct rdc_diag *d)
{
	co->note_target_offsets = calloc(n ? n : 1, sizeof *co->note_target_offsets);
	if (!co->note_target_offsets)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	co->n_notes = n;
	return 0;
}

static int disagree(const struct rdc_co_notes *ns, size_t i, const char *what, const char *then,
		    struct rdc_diag *d)
{
	return rdc_diag_set(d, RDC_E_UNSUPPORTED, ns->v[i].desc_offset,
			    "metadata note %zu of %zu: its %s differs from the first note's%s", i + 1,
			    ns->n, what, then);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Move from's kernels to the end of co's (*cap: co->kernels' room). */
static int take_kernels(struct rdc_codeobj *co, size_t *cap, struct rdc_codeobj *from,
			struct rdc_diag *d)
{
	size_t need = co->n_kernels + from->n_kernels;
	if (need > *cap) {
		size_t c = *cap ? *cap : 8;
		while (c < need)
			c *= 2;
		struct rdc_kernel *k = realloc(co->kernels, c * sizeof *k);
		if (!k)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		co->kernels = k;
		*cap = c;
	}
	if (from->n_kernels)
		memcpy(co->kernels + co->n_kernels, from->kernels, from->n_kernels * sizeof *from->kernels);
	co->n_kernels = need;
	free(from->kernels);
	from->kernels = NULL;
	from->n_kernels = 0;
	return 0;
}

int rdc_co_read_notes_decoded(const void *p, const struct rdc_co_notes *ns, unsigned flags,
			      struct rdc_codeobj *co, struct rdc_diag *d)
{
	const uint8_t *b = p;
	int rc = alloc_offsets(co, ns->n, d);
	if (rc)
		return rc;
	const struct rdc_co_note_loc *L = &ns->v[0];
	rc = rdc_co_decode_metadata(b + L->desc_offset, L->desc_size, L->desc_offset, flags, co, d);
	if (rc)
		return rc;
	co->note_target_offsets[0] = co->meta_target_offset;
	size_t cap = co->n_kernels;
	for (size_t i = 1; i < ns->n && !rc; i++) {
		struct rdc_codeobj more;
		memset(&more, 0, sizeof more);
		L = &ns->v[i];
		rc = rdc_co_decode_metadata(b + L->desc_offset, L->desc_size, L->desc_offset, flags,
					    &more, d);
		if (!rc && !same_str(more.meta_target, co->meta_target))
			rc = disagree(ns, i, "amdhsa.target", "", d);
		else if (!rc && memcmp(more.meta_version, co->meta_version, sizeof co->meta_version))
			rc = disagree(ns, i, "amdhsa.version", "", d);
		if (!rc) {
			co->note_target_offsets[i] = more.meta_target_offset;
			rc = take_kernels(co, &cap, &more, d);
		}
		rdc_codeobj_free(&more);
	}
	return rc;
}

int rdc_co_read_notes_tails(const void *p, const struct rdc_co_notes *ns, struct rdc_codeobj *co,
			    struct rdc_diag *d)
{
	const uint8_t *b = p;
	int rc = alloc_offsets(co, ns->n, d);
	if (rc)
		return rc;
	for (size_t i = 0; i < ns->n; i++) {
		const struct rdc_co_note_loc *L = &ns->v[i];
		size_t so = 0, sl = 0;
		uint32_t v[2] = { 0, 0 };
		if (!rdc_co_meta_target_tail(b + L->desc_offset, L->desc_size, &so, &sl, v))
			return rdc_diag_set(d, RDC_E_UNSUPPORTED, L->desc_offset,
					    "metadata note %zu of %zu does not end as LLVM writes it "
					    "(amdhsa.target, amdhsa.version): decode it instead", i + 1,
					    ns->n);
		uint64_t at = L->desc_offset + so;
		if (i == 0) {
			co->meta_target = strndup((const char *)b + at, sl);
			if (!co->meta_target)
				return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
			co->meta_target_offset = at;
			co->meta_target_len = (uint32_t)sl;
			memcpy(co->meta_version, v, sizeof v);
		} else if (sl != co->meta_target_len || memcmp(b + at, co->meta_target, sl) != 0) {
			return disagree(ns, i, "amdhsa.target", ": decode it instead", d);
		} else if (memcmp(v, co->meta_version, sizeof v) != 0) {
			return disagree(ns, i, "amdhsa.version", ": decode it instead", d);
		}
		co->note_target_offsets[i] = at;
	}
	return 0;
}
