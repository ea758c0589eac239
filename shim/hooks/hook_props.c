/* SPDX-License-Identifier: MIT */
/*
 * hook_props.c — hipGetDeviceProperties (and HIP 6's R0600 form): the
 * gcnArchName (and gcnArch) a caller is told.
 *
 * HIP itself and every object without a reason to be told otherwise see the
 * truth.  Map mode tells an object whose own device code the shim maps from
 * another target that target's name (codename.c: its host code chooses
 * launch configurations and kernels by the name, for the code it runs).
 * Spoof mode tells the libraries named in RDNACOMPAT_SPOOF_FOR (default
 * librocblas.so and libMIOpen.so, which pick data files by gcnArchName) that
 * a device is its most preferred compatible target, e.g. gfx1031 -> gfx1030.
 * The caller is the object containing __builtin_return_address(0).  The code
 * those libraries then load for the reported target is retargeted by the
 * module and HSA hooks.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <errno.h>
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

/* Rewrite the gcnArchName (and gcnArch when given) the real call returned
 * for deviceId when the caller is to be told another target
 * (rdc_spoof_target).  Only a name that begins with the device's true
 * processor is touched. */
static void spoof_props(char *arch, size_t len, int *gcn, int deviceId, void *caller)
{
	if (!arch || rdc_guard_active() || deviceId < 0)
		return;
	rdc_init();
	const struct rdc_device *dev = rdc_device_by_hip(deviceId);
	if (!dev || (dev->mode != RDC_MODE_SPOOF && dev->mode != RDC_MODE_MAP))
		return;
	size_t plen = strlen(dev->target.proc);
	if (strnlen(arch, len) == len || strncmp(arch, dev->target.proc, plen) != 0 ||
	    (arch[plen] && arch[plen] != ':'))
		return;
	int saved = errno;
	const char *who = NULL;
	char buf[RDC_PROC_MAX];
	const char *as = rdc_spoof_target(dev, caller, buf, sizeof buf, &who);
	if (as && as[0]) {
		/* Keep the feature suffix ("gfx90a:sramecc+:xnack-"). */
		char name[256];
		snprintf(name, sizeof name, "%s%s", as, arch + plen);
		snprintf(arch, len, "%s", name);
		int g = rdc_proc_gcn_arch(as);
		if (gcn && g > 0)
			*gcn = g;
		rdc_spoof_log_once(dev, RDC_SPOOF_VIA_PROPS, name, who);
	}
	errno = saved;
}

RDC_HOOK hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId)
{
	__typeof__(&hipGetDeviceProperties) real = RDC_REAL(hipGetDeviceProperties);
	if (!real)
		return hipErrorNotInitialized;
	void *caller = __builtin_return_address(0);
	hipError_t err = real(prop, deviceId);
	if (err == hipSuccess && prop)
		spoof_props(prop->gcnArchName, sizeof prop->gcnArchName, &prop->gcnArch, deviceId, caller);
	return err;
}

/* HIP >= 6 headers turn hipGetDeviceProperties into
 * hipGetDevicePropertiesR0600@hip_6.0 (hipDeviceProp_tR0600, another
 * layout): rocBLAS 4.4 and 5 (ROCm 6.4, 7.2) call only that.  The struct is
 * not in the 5.2 headers the shim builds with; gcnArchName is char[256] at
 * byte 1160 of it, and R0600 has no gcnArch (offsetof/sizeof with the 6.4
 * and 7.2 roots' hip_runtime_api.h; struct size 1472). */
#define R0600_ARCH_OFF 1160
#define R0600_ARCH_LEN 256
RDC_HOOK hipError_t hipGetDevicePropertiesR0600(void *prop, int deviceId)
{
	__typeof__(&hipGetDevicePropertiesR0600) real = RDC_REAL(hipGetDevicePropertiesR0600);
	if (!real)
		return hipErrorNotInitialized;
	void *caller = __builtin_return_address(0);
	hipError_t err = real(prop, deviceId);
	if (err == hipSuccess && prop)
		spoof_props((char *)prop + R0600_ARCH_OFF, R0600_ARCH_LEN, NULL, deviceId, caller);
	return err;
}
