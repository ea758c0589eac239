/* SPDX-License-Identifier: MIT */
/*
 * lazy.c — deciding a bundle when the runtime reads it, not when its
 * library registers it (docs/SHIM.md "When the shim decides").  HIP 7
 * reads a module's code when one of its kernels is first used, 6.4 every
 * module at hipInit, both through comgr (hook_comgr.c): a compressed bundle
 * by its UNBUNDLE action, a plain one by amd_comgr_lookup_code_object.  At
 * registration a bundle is only noted (rdc_lazy_note_fatbin, for its index
 * in the log) and passed through; under HIP 7 it is not even read.
 *   - Compressed: the codes a mapped device may use are asked for as well
 *     (rdc_lazy_extra_ids: the compat table's usable edges, prefer rows), and
 *     when a device got no item of its own the extracted items are decided
 *     as the bundle's entries (rdc_lazy_decide).  Only when nothing
 *     compatible came out is the entry table read, for the diagnosis.
 *   - Plain: the bundle is decided in place (rdc_lazy_lookup) and the
 *     device's retargeted object handed over as a private mapping of the
 *     library file, kept until the bundle is unregistered.
 * The same policy, kernel checks, rules, log lines and decision cache as at
 * registration.  Nothing here touches comgr: bytes in, code objects out.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcache.h"
#include "rdnacompat/codeobj.h"
#include "rdnacompat/fileopen.h"
#include "rdnacompat/rules.h"
#include "shim.h"

/* Decisions made from extracted items are cached apart from those made
 * from a whole bundle (their entry indices differ). */
#define LAZY_KEY_BIT (1ull << 63)

/* The thread's module load under way (rdc_lazy_module_context). */
static _Thread_local struct {
	bool pending;            /* set by a module load, consumed by its unbundle */
	const void *image;       /* NULL: the runtime maps the file itself */
	char what[300], source[32], scope[512], cache[512];
	bool have_cache;
	struct stat st;
	uint64_t key;
} mod_ctx;

void rdc_lazy_module_context(const void *image, const char *what, const char *source,
			     const char *scope, const char *cache_name, const void *st,
			     uint64_t key)
{
	mod_ctx.pending = what != NULL;
	mod_ctx.image = image;
	if (!mod_ctx.pending)
		return;
	snprintf(mod_ctx.what, sizeof mod_ctx.what, "%s", what ? what : "(memory)");
	snprintf(mod_ctx.source, sizeof mod_ctx.source, "%s", source ? source : "module");
	snprintf(mod_ctx.scope, sizeof mod_ctx.scope, "%s", scope ? scope : "");
	mod_ctx.have_cache = cache_name && st;
	snprintf(mod_ctx.cache, sizeof mod_ctx.cache, "%s", cache_name ? cache_name : "");
	if (st)
		memcpy(&mod_ctx.st, st, sizeof mod_ctx.st);
	mod_ctx.key = key;
}

pthread_mutex_t rdc_lazy_note_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */
static const void **noted;
static size_t n_noted, cap_noted;

/* Objects whose bundles rdc_lazy_decide_object went through (a library
 * registers all of its fat binaries when it is loaded): each is gone
 * through once, not at each new host stub of it.  Under rdc_lazy_note_lock. */
#define DONE_OBJS 256
static const struct link_map *done_objs[DONE_OBJS];
static size_t n_done_objs;

bool rdc_hip_eager_loading(void)
{
	/* clr hip_platform.cpp __hipRegisterFunction: deferred unless the
	 * variable is set and atoi() of it is 0; read once, at the first
	 * registration, as HIP reads it (a static initialiser), not at each of
	 * the thousands of kernels a library registers */
	static atomic_int eager;   /* 0 not read yet, 1 no, 2 yes */
	int v = atomic_load_explicit(&eager, memory_order_relaxed);
	if (!v) {
		const char *e = getenv("HIP_ENABLE_DEFERRED_LOADING");
		v = e && atoi(e) == 0 ? 2 : 1;
		atomic_store_explicit(&eager, v, memory_order_relaxed);
	}
	return v == 2;
}

bool rdc_lazy_enabled(void)
{
#if defined(__x86_64__)
	if (!rdc_cfg.lazy || rdc_cfg.mode == RDC_MODE_AUDIT || rdc_cfg.mode == RDC_MODE_OFF)
		return false;
	/* HIP reads every kernel of a fat binary at its registration: decided
	 * there too, where a held kernel's stub can still be kept from HIP
	 * (hook_kernels.c __hipRegisterFunction) */
	if (rdc_hip_eager_loading())
		return false;
	for (int i = 0; i < RDC_MAX_DEVICES; i++)
		if (rdc_cfg.device_mode[i] == RDC_MODE_AUDIT)
			return false;   /* audit shows every bundle at registration */
	return true;
#else
	return false;   /* the dlsym hook is x86-64 only */
#endif
}

void rdc_lazy_note_fatbin(const void *p)
{
	pthread_mutex_lock(&rdc_lazy_note_lock);
	if (n_noted == cap_noted) {
		size_t cap = cap_noted ? 2 * cap_noted : 256;
		const void **v = realloc(noted, cap * sizeof *v);
		if (!v) {
			pthread_mutex_unlock(&rdc_lazy_note_lock);
			return;   /* the index is only for the log */
		}
		noted = v;
		cap_noted = cap;
	}
	noted[n_noted++] = p;
	bool first = n_noted == 1;
	pthread_mutex_unlock(&rdc_lazy_note_lock);
	if (first && rdc_devices_count())
		rdc_hold_watch_check();
}

size_t rdc_lazy_noted_count(void)
{
	pthread_mutex_lock(&rdc_lazy_note_lock);
	size_t n = n_noted;
	pthread_mutex_unlock(&rdc_lazy_note_lock);
	return n;
}

/* Was `p` registered and left to the runtime's reading? */
static bool noted_here(const void *p)
{
	bool found = false;
	pthread_mutex_lock(&rdc_lazy_note_lock);
	for (size_t k = 0; k < n_noted && !found; k++)
		found = noted[k] == p;
	pthread_mutex_unlock(&rdc_lazy_note_lock);
	return found;
}

long rdc_lazy_fatbin_index(const void *p, const struct rdc_segment *seg)
{
	const char *lo = (const char *)seg->start, *hi = (const char *)p;
	long idx = 0;
	bool found = false;
	pthread_mutex_lock(&rdc_lazy_note_lock);
	for (size_t k = 0; k < n_noted; k++) {
		const char *q = noted[k];
		found |= q == hi;
		idx += q >= lo && q < hi;
	}
	pthread_mutex_unlock(&rdc_lazy_note_lock);
	return found ? idx : -1;
}

/* The processor of an entry id ("hipv4-amdgcn-amd-amdhsa--gfx1031:xnack-"),
 * false when it is not one. */
static bool id_target(const char *id, struct rdc_target *t)
{
	struct rdc_bundle_id b;
	if (rdc_bundle_id_parse(id, strlen(id), &b, NULL) != 0 || !b.has_target)
		return false;
	*t = b.target;
	return true;
}

static bool acting(const struct rdc_device *dev)
{
	return dev && (dev->mode == RDC_MODE_MAP || dev->mode == RDC_MODE_SPOOF);
}

size_t rdc_lazy_extra_ids(const char *const *ids, size_t n_ids, char (*extra)[128], size_t max)
{
	const struct rdc_tables *t = rdc_tables();
	size_t n = 0;
	for (size_t i = 0; t && i < n_ids; i++) {
		struct rdc_target want;
		if (!id_target(ids[i], &want))
			continue;
		bool mapped = false;
		for (size_t d = 0; d < rdc_devices_count() && !mapped; d++) {
			const struct rdc_device *dev = rdc_device_get(d);
			mapped = acting(dev) && strcmp(dev->target.proc, want.proc) == 0;
		}
		if (!mapped)
			continue;
		const struct rdc_compat_edge *e[32];
		size_t ne = rdc_compat_edges_for(t, want.proc, e, 32);
		/* then the processors `prefer` rows name for this target */
		const char *pref[32];
		size_t np = 0;
		for (size_t r = 0; r < t->n_rules && np < 32; r++)
			if (t->rules[r].action == RDC_RULE_PREFER && t->rules[r].prefer &&
			    rdc_rules_prefer_any(t, want.proc, "*", 0, true))
				pref[np++] = t->rules[r].prefer;
		for (size_t k = 0; k < ne + np && n < max; k++) {
			if (k < ne && !rdc_edge_usable(e[k]))
				continue;
			char id[128];
			snprintf(id, sizeof id, "hipv4-amdgcn-amd-amdhsa--%s", k < ne ? e[k]->code : pref[k - ne]);
			bool have = false;
			for (size_t j = 0; j < n_ids && !have; j++)
				have = strcmp(ids[j], id) == 0;
			for (size_t j = 0; j < n && !have; j++)
				have = strcmp(extra[j], id) == 0;
			if (!have)
				memcpy(extra[n++], id, sizeof id);
		}
	}
	return n;
}

/* Does an item hold code the device runs without the shim: its own
 * target, or a generic one the runtime lists for it?  A generic item counts
 * only when the compat edge device <- generic is not checked by its
 * instructions (rdc_generic_edge_checked, the test decide.c's generic check
 * makes): else the decision checks its kernels (warned, or replaced with the
 * generic code's kernels held). */
static bool own_item(const struct rdc_lazy_item *items, size_t n, const struct rdc_device *dev)
{
	for (size_t k = 0; k < n; k++) {
		struct rdc_target t;
		if (!items[k].size || !id_target(items[k].id, &t))
			continue;
		if (rdc_target_matches(&t, &dev->target))
			return true;
		if (rdc_device_runtime_generic(dev, &t) &&
		    !rdc_generic_edge_checked(rdc_tables(), dev->target.proc, t.proc))
			return true;
	}
	return false;
}


/* The debug line for a retargeted object handed to the runtime. */
static void log_retargeted(const char *lib, long index, const char *source, const struct rdc_add *a,
			   size_t bytes, const char *how)
{
	if (!rdc_log_enabled(RDC_LOG_DEBUG))
		return;
	struct rdc_kv kv[] = {
		RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_S("source", source),
		RDC_KV_S("entry", a->id), RDC_KV_N("bytes", bytes), RDC_KV_S("how", how),
		RDC_KV_S("patches", a->from_cache ? "cached" : "computed"),
	};
	rdc_log_event(RDC_LOG_DEBUG, "retargeted", kv, sizeof kv / sizeof kv[0]);
}

/* May a `prefer` row want another entry than the device's own for the
 * library holding `p`?  (Its file name is looked up only when some
 * library-scoped row names the device.) */
static bool prefer_may_apply(const struct rdc_tables *t, const char *proc, const void *p)
{
	if (rdc_rules_prefer_any(t, proc, NULL, 0, true))
		return true;
	bool scoped = false;
	for (size_t i = 0; i < t->n_rules && !scoped; i++)
		scoped = t->rules[i].action == RDC_RULE_PREFER && t->rules[i].scope_lib;
	struct rdc_segment seg;
	if (!scoped || rdc_segment_find(p, &seg) != 0)
		return false;
	char lib[512];
	rdc_segment_lib_name(&seg, lib, sizeof lib);
	return rdc_rules_prefer_any(t, proc, lib, 0, true);
}

bool rdc_lazy_prefer_may(const void *p, const char *isa)
{
	const struct rdc_tables *t = rdc_tables();
	for (size_t d = 0; t && isa && d < rdc_devices_count(); d++) {
		const struct rdc_device *dev = rdc_device_get(d);
		if (acting(dev) && strcmp(dev->isa_name, isa) == 0)
			return prefer_may_apply(t, dev->target.proc, p);
	}
	return false;
}

bool rdc_lazy_all_native(const void *p, const struct rdc_lazy_item *items, size_t n)
{
	const struct rdc_tables *t = rdc_tables();
	for (size_t d = 0; d < rdc_devices_count(); d++) {
		const struct rdc_device *dev = rdc_device_get(d);
		if (!acting(dev))
			continue;
		if (!own_item(items, n, dev) || (t && prefer_may_apply(t, dev->target.proc, p)))
			return false;
	}
	return true;
}

int rdc_lazy_obj_materialize(struct rdc_lazy_obj *o, const uint8_t *src)
{
	if (o->data)
		return 0;
	o->data = malloc(o->size ? o->size : 1);
	if (!o->data)
		return RDC_E_NOMEM;
	memcpy(o->data, src, o->size);
	for (size_t k = 0; k < o->n_patches; k++)
		memcpy(o->data + o->patches[k].offset, o->patches[k].bytes, o->patches[k].len);
	return 0;
}

void rdc_lazy_obj_free(struct rdc_lazy_obj *o)
{
	free(o->data);
	free(o->patches);
	o->data = NULL;
	o->patches = NULL;
	o->n_patches = 0;
}

/* The object for added entry `a` made from `e`: its in-place patches when
 * the retarget is expressed so (no copy: hook_comgr.c hands the runtime the
 * unbundler's own bytes, patched as it reads them), else a retargeted copy. */
static int make_obj(const struct rdc_bundle_entry *e, const struct rdc_add *a, struct rdc_lazy_obj *o,
		    struct rdc_diag *d)
{
	snprintf(o->id, sizeof o->id, "%s", a->id);
	struct rdc_diag pd = { 0 };
	int prc;
	if (e->size >= sizeof o->head && e->data)
		prc = rdc_decided_patches(a, e->data, e->size, &o->patches, &o->n_patches, &pd);
	else if ((prc = rdc_add_handover(a, e->data, e->size, &pd)) == 0)
		prc = RDC_E_TRUNCATED;   /* no patches for so short an object: a copy */
	if (prc == 0) {
		o->size = e->size;
		o->data = NULL;
		memcpy(o->head, e->data, sizeof o->head);
		return 0;
	}
	rdc_lazy_obj_free(o);
	if (prc == RDC_E_REFUSED)   /* not this device's to run: no copy either */
		return rdc_diag_set(d, prc, RDC_NO_OFFSET, "%s", pd.msg);
	size_t len = 0;
	int rc = rdc_add_copy(e, a, pd.msg[0] ? pd.msg : "an object shorter than its head", &o->data,
			      &len, d);
	o->size = len;
	return rc;
}

/* A compressed bundle decided in this process: should the runtime unbundle
 * the same bundle again (the same image loaded as a module twice, say), the
 * decision stands — made and logged once.  Keyed by the pointer and the
 * CCOB header (sizes and stored hash), so a heap image freed and another
 * loaded at its address is decided afresh. */
/* The kernels added entry `a` (made from `e` of bundle `p`) holds, by
 * name, for the launch hooks (hold.c). */
static void note_held(const void *p, const struct rdc_bundle_entry *e, const struct rdc_add *a)
{
	char **names = NULL;
	size_t n = 0;
	struct rdc_diag d = { 0 };
	if (rdc_add_held_names(a, e->data, (size_t)e->size, &names, &n, &d) != 0) {
		rdc_logf(RDC_LOG_ERROR, "hold: the %zu kernels held on %s cannot be named again (%s)", a->n_held,
			 a->to.proc, d.msg);
		return;
	}
	rdc_hold_note(p, a->to.proc, names, n);
}

/* HIP 7 fat binaries are held by renaming only while the launch hooks
 * watch (hold.c): else a held kernel's launch would stop the process in
 * CLR, so the entry is refused whole, as before per-kernel holds. */
static enum rdc_hold fatbin_hold(void)
{
	return rdc_hold_watching() ? RDC_HOLD_RENAME : RDC_HOLD_NONE;
}

struct lazy_memo {
	struct lazy_memo *next;
	const void *p;
	uint8_t head[32];
	size_t n_add;
	struct rdc_add add[RDC_MAX_DEVICES];
	char src[RDC_MAX_DEVICES][128];   /* the item each add is made from */
};
pthread_mutex_t rdc_lazy_memo_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */
static struct lazy_memo *memos;

static struct lazy_memo *memo_find(const void *p, uint64_t size)
{
	for (struct lazy_memo *m = memos; m; m = m->next)
		if (m->p == p && size >= sizeof m->head && memcmp(m->head, p, sizeof m->head) == 0)
			return m;
	return NULL;
}

/* Hand over what an earlier unbundle of the same bundle decided. */
static int from_memo(const struct lazy_memo *m, const struct rdc_lazy_item *items, size_t n_items,
		     struct rdc_lazy_obj *objs, size_t *n_objs)
{
	for (size_t k = 0; k < m->n_add; k++) {
		size_t i;
		for (i = 0; i < n_items && (!items[i].size || strcmp(items[i].id, m->src[k])); i++)
			;
		if (i == n_items)
			continue;   /* not extracted this time: the runtime's answer stands */
		struct rdc_bundle_entry e = { .id = items[i].id, .id_len = strlen(items[i].id),
					      .size = items[i].size, .data = items[i].data };
		struct rdc_diag d = { 0 };
		struct rdc_lazy_obj *o = &objs[*n_objs];
		memset(o, 0, sizeof *o);
		if (make_obj(&e, &m->add[k], o, &d) != 0)
			continue;
		o->from = i;
		(*n_objs)++;
	}
	rdc_logf(RDC_LOG_DEBUG, "unbundle: bundle at %p decided earlier in this process; %zu "
		 "object(s) handed over again", m->p, *n_objs);
	return 0;
}

static void memo_put(const void *p, uint64_t size, const struct rdc_bundle *b,
		     const struct rdc_add *add, size_t n_add)
{
	struct lazy_memo *m = size >= sizeof m->head ? calloc(1, sizeof *m) : NULL;
	if (!m)
		return;   /* decided again next time, which is only slower */
	m->p = p;
	memcpy(m->head, p, sizeof m->head);
	for (size_t k = 0; k < n_add && k < RDC_MAX_DEVICES; k++) {
		const struct rdc_bundle_entry *e = &b->entries[add[k].from];
		snprintf(m->src[k], sizeof m->src[k], "%.*s", (int)(e->id_len < 127 ? e->id_len : 127), e->id);
		m->add[k] = add[k];
		m->n_add++;
	}
	pthread_mutex_lock(&rdc_lazy_memo_lock);
	m->next = memos;
	memos = m;
	pthread_mutex_unlock(&rdc_lazy_memo_lock);
}

int rdc_lazy_decide(const void *p, uint64_t size, const struct rdc_lazy_item *items,
		    size_t n_items, struct rdc_lazy_obj *objs, size_t *n_objs)
{
	*n_objs = 0;
	pthread_mutex_lock(&rdc_lazy_memo_lock);
	const struct lazy_memo *m = memo_find(p, size);
	pthread_mutex_unlock(&rdc_lazy_memo_lock);
	if (m)   /* memos are never freed: m stays valid */
		return from_memo(m, items, n_items, objs, n_objs);
	char lib[512] = "(memory)";
	long index = -1;
	struct stat st;
	bool have_st = false;
	uint64_t key = 0;
	const char *source = "fatbin", *scope = lib, *cache = lib;
	struct rdc_segment seg;
	if (mod_ctx.pending && (mod_ctx.image == p || !mod_ctx.image)) {
		/* a module load (hook_module.c) */
		mod_ctx.pending = false;
		snprintf(lib, sizeof lib, "%s", mod_ctx.what);
		source = mod_ctx.source;
		scope = mod_ctx.scope[0] ? mod_ctx.scope : NULL;
		index = 0;
		have_st = mod_ctx.have_cache;
		if (have_st) {
			st = mod_ctx.st;
			cache = mod_ctx.cache;
		}
		key = mod_ctx.key | LAZY_KEY_BIT;
	} else if (rdc_segment_find(p, &seg) == 0 && seg.file_backed) {
		rdc_segment_lib_name(&seg, lib, sizeof lib);
		index = rdc_lazy_fatbin_index(p, &seg);
		int fd = rdc_open_file_st(seg.path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, &st,
					  NULL);
		have_st = fd >= 0;   /* a regular file: RDC_OPEN_REG */
		if (fd >= 0) {
			rdc_stat_add(RDC_ST_FILES_OPENED, 1);
			close(fd);
		}
		key = seg.file_offset | LAZY_KEY_BIT;
	}
	/* the extracted items as the bundle's entries */
	struct rdc_bundle b = { .extent = size, .compressed = true };
	b.entries = calloc(n_items ? n_items : 1, sizeof *b.entries);
	if (!b.entries)
		return RDC_E_NOMEM;
	for (size_t k = 0; k < n_items; k++) {
		struct rdc_bundle_entry *e = &b.entries[b.n_entries];
		if (!items[k].size || !items[k].id[0])
			continue;
		e->id = items[k].id;
		e->id_len = strlen(items[k].id);
		e->size = items[k].size;
		e->data = items[k].data;
		if (rdc_bundle_id_parse(e->id, e->id_len, &e->parsed, NULL) != 0)
			e->parsed.kind = RDC_KIND_UNKNOWN;
		b.n_entries++;
	}
	size_t map_from[RDC_MAX_DEVICES];
	struct rdc_add add[RDC_MAX_DEVICES];
	size_t n_add = 0;
	int rc;
	if (b.n_entries == 0) {
		/* nothing compatible came out: the entry table says what is
		 * there, for the log and the diagnosis */
		struct rdc_bundle tb;
		struct rdc_diag d = { 0 };
		rdc_stat_add(RDC_ST_TABLES, 1);
		rc = rdc_bundle_parse_table(p, size, &tb, &d);
		if (rc != 0)
			rc = rdc_bundle_parse_as_runtime(p, size, &tb, &d);
		if (rc != 0) {
			rdc_logf(RDC_LOG_WARN, "%s bundle %ld: cannot read its entry table (%s)", lib, index,
				 d.msg[0] ? d.msg : rdc_strerror(rc));
		} else {
			rdc_stat_add(RDC_ST_DECOMPRESSED, tb.size);
			rdc_decide_bundle(&tb, lib, index, source, add, &n_add);
			rdc_bundle_free(&tb);
			n_add = 0;   /* nothing compatible to add */
		}
		rdc_diag_flush();   /* the runtime is about to fail this module */
		free(b.entries);
		return rc;
	}
	/* a module's kernels are held by renaming them; a fat binary's only
	 * while the launch hooks watch its host stubs (fatbin_hold: usually
	 * decided before its first launch, decide_ccob) */
	bool fatbin = !strcmp(source, "fatbin");
	rc = rdc_decide_bundle_st(&b, lib, index, source, scope, have_st ? cache : NULL,
				  have_st ? &st : NULL, key, fatbin ? fatbin_hold() : RDC_HOLD_RENAME, add,
				  &n_add);
	for (size_t k = 0; fatbin && rc == 0 && k < n_add; k++)
		if (add[k].n_held)
			note_held(p, &b.entries[add[k].from], &add[k]);
	if (rc == 0)
		memo_put(p, size, &b, add, n_add);
	for (size_t k = 0; rc == 0 && k < n_add; k++) {
		const struct rdc_bundle_entry *e = &b.entries[add[k].from];
		struct rdc_diag d = { 0 };
		struct rdc_lazy_obj *o = &objs[*n_objs];
		memset(o, 0, sizeof *o);
		/* which item: entries were taken in item order, skipping empties */
		size_t item = 0, seen = 0;
		for (item = 0; item < n_items; item++)
			if (items[item].size && items[item].id[0] && seen++ == (size_t)add[k].from)
				break;
		map_from[k] = item;
		int orc = make_obj(e, &add[k], o, &d);
		if (orc != 0) {
			rdc_logf(RDC_LOG_ERROR, "%s bundle %ld: retargeting %s failed (%s); the device "
				 "gets no code from this bundle", lib, index, add[k].id,
				 d.msg[0] ? d.msg : rdc_strerror(orc));
			continue;
		}
		o->from = map_from[k];
		rdc_stat_add(add[k].from_cache ? RDC_ST_FROM_CACHE : RDC_ST_RETARGETED, 1);
		log_retargeted(lib, index, source, &add[k], o->size, "unbundle");
		(*n_objs)++;
	}
	free(b.entries);
	return rc;
}

/* ---- uncompressed bundles: the runtime's lookup (hook_comgr.c, w_lookup) */

pthread_mutex_t rdc_lazy_rt_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */

/* The major version of the HIP runtime defining `real`, from its file
 * name (libamdhip64.so.N); 0 when unknown.  The last answer is kept (one
 * runtime per process, or two in turn). */
static unsigned runtime_major(const void *real)
{
	static const void *last_real;
	static unsigned last_major;
	pthread_mutex_lock(&rdc_lazy_rt_lock);
	if (last_real != real) {
		Dl_info info;
		unsigned major = 0;
		const char *base = NULL;
		if (dladdr(real, &info) && info.dli_fname) {
			base = strrchr(info.dli_fname, '/');
			base = base ? base + 1 : info.dli_fname;
		}
		if (!base || sscanf(base, "libamdhip64.so.%u", &major) != 1)
			major = 0;
		last_major = major;
		last_real = real;
	}
	unsigned m = last_major;
	pthread_mutex_unlock(&rdc_lazy_rt_lock);
	return m;
}

bool rdc_lazy_fatbin_ok(const void *p, uint64_t avail, const void *real)
{
	if (!rdc_lazy_enabled() || !p || !real)
		return false;
	unsigned major = runtime_major(real);
	if (major < 6)
		return false;   /* HIP 5.2 (or unknown): decided at registration */
	/* HIP 7 reads a module when it is used, compressed or not, and asks
	 * comgr for every ISA name it accepts, generic ones included: the
	 * bundle is not even looked at now.  (Reading its first bytes would
	 * fault in the pages around them — 64 KiB each by the kernel's
	 * fault-around — for hundreds of bundles the process never uses.) */
	if (major >= 7)
		return true;
	/* HIP 6.4 reads every bundle at hipInit, used or not.  A compressed one
	 * is left to its unbundling (deciding now would decompress it a second
	 * time).  A plain one is decided at registration, as for 5.2: the work
	 * is the same set either way, and the rebuilt bundle's header in the
	 * arena (remap_arena.c) shortens HIP's own /proc/self/maps scan for each
	 * bundle — measured on ggml's 140 bundles (docs/PERF.md, 2026-12-04):
	 * CPU 1.04x and peak RSS 0.52x of the override at registration, against
	 * 1.18x and 1.06x when every object was handed over at the lookup. */
	return rdc_is_ccob(p, avail < 4 ? avail : 4);
}

bool rdc_lazy_patch_at_load(const void *real)
{
	if (!rdc_lazy_enabled() || !real)
		return false;
	/* HIP 5.2, and HIP 6.4's plain bundles (decided at registration:
	 * rdc_lazy_fatbin_ok); HIP 7 leaves every bundle to its lookup */
	unsigned major = runtime_major(real);
	return major >= 1 && major < 7;
}

struct lazy_obj {
	struct lazy_obj *next;
	const void *bundle;
	char proc[RDC_PROC_MAX];
	struct rdc_lazy_obj o;       /* data NULL: decided, nothing to add */
	void *map;                   /* o.data lies in this private file mapping */
	size_t map_len;              /* (else it is malloc'ed) */
};

/* Object `o` made as patches (make_obj) turned into bytes of its own: the
 * entry copied and patched, for a lookup that hands the runtime a pointer. */
static int patched_copy(const struct rdc_bundle_entry *e, struct rdc_lazy_obj *o, struct rdc_diag *d)
{
	uint8_t *c = malloc(e->size ? (size_t)e->size : 1);
	if (!c)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	memcpy(c, e->data, (size_t)e->size);
	for (size_t k = 0; k < o->n_patches; k++)   /* each inside the entry: rdc_decided_patches */
		memcpy(c + o->patches[k].offset, o->patches[k].bytes, o->patches[k].len);
	free(o->patches);
	o->patches = NULL;
	o->n_patches = 0;
	o->data = c;
	o->size = e->size;
	return 0;
}

/* The retargeted object as a private mapping of the library file: only the
 * pages the patches touch become the process's own (the rest stays the
 * page cache's, as the library's pages are).  0, or nonzero (then the
 * caller copies). */
static int map_obj(int fd, uint64_t file_off, const struct rdc_bundle_entry *e,
		   const struct rdc_add *a, struct lazy_obj *x)
{
	long ps = sysconf(_SC_PAGESIZE);
	if (fd < 0 || ps <= 0)
		return -1;
	/* all of the decision's patches, those the cache holds beyond the
	 * first RDC_ADD_PATCHES (a multi-note object, held kernels) included */
	struct rdc_patch *pt = NULL;
	size_t n_pt = 0;
	struct rdc_diag pd = { 0 };
	if (rdc_decided_patches(a, e->data, e->size, &pt, &n_pt, &pd) != 0)
		return -1;
	uint64_t start = file_off / (uint64_t)ps * (uint64_t)ps, delta = file_off - start;
	size_t len = (size_t)((delta + e->size + (uint64_t)ps - 1) / (uint64_t)ps * (uint64_t)ps);
	uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, (off_t)start);
	if (m == MAP_FAILED) {
		free(pt);
		return -1;
	}
	if (memcmp(m + delta, e->data, e->size < 4096 ? e->size : 4096) != 0) {
		munmap(m, len);   /* the file is not what was loaded */
		free(pt);
		return -1;
	}
	for (size_t k = 0; k < n_pt; k++)   /* each inside the entry: rdc_decided_patches */
		memcpy(m + delta + pt[k].offset, pt[k].bytes, pt[k].len);
	free(pt);
	mprotect(m, len, PROT_READ);
	x->map = m;
	x->map_len = len;
	snprintf(x->o.id, sizeof x->o.id, "%s", a->id);
	x->o.data = m + delta;
	x->o.size = e->size;
	return 0;
}
pthread_mutex_t rdc_lazy_obj_lock = PTHREAD_MUTEX_INITIALIZER;   /* shim.h's lock order */
static struct lazy_obj *objs_made;

void rdc_lazy_forget(const void *p)
{
	const struct link_map *obj = rdc_object_of(p);
	pthread_mutex_lock(&rdc_lazy_note_lock);
	for (size_t k = 0; obj && k < n_done_objs; k++)
		if (done_objs[k] == obj)
			done_objs[k--] = done_objs[--n_done_objs];
	pthread_mutex_unlock(&rdc_lazy_note_lock);
	pthread_mutex_lock(&rdc_lazy_obj_lock);
	for (struct lazy_obj **pp = &objs_made; *pp;) {
		struct lazy_obj *x = *pp;
		if (x->bundle != p) {
			pp = &x->next;
			continue;
		}
		*pp = x->next;
		if (x->map)
			munmap(x->map, x->map_len);
		else
			free(x->o.data);
		free(x);
	}
	pthread_mutex_unlock(&rdc_lazy_obj_lock);
}

static const struct rdc_device *device_of_isa(const char *isa)
{
	for (size_t d = 0; isa && d < rdc_devices_count(); d++) {
		const struct rdc_device *dev = rdc_device_get(d);
		if (acting(dev) && strcmp(dev->isa_name, isa) == 0)
			return dev;
	}
	return NULL;
}

static struct lazy_obj *made(const void *p, const char *proc)
{
	for (struct lazy_obj *x = objs_made; x; x = x->next)
		if (x->bundle == p && strcmp(x->proc, proc) == 0)
			return x;
	return NULL;
}

/* Decide the bundle for every acting device and keep what is added. */
static int decide_plain(const void *p)
{
	struct rdc_segment seg;
	if (rdc_segment_find(p, &seg) != 0 || !seg.file_backed)
		return RDC_E_NOTFOUND;
	char lib[512];
	rdc_segment_lib_name(&seg, lib, sizeof lib);
	long index = rdc_lazy_fatbin_index(p, &seg);
	struct rdc_diag d = { 0 };
	struct rdc_bundle b;
	int rc = rdc_bundle_parse_as_runtime(p, seg.avail, &b, &d);
	if (rc != 0) {
		rdc_logf(RDC_LOG_WARN, "%s bundle %ld: cannot parse (%s); the runtime's lookup stands",
			 lib, index, d.msg[0] ? d.msg : rdc_strerror(rc));
		return rc;
	}
	struct stat st;
	int fd = rdc_open_file_st(seg.path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, &st, NULL);
	bool have_st = fd >= 0;   /* a regular file: RDC_OPEN_REG */
	if (fd >= 0)
		rdc_stat_add(RDC_ST_FILES_OPENED, 1);
	struct rdc_add add[RDC_MAX_DEVICES];
	size_t n_add = 0;
	rc = rdc_decide_bundle_st(&b, lib, index, "fatbin", lib, have_st ? lib : NULL,
				  have_st ? &st : NULL, seg.file_offset, fatbin_hold(), add, &n_add);
	rdc_diag_flush();   /* missing code: said before the runtime fails the module */
	for (size_t d2 = 0; rc == 0 && d2 < rdc_devices_count(); d2++) {
		const struct rdc_device *dev = rdc_device_get(d2);
		if (!acting(dev) || made(p, dev->target.proc))
			continue;
		struct lazy_obj *x = calloc(1, sizeof *x);
		if (!x)
			break;
		x->bundle = p;
		snprintf(x->proc, sizeof x->proc, "%s", dev->target.proc);
		for (size_t k = 0; k < n_add; k++) {
			if (strcmp(add[k].to.proc, dev->target.proc) != 0)
				continue;
			struct rdc_diag od = { 0 };
			const struct rdc_bundle_entry *en = &b.entries[add[k].from];
			bool mapped = have_st && map_obj(fd, seg.file_offset + en->offset, en, &add[k], x) == 0;
			int orc = mapped ? 0 : make_obj(en, &add[k], &x->o, &od);
			if (orc == 0 && !mapped && !x->o.data)
				orc = patched_copy(en, &x->o, &od);   /* the lookup hands over bytes */
			if (orc != 0)
				rdc_logf(RDC_LOG_ERROR, "%s bundle %ld: retargeting %s failed (%s); the "
					 "device gets no code from this bundle", lib, index, add[k].id,
					 od.msg[0] ? od.msg : rdc_strerror(orc));
			else {
				rdc_stat_add(add[k].from_cache ? RDC_ST_FROM_CACHE : RDC_ST_RETARGETED, 1);
				log_retargeted(lib, index, "fatbin", &add[k], x->o.size,
					       mapped ? "file-mapping" : "copy");
				if (add[k].n_held)
					note_held(p, en, &add[k]);
			}
			break;
		}
		x->next = objs_made;
		objs_made = x;
	}
	rdc_bundle_free(&b);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Could bundle `p` make device `dev` hold kernels?  No entry of its own,
 * and an entry reached by an edge that may hold (rdc_edge_may_hold; from
 * the entry table in the bundle's header: nothing else read). */
static bool might_hold(const void *p, const struct rdc_device *dev)
{
	struct rdc_segment seg;
	struct rdc_bundle b;
	/* of a compressed bundle the table is in its first 64 KiB decompressed */
	if (rdc_segment_find(p, &seg) != 0 || rdc_bundle_parse_table(p, seg.avail, &b, NULL) != 0)
		return false;
	const struct rdc_compat_edge *edges[64];
	size_t ne = rdc_compat_edges_for(rdc_tables(), dev->target.proc, edges, 64);
	bool own = false, cond = false;
	for (size_t i = 0; i < b.n_entries; i++) {
		const struct rdc_bundle_entry *e = &b.entries[i];
		if (!e->parsed.has_target || e->parsed.kind == RDC_KIND_HOST)
			continue;
		own |= !strcmp(e->parsed.target.proc, dev->target.proc);
		for (size_t k = 0; k < ne; k++)
			cond |= rdc_edge_may_hold(rdc_tables(), edges[k]) &&
				!strcmp(edges[k]->code, e->parsed.target.proc);
	}
	rdc_bundle_free(&b);
	return cond && !own;
}

/* A compressed bundle HIP 7 will unbundle when one of its kernels is first
 * used, decided now, whole (decompressed once), for the launch hooks: the
 * decision is kept as the memo the unbundle then hands over from
 * (from_memo: the items it extracts, found by id), and its held kernels
 * are noted (hold.c).  Decided and cached as a whole bundle at
 * registration is (key: the bundle's file offset). */
static void decide_ccob(const void *p)
{
	pthread_mutex_lock(&rdc_lazy_memo_lock);
	bool known = memo_find(p, 32) != NULL;
	pthread_mutex_unlock(&rdc_lazy_memo_lock);
	struct rdc_segment seg;
	if (known || rdc_segment_find(p, &seg) != 0 || !seg.file_backed)
		return;
	char lib[512];
	rdc_segment_lib_name(&seg, lib, sizeof lib);
	long index = rdc_lazy_fatbin_index(p, &seg);
	struct rdc_diag d = { 0 };
	struct rdc_bundle b;
	if (rdc_bundle_parse_as_runtime(p, seg.avail, &b, &d) != 0) {
		rdc_logf(RDC_LOG_WARN, "%s bundle %ld: cannot parse (%s); left to the runtime's unbundling",
			 lib, index, d.msg[0] ? d.msg : "?");
		return;
	}
	rdc_stat_add(RDC_ST_DECOMPRESSED, b.size);
	struct stat st;
	int fd = rdc_open_file_st(seg.path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, &st, NULL);
	bool have_st = fd >= 0;
	if (fd >= 0)
		close(fd);
	struct rdc_add add[RDC_MAX_DEVICES];
	size_t n_add = 0;
	if (rdc_decide_bundle_st(&b, lib, index, "fatbin", lib, have_st ? lib : NULL, have_st ? &st : NULL,
				 seg.file_offset, fatbin_hold(), add, &n_add) == 0) {
		memo_put(p, b.extent, &b, add, n_add);
		for (size_t k = 0; k < n_add; k++)
			if (add[k].n_held)
				note_held(p, &b.entries[add[k].from], &add[k]);
	}
	rdc_diag_flush();
	rdc_bundle_free(&b);
}


void rdc_lazy_decide_object(const struct link_map *obj)
{
	pthread_mutex_lock(&rdc_lazy_note_lock);
	for (size_t k = 0; k < n_done_objs; k++)
		if (done_objs[k] == obj) {
			pthread_mutex_unlock(&rdc_lazy_note_lock);
			return;
		}
	size_t n = n_noted;
	const void **mine = malloc((n ? n : 1) * sizeof *mine);
	size_t nm = 0;
	for (size_t k = 0; mine && k < n; k++)
		if (rdc_object_of(noted[k]) == obj)
			mine[nm++] = noted[k];
	pthread_mutex_unlock(&rdc_lazy_note_lock);
	pthread_mutex_lock(&rdc_lazy_obj_lock);
	for (size_t k = 0; k < nm; k++) {
		bool need = false;
		for (size_t d = 0; d < rdc_devices_count() && !need; d++) {
			const struct rdc_device *dev = rdc_device_get(d);
			need = acting(dev) && !made(mine[k], dev->target.proc) && might_hold(mine[k], dev);
		}
		if (need && rdc_is_ccob(mine[k], 4))
			decide_ccob(mine[k]);
		else if (need)
			decide_plain(mine[k]);
	}
	pthread_mutex_unlock(&rdc_lazy_obj_lock);
	bool listed = mine != NULL;
	free(mine);
	/* marked once decided: a thread asking meanwhile decides too (made()
	 * keeps that to one decision per bundle and device) */
	pthread_mutex_lock(&rdc_lazy_note_lock);
	if (listed && n_done_objs < DONE_OBJS)
		done_objs[n_done_objs++] = obj;
	pthread_mutex_unlock(&rdc_lazy_note_lock);
}

int rdc_lazy_lookup(const void *p, const char *const *isa, size_t n, const void **obj,
		    size_t *size)
{
	if (!noted_here(p))
		return 0;   /* decided at registration (or not a registered bundle) */
	pthread_mutex_lock(&rdc_lazy_obj_lock);
	int rc = 0;
	for (size_t k = 0; k < n; k++) {
		const struct rdc_device *dev = device_of_isa(isa[k]);
		if (!dev)
			continue;
		struct lazy_obj *x = made(p, dev->target.proc);
		if (!x) {
			rc = decide_plain(p);
			x = rc == 0 ? made(p, dev->target.proc) : NULL;
		}
		if (x && x->o.data) {
			obj[k] = x->o.data;
			size[k] = x->o.size;
		}
	}
	pthread_mutex_unlock(&rdc_lazy_obj_lock);
	return rc;
}
