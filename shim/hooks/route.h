/* SPDX-License-Identifier: MIT */
/*
 * route.h — the kernel rules' state in the shim (route.c): which kernels of
 * which loaded code objects a rule of tables/kernels.tsv applies to, decided
 * once per (code object, kernel, device) when the code object is loaded or
 * registered, and what the lookup/occupancy/launch hooks (hook_kernels.c,
 * hook_occupancy.c) do with it.  Kernels without a rule are never recorded:
 * the hooks' fast path is one relaxed atomic load (rdc_route_active).
 *
 * Lock: rdc_route_lock is a leaf (nothing else is taken while it is held;
 * code objects are parsed before it is taken).
 */
#ifndef RDNACOMPAT_ROUTE_H
#define RDNACOMPAT_ROUTE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/rules.h"

struct rdc_route {
	struct rdc_route *next;
	uint64_t owner;                 /* hipModule_t, or the void** of __hipRegisterFatBinary */
	char *name;                     /* kernel symbol */
	char device[RDC_PROC_MAX];      /* the device's true processor */
	struct rdc_kernel k;            /* metadata + descriptor (name/symbol/args NULL) */
	const struct rdc_kernel_rule *occupancy, *fallback, *deny;
	struct rdc_kernel_rule held;    /* a held kernel's deny (rdc_route_hold):
	                                   `deny` points here */
	uint32_t runtime;               /* the HIP runtime the owning library calls
	                                   (its file name), 0 unknown: rows are armed
	                                   per library for that runtime */
	bool fb_ok;                     /* the fallback's .args layout equals this kernel's */
	const void *key;                /* hipFunction_t or host stub, once known */
	void *fb_func;                  /* the fallback's hipFunction_t, once loaded */
	void *fb_module;
	struct rdc_kernel fb_k;         /* the fallback's metadata (for occupancy/attributes) */
	atomic_int logged_occ;          /* occupancy line written */
	atomic_int logged_route;        /* routed line written */
	atomic_int logged_deny;         /* deny line written (host-stub path) */
};

/* Non-zero once any route exists (the hooks' fast-path test). */
extern atomic_size_t rdc_route_active;
/* The rules' list (a leaf: the runtime unloads a fallback module after it
 * is let go), and the runtime versions learnt from file names (a leaf). */
extern pthread_mutex_t rdc_route_lock, rdc_route_rt_lock;

/* The HIP runtime version (hipRuntimeGetVersion through the real-function
 * table), 0 when unknown; asked once. */
uint32_t rdc_route_runtime(void);
/* The same without asking HIP: from the loaded libamdhip64's file name
 * (libamdhip64.so.6.4.43484 -> 60443484); 0 when it has another form. */
uint32_t rdc_route_runtime_from_file(void);
/* The same for the libamdhip64 that the object holding `addr` (a return
 * address, or any address inside a library) binds to: in a process with two
 * HIP runtimes each library's own (real_caller.c). */
uint32_t rdc_route_runtime_of(const void *addr);

/* A code object container HIP now uses for `owner`: a bundle (plain or
 * CCOB) or a bare ELF of `size` bytes at `image` (size 0: measure); `orig`
 * the container as shipped (NULL or `image`: the same), whose entry for the
 * device — or the one it was mapped from — gives the SHA-256.  `lib`:
 * the file the code came from, for scope globs.  For every device whose
 * true processor has an entry here, every kernel is matched once; matched
 * kernels become routes.  `rt`: the runtime the library calls
 * (rdc_route_runtime_of), whose rows alone are armed; 0 unknown.  Never
 * fails the caller: problems are logged. */
void rdc_route_note_image(uint64_t owner, const void *image, uint64_t size, const void *orig,
			  uint64_t orig_size, const char *lib, uint32_t rt);
/* Call sites: after HIP accepted a fat binary (the bundle it was given;
 * `wrapper`: the program's wrapper, whose object names the library), and
 * after a module load (the image HIP loaded, or the file `path`; `caller`:
 * the loader's return address, whose object names the library). */
void rdc_route_note_fatbin(void **handle, const void *bundle, const void *orig, const void *wrapper);
void rdc_route_note_module(void *module, const void *image, const void *orig, const char *path,
			   const void *caller);
/* Held kernels (RDC_HOLD_ROUTE, shim.h): a deny route for each of the n
 * kernels `names` of fat binary `owner` on device processor `dev` — the
 * kernels the decision held, which stay in the object the runtime got.
 * Launching one through its host stub answers hipErrorInvalidDeviceFunction
 * and the attribute queries answer as for a function the runtime does not
 * know (hook_kernels.c, hook_occupancy.c).  Logged once per kernel. */
void rdc_route_hold(uint64_t owner, const char *dev, char *const *names, size_t n, const char *lib);

/* The module/fat binary `owner` is gone: drop its routes. */
void rdc_route_forget(uint64_t owner);

/* The route of (owner, name) for the current HIP device, or NULL. */
struct rdc_route *rdc_route_find_name(uint64_t owner, const char *name);
/* The same for device processor `dev`. */
struct rdc_route *rdc_route_find_name_on(uint64_t owner, const char *name, const char *dev);
/* Bind a key (hipFunction_t / host stub) to a route. */
void rdc_route_bind(struct rdc_route *r, const void *key);
/* The route bound to `key` for the current HIP device, or NULL.  Only call
 * when rdc_route_active is non-zero. */
struct rdc_route *rdc_route_find_key(const void *key);
/* The same for device processor `dev` (NULL: the current HIP device). */
struct rdc_route *rdc_route_find_key_on(const void *key, const char *dev);

/* The fallback function to launch instead of r's kernel on the current
 * device (loaded on first use), or NULL: pass through.  Logs once. */
void *rdc_route_fallback(struct rdc_route *r);
/* Should launches go to the fallback (RDNACOMPAT_FALLBACK=1, or the
 * descriptor says no block of the original fits)? */
bool rdc_route_prefers_fallback(const struct rdc_route *r);

/* Is `rule` non-NULL and within its HIP runtime range: that of the runtime
 * r's library calls (r->runtime), else asked of HIP at the first use, when
 * the program has started HIP itself? */
bool rdc_route_rule_live(const struct rdc_route *r, const struct rdc_kernel_rule *rule);

/* Is `key` (a host stub or hipFunction_t) a kernel with a live `deny` rule
 * on the current device?  Logs once per kernel (`api`: the asking hook).
 * Only call when rdc_route_active is non-zero. */
bool rdc_route_denied(const void *key, const char *api);
/* The same on device processor `dev` (NULL: the current HIP device). */
bool rdc_route_denied_on(const void *key, const char *dev, const char *api);

/* Is host stub `stub` refused on the device of `stream` (NULL: the
 * current device; HIP launches on the stream's device) by a deny route or
 * a hold (hold.c)?  Said once per kernel, as the asking hook `api`.  One
 * atomic load when no route and no hold watch is on (hook_stubs.c). */
bool rdc_stub_refused(const void *stub, void *stream, const char *api);

/* The current HIP device's true processor into buf; false if unknown. */
bool rdc_route_current_device(char buf[RDC_PROC_MAX]);

#endif
