/* SPDX-License-Identifier: MIT */
/*
 * defer.c — HIP 5.2 and 6.4 plain fat binaries: the entry added at
 * registration, the decision made when the runtime loads the code.
 *
 * HIP 5.2 walks every registered bundle's entry ids at hipInit and aborts
 * when a device has none it accepts (6.4 asks comgr where each ISA's entry
 * lies, also at hipInit, for every bundle); both keep the bundle handed
 * over at registration and read a device's code object only
 * when a kernel or variable of that module is first used: ROCclr gives the
 * bytes to comgr (the ISA name, from the ELF header's e_flags, and the
 * kernels' metadata) and then to ROCR (hsa_code_object_reader_create_from_
 * memory, then the load).  So when every device's choice is known from the
 * entry ids alone (rdc_decide_by_table), the bundle HIP keeps gets, at
 * registration, the added entry as a private mapping of the chosen entry's
 * file range with only e_flags patched — one page, read from the file with
 * pread, no metadata — and the decision itself (policy, kernel checks
 * against the rules, the log line, the decision cache, the notes' patches)
 * is made here when HIP hands that entry to ROCR's reader (hook_hsa.c).
 * A library whose bundles are never used costs their table reads only.
 *
 * An entry comgr cannot read fails HIP's build of that module before the
 * reader is reached, exactly as under HSA_OVERRIDE_GFX_VERSION
 * (41-shim-load-refused).  When the decision made at the reader does not
 * confirm the ids' choice all the same, the reader is refused with the
 * reason logged, and HIP reports its own build failure for that module.
 * Records are dropped when HIP unregisters the bundle.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcache.h"
#include "rdnacompat/fileopen.h"
#include "shim.h"

/* One added entry whose notes are not patched yet. */
struct pending {
	struct pending *next, *prev;
	struct pending *same_bucket; /* by_region's chain */
	const void *region;          /* rdc_region.base of the rebuilt bundle */
	uint8_t *obj;                /* the entry in it */
	uint64_t size;
	long from;                   /* the entry the ids chose */
	char proc[RDC_PROC_MAX];     /* the device target it was added for */
	bool done;                   /* decided */
	bool refused;                /* ... and not to be loaded */
	/* what the decision needs: the bundle as loaded, its file */
	const void *orig;
	uint64_t extent, file_off;
	char lib[512];
	char path[512];              /* the file to open (the program: /proc/self/exe) */
	long index;
	struct stat st;
};

pthread_mutex_t rdc_defer_lock = PTHREAD_MUTEX_INITIALIZER;   /* shim.h's lock order */
static struct pending *pend;
/* The records again, by region: HIP drops a library's bundles one by one
 * (librocsparse: 111), and a walk of every record for each was the shim's
 * largest own cost at that program's exit. */
#define PEND_BUCKETS 256u
static struct pending *by_region[PEND_BUCKETS];

static struct pending **bucket(const void *region)
{
	uint64_t x = (uint64_t)(uintptr_t)region * 0x9e3779b97f4a7c15ull;
	return &by_region[x >> 56];   /* the top 8 bits: PEND_BUCKETS */
}
static _Atomic size_t n_pend;    /* not decided, or refused: the hook's fast test */
static __thread int deciding __attribute__((tls_model("initial-exec")));

int rdc_defer_patches(const struct rdc_bundle *b, int fd, uint64_t file_off, struct rdc_add *add,
		      size_t n_add, struct rdc_diag *d)
{
	for (size_t k = 0; k < n_add; k++) {
		const struct rdc_bundle_entry *e = &b->entries[add[k].from];
		uint8_t eh[64];
		if (pread(fd, eh, sizeof eh, (off_t)(file_off + e->offset)) != (ssize_t)sizeof eh)
			return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "reading entry %ld's ELF header: %s",
					    add[k].from, strerror(errno));
		int rc = rdc_codeobj_flags_patch(eh, sizeof eh, e->size, &add[k].to, &add[k].patches[0], d);
		if (rc)
			return rc;
		add[k].have_patches = true;
		add[k].n_patches = 1;
	}
	return 0;
}

void rdc_defer_note(const struct rdc_region *r, const struct rdc_bundle *b,
		    const struct rdc_add *add, uint8_t *const *added, size_t n_add, const void *orig,
		    uint64_t extent, uint64_t file_off, const char *lib, const char *path, long index,
		    const struct stat *st)
{
	pthread_mutex_lock(&rdc_defer_lock);
	for (size_t k = 0; k < n_add; k++) {
		struct pending *x = calloc(1, sizeof *x);
		if (!x)
			break;
		*x = (struct pending){ .region = r->base, .obj = added[k],
				       .size = b->entries[add[k].from].size, .from = add[k].from,
				       .orig = orig, .extent = extent, .file_off = file_off,
				       .index = index, .st = *st };
		snprintf(x->proc, sizeof x->proc, "%s", add[k].to.proc);
		snprintf(x->lib, sizeof x->lib, "%s", lib);
		snprintf(x->path, sizeof x->path, "%s", path);
		x->next = pend;
		if (pend)
			pend->prev = x;
		pend = x;
		struct pending **b = bucket(x->region);
		x->same_bucket = *b;
		*b = x;
		atomic_fetch_add(&n_pend, 1);
	}
	pthread_mutex_unlock(&rdc_defer_lock);
}

void rdc_defer_forget(const void *region)
{
	if (!region)
		return;
	pthread_mutex_lock(&rdc_defer_lock);
	for (struct pending **pp = bucket(region); *pp;) {
		struct pending *x = *pp;
		if (x->region != region) {
			pp = &x->same_bucket;
			continue;
		}
		*pp = x->same_bucket;
		if (x->prev)
			x->prev->next = x->next;
		else
			pend = x->next;
		if (x->next)
			x->next->prev = x->prev;
		if (!x->done || x->refused)
			atomic_fetch_sub(&n_pend, 1);
		free(x);
	}
	pthread_mutex_unlock(&rdc_defer_lock);
}

/* Decide x's bundle for every device (one log line each, as at
 * registration) and patch each of its pending entries.  rdc_defer_lock held. */
static void decide_now(struct pending *x)
{
	struct rdc_diag d = { 0 };
	struct rdc_bundle b;
	struct rdc_add add[RDC_MAX_DEVICES];
	size_t n_add = 0;
	void *mbase = NULL;
	size_t mlen = 0;
	struct stat st;
	int rc = RDC_E_IO;
	/* the entries are read from a private mapping of the file, not
	 * through the library's own pages */
	int fd = rdc_open_file_st(x->path, O_RDONLY, 0,
				  RDC_OPEN_REG | RDC_OPEN_FOLLOW | RDC_OPEN_KEEP_NONBLOCK, &st, NULL);
	const void *q = NULL;
	if (fd >= 0)
		rdc_stat_add(RDC_ST_FILES_OPENED, 1);
	if (fd >= 0 && rdc_same_file(&st, &x->st))
		q = rdc_map_fd_range(fd, x->file_off, x->extent, &mbase, &mlen);
	if (!q)
		rdc_diag_set(&d, RDC_E_IO, RDC_NO_OFFSET, "the library file changed or cannot be read");
	else
		rc = rdc_bundle_parse_as_runtime(q, x->extent, &b, &d);
	if (rc == 0) {
		rc = rdc_decide_bundle_st(&b, x->lib, x->index, "fatbin", x->lib, x->lib, &st, RDC_HOLD_NONE,
					  x->file_off, add, &n_add);
		rdc_diag_flush();
	}
	for (struct pending *y = pend; y; y = y->next) {
		if (y->region != x->region || y->done)
			continue;
		y->done = true;
		const struct rdc_add *a = NULL;
		for (size_t k = 0; rc == 0 && k < n_add && !a; k++)
			if (!strcmp(add[k].to.proc, y->proc))
				a = &add[k];
		const char *why = rc != 0 ? (d.msg[0] ? d.msg : rdc_strerror(rc))
			: !a ? "the decision adds no entry for this device (logged above)"
			: a->from != y->from ? "the decision chose another entry than the ids did"
			: !a->have_patches ? "the retarget cannot be written in place"
			: NULL;
		/* the added entries are writable private mappings (remap.c,
		 * fill_slot); every patch checked to lie inside the entry */
		struct rdc_patch *pt = NULL;
		size_t n_pt = 0;
		struct rdc_diag pd = { 0 };
		if (!why && rdc_decided_patches(a, y->obj, y->size, &pt, &n_pt, &pd) != 0)
			why = pd.msg[0] ? pd.msg : "its patches cannot be had";
		for (size_t k = 0; !why && k < n_pt; k++)
			memcpy(y->obj + pt[k].offset, pt[k].bytes, pt[k].len);
		free(pt);
		if (why) {
			y->refused = true;   /* refused at the load (rdc_defer_load) */
			rdc_logf(RDC_LOG_ERROR, "%s bundle %ld: the %s entry added at registration is "
				 "not loaded: %s", y->lib, y->index, y->proc, why);
			continue;
		}
		atomic_fetch_sub(&n_pend, 1);   /* a refused one stays watched */
		rdc_stat_add(a->from_cache ? RDC_ST_FROM_CACHE : RDC_ST_RETARGETED, 1);
		if (rdc_log_enabled(RDC_LOG_DEBUG)) {
			struct rdc_kv kv[] = {
				RDC_KV_S("lib", y->lib), RDC_KV_N("bundle", y->index),
				RDC_KV_S("source", "fatbin"), RDC_KV_S("entry", a->id),
				RDC_KV_N("bytes", y->size), RDC_KV_S("how", "patched-at-load"),
				RDC_KV_S("patches", a->from_cache ? "cached" : "computed"),
			};
			rdc_log_event(RDC_LOG_DEBUG, "retargeted", kv, sizeof kv / sizeof kv[0]);
		}
	}
	if (rc == 0)
		rdc_bundle_free(&b);
	if (mbase)
		munmap(mbase, mlen);
	if (fd >= 0)
		close(fd);
}

int rdc_defer_load(const void *p)
{
	if (!atomic_load_explicit(&n_pend, memory_order_acquire) || deciding || !p)
		return 0;
	const uint8_t *c = p;
	int ret = 0;
	pthread_mutex_lock(&rdc_defer_lock);
	for (struct pending *x = pend; x; x = x->next) {
		if (c < x->obj || c >= x->obj + x->size)
			continue;
		if (!x->done) {
			deciding = 1;
			rdc_guard_enter();
			decide_now(x);
			rdc_guard_leave();
			deciding = 0;
		}
		ret = x->refused ? -1 : 0;
		break;
	}
	pthread_mutex_unlock(&rdc_defer_lock);
	return ret;
}
