/* SPDX-License-Identifier: MIT */
/*
 * hook_module.c — hipModuleLoad, hipModuleLoadData, hipModuleLoadDataEx,
 * hipModuleLoadFatBinary (HIP >= 7.1), hipModuleUnload; and, for every
 * loader of images (hook_library.c too), the decisions and rebuilt images
 * behind module.h.
 *
 * An image (bundle, or bare AMDGPU ELF treated as a one-entry bundle) whose
 * entries lack some device's target gets the same decision as a fat binary
 * (decide.c); when an entry is added the runtime loads a rebuilt copy
 * (remap.c rdc_remap_copy) instead, freed when the module is unloaded.
 * Inputs are cached by (pointer, size, content hash) — or, for
 * hipModuleLoad, by (device, inode, mtime, size) — so the same input is
 * decided once and shared by every module loaded from it.  The decisions
 * also go to the persistent decision cache (dcache.c): hipModuleLoad's under
 * the file as fstat saw it, hipModuleLoadData*'s under the loading library
 * and a digest of the image (rocBLAS 6.4 reads each Tensile object and loads
 * it with hipModuleLoadData in every process).
 */
#define __HIP_PLATFORM_AMD__ 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/codeobj.h"
#include "dcache.h"
#include "rdnacompat/fileopen.h"
#include "module.h"
#include "route.h"
#include "shim.h"


pthread_mutex_t rdc_module_lock = PTHREAD_MUTEX_INITIALIZER;

struct mkey {                    /* image: pointer, size, hash; file: dev, inode, size, mtime */
	uint64_t a, b, c, d;
};

struct rdc_mentry {              /* one decided input */
	struct rdc_mentry *next;
	struct mkey key;
	struct rdc_add add[4];       /* the decision: entries to add */
	size_t n_add;
	struct rdc_region region;    /* the rebuilt image while modules use it */
	unsigned refs;               /* modules (and loads under way) using region */
};

struct mmod {                    /* one loaded module (or library) using a rebuilt image */
	struct rdc_link link;    /* key: the hipModule_t / hipLibrary_t */
	struct rdc_mentry *e;
};

static struct rdc_mentry *cache;
static struct rdc_link *mods;

static uint64_t fnv(const void *p, size_t n)
{
	const uint8_t *s = p;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	return h;
}

/* A hash of a whole image (its identity in the memo and the decision
 * cache): four independent lanes over 8-byte words, each lane a
 * multiply-rotate round, so a multi-megabyte image is hashed near memory
 * speed instead of at one dependent multiply per byte (FNV-1a above, for
 * short keys).  The rest and the length through FNV. */
static uint64_t image_hash(const void *p, size_t n)
{
	const uint64_t m1 = 0x9e3779b185ebca87ull, m2 = 0xc2b2ae3d27d4eb4full;
	uint64_t h[4] = { m1 + m2, m2, 0, (uint64_t)0 - m1 };
	const uint8_t *s = p;
	size_t i = 0;
	for (; n - i >= 32; i += 32)
		for (int k = 0; k < 4; k++) {
			uint64_t w;
			memcpy(&w, s + i + 8 * (size_t)k, sizeof w);
			uint64_t x = h[k] + w * m2;
			h[k] = ((x << 31) | (x >> 33)) * m1;
		}
	uint64_t r = fnv(s + i, n - i) ^ (uint64_t)n;
	for (int k = 0; k < 4; k++) {
		r ^= h[k];
		r = ((r << 27) | (r >> 37)) * m1 + m2;
	}
	return r;
}

/* Wrap a bare code object as a bundle (not owning anything). */
static int elf_as_bundle(const void *p, size_t n, struct rdc_bundle *b,
			 struct rdc_bundle_entry ents[2], char id[128])
{
	struct rdc_codeobj co;
	if (rdc_codeobj_parse(p, n, RDC_CO_HEADER_ONLY, &co, NULL) != 0)
		return RDC_E_FORMAT;
	rdc_target_format_bundle_id(&co.target, id, 128);
	rdc_codeobj_free(&co);
	static const char host[] = "host-x86_64-unknown-linux-gnu";
	memset(b, 0, sizeof *b);
	memset(ents, 0, 2 * sizeof *ents);
	ents[0].id = host;
	ents[0].id_len = sizeof host - 1;
	rdc_bundle_id_parse(ents[0].id, ents[0].id_len, &ents[0].parsed, NULL);
	ents[1].id = id;
	ents[1].id_len = strlen(id);
	ents[1].size = n;
	ents[1].data = p;
	if (rdc_bundle_id_parse(id, ents[1].id_len, &ents[1].parsed, NULL) != 0)
		return RDC_E_FORMAT;
	b->entries = ents;
	b->n_entries = 2;
	b->bytes = p;
	b->size = n;
	b->extent = n;
	return 0;
}

/* Decide for an image of known size; fills e->region when a rebuilt one is
 * needed.  st: the image is that whole file (hipModuleLoad), so the decision
 * goes through the persistent cache (dcache.c) like a fat binary's.  Guard
 * set, rdc_module_lock held. */
struct dckey {                   /* where the decision is cached (dcache.c) */
	const char *name;        /* the cache's name; NULL: not cached */
	struct stat st;          /* the file it belongs to */
	uint64_t key;            /* the record's key in it */
	const char *scope;       /* the object that called the loader: the kernel
	                            rules' library scope (`prefer` rows); NULL unknown */
};

static void decide_image(struct rdc_mentry *e, const void *p, uint64_t n, const char *what,
			 const char *source, const struct dckey *dk, bool decide)
{
	struct rdc_bundle b;
	struct rdc_bundle_entry ents[2];
	char id[128];
	struct rdc_diag d = { 0 };
	bool parsed = false;
	if (rdc_is_bundle(p, n)) {
		int rc = rdc_bundle_parse_as_runtime(p, n, &b, &d);
		if (rc == 0 && b.compressed)
			rdc_stat_add(RDC_ST_DECOMPRESSED, b.size);
		if (rc != 0) {
			/* out of memory is ours, not the input's: said at warn */
			rdc_logf(rc == RDC_E_NOMEM ? RDC_LOG_WARN : RDC_LOG_INFO,
				 "%s: %s: not a readable bundle (%s); passing through", source, what, d.msg);
			return;
		}
		parsed = true;
	} else if (elf_as_bundle(p, n, &b, ents, id) != 0) {
		rdc_logf(RDC_LOG_DEBUG, "%s: %s: not a code object or bundle; passing through", source,
			 what);
		return;
	}
	if (decide && rdc_decide_native_by_table(&b, what, 0, source, dk->scope)) {
		/* every device has its own entry and no rule concerns it:
		 * nothing to parse (the runtime loads its own code) */
		decide = false;
		e->n_add = 0;
	}
	if (decide) {
		struct rdc_add add[RDC_MAX_DEVICES];
		size_t n_add = 0;
		rdc_decide_bundle_st(&b, what, 0, source, dk->scope, dk->name, dk->name ? &dk->st : NULL,
				     dk->key, RDC_HOLD_RENAME, add, &n_add);
		if (n_add > sizeof e->add / sizeof e->add[0]) {
			rdc_logf(RDC_LOG_WARN, "%s: %s: %zu targets to add, keeping the first %zu", source,
				 what, n_add, sizeof e->add / sizeof e->add[0]);
			n_add = sizeof e->add / sizeof e->add[0];
		}
		memcpy(e->add, add, n_add * sizeof add[0]);
		e->n_add = n_add;
	}
	bool originals = e->n_add && rdc_originals_needed(e->add, e->n_add);
	if (e->n_add && rdc_remap_copy(&b, e->add, e->n_add, originals, rdc_decided_patches, &e->region, &d) != 0) {
		rdc_logf(RDC_LOG_ERROR, "%s: %s: rebuilding failed (%s); passing the original through",
			 source, what, d.msg);
		rdc_region_free(&e->region);
	} else if (e->n_add) {
		for (size_t k = 0; k < e->n_add; k++)
			rdc_stat_add(e->add[k].from_cache ? RDC_ST_FROM_CACHE : RDC_ST_RETARGETED, 1);
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", what), RDC_KV_N("bundle", 0), RDC_KV_N("added", e->n_add),
			RDC_KV_N("originals", e->region.originals),
			RDC_KV_N("bundle_bytes", rdc_region_bytes(&e->region)),
			RDC_KV_N("private_bytes", e->region.private_bytes), RDC_KV_S("how", "copy"),
		};
		rdc_log_event(RDC_LOG_DEBUG, "rebuilt", kv, sizeof kv / sizeof kv[0]);
	}
	if (parsed)
		rdc_bundle_free(&b);
}

/* The decision for `key` (made once, when first seen; the rebuilt image is
 * made again, silently, when a later load needs it after the last module
 * using it was unloaded).  When it has a rebuilt image the caller gets a
 * reference on it: pass it to rdc_module_hold() after a successful load or give it
 * back with release(). */
static struct rdc_mentry *lookup_or_decide(struct mkey key, const void *p, uint64_t n, const char *what,
				       const char *source, const struct dckey *dk)
{
	pthread_mutex_lock(&rdc_module_lock);
	struct rdc_mentry *e;
	for (e = cache; e; e = e->next)
		if (memcmp(&e->key, &key, sizeof key) == 0)
			break;
	if (!e && (e = calloc(1, sizeof *e))) {
		e->key = key;
		decide_image(e, p, n, what, source, dk, true);
		e->next = cache;
		cache = e;
	} else if (e && e->n_add && !e->region.bundle) {
		decide_image(e, p, n, what, source, dk, false);
	} else if (!e) {
		rdc_logf(RDC_LOG_WARN, "%s: %s: out of memory for the decision; passing it through", source, what);
	}
	if (e && e->region.bundle)
		e->refs++;
	pthread_mutex_unlock(&rdc_module_lock);
	return e;
}

/* Drop one reference (rdc_module_lock held); the last one frees the copy
 * (the decision stays). */
static void unref_locked(struct rdc_mentry *e)
{
	if (--e->refs > 0)
		return;
	struct rdc_kv kv[] = { RDC_KV_N("bytes", rdc_region_bytes(&e->region)) };
	rdc_log_event(RDC_LOG_DEBUG, "freed", kv, 1);
	rdc_region_free(&e->region);
}

static void release(struct rdc_mentry *e)
{
	pthread_mutex_lock(&rdc_module_lock);
	unref_locked(e);
	pthread_mutex_unlock(&rdc_module_lock);
}

void rdc_module_hold(uintptr_t handle, struct rdc_mentry *e)
{
	/* Without a record the reference is never dropped: the copy stays (a
	 * leak, never a use after free). */
	struct mmod *mm = malloc(sizeof *mm);
	pthread_mutex_lock(&rdc_module_lock);
	if (mm) {
		mm->e = e;
		rdc_list_push(&mods, &mm->link, handle);
	}
	pthread_mutex_unlock(&rdc_module_lock);
}

void rdc_module_release(struct rdc_mentry *e)
{
	if (e)
		release(e);
}

void rdc_module_drop(uintptr_t handle)
{
	pthread_mutex_lock(&rdc_module_lock);
	struct mmod *mm = (struct mmod *)rdc_list_take(&mods, handle);
	if (mm) {
		unref_locked(mm->e);
		free(mm);
	}
	pthread_mutex_unlock(&rdc_module_lock);
}

/* For the log: the object holding the image, or the image's address and
 * the object that called the loader (a library loading from its heap). */
static const char *data_name(const void *image, const void *caller, char *buf, size_t n)
{
	Dl_info info;
	if (dladdr(image, &info) && info.dli_fname)
		snprintf(buf, n, "%s", info.dli_fname);
	else if (caller && dladdr(caller, &info) && info.dli_fname)
		snprintf(buf, n, "image@%p(loaded by %s)", image, rdc_basename(info.dli_fname));
	else
		snprintf(buf, n, "image@%p", image);
	return buf;
}

/* The persistent cache of images loaded from memory: one per loading
 * library (the object holding the image, else the caller), named after it
 * with ".modules"; a new build of that library starts it afresh.  NULL when
 * neither is a file. */
static const char *loader_cache(const void *image, const void *caller, char *buf, size_t n,
				struct stat *st)
{
	Dl_info info;
	const char *f = NULL;
	if (dladdr(image, &info) && info.dli_fname && info.dli_fname[0] == '/')
		f = info.dli_fname;
	else if (caller && dladdr(caller, &info) && info.dli_fname && info.dli_fname[0] == '/')
		f = info.dli_fname;
	if (!f || stat(f, st) != 0 || !S_ISREG(st->st_mode) ||
	    (size_t)snprintf(buf, n, "%s.modules", f) >= n)
		return NULL;
	return buf;
}

const void *rdc_module_use_image(const void *image, const void *caller, const char *source,
				 struct rdc_mentry **held)
{
	*held = NULL;
	struct rdc_mentry *e = NULL;
	uint64_t avail = rdc_readable_extent(image), n = 0;
	if (avail && rdc_devices_ensure() > 0) {
		int rc = rdc_is_bundle(image, avail) ? rdc_bundle_extent(image, avail, &n, NULL)
						     : rdc_elf_extent(image, avail, &n);
		if (rc == 0 && rdc_is_ccob(image, avail) &&
		    rdc_lazy_fatbin_ok(image, avail, rdc_real_resolve_from(RDC_FN_hipModuleLoadData, caller))) {
			/* compressed: decided at the runtime's own unbundling
			 * (hook_comgr.c, lazy.c), with this load's names */
			char what[300], cname[300];
			struct stat st;
			const char *cn = loader_cache(image, caller, cname, sizeof cname, &st);
			Dl_info ci;
			const char *scope = caller && dladdr(caller, &ci) && ci.dli_fname ? ci.dli_fname : NULL;
			uint64_t key = fnv(image, n < 32 ? (size_t)n : 32) ^ (n * 0x9e3779b97f4a7c15ull);
			rdc_stat_add(RDC_ST_DEFERRED, 1);
			rdc_lazy_module_context(image, data_name(image, caller, what, sizeof what), source,
						scope, cn, cn ? &st : NULL, key);
			rc = 1;
		}
		if (rc == 0) {
			struct mkey key = { (uintptr_t)image, n, image_hash(image, (size_t)n), 0 };
			char what[300], cname[300];
			struct dckey dk = { .key = key.c ^ (n * 0x9e3779b97f4a7c15ull) };
			dk.name = loader_cache(image, caller, cname, sizeof cname, &dk.st);
			Dl_info ci;
			if (caller && dladdr(caller, &ci) && ci.dli_fname)
				dk.scope = ci.dli_fname;
			e = lookup_or_decide(key, image, n, data_name(image, caller, what, sizeof what),
					     source, &dk);
		}
	}
	if (rdc_runtime_up())
		rdc_diag_flush();
	if (!e || !e->region.bundle)
		return image;
	*held = e;
	return e->region.bundle;
}

const void *rdc_module_use_file(const char *fname, const void *caller, const char *source,
				struct rdc_mentry **held)
{
	*held = NULL;
	struct rdc_mentry *e = NULL;
	/* The program's file name: never waited on (a FIFO), only a regular
	 * file is read; anything else goes to HIP untouched. */
	int fd = rdc_open_file(fname, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, NULL);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    rdc_devices_ensure() > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED && rdc_is_ccob(m, (uint64_t)st.st_size) &&
		    rdc_lazy_fatbin_ok(m, (uint64_t)st.st_size,
				       rdc_real_resolve_from(RDC_FN_hipModuleLoad, caller))) {
			/* compressed: the runtime maps and unbundles the file
			 * itself; decided then (lazy.c), under this file's name */
			Dl_info ci;
			const char *scope = caller && dladdr(caller, &ci) && ci.dli_fname ? ci.dli_fname : NULL;
			rdc_stat_add(RDC_ST_DEFERRED, 1);
			rdc_lazy_module_context(NULL, fname, source, scope, fname, &st, 0);
			munmap(m, (size_t)st.st_size);
			m = MAP_FAILED;
		}
		if (m != MAP_FAILED) {
			struct mkey key = { (uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_size,
					    (uint64_t)st.st_mtim.tv_sec * 1000000000ull +
						    (uint64_t)st.st_mtim.tv_nsec };
			struct dckey dk = { .name = fname, .st = st };
			Dl_info ci;
			if (caller && dladdr(caller, &ci) && ci.dli_fname)
				dk.scope = ci.dli_fname;
			e = lookup_or_decide(key, m, (uint64_t)st.st_size, fname, source, &dk);
			munmap(m, (size_t)st.st_size);
		}
	}
	if (fd >= 0)
		close(fd);
	if (rdc_runtime_up())
		rdc_diag_flush();
	if (!e || !e->region.bundle)
		return NULL;
	*held = e;
	return e->region.bundle;
}

/* The three loaders of an image in memory: one body. */
enum load_kind { LOAD_DATA, LOAD_DATA_EX, LOAD_FATBIN };
static const char *const load_name[] = { "hipModuleLoadData", "hipModuleLoadDataEx",
					 "hipModuleLoadFatBinary" };

RDC_HOOK hipError_t hipModuleLoadFatBinary(hipModule_t *module, const void *fatbin);

static hipError_t load_data(enum load_kind kind, hipModule_t *module, const void *image,
			    unsigned int numOptions, hipJitOption *options, void **optionValues,
			    const void *caller)
{
	__typeof__(&hipModuleLoadData) real = RDC_REAL(hipModuleLoadData);
	__typeof__(&hipModuleLoadDataEx) real_ex = RDC_REAL(hipModuleLoadDataEx);
	__typeof__(&hipModuleLoadFatBinary) real_fat = RDC_REAL(hipModuleLoadFatBinary);
	if ((kind == LOAD_DATA && !real) || (kind == LOAD_DATA_EX && !real_ex) ||
	    (kind == LOAD_FATBIN && !real_fat)) {
		rdc_logf(RDC_LOG_ERROR, "%s: real function not found", load_name[kind]);
		return hipErrorNotInitialized;
	}
#define CALL_REAL(img)                                                                   \
	(kind == LOAD_DATA_EX ? real_ex(module, (img), numOptions, options, optionValues) \
	 : kind == LOAD_FATBIN ? real_fat(module, (img))                                  \
			       : real(module, (img)))
	if (rdc_guard_active())
		return CALL_REAL(image);
	rdc_init();
	if (!image || !module || !rdc_any_device_active())
		return CALL_REAL(image);
	int saved = errno;
	rdc_guard_enter();
	struct rdc_mentry *e;
	const void *use = rdc_module_use_image(image, caller, load_name[kind], &e);
	rdc_seam_open();
	hipError_t err = CALL_REAL(use);
	rdc_seam_close();
	rdc_lazy_module_context(NULL, NULL, NULL, NULL, NULL, NULL, 0);
	if (err == hipSuccess)
		rdc_route_note_module(*module, use, image, NULL, caller); /* kernel rules */
	if (e) {
		if (err == hipSuccess)
			rdc_module_hold((uintptr_t)*module, e);
		else
			release(e);
	}
	rdc_guard_leave();
	errno = saved;
	return err;
#undef CALL_REAL
}

RDC_HOOK hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
	return load_data(LOAD_DATA, module, image, 0, NULL, NULL, __builtin_return_address(0));
}

RDC_HOOK hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions,
			       hipJitOption *options, void **optionValues)
{
	return load_data(LOAD_DATA_EX, module, image, numOptions, options, optionValues,
			 __builtin_return_address(0));
}

/* HIP >= 7.1 (hip_7.1): the same as hipModuleLoadData in CLR
 * (PlatformState::loadModule(module, 0, fatbin)). */
RDC_HOOK hipError_t hipModuleLoadFatBinary(hipModule_t *module, const void *fatbin)
{
	return load_data(LOAD_FATBIN, module, fatbin, 0, NULL, NULL, __builtin_return_address(0));
}

RDC_HOOK hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
	__typeof__(&hipModuleLoad) real = RDC_REAL(hipModuleLoad);
	__typeof__(&hipModuleLoadData) real_data = RDC_REAL(hipModuleLoadData);
	if (!real) {
		rdc_logf(RDC_LOG_ERROR, "hipModuleLoad: real function not found");
		return hipErrorNotInitialized;
	}
	if (rdc_guard_active())
		return real(module, fname);
	rdc_init();
	if (!fname || !module || !rdc_any_device_active() || !real_data)
		return real(module, fname);
	int saved = errno;
	rdc_guard_enter();
	struct rdc_mentry *e;
	const void *use = rdc_module_use_file(fname, __builtin_return_address(0), "hipModuleLoad", &e);
	hipError_t err;
	rdc_seam_open();
	if (use) {
		err = real_data(module, use);
		if (err == hipSuccess)
			rdc_module_hold((uintptr_t)*module, e);
		else
			release(e);
	} else {
		err = real(module, fname);
	}
	rdc_seam_close();
	rdc_lazy_module_context(NULL, NULL, NULL, NULL, NULL, NULL, 0);
	if (err == hipSuccess) /* kernel rules */
		rdc_route_note_module(*module, use, NULL, fname, __builtin_return_address(0));
	rdc_guard_leave();
	errno = saved;
	return err;
}

RDC_HOOK hipError_t hipModuleUnload(hipModule_t module)
{
	__typeof__(&hipModuleUnload) real = RDC_REAL(hipModuleUnload);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_guard_active())
		return real(module);
	int saved = errno;
	rdc_guard_enter();
	hipError_t err = real(module);
	if (err == hipSuccess) {
		rdc_route_forget((uint64_t)(uintptr_t)module); /* kernel rules */
		rdc_module_drop((uintptr_t)module);
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}
