/* SPDX-License-Identifier: MIT */
/*
 * hook_kpack.c — kpack_load_code_object / kpack_free_code_object
 * (librocm_kpack.so.0, TheRock's split device code; docs/KPACK.md).
 *
 * CLR's ExtractKpackBinary asks the loader for one code object with
 * arch_list = [the agent's ISA name, its generic] (ROCm/rocm-systems
 * projects/clr/hipamd/src/hip_fatbin.cpp); the loader expands each
 * search path's @GFXARCH@ with those names and answers
 * KPACK_ERROR_ARCHIVE_NOT_FOUND (13) or KPACK_ERROR_ARCH_NOT_FOUND (14)
 * when no archive names them (ROCm/rocm-kpack@e3483286
 * runtime/src/loader.cpp).  A gfx1031 card in a tree holding only
 * *_gfx1030.kpack gets no code.
 *
 * The hook calls the real loader first, unchanged.  Only on 13/14, for a
 * device the shim knows whose mode is not off, it asks the loader again
 * once per compatible target of tables/compat.tsv (usable edges, table
 * order), with that target's ISA name alone — so the loader finds
 * `<artifact>_gfx1030.kpack` through the same search paths and
 * ROCM_KPACK_PATH/_PREFIX it used — then holds the code object to the
 * same per-kernel checks as a bundle entry (rdc_policy_choose_codeobj),
 * logs the same events as a bundle (map / audit / missing / refused,
 * source=kpack) and returns a copy retargeted to the device
 * (rdc_codeobj_retarget), which kpack_free_code_object frees.  The
 * loader's own buffer for the substitute is given back to it.  Any other
 * result, audit mode, or any doubt: the real result is returned as it
 * was.  librocm_kpack has no symbol versions (runtime/CMakeLists.txt: no
 * version script), so both hooks are exported at the default version
 * RDNACOMPAT_1, which an unversioned reference binds to.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/codeobj.h"
#include "shim.h"

/* kpack_types.h: kpack_error_t values used here. */
enum { KPACK_OK = 0, KPACK_NOT_IMPLEMENTED = 8, KPACK_ARCHIVE_NOT_FOUND = 13,
       KPACK_ARCH_NOT_FOUND = 14 };

RDC_HOOK int kpack_load_code_object(void *cache, const void *hipk_metadata, const char *binary_path,
				    uint32_t co_index, const char *const *arch_list, size_t arch_count,
				    void **code_object_out, size_t *code_object_size_out);
RDC_HOOK void kpack_free_code_object(void *code_object);

/* Buffers this hook handed out (freed by our kpack_free_code_object). */
pthread_mutex_t rdc_kpack_lock = PTHREAD_MUTEX_INITIALIZER;   /* a leaf (shim.h) */
struct kp_buf {
	struct kp_buf *next;
	void *p;
};
static struct kp_buf *kp_bufs;

static bool take_ours(void *p)
{
	pthread_mutex_lock(&rdc_kpack_lock);
	struct kp_buf **pp = &kp_bufs, *b = NULL;
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->p == p) {
			b = *pp;
			*pp = b->next;
			break;
		}
	pthread_mutex_unlock(&rdc_kpack_lock);
	free(b);
	return b != NULL;
}

static bool note_ours(void *p)
{
	struct kp_buf *b = malloc(sizeof *b);
	if (!b)
		return false;
	b->p = p;
	pthread_mutex_lock(&rdc_kpack_lock);
	b->next = kp_bufs;
	kp_bufs = b;
	pthread_mutex_unlock(&rdc_kpack_lock);
	return true;
}

/* The device the runtime asked for: arch_list[0] is its ISA name. */
static const struct rdc_device *device_of(const char *isa, struct rdc_target *t)
{
	if (!isa || rdc_target_parse(isa, (size_t)-1, t, NULL) != 0)
		return NULL;
	if (rdc_devices_ensure() <= 0)
		return NULL;
	for (size_t i = 0; i < rdc_devices_count(); i++) {
		const struct rdc_device *d = rdc_device_get(i);
		if (d && strcmp(d->target.proc, t->proc) == 0 && d->target.xnack == t->xnack &&
		    d->target.sramecc == t->sramecc)
			return d;
	}
	return NULL;
}

/* One event line like decide.c's for a bundle. */
static void log_choice(enum rdc_level lvl, const char *event, const char *lib, uint32_t index,
		       const struct rdc_device *dev, const char *entry, const char *chosen,
		       const struct rdc_choice *c, uint64_t bytes, const char *reason)
{
	char tgt[64];
	rdc_target_format(&dev->target, tgt, sizeof tgt);
	struct rdc_kv kv[] = {
		RDC_KV_S("lib", lib), RDC_KV_N("bundle", index), RDC_KV_S("source", "kpack"),
		RDC_KV_N("device", dev->index), RDC_KV_S("target", tgt),
		RDC_KV_S("mode", rdc_mode_name(dev->mode)),
		RDC_KV_S("verdict", c ? rdc_verdict_name(c->verdict) : "missing"),
		RDC_KV_S("entry", entry), RDC_KV_S("chosen", chosen),
		RDC_KV_N("kernels", c ? c->n_kernels : 0), RDC_KV_N("refused", c ? c->n_refused : 0),
		RDC_KV_N("bytes", bytes), RDC_KV_S("reason", reason),
	};
	rdc_log_event(lvl, event, kv, sizeof kv / sizeof kv[0]);
}

/* Ask the loader for a compatible target's code object; 0 and a
 * retargeted copy in *out, or the loader's error / -1 (refused). */
static int try_edge(__typeof__(&kpack_load_code_object) real,
		    __typeof__(&kpack_free_code_object) real_free, void *cache, const void *meta, const char *binary_path,
		    uint32_t co_index, const struct rdc_device *dev, const char *code,
		    const char *lib, void **out, size_t *out_n, bool *answered)
{
	char isa[96];
	struct rdc_target ct;
	if (rdc_target_parse(code, (size_t)-1, &ct, NULL) != 0)
		return -1;
	ct.xnack = dev->target.xnack;    /* the device's features, as the runtime asks */
	ct.sramecc = dev->target.sramecc;
	rdc_target_format_isa_name(&ct, isa, sizeof isa);
	const char *one[1] = { isa };
	void *co = NULL;
	size_t n = 0;
	int err = real(cache, meta, binary_path, co_index, one, 1, &co, &n);
	if (err != KPACK_OK || !co)
		return err != KPACK_OK ? err : -1;
	*answered = true;
	struct rdc_choice c;
	struct rdc_diag d = { 0 };
	int rc = rdc_policy_choose_codeobj(rdc_tables(), &dev->target, co, n, rdc_policy_flags(), &c, &d);
	char chosen[64], entry[128];
	snprintf(entry, sizeof entry, "%s", isa);
	if (rc != 0) {
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", lib), RDC_KV_N("bundle", co_index), RDC_KV_S("source", "kpack"),
			RDC_KV_N("device", dev->index), RDC_KV_S("entry", entry),
			RDC_KV_S("error", rdc_strerror(rc)), RDC_KV_S("detail", d.msg),
		};
		rdc_log_event(RDC_LOG_WARN, "passthrough", kv, sizeof kv / sizeof kv[0]);
		if (real_free)
			real_free(co);
		return -1;
	}
	rdc_target_format(&c.chosen, chosen, sizeof chosen);
	int ret = -1;
	if (c.verdict == RDC_VERDICT_MAPPED) {
		bool audit = dev->mode == RDC_MODE_AUDIT;
		log_choice(RDC_LOG_INFO, audit ? "audit" : "map", lib, co_index, dev, entry, chosen, &c, n,
			   c.reason);
		if (c.n_refused)
			rdc_log_refused(lib, (long)co_index, dev, &c);
		if (!audit) {
			struct rdc_target to = c.chosen;
			snprintf(to.proc, sizeof to.proc, "%s", dev->target.proc);
			uint8_t *copy = NULL;
			size_t cn = 0;
			rc = rdc_codeobj_retarget(co, n, &to, &copy, &cn, &d);
			if (rc == 0 && note_ours(copy)) {
				*out = copy;
				*out_n = cn;
				ret = 0;
			} else {
				free(copy);
				rdc_logf(RDC_LOG_ERROR, "kpack: %s #%u: retargeting the %s code object failed "
					 "(%s); returning the loader's answer", lib, co_index, chosen,
					 d.msg[0] ? d.msg : rdc_strerror(rc));
			}
		}
	} else {
		/* NATIVE cannot happen (the loader had nothing for the device);
		 * MISSING: the candidate was refused kernel by kernel. */
		log_choice(RDC_LOG_WARN, "missing", lib, co_index, dev, entry, "-", &c, n, c.reason);
		if (c.n_refused)
			rdc_log_refused(lib, (long)co_index, dev, &c);
	}
	rdc_choice_free(&c);
	if (real_free)
		real_free(co);
	return ret;
}

RDC_HOOK int kpack_load_code_object(void *cache, const void *hipk_metadata, const char *binary_path,
				    uint32_t co_index, const char *const *arch_list, size_t arch_count,
				    void **code_object_out, size_t *code_object_size_out)
{
	__typeof__(&kpack_load_code_object) real = RDC_REAL(kpack_load_code_object);
	if (!rdc_guard_active())
		rdc_init();
	if (!real) {
		rdc_logf(RDC_LOG_ERROR, "kpack_load_code_object: real function not found");
		return KPACK_NOT_IMPLEMENTED;
	}
	int err = real(cache, hipk_metadata, binary_path, co_index, arch_list, arch_count,
		       code_object_out, code_object_size_out);
	if ((err != KPACK_ARCHIVE_NOT_FOUND && err != KPACK_ARCH_NOT_FOUND) || rdc_guard_active() ||
	    !arch_list || !arch_count || !code_object_out || !code_object_size_out)
		return err;
	int saved = errno;
	rdc_guard_enter();
	const char *lib = binary_path ? rdc_basename(binary_path) : "?";
	struct rdc_target t;
	const struct rdc_device *dev = device_of(arch_list[0], &t);
	const struct rdc_compat_edge *edges[32];
	size_t ne = dev && dev->mode != RDC_MODE_OFF ? rdc_compat_edges_for(rdc_tables(), dev->target.proc,
									    edges, 32)
						      : 0;
	if (!dev || dev->mode == RDC_MODE_OFF || !ne) {
		rdc_logf(RDC_LOG_DEBUG, "kpack: %s #%u: loader error %d for %s; %s; passing it through", lib,
			 co_index, err, arch_list[0] ? arch_list[0] : "(null)",
			 !dev ? "no device the shim knows has that ISA" :
			 dev->mode == RDC_MODE_OFF ? "the device's mode is off" :
			 "the tables list no compatible target");
		goto out;
	}
	rdc_logf(RDC_LOG_INFO, "kpack: %s #%u: loader error %d (%s) for %s%s%s; asking for compatible targets",
		 lib, co_index, err, err == KPACK_ARCHIVE_NOT_FOUND ? "no archive" : "no archive with the arch",
		 arch_list[0], arch_count > 1 && arch_list[1] ? ", " : "",
		 arch_count > 1 && arch_list[1] ? arch_list[1] : "");
	__typeof__(&kpack_free_code_object) real_free = RDC_REAL(kpack_free_code_object);
	bool answered = false;
	for (size_t i = 0; i < ne; i++) {
		if (!rdc_edge_usable(edges[i]))
			continue;
		/* the runtime's own list already asked for these */
		bool asked = false;
		for (size_t a = 0; a < arch_count && !asked; a++) {
			struct rdc_target at;
			asked = arch_list[a] && rdc_target_parse(arch_list[a], (size_t)-1, &at, NULL) == 0 &&
				strcmp(at.proc, edges[i]->code) == 0;
		}
		if (asked)
			continue;
		void *co = NULL;
		size_t n = 0;
		if (try_edge(real, real_free, cache, hipk_metadata, binary_path, co_index, dev,
			     edges[i]->code, lib, &co, &n, &answered) == 0) {
			*code_object_out = co;
			*code_object_size_out = n;
			err = KPACK_OK;
			break;
		}
	}
	if (err != KPACK_OK && !answered) {
		char need[160];
		rdc_policy_need(rdc_tables(), dev->target.proc, need, sizeof need);
		char reason[300];
		snprintf(reason, sizeof reason, "no archive holds %s or a compatible target (needs %s)",
			 dev->target.proc, need);
		log_choice(RDC_LOG_WARN, "missing", lib, co_index, dev, "-", "-", NULL, 0, reason);
	}
out:
	rdc_guard_leave();
	errno = saved;
	return err;
}

RDC_HOOK void kpack_free_code_object(void *code_object)
{
	if (code_object && take_ours(code_object)) {
		free(code_object);
		return;
	}
	__typeof__(&kpack_free_code_object) real = RDC_REAL(kpack_free_code_object);
	if (real)
		real(code_object);
	else if (code_object)
		rdc_logf(RDC_LOG_ERROR, "kpack_free_code_object: real function not found; leaking %p",
			 code_object);
}
