// SPDX-License-Identifier: MIT
// vadd.hip — one kernel through the static fat-binary path; prints gcnArchName,
// then "launch <status>": the launch's own error (hipGetLastError: HIP >= 6
// reports missing code there, "invalid device function") or else the
// synchronize's; exit 0 only when both succeeded.
#include <hip/hip_runtime.h>
#include <stdio.h>
__global__ void fill_iota(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i; }
int main() {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) { printf("no device\n"); return 2; }
  printf("device0 %s\n", prop.gcnArchName);
  int *d; hipMalloc(&d, 256 * sizeof(int));
  hipLaunchKernelGGL(fill_iota, dim3(1), dim3(256), 0, 0, d, 256);
  hipError_t e = hipGetLastError();
  hipError_t s = hipDeviceSynchronize();
  if (e == hipSuccess) e = s;
  printf("launch %s\n", hipGetErrorString(e));
  if (e != hipSuccess) fprintf(stderr, "vadd: hipLaunchKernel: %s\n", hipGetErrorString(e));
  hipFree(d);
  return e == hipSuccess ? 0 : 1;
}
