// SPDX-License-Identifier: MIT
// sim_modhold.hip — a module load of a code object file (hipModuleLoad), as
// libraries that ship their kernels apart do: each name on the command line
// is looked up (hipModuleGetFunction) and its answer printed; "scale",
// looked up by the mangled name of sim_texture.hip's plain kernel, is also
// launched on 64 floats and checked against the CPU.
//
// Usage: sim_modhold FILE NAME...  — prints "get NAME: <hipError name>" per
// name and "scaled ok" after the launch; exit 1 when the load or the launch
// fails or a value is wrong.
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: sim_modhold FILE NAME...\n");
    return 2;
  }
  hipModule_t m;
  hipError_t e = hipModuleLoad(&m, argv[1]);
  printf("load: %s\n", hipGetErrorName(e));
  if (e != hipSuccess)
    return 1;
  for (int i = 2; i < argc; i++) {
    hipFunction_t f;
    e = hipModuleGetFunction(&f, m, argv[i]);
    printf("get %s: %s\n", argv[i], hipGetErrorName(e));
    if (e != hipSuccess || strcmp(argv[i], "_Z5scalePffi") != 0)
      continue;
    enum { N = 64 };
    float h[N], *d;
    for (int k = 0; k < N; k++)
      h[k] = (float)k - 7.5f;
    if (hipMalloc(&d, sizeof h) != hipSuccess || hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice) != hipSuccess)
      return 1;
    float s = 2.5f;
    int n = N;
    void *args[] = { &d, &s, &n };
    e = hipModuleLaunchKernel(f, 1, 1, 1, N, 1, 1, 0, NULL, args, NULL);
    float out[N];
    if (e != hipSuccess || hipMemcpy(out, d, sizeof out, hipMemcpyDeviceToHost) != hipSuccess) {
      fprintf(stderr, "FAIL launch: %s\n", hipGetErrorName(e));
      return 1;
    }
    for (int k = 0; k < N; k++)
      if (out[k] != h[k] * s) {
        fprintf(stderr, "FAIL scale[%d] = %g, want %g\n", k, out[k], h[k] * s);
        return 1;
      }
    printf("scaled ok\n");
    (void)hipFree(d);
  }
  return 0;
}
