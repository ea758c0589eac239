/* SPDX-License-Identifier: MIT */
/*
 * real_caller.c — the real function for one caller, where the process holds
 * a runtime outside the global scope.
 *
 * A program that links HIP finds it in the global scope, and every caller
 * binds where RTLD_NEXT points (real.c).  When HIP is loaded by a library
 * that was dlopen'ed RTLD_LOCAL (ggml's backends, Python extensions), each
 * caller binds within its own dependency tree — and one process may hold two
 * HIP runtimes that way: Debian's ggml links libamdhip64.so.6 while its
 * hipBLAS pulls rocBLAS 5 and libamdhip64.so.7.  Without the shim rocBLAS 5
 * registers its kernels with HIP 7; a shim that forwarded every caller to the
 * first runtime found would hand them to HIP 6 (which then digests every fat
 * binary eagerly, since it is already running).  So for entries real.c could
 * only find by soname (rdc_real_fns[].local), the caller's object is looked
 * up (its return address: _dl_find_object where glibc has it, else dladdr1)
 * and the name is resolved in that object's own scope (dlvsym on a NOLOAD
 * handle searches the object and its dependencies, as its references do
 * after the global scope).
 *
 * State: a fixed table of callers (link map + load address, then one pointer
 * per entry), filled under a lock and read without one; and, per thread, the
 * last caller seen from outside the shim, so that the shim's own helpers
 * (route.c calling hipModuleGetFunction for the module a hook loaded) reach
 * the runtime of the call they serve.  A caller that is not found, or whose
 * scope has no definition, gets real.c's answer, as before.
 */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "shim.h"

#define CALLER_SLOTS 32

struct caller_slot {
	struct link_map *_Atomic map;  /* NULL: free */
	ElfW(Addr) base;               /* the map's l_addr when filled */
	void *_Atomic fn[RDC_FN_COUNT];
	_Atomic unsigned char tried[RDC_FN_COUNT];
	bool said;                     /* the runtime line was logged */
};

static struct caller_slot slots[CALLER_SLOTS];
pthread_mutex_t rdc_caller_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */
static _Thread_local struct link_map *last_caller;

typedef int (*find_object_fn)(void *, struct dl_find_object *);

struct link_map *rdc_object_of(const void *addr)
{
	static find_object_fn _Atomic find;
	static _Atomic int looked;
	if (!atomic_load_explicit(&looked, memory_order_acquire)) {
		atomic_store(&find, (find_object_fn)dlsym(RTLD_DEFAULT, "_dl_find_object"));
		atomic_store_explicit(&looked, 1, memory_order_release);
	}
	find_object_fn f = atomic_load(&find);
	if (f) {
		struct dl_find_object o;
		if (f((void *)addr, &o) == 0)
			return o.dlfo_link_map;
		return NULL;
	}
	Dl_info i;
	struct link_map *m = NULL;
	if (!dladdr1(addr, &i, (void **)&m, RTLD_DL_LINKMAP))
		return NULL;
	return m;
}

static struct link_map *self_map(void)
{
	static struct link_map *_Atomic self;
	struct link_map *m = atomic_load(&self);
	if (!m) {
		m = rdc_object_of((const void *)&slots);
		atomic_store(&self, m);
	}
	return m;
}

static struct caller_slot *slot_of(struct link_map *m)
{
	for (size_t i = 0; i < CALLER_SLOTS; i++) {
		struct link_map *s = atomic_load_explicit(&slots[i].map, memory_order_acquire);
		if (!s)
			break;
		if (s == m && slots[i].base == m->l_addr)
			return &slots[i];
	}
	pthread_mutex_lock(&rdc_caller_lock);
	struct caller_slot *got = NULL, *free_slot = NULL;
	for (size_t i = 0; i < CALLER_SLOTS && !got; i++) {
		struct link_map *s = atomic_load(&slots[i].map);
		if (s == m && slots[i].base == m->l_addr)
			got = &slots[i];
		else if (!s && !free_slot)
			free_slot = &slots[i];
	}
	if (!got && free_slot) {
		/* a new object at a reused link map (dlclose, dlopen) starts afresh */
		free_slot->base = m->l_addr;
		for (size_t k = 0; k < RDC_FN_COUNT; k++) {
			atomic_store(&free_slot->fn[k], NULL);
			atomic_store(&free_slot->tried[k], 0);
		}
		atomic_store_explicit(&free_slot->map, m, memory_order_release);
		got = free_slot;
	}
	pthread_mutex_unlock(&rdc_caller_lock);
	return got;   /* NULL: table full, real.c's answer stands */
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : (p && *p ? p : "the program");
}

/* name@version in the caller's own scope; NULL when absent or ours. */
static void *in_scope_of(struct link_map *m, const struct rdc_real_fn *f, const char **owner)
{
	if (!m->l_name || !m->l_name[0])
		return NULL;   /* the program: its scope is the global one */
	void *h = dlopen(m->l_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return NULL;
	void *p = f->version ? dlvsym(h, f->name, f->version) : dlsym(h, f->name);
	dlclose(h);   /* NOLOAD handle: only drops the count it added */
	struct link_map *o = p ? rdc_object_of(p) : NULL;
	if (!o || o == self_map())
		return NULL;
	*owner = o->l_name;
	return p;
}

void *rdc_real_resolve_from(enum rdc_fn fn, const void *ret)
{
	void *g = rdc_real_resolve(fn);
	if ((unsigned)fn >= RDC_FN_COUNT)
		return g;
	struct rdc_real_fn *f = &rdc_real_fns[fn];
	if (!atomic_load(&f->local) || atomic_load(&f->injected))
		return g;
	struct link_map *m = ret ? rdc_object_of(ret) : NULL;
	if (!m || m == self_map())
		m = last_caller;   /* the shim's own helper: the call it serves */
	else
		last_caller = m;
	if (!m)
		return g;
	struct caller_slot *s = slot_of(m);
	if (!s)
		return g;
	void *p = atomic_load_explicit(&s->fn[fn], memory_order_acquire);
	if (p || atomic_load(&s->tried[fn]))
		return p ? p : g;
	const char *owner = NULL;
	p = in_scope_of(m, f, &owner);
	if (p)
		atomic_store_explicit(&s->fn[fn], p, memory_order_release);
	atomic_store(&s->tried[fn], 1);
	if (p && p != g) {
		pthread_mutex_lock(&rdc_caller_lock);
		bool say = !s->said;
		s->said = true;
		pthread_mutex_unlock(&rdc_caller_lock);
		if (say) {
			const char *first = "?";
			struct link_map *gm = g ? rdc_object_of(g) : NULL;
			if (gm)
				first = base_name(gm->l_name);
			struct rdc_kv kv[] = {
				RDC_KV_S("lib", base_name(m->l_name)),
				RDC_KV_S("calls", base_name(owner)),
				RDC_KV_S("not", first),
				RDC_KV_S("reason", "the runtime this library's own dependencies bind "
						   "to; another one is loaded first"),
			};
			rdc_log_event(RDC_LOG_INFO, "runtime", kv, sizeof kv / sizeof kv[0]);
		}
	}
	return p ? p : g;
}
