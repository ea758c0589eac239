/* SPDX-License-Identifier: MIT */
/*
 * remap.c — builds the bundle the runtime gets instead of the caller's:
 * every original entry plus one added entry per device target that needs a
 * retargeted code object.  Never writes the caller's memory.
 *
 * File-backed bundles (a library's .hip_fatbin) keep the memory goal: one
 * reserved region holds
 *     [new header, anonymous pages]
 *     [the original bundle bytes: MAP_PRIVATE mapping of the library file]
 *     [per added entry: another MAP_PRIVATE mapping of that code object's
 *      file range, with only the pages rdc_codeobj_retarget_patches touches
 *      made private]
 * so the added resident memory is the header plus the patched pages.  When
 * the retarget cannot be expressed as patches the added entry is a copy.
 * Images from hipModuleLoadData (rdc_remap_copy) are rebuilt into one heap
 * buffer that is freed with the module.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rdnacompat/codeobj.h"
#include "shim.h"

#define MAX_PATCHES 64

static size_t page_size(void)
{
	static size_t ps;
	if (!ps) {
		long v = sysconf(_SC_PAGESIZE);
		ps = v > 0 ? (size_t)v : 4096;
	}
	return ps;
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

const void *rdc_map_file_range(const char *path, uint64_t off, uint64_t len, void **map_base,
			       size_t *map_len)
{
	size_t ps = page_size();
	int fd = rdc_sys_open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	uint64_t start = off / ps * ps;
	uint64_t delta = off - start;
	size_t ml = (size_t)round_up(delta + len, ps);
	void *m = mmap(NULL, ml, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*map_base = m;
	*map_len = ml;
	return (const uint8_t *)m + delta;
}

void rdc_region_free(struct rdc_region *r)
{
	rdc_image_forget(r->bundle);
	if (r->base)
		munmap(r->base, r->len);
	free(r->heap);
	memset(r, 0, sizeof *r);
}

struct add_plan {
	uint64_t src_off;        /* entry offset in the source bundle */
	uint64_t size;
	struct rdc_patch patches[MAX_PATCHES];
	size_t n_patches;        /* valid when copy == NULL */
	uint8_t *copy;           /* retargeted copy (patches unsupported) */
	size_t copy_len;
	uint64_t slot, slot_len, delta; /* placement in the region */
};

int rdc_remap_file(const struct rdc_bundle *b, const char *path, uint64_t file_offset,
		   const struct rdc_add *add, size_t n_add, struct rdc_region *out,
		   struct rdc_diag *d)
{
	size_t ps = page_size();
	int rc = 0;
	struct add_plan *plan = calloc(n_add ? n_add : 1, sizeof *plan);
	struct rdc_hdr_entry *he = calloc(b->n_entries + n_add, sizeof *he);
	int fd = -1;
	void *base = MAP_FAILED;
	size_t total = 0;
	memset(out, 0, sizeof *out);
	if (!plan || !he) {
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory planning the rebuild");
		goto out;
	}
	if (b->compressed) {
		rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, 0, "compressed bundle: not file-mappable");
		goto out;
	}
	/* 1. What each added entry needs: patches (preferred) or a copy. */
	for (size_t k = 0; k < n_add; k++) {
		const struct rdc_bundle_entry *e = &b->entries[add[k].from];
		struct add_plan *p = &plan[k];
		p->src_off = e->offset;
		p->size = e->size;
		p->n_patches = MAX_PATCHES;
		struct rdc_diag pd = { 0 };
		int prc = 0;
		if (add[k].have_patches && add[k].n_patches <= RDC_ADD_PATCHES) {
			/* Computed by the decision from its parse (or cached). */
			p->n_patches = add[k].n_patches;
			memcpy(p->patches, add[k].patches, add[k].n_patches * sizeof *p->patches);
		} else {
			prc = rdc_codeobj_retarget_patches(e->data, e->size, &add[k].to, p->patches,
							   &p->n_patches, &pd);
		}
		if (prc != 0) {
			p->n_patches = 0;
			size_t len = 0;
			prc = rdc_codeobj_retarget(e->data, e->size, &add[k].to, &p->copy, &len, d);
			if (prc != 0) {
				rc = prc;
				goto out;
			}
			p->copy_len = len;
			rdc_logf(RDC_LOG_DEBUG, "entry %ld: in-place patches unavailable (%s); copying "
				 "%zu bytes", add[k].from, pd.msg, len);
		}
	}
	/* 2. Layout. */
	uint64_t src_start = file_offset / ps * ps;
	uint64_t src_delta = file_offset - src_start;
	uint64_t src_len = round_up(src_delta + b->extent, ps);
	size_t nh = 0;
	for (size_t i = 0; i < b->n_entries; i++, nh++) {
		he[nh].size = b->entries[i].size;
		he[nh].id = b->entries[i].id;
		he[nh].id_len = b->entries[i].id_len;
	}
	for (size_t k = 0; k < n_add; k++, nh++) {
		he[nh].id = add[k].id;
		he[nh].id_len = strlen(add[k].id);
		he[nh].size = plan[k].copy ? plan[k].copy_len : plan[k].size;
	}
	uint64_t hdr = rdc_hdr_size(he, nh);
	uint64_t hdr_len = round_up(hdr, ps);
	uint64_t pos = hdr_len + src_len;
	for (size_t k = 0; k < n_add; k++) {
		struct add_plan *p = &plan[k];
		p->slot = pos;
		if (p->copy) {
			p->delta = 0;
			p->slot_len = round_up(p->copy_len, ps);
		} else {
			uint64_t fo = file_offset + p->src_off;
			p->delta = fo - fo / ps * ps;
			p->slot_len = round_up(p->delta + p->size, ps);
		}
		pos += p->slot_len;
	}
	total = (size_t)pos;
	for (size_t i = 0; i < b->n_entries; i++)
		he[i].offset = hdr_len + src_delta + b->entries[i].offset;
	for (size_t k = 0; k < n_add; k++)
		he[b->n_entries + k].offset = plan[k].slot + plan[k].delta;

	/* 3. Materialise. */
	fd = rdc_sys_open(path, O_RDONLY);
	if (fd < 0) {
		rc = rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "open %s: %s", path, strerror(errno));
		goto out;
	}
	base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		goto io_err;
	uint8_t *R = base;
	if (mmap(R, hdr_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED)
		goto io_err;
	if (mmap(R + hdr_len, src_len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, (off_t)src_start) ==
	    MAP_FAILED)
		goto io_err;
	size_t private_bytes = hdr_len;
	for (size_t k = 0; k < n_add; k++) {
		struct add_plan *p = &plan[k];
		uint8_t *slot = R + p->slot;
		if (p->copy) {
			if (mmap(slot, p->slot_len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
				goto io_err;
			memcpy(slot, p->copy, p->copy_len);
			private_bytes += p->slot_len;
		} else {
			uint64_t fo = file_offset + p->src_off;
			if (mmap(slot, p->slot_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
				 (off_t)(fo / ps * ps)) == MAP_FAILED)
				goto io_err;
			uint64_t last_page = UINT64_MAX;
			for (size_t j = 0; j < p->n_patches; j++) {
				const struct rdc_patch *pt = &p->patches[j];
				if (!rdc_in_bounds(pt->offset, pt->len, p->size) || pt->len > sizeof pt->bytes) {
					rc = rdc_diag_set(d, RDC_E_RANGE, pt->offset,
							  "patch outside the code object");
					goto out;
				}
				memcpy(slot + p->delta + pt->offset, pt->bytes, pt->len);
				for (uint64_t a = (p->delta + pt->offset) / ps;
				     a <= (p->delta + pt->offset + (pt->len ? pt->len - 1 : 0)) / ps; a++)
					if (a != last_page) {
						private_bytes += ps;
						last_page = a;
					}
			}
		}
		mprotect(slot, p->slot_len, PROT_READ);
	}
	rc = rdc_hdr_write(he, nh, R, hdr_len);
	if (rc) {
		rdc_diag_set(d, rc, RDC_NO_OFFSET, "bundle header does not fit");
		goto out;
	}
	mprotect(R, hdr_len, PROT_READ);
	out->base = base;
	out->len = total;
	out->bundle = R;
	out->bundle_size = total;
	rdc_image_known(R, total);
	out->private_bytes = private_bytes;
	out->file_mapped = true;
	base = MAP_FAILED;
	goto out;
io_err:
	rc = rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "mapping %s: %s", path, strerror(errno));
out:
	if (base != MAP_FAILED)
		munmap(base, total);
	if (fd >= 0)
		close(fd);
	for (size_t k = 0; plan && k < n_add; k++)
		free(plan[k].copy);
	free(plan);
	free(he);
	return rc;
}

int rdc_remap_copy(const struct rdc_bundle *b, const struct rdc_add *add, size_t n_add,
		   struct rdc_region *out, struct rdc_diag *d)
{
	size_t n = b->n_entries + n_add;
	struct rdc_bundle_input *in = calloc(n ? n : 1, sizeof *in);
	char **ids = calloc(n ? n : 1, sizeof *ids);
	uint8_t **copies = calloc(n_add ? n_add : 1, sizeof *copies);
	int rc = 0;
	memset(out, 0, sizeof *out);
	if (!in || !ids || !copies) {
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < b->n_entries; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		ids[i] = strndup(e->id, e->id_len);
		if (!ids[i]) {
			rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
			goto out;
		}
		in[i] = (struct rdc_bundle_input){ ids[i], e->data, e->size };
	}
	for (size_t k = 0; k < n_add; k++) {
		const struct rdc_bundle_entry *e = &b->entries[add[k].from];
		size_t len = 0;
		rc = rdc_codeobj_retarget(e->data, e->size, &add[k].to, &copies[k], &len, d);
		if (rc)
			goto out;
		in[b->n_entries + k] = (struct rdc_bundle_input){ add[k].id, copies[k], len };
	}
	uint8_t *buf = NULL;
	size_t len = 0;
	rc = rdc_bundle_write(in, n, 4096, &buf, &len, d);
	if (rc)
		goto out;
	out->heap = buf;
	out->bundle = buf;
	out->bundle_size = len;
	rdc_image_known(buf, len);
	out->private_bytes = len;
out:
	for (size_t i = 0; ids && i < b->n_entries; i++)
		free(ids[i]);
	for (size_t k = 0; copies && k < n_add; k++)
		free(copies[k]);
	free(ids);
	free(copies);
	free(in);
	return rc;
}
