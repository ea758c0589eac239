/* SPDX-License-Identifier: MIT */
/*
 * remap.c — builds the bundle the runtime gets instead of the caller's:
 * every original entry plus one added entry per device target that needs a
 * retargeted code object.  Never writes the caller's memory.
 *
 * File-backed bundles (a library's .hip_fatbin) keep the memory goal: the
 * new header goes to the header arena (remap_arena.c: low in the address
 * space, so HIP's maps scans stop there) or, when the arena cannot take
 * it, leads the region; one reserved region holds
 *     [new header, anonymous pages — only without the arena]
 *     [the original bundle bytes: MAP_PRIVATE mapping of the library file,
 *      only when some device still needs an original entry]
 *     [per added entry: another MAP_PRIVATE mapping of that code object's
 *      file range, with only the pages rdc_codeobj_retarget_patches touches
 *      made private]
 * so the added resident memory is the header plus the patched pages.  When
 * the retarget cannot be expressed as patches the added entry is a copy.
 *
 * When every device gets an added entry (one unsupported card: the common
 * case) the original entries are left out: the runtime would never load
 * them, and each mapping is a line HIP >= 6 reads through in /proc/self/maps
 * for every fat binary it digests (amd::Os::FindFileNameFromAddress) — a
 * bundle of header + one entry cut llama-bench's time to its first kernel
 * under the shim by ~30 % (docs/PERF.md).
 * Images from hipModuleLoadData (rdc_remap_copy) are rebuilt into one heap
 * buffer that is freed with the module.  When a `prefer` rule chose another
 * target's entry over the device's own (rdc_add.drop_own), the originals of
 * the device's processor are left out, so the runtime finds only the added
 * entry under the device's id.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/fileopen.h"
#include "shim.h"

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

const void *rdc_map_fd_range(int fd, uint64_t off, uint64_t len, void **map_base, size_t *map_len)
{
	size_t ps = page_size();
	uint64_t start = off / ps * ps;
	uint64_t delta = off - start;
	size_t ml = (size_t)round_up(delta + len, ps);
	void *m = mmap(NULL, ml, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
	if (m == MAP_FAILED)
		return NULL;
	*map_base = m;
	*map_len = ml;
	return (const uint8_t *)m + delta;
}

const void *rdc_map_file_range(const char *path, uint64_t off, uint64_t len, void **map_base,
			       size_t *map_len)
{
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, NULL);
	if (fd < 0)
		return NULL;
	const void *p = rdc_map_fd_range(fd, off, len, map_base, map_len);
	close(fd);
	return p;
}

uint64_t rdc_region_bytes(const struct rdc_region *r)
{
	return r->hdr ? r->hdr_len + r->len : r->bundle_size;
}

/* Mappings of retired regions, unmapped together (rdc_region_drain). */
#define RETIRED_MAX 256
pthread_mutex_t rdc_retired_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */
static struct {
	void *base;
	size_t len;
} retired[RETIRED_MAX];
static size_t n_retired;

void rdc_region_drain(void)
{
	pthread_mutex_lock(&rdc_retired_lock);
	for (size_t i = 0; i < n_retired; i++)
		munmap(retired[i].base, retired[i].len);
	n_retired = 0;
	pthread_mutex_unlock(&rdc_retired_lock);
	rdc_arena_drain();
}

/* Forget r's images, give back its header and heap; its mapping is
 * unmapped now, or (`later`) queued for rdc_region_drain when there is
 * room. */
static void region_release(struct rdc_region *r, bool later)
{
	rdc_image_forget(r->bundle);
	if (r->hdr)
		rdc_image_forget(r->base);
	if (r->base && later) {
		pthread_mutex_lock(&rdc_retired_lock);
		if (n_retired < RETIRED_MAX) {
			retired[n_retired].base = r->base;
			retired[n_retired++].len = r->len;
			r->base = NULL;
		}
		pthread_mutex_unlock(&rdc_retired_lock);
	}
	if (r->base)
		munmap(r->base, r->len);
	rdc_arena_release(r->hdr, r->hdr_len, later);
	free(r->heap);
	memset(r, 0, sizeof *r);
}

void rdc_region_free(struct rdc_region *r)
{
	region_release(r, false);
}

void rdc_region_retire(struct rdc_region *r)
{
	region_release(r, true);
}

struct add_plan {
	uint64_t src_off;        /* entry offset in the source bundle */
	uint64_t size;
	struct rdc_patch *patches; /* malloc'd; valid when copy == NULL */
	size_t n_patches;
	uint8_t *copy;           /* retargeted copy (patches unsupported) */
	size_t copy_len;
	uint64_t slot, slot_len, delta; /* placement in the region */
};

/* Is original entry e left out of the rebuilt bundle: a `prefer` rule chose
 * another target's code over the device's own entry (rdc_add.drop_own), so
 * the device's processor must find only the added entry? */
static bool left_out(const struct rdc_bundle_entry *e, const struct rdc_add *add, size_t n_add)
{
	for (size_t k = 0; k < n_add; k++) {
		if (!add[k].drop_own)
			continue;
		if (e->parsed.has_target && e->parsed.kind == RDC_KIND_HIPV4) {
			if (!strcmp(e->parsed.target.proc, add[k].to.proc))
				return true;
			continue;
		}
		/* old hip-/hcc- ids: the target is the ELF header's */
		struct rdc_codeobj h;
		memset(&h, 0, sizeof h);
		if (!e->size || !e->data ||
		    rdc_codeobj_parse(e->data, (size_t)e->size, RDC_CO_HEADER_ONLY, &h, NULL) != 0)
			continue;
		bool same = !strcmp(h.target.proc, add[k].to.proc);
		rdc_codeobj_free(&h);
		if (same)
			return true;
	}
	return false;
}

bool rdc_patches_inside(const struct rdc_patch *patches, size_t n, size_t size)
{
	for (size_t k = 0; k < n; k++)
		if (!rdc_in_bounds(patches[k].offset, patches[k].len, size) ||
		    patches[k].len > sizeof patches[k].bytes)
			return false;
	return true;
}

/* Append to *patches (n of them) those that hold the decision's kernels
 * in `dst` (the entry `code` itself, or its retargeted copy): the same
 * kernels the policy held, found again from the code (counted as
 * RDC_ST_NOTES_DECODED).  A count other than the decision's is refused. */
static int add_hold(const struct rdc_add *a, const void *code, size_t code_size, const void *dst,
		    size_t dst_size, struct rdc_patch **patches, size_t *n, struct rdc_diag *d)
{
	struct rdc_patch *hp = NULL;
	size_t nh = 0, held = 0;
	rdc_stat_add(RDC_ST_NOTES_DECODED, 1);
	int rc = a->tables ? rdc_policy_hold_patches(a->tables, a->to.proc, code, code_size, dst, dst_size, &hp,
						     &nh, &held, d)
			   : rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "held kernels without the decision's tables");
	if (rc == 0 && held != a->n_held)
		rc = rdc_diag_set(d, RDC_E_REFUSED, RDC_NO_OFFSET,
				  "the decision holds %zu kernels, the code %zu: not handed over", a->n_held, held);
	struct rdc_patch *all = rc == 0 ? realloc(*patches, (*n + nh + 1) * sizeof *all) : NULL;
	if (rc == 0 && !all)
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	if (rc == 0) {
		memcpy(all + *n, hp, nh * sizeof *all);
		*patches = all;
		*n += nh;
	}
	free(hp);
	return rc;
}

int rdc_add_held_names(const struct rdc_add *a, const void *code, size_t size, char ***names, size_t *n,
		       struct rdc_diag *d)
{
	*names = NULL;
	*n = 0;
	int rc = a->tables ? rdc_policy_held_kernels(a->tables, a->to.proc, code, size, names, n, d)
			   : rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "held kernels without the decision's tables");
	if (rc == 0 && *n != a->n_held)
		rc = rdc_diag_set(d, RDC_E_REFUSED, RDC_NO_OFFSET, "the decision holds %zu kernels, the code %zu",
				  a->n_held, *n);
	if (rc) {
		free(*names);
		*names = NULL;
		*n = 0;
	}
	return rc;
}

int rdc_add_patches(const struct rdc_add *a, const void *data, size_t size, struct rdc_patch **patches,
		    size_t *n_patches, struct rdc_diag *d)
{
	int rc = 0;
	size_t n = 0;
	*patches = NULL;
	*n_patches = 0;
	if (a->have_patches && a->n_patches <= RDC_ADD_PATCHES) {
		n = a->n_patches;
		*patches = malloc((n ? n : 1) * sizeof **patches);
		if (!*patches)
			return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		memcpy(*patches, a->patches, n * sizeof **patches);
	} else {
		rdc_stat_add(RDC_ST_NOTES_DECODED, 1);
		rc = rdc_codeobj_retarget_patches_alloc(data, size, &a->to, patches, &n, d);
		if (rc == 0 && a->n_held && a->hold != RDC_HOLD_NONE)
			rc = add_hold(a, data, size, data, size, patches, &n, d);
	}
	if (rc == 0 && !rdc_patches_inside(*patches, n, size))
		rc = rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET, "a patch lies outside the code object");
	if (rc) {
		free(*patches);
		*patches = NULL;
		return rc;
	}
	*n_patches = n;
	return 0;
}

/* The patches for added entry `a` from `get` (the hooks pass
 * rdc_decided_patches, which also finds those the decision cache holds),
 * or from rdc_add_patches when `get` is NULL. */
static int entry_patches(rdc_patches_fn *get, const struct rdc_add *a, const struct rdc_bundle_entry *e,
			 struct rdc_patch **patches, size_t *n, struct rdc_diag *d)
{
	return (get ? get : rdc_add_patches)(a, e->data, e->size, patches, n, d);
}

int rdc_add_copy(const struct rdc_bundle_entry *e, const struct rdc_add *a, const char *why,
		 uint8_t **copy, size_t *len, struct rdc_diag *d)
{
	rdc_stat_add(RDC_ST_NOTES_DECODED, 1);
	int rc = rdc_codeobj_retarget(e->data, e->size, &a->to, copy, len, d);
	if (rc == 0 && a->n_held && a->hold != RDC_HOLD_NONE) {   /* renamed in the copy too */
		struct rdc_patch *hp = NULL;
		size_t nh = 0;
		rc = add_hold(a, e->data, e->size, *copy, *len, &hp, &nh, d);
		for (size_t k = 0; rc == 0 && k < nh; k++)
			memcpy(*copy + hp[k].offset, hp[k].bytes, hp[k].len);
		free(hp);
		if (rc) {
			free(*copy);
			*copy = NULL;
			*len = 0;
		}
	}
	if (rc == 0)
		rdc_logf(RDC_LOG_DEBUG, "entry %ld for %s: in-place patches unavailable (%s); copying "
			 "%zu bytes", a->from, a->to.proc, why, *len);
	return rc;
}

/* What added entry `a` needs: patches (preferred) or a retargeted copy. */
static int plan_entry(const struct rdc_bundle *b, const struct rdc_add *a, rdc_patches_fn *get,
		      struct add_plan *p, struct rdc_diag *d)
{
	const struct rdc_bundle_entry *e = &b->entries[a->from];
	p->src_off = e->offset;
	p->size = e->size;
	struct rdc_diag pd = { 0 };
	int prc = entry_patches(get, a, e, &p->patches, &p->n_patches, &pd);
	if (prc == 0)
		return 0;
	if (prc == RDC_E_NOMEM || prc == RDC_E_REFUSED)   /* refused: no copy either */
		return rdc_diag_set(d, prc, RDC_NO_OFFSET, "%s", pd.msg);
	p->patches = NULL;
	p->n_patches = 0;
	return rdc_add_copy(e, a, pd.msg, &p->copy, &p->copy_len, d);
}

/* Each added entry's slot, from `pos` (the end of the original bytes)
 * on, relative to the end of the header pages, which lead the region only
 * when the header cannot go to the arena.  Returns the end of the last. */
static uint64_t place_slots(struct add_plan *plan, size_t n_add, uint64_t file_offset,
			    uint64_t pos, size_t ps)
{
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
	return pos;
}

/* Fill one reserved slot: the copy in anonymous pages, or a private
 * mapping of the entry's file range with its patches applied (only the
 * patched pages become private: counted in *private_bytes); `mapped` when
 * that mapping is already there.  0, RDC_E_IO (errno) or RDC_E_RANGE. */
static int fill_slot(uint8_t *slot, const struct add_plan *p, int fd, uint64_t file_offset,
		     size_t ps, bool mapped, size_t *private_bytes, struct rdc_diag *d)
{
	if (p->copy) {
		if (mmap(slot, p->slot_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) == MAP_FAILED)
			return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "mapping the file: %s",
					    strerror(errno));
		memcpy(slot, p->copy, p->copy_len);
		*private_bytes += p->slot_len;
	} else {
		uint64_t fo = file_offset + p->src_off;
		if (!mapped && mmap(slot, p->slot_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
				    (off_t)(fo / ps * ps)) == MAP_FAILED)
			return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "mapping the file: %s",
					    strerror(errno));
		uint64_t last_page = UINT64_MAX;
		for (size_t j = 0; j < p->n_patches; j++) {
			const struct rdc_patch *pt = &p->patches[j];
			if (!rdc_in_bounds(pt->offset, pt->len, p->size) || pt->len > sizeof pt->bytes)
				return rdc_diag_set(d, RDC_E_RANGE, pt->offset, "patch outside the code object");
			memcpy(slot + p->delta + pt->offset, pt->bytes, pt->len);
			for (uint64_t a = (p->delta + pt->offset) / ps;
			     a <= (p->delta + pt->offset + (pt->len ? pt->len - 1 : 0)) / ps; a++)
				if (a != last_page) {
					*private_bytes += ps;
					last_page = a;
				}
		}
	}
	/* Left writable: taking write access away from pages already touched
	 * costs a TLB shootdown to every CPU running one of the process's
	 * threads (the runtime's are up by now), for each of hundreds of fat
	 * binaries; the runtime only reads these pages, and a decision made at
	 * the load (defer.c) writes its patches here. */
	return 0;
}

int rdc_remap_file(const struct rdc_bundle *b, int fd, uint64_t file_offset,
		   const struct rdc_add *add, size_t n_add, bool originals, rdc_patches_fn *get,
		   struct rdc_region *out, uint8_t **added, struct rdc_diag *d)
{
	size_t ps = page_size();
	int rc = 0;
	struct add_plan *plan = calloc(n_add ? n_add : 1, sizeof *plan);
	struct rdc_hdr_entry *he = calloc(b->n_entries + n_add, sizeof *he);
	void *base = MAP_FAILED;
	size_t total = 0;
	uint8_t *H = NULL;               /* the header in the arena (remap_arena.c) */
	uint64_t hdr_len = 0;
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
		rc = plan_entry(b, &add[k], get, &plan[k], d);
		if (rc)
			goto out;
	}
	/* 2. Layout. */
	uint64_t src_start = file_offset / ps * ps;
	uint64_t src_delta = file_offset - src_start;
	uint64_t src_len = originals ? round_up(src_delta + b->extent, ps) : 0;
	size_t n_orig = originals ? b->n_entries : 0;
	size_t nh = 0;
	for (size_t i = 0; i < n_orig; i++) {
		if (left_out(&b->entries[i], add, n_add))
			continue;
		he[nh].size = b->entries[i].size;
		he[nh].id = b->entries[i].id;
		he[nh].id_len = b->entries[i].id_len;
		he[nh++].offset = b->entries[i].offset; /* in the source, for now */
	}
	size_t n_kept = nh;
	for (size_t k = 0; k < n_add; k++, nh++) {
		he[nh].id = add[k].id;
		he[nh].id_len = strlen(add[k].id);
		he[nh].size = plan[k].copy ? plan[k].copy_len : plan[k].size;
	}
	uint64_t hdr = rdc_hdr_size(he, nh);
	hdr_len = round_up(hdr, ps);
	uint64_t pos = place_slots(plan, n_add, file_offset, src_len, ps);
	H = rdc_arena_take((size_t)hdr_len);

	/* 3. Materialise.  A region that is one added entry's file range and
	 * nothing else (the header in the arena, no originals: HIP 5.2's
	 * bundles for one mapped card) is that range's mapping itself, not a
	 * reservation the mapping then replaces: one mmap a bundle fewer. */
	uint64_t lead;
	bool whole = false;
	for (;;) {
		lead = H ? 0 : hdr_len;
		total = (size_t)(lead + pos);
		whole = !lead && !src_len && n_add == 1 && !plan[0].copy;
		if (whole)
			base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
				    (off_t)((file_offset + plan[0].src_off) / ps * ps));
		else
			base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				    -1, 0);
		if (base == MAP_FAILED)
			goto io_err;
		/* offsets are unsigned: the entries must lie above the header */
		if (!H || (uintptr_t)base >= (uintptr_t)H + hdr_len)
			break;
		munmap(base, total);
		base = MAP_FAILED;
		rdc_arena_release(H, (size_t)hdr_len, false);
		H = NULL;
	}
	uint8_t *R = base;
	uint8_t *B = H ? H : R;          /* where the bundle starts */
	uint64_t at = (uint64_t)(R - B) + lead;
	for (size_t i = 0; i < n_kept; i++)
		he[i].offset = at + src_delta + he[i].offset;
	for (size_t k = 0; k < n_add; k++)
		he[n_kept + k].offset = at + plan[k].slot + plan[k].delta;
	if (lead && mmap(R, lead, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			 0) == MAP_FAILED)
		goto io_err;
	if (src_len && mmap(R + lead, src_len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd,
			    (off_t)src_start) == MAP_FAILED)
		goto io_err;
	size_t private_bytes = hdr_len;
	for (size_t k = 0; k < n_add; k++) {
		rc = fill_slot(R + lead + plan[k].slot, &plan[k], fd, file_offset, ps, whole,
			       &private_bytes, d);
		if (rc)
			goto out;
	}
	rc = rdc_hdr_write(he, nh, B, hdr_len);
	if (rc) {
		rdc_diag_set(d, rc, RDC_NO_OFFSET, "bundle header does not fit");
		goto out;
	}
	if (lead)
		mprotect(R, lead, PROT_READ);
	out->base = base;
	out->len = total;
	out->hdr = H;
	out->hdr_len = H ? (size_t)hdr_len : 0;
	out->bundle = B;
	out->bundle_size = (uint64_t)(R + total - B);
	if (H) {
		/* two runs: the header pages, and the region far above them */
		rdc_image_known(H, out->bundle_size, hdr_len);
		rdc_image_known(R, total, total);
	} else {
		rdc_image_known(B, out->bundle_size, out->bundle_size);
	}
	out->private_bytes = private_bytes;
	out->file_mapped = true;
	out->originals = n_kept;
	for (size_t k = 0; added && k < n_add; k++)
		added[k] = B + he[n_kept + k].offset;
	base = MAP_FAILED;
	H = NULL;
	goto out;
io_err:
	rc = rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "mapping the file: %s", strerror(errno));
out:
	if (base != MAP_FAILED)
		munmap(base, total);
	rdc_arena_release(H, (size_t)hdr_len, false);
	for (size_t k = 0; plan && k < n_add; k++) {
		free(plan[k].copy);
		free(plan[k].patches);
	}
	free(plan);
	free(he);
	return rc;
}

/* Apply each added entry's patches to its bytes in the written bundle
 * `buf`, where entry n_kept + k is added entry k (rdc_bundle_write keeps
 * the order). */
static int patch_written(uint8_t *buf, size_t len, size_t n_kept, size_t n_add,
			 struct rdc_patch *const *patches, const size_t *n_patches, struct rdc_diag *d)
{
	struct rdc_bundle nb;
	int rc = rdc_bundle_parse_as_runtime(buf, len, &nb, d);
	if (rc)
		return rc;
	if (nb.compressed || nb.n_entries != n_kept + n_add)
		rc = rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "the rebuilt bundle has %zu entries, "
				  "expected %zu", nb.n_entries, n_kept + n_add);
	for (size_t k = 0; rc == 0 && k < n_add; k++) {
		const struct rdc_bundle_entry *e = &nb.entries[n_kept + k];
		if (!rdc_patches_inside(patches[k], n_patches[k], e->size))
			rc = rdc_diag_set(d, RDC_E_RANGE, RDC_NO_OFFSET, "a patch lies outside entry %zu",
					  n_kept + k);
		for (size_t i = 0; rc == 0 && i < n_patches[k]; i++)
			memcpy(buf + e->offset + patches[k][i].offset, patches[k][i].bytes, patches[k][i].len);
	}
	rdc_bundle_free(&nb);
	return rc;
}

int rdc_remap_copy(const struct rdc_bundle *b, const struct rdc_add *add, size_t n_add,
		   bool originals, rdc_patches_fn *get, struct rdc_region *out, struct rdc_diag *d)
{
	size_t n_orig = originals ? b->n_entries : 0;
	size_t n = n_orig + n_add;
	struct rdc_bundle_input *in = calloc(n ? n : 1, sizeof *in);
	char **ids = calloc(n ? n : 1, sizeof *ids);
	uint8_t **copies = calloc(n_add ? n_add : 1, sizeof *copies);
	struct rdc_patch **patches = calloc(n_add ? n_add : 1, sizeof *patches);
	size_t *n_patches = calloc(n_add ? n_add : 1, sizeof *n_patches);
	uint8_t *buf = NULL;
	int rc = 0;
	memset(out, 0, sizeof *out);
	if (!in || !ids || !copies || !patches || !n_patches) {
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		goto out;
	}
	size_t n_kept = 0;
	for (size_t i = 0; i < n_orig; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		if (left_out(e, add, n_add))
			continue;
		ids[n_kept] = strndup(e->id, e->id_len);
		if (!ids[n_kept]) {
			rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
			goto out;
		}
		in[n_kept] = (struct rdc_bundle_input){ ids[n_kept], e->data, e->size };
		n_kept++;
	}
	/* Each added entry: its original bytes, patched once written (no
	 * decode when the decision holds its patches), else a retargeted copy. */
	for (size_t k = 0; k < n_add; k++) {
		const struct rdc_bundle_entry *e = &b->entries[add[k].from];
		struct rdc_diag pd = { 0 };
		int prc = entry_patches(get, &add[k], e, &patches[k], &n_patches[k], &pd);
		if (prc == 0) {
			in[n_kept + k] = (struct rdc_bundle_input){ add[k].id, e->data, e->size };
			continue;
		}
		if (prc == RDC_E_NOMEM || prc == RDC_E_REFUSED) {   /* refused: no copy either */
			rc = rdc_diag_set(d, prc, RDC_NO_OFFSET, "%s", pd.msg);
			goto out;
		}
		patches[k] = NULL;
		n_patches[k] = 0;
		size_t len = 0;
		rc = rdc_add_copy(e, &add[k], pd.msg, &copies[k], &len, d);
		if (rc)
			goto out;
		in[n_kept + k] = (struct rdc_bundle_input){ add[k].id, copies[k], len };
	}
	size_t len = 0;
	rc = rdc_bundle_write(in, n_kept + n_add, 4096, &buf, &len, d);
	if (rc == 0)
		rc = patch_written(buf, len, n_kept, n_add, patches, n_patches, d);
	if (rc)
		goto out;
	out->heap = buf;
	out->bundle = buf;
	out->bundle_size = len;
	rdc_image_known(buf, len, len);
	out->private_bytes = len;
	out->originals = n_kept;
	buf = NULL;
out:
	free(buf);
	for (size_t i = 0; ids && i < n_orig; i++)
		free(ids[i]); /* calloc'd: the unused tail is NULL */
	for (size_t k = 0; copies && k < n_add; k++)
		free(copies[k]);
	for (size_t k = 0; patches && k < n_add; k++)
		free(patches[k]);
	free(patches);
	free(n_patches);
	free(ids);
	free(copies);
	free(in);
	return rc;
}
