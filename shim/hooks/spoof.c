/* SPDX-License-Identifier: MIT */
/*
 * spoof.c — who is told a device is another target, and the one log line
 * saying so.  In spoof mode the objects named in RDNACOMPAT_SPOOF_FOR see a
 * device as its most preferred compatible specific target (dev->spoof_as)
 * wherever they ask for its name: hipGetDeviceProperties (hook_props.c),
 * hsa_agent_get_info(HSA_AGENT_INFO_NAME) and hsa_isa_get_info_alt
 * (HSA_ISA_INFO_NAME, _LENGTH) (hook_query.c).  The caller is the object
 * holding the hook's return address (dladdr).  In map mode an object whose
 * own device code is mapped from another target is told that target
 * (codename.c).  Everyone else sees the truth.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

static bool logged[RDC_SPOOF_VIA_COUNT][RDC_MAX_DEVICES];

static const char *const via_name[RDC_SPOOF_VIA_COUNT] = {
	[RDC_SPOOF_VIA_PROPS] = "hipGetDeviceProperties",
	[RDC_SPOOF_VIA_AGENT] = "hsa_agent_get_info",
	[RDC_SPOOF_VIA_ISA] = "hsa_isa_get_info_alt",
};

const char *rdc_spoof_caller(const struct rdc_device *dev, const void *caller)
{
	if (!dev || dev->mode != RDC_MODE_SPOOF || !dev->spoof_as[0])
		return NULL;
	Dl_info info;
	if (!dladdr(caller, &info) || !rdc_config_spoof_matches(&rdc_cfg, info.dli_fname))
		return NULL;
	return info.dli_fname;
}

const char *rdc_spoof_target(const struct rdc_device *dev, const void *caller, char *buf, size_t n,
			     const char **who)
{
	*who = NULL;
	if (!dev)
		return NULL;
	if (dev->mode == RDC_MODE_SPOOF) {
		*who = rdc_spoof_caller(dev, caller);
		return *who ? dev->spoof_as : NULL;
	}
	const char *as = rdc_codename(dev, caller, buf, n);
	if (as) {
		const struct link_map *m = rdc_object_of(caller);
		*who = m ? rdc_object_name(m) : "?";
	}
	return as;
}

void rdc_spoof_log_once(const struct rdc_device *dev, enum rdc_spoof_via via, const char *reported,
			const char *caller)
{
	int slot = dev->agent_index >= 0 ? dev->agent_index % RDC_MAX_DEVICES : 0;
	if ((unsigned)via >= RDC_SPOOF_VIA_COUNT ||
	    __atomic_exchange_n(&logged[via][slot], true, __ATOMIC_RELAXED))
		return;
	char tgt[64];
	rdc_target_format(&dev->target, tgt, sizeof tgt);
	struct rdc_kv kv[] = {
		RDC_KV_N("device", dev->index), RDC_KV_S("target", tgt), RDC_KV_S("reported", reported),
		RDC_KV_S("caller", caller), RDC_KV_S("via", via_name[via]),
	};
	rdc_log_event(RDC_LOG_INFO, "spoof", kv, sizeof kv / sizeof kv[0]);
}

int rdc_spoof_rename(const char *name, const char *proc, const char *as, char *out, size_t n)
{
	const char *hit = strstr(name, proc);
	size_t plen = strlen(proc);
	if (!hit || (hit > name && hit[-1] != '-') || (hit[plen] && hit[plen] != ':'))
		return RDC_E_NOTFOUND;
	int w = snprintf(out, n, "%.*s%s%s", (int)(hit - name), name, as, hit + plen);
	return w >= 0 && (size_t)w < n ? 0 : RDC_E_RANGE;
}
