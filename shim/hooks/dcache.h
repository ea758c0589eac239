/* SPDX-License-Identifier: MIT */
/*
 * dcache.h — the persistent decision cache (dcache.c): what the policy
 * decided for one bundle of a library file and one device target, kept
 * across processes so repeat runs skip the per-kernel work.  Only
 * decide.c uses it.
 *
 * Key: the library file (st_dev, st_ino, size, mtime in ns), the bundle's
 * file offset, the device target (with features), the policy flags
 * (opt-in), a digest of the effective tables and the shim build (its own
 * file's identity).  Value: the choice (verdict, entry, chosen target, edge
 * rank, counts, reason, need), the refused kernels (name, check, reason) and
 * the in-place patches of the added entry, however many there are (a
 * Tensile object has one per kernel: a repeat run decodes no notes).
 *
 * Where: $XDG_CACHE_HOME/rdnacompat or ~/.cache/rdnacompat, one file per
 * library, written at exit atomically (temp + rename, 0600).
 * RDNACOMPAT_CACHE=0 disables it.  A corrupt, stale or unreadable file is
 * ignored (logged at debug) and rewritten; a cached value is used only when
 * it fits the bundle at hand (its entry found there by id and size, patch
 * bounds), else the policy decides again.  Locking: rdc_dcache_lock, taken under rdc_fatbin_lock
 * (and alone at exit); inside it only rdc_dev_lock (the tables) and
 * rdc_log_lock.
 */
#ifndef RDNACOMPAT_DCACHE_H
#define RDNACOMPAT_DCACHE_H

#include <sys/stat.h>

#include "shim.h"

struct rdc_dc_lib;

/* One cached decision, as decide.c needs it back. */
struct rdc_dc_hit {
	struct rdc_choice c;             /* kernels/co NULL; entry and
	                                    refused_entry -1 until hit_fits
	                                    (decide.c) finds entry_id /
	                                    refused_id in the bundle at hand */
	char entry_id[128], refused_id[128];
	uint64_t entry_size, refused_size;
	bool have_patches;
	size_t n_patches;
	struct rdc_patch patches[RDC_ADD_PATCHES];   /* when n_patches fits; else
	                                                rdc_dcache_patches */
	struct rdc_kernel_verdict *refused; /* n_refused_k verdicts (ok = false;
	                                       held ones too), kernel names owned
	                                       by the cache */
	size_t n_refused_k;
	int hold;                        /* the enum rdc_hold it was made for, -1
	                                    when that did not matter */
};

/* The cache of library `name` (the file's name for the cache file) whose
 * file fstat identified as `st` (so the decision and the key come from one
 * open file); NULL when the cache is off, or when the process already holds
 * a cache named `name` for another file.  Loaded once per process. */
struct rdc_dc_lib *rdc_dcache_lib_st(const char *name, const struct stat *st);
/* 0 and *hit filled (free with rdc_dcache_hit_free) when cached; else
 * RDC_E_NOTFOUND. */
int rdc_dcache_get(struct rdc_dc_lib *L, uint64_t bundle_off, const struct rdc_target *t,
		   struct rdc_dc_hit *hit);
void rdc_dcache_hit_free(struct rdc_dc_hit *hit);
/* A malloc'd copy of the patches kept for `ref` (the caller frees it);
 * RDC_E_NOTFOUND when the cache has none. */
int rdc_dcache_patches(const struct rdc_dc_ref *ref, struct rdc_patch **patches, size_t *n_patches);
/* Remember a decision made for bundle `b` (its entries by id and size;
 * c->kernels, when present, gives the refused and held kernels; `hold`:
 * the enum rdc_hold it was made for (-1: the same for every one); patches may be
 * NULL; at most RDC_DC_MAX_PATCHES of them, else the decision is not
 * kept). */
void rdc_dcache_put(struct rdc_dc_lib *L, uint64_t bundle_off, const struct rdc_target *t,
		    const struct rdc_bundle *b, const struct rdc_choice *c, const struct rdc_patch *patches, size_t n_patches,
		    bool have_patches, int hold);
/* Order: after rdc_fatbin_lock / rdc_module_lock / rdc_diag_lock, before
 * rdc_dev_lock (shim.h); fork.c takes it too. */
extern pthread_mutex_t rdc_dcache_lock;
/* Write every library cache that gained decisions (at exit). */
void rdc_dcache_flush(void);
/* rdc_decide_bundle using and filling the cache `cache_name` of the file
 * whose fstat is `st`, the decision stored under `key` (st NULL: no cache).
 * __hipRegisterFatBinary: the library, key the bundle's file offset;
 * hipModuleLoad: the code-object file itself, key 0; hipModuleLoadData*:
 * the loading library (rocBLAS reads its Tensile objects and hands HIP the
 * bytes), key a digest of the image's bytes and size.  `scope`: the object
 * the kernel rules' library scope is matched against (the fat binary's
 * library; for a module, the object that called the loader), for `prefer`
 * rows: a target and library that a prefer row may concern is decided
 * afresh, never from the cache.  `hold`: how the caller's hand-over holds
 * kernels (shim.h); a cached decision made for another is not used
 * (unless no instruction condition entered it). */
int rdc_decide_bundle_st(const struct rdc_bundle *b, const char *lib, long index,
			 const char *source, const char *scope, const char *cache_name,
			 const struct stat *st, uint64_t key, enum rdc_hold hold, struct rdc_add *add,
			 size_t *n_add);
/* Would rdc_decide_bundle_st answer every device from the cache (nothing
 * read but `b`'s entry table; never when a `prefer` row may apply)?  Then the caller need not make the entries'
 * bytes readable for the policy. */
bool rdc_decide_cached(const struct rdc_bundle *b, const char *scope, const char *cache_name,
		       const struct stat *st, uint64_t key);
/* The digest of a set of tables (decision-relevant rows). */
uint64_t rdc_tables_digest(const struct rdc_tables *t);

#endif
