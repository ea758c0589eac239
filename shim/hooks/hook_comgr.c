/* SPDX-License-Identifier: MIT */
/*
 * hook_comgr.c — the runtime's unbundling of a compressed bundle, the
 * moment the shim decides it.  HIP 6.4 and 7.x extract a device's code from
 * a compressed bundle (CCOB) only through comgr: create a data object of
 * kind OBJ_BUNDLE, amd_comgr_set_data(the registered bundle pointer, its
 * total size), amd_comgr_action_info_set_bundle_entry_ids("hipv4-" + each
 * device's ISA name, and its generic one), amd_comgr_do_action(UNBUNDLE),
 * then read every EXECUTABLE item of the result set by name (clr
 * hipamd/src/hip_fatbin.cpp, UncompressAndPopulateCodeObject).  HIP 7 does
 * that when a module's first kernel or variable is used, 6.4 at hipInit;
 * hipModuleLoadData* at the load.
 *
 * The wrappers (handed out by hook_dlsym.c) remember which data objects
 * hold a bundle and which ids an action asks for.  At an UNBUNDLE action:
 * the ids of the codes each mapped device may use are added (lazy.c: the
 * compat table), so comgr's single decompression also yields them; after
 * it, when a device got no item of its own, lazy.c decides from the items
 * and the retargeted code object is added to the result set under the
 * device's id, as if the bundle had held it; the items asked for only by
 * the shim are taken out again.  Nothing else in the call changes.
 *
 * When the retarget is a few in-place patches (e_flags, the metadata's
 * target strings) and the item it is made from was asked for by the shim
 * alone, no copy is made: that item itself is renamed to the device's id and
 * patched in the runtime's own buffer when the runtime reads it
 * (amd_comgr_get_data, w_get_data), after checking that the bytes read are
 * the item's (its size and first 64 bytes).  A 17 MB Tensile module costs
 * one read for the decision instead of three copies.
 *
 * An uncompressed bundle is looked up instead (amd_comgr_lookup_code_object,
 * w_lookup below): a device the lookup found nothing for is decided there.
 *
 * Any doubt — a second comgr library, an unknown data object, a failed
 * comgr call — and the action runs as the runtime asked, logged.  Records
 * are dropped when the runtime releases the object.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

/* amd_comgr.h (ROCm 6.4/7.2): every handle is a struct of one uint64_t */
typedef struct { uint64_t handle; } cg_h;
typedef int cg_status;
#define CG_SUCCESS 0
#define CG_ERROR 1
#define CG_KIND_EXECUTABLE 0x8
#define CG_KIND_OBJ_BUNDLE 0x14
#define CG_ACTION_UNBUNDLE 0xF

/* amd_comgr_code_object_info_t */
struct cg_coinfo {
	const char *isa;
	size_t size;
	uint64_t offset;
};

struct cg_real {
	void *lib;   /* the handle the entries were found in */
	cg_status (*set_data)(cg_h, size_t, const char *);
	cg_status (*get_data)(cg_h, size_t *, char *);
	cg_status (*release_data)(cg_h);
	cg_status (*set_ids)(cg_h, const char *[], size_t);
	cg_status (*destroy_info)(cg_h);
	cg_status (*do_action)(int, cg_h, cg_h, cg_h);
	cg_status (*lookup)(cg_h, struct cg_coinfo *, size_t);
	/* not wrapped, used */
	cg_status (*data_count)(cg_h, int, size_t *);
	cg_status (*get_item)(cg_h, int, size_t, cg_h *);
	cg_status (*get_name)(cg_h, size_t *, char *);
	cg_status (*create_data)(int, cg_h *);
	cg_status (*set_name)(cg_h, const char *);
	cg_status (*set_add)(cg_h, cg_h);
	cg_status (*set_remove)(cg_h, int);
};
static struct cg_real R;
static _Atomic int R_ready;     /* R filled (once, under rdc_comgr_lock) */
pthread_mutex_t rdc_comgr_lock = PTHREAD_MUTEX_INITIALIZER;   /* shim.h's lock order */

/* data objects holding a bundle; actions' entry ids */
struct cg_data {
	struct cg_data *next;
	uint64_t h;
	const void *p;
	size_t size;
};
struct cg_info {
	struct cg_info *next;
	uint64_t h;
	size_t n;
	char **ids;
};
static struct cg_data *datas;
static struct cg_info *infos;

/* Items handed to the runtime renamed, patched as it reads them. */
struct cg_patched {
	struct cg_patched *next;
	uint64_t h;
	bool read;                  /* patched into a read at least once */
	struct rdc_lazy_obj o;      /* size, patches, head */
};
static struct cg_patched *patched;
static _Atomic size_t n_patched;  /* the read hook's fast test */

static void info_free(struct cg_info *i)
{
	for (size_t k = 0; k < i->n; k++)
		free(i->ids[k]);
	free(i->ids);
	free(i);
}

static cg_status w_set_data(cg_h d, size_t size, const char *bytes)
{
	cg_status st = R.set_data(d, size, bytes);
	if (st != CG_SUCCESS || !bytes || size < 24 || !rdc_is_bundle(bytes, size))
		return st;
	struct cg_data *x = malloc(sizeof *x);
	if (!x)
		return st;
	*x = (struct cg_data){ .h = d.handle, .p = bytes, .size = size };
	pthread_mutex_lock(&rdc_comgr_lock);
	x->next = datas;
	datas = x;
	pthread_mutex_unlock(&rdc_comgr_lock);
	return st;
}

/* The runtime reads an item's bytes: a renamed one gets its patches, when
 * the bytes are the item's (size and first bytes as at the decision). */
static cg_status w_get_data(cg_h d, size_t *size, char *bytes)
{
	size_t cap = size ? *size : 0;
	cg_status st = R.get_data(d, size, bytes);
	if (st != CG_SUCCESS || !bytes || !size || !atomic_load_explicit(&n_patched, memory_order_acquire))
		return st;
	size_t applied = 0;
	pthread_mutex_lock(&rdc_comgr_lock);
	for (struct cg_patched *x = patched; x; x = x->next) {
		if (x->h != d.handle)
			continue;
		const struct rdc_lazy_obj *o = &x->o;
		size_t have = cap < *size ? cap : *size;
		if (*size != o->size || have < sizeof o->head || memcmp(bytes, o->head, sizeof o->head) != 0)
			break;   /* not the bytes decided on: left as read */
		for (size_t k = 0; k < o->n_patches; k++)
			if (o->patches[k].offset + o->patches[k].len <= have) {
				memcpy(bytes + o->patches[k].offset, o->patches[k].bytes, o->patches[k].len);
				applied++;
			}
		x->read = true;
		break;
	}
	pthread_mutex_unlock(&rdc_comgr_lock);
	if (applied)
		rdc_logf(RDC_LOG_DEBUG, "unbundle: %zu patches applied to the runtime's read of %zu bytes", applied,
			 *size);
	return st;
}

static cg_status w_release_data(cg_h d)
{
	pthread_mutex_lock(&rdc_comgr_lock);
	for (struct cg_data **pp = &datas; *pp; pp = &(*pp)->next)
		if ((*pp)->h == d.handle) {
			struct cg_data *x = *pp;
			*pp = x->next;
			free(x);
			break;
		}
	/* the runtime read a renamed item and lets go of it: done with it */
	for (struct cg_patched **pp = &patched; *pp; pp = &(*pp)->next)
		if ((*pp)->h == d.handle && (*pp)->read) {
			struct cg_patched *x = *pp;
			*pp = x->next;
			free(x->o.patches);
			free(x);
			atomic_fetch_sub(&n_patched, 1);
			break;
		}
	pthread_mutex_unlock(&rdc_comgr_lock);
	return R.release_data(d);
}

static cg_status w_set_ids(cg_h info, const char *ids[], size_t n)
{
	cg_status st = R.set_ids(info, ids, n);
	if (st != CG_SUCCESS || !ids || n == 0 || n > 256)
		return st;
	struct cg_info *x = calloc(1, sizeof *x);
	char **v = x ? calloc(n, sizeof *v) : NULL;
	if (!v) {
		free(x);
		return st;
	}
	x->h = info.handle;
	x->ids = v;
	for (size_t k = 0; k < n; k++) {
		v[k] = ids[k] ? strdup(ids[k]) : NULL;
		x->n = k + 1;
		if (!v[k]) {
			info_free(x);
			return st;
		}
	}
	pthread_mutex_lock(&rdc_comgr_lock);
	for (struct cg_info **pp = &infos; *pp; pp = &(*pp)->next)
		if ((*pp)->h == info.handle) {   /* set again: the newer ids count */
			struct cg_info *o = *pp;
			*pp = o->next;
			info_free(o);
			break;
		}
	x->next = infos;
	infos = x;
	pthread_mutex_unlock(&rdc_comgr_lock);
	return st;
}

static cg_status w_destroy_info(cg_h info)
{
	pthread_mutex_lock(&rdc_comgr_lock);
	for (struct cg_info **pp = &infos; *pp; pp = &(*pp)->next)
		if ((*pp)->h == info.handle) {
			struct cg_info *o = *pp;
			*pp = o->next;
			info_free(o);
			break;
		}
	pthread_mutex_unlock(&rdc_comgr_lock);
	return R.destroy_info(info);
}

/* The bundle the input set holds (a data object set_data saw), or NULL. */
static const void *input_bundle(cg_h in, size_t *size)
{
	size_t n = 0;
	if (R.data_count(in, CG_KIND_OBJ_BUNDLE, &n) != CG_SUCCESS || n != 1)
		return NULL;
	cg_h d;
	if (R.get_item(in, CG_KIND_OBJ_BUNDLE, 0, &d) != CG_SUCCESS)
		return NULL;
	const void *p = NULL;
	pthread_mutex_lock(&rdc_comgr_lock);
	for (struct cg_data *x = datas; x; x = x->next)
		if (x->h == d.handle) {
			p = x->p;
			*size = x->size;
			break;
		}
	pthread_mutex_unlock(&rdc_comgr_lock);
	R.release_data(d);   /* the reference get_item added */
	return p;
}

/* The action's ids (copied into *out, an array of n pointers into one
 * allocation), or NULL. */
static char **action_ids(cg_h info, size_t *n)
{
	char **out = NULL;
	pthread_mutex_lock(&rdc_comgr_lock);
	for (struct cg_info *x = infos; x; x = x->next) {
		if (x->h != info.handle)
			continue;
		size_t len = 0;
		for (size_t k = 0; k < x->n; k++)
			len += strlen(x->ids[k]) + 1;
		out = malloc(x->n * sizeof *out + len);
		if (!out)
			break;
		char *s = (char *)(out + x->n);
		for (size_t k = 0; k < x->n; k++) {
			size_t l = strlen(x->ids[k]) + 1;
			memcpy(s, x->ids[k], l);
			out[k] = s;
			s += l;
		}
		*n = x->n;
		break;
	}
	pthread_mutex_unlock(&rdc_comgr_lock);
	return out;
}

/* "hipfatbin-hipv4-amdgcn-amd-amdhsa--gfx1030.co" -> its entry id (from
 * "hipv4-" to the extension); false when the name has none. */
static bool item_entry_id(const char *name, char *id, size_t n)
{
	const char *s = strstr(name, "hipv4-");
	if (!s)
		return false;
	const char *dot = strrchr(s, '.');
	size_t len = dot ? (size_t)(dot - s) : strlen(s);
	if (len == 0 || len >= n)
		return false;
	memcpy(id, s, len);
	id[len] = 0;
	return true;
}

struct cg_item {
	cg_h h;
	char name[256];
	struct rdc_lazy_item it;
	uint8_t *owned;
	bool extra;      /* asked for by the shim only */
};

static void items_free(struct cg_item *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free(v[k].owned);
		R.release_data(v[k].h);
	}
	free(v);
}

/* Every EXECUTABLE item of the result set with its name and bytes. */
static struct cg_item *read_items(cg_h out, size_t *n_out)
{
	size_t n = 0;
	if (R.data_count(out, CG_KIND_EXECUTABLE, &n) != CG_SUCCESS || n > 1024)
		return NULL;
	struct cg_item *v = calloc(n ? n : 1, sizeof *v);
	if (!v)
		return NULL;
	size_t got = 0;
	for (size_t k = 0; k < n; k++) {
		struct cg_item *x = &v[got];
		if (R.get_item(out, CG_KIND_EXECUTABLE, k, &x->h) != CG_SUCCESS)
			goto fail;
		got++;
		size_t nl = sizeof x->name - 1, sz = 0;
		if (R.get_name(x->h, &nl, NULL) != CG_SUCCESS || nl >= sizeof x->name ||
		    R.get_name(x->h, &nl, x->name) != CG_SUCCESS)
			goto fail;
		x->name[nl < sizeof x->name ? nl : sizeof x->name - 1] = 0;
		if (!item_entry_id(x->name, x->it.id, sizeof x->it.id))
			continue;   /* kept, not one of ours to read */
		if (R.get_data(x->h, &sz, NULL) != CG_SUCCESS)
			goto fail;
		x->it.size = sz;   /* the bytes only when deciding (read_bytes) */
	}
	*n_out = got;
	return v;
fail:
	items_free(v, got);
	return NULL;
}

/* The items' bytes (comgr hands out copies): 0, or nonzero on failure. */
static int read_bytes(struct cg_item *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct cg_item *x = &v[k];
		size_t sz = x->it.size;
		if (!sz || !x->it.id[0] || x->owned)
			continue;
		x->owned = malloc(sz);
		if (!x->owned || R.get_data(x->h, &sz, (char *)x->owned) != CG_SUCCESS || sz != x->it.size)
			return RDC_E_IO;
		x->it.data = x->owned;
	}
	return 0;
}

static bool id_in(const char *id, const char *const *ids, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(ids[k], id) == 0)
			return true;
	return false;
}

/* Hand item `src` itself to the runtime as `o` (renamed `name`, patched
 * when read: w_get_data).  0, or nonzero when comgr refused. */
static int hand_renamed(cg_h out, const struct cg_item *src, struct rdc_lazy_obj *o, const char *name)
{
	struct cg_patched *x = calloc(1, sizeof *x);
	if (!x)
		return RDC_E_NOMEM;
	x->h = src->h.handle;
	x->o = *o;
	x->o.data = NULL;
	if (R.set_name(src->h, name) != CG_SUCCESS || R.set_add(out, src->h) != CG_SUCCESS) {
		free(x);
		return RDC_E_IO;
	}
	/* logged before the record is published: once it is, the runtime's
	 * read and release may free it */
	rdc_logf(RDC_LOG_DEBUG, "unbundle: %s handed over as %s, %zu patches applied when read", src->it.id,
		 o->id, o->n_patches);
	o->patches = NULL;   /* the record owns them now */
	o->n_patches = 0;
	pthread_mutex_lock(&rdc_comgr_lock);
	x->next = patched;
	patched = x;
	atomic_fetch_add(&n_patched, 1);
	pthread_mutex_unlock(&rdc_comgr_lock);
	return 0;
}

/* Is item `from` the source of exactly one object, and asked for by the
 * shim alone (so renaming it takes nothing from the runtime)? */
static bool renamable(const struct cg_item *v, const struct rdc_lazy_obj *objs, size_t n_objs, size_t from)
{
	size_t uses = 0;
	for (size_t j = 0; j < n_objs; j++)
		uses += objs[j].from == from;
	return v[from].extra && uses == 1;
}

/* Rebuild the result set: the runtime's items, then the added objects. */
static int put_back(cg_h out, struct cg_item *v, size_t n, struct rdc_lazy_obj *objs, size_t n_objs)
{
	if (R.set_remove(out, CG_KIND_EXECUTABLE) != CG_SUCCESS)
		return RDC_E_IO;
	int rc = 0;
	for (size_t k = 0; k < n; k++)
		if (!v[k].extra && R.set_add(out, v[k].h) != CG_SUCCESS)
			rc = RDC_E_IO;
	for (size_t j = 0; j < n_objs; j++) {
		const struct cg_item *src = &v[objs[j].from];
		char name[sizeof src->name + sizeof objs[j].id];
		const char *at = strstr(src->name, src->it.id);
		if (!at)
			return RDC_E_IO;
		size_t pre = (size_t)(at - src->name), idl = strlen(objs[j].id);
		const char *post = at + strlen(src->it.id);
		if (pre + idl + strlen(post) >= sizeof name)
			return RDC_E_RANGE;
		memcpy(name, src->name, pre);
		memcpy(name + pre, objs[j].id, idl);
		strcpy(name + pre + idl, post);
		if (!objs[j].data && renamable(v, objs, n_objs, objs[j].from) &&
		    hand_renamed(out, src, &objs[j], name) == 0)
			continue;
		if (!objs[j].data && (!src->it.data || rdc_lazy_obj_materialize(&objs[j], src->it.data) != 0)) {
			rc = RDC_E_NOMEM;
			continue;
		}
		cg_h d;
		if (R.create_data(CG_KIND_EXECUTABLE, &d) != CG_SUCCESS)
			return RDC_E_IO;
		if (R.set_data(d, objs[j].size, (const char *)objs[j].data) != CG_SUCCESS ||
		    R.set_name(d, name) != CG_SUCCESS || R.set_add(out, d) != CG_SUCCESS)
			rc = RDC_E_IO;
		R.release_data(d);   /* the set holds its own reference */
	}
	return rc;
}

static cg_status unbundle(cg_h info, cg_h in, cg_h out)
{
	size_t size = 0, n_ids = 0;
	const void *p = input_bundle(in, &size);
	char **ids = p ? action_ids(info, &n_ids) : NULL;
	if (!ids) {
		rdc_logf(RDC_LOG_DEBUG, "unbundle: input %s; the runtime's action as asked",
			 p ? "has no entry ids" : "is no bundle the shim saw");
		return R.do_action(CG_ACTION_UNBUNDLE, info, in, out);
	}
	rdc_stat_add(RDC_ST_UNBUNDLES, 1);
	if (rdc_log_enabled(RDC_LOG_DEBUG)) {
		struct rdc_segment seg;
		bool in_lib = rdc_segment_find(p, &seg) == 0;
		rdc_logf(RDC_LOG_DEBUG, "unbundle: %s%s%zu bytes at %p, %zu entry ids asked for",
			 in_lib ? seg.name : "", in_lib ? ", " : "", size, p, n_ids);
	}
	char extra[RDC_MAX_DEVICES][128];
	size_t n_extra = rdc_lazy_extra_ids((const char *const *)ids, n_ids, extra, RDC_MAX_DEVICES);
	const char **all = calloc(n_ids + n_extra, sizeof *all);
	bool asked = false;
	if (all && n_extra) {
		for (size_t k = 0; k < n_ids; k++)
			all[k] = ids[k];
		for (size_t k = 0; k < n_extra; k++)
			all[n_ids + k] = extra[k];
		asked = R.set_ids(info, all, n_ids + n_extra) == CG_SUCCESS;
	}
	cg_status st = R.do_action(CG_ACTION_UNBUNDLE, info, in, out);
	if (asked)
		(void)R.set_ids(info, (const char **)ids, n_ids);   /* as the runtime set them */
	size_t n = 0;
	struct cg_item *v = st == CG_SUCCESS ? read_items(out, &n) : NULL;
	if (st == CG_SUCCESS && !v)
		rdc_logf(RDC_LOG_WARN, "unbundle: cannot read the unbundler's items; the runtime "
			 "gets them as they are");
	if (v) {
		struct rdc_lazy_item *items = calloc(n ? n : 1, sizeof *items);
		struct rdc_lazy_obj objs[RDC_MAX_DEVICES];
		size_t n_objs = 0;
		for (size_t k = 0; items && k < n; k++) {
			v[k].extra = v[k].it.id[0] && !id_in(v[k].it.id, (const char *const *)ids, n_ids);
			items[k] = v[k].it;
		}
		if (items && !rdc_lazy_all_native(p, items, n)) {
			if (read_bytes(v, n) == 0) {
				for (size_t k = 0; k < n; k++)
					items[k] = v[k].it;
				(void)rdc_lazy_decide(p, size, items, n, objs, &n_objs);
			} else {
				rdc_logf(RDC_LOG_WARN, "unbundle: cannot read the unbundler's items; "
					 "the runtime gets them as they are");
			}
		}
		bool any_extra = false;
		for (size_t k = 0; k < n; k++)
			any_extra |= v[k].extra;
		if (items && (n_objs || any_extra) && put_back(out, v, n, objs, n_objs) != 0)
			rdc_logf(RDC_LOG_ERROR, "unbundle: comgr refused the rebuilt result set; "
				 "the runtime may find no code for this module");
		for (size_t j = 0; j < n_objs; j++)
			rdc_lazy_obj_free(&objs[j]);
		free(items);
		items_free(v, n);
	}
	free(all);
	free(ids);
	return st;
}

static cg_status w_do_action(int kind, cg_h info, cg_h in, cg_h out)
{
	if (kind != CG_ACTION_UNBUNDLE || !rdc_seam_here())
		return R.do_action(kind, info, in, out);
	int saved = errno;
	rdc_guard_enter();
	cg_status st = rdc_devices_ensure() > 0 ? unbundle(info, in, out)
						: R.do_action(kind, info, in, out);
	rdc_guard_leave();
	errno = saved;
	return st;
}

/* The bundle data object `d` was given (set_data), or NULL. */
static const void *data_bundle(cg_h d)
{
	const void *p = NULL;
	pthread_mutex_lock(&rdc_comgr_lock);
	for (struct cg_data *x = datas; x; x = x->next)
		if (x->h == d.handle) {
			p = x->p;
			break;
		}
	pthread_mutex_unlock(&rdc_comgr_lock);
	return p;
}

/* An uncompressed bundle: HIP 6.4 and 7.x give comgr its first 4096 bytes
 * (set_data) and ask where each ISA's code object is; the answer is an
 * offset from the bundle's start (clr hip_fatbin.cpp, PopulateCodeObjectMap).
 * A device that got none is decided here (lazy.c): its retargeted object's
 * place is given as the offset from the bundle to it. */
static cg_status w_lookup(cg_h d, struct cg_coinfo *q, size_t n)
{
	cg_status st = R.lookup(d, q, n);
	if (st != CG_SUCCESS || !q || n == 0 || n > 64 || !rdc_seam_here())
		return st;
	const void *p = data_bundle(d);
	if (!p || rdc_is_ccob(p, 24))
		return st;
	int saved = errno;
	rdc_guard_enter();
	if (rdc_devices_ensure() <= 0) {   /* the runtime is up: fills the registry */
		rdc_guard_leave();
		errno = saved;
		return st;
	}
	const char *isa[64];
	size_t want = 0;
	for (size_t k = 0; k < n; k++)   /* none found, or a `prefer` row may want another */
		isa[k] = q[k].isa && (q[k].size == 0 || rdc_lazy_prefer_may(p, q[k].isa)) ? q[k].isa
											     : NULL;
	for (size_t k = 0; k < n; k++)
		want += isa[k] != NULL;
	const void *obj[64] = { 0 };
	size_t size[64] = { 0 };
	if (want && rdc_lazy_lookup(p, isa, n, obj, size) == 0)
		for (size_t k = 0; k < n; k++)
			if (obj[k]) {
				q[k].size = size[k];
				q[k].offset = (uint64_t)((uintptr_t)obj[k] - (uintptr_t)p);
			}
	rdc_guard_leave();
	errno = saved;
	return st;
}

struct wrap {
	const char *name;
	void *fn;
	size_t off;   /* of the real pointer in struct cg_real */
};
static const struct wrap wraps[] = {
	{ "amd_comgr_set_data", (void *)w_set_data, offsetof(struct cg_real, set_data) },
	{ "amd_comgr_get_data", (void *)w_get_data, offsetof(struct cg_real, get_data) },
	{ "amd_comgr_release_data", (void *)w_release_data, offsetof(struct cg_real, release_data) },
	{ "amd_comgr_action_info_set_bundle_entry_ids", (void *)w_set_ids,
	  offsetof(struct cg_real, set_ids) },
	{ "amd_comgr_destroy_action_info", (void *)w_destroy_info,
	  offsetof(struct cg_real, destroy_info) },
	{ "amd_comgr_do_action", (void *)w_do_action, offsetof(struct cg_real, do_action) },
	{ "amd_comgr_lookup_code_object", (void *)w_lookup, offsetof(struct cg_real, lookup) },
};
static const struct wrap used[] = {
	{ "amd_comgr_action_data_count", NULL, offsetof(struct cg_real, data_count) },
	{ "amd_comgr_action_data_get_data", NULL, offsetof(struct cg_real, get_item) },
	{ "amd_comgr_get_data_name", NULL, offsetof(struct cg_real, get_name) },
	{ "amd_comgr_create_data", NULL, offsetof(struct cg_real, create_data) },
	{ "amd_comgr_set_data_name", NULL, offsetof(struct cg_real, set_name) },
	{ "amd_comgr_data_set_add", NULL, offsetof(struct cg_real, set_add) },
	{ "amd_comgr_data_set_remove", NULL, offsetof(struct cg_real, set_remove) },
};

/* Fill *r from the library `handle` (all of it or nothing).  No lock held:
 * dlsym takes the loader's lock, which a thread running a constructor holds
 * (rdc_comgr_lock stays a leaf). */
static bool fill_real(struct cg_real *r, void *handle, void *(*real_dlsym)(void *, const char *))
{
	*r = (struct cg_real){ .lib = handle };
	for (size_t k = 0; k < sizeof wraps / sizeof wraps[0]; k++)
		if (!(*(void **)((char *)r + wraps[k].off) = real_dlsym(handle, wraps[k].name)))
			return false;
	for (size_t k = 0; k < sizeof used / sizeof used[0]; k++)
		if (!(*(void **)((char *)r + used[k].off) = real_dlsym(handle, used[k].name)))
			return false;
	return true;
}

void *rdc_comgr_wrap(void *handle, const char *name, void *real,
		     void *(*real_dlsym)(void *, const char *))
{
	size_t k;
	for (k = 0; k < sizeof wraps / sizeof wraps[0] && strcmp(wraps[k].name, name); k++)
		;
	if (k == sizeof wraps / sizeof wraps[0] || !rdc_lazy_enabled())
		return real;
	static _Atomic int warned;
	if (!atomic_load_explicit(&R_ready, memory_order_acquire)) {
		struct cg_real r;
		bool ok = fill_real(&r, handle, real_dlsym);
		pthread_mutex_lock(&rdc_comgr_lock);
		if (ok && !atomic_load(&R_ready)) {   /* the first library filled wins */
			R = r;
			atomic_store_explicit(&R_ready, 1, memory_order_release);
		}
		pthread_mutex_unlock(&rdc_comgr_lock);
		if (!ok && !atomic_load(&R_ready) && !atomic_exchange(&warned, 1))
			/* comgr 2 (HIP 5.2) has no bundle entry ids: that
			 * runtime's bundles are decided at registration */
			rdc_logf(RDC_LOG_DEBUG, "comgr: this comgr lacks entries the shim's "
				 "unbundle watch needs; its calls go straight through");
	}
	if (!atomic_load_explicit(&R_ready, memory_order_acquire))
		return real;
	if (*(void **)((char *)&R + wraps[k].off) != real) {
		/* another comgr library: its calls go straight through */
		static _Atomic int other;
		if (!atomic_exchange(&other, 1))
			rdc_logf(RDC_LOG_INFO, "comgr: a second comgr library is in use; its "
				 "unbundling is not watched");
		return real;
	}
	return wraps[k].fn;
}
