// SPDX-License-Identifier: MIT
// hipblas_gemm.cpp — hipBLAS sgemm and a strided batched sgemm (hipBLAS runs
// on rocBLAS) on device 0, for tests/integration/70-libs-rocblas.sh.  Prints
// the device's gcnArchName, then one "ok: <call>" line per call that hipBLAS
// accepted and whose stream completed; a failure prints hipBLAS's status
// string and exits 1.  On a simulated card kernels are dispatched, not
// executed: the results are never read or compared.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <cstdio>

#define HIPCHK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
  std::printf("hip error: %s: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)
#define BLASCHK(x) do { hipblasStatus_t s_ = (x); if (s_ != HIPBLAS_STATUS_SUCCESS) { \
  std::printf("hipblas error: %s: %s\n", #x, hipblasStatusToString(s_)); return 1; } } while (0)

int main()
{
  hipDeviceProp_t p;
  HIPCHK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.gcnArchName);
  const int n = 96, batch = 3;
  float *a, *b, *c;
  HIPCHK(hipMalloc(&a, sizeof(float) * n * n * batch));
  HIPCHK(hipMalloc(&b, sizeof(float) * n * n * batch));
  HIPCHK(hipMalloc(&c, sizeof(float) * n * n * batch));
  hipblasHandle_t h;
  BLASCHK(hipblasCreate(&h));
  const float one = 1.0f, zero = 0.0f;
  BLASCHK(hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
  HIPCHK(hipDeviceSynchronize());
  std::printf("ok: hipblasSgemm\n");
  BLASCHK(hipblasSgemmStridedBatched(h, HIPBLAS_OP_T, HIPBLAS_OP_T, n, n, n, &one, a, n,
                                     (long long)n * n, b, n, (long long)n * n, &zero, c, n,
                                     (long long)n * n, batch));
  HIPCHK(hipDeviceSynchronize());
  std::printf("ok: hipblasSgemmStridedBatched\n");
  BLASCHK(hipblasDestroy(h));
  HIPCHK(hipFree(a)); HIPCHK(hipFree(b)); HIPCHK(hipFree(c));
  return 0;
}
