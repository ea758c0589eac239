/* SPDX-License-Identifier: MIT */
/*
 * hook_kernels.c — where kernels are looked up and launched:
 * hipModuleGetFunction and HIP 7.2's hipLibraryGetKernel (a `deny` rule
 * answers hipErrorNotFound, so a library that probes takes its own path; a
 * matched kernel's hipFunction_t / hipKernel_t is bound to its route), __hipRegisterFunction (host stub -> device kernel name, the
 * `<<<>>>` path), hipModuleLaunchKernel and hipLaunchKernel (a route whose
 * fallback applies launches the fallback with the caller's arguments, whose
 * layout route.c checked equal; a host stub with a `deny` rule is launched
 * as HIP launches a function it does not know: NULL).
 *
 * Launch fast path: with no route in the process and the real function
 * resolved, two atomic loads and a tail call (bench/rules-launch.sh).
 */
#define __HIP_PLATFORM_AMD__ 1
#include <errno.h>
#include <hip/hip_runtime_api.h>

#include "route.h"
#include "shim.h"

/* Declared by no HIP header (the compiler emits the calls). */
void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
			   const char *deviceName, unsigned int threadLimit, void *tid, void *bid,
			   void *blockDim, void *gridDim, int *wSize);

/* A lookup by name in `owner` (a module, or a HIP 7.2 library), guard
 * entered: the kernel's route for the current device, or NULL.  *deny: a
 * live deny rule answers hipErrorNotFound (logged here).  After a real
 * lookup that found the handle, lookup_end binds it to the route. */
static struct rdc_route *lookup_begin(const void *owner, const char *kname, bool *deny)
{
	struct rdc_route *r = rdc_route_find_name((uint64_t)(uintptr_t)owner, kname);
	*deny = r && rdc_route_rule_live(r, r->deny);
	if (*deny)
		rdc_log_event(RDC_LOG_INFO, "rule-deny",
			      (struct rdc_kv[]){ RDC_KV_S("kernel", kname), RDC_KV_S("device", r->device),
						 RDC_KV_S("answer", "hipErrorNotFound"),
						 RDC_KV_S("reason", r->deny->reason),
						 RDC_KV_S("source", r->deny->source) },
			      5);
	return r;
}

static void lookup_end(struct rdc_route *r, hipError_t err, const void *handle)
{
	if (err == hipSuccess && r && handle)
		rdc_route_bind(r, handle);
}

static bool rules_off(void)
{
	return rdc_guard_active() || !atomic_load_explicit(&rdc_route_active, memory_order_relaxed);
}

RDC_HOOK hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname)
{
	__typeof__(&hipModuleGetFunction) real = RDC_REAL(hipModuleGetFunction);
	if (!real)
		return hipErrorNotInitialized;
	if (rules_off())
		return real(function, module, kname);
	int saved = errno;
	rdc_guard_enter();
	bool deny;
	struct rdc_route *r = lookup_begin(module, kname, &deny);
	hipError_t err = hipErrorNotFound;
	if (deny && function)
		*function = NULL;
	if (!deny) {
		err = real(function, module, kname);
		lookup_end(r, err, function ? *function : NULL);
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}

/* HIP 7.2 (hip_7.2): a library's kernel by name.  Its hipKernel_t is what
 * hipModuleLaunchKernel then takes, so a bound route applies to the
 * launches.  Types spelt as pointers: Debian 12's HIP 5.2 headers lack them. */
RDC_HOOK hipError_t hipLibraryGetKernel(void **kernel, void *library, const char *kname);
RDC_HOOK hipError_t hipLibraryGetKernel(void **kernel, void *library, const char *kname)
{
	__typeof__(&hipLibraryGetKernel) real = RDC_REAL(hipLibraryGetKernel);
	if (!real)
		return hipErrorNotSupported;
	if (rules_off())
		return real(kernel, library, kname);
	int saved = errno;
	rdc_guard_enter();
	bool deny;
	struct rdc_route *r = lookup_begin(library, kname, &deny);
	hipError_t err = hipErrorNotFound;
	if (deny && kernel)
		*kernel = NULL;
	if (!deny) {
		err = real(kernel, library, kname);
		lookup_end(r, err, kernel ? *kernel : NULL);
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}

/* With HIP_ENABLE_DEFERRED_LOADING=0 HIP resolves each registered stub on
 * every device at once and stops the process when one is missing (clr
 * hip_platform.cpp __hipRegisterFunction: guarantee "Cannot retrieve Static
 * function").  A kernel held on some device (renamed in that device's
 * object, route.c rdc_route_hold) is then not registered at all, its routes
 * still bound to the stub below: the hooks answer every launch of it, on
 * every device, as HIP answers for a function it does not know (a launch
 * of a stub HIP never registered is no error HIP 7.2 answers: it crashes).
 * Said at warn. */
static bool held_on_some_device(void **modules, const char *name)
{
	if (rdc_guard_active() || !atomic_load_explicit(&rdc_route_active, memory_order_relaxed) ||
	    !rdc_hip_eager_loading())
		return false;
	for (size_t i = 0; i < rdc_devices_count(); i++) {
		const struct rdc_device *d = rdc_device_get(i);
		struct rdc_route *r = d ? rdc_route_find_name_on((uint64_t)(uintptr_t)modules, name,
								 d->target.proc) : NULL;
		if (r && r->deny == &r->held) {
			rdc_log_event(RDC_LOG_WARN, "held-unregistered",
				      (struct rdc_kv[]){ RDC_KV_S("kernel", name), RDC_KV_S("device", r->device),
							 RDC_KV_S("answer", "hipErrorInvalidDeviceFunction on every device"),
							 RDC_KV_S("reason", "HIP_ENABLE_DEFERRED_LOADING=0: HIP would resolve "
									    "the held kernel at registration and stop the process") },
				      4);
			return true;
		}
	}
	return false;
}

RDC_HOOK void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
				    const char *deviceName, unsigned int threadLimit, void *tid,
				    void *bid, void *blockDim, void *gridDim, int *wSize)
{
	__typeof__(&__hipRegisterFunction) real = RDC_REAL(__hipRegisterFunction);
	if (!real) {
		rdc_logf(RDC_LOG_ERROR, "__hipRegisterFunction: real function not found");
		return;
	}
	if (!held_on_some_device(modules, deviceName))
		real(modules, hostFunction, deviceFunction, deviceName, threadLimit, tid, bid, blockDim,
		     gridDim, wSize);
	if (rdc_guard_active() || !atomic_load_explicit(&rdc_route_active, memory_order_relaxed))
		return;
	int saved = errno;
	rdc_guard_enter();
	/* one route per device: bind each (the device is chosen at launch) */
	for (size_t i = 0; i < rdc_devices_count(); i++) {
		const struct rdc_device *d = rdc_device_get(i);
		if (!d)
			continue;
		struct rdc_route *r = rdc_route_find_name_on((uint64_t)(uintptr_t)modules, deviceName,
							     d->target.proc);
		if (r)
			rdc_route_bind(r, hostFunction);
	}
	rdc_guard_leave();
	errno = saved;
}

/* ---- launches --------------------------------------------------------------
 * Fast path (no route in the process, real function resolved): two atomic
 * loads and a tail call; everything else is in the noinline slow paths. */

#define FAST_REAL(name) \
	((__typeof__(&name))atomic_load_explicit(&rdc_real_fns[RDC_FN_##name].ptr, memory_order_acquire))
#define NO_ROUTES() (atomic_load_explicit(&rdc_route_active, memory_order_relaxed) == 0)

/* The function to launch instead of f (its fallback), or f. */
__attribute__((noinline)) static const void *routed(const void *f)
{
	if (rdc_guard_active())
		return f;
	struct rdc_route *r = rdc_route_find_key(f);
	if (!r || !r->fallback)
		return f;
	rdc_guard_enter();
	void *fb = rdc_route_fallback(r);
	rdc_guard_leave();
	return fb ? fb : f;
}

__attribute__((noinline)) static hipError_t module_launch_slow(hipFunction_t f, unsigned int gx,
							       unsigned int gy, unsigned int gz,
							       unsigned int bx, unsigned int by,
							       unsigned int bz, unsigned int shm,
							       hipStream_t stream, void **kp, void **extra)
{
	__typeof__(&hipModuleLaunchKernel) real = RDC_REAL(hipModuleLaunchKernel);
	if (!real)
		return hipErrorNotInitialized;
	if (!NO_ROUTES())
		f = (hipFunction_t)routed(f);
	return real(f, gx, gy, gz, bx, by, bz, shm, stream, kp, extra);
}

RDC_HOOK hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
					  unsigned int gridDimZ, unsigned int blockDimX,
					  unsigned int blockDimY, unsigned int blockDimZ,
					  unsigned int sharedMemBytes, hipStream_t stream,
					  void **kernelParams, void **extra)
{
	__typeof__(&hipModuleLaunchKernel) real = FAST_REAL(hipModuleLaunchKernel);
	if (__builtin_expect(real != NULL && NO_ROUTES(), 1))
		return real(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
			    sharedMemBytes, stream, kernelParams, extra);
	return module_launch_slow(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
				  sharedMemBytes, stream, kernelParams, extra);
}

__attribute__((noinline)) static hipError_t launch_slow(const void *function_address, dim3 numBlocks,
							dim3 dimBlocks, void **args, size_t sharedMemBytes,
							hipStream_t stream)
{
	__typeof__(&hipLaunchKernel) real = RDC_REAL(hipLaunchKernel);
	if (!real)
		return hipErrorNotInitialized;
	if (!NO_ROUTES()) {
		/* denied (the <<<>>> path): HIP itself answers for a function it
		 * does not know, so its last error says so too */
		if (rdc_stub_refused(function_address, stream, "hipLaunchKernel"))
			return real(NULL, numBlocks, dimBlocks, args, sharedMemBytes, stream);
		const void *fb = routed(function_address);
		__typeof__(&hipModuleLaunchKernel) mlaunch = RDC_REAL(hipModuleLaunchKernel);
		if (fb != function_address && mlaunch)
			return mlaunch((hipFunction_t)fb, numBlocks.x, numBlocks.y, numBlocks.z, dimBlocks.x,
				       dimBlocks.y, dimBlocks.z, (unsigned int)sharedMemBytes, stream, args,
				       NULL);
	}
	return real(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
}

RDC_HOOK hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
				    void **args, size_t sharedMemBytes, hipStream_t stream)
{
	__typeof__(&hipLaunchKernel) real = FAST_REAL(hipLaunchKernel);
	if (__builtin_expect(real != NULL && NO_ROUTES(), 1))
		return real(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
	return launch_slow(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
}

/* C linkage and hip_4.2 from HIP 6.x on (HIP 5.2 exports only a C++-mangled
 * one, which this does not shadow); declared here because hip_ext.h is C++. */
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
				    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX,
				    uint32_t localWorkSizeY, uint32_t localWorkSizeZ, size_t sharedMemBytes,
				    hipStream_t hStream, void **kernelParams, void **extra,
				    hipEvent_t startEvent, hipEvent_t stopEvent, uint32_t flags);

__attribute__((noinline)) static hipError_t ext_launch_slow(hipFunction_t f, uint32_t gx, uint32_t gy,
							    uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
							    size_t shm, hipStream_t s, void **kp, void **extra,
							    hipEvent_t start, hipEvent_t stop, uint32_t flags)
{
	__typeof__(&hipExtModuleLaunchKernel) real = RDC_REAL(hipExtModuleLaunchKernel);
	if (!real)
		return hipErrorNotInitialized;
	if (!NO_ROUTES())
		f = (hipFunction_t)routed(f);
	return real(f, gx, gy, gz, lx, ly, lz, shm, s, kp, extra, start, stop, flags);
}

RDC_HOOK hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
					     uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
					     uint32_t localWorkSizeX, uint32_t localWorkSizeY,
					     uint32_t localWorkSizeZ, size_t sharedMemBytes,
					     hipStream_t hStream, void **kernelParams, void **extra,
					     hipEvent_t startEvent, hipEvent_t stopEvent, uint32_t flags)
{
	__typeof__(&hipExtModuleLaunchKernel) real = FAST_REAL(hipExtModuleLaunchKernel);
	if (__builtin_expect(real != NULL && NO_ROUTES(), 1))
		return real(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX,
			    localWorkSizeY, localWorkSizeZ, sharedMemBytes, hStream, kernelParams, extra,
			    startEvent, stopEvent, flags);
	return ext_launch_slow(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX,
			       localWorkSizeY, localWorkSizeZ, sharedMemBytes, hStream, kernelParams, extra,
			       startEvent, stopEvent, flags);
}
