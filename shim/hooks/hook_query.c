/* SPDX-License-Identifier: MIT */
/*
 * hook_query.c — what HSA says a GPU agent is: hsa_agent_get_info,
 * hsa_agent_iterate_isas, hsa_isa_get_info_alt.
 *
 * Truthful by default: every call goes to ROCR and its answer comes back
 * unchanged (the registry, devices.c, learns each agent's ISAs through the
 * real functions, not through these hooks).  The exceptions:
 *
 * Map mode (codename.c): an object whose own device code is mapped from
 * another target is told that target's name, as below for spoof mode.
 *
 * Spoof mode (spoof.c): an object named in RDNACOMPAT_SPOOF_FOR asking for
 * HSA_AGENT_INFO_NAME of a spoofed device gets the spoof target ("gfx1030"
 * for a gfx1031), and asking for HSA_ISA_INFO_NAME / _NAME_LENGTH of that
 * device's native ISA gets "amdgcn-amd-amdhsa--gfx1030" (features kept) —
 * the same answer its hipGetDeviceProperties gives.  Only when the spoofed
 * name is no longer than the real one, so no buffer sized by either answer
 * is overrun; the caller's buffer gets exactly the bytes ROCR would write
 * for that length (name and NUL).  Generic ISAs are never renamed.
 *
 * RDNACOMPAT_ISA_FILTER=native: ROCR from about 6.4 lists two ISAs per
 * agent, the native one and its generic ("…--gfx10-3-generic"); CLR builds
 * before that require exactly one ("HSA device gfx1031 has 2 ISAs but can
 * only support a single ISA", rocdevice.cpp Device::create).  With the
 * filter, hsa_agent_iterate_isas skips generic ISAs of agents that also
 * have a native one.  Off by default (newer CLR uses the generic ISA to pick
 * generic code objects).  The callback contract is ROCR's: the caller's
 * callback sees the remaining ISAs in ROCR's order, and the first status
 * other than HSA_STATUS_SUCCESS it returns (HSA_STATUS_INFO_BREAK included)
 * stops the walk and is what hsa_agent_iterate_isas returns.
 */
#include <errno.h>
#include <hsa.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

/* The device `agent` is, when its caller is to be told another target
 * (*as, in buf; else NULL). */
static const struct rdc_device *spoofed(uint64_t agent, uint64_t isa, const void *caller,
					const char **who, const char **as, char *buf, size_t n)
{
	*who = *as = NULL;
	if (rdc_guard_active())
		return NULL;
	rdc_init();
	if (rdc_cfg.mode == RDC_MODE_OFF && !rdc_devices_count())
		return NULL;
	const struct rdc_device *dev = agent ? rdc_device_by_agent(agent) : rdc_device_by_isa(isa);
	*as = dev ? rdc_spoof_target(dev, caller, buf, n, who) : NULL;
	return *as && (*as)[0] ? dev : NULL;
}

RDC_HOOK hsa_status_t hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value)
{
	__typeof__(&hsa_agent_get_info) real = RDC_REAL(hsa_agent_get_info);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	const void *caller = __builtin_return_address(0);
	hsa_status_t st = real(agent, attribute, value);
	if (st != HSA_STATUS_SUCCESS || attribute != HSA_AGENT_INFO_NAME || !value)
		return st;
	int saved = errno;
	const char *who = NULL, *as = NULL;
	char buf[RDC_PROC_MAX];
	const struct rdc_device *dev = spoofed(agent.handle, 0, caller, &who, &as, buf, sizeof buf);
	char name[64];
	if (dev && strlen(as) < sizeof name &&
	    rdc_spoof_rename(value, dev->target.proc, as, name, sizeof name) == 0) {
		memset(value, 0, sizeof name);   /* ROCR fills all 64 bytes */
		memcpy(value, name, strlen(name));
		rdc_spoof_log_once(dev, RDC_SPOOF_VIA_AGENT, name, who);
	}
	errno = saved;
	return st;
}

RDC_HOOK hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value)
{
	__typeof__(&hsa_isa_get_info_alt) real = RDC_REAL(hsa_isa_get_info_alt);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	const void *caller = __builtin_return_address(0);
	if ((attribute != HSA_ISA_INFO_NAME && attribute != HSA_ISA_INFO_NAME_LENGTH) || !value)
		return real(isa, attribute, value);
	int saved = errno;
	const char *who = NULL, *to = NULL;
	char buf[RDC_PROC_MAX];
	const struct rdc_device *dev = spoofed(0, isa.handle, caller, &who, &to, buf, sizeof buf);
	char name[256], as[256];
	if (!dev)
		goto truth;
	rdc_guard_enter();
	int rc = rdc_isa_name_of(isa.handle, name, sizeof name);
	rdc_guard_leave();
	if (rc != 0 || strlen(to) > strlen(dev->target.proc) ||
	    rdc_spoof_rename(name, dev->target.proc, to, as, sizeof as) != 0)
		goto truth;
	if (attribute == HSA_ISA_INFO_NAME_LENGTH) {
		uint32_t len = 0;
		hsa_status_t st = real(isa, attribute, &len);
		if (st != HSA_STATUS_SUCCESS || len < strlen(name))
			goto truth;
		*(uint32_t *)value = len - (uint32_t)(strlen(name) - strlen(as));
	} else {
		memcpy(value, as, strlen(as) + 1);
	}
	rdc_spoof_log_once(dev, RDC_SPOOF_VIA_ISA, as, who);
	errno = saved;
	return HSA_STATUS_SUCCESS;
truth:
	errno = saved;
	return real(isa, attribute, value);
}

/* ---- RDNACOMPAT_ISA_FILTER=native ---------------------------------------- */
struct isa_walk {
	hsa_status_t (*cb)(hsa_isa_t, void *);
	void *data;
	unsigned native, generic;
	char hidden[96];
};

static bool isa_generic(hsa_isa_t isa, char *name, size_t n)
{
	rdc_guard_enter();
	int rc = rdc_isa_name_of(isa.handle, name, n);
	rdc_guard_leave();
	if (rc != 0)
		return false;
	const char *p = strstr(name, "--");
	char proc[RDC_PROC_MAX];
	snprintf(proc, sizeof proc, "%.*s", p ? (int)strcspn(p + 2, ":") : 0, p ? p + 2 : "");
	return rdc_proc_is_generic(proc);
}

static hsa_status_t count_cb(hsa_isa_t isa, void *arg)
{
	struct isa_walk *w = arg;
	char name[96];
	if (isa_generic(isa, name, sizeof name))
		w->generic++;
	else
		w->native++;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t filter_cb(hsa_isa_t isa, void *arg)
{
	struct isa_walk *w = arg;
	char name[96];
	if (isa_generic(isa, name, sizeof name)) {
		snprintf(w->hidden, sizeof w->hidden, "%s", name);
		return HSA_STATUS_SUCCESS;
	}
	return w->cb(isa, w->data);
}

RDC_HOOK hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent,
					     hsa_status_t (*callback)(hsa_isa_t isa, void *data),
					     void *data)
{
	__typeof__(&hsa_agent_iterate_isas) real = RDC_REAL(hsa_agent_iterate_isas);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (rdc_guard_active() || !callback)
		return real(agent, callback, data);
	rdc_init();
	if (!rdc_cfg.isa_filter_native || rdc_cfg.mode == RDC_MODE_OFF)
		return real(agent, callback, data);
	int saved = errno;
	struct isa_walk w = { callback, data, 0, 0, "" };
	hsa_status_t st = real(agent, count_cb, &w);
	errno = saved;
	if (st != HSA_STATUS_SUCCESS || !w.generic || !w.native)
		return real(agent, callback, data);   /* nothing to hide, or doubt */
	st = real(agent, filter_cb, &w);
	static _Atomic bool said;
	if (w.hidden[0] && !atomic_exchange(&said, true))
		rdc_logf(RDC_LOG_INFO, "isa filter: hiding %s from hsa_agent_iterate_isas "
			 "(RDNACOMPAT_ISA_FILTER=native)", w.hidden);
	errno = saved;
	return st;
}
