// SPDX-License-Identifier: MIT
// kern.hip — the kernel modload loads (built with --genco, bundled and bare).
#include <hip/hip_runtime.h>
extern "C" __global__ void fill_iota(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i; }
