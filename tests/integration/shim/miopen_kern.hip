// SPDX-License-Identifier: MIT
// miopen_kern.hip — a code object with MIOpen's kernel name MIOpenCvBwdWrW
// (ConvOclBwdWrW2's kernel, ROCm/MIOpen#3540) and another solver's kernel,
// loaded at run time by the stand-in libMIOpen.so.1 (miopen_stub.cpp).
#include <hip/hip_runtime.h>

extern "C" __global__ void MIOpenCvBwdWrW(float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 1.0f;
}

extern "C" __global__ void other_solver(float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = 2.0f;
}
