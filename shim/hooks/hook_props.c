/* SPDX-License-Identifier: MIT */
/*
 * hook_props.c — hipGetDeviceProperties, for spoof mode only.
 *
 * Map mode keeps every device's true identity.  Spoof mode additionally
 * tells the libraries named in RDNACOMPAT_SPOOF_FOR (default librocblas.so
 * and libMIOpen.so, which pick data files by gcnArchName) that a device is
 * its most preferred compatible target, e.g. gfx1031 -> gfx1030.  The
 * caller is the object containing __builtin_return_address(0) (dladdr);
 * everyone else, HIP itself included, still sees the truth.  The code those
 * libraries then load for the spoofed target is retargeted by the module and
 * HSA hooks.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <errno.h>
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

RDC_HOOK hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId)
{
	__typeof__(&hipGetDeviceProperties) real = RDC_REAL(hipGetDeviceProperties);
	if (!real)
		return hipErrorNotInitialized;
	void *caller = __builtin_return_address(0);
	hipError_t err = real(prop, deviceId);
	if (err != hipSuccess || !prop || rdc_guard_active() || deviceId < 0)
		return err;
	rdc_init();
	const struct rdc_device *dev = rdc_device_by_hip(deviceId);
	if (!dev || dev->mode != RDC_MODE_SPOOF || !dev->spoof_as[0])
		return err;
	int saved = errno;
	const char *who = rdc_spoof_caller(dev, caller);
	if (who) {
		/* Keep the feature suffix ("gfx90a:sramecc+:xnack-"). */
		const char *feat = strchr(prop->gcnArchName, ':');
		char name[sizeof prop->gcnArchName];
		snprintf(name, sizeof name, "%s%s", dev->spoof_as, feat ? feat : "");
		snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "%s", name);
		int gcn = rdc_proc_gcn_arch(dev->spoof_as);
		if (gcn > 0)
			prop->gcnArch = gcn;
		rdc_spoof_log_once(dev, RDC_SPOOF_VIA_PROPS, name, who);
	}
	errno = saved;
	return err;
}
