// SPDX-License-Identifier: MIT
// miopen_kern.hip — a code object with MIOpen's kernel name MIOpenCvBwdWrW
// (ConvOclBwdWrW2's kernel, ROCm/MIOpen#3540) and another solver's kernel,
// loaded at run time by the stand-in libMIOpen.so.1 (miopen_stub.cpp).
// Compiler builtins only (no device library: Debian's has none for gfx1101);
// launched with 64-thread blocks.
#include <hip/hip_runtime.h>

extern "C" __global__ void MIOpenCvBwdWrW(float *out, int n)
{
	int i = (int)(__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x());
	if (i < n)
		out[i] = 1.0f;
}

extern "C" __global__ void other_solver(float *out, int n)
{
	int i = (int)(__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x());
	if (i < n)
		out[i] = 2.0f;
}
