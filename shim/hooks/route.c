/* SPDX-License-Identifier: MIT */
/*
 * route.c — the kernel rules at load time (route.h): for each code object
 * HIP takes (fat binary registration, module load) and each device whose
 * true processor it holds an entry for, every kernel is matched once against
 * tables/kernels.tsv (rules.c) with its mangled and demangled name, the
 * library it came from, the code object's SHA-256, the device and the HIP
 * runtime version.  Matched kernels become routes; nothing else is kept.  A
 * `fallback` route also records whether the fallback kernel's .args layout
 * equals the original's (logged when not), and loads the fallback lazily.
 *
 * The fallback code comes from RDNACOMPAT_FALLBACK_BUNDLE (a bundle or code
 * object file; tests) or the bundle embedded in the library
 * (rdc_fallback_bundle, shim/fallback/fallback_blob.h; absent: no fallback).
 * RDNACOMPAT_FALLBACK (a boolean, config.c) prefers a fallback over an
 * occupancy row.
 */
#define __HIP_PLATFORM_AMD__ 1
#include "route.h"

#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/fileopen.h"
#include "shim.h"

/* Weak: present once shim/fallback/ embeds its bundle. */
extern const unsigned char rdc_fallback_bundle[] __attribute__((weak));
extern const size_t rdc_fallback_bundle_size __attribute__((weak));

atomic_size_t rdc_route_active;
pthread_mutex_t rdc_route_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (route.h, shim.h) */
static struct rdc_route *routes;

/* ---- environment and runtime, read once ---------------------------------- */

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static uint8_t *fb_file;          /* RDNACOMPAT_FALLBACK_BUNDLE contents */
static size_t fb_file_len;
#define FB_FILE_MAX ((off_t)256 << 20)

/* RDNACOMPAT_FALLBACK_BUNDLE (rdc_cfg.fallback_bundle), read once through
 * rdc_open_file: a FIFO, socket, directory or device is refused at the open
 * (never waited on), a symlink is followed to what it names (a user's
 * input), a file of more than 256 MiB is refused by size.  Any refusal is
 * one warning; the bundle built into the shim is then used, as without the
 * variable. */
static void read_env(void)
{
	const char *path = rdc_cfg.fallback_bundle;
	if (!path[0])
		return;
	struct rdc_diag d = { 0 };
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, &d);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) != 0)
		rdc_diag_set(&d, RDC_E_IO, RDC_NO_OFFSET, "%s: cannot stat: %s", path, strerror(errno));
	else if (fd >= 0 && (st.st_size <= 0 || st.st_size > FB_FILE_MAX))
		rdc_diag_set(&d, RDC_E_RANGE, RDC_NO_OFFSET, "%s: %lld bytes (want 1 to %lld)", path,
			     (long long)st.st_size, (long long)FB_FILE_MAX);
	else if (fd >= 0 && !(fb_file = malloc((size_t)st.st_size)))
		rdc_diag_set(&d, RDC_E_NOMEM, RDC_NO_OFFSET, "%s: out of memory", path);
	size_t got = 0;
	while (fb_file && got < (size_t)st.st_size) {
		ssize_t k = pread(fd, fb_file + got, (size_t)st.st_size - got, (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (fb_file && got == (size_t)st.st_size) {
		fb_file_len = got;
	} else if (fb_file) {
		rdc_diag_set(&d, RDC_E_IO, RDC_NO_OFFSET, "%s: short read", path);
		free(fb_file);
		fb_file = NULL;
	}
	if (fd >= 0)
		close(fd);
	if (!fb_file)
		rdc_log_event(RDC_LOG_WARN, "fallback-bundle",
			      (struct rdc_kv[]){ RDC_KV_S("path", path),
						 RDC_KV_S("reason", d.msg[0] ? d.msg : "cannot be read"),
						 RDC_KV_S("effect", rdc_fallback_bundle && &rdc_fallback_bundle_size
									    ? "using the built-in fallback bundle"
									    : "no fallbacks") },
			      3);
}

uint32_t rdc_route_runtime(void)
{
	static _Atomic uint32_t ver;
	static atomic_int asked;
	uint32_t v = atomic_load(&ver);
	if (v || atomic_load(&asked))
		return v;
	__typeof__(&hipRuntimeGetVersion) real = RDC_REAL(hipRuntimeGetVersion);
	int r = 0;
	if (real && real(&r) == hipSuccess && r > 0)
		atomic_store(&ver, (uint32_t)r);
	atomic_store(&asked, 1);
	return atomic_load(&ver);
}

pthread_mutex_t rdc_route_rt_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */

/* The version a libamdhip64 file name carries exactly —
 * libamdhip64.so.6.4.43484 is 60443484, what hipRuntimeGetVersion answers
 * (checked on 5.2, 6.4 and 7.2) — for the library defining `fn`; 0 when
 * the name has another form (then every range counts).  Each runtime's is
 * said once ("rule-runtime"); a process holds one or two. */
static uint32_t runtime_of_fn(void *fn)
{
	static struct { void *fn; uint32_t ver; } seen[4];
	if (!fn)
		return 0;
	pthread_mutex_lock(&rdc_route_rt_lock);
	for (size_t i = 0; i < 4; i++)
		if (seen[i].fn == fn) {
			uint32_t v = seen[i].ver;
			pthread_mutex_unlock(&rdc_route_rt_lock);
			return v;
		}
	pthread_mutex_unlock(&rdc_route_rt_lock);
	uint32_t v = 0;
	Dl_info info;
	char real[PATH_MAX];
	if (dladdr(fn, &info) && info.dli_fname && realpath(info.dli_fname, real)) {
		const char *base = strrchr(real, '/');
		base = base ? base + 1 : real;
		unsigned a, b, c;
		int used = 0;
		if (sscanf(base, "libamdhip64.so.%u.%u.%u%n", &a, &b, &c, &used) == 3 &&
		    base[used] == '\0' && a < 400 && b < 100 && c < 100000)
			v = a * 10000000u + b * 100000u + c;
	}
	bool fresh = false;
	pthread_mutex_lock(&rdc_route_rt_lock);
	size_t i;
	for (i = 0; i < 4 && seen[i].fn && seen[i].fn != fn; i++)
		;
	if (i < 4 && !seen[i].fn) {
		seen[i].fn = fn;
		seen[i].ver = v;
		fresh = true;
	}
	pthread_mutex_unlock(&rdc_route_rt_lock);
	if (fresh && v) {
		char num[16];
		snprintf(num, sizeof num, "%u", v);
		rdc_log_event(RDC_LOG_INFO, "rule-runtime",
			      (struct rdc_kv[]){ RDC_KV_S("runtime", num), RDC_KV_S("lib", real),
						 RDC_KV_S("reason", "from the file name; rows for other "
							   "runtimes are not armed for the libraries "
							   "that call it") },
			      3);
	}
	return v;
}

uint32_t rdc_route_runtime_from_file(void)
{
	return runtime_of_fn((void *)RDC_REAL(hipRuntimeGetVersion));
}

uint32_t rdc_route_runtime_of(const void *addr)
{
	return runtime_of_fn(rdc_real_resolve_from(RDC_FN_hipRuntimeGetVersion, addr));
}

bool rdc_route_rule_live(const struct rdc_route *r, const struct rdc_kernel_rule *rule)
{
	/* the runtime the route's library calls, from its file name; else ask */
	return rule && rdc_rule_runtime_ok(rule, r && r->runtime ? r->runtime : rdc_route_runtime());
}

bool rdc_route_denied(const void *key, const char *api)
{
	return rdc_route_denied_on(key, NULL, api);
}

bool rdc_route_denied_on(const void *key, const char *dev, const char *api)
{
	if (rdc_guard_active())
		return false;
	struct rdc_route *r = rdc_route_find_key_on(key, dev);
	if (!r || !r->deny)
		return false;
	int saved = errno;
	rdc_guard_enter();
	bool live = rdc_route_rule_live(r, r->deny);
	bool held = r->deny == &r->held;   /* rdc_route_hold's: said at warn, as hold.c does */
	if (live && !atomic_exchange(&r->logged_deny, 1))
		rdc_log_event(held ? RDC_LOG_WARN : RDC_LOG_INFO, held ? "held-launch" : "rule-deny",
			      (struct rdc_kv[]){ RDC_KV_S("kernel", r->name), RDC_KV_S("device", r->device),
						 RDC_KV_S("answer", "hipErrorInvalidDeviceFunction"),
						 RDC_KV_S("api", api), RDC_KV_S("reason", r->deny->reason),
						 RDC_KV_S("source", r->deny->source) },
			      6);
	rdc_guard_leave();
	errno = saved;
	return live;
}

bool rdc_route_current_device(char buf[RDC_PROC_MAX])
{
	__typeof__(&hipGetDevice) real = RDC_REAL(hipGetDevice);
	int ord = 0;
	if (!real || real(&ord) != hipSuccess)
		return false;
	const struct rdc_device *d = rdc_device_by_hip(ord);
	if (!d)
		return false;
	snprintf(buf, RDC_PROC_MAX, "%s", d->target.proc);
	return true;
}

/* ---- the fallback code for a device -------------------------------------- */

/* The entry of the fallback bundle for `dev`: its own processor, else the
 * most preferred compatible one (compat.tsv).  *proc: the entry's. */
static int fallback_entry(const char *dev, const uint8_t **p, size_t *n, char proc[RDC_PROC_MAX],
			  struct rdc_bundle *b)
{
	const uint8_t *src = fb_file;
	size_t len = fb_file_len;
	if (!src && rdc_fallback_bundle && &rdc_fallback_bundle_size) {
		src = rdc_fallback_bundle;
		len = rdc_fallback_bundle_size;
	}
	if (!src || !len)
		return RDC_E_NOTFOUND;
	if (rdc_is_codeobj(src, len)) {
		struct rdc_codeobj co;
		if (rdc_codeobj_parse(src, len, RDC_CO_HEADER_ONLY, &co, NULL) != 0)
			return RDC_E_FORMAT;
		snprintf(proc, RDC_PROC_MAX, "%s", co.target.proc);
		rdc_codeobj_free(&co);
		*p = src;
		*n = len;
		memset(b, 0, sizeof *b);
		return 0;
	}
	if (rdc_bundle_parse_as_runtime(src, len, b, NULL) != 0)
		return RDC_E_FORMAT;
	const struct rdc_compat_edge *edges[16];
	size_t ne = rdc_compat_edges_for(rdc_tables(), dev, edges, 16);
	for (size_t pass = 0; pass <= ne; pass++) {
		const char *want = pass == 0 ? dev : edges[pass - 1]->code;
		if (pass && !rdc_edge_usable(edges[pass - 1]))
			continue;
		for (size_t i = 0; i < b->n_entries; i++) {
			const struct rdc_bundle_entry *e = &b->entries[i];
			if (e->parsed.has_target && e->size && !strcmp(e->parsed.target.proc, want)) {
				*p = e->data;
				*n = (size_t)e->size;
				snprintf(proc, RDC_PROC_MAX, "%s", want);
				return 0;
			}
		}
	}
	rdc_bundle_free(b);
	memset(b, 0, sizeof *b);
	return RDC_E_NOTFOUND;
}

static const struct rdc_kernel *kernel_named(const struct rdc_codeobj *co, const char *name)
{
	for (size_t i = 0; i < co->n_kernels; i++)
		if (co->kernels[i].name && !strcmp(co->kernels[i].name, name))
			return &co->kernels[i];
	return NULL;
}

static void strip(struct rdc_kernel *k)
{
	k->name = k->symbol = NULL;
	k->args = NULL;
	k->n_args = 0;
}

/* Compare the original's layout with the fallback's; fill r->fb_ok/fb_k. */
static void check_fallback(struct rdc_route *r, const struct rdc_kernel *orig, const char *lib)
{
	pthread_once(&env_once, read_env);
	const uint8_t *p;
	size_t n;
	char proc[RDC_PROC_MAX];
	struct rdc_bundle b;
	const char *why = NULL;
	char diff[200] = "";
	if (fallback_entry(r->device, &p, &n, proc, &b) != 0) {
		why = "no fallback code for this device";
	} else {
		struct rdc_codeobj co;
		if (rdc_codeobj_parse(p, n, RDC_CO_DESCRIPTORS, &co, NULL) != 0) {
			why = "fallback code object unreadable";
		} else {
			const struct rdc_kernel *fk = kernel_named(&co, r->fallback->fallback);
			if (!fk)
				why = "fallback kernel not in the fallback code";
			else if (rdc_rules_args_equal(orig, fk, diff, sizeof diff))
				why = "argument layouts differ";
			else {
				r->fb_ok = true;
				r->fb_k = *fk;
				strip(&r->fb_k);
			}
			rdc_codeobj_free(&co);
		}
		rdc_bundle_free(&b);
	}
	if (why) /* a layout mismatch is a finding; missing fallback code is not */
		rdc_log_event(diff[0] ? RDC_LOG_WARN : RDC_LOG_INFO, "rule-fallback-refused",
			      (struct rdc_kv[]){ RDC_KV_S("kernel", r->name), RDC_KV_S("lib", lib),
						 RDC_KV_S("device", r->device),
						 RDC_KV_S("fallback", r->fallback->fallback),
						 RDC_KV_S("reason", why), RDC_KV_S("entry", diff) },
			      6);
}

/* ---- load time --------------------------------------------------------------- */

/* Fallback rows scoped to code-object hashes name the builds whose launch
 * contract (how the library sizes the grid and fills the arguments) was
 * checked against the fallback; this code object is another build.  Said
 * once per code object, at warn: the fallback is not used, the other rows
 * (occupancy) apply as they are, and the user can opt in with a row of
 * their own naming this hash. */
static void say_unchecked(const char *kernel, size_t n, const struct rdc_kernel_rule *row,
			  const uint8_t *sum, const char *lib, const char *dev)
{
	char hex[65] = "unknown", count[24], optin[320];
	if (sum)
		rdc_sha256_hex(sum, hex);
	snprintf(count, sizeof count, "%zu", n);
	const char *base = lib ? strrchr(lib, '/') : NULL;
	base = base ? base + 1 : lib ? lib : "?";
	snprintf(optin, sizeof optin,
		 "after checking this build's launch contract, add a [kernels] row with scope %.64s+sha256:%s "
		 "to RDNACOMPAT_TABLES (docs/RULES.md)",
		 base, hex);
	rdc_log_event(RDC_LOG_WARN, "rule-fallback-unchecked",
		      (struct rdc_kv[]){ RDC_KV_S("kernel", kernel), RDC_KV_S("kernels", count),
					 RDC_KV_S("lib", lib), RDC_KV_S("device", dev),
					 RDC_KV_S("fallback", row->fallback), RDC_KV_S("sha256", hex),
					 RDC_KV_S("reason", "fallback not applied: this build's launch contract "
							    "was not checked (its code object's SHA-256 is not "
							    "one the fallback rows name)"),
					 RDC_KV_S("opt_in", optin) },
		      8);
}

static void note_codeobj(uint64_t owner, const uint8_t *p, size_t n, const uint8_t *sum,
			 const char *lib, uint32_t rt, const char *dev, const struct rdc_tables *t)
{
	struct rdc_codeobj co;
	if (rdc_codeobj_parse(p, n, RDC_CO_DESCRIPTORS, &co, NULL) != 0)
		return;
	/* rows for another runtime neither match nor log here when the file
	 * name of the libamdhip64 the library calls says which runtime this is
	 * (`rt`); else the range is checked at first use */
	size_t unchecked_n = 0;
	const char *unchecked_first = NULL;
	const struct rdc_kernel_rule *unchecked_row = NULL;
	for (size_t i = 0; i < co.n_kernels; i++) {
		const struct rdc_kernel *k = &co.kernels[i];
		if (!k->name)
			continue;
		char dem[1024];
		bool have_dem = rdc_demangle(k->name, dem, sizeof dem) == 0;
		struct rdc_rule_subject s = { .name = k->name, .demangled = have_dem ? dem : NULL,
					      .lib = lib, .sha256 = sum, .device = dev,
					      .runtime = rt, .runtime_later = rt == 0,
					      .provisional = rdc_cfg.opt_in };
		struct rdc_rule_match m;
		int nm = rdc_rules_match(t, &s, &m);
		if (nm >= 0 && m.unchecked && !unchecked_n++)
			unchecked_first = k->name, unchecked_row = m.unchecked;
		if (nm <= 0) {
			if (m.allow)
				rdc_log_event(RDC_LOG_DEBUG, "rule-allow",
					      (struct rdc_kv[]){ RDC_KV_S("kernel", k->name),
								 RDC_KV_S("device", dev),
								 RDC_KV_S("source", m.allow->source) },
					      3);
			continue;
		}
		if (m.overruled) {
			const struct rdc_kernel_rule *u = m.deny ? m.deny : m.occupancy ? m.occupancy : m.fallback;
			rdc_log_event(RDC_LOG_INFO, "rule-user-over-allow",
				      (struct rdc_kv[]){ RDC_KV_S("kernel", k->name), RDC_KV_S("device", dev),
							 RDC_KV_S("user_row", u->pattern),
							 RDC_KV_S("user_action", rdc_rule_action_name(u->action)),
							 RDC_KV_S("builtin_allow", m.overruled->pattern),
							 RDC_KV_S("builtin_targets", m.overruled->targets) },
				      6);
		}
		struct rdc_route *r = calloc(1, sizeof *r);
		if (!r || !(r->name = strdup(k->name))) {
			free(r);
			continue;
		}
		r->owner = owner;
		r->runtime = rt;
		snprintf(r->device, sizeof r->device, "%.*s", RDC_PROC_MAX - 1, dev);
		r->k = *k;
		strip(&r->k);
		r->occupancy = m.occupancy;
		r->fallback = m.fallback;
		r->deny = m.deny;
		if (r->fallback)
			check_fallback(r, k, lib);
		const struct rdc_kernel_rule *first = m.deny ? m.deny : m.occupancy ? m.occupancy : m.fallback;
		char acts[160];
		snprintf(acts, sizeof acts, "%s%s%s%s%s%s", m.deny ? "deny" : "",
			 m.deny && (m.occupancy || m.fallback) ? "," : "", m.occupancy ? "occupancy" : "",
			 m.occupancy && m.fallback ? "," : "", m.fallback ? "fallback:" : "",
			 m.fallback ? m.fallback->fallback : "");
		rdc_log_event(RDC_LOG_INFO, "rule",
			      (struct rdc_kv[]){ RDC_KV_S("kernel", k->name), RDC_KV_S("lib", lib),
						 RDC_KV_S("device", dev), RDC_KV_S("actions", acts),
						 RDC_KV_S("runtime", first->runtime),
						 RDC_KV_S("source", first->source) },
			      6);
		pthread_mutex_lock(&rdc_route_lock);
		r->next = routes;
		routes = r;
		atomic_fetch_add(&rdc_route_active, 1);
		pthread_mutex_unlock(&rdc_route_lock);
	}
	if (unchecked_n)
		say_unchecked(unchecked_first, unchecked_n, unchecked_row, sum, lib, dev);
	rdc_codeobj_free(&co);
}

/* Measure a container at `image` (size 0: from the readable mappings). */
static uint64_t extent_of(const void *image, uint64_t size)
{
	if (size)
		return size;
	uint64_t avail = rdc_readable_extent(image);
	if (!avail || (rdc_is_bundle(image, avail) ? rdc_bundle_extent(image, avail, &size, NULL)
						   : rdc_elf_extent(image, avail, &size)))
		return 0;
	return size;
}

/* The code object for processor `dev` in a container (bundle or bare ELF):
 * its own entry; with `compat`, else the most preferred compatible one.
 * *b is to be freed by the caller (rdc_bundle_free) when 0 is returned. */
static int entry_for(const void *img, uint64_t size, const char *dev, bool compat, const uint8_t **p,
		     size_t *n, struct rdc_bundle *b)
{
	memset(b, 0, sizeof *b);
	if (rdc_is_codeobj(img, size)) {
		struct rdc_codeobj co;
		if (rdc_codeobj_parse(img, size, RDC_CO_HEADER_ONLY, &co, NULL) != 0)
			return RDC_E_FORMAT;
		bool same = !strcmp(co.target.proc, dev);
		rdc_codeobj_free(&co);
		if (!same && !compat)
			return RDC_E_NOTFOUND;
		*p = img;
		*n = (size_t)size;
		return 0;
	}
	if (rdc_bundle_parse_as_runtime(img, size, b, NULL) != 0)
		return RDC_E_FORMAT;
	const struct rdc_compat_edge *edges[16];
	size_t ne = compat ? rdc_compat_edges_for(rdc_tables(), dev, edges, 16) : 0;
	for (size_t pass = 0; pass <= ne; pass++) {
		if (pass && !rdc_edge_usable(edges[pass - 1]))
			continue;
		const char *want = pass == 0 ? dev : edges[pass - 1]->code;
		for (size_t i = 0; i < b->n_entries; i++) {
			const struct rdc_bundle_entry *e = &b->entries[i];
			if (e->parsed.has_target && e->size && !strcmp(e->parsed.target.proc, want)) {
				*p = e->data;
				*n = (size_t)e->size;
				return 0;
			}
		}
	}
	rdc_bundle_free(b);
	memset(b, 0, sizeof *b);
	return RDC_E_NOTFOUND;
}

/* Whether any rule's library scope admits lib (its file name), and whether
 * one of those is sha256-scoped: a code object no rule can name is neither
 * hashed nor parsed (rocBLAS's, say, when the rules are all for ggml). */
static bool scope_admits(const struct rdc_tables *t, const char *lib, bool *need_sum)
{
	const char *base = lib ? strrchr(lib, '/') : NULL;
	base = base ? base + 1 : lib;
	bool any = false;
	*need_sum = false;
	for (size_t i = 0; i < t->n_rules; i++) {
		const struct rdc_kernel_rule *r = &t->rules[i];
		if (r->scope_lib && (!base || fnmatch(r->scope_lib, base, 0) != 0))
			continue;
		any = true;
		*need_sum |= r->scope_sha256 != NULL;
	}
	return any;
}

void rdc_route_note_image(uint64_t owner, const void *image, uint64_t size, const void *orig,
			  uint64_t orig_size, const char *lib, uint32_t rt)
{
	const struct rdc_tables *t = rdc_tables();
	if (!t || !t->n_rules || !image || !owner)
		return;
	/* The runtime version is checked when a rule is used: asking HIP now
	 * (inside __hipRegisterFatBinary) would start it early.  Its library's
	 * file name already excludes rows for other runtimes (llama.cpp on 6.4:
	 * no code object parsed for the >=7.1 flash_attn_tile rows). */
	bool need_sum;
	if (!scope_admits(t, lib, &need_sum))
		return; /* no rule is scoped to this library */
	/* a bundle left to the runtime's reading registered before the devices
	 * were known: learn them now, for a library some rule may concern */
	if (!rdc_devices_count())
		(void)rdc_devices_ensure();
	char devs[RDC_MAX_DEVICES][RDC_PROC_MAX];
	size_t nd = 0;
	for (size_t i = 0; i < rdc_devices_count() && nd < RDC_MAX_DEVICES; i++) {
		const struct rdc_device *d = rdc_device_get(i);
		if (!d || d->mode == RDC_MODE_OFF ||
		    !rdc_rules_any_for(t, d->target.proc, rt, rdc_cfg.opt_in))
			continue;
		size_t j;
		for (j = 0; j < nd && strcmp(devs[j], d->target.proc); j++)
			;
		if (j == nd)
			snprintf(devs[nd++], RDC_PROC_MAX, "%s", d->target.proc);
	}
	if (!nd)
		return; /* the common case: no rule can concern these devices */
	if (!(size = extent_of(image, size)))
		return;
	if (!orig || orig == image) {
		orig = image;
		orig_size = size;
	} else if (!(orig_size = extent_of(orig, orig_size))) {
		orig = NULL;
	}
	for (size_t j = 0; j < nd; j++) {
		const uint8_t *p, *op;
		size_t n, on;
		struct rdc_bundle b, ob;
		/* the device's entry; for a bundle left to the runtime's own
		 * reading (lazy.c: not rebuilt), the compatible one its object
		 * will be retargeted from — the same kernels and arguments */
		if (entry_for(image, size, devs[j], false, &p, &n, &b) != 0 &&
		    (image != orig || entry_for(image, size, devs[j], true, &p, &n, &b) != 0))
			continue;
		/* the hash a rule names is of the code object as shipped: the
		 * original's entry for the device, else the one it was mapped from */
		uint8_t sum[32];
		bool have_sum = false;
		if (need_sum && orig && entry_for(orig, orig_size, devs[j], true, &op, &on, &ob) == 0) {
			rdc_sha256(op, on, sum);
			have_sum = true;
			rdc_bundle_free(&ob);
		}
		note_codeobj(owner, p, n, have_sum ? sum : NULL, lib, rt, devs[j], t);
		rdc_bundle_free(&b);
	}
}

void rdc_route_hold(uint64_t owner, const char *dev, char *const *names, size_t n, const char *lib)
{
	for (size_t i = 0; i < n; i++) {
		struct rdc_route *r = calloc(1, sizeof *r);
		if (!r || !(r->name = strdup(names[i]))) {
			free(r);
			rdc_logf(RDC_LOG_ERROR, "held kernel %s on %s: out of memory for its deny route; "
				 "its host stub is not held", names[i], dev);
			continue;
		}
		r->owner = owner;
		snprintf(r->device, sizeof r->device, "%.*s", RDC_PROC_MAX - 1, dev);
		r->held = (struct rdc_kernel_rule){
			.pattern = r->name, .scope = "*", .targets = r->device, .runtime = "*",
			.rt_min = 0, .rt_max = UINT32_MAX, .action = RDC_RULE_DENY,
			.reason = "held: it cannot run safely on this card as built "
				  "(the 'held' line of the decision says why)",
			.source = "tables/compat.tsv edge, shim/core/policy.c (held kernels)",
		};
		r->deny = &r->held;
		rdc_log_event(RDC_LOG_INFO, "hold",
			      (struct rdc_kv[]){ RDC_KV_S("kernel", r->name), RDC_KV_S("lib", lib),
						 RDC_KV_S("device", r->device), RDC_KV_S("how", "deny route") },
			      4);
		pthread_mutex_lock(&rdc_route_lock);
		r->next = routes;
		routes = r;
		atomic_fetch_add(&rdc_route_active, 1);
		pthread_mutex_unlock(&rdc_route_lock);
	}
}

void rdc_route_forget(uint64_t owner)
{
	if (!atomic_load_explicit(&rdc_route_active, memory_order_relaxed))
		return;
	__typeof__(&hipModuleUnload) unload = RDC_REAL(hipModuleUnload);
	struct rdc_route *gone = NULL;
	pthread_mutex_lock(&rdc_route_lock);
	for (struct rdc_route **pp = &routes; *pp;) {
		struct rdc_route *r = *pp;
		if (r->owner != owner) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		atomic_fetch_sub(&rdc_route_active, 1);
		r->next = gone;
		gone = r;
	}
	pthread_mutex_unlock(&rdc_route_lock);
	/* The runtime unloads the fallback modules with the lock free: its
	 * unload calls back into the shim (comgr's release, kpack's free, the
	 * HSA hooks), which takes other locks; the route lock stays a leaf. */
	while (gone) {
		struct rdc_route *r = gone;
		gone = r->next;
		if (r->fb_module && unload)
			unload((hipModule_t)r->fb_module);
		free(r->name);
		free(r);
	}
}

/* ---- lookups ------------------------------------------------------------------ */

struct rdc_route *rdc_route_find_name(uint64_t owner, const char *name)
{
	if (!atomic_load_explicit(&rdc_route_active, memory_order_relaxed) || !name)
		return NULL;
	char dev[RDC_PROC_MAX];
	if (!rdc_route_current_device(dev))
		return NULL;
	return rdc_route_find_name_on(owner, name, dev);
}

struct rdc_route *rdc_route_find_name_on(uint64_t owner, const char *name, const char *dev)
{
	if (!name || !dev)
		return NULL;
	struct rdc_route *hit = NULL;
	pthread_mutex_lock(&rdc_route_lock);
	for (struct rdc_route *r = routes; r && !hit; r = r->next)
		if (r->owner == owner && !strcmp(r->name, name) && !strcmp(r->device, dev))
			hit = r;
	pthread_mutex_unlock(&rdc_route_lock);
	return hit;
}

void rdc_route_bind(struct rdc_route *r, const void *key)
{
	pthread_mutex_lock(&rdc_route_lock);
	r->key = key;
	pthread_mutex_unlock(&rdc_route_lock);
}

struct rdc_route *rdc_route_find_key(const void *key)
{
	return rdc_route_find_key_on(key, NULL);
}

struct rdc_route *rdc_route_find_key_on(const void *key, const char *on)
{
	struct rdc_route *hit = NULL;
	bool several = false;
	pthread_mutex_lock(&rdc_route_lock);
	for (struct rdc_route *r = routes; r; r = r->next)
		if (r->key == key) {
			several = hit != NULL;
			hit = r;
		}
	pthread_mutex_unlock(&rdc_route_lock);
	if (!hit)
		return NULL;
	/* the route of the device asked about (`on`, else the current one):
	 * a key bound on one device only is no route on another */
	char dev[RDC_PROC_MAX];
	if (on)
		snprintf(dev, sizeof dev, "%s", on);
	else if (!rdc_route_current_device(dev))
		return several ? NULL : hit;
	if (!several)
		return strcmp(hit->device, dev) ? NULL : hit;
	hit = NULL;
	pthread_mutex_lock(&rdc_route_lock);
	for (struct rdc_route *r = routes; r && !hit; r = r->next)
		if (r->key == key && !strcmp(r->device, dev))
			hit = r;
	pthread_mutex_unlock(&rdc_route_lock);
	return hit;
}

bool rdc_route_prefers_fallback(const struct rdc_route *r)
{
	pthread_once(&env_once, read_env);
	if (!r->fb_ok || !rdc_route_rule_live(r, r->fallback))
		return false;
	if (!rdc_route_rule_live(r, r->occupancy) || rdc_cfg.prefer_fallback)
		return true;
	const struct rdc_isa *isa = rdc_isa_find(rdc_tables(), r->device);
	uint32_t flat = r->k.max_flat_workgroup_size ? r->k.max_flat_workgroup_size : 256;
	uint32_t blocks = 0;
	return isa && rdc_rules_occupancy(isa, &r->k, flat, 0, &blocks) == 0 && blocks == 0;
}

void *rdc_route_fallback(struct rdc_route *r)
{
	if (!rdc_route_prefers_fallback(r))
		return NULL;
	pthread_mutex_lock(&rdc_route_lock);
	void *f = r->fb_func;
	pthread_mutex_unlock(&rdc_route_lock);
	if (f)
		return f;
	__typeof__(&hipModuleLoadData) load = RDC_REAL(hipModuleLoadData);
	__typeof__(&hipModuleGetFunction) get = RDC_REAL(hipModuleGetFunction);
	const struct rdc_device *dev = NULL;
	for (size_t i = 0; i < rdc_devices_count(); i++) {
		const struct rdc_device *d = rdc_device_get(i);
		if (d && !strcmp(d->target.proc, r->device))
			dev = d;
	}
	const uint8_t *p;
	size_t n;
	char proc[RDC_PROC_MAX];
	struct rdc_bundle b;
	if (!load || !get || !dev || fallback_entry(r->device, &p, &n, proc, &b) != 0)
		return NULL;
	uint8_t *copy = NULL;
	size_t copy_len = 0;
	const void *img = p;
	if (strcmp(proc, r->device) != 0) {
		if (rdc_codeobj_retarget(p, n, &dev->target, &copy, &copy_len, NULL) != 0) {
			rdc_bundle_free(&b);
			return NULL;
		}
		img = copy;
	}
	hipModule_t m = NULL;
	hipFunction_t fn = NULL;
	hipError_t e = load(&m, img);
	if (e == hipSuccess)
		e = get(&fn, m, r->fallback->fallback);
	free(copy);
	rdc_bundle_free(&b);
	if (e != hipSuccess || !fn) {
		rdc_log_event(RDC_LOG_WARN, "rule-fallback-refused",
			      (struct rdc_kv[]){ RDC_KV_S("kernel", r->name), RDC_KV_S("device", r->device),
						 RDC_KV_S("fallback", r->fallback->fallback),
						 RDC_KV_S("reason", "the runtime did not load it"),
						 RDC_KV_N("hip_error", e) },
			      5);
		return NULL;
	}
	pthread_mutex_lock(&rdc_route_lock);
	if (!r->fb_func) {
		r->fb_func = fn;
		r->fb_module = m;
		m = NULL;
	}
	f = r->fb_func;
	pthread_mutex_unlock(&rdc_route_lock);
	if (m) {
		__typeof__(&hipModuleUnload) unload = RDC_REAL(hipModuleUnload);
		if (unload)
			unload(m);
	}
	return f;
}

/* ---- call sites in hook_fatbin.c / hook_module.c ----------------------------- */

static void object_of(const void *addr, char *buf, size_t n)
{
	/* the object's name from its link map: dladdr also looks for the
	 * nearest symbol, through every symbol of a library of thousands */
	struct link_map *m = addr ? rdc_object_of(addr) : NULL;
	if (m && m->l_name && m->l_name[0]) {
		snprintf(buf, n, "%s", m->l_name);
		return;
	}
	Dl_info info;
	if (addr && dladdr(addr, &info) && info.dli_fname)
		snprintf(buf, n, "%s", info.dli_fname);
	else
		buf[0] = '\0';
}

void rdc_route_note_fatbin(void **handle, const void *bundle, const void *orig, const void *wrapper)
{
	if (!handle || !bundle || !rdc_tables() || !rdc_tables()->n_rules)
		return;
	char lib[512];
	object_of(wrapper, lib, sizeof lib);
	rdc_route_note_image((uint64_t)(uintptr_t)handle, bundle, 0, orig, 0, lib[0] ? lib : NULL,
			     rdc_route_runtime_of(wrapper));
}

void rdc_route_note_module(void *module, const void *image, const void *orig, const char *path,
			   const void *caller)
{
	if (!module || !rdc_tables() || !rdc_tables()->n_rules)
		return;
	char lib[512];
	object_of(caller, lib, sizeof lib);
	if (image && orig) {
		rdc_route_note_image((uint64_t)(uintptr_t)module, image, 0, orig, 0, lib[0] ? lib : NULL,
				     rdc_route_runtime_of(caller));
		return;
	}
	if (!path)
		return;
	/* the program's file, opened again: never waiting on what it may have
	 * become since HIP read it (a FIFO, a device) */
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, NULL);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			/* the file as shipped; HIP got `image` when the shim rebuilt it */
			rdc_route_note_image((uint64_t)(uintptr_t)module, image ? image : m,
					     image ? 0 : (uint64_t)st.st_size, m, (uint64_t)st.st_size,
					     lib[0] ? lib : NULL, rdc_route_runtime_of(caller));
			munmap(m, (size_t)st.st_size);
		}
	}
	if (fd >= 0)
		close(fd);
}
