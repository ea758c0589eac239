/* SPDX-License-Identifier: MIT */
/*
 * real.c — the table of real (next) functions, built from real_list.h and
 * resolved once per entry: the next definition after ours that a
 * program's reference to name@version binds to — another interposer's
 * unversioned one when it is loaded after us (next_definition), else the
 * versioned one (dlvsym(RTLD_NEXT, name, version)).  When the
 * owning library was dlopen'ed RTLD_LOCAL (Python extensions), RTLD_NEXT
 * cannot see it; then the library is looked up by soname with RTLD_NOLOAD,
 * and a HIP entry found that way is marked `local`: real_caller.c resolves
 * it per caller, since a process may hold two HIP runtimes so loaded.
 *
 * Only the libc entries are resolved at start-up (rdc_real_resolve_all, from
 * the constructor): looking up HIP/HSA names in a process without them
 * costs ~9 syscalls each (ld.so opens its cache and the library file for
 * RTLD_NOLOAD), i.e. ~0.3 ms per exec of every non-ROCm program.  The
 * HIP/HSA entries are resolved together at the first use of any of them —
 * at the top of a hook, before it takes a lock — each soname searched once
 * for all of them, and a lookup that fails is tried again at a later use
 * once ld.so has loaded another object (the library may be dlopen'ed later;
 * dl_iterate_phdr's dlpi_adds counts the loads).
 * Resolution is lock-free: racing threads store the same pointer.
 *
 * The table is also the test seam: rdc_real_inject() replaces an entry, and
 * RDNACOMPAT_TEST_UNRESOLVED names entries to leave unresolved, so tests can
 * check that every hook survives a missing real function.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>

#include "shim.h"

struct rdc_real_fn rdc_real_fns[RDC_FN_COUNT] = {
#define RDC_REAL_FN(n, ver, l) [RDC_FN_##n] = { .name = #n, .version = ver, .lib = l },
#include "real_list.h"
#undef RDC_REAL_FN
};

/* Sonames to look in when RTLD_NEXT cannot see the owner (ROCm 5.x ships
 * libamdhip64.so.5, 6.x .so.6, 7.x .so.7; ROCR stays libhsa-runtime64.so.1). */
static const char *const lib_sonames[][4] = {
	[RDC_LIB_HIP] = { "libamdhip64.so.5", "libamdhip64.so.6", "libamdhip64.so.7", NULL },
	[RDC_LIB_HSA] = { "libhsa-runtime64.so.1", NULL },
	[RDC_LIB_KPACK] = { "librocm_kpack.so.0", NULL },
	[RDC_LIB_C] = { "libc.so.6", NULL },
};

/* Which of two objects comes first after ours in load order (the order
 * RTLD_NEXT searches the global scope in)?  True when `a` does. */
static bool first_after_us(const void *a, const void *b)
{
	Dl_info i;
	struct link_map *self = NULL, *la = NULL, *lb = NULL;
	if (!dladdr1((void *)&rdc_real_fns, &i, (void **)&self, RTLD_DL_LINKMAP) || !self ||
	    !dladdr1(a, &i, (void **)&la, RTLD_DL_LINKMAP) || !la ||
	    !dladdr1(b, &i, (void **)&lb, RTLD_DL_LINKMAP) || !lb)
		return false;
	for (struct link_map *m = self->l_next; m; m = m->l_next) {
		if (m == la)
			return true;
		if (m == lb)
			return false;
	}
	return false;
}

/* The next definition after ours that a program's reference to
 * name@version would bind to.  dlvsym alone is not it: it asks for that
 * exact version and skips an unversioned definition — which is what
 * another interposer preloaded after us (faketime, a tracer, the
 * simulator) has, and what a program's versioned reference does bind to.
 * So: dlsym (default or unversioned definition) and dlvsym (that version);
 * when they differ, the one in the object that comes first after ours. */
static void *next_definition(const char *name, const char *version)
{
	if (!version)   /* an unversioned library: the next definition in load order */
		return dlsym(RTLD_NEXT, name);
	void *pv = dlvsym(RTLD_NEXT, name, version);
	void *pa = dlsym(RTLD_NEXT, name);
	if (!pa || pa == pv)
		return pv;
	if (!pv)
		return NULL;   /* no name@version anywhere after us: not ours to call */
	return first_after_us(pa, pv) ? pa : pv;
}

#define N_LIBS (sizeof lib_sonames / sizeof lib_sonames[0])

/* RTLD_NOLOAD handles of the sonames above that are loaded now: one search
 * of ld.so's paths per soname per round (a soname not loaded costs ~9
 * system calls each time it is asked for). */
struct so_handles {
	void *h[N_LIBS][4];
};

static void handles_open(struct so_handles *H)
{
	for (size_t l = 0; l < N_LIBS; l++)
		for (size_t i = 0; i < 4; i++)
			H->h[l][i] = lib_sonames[l][i] && l != RDC_LIB_C
					     ? dlopen(lib_sonames[l][i], RTLD_LAZY | RTLD_NOLOAD)
					     : NULL;
}

static void handles_close(struct so_handles *H)
{
	for (size_t l = 0; l < N_LIBS; l++)
		for (size_t i = 0; i < 4; i++)
			if (H->h[l][i])
				dlclose(H->h[l][i]);   /* NOLOAD handle: only drops the count it added */
}

static void *lookup(struct rdc_real_fn *f, const struct so_handles *H)
{
	void *p = next_definition(f->name, f->version);
	if (!p && f->lib == RDC_LIB_HIP)
		atomic_store(&f->local, 1);   /* callers may differ: real_caller.c */
	for (size_t i = 0; !p && lib_sonames[f->lib][i]; i++) {
		/* libc (no handles: always loaded, a cheap NOLOAD) */
		void *h = H ? H->h[f->lib][i] : dlopen(lib_sonames[f->lib][i], RTLD_LAZY | RTLD_NOLOAD);
		if (h)
			p = f->version ? dlvsym(h, f->name, f->version) : dlsym(h, f->name);
		if (h && !H)
			dlclose(h);
	}
	return p;
}

static void *resolve_one(struct rdc_real_fn *f, const struct so_handles *H)
{
	void *p = atomic_load_explicit(&f->ptr, memory_order_acquire);
	if (p || atomic_load(&f->injected))
		return p;
	p = lookup(f, H);
	if (p)
		atomic_store_explicit(&f->ptr, p, memory_order_release);
	return p;
}

static int count_adds(struct dl_phdr_info *info, size_t size, void *data)
{
	if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof info->dlpi_adds)
		*(unsigned long long *)data = info->dlpi_adds;
	return 1;   /* the counter is the same in every entry */
}

/* ld.so's count of objects loaded so far (dl_iterate_phdr's dlpi_adds). */
static unsigned long long loaded_adds(void)
{
	unsigned long long adds = 0;
	dl_iterate_phdr(count_adds, &adds);
	return adds;
}

/* The dlpi_adds of the last round over the HIP/HSA entries: an entry not
 * found then is looked for again only once another object is loaded. */
static _Atomic unsigned long long round_adds;

void *rdc_real_resolve(enum rdc_fn fn)
{
	if ((unsigned)fn >= RDC_FN_COUNT)
		return NULL;
	struct rdc_real_fn *f = &rdc_real_fns[fn];
	void *p = atomic_load_explicit(&f->ptr, memory_order_acquire);
	if (p || atomic_load(&f->injected))
		return p;
	if (f->lib == RDC_LIB_C)
		return resolve_one(f, NULL);
	/* First use of a HIP/HSA entry: the whole HIP/HSA part at once, so a
	 * hook's later calls (under its locks) find theirs resolved.  This
	 * process reaches a HIP/HSA hook: the time to warn about its
	 * configuration (once). */
	rdc_config_report();
	unsigned long long adds = loaded_adds();
	if (adds && atomic_exchange(&round_adds, adds) == adds)
		return NULL;   /* nothing loaded since the last round found nothing */
	struct so_handles H;
	handles_open(&H);
	for (int i = 0; i < RDC_FN_COUNT; i++)
		if (rdc_real_fns[i].lib != RDC_LIB_C)
			(void)resolve_one(&rdc_real_fns[i], &H);
	handles_close(&H);
	return atomic_load_explicit(&f->ptr, memory_order_acquire);
}

size_t rdc_real_resolve_all(void)
{
	size_t found = 0;
	for (int i = 0; i < RDC_FN_COUNT; i++)
		if (rdc_real_fns[i].lib == RDC_LIB_C)
			found += resolve_one(&rdc_real_fns[i], NULL) != NULL;
	return found;
}

int rdc_real_inject(const char *name, void *fn)
{
	for (int i = 0; i < RDC_FN_COUNT; i++) {
		struct rdc_real_fn *f = &rdc_real_fns[i];
		if (strcmp(f->name, name) != 0)
			continue;
		atomic_store(&f->injected, 1);
		atomic_store(&f->ptr, fn);
		return 0;
	}
	return RDC_E_NOTFOUND;
}
