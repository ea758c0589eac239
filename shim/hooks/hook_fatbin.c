/* SPDX-License-Identifier: MIT */
/*
 * hook_fatbin.c — __hipRegisterFatBinary / __hipUnregisterFatBinary.
 *
 * HIP 5.2's wrapper is {magic 0x48495046 "HIPF", version 1, bundle pointer,
 * dummy} (clr hipamd/src/hip_platform.cpp, __CudaFatBinaryWrapper); the
 * runtime keeps only the bundle pointer and digests it at its first API
 * call or, when already initialised, right here.  The bundle's size is not
 * given: it is bounded by the loaded segment holding the pointer
 * (segment.c) and then measured with rdc_bundle_extent.
 *
 * When some device's target has no exact entry and the policy maps one, the
 * runtime gets our wrapper pointing at a rebuilt bundle (remap.c) — the
 * caller's wrapper and bundle are never written.  When the entry ids alone
 * tell what a mapped device will load (HIP 5.2, HIP 6.4's plain bundles),
 * the added entry has only its e_flags patched here and the decision waits
 * for the runtime's load of that code (defer.c).  Each bundle pointer is
 * processed once (cache below); the rebuilt bundle is released when HIP
 * unregisters the handle (dlclose).  Any doubt: pass the original through
 * and log why.
 */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcache.h"
#include "route.h"
#include "rdnacompat/fileopen.h"
#include "shim.h"

#define HIP_FAT_MAGIC 0x48495046u

struct fat_wrapper {
	unsigned int magic;
	unsigned int version;
	const void *binary;
	void *dummy1;
};

struct fb_entry {
	struct fb_entry *next;
	struct fb_entry *same_bucket;  /* by_orig's chain */
	const void *orig;        /* caller's bundle pointer (cache key) */
	void *handle;            /* what HIP returned (hip::FatBinaryInfo**) */
	struct fat_wrapper wrapper;
	struct rdc_region region;/* empty when passed through */
	char lib[512];
	long index;
	unsigned refs;           /* registrations of the same pointer */
	/* Kernels the decision held per device (RDC_HOLD_ROUTE): deny routes
	 * once HIP returned the handle (rdc_route_hold). */
	struct {
		char proc[RDC_PROC_MAX];
		char **names;    /* rdc_policy_held_kernels' block */
		size_t n;
	} held[RDC_MAX_DEVICES];
	size_t n_held_dev;
};

pthread_mutex_t rdc_fatbin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fb_entry *entries;

/* The entries again, by bundle pointer: a process that loads the ROCm 7
 * math stack registers some 640 fat binaries, and a walk of the whole list
 * for each was the shim's largest own cost in that start-up. */
#define FB_BUCKETS 1024u
static struct fb_entry *by_orig[FB_BUCKETS];

static struct fb_entry **bucket(const void *orig)
{
	uint64_t x = (uint64_t)(uintptr_t)orig * 0x9e3779b97f4a7c15ull;
	return &by_orig[x >> 54];   /* the top 10 bits: FB_BUCKETS */
}

static struct fb_entry *find_orig(const void *orig)
{
	struct fb_entry *e = *bucket(orig);
	while (e && e->orig != orig)
		e = e->same_bucket;
	return e;
}

static void add_entry(struct fb_entry *e)
{
	struct fb_entry **b = bucket(e->orig);
	e->same_bucket = *b;
	*b = e;
	e->next = entries;
	entries = e;
}

/* Unlinks e from the bucket chain (the caller unlinks it from entries). */
static void unbucket(struct fb_entry *e)
{
	for (struct fb_entry **pp = bucket(e->orig); *pp; pp = &(*pp)->same_bucket)
		if (*pp == e) {
			*pp = e->same_bucket;
			return;
		}
}

/* The library file of the last bundle processed, kept open for the next
 * bundle of the same file: a library registers its bundles one after the
 * other from its constructors (HIP 5.2's librocsparse: 111), and an open,
 * fstat and close per bundle were a third of the shim's system calls
 * there.  A reused descriptor is trusted only as far as file_matches
 * (below) finds the bundle's bytes in it; otherwise (the program closed it,
 * or the number now names another file) the file is opened again.  It is
 * closed when a bundle of another file comes and when the runtime starts
 * (hsa_init: the start-up registrations are over).  Under rdc_fatbin_lock. */
static struct {
	int fd;
	struct stat st;
	char path[sizeof ((struct rdc_segment *)0)->path];
} held = { .fd = -1 };

/* Close the held descriptor if it is still ours: the same file, and still
 * O_NONBLOCK (rdc_open_file_st leaves it so here: RDC_OPEN_KEEP_NONBLOCK),
 * which a program's own descriptor of a regular file hardly ever is. */
static void held_drop(void)
{
	struct stat now;
	int fl = held.fd >= 0 && fstat(held.fd, &now) == 0 && rdc_same_file(&now, &held.st)
		 ? fcntl(held.fd, F_GETFL) : -1;
	if (fl >= 0 && (fl & O_NONBLOCK))
		close(held.fd);
	held.fd = -1;
	held.path[0] = 0;
}

/* The library bytes at `off` equal `mem` (the first page of the bundle):
 * what a file mapping of it would show is what was loaded (not a file
 * replaced on disk since). */
static bool file_matches(int fd, uint64_t off, const void *mem, uint64_t extent)
{
	uint8_t buf[4096];
	size_t n = extent < sizeof buf ? (size_t)extent : sizeof buf;
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n && memcmp(buf, mem, n) == 0;
}

/* A descriptor of the file of segment `seg` (and its fstat; the caller
 * does not close it), the held one when it is that file; *ok when its
 * bytes at the bundle are the bundle's `mem`. */
static int held_open(const struct rdc_segment *seg, const void *mem, uint64_t extent,
		     struct stat *st, bool *ok)
{
	if (held.fd >= 0 && strcmp(held.path, seg->path) == 0 &&
	    file_matches(held.fd, seg->file_offset, mem, extent)) {
		*st = held.st;
		*ok = true;
		return held.fd;
	}
	held_drop();
	*ok = false;
	int fd = rdc_open_file_st(seg->path, O_RDONLY, 0,
				  RDC_OPEN_REG | RDC_OPEN_FOLLOW | RDC_OPEN_KEEP_NONBLOCK, st, NULL);
	if (fd < 0)
		return fd;
	rdc_stat_add(RDC_ST_FILES_OPENED, 1);
	*ok = file_matches(fd, seg->file_offset, mem, extent);
	held.fd = fd;
	held.st = *st;
	memcpy(held.path, seg->path, sizeof held.path);
	return fd;
}

void rdc_fatbin_file_release(void)
{
	pthread_mutex_lock(&rdc_fatbin_lock);
	held_drop();
	pthread_mutex_unlock(&rdc_fatbin_lock);
}

static long next_index(const char *lib)
{
	long n = 0;
	for (struct fb_entry *e = entries; e; e = e->next)
		if (strcmp(e->lib, lib) == 0)
			n++;
	return n;
}

/* The debug line for a rebuilt bundle; `decided` "at-load" when the added
 * entries wait for the runtime's load (defer.c), NULL when decided now. */
static void log_rebuilt(const struct fb_entry *e, size_t n_add, const char *decided)
{
	struct rdc_kv kv[] = {
		RDC_KV_S("lib", e->lib), RDC_KV_N("bundle", e->index),
		RDC_KV_N("added", n_add), RDC_KV_N("originals", e->region.originals),
		RDC_KV_N("bundle_bytes", rdc_region_bytes(&e->region)),
		RDC_KV_N("private_bytes", e->region.private_bytes),
		RDC_KV_S("how", e->region.file_mapped ? "file-mapping" : "copy"),
		RDC_KV_S("header", e->region.hdr ? "arena" : "in front"),
		RDC_KV_S("decided", decided),
	};
	rdc_log_event(RDC_LOG_DEBUG, "rebuilt", kv, sizeof kv / sizeof kv[0] - (decided ? 0 : 1));
}

/* HIP 5.2, a plain bundle whose choices the entry ids tell: the added
 * entries with e_flags patched, the rest decided when HIP loads the code
 * (defer.c).  True when done so. */
static bool patch_at_load(struct fb_entry *e, const struct rdc_bundle *b, int fd,
			  const struct rdc_segment *seg, const struct stat *st, uint64_t extent)
{
	struct rdc_add add[RDC_MAX_DEVICES];
	uint8_t *added[RDC_MAX_DEVICES];
	size_t n_add = 0;
	struct rdc_diag d = { 0 };
	if (!rdc_decide_by_table(b, e->lib, add, &n_add) ||
	    rdc_defer_patches(b, fd, seg->file_offset, add, n_add, &d) != 0 ||
	    rdc_remap_file(b, fd, seg->file_offset, add, n_add, rdc_originals_needed(add, n_add),
			   rdc_decided_patches, &e->region, added, &d) != 0) {
		if (d.msg[0])
			rdc_logf(RDC_LOG_DEBUG, "%s bundle %ld: not left to the load (%s); deciding now",
				 e->lib, e->index, d.msg);
		return false;
	}
	rdc_defer_note(&e->region, b, add, added, n_add, e->orig, extent, seg->file_offset, e->lib,
		       seg->path, e->index, st);
	rdc_stat_add(RDC_ST_DEFERRED, 1);
	log_rebuilt(e, n_add, "at-load");
	return true;
}

/* Decide and rebuild for one bundle.  Fills e->region when the runtime must
 * get another bundle.  Called with the guard set and rdc_fatbin_lock held.
 *
 * The entry table is read where the library is loaded (pages HIP reads
 * anyway).  Only when some device's decision is not in the decision cache
 * are a plain bundle's entries read for the policy, then from a private
 * mapping of the file that is dropped afterwards (a compressed bundle is
 * decompressed once, into memory of its own), so the pages the runtime reads
 * later are the only ones of the library made resident.  One descriptor of
 * the library (held above, for all its bundles) serves the check that its
 * bytes are what was loaded, the cache's file identity and the file
 * mappings of the rebuilt bundle. */
/* The kernels each added entry holds (RDC_HOLD_ROUTE), by name, kept in
 * `e` until HIP has returned the handle their deny routes are noted under. */
static void note_held(struct fb_entry *e, const struct rdc_bundle *b, const struct rdc_add *add,
		      size_t n_add)
{
	for (size_t k = 0; k < n_add && e->n_held_dev < RDC_MAX_DEVICES; k++) {
		if (add[k].hold != RDC_HOLD_ROUTE || !add[k].n_held)
			continue;
		const struct rdc_bundle_entry *be = &b->entries[add[k].from];
		char **names = NULL;
		size_t n = 0;
		struct rdc_diag d = { 0 };
		if (rdc_add_held_names(&add[k], be->data, (size_t)be->size, &names, &n, &d) != 0) {
			rdc_logf(RDC_LOG_ERROR, "%s bundle %ld: the %zu kernels held on %s cannot be named again "
				 "(%s); they are not held", e->lib, e->index, add[k].n_held, add[k].to.proc, d.msg);
			continue;
		}
		snprintf(e->held[e->n_held_dev].proc, RDC_PROC_MAX, "%s", add[k].to.proc);
		e->held[e->n_held_dev].names = names;
		e->held[e->n_held_dev].n = n;
		e->n_held_dev++;
	}
}

static void free_held(struct fb_entry *e)
{
	for (size_t i = 0; i < e->n_held_dev; i++)
		free(e->held[i].names);
	e->n_held_dev = 0;
}

static void process(struct fb_entry *e, bool at_load)
{
	bool acting = false;   /* every device off (RDNACOMPAT_DEVICE_<N>=off): nothing to read */
	for (size_t i = 0; i < rdc_devices_count() && !acting; i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		acting = dev && dev->mode != RDC_MODE_OFF;
	}
	if (!acting)
		return;
	rdc_region_drain();   /* what earlier unregistrations let go of */
	struct rdc_segment seg;
	if (rdc_segment_find(e->orig, &seg) != 0 || !seg.file_backed) {
		rdc_logf(RDC_LOG_INFO, "fat binary %p: not inside a file-backed loaded segment; "
			 "its size cannot be bounded, passing it through", e->orig);
		return;
	}
	rdc_segment_lib_name(&seg, e->lib, sizeof e->lib);
	e->index = next_index(e->lib);
	struct rdc_diag d = { 0 };
	uint64_t extent = 0;
	int rc = rdc_bundle_extent(e->orig, seg.avail, &extent, &d);
	if (rc != 0) {
		rdc_logf(RDC_LOG_WARN, "%s bundle %ld: not a readable offload bundle (%s); passing through",
			 e->lib, e->index, d.msg[0] ? d.msg : rdc_strerror(rc));
		return;
	}
	struct stat st;
	bool file_ok;
	int fd = held_open(&seg, e->orig, extent, &st, &file_ok);
	if (fd >= 0 && !file_ok)
		rdc_logf(RDC_LOG_INFO, "%s bundle %ld: file bytes differ from memory; using memory",
			 e->lib, e->index);
	struct rdc_bundle b;
	void *mbase = NULL;
	size_t mlen = 0;
	if (rdc_is_ccob(e->orig, extent)) {
		/* A card with its own entry and no rule needs nothing of the
		 * bundle but its table: no decompression of the whole (a HIP 7
		 * library holds hundreds of compressed bundles). */
		struct rdc_diag td = { 0 };
		rdc_stat_add(RDC_ST_TABLES, 1);
		if (rdc_bundle_parse_table(e->orig, extent, &b, &td) == 0) {
			bool native = rdc_decide_native_by_table(&b, e->lib, e->index, "fatbin", e->lib);
			rdc_bundle_free(&b);
			if (native)
				goto out;
		}
	}
	rc = rdc_bundle_parse_as_runtime(e->orig, extent, &b, &d);
	/* the same for a plain bundle: the table is in the header HIP reads */
	if (rc == 0 && !b.compressed &&
	    rdc_decide_native_by_table(&b, e->lib, e->index, "fatbin", e->lib))
		goto out_b;
	/* a plain bundle from the file as loaded whose decision is not cached:
	 * its entries must be read, now or at the runtime's load */
	bool uncached = rc == 0 && file_ok && !b.compressed &&
			!rdc_decide_cached(&b, e->lib, e->lib, &st, seg.file_offset);
	if (uncached && at_load && patch_at_load(e, &b, fd, &seg, &st, extent))
		goto out_b;
	if (uncached) {
		/* the policy reads the entries: from a private mapping (a CCOB's
		 * entries are already in memory of its own, decompressed once) */
		const void *q = rdc_map_fd_range(fd, seg.file_offset, extent, &mbase, &mlen);
		if (q) {
			rdc_bundle_free(&b);
			rc = rdc_bundle_parse_as_runtime(q, extent, &b, &d);
		}
	}
	if (rc == 0 && b.compressed)
		rdc_stat_add(RDC_ST_DECOMPRESSED, b.size);
	if (rc != 0) {
		rdc_logf(RDC_LOG_WARN, "%s bundle %ld: cannot parse (%s); passing through", e->lib,
			 e->index, d.msg[0] ? d.msg : rdc_strerror(rc));
		goto out;
	}
	struct rdc_add add[RDC_MAX_DEVICES];
	size_t n_add = 0;
	/* Decided once per library file + bundle offset + target (dcache.c). */
	rdc_decide_bundle_st(&b, e->lib, e->index, "fatbin", e->lib, file_ok ? e->lib : NULL,
			     file_ok ? &st : NULL, seg.file_offset, RDC_HOLD_ROUTE, add, &n_add);
	if (n_add) {
		/* A compressed bundle (CCOB) cannot be file-mapped: HIP gets an
		 * uncompressed copy with the added entry (HIP 5.2 reads no CCOB). */
		bool by_file = file_ok && !b.compressed;
		bool originals = rdc_originals_needed(add, n_add);
		if (by_file)
			rc = rdc_remap_file(&b, fd, seg.file_offset, add, n_add, originals, rdc_decided_patches,
					    &e->region, NULL, &d);
		if (!by_file || rc != 0) {
			if (by_file)
				rdc_logf(RDC_LOG_INFO, "%s bundle %ld: file mapping failed (%s); copying",
					 e->lib, e->index, d.msg);
			rc = rdc_remap_copy(&b, add, n_add, originals, rdc_decided_patches, &e->region, &d);
		}
		for (size_t k = 0; rc == 0 && k < n_add; k++)
			rdc_stat_add(add[k].from_cache ? RDC_ST_FROM_CACHE : RDC_ST_RETARGETED, 1);
		if (rc != 0) {
			rdc_logf(RDC_LOG_ERROR, "%s bundle %ld: rebuilding failed (%s); passing the "
				 "original through", e->lib, e->index, d.msg[0] ? d.msg : rdc_strerror(rc));
			rdc_region_free(&e->region);
		} else {
			log_rebuilt(e, n_add, NULL);
			note_held(e, &b, add, n_add);
		}
	}
out_b:
	rdc_bundle_free(&b);
out:
	if (mbase)
		munmap(mbase, mlen);
}

RDC_HOOK void **__hipRegisterFatBinary(const void *data)
{
	__typeof__(&__hipRegisterFatBinary) real = RDC_REAL(__hipRegisterFatBinary);
	if (!rdc_guard_active())
		rdc_init();
	if (!real) {
		rdc_logf(RDC_LOG_ERROR, "__hipRegisterFatBinary: real function not found");
		return NULL;
	}
	const struct fat_wrapper *w = data;
	if (rdc_guard_active() || !w || w->magic != HIP_FAT_MAGIC || w->version != 1 || !w->binary)
		return real(data);
	int saved = errno;
	rdc_guard_enter();
	struct fb_entry *e = NULL;
	/* left to the runtime's reading: nothing to know yet, not even the
	 * devices (a process that never uses the GPU starts nothing here) */
	bool lazy = rdc_lazy_fatbin_ok(w->binary, 4, (const void *)real);
	if (lazy || rdc_devices_ensure() > 0) {
		e = calloc(1, sizeof *e);
		if (e) {
			e->orig = w->binary;
			e->wrapper = *w;
			pthread_mutex_lock(&rdc_fatbin_lock);
			struct fb_entry *prev = find_orig(w->binary);
			if (prev) {   /* the same input is processed once */
				free_held(e);
				free(e);
				e = prev;
			} else if (lazy) {
				/* decided when the runtime reads it (lazy.c) */
				rdc_stat_add(RDC_ST_FATBINS, 1);
				rdc_stat_add(RDC_ST_DEFERRED, 1);
				rdc_lazy_note_fatbin(w->binary);
				add_entry(e);
			} else {
				rdc_stat_add(RDC_ST_FATBINS, 1);
				process(e, rdc_lazy_patch_at_load((const void *)real));
				add_entry(e);
			}
			e->refs++;
			pthread_mutex_unlock(&rdc_fatbin_lock);
			if (e->region.bundle)
				e->wrapper.binary = e->region.bundle;
		} else {
			rdc_logf(RDC_LOG_WARN, "__hipRegisterFatBinary: out of memory; passing the fat binary through");
		}
	}
	if (rdc_runtime_up())
		rdc_diag_flush();   /* HIP digests right now and aborts on missing code */
	rdc_seam_open();   /* HIP 7 digests here when already initialised */
	void **h = real(e ? (const void *)&e->wrapper : data);
	rdc_seam_close();
	if (e) {
		pthread_mutex_lock(&rdc_fatbin_lock);
		e->handle = h;
		pthread_mutex_unlock(&rdc_fatbin_lock);
	}
	if (h)
		rdc_route_note_fatbin(h, e ? e->wrapper.binary : w->binary, w->binary, data); /* rules */
	if (h && e) {   /* held kernels: deny routes under this handle (e->held: set by process()) */
		pthread_mutex_lock(&rdc_fatbin_lock);
		for (size_t i = 0; i < e->n_held_dev; i++)
			rdc_route_hold((uint64_t)(uintptr_t)h, e->held[i].proc, e->held[i].names, e->held[i].n,
				       e->lib);
		pthread_mutex_unlock(&rdc_fatbin_lock);
	}
	rdc_guard_leave();
	errno = saved;
	return h;
}

const void *rdc_fatbin_of_object(const struct link_map *m)
{
	const void *fb = NULL;
	pthread_mutex_lock(&rdc_fatbin_lock);
	for (struct fb_entry *e = entries; e && !fb; e = e->next)
		if (rdc_object_of(e->orig) == m)
			fb = e->orig;
	pthread_mutex_unlock(&rdc_fatbin_lock);
	return fb;
}

RDC_HOOK void __hipUnregisterFatBinary(void **modules)
{
	__typeof__(&__hipUnregisterFatBinary) real = RDC_REAL(__hipUnregisterFatBinary);
	if (!real) {
		rdc_logf(RDC_LOG_ERROR, "__hipUnregisterFatBinary: real function not found");
		return;
	}
	if (rdc_guard_active()) {
		real(modules);
		return;
	}
	int saved = errno;
	rdc_guard_enter();
	real(modules);
	rdc_route_forget((uint64_t)(uintptr_t)modules); /* kernel rules */
	pthread_mutex_lock(&rdc_fatbin_lock);
	for (struct fb_entry **pp = &entries; *pp; pp = &(*pp)->next) {
		struct fb_entry *e = *pp;
		if (e->handle != modules || !modules)
			continue;
		if (--e->refs > 0)
			break;
		rdc_lazy_forget(e->orig);
		rdc_hold_forget(e->orig);
		rdc_defer_forget(e->region.base);
		free_held(e);
		*pp = e->next;
		unbucket(e);
		rdc_region_retire(&e->region);
		free(e);
		break;
	}
	pthread_mutex_unlock(&rdc_fatbin_lock);
	rdc_guard_leave();
	errno = saved;
}
