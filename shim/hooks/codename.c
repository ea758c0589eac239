/* SPDX-License-Identifier: MIT */
/*
 * codename.c — map mode: an object whose own device code the shim maps is
 * told the name of the target that code was built for.
 *
 * Why: host code chooses by the architecture name, and its choice must fit
 * the device code it launches.  rocPRIM (header-only: compiled into every
 * hipCUB, rocThrust and PyTorch object) picks each algorithm's launch
 * configuration from hipDeviceProp_t::gcnArchName and the kernels were
 * compiled for the configuration of the target they were built for: told
 * "gfx1031" (which it does not know) it launches gfx1030's kernels with its
 * default configuration and computes wrong sums (docs/SUITES.md).  rocBLAS's
 * Tensile, told the true name, picks other kernels than the ones it tuned for
 * gfx1030 (docs/PERF.md, llama-bench).  So in map mode the object that asks
 * (the one holding the return address of hipGetDeviceProperties or of the
 * HSA name queries) is told target S when its own registered fat binary has
 * no entry for the device and the entry ids alone say the shim maps S's entry
 * to it (rdc_policy_mapped_by_id: not a generic target, no rule concerned).
 * Everyone else — HIP, ROCR, a program without device code, an object with
 * the device's own code — sees the truth.  One "name" line per object and
 * device says who was told what and why.  An object whose code does not
 * tell (none registered, or ids that do not say) and that compiles device
 * code at run time by name (tables/rtc-names.tsv: MIOpen) is told the name
 * rtcname.c picks.  RDNACOMPAT_NAME_FOLLOWS_CODE=0
 * turns it off (every object sees the truth, as before 2026-12-05).
 *
 * Answers are kept per (object, device): the first question reads one fat
 * binary's entry table (a compressed one: its first 64 KiB decompressed) —
 * the first the object registered, or, when the shim saw it register none
 * (a registration the hook passes through), the first bundle of the
 * object's `.hip_fatbin` section where the loader put it.
 */
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rdnacompat/container.h"
#include "shim.h"

#define CODENAME_SLOTS 64

struct answer {
	const struct link_map *obj;
	ElfW(Addr) base;         /* the object's l_addr: a link map reused by another object differs */
	int device;              /* rdc_device.index */
	char proc[RDC_PROC_MAX]; /* "" : the truth */
};

pthread_mutex_t rdc_codename_lock = PTHREAD_MUTEX_INITIALIZER;  /* a leaf (shim.h) */
static struct answer answers[CODENAME_SLOTS];
static size_t n_answers, next_victim;

static bool lookup(const struct link_map *m, int device, char *proc, size_t n)
{
	bool hit = false;
	pthread_mutex_lock(&rdc_codename_lock);
	for (size_t i = 0; i < n_answers && !hit; i++) {
		const struct answer *a = &answers[i];
		if (a->obj == m && a->base == m->l_addr && a->device == device) {
			snprintf(proc, n, "%s", a->proc);
			hit = true;
		}
	}
	pthread_mutex_unlock(&rdc_codename_lock);
	return hit;
}

static void remember(const struct link_map *m, int device, const char *proc)
{
	pthread_mutex_lock(&rdc_codename_lock);
	size_t i = n_answers < CODENAME_SLOTS ? n_answers++ : next_victim++ % CODENAME_SLOTS;
	answers[i] = (struct answer){ .obj = m, .base = m->l_addr, .device = device };
	snprintf(answers[i].proc, sizeof answers[i].proc, "%s", proc);
	pthread_mutex_unlock(&rdc_codename_lock);
}

/* The target whose entry the ids map to `dev` in the fat binary at `fb`,
 * into proc ("" when the device has its own entry, or the ids do not tell);
 * true when the device has its own entry. */
static bool code_target(const struct rdc_device *dev, const void *fb, char *proc, size_t n,
			const char **why)
{
	bool native = false;
	proc[0] = 0;
	struct rdc_segment seg;
	struct rdc_diag d = { 0 };
	uint64_t extent = 0;
	struct rdc_bundle b;
	*why = "its fat binary cannot be read";
	if (rdc_segment_find(fb, &seg) != 0 || !seg.readable ||
	    rdc_bundle_extent(fb, seg.avail, &extent, &d) != 0 ||
	    rdc_bundle_parse_table(fb, extent, &b, &d) != 0)
		return false;
	const struct rdc_tables *t = rdc_tables();
	if (rdc_policy_native_by_id(t, &dev->target, &b)) {
		native = true;
		*why = "its device code has the device's own entry";
	} else {
		long k = rdc_policy_mapped_by_id(t, &dev->target, &b, rdc_policy_flags());
		if (k >= 0) {
			snprintf(proc, n, "%s", b.entries[k].parsed.target.proc);
			*why = "its device code is mapped from that target's entry";
		} else {
			*why = "the entry ids do not tell which code it runs";
		}
	}
	rdc_bundle_free(&b);
	return native;
}

const char *rdc_object_name(const struct link_map *m)
{
	return m->l_name && m->l_name[0] ? m->l_name : program_invocation_name;
}

/* The first bundle of m's .hip_fatbin section, in memory, or NULL. */
static const void *section_bundle(const struct link_map *m)
{
	struct rdc_container c;
	struct rdc_diag d = { 0 };
	const char *path = m->l_name && m->l_name[0] ? m->l_name : "/proc/self/exe";
	const void *fb = NULL;
	if (rdc_container_open(path, &c, &d) == 0 && c.has_fatbin && c.fatbin_addr)
		fb = (const void *)(uintptr_t)(m->l_addr + c.fatbin_addr);
	rdc_container_close(&c);
	return fb;
}

const char *rdc_codename(const struct rdc_device *dev, const void *caller, char *proc, size_t n)
{
	if (!dev || dev->mode != RDC_MODE_MAP || !rdc_cfg.name_follows_code || !caller || n == 0)
		return NULL;
	const struct link_map *m = rdc_object_of(caller);
	if (!m)
		return NULL;
	if (!lookup(m, dev->index, proc, n)) {
		const void *fb = rdc_fatbin_of_object(m);
		if (!fb)
			fb = section_bundle(m);
		const char *why = "it registered no device code";
		bool native = false;
		proc[0] = 0;
		if (fb)
			native = code_target(dev, fb, proc, n, &why);
		if (!proc[0] && !native)
			rdc_rtcname(dev, rdc_object_name(m), proc, n, &why);
		remember(m, dev->index, proc);
		char tgt[64];
		rdc_target_format(&dev->target, tgt, sizeof tgt);
		struct rdc_kv kv[] = {
			RDC_KV_S("lib", rdc_object_name(m)), RDC_KV_N("device", dev->index), RDC_KV_S("target", tgt),
			RDC_KV_S("reported", proc[0] ? proc : dev->target.proc), RDC_KV_S("why", why),
		};
		rdc_log_event(proc[0] ? RDC_LOG_INFO : RDC_LOG_DEBUG, "name", kv, sizeof kv / sizeof kv[0]);
	}
	return proc[0] ? proc : NULL;
}
