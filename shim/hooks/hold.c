/* SPDX-License-Identifier: MIT */
/*
 * hold.c — held kernels of fat binaries that HIP 7 reads only when one of
 * their kernels is first used (lazy.c), kept from launching.
 *
 * Such a bundle is decided inside the runtime's own launch: its host stubs
 * were registered long before, so no deny route (route.c) can be bound to
 * them, and the object the runtime then gets has its held kernels renamed
 * (rdc_codeobj_hide_patches) — which CLR answers, for a registered host stub
 * it cannot find in the object, by stopping the process ("Cannot find Symbol
 * with name", hip_global.cpp DeviceFunc).  So, while a watch is on (some
 * device's incoming compat edges may hold kernels, rdc_edge_may_hold: an
 * instruction condition, user-sgpr-16, smaller limits; and some fat
 * binary was left to the runtime's reading), the host-stub hooks ask here
 * first (rdc_hold_denied): a stub seen for the first time on a device has
 * its library's undecided plain bundles decided now (rdc_lazy_decide_object),
 * and its name (hipKernelNameRefByPtr, a lookup of the registered name) is
 * looked up among the kernels those decisions held for that library and
 * device.  Each answer is kept per (stub, device) in a hash: a launch costs
 * one hipGetDevice and one short chain walk; the first launch of a stub on
 * a device also one lookup of its library and name — work in proportion to
 * the kernels a program launches, nothing per kernel a library ships.
 *
 * Without the watch the hooks' fast path is unchanged (rdc_route_active,
 * which the watch raises by one).  Compressed bundles left to the runtime
 * are decided from what comgr extracts and hold nothing (lazy.c).
 *
 * Lock: rdc_hold_lock is a leaf; no runtime call or decision runs under it.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <errno.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route.h"
#include "shim.h"

pthread_mutex_t rdc_hold_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */

/* The kernels one lazy decision held: a library, a device, names. */
struct held_set {
	struct held_set *next;
	const struct link_map *obj;
	char proc[RDC_PROC_MAX];
	char **names;            /* rdc_policy_held_kernels' block */
	size_t n;
};

/* One answer per (host stub, device), in a hash of ANSWER_BUCKETS chains:
 * a launch looks its stub up in a chain of a few. */
struct stub_answer {
	struct stub_answer *next;
	const struct link_map *obj;  /* the stub's object (NULL: none found) */
	const void *stub;
	int dev;                 /* HIP ordinal */
	bool held;
	bool logged;
};
#define ANSWER_BUCKETS 1024

static struct held_set *sets;
static struct stub_answer *answers[ANSWER_BUCKETS];
static size_t n_answers;   /* kept in answers[], under rdc_hold_lock */
/* Per HIP ordinal: may kernels be held on it (an edge into its processor
 * that may hold, rdc_edge_may_hold)?  0 not known yet, 1 no, 2 yes. */
static atomic_int dev_may_hold[RDC_MAX_DEVICES];
static atomic_bool watching;

/* May any compat edge into `proc` hold kernels (rdc_edge_may_hold: an
 * instruction condition, user-sgpr-16, the card's smaller limits)? */
static bool proc_may_hold(const struct rdc_tables *t, const char *proc)
{
	const struct rdc_compat_edge *edges[64];
	size_t ne = t ? rdc_compat_edges_for(t, proc, edges, 64) : 0;
	for (size_t i = 0; i < ne; i++)
		if (rdc_edge_may_hold(t, edges[i]))
			return true;
	return false;
}

void rdc_hold_watch_check(void)
{
	if (atomic_load(&watching) || !rdc_lazy_noted_count())
		return;
	const struct rdc_tables *t = rdc_tables();
	bool any = false;
	for (size_t i = 0; i < rdc_devices_count() && !any; i++) {
		const struct rdc_device *d = rdc_device_get(i);
		any = d && (d->mode == RDC_MODE_MAP || d->mode == RDC_MODE_SPOOF) &&
		      proc_may_hold(t, d->target.proc);
	}
	if (!any || atomic_exchange(&watching, true))
		return;
	atomic_fetch_add(&rdc_route_active, 1);   /* the hooks' slow paths ask rdc_hold_denied */
	rdc_logf(RDC_LOG_DEBUG, "hold: watching host-stub launches (a device's compat edges carry "
		 "edges that may hold kernels; fat binaries are left to the runtime's reading)");
}

bool rdc_hold_watching(void)
{
	return atomic_load_explicit(&watching, memory_order_relaxed);
}

void rdc_hold_note(const void *bundle, const char *proc, char **names, size_t n)
{
	struct held_set *s = calloc(1, sizeof *s);
	const struct link_map *obj = rdc_object_of(bundle);
	if (!s || !obj) {
		free(s);
		free(names);
		rdc_logf(RDC_LOG_ERROR, "hold: %zu kernels held on %s cannot be watched (%s)", n, proc,
			 obj ? "out of memory" : "the bundle lies in no loaded object");
		return;
	}
	s->obj = obj;
	snprintf(s->proc, sizeof s->proc, "%s", proc);
	s->names = names;
	s->n = n;
	pthread_mutex_lock(&rdc_hold_lock);
	s->next = sets;
	sets = s;
	pthread_mutex_unlock(&rdc_hold_lock);
}

static bool in_sets(const struct link_map *obj, const char *proc, const char *name)
{
	bool held = false;
	pthread_mutex_lock(&rdc_hold_lock);
	for (const struct held_set *s = sets; s && !held; s = s->next)
		if (s->obj == obj && !strcmp(s->proc, proc))
			for (size_t i = 0; i < s->n && !held; i++)
				held = !strcmp(s->names[i], name);
	pthread_mutex_unlock(&rdc_hold_lock);
	return held;
}

static size_t bucket(const void *stub, int dev)
{
	uintptr_t h = (uintptr_t)stub >> 4;
	h ^= h >> 17;
	return (size_t)((h * 0x9e3779b97f4a7c15ull) >> 40 ^ (uintptr_t)dev) % ANSWER_BUCKETS;
}

/* The kept answer for (stub, dev), or NULL; *log: say it now (once). */
static struct stub_answer *answer_of(const void *stub, int dev, bool *log)
{
	struct stub_answer *a;
	pthread_mutex_lock(&rdc_hold_lock);
	for (a = answers[bucket(stub, dev)]; a && (a->stub != stub || a->dev != dev); a = a->next)
		;
	*log = a && a->held && !a->logged;
	if (*log)
		a->logged = true;
	pthread_mutex_unlock(&rdc_hold_lock);
	return a;
}

static void answer(const void *stub, int dev, const char *proc)
{
	const struct link_map *obj = rdc_object_of(stub);
	bool held = false;
	if (obj) {
		/* the library's plain bundles left to the runtime, decided now */
		rdc_lazy_decide_object(obj);
		__typeof__(&hipKernelNameRefByPtr) name_of = RDC_REAL(hipKernelNameRefByPtr);
		const char *name = name_of ? name_of(stub, NULL) : NULL;
		held = name && in_sets(obj, proc, name);
	}
	struct stub_answer *a = calloc(1, sizeof *a);
	if (!a)
		return;   /* asked again next time */
	a->obj = obj;
	a->stub = stub;
	a->dev = dev;
	a->held = held;
	pthread_mutex_lock(&rdc_hold_lock);
	size_t b = bucket(stub, dev);
	a->next = answers[b];
	answers[b] = a;
	n_answers++;
	pthread_mutex_unlock(&rdc_hold_lock);
}

/* May kernels be held on device `d` (kept per ordinal)? */
static bool may_hold(const struct rdc_device *d)
{
	if (d->index < 0 || d->index >= RDC_MAX_DEVICES)
		return proc_may_hold(rdc_tables(), d->target.proc);
	int v = atomic_load_explicit(&dev_may_hold[d->index], memory_order_relaxed);
	if (!v) {
		v = proc_may_hold(rdc_tables(), d->target.proc) ? 2 : 1;
		atomic_store_explicit(&dev_may_hold[d->index], v, memory_order_relaxed);
	}
	return v == 2;
}

bool rdc_hold_denied(const void *stub, int ord, const char *api)
{
	if (!rdc_hold_watching() || rdc_guard_active() || !stub)
		return false;
	__typeof__(&hipGetDevice) getdev = RDC_REAL(hipGetDevice);
	if (ord < 0 && !(getdev && getdev(&ord) == hipSuccess))
		return false;
	const struct rdc_device *d = rdc_device_by_hip(ord);
	if (!d || !may_hold(d))
		return false;
	bool log;
	rdc_stat_add(RDC_ST_HOLD_ASKED, 1);
	struct stub_answer *a = answer_of(stub, ord, &log);
	if (!a) {
		rdc_stat_add(RDC_ST_HOLD_STUBS, 1);
		int saved = errno;
		rdc_guard_enter();
		answer(stub, ord, d->target.proc);
		rdc_guard_leave();
		errno = saved;
		a = answer_of(stub, ord, &log);
	}
	if (!a || !a->held)
		return false;
	if (log) {
		__typeof__(&hipKernelNameRefByPtr) name_of = RDC_REAL(hipKernelNameRefByPtr);
		const char *name = name_of ? name_of(stub, NULL) : NULL;
		rdc_log_event(RDC_LOG_WARN, "held-launch",
			      (struct rdc_kv[]){ RDC_KV_S("kernel", name ? name : "?"),
						 RDC_KV_S("device", d->target.proc), RDC_KV_S("api", api),
						 RDC_KV_S("answer", "hipErrorInvalidDeviceFunction"),
						 RDC_KV_S("reason", "held at the decision: it cannot run safely on "
								    "this card as built (the held line says why)") },
			      5);
	}
	return true;
}

void rdc_hold_forget(const void *bundle)
{
	/* nothing kept (the usual case: a process exits and unregisters every
	 * fat binary): no object lookup and no walk of the answer buckets */
	pthread_mutex_lock(&rdc_hold_lock);
	bool any = sets || n_answers;
	pthread_mutex_unlock(&rdc_hold_lock);
	if (!any)
		return;
	const struct link_map *obj = rdc_object_of(bundle);
	if (!obj)
		return;
	struct held_set *gone_sets = NULL;
	struct stub_answer *gone = NULL;
	pthread_mutex_lock(&rdc_hold_lock);
	for (struct held_set **pp = &sets; *pp;) {
		struct held_set *s = *pp;
		if (s->obj != obj) {
			pp = &s->next;
			continue;
		}
		*pp = s->next;
		s->next = gone_sets;
		gone_sets = s;
	}
	for (size_t b = 0; b < ANSWER_BUCKETS; b++)
		for (struct stub_answer **pp = &answers[b]; *pp;) {
			struct stub_answer *a = *pp;
			if (a->obj != obj) {
				pp = &a->next;
				continue;
			}
			*pp = a->next;
			a->next = gone;
			gone = a;
			n_answers--;
		}
	pthread_mutex_unlock(&rdc_hold_lock);
	while (gone_sets) {
		struct held_set *s = gone_sets;
		gone_sets = s->next;
		free(s->names);
		free(s);
	}
	while (gone) {
		struct stub_answer *a = gone;
		gone = a->next;
		free(a);
	}
}
