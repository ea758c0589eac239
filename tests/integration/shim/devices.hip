// SPDX-License-Identifier: MIT
// devices.hip — one kernel on every device HIP shows (49-shim-cache-devices):
// for device N, "device N <gcnArchName>", then "device N result ok" when
// the device's output equals the CPU's (the simulator executes the kernel)
// or "device N result wrong: <why>".  Exit 0 only when every device's
// result is right.  Built for several targets into one (compressed) bundle,
// so which entry each device is given depends on the set of devices.
#include <hip/hip_runtime.h>
#include <stdio.h>
__global__ void scale_add(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * k + i;
}
int main() {
  int n = 0;
  if (hipGetDeviceCount(&n) != hipSuccess || n < 1) { printf("no device\n"); return 2; }
  int bad = 0;
  for (int dev = 0; dev < n; dev++) {
    hipDeviceProp_t prop;
    if (hipSetDevice(dev) != hipSuccess || hipGetDeviceProperties(&prop, dev) != hipSuccess) {
      printf("device %d result wrong: cannot select it\n", dev);
      bad++;
      continue;
    }
    printf("device %d %s\n", dev, prop.gcnArchName);
    enum { N = 1000 };
    int h[N], *d = NULL;
    for (int i = 0; i < N; i++) h[i] = 3 * i - 7;
    hipError_t e = hipMalloc(&d, sizeof h);
    if (e == hipSuccess) e = hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice);
    if (e == hipSuccess) {
      hipLaunchKernelGGL(scale_add, dim3((N + 255) / 256), dim3(256), 0, 0, d, N, dev + 5);
      e = hipGetLastError();
    }
    if (e == hipSuccess) e = hipDeviceSynchronize();
    if (e == hipSuccess) e = hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);
    hipFree(d);
    if (e != hipSuccess) {
      printf("device %d result wrong: %s\n", dev, hipGetErrorString(e));
      bad++;
      continue;
    }
    int wrong = 0;
    for (int i = 0; i < N; i++) wrong += h[i] != (3 * i - 7) * (dev + 5) + i;
    if (wrong) printf("device %d result wrong: %d of %d\n", dev, wrong, N);
    else printf("device %d result ok\n", dev);
    bad += wrong != 0;
  }
  return bad ? 1 : 0;
}
