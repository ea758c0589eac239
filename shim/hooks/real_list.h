/* SPDX-License-Identifier: MIT */
/*
 * real_list.h — the single list of functions librdnacompat.so shadows, as an
 * X-macro: RDC_REAL_FN(name, "version", library).  real.c builds the table
 * of real (next) functions from it; shim.h builds the RDC_FN_* indices.
 * Every hook's real function comes from here and nowhere else, which makes
 * the table the seam tests use for fault injection (real.c).
 *
 * Versions are those of the shadowed definitions (nm -D on Debian's
 * libamdhip64.so.5, libhsa-runtime64.so.1 and libc.so.6); NULL: the library
 * has none (librocm_kpack), looked up with dlsym.
 */

/* HIP (libamdhip64.so.5) */
RDC_REAL_FN(__hipRegisterFatBinary, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(__hipUnregisterFatBinary, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleLoad, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleLoadData, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleLoadDataEx, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleUnload, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipGetDeviceProperties, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipGetDevicePropertiesR0600, "hip_6.0", RDC_LIB_HIP) /* HIP >= 6 only */
RDC_REAL_FN(hipModuleLoadFatBinary, "hip_7.1", RDC_LIB_HIP)      /* HIP >= 7.1 only */
RDC_REAL_FN(hipLibraryLoadData, "hip_7.2", RDC_LIB_HIP)          /* HIP >= 7.2 only */
RDC_REAL_FN(hipLibraryLoadFromFile, "hip_7.2", RDC_LIB_HIP)
RDC_REAL_FN(hipLibraryUnload, "hip_7.2", RDC_LIB_HIP)
RDC_REAL_FN(hipLibraryGetKernel, "hip_7.2", RDC_LIB_HIP)

/* HSA (libhsa-runtime64.so.1) */
RDC_REAL_FN(hsa_init, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_iterate_agents, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_agent_get_info, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_agent_iterate_isas, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_isa_get_info_alt, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_code_object_reader_create_from_memory, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_code_object_reader_create_from_file, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_code_object_reader_destroy, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_executable_load_agent_code_object, "ROCR_1", RDC_LIB_HSA)
RDC_REAL_FN(hsa_executable_destroy, "ROCR_1", RDC_LIB_HSA)

/* librocm_kpack.so.0 (TheRock >= 7.13; hook_kpack.c): no symbol versions */
RDC_REAL_FN(kpack_load_code_object, NULL, RDC_LIB_KPACK)
RDC_REAL_FN(kpack_free_code_object, NULL, RDC_LIB_KPACK)

/* libc: per-arch data file redirection (hook_files.c) */
RDC_REAL_FN(open, "GLIBC_2.2.5", RDC_LIB_C)
RDC_REAL_FN(open64, "GLIBC_2.2.5", RDC_LIB_C)
RDC_REAL_FN(openat, "GLIBC_2.4", RDC_LIB_C)
RDC_REAL_FN(openat64, "GLIBC_2.4", RDC_LIB_C)
RDC_REAL_FN(fopen, "GLIBC_2.2.5", RDC_LIB_C)
RDC_REAL_FN(fopen64, "GLIBC_2.2.5", RDC_LIB_C)
RDC_REAL_FN(access, "GLIBC_2.2.5", RDC_LIB_C)
RDC_REAL_FN(stat, "GLIBC_2.33", RDC_LIB_C)
RDC_REAL_FN(stat64, "GLIBC_2.33", RDC_LIB_C)
RDC_REAL_FN(__xstat, "GLIBC_2.2.5", RDC_LIB_C)      /* stat() of binaries built before glibc 2.33 */
RDC_REAL_FN(__xstat64, "GLIBC_2.2.5", RDC_LIB_C)
RDC_REAL_FN(glob, "GLIBC_2.27", RDC_LIB_C)
RDC_REAL_FN(glob64, "GLIBC_2.27", RDC_LIB_C)
/* libc: per-arch shared objects (hook_dlopen.c) */
RDC_REAL_FN(dlopen, "GLIBC_2.34", RDC_LIB_C)

/* HIP: kernel rules (route.c, hook_kernels.c, hook_occupancy.c) */
RDC_REAL_FN(hipRuntimeGetVersion, "hip_4.2", RDC_LIB_HIP)   /* not hooked: asked once */
RDC_REAL_FN(hipGetDevice, "hip_4.2", RDC_LIB_HIP)           /* not hooked */
RDC_REAL_FN(hipModuleGetFunction, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(__hipRegisterFunction, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleLaunchKernel, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipLaunchKernel, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipOccupancyMaxActiveBlocksPerMultiprocessor, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipFuncGetAttributes, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipFuncGetAttribute, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipOccupancyMaxPotentialBlockSize, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleOccupancyMaxPotentialBlockSize, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipModuleOccupancyMaxPotentialBlockSizeWithFlags, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipDeviceGetAttribute, "hip_4.2", RDC_LIB_HIP)          /* not hooked */
RDC_REAL_FN(hipExtModuleLaunchKernel, "hip_4.2", RDC_LIB_HIP)       /* C name: HIP >= 6 only */
RDC_REAL_FN(hipKernelNameRefByPtr, "hip_4.2", RDC_LIB_HIP)          /* not hooked: hold.c */

/* HIP: the other entry points that take a host stub (hook_stubs.c) */
RDC_REAL_FN(hipStreamGetDevice, "hip_4.2", RDC_LIB_HIP)             /* not hooked; HIP >= 6 only */
RDC_REAL_FN(hipLaunchKernel_spt, "hip_5.2", RDC_LIB_HIP)
RDC_REAL_FN(hipLaunchCooperativeKernel, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipLaunchCooperativeKernel_spt, "hip_5.2", RDC_LIB_HIP)
RDC_REAL_FN(hipLaunchCooperativeKernelMultiDevice, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipExtLaunchKernel, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipExtLaunchMultiKernelMultiDevice, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipLaunchByPtr, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipGetFuncBySymbol, "hip_6.2", RDC_LIB_HIP)             /* HIP >= 6.2 only */
RDC_REAL_FN(hipFuncSetAttribute, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipFuncSetCacheConfig, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipFuncSetSharedMemConfig, "hip_4.2", RDC_LIB_HIP)
RDC_REAL_FN(hipGraphAddKernelNode, "hip_4.3", RDC_LIB_HIP)
RDC_REAL_FN(hipGraphKernelNodeSetParams, "hip_4.4", RDC_LIB_HIP)
RDC_REAL_FN(hipGraphExecKernelNodeSetParams, "hip_4.4", RDC_LIB_HIP)
RDC_REAL_FN(hipGraphAddNode, "hip_5.5", RDC_LIB_HIP)                /* HIP >= 6 only */
RDC_REAL_FN(hipGraphNodeSetParams, "hip_6.2", RDC_LIB_HIP)          /* HIP >= 6.2 only */
RDC_REAL_FN(hipGraphExecNodeSetParams, "hip_6.2", RDC_LIB_HIP)      /* HIP >= 6.2 only */
