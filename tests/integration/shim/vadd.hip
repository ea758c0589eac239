// SPDX-License-Identifier: MIT
// vadd.hip — one kernel through the static fat-binary path; prints gcnArchName,
// then "launch <status>": the launch's own error (hipGetLastError: HIP >= 6
// reports missing code there, "invalid device function") or else the
// synchronize's; then "result ok" when the device's output equals the CPU's
// iota (the simulator executes the kernel) or "result wrong: N of 256";
// exit 0 only when the launch succeeded and the result is right.
#include <hip/hip_runtime.h>
#include <stdio.h>
__global__ void fill_iota(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i; }
int main() {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) { printf("no device\n"); return 2; }
  printf("device0 %s\n", prop.gcnArchName);
  int *d; hipMalloc(&d, 256 * sizeof(int)); hipMemset(d, 0xff, 256 * sizeof(int));
  hipLaunchKernelGGL(fill_iota, dim3(1), dim3(256), 0, 0, d, 256);
  hipError_t e = hipGetLastError();
  hipError_t s = hipDeviceSynchronize();
  if (e == hipSuccess) e = s;
  printf("launch %s\n", hipGetErrorString(e));
  if (e != hipSuccess) fprintf(stderr, "vadd: hipLaunchKernel: %s\n", hipGetErrorString(e));
  int wrong = 0;
  if (e == hipSuccess) {
    int h[256];
    if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess) wrong = 256;
    else for (int i = 0; i < 256; i++) wrong += h[i] != i;
    if (wrong) printf("result wrong: %d of 256\n", wrong); else printf("result ok\n");
  }
  hipFree(d);
  return e == hipSuccess && !wrong ? 0 : 1;
}
