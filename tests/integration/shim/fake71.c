// SPDX-License-Identifier: MIT
// fake71.c — test interposer (preloaded after librdnacompat.so) that makes
// Debian's HIP 5.2 answer like HIP 7.1 does on RDNA2 in the llama.cpp reports
// (fallbacks.md §1.1): hipRuntimeGetVersion says 7.1.52802, and
// hipOccupancyMaxActiveBlocksPerMultiprocessor answers 0 for a kernel whose
// static + dynamic LDS exceeds 32 KiB (an LDS budget per CU), and so does
// hipOccupancyMaxPotentialBlockSize and hipModuleOccupancyMaxPotential-
// BlockSize[WithFlags] (grid and block 0).  Everything
// else goes to the real HIP.  To the shim it is "the real function": the
// shim reaches it through RTLD_NEXT like any other interposer.
#define __HIP_PLATFORM_AMD__ 1
#define _GNU_SOURCE
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

hipError_t hipRuntimeGetVersion(int *v)
{
	if (!v)
		return hipErrorInvalidValue;
	*v = 70152802;
	return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int block, size_t dyn)
{
	hipError_t (*real)(int *, const void *, int, size_t) =
		(hipError_t(*)(int *, const void *, int, size_t))dlvsym(
			RTLD_NEXT, "hipOccupancyMaxActiveBlocksPerMultiprocessor", "hip_4.2");
	hipError_t (*attrs)(struct hipFuncAttributes *, const void *) =
		(hipError_t(*)(struct hipFuncAttributes *, const void *))dlvsym(
			RTLD_NEXT, "hipFuncGetAttributes", "hip_4.2");
	if (!real || !attrs)
		return hipErrorNotInitialized;
	hipError_t e = real(n, f, block, dyn);
	struct hipFuncAttributes a;
	if (e == hipSuccess && attrs(&a, f) == hipSuccess && a.sharedSizeBytes + dyn > 32768)
		*n = 0;
	return e;
}

hipError_t hipOccupancyMaxPotentialBlockSize(int *grid, int *block, const void *f, size_t dyn, int limit)
{
	hipError_t (*real)(int *, int *, const void *, size_t, int) =
		(hipError_t(*)(int *, int *, const void *, size_t, int))dlvsym(
			RTLD_NEXT, "hipOccupancyMaxPotentialBlockSize", "hip_4.2");
	hipError_t (*attrs)(struct hipFuncAttributes *, const void *) =
		(hipError_t(*)(struct hipFuncAttributes *, const void *))dlvsym(
			RTLD_NEXT, "hipFuncGetAttributes", "hip_4.2");
	if (!real || !attrs)
		return hipErrorNotInitialized;
	hipError_t e = real(grid, block, f, dyn, limit);
	struct hipFuncAttributes a;
	if (e == hipSuccess && attrs(&a, f) == hipSuccess && a.sharedSizeBytes + dyn > 32768)
		*grid = *block = 0;
	return e;
}

/* The hipFunction_t forms (a module's kernel), same rule: 0 for > 32 KiB. */
static int module_lds_over(hipFunction_t f, size_t dyn)
{
	hipError_t (*attr)(int *, hipFunction_attribute, hipFunction_t) =
		(hipError_t(*)(int *, hipFunction_attribute, hipFunction_t))dlvsym(RTLD_NEXT, "hipFuncGetAttribute",
										   "hip_4.2");
	int lds = 0;
	return attr && attr(&lds, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == hipSuccess &&
	       (size_t)lds + dyn > 32768;
}

hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *grid, int *block, hipFunction_t f, size_t dyn, int limit)
{
	hipError_t (*real)(int *, int *, hipFunction_t, size_t, int) =
		(hipError_t(*)(int *, int *, hipFunction_t, size_t, int))dlvsym(
			RTLD_NEXT, "hipModuleOccupancyMaxPotentialBlockSize", "hip_4.2");
	if (!real)
		return hipErrorNotInitialized;
	hipError_t e = real(grid, block, f, dyn, limit);
	if (e == hipSuccess && module_lds_over(f, dyn))
		*grid = *block = 0;
	return e;
}

hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block, hipFunction_t f, size_t dyn,
							    int limit, unsigned int flags)
{
	hipError_t (*real)(int *, int *, hipFunction_t, size_t, int, unsigned int) =
		(hipError_t(*)(int *, int *, hipFunction_t, size_t, int, unsigned int))dlvsym(
			RTLD_NEXT, "hipModuleOccupancyMaxPotentialBlockSizeWithFlags", "hip_4.2");
	if (!real)
		return hipErrorNotInitialized;
	hipError_t e = real(grid, block, f, dyn, limit, flags);
	if (e == hipSuccess && module_lds_over(f, dyn))
		*grid = *block = 0;
	return e;
}
