/* SPDX-License-Identifier: MIT */
/*
 * diagnose.c — the answer to "no code for this card".  When a device has no
 * compatible code in a bundle, the decision is recorded here; one block is
 * printed before HIP fails (HIP 5.2 digests every registered fat binary
 * right after its own hsa_init, so the hsa_init hook flushes; when HIP is
 * already up — HIP >= 6 registers lazily — the registration itself
 * digests, so the registration flushes).  The block names each library and
 * bundle without code for the card, what it has, what the card would need,
 * what the loaded HIP will do about it, and what to do.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "dcache.h"
#include "shim.h"

pthread_mutex_t rdc_diag_lock = PTHREAD_MUTEX_INITIALIZER;

#define MAX_RECORDS 32

struct missing {
	char lib[160];
	long index;
	int device;
	char target[48];
	char has[200];
	char need[160];
	char refused[240];       /* candidates refused kernel by kernel */
};

static struct missing rec[MAX_RECORDS];
static size_t n_rec, n_more;

void rdc_diag_note_missing(const char *lib, long index, const struct rdc_bundle *b,
			   const struct rdc_device *dev, const struct rdc_choice *c)
{
	pthread_mutex_lock(&rdc_diag_lock);
	if (n_rec >= MAX_RECORDS) {
		n_more++;
		pthread_mutex_unlock(&rdc_diag_lock);
		return;
	}
	struct missing *m = &rec[n_rec++];
	memset(m, 0, sizeof *m);
	snprintf(m->lib, sizeof m->lib, "%s", lib);
	m->index = index;
	m->device = dev->index;
	rdc_target_format(&dev->target, m->target, sizeof m->target);
	size_t pos = 0;
	for (size_t i = 0; i < b->n_entries && pos + 1 < sizeof m->has; i++) {
		const struct rdc_bundle_id *id = &b->entries[i].parsed;
		if (!id->has_target)
			continue;
		char t[48];
		rdc_target_format(&id->target, t, sizeof t);
		int w = snprintf(m->has + pos, sizeof m->has - pos, "%s%s", pos ? ", " : "", t);
		if (w < 0)
			break;
		pos += (size_t)w;
	}
	if (!pos)
		snprintf(m->has, sizeof m->has, "no GPU code at all");
	if (c && c->n_refused) {
		size_t rp = 0;
		for (size_t i = 0; c->kernels && i < c->n_kernels && rp + 1 < sizeof m->refused; i++) {
			if (c->kernels[i].ok)
				continue;
			int w = snprintf(m->refused + rp, sizeof m->refused - rp, "%s%s (%s)",
					 rp ? ", " : "", c->kernels[i].kernel, c->kernels[i].check);
			if (w < 0)
				break;
			rp += (size_t)w;
		}
		if (!rp)
			snprintf(m->refused, sizeof m->refused, "%zu kernels", c->n_refused);
	}
	if (c && c->need[0])
		snprintf(m->need, sizeof m->need, "%s", c->need);
	else
		rdc_policy_need(rdc_tables(), dev->target.proc, m->need, sizeof m->need);
	pthread_mutex_unlock(&rdc_diag_lock);
}

size_t rdc_diag_pending(void)
{
	pthread_mutex_lock(&rdc_diag_lock);
	size_t n = n_rec + n_more;
	pthread_mutex_unlock(&rdc_diag_lock);
	return n;
}

/* What the HIP in this process does when a kernel has no code for the
 * device, by the libamdhip64 soname loaded (seen on the simulated card with
 * Debian's 5.2.3, 6.4.3 and 7.2.4; docs/SHIM.md).  Called before taking the
 * lock: dlopen takes the loader's lock, which a registering constructor
 * holds while it waits for ours. */
static const char *hip_outcome(void)
{
	static const struct {
		const char *soname, *what;
	} by_so[] = {
		{ "libamdhip64.so.7",
		  "HIP 7 fails the kernel's launch (7.2.4 logs \"No compatible code objects\n"
		  "rdnacompat:   found\" and then crashes with SIGSEGV instead of returning\n"
		  "rdnacompat:   hipErrorInvalidDeviceFunction); hipModuleLoad* fail the load\n"
		  "rdnacompat:   instead (hipErrorNoBinaryForGpu or hipErrorInvalidImage)" },
		{ "libamdhip64.so.6",
		  "HIP 6 returns hipErrorInvalidDeviceFunction (\"invalid device function\")\n"
		  "rdnacompat:   at the kernel's launch; hipModuleLoad* fail the load instead\n"
		  "rdnacompat:   (hipErrorNoBinaryForGpu or hipErrorInvalidValue)" },
		{ "libamdhip64.so.5", "HIP will report hipErrorNoBinaryForGpu" },
	};
	for (size_t i = 0; i < sizeof by_so / sizeof by_so[0]; i++) {
		void *h = dlopen(by_so[i].soname, RTLD_LAZY | RTLD_NOLOAD);
		if (h) {
			dlclose(h);   /* NOLOAD handle: only drops the count it added */
			return by_so[i].what;
		}
	}
	return "HIP will report hipErrorNoBinaryForGpu (HIP 5) or \"invalid device\n"
	       "rdnacompat:   function\" at the kernel's launch (HIP >= 6)";
}

void rdc_diag_flush(void)
{
	if (!rdc_diag_pending())
		return;
	const char *outcome = hip_outcome();
	pthread_mutex_lock(&rdc_diag_lock);
	if (!n_rec && !n_more) {
		pthread_mutex_unlock(&rdc_diag_lock);
		return;
	}
	static char buf[16384];
	size_t pos = 0;
#define OUT(...)                                                                          \
	do {                                                                              \
		if (pos < sizeof buf) {                                                   \
			int w_ = snprintf(buf + pos, sizeof buf - pos, __VA_ARGS__);      \
			if (w_ > 0)                                                       \
				pos += (size_t)w_;                                        \
		}                                                                         \
	} while (0)
	OUT("rdnacompat: ---------------------------------------------------------------\n");
	OUT("rdnacompat: no compatible GPU code: %s\n", outcome);
	for (size_t i = 0; i < n_rec; i++) {
		const struct missing *m = &rec[i];
		OUT("rdnacompat:   %s, bundle %ld: device %d (%s) has no usable entry\n", m->lib,
		    m->index, m->device, m->target);
		OUT("rdnacompat:       it has:       %s\n", m->has);
		if (m->refused[0])
			OUT("rdnacompat:       refused:      %s\n", m->refused);
		OUT("rdnacompat:       card needs:   %s\n", m->need[0] ? m->need : m->target);
	}
	if (n_more)
		OUT("rdnacompat:   ... and %zu more bundles like these\n", n_more);
	OUT("rdnacompat: what to do: install a build of these libraries that includes code for\n"
	    "rdnacompat:   the card's target (or its family's generic target), rebuild your own\n"
	    "rdnacompat:   code with --offload-arch=<target>, or, if a compatible target is known\n"
	    "rdnacompat:   to be safe, add the edge with RDNACOMPAT_TABLES=<file>.  Details:\n"
	    "rdnacompat:   `rdnacompat explain <library>`; the log above names refused kernels.\n");
	OUT("rdnacompat: ---------------------------------------------------------------\n");
#undef OUT
	if (pos >= sizeof buf)
		pos = sizeof buf - 1;
	n_rec = 0;
	n_more = 0;
	rdc_log_block(buf, pos);   /* lock order: diag -> log */
	pthread_mutex_unlock(&rdc_diag_lock);
	/* HIP may be about to abort or crash (no destructors run): keep what
	 * was decided. */
	rdc_dcache_flush();
}
