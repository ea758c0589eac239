/* SPDX-License-Identifier: MIT */
/*
 * hook_library.c — hipLibraryLoadData, hipLibraryLoadFromFile and
 * hipLibraryUnload (HIP >= 7.2, version hip_7.2): CUDA's cuLibrary API.
 *
 * CLR's hipLibraryLoadData keeps the image pointer and builds the program
 * lazily, at the first hipLibraryGetKernel/GetKernelCount
 * (LibraryContainer::BuildIt -> PlatformState::loadModule), and
 * hipLibraryLoadFromFile keeps the file name for the same.  So the image
 * the library is given must live until hipLibraryUnload: a rebuilt one is
 * held under the hipLibrary_t (module.h) and dropped at unload.  A file that
 * needs a rebuilt image is handed over as hipLibraryLoadData of that image
 * (what CLR would build from the file, retargeted).  Options are passed on
 * as given.  Kernel rules (route.c) see each loaded library as a module:
 * its kernels are matched at load, and hipLibraryGetKernel (hook_kernels.c)
 * answers a deny rule and binds the kernel handle to its route.
 * The types are HIP 7.2's, spelt as pointers and unsigned ints here: this
 * file compiles against Debian 12's HIP 5.2 headers, which lack them.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <errno.h>
#include <hip/hip_runtime_api.h>
#include <stdint.h>

#include "module.h"
#include "route.h"
#include "shim.h"

typedef void *rdc_hip_library;   /* hipLibrary_t: struct ihipLibrary_t * */

RDC_HOOK hipError_t hipLibraryLoadData(rdc_hip_library *library, const void *code, void *jitOptions,
				       void **jitOptionsValues, unsigned int numJitOptions,
				       void *libraryOptions, void **libraryOptionValues,
				       unsigned int numLibraryOptions);
RDC_HOOK hipError_t hipLibraryLoadFromFile(rdc_hip_library *library, const char *fileName,
					   void *jitOptions, void **jitOptionsValues,
					   unsigned int numJitOptions, void *libraryOptions,
					   void **libraryOptionValues, unsigned int numLibraryOptions);
RDC_HOOK hipError_t hipLibraryUnload(rdc_hip_library library);

/* The real hipLibraryLoadData with the caller's options. */
#define LOAD_DATA(real, img)                                                              \
	(real)(library, (img), jitOptions, jitOptionsValues, numJitOptions, libraryOptions, \
	       libraryOptionValues, numLibraryOptions)

/* After the real load: the handle holds the rebuilt image (or it goes
 * back), and the kernel rules see the code: `use` when rebuilt, with the
 * code as given (the image `orig` or the file `path`) for its hash. */
static void settle(hipError_t err, rdc_hip_library *library, struct rdc_mentry *e,
		   const void *use, const void *orig, const char *path, const void *caller)
{
	bool ok = err == hipSuccess && *library;
	if (ok)
		rdc_route_note_module(*library, use, orig, path, caller);
	if (!e)
		return;
	if (ok)
		rdc_module_hold((uintptr_t)*library, e);
	else
		rdc_module_release(e);
}

RDC_HOOK hipError_t hipLibraryLoadData(rdc_hip_library *library, const void *code, void *jitOptions,
				       void **jitOptionsValues, unsigned int numJitOptions,
				       void *libraryOptions, void **libraryOptionValues,
				       unsigned int numLibraryOptions)
{
	__typeof__(&hipLibraryLoadData) real = RDC_REAL(hipLibraryLoadData);
	if (!real) {
		rdc_logf(RDC_LOG_ERROR, "hipLibraryLoadData: real function not found");
		return hipErrorNotSupported;
	}
	if (rdc_guard_active())
		return LOAD_DATA(real, code);
	rdc_init();
	if (!code || !library || !rdc_any_device_active())
		return LOAD_DATA(real, code);
	int saved = errno;
	rdc_guard_enter();
	struct rdc_mentry *e;
	const void *use = rdc_module_use_image(code, __builtin_return_address(0),
					       "hipLibraryLoadData", &e);
	rdc_seam_open();
	hipError_t err = LOAD_DATA(real, use);
	rdc_seam_close();
	rdc_lazy_module_context(NULL, NULL, NULL, NULL, NULL, NULL, 0);
	settle(err, library, e, use, code, NULL, __builtin_return_address(0));
	rdc_guard_leave();
	errno = saved;
	return err;
}

RDC_HOOK hipError_t hipLibraryLoadFromFile(rdc_hip_library *library, const char *fileName,
					   void *jitOptions, void **jitOptionsValues,
					   unsigned int numJitOptions, void *libraryOptions,
					   void **libraryOptionValues, unsigned int numLibraryOptions)
{
	__typeof__(&hipLibraryLoadFromFile) real = RDC_REAL(hipLibraryLoadFromFile);
	__typeof__(&hipLibraryLoadData) real_data = RDC_REAL(hipLibraryLoadData);
	if (!real) {
		rdc_logf(RDC_LOG_ERROR, "hipLibraryLoadFromFile: real function not found");
		return hipErrorNotSupported;
	}
#define LOAD_FILE()                                                                             \
	real(library, fileName, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,   \
	     libraryOptionValues, numLibraryOptions)
	if (rdc_guard_active())
		return LOAD_FILE();
	rdc_init();
	if (!fileName || !library || !rdc_any_device_active() || !real_data)
		return LOAD_FILE();
	int saved = errno;
	rdc_guard_enter();
	struct rdc_mentry *e;
	const void *use = rdc_module_use_file(fileName, __builtin_return_address(0), "hipLibraryLoadFromFile", &e);
	rdc_seam_open();
	hipError_t err = use ? LOAD_DATA(real_data, use) : LOAD_FILE();
	rdc_seam_close();
	rdc_lazy_module_context(NULL, NULL, NULL, NULL, NULL, NULL, 0);
	settle(err, library, e, use, NULL, fileName, __builtin_return_address(0));
	rdc_guard_leave();
	errno = saved;
	return err;
#undef LOAD_FILE
}

RDC_HOOK hipError_t hipLibraryUnload(rdc_hip_library library)
{
	__typeof__(&hipLibraryUnload) real = RDC_REAL(hipLibraryUnload);
	if (!real)
		return hipErrorNotSupported;
	if (rdc_guard_active())
		return real(library);
	int saved = errno;
	rdc_guard_enter();
	hipError_t err = real(library);
	if (err == hipSuccess) {
		rdc_route_forget((uint64_t)(uintptr_t)library); /* kernel rules */
		rdc_module_drop((uintptr_t)library);
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}
