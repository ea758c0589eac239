// SPDX-License-Identifier: MIT
// rocblas_gemm.cpp — rocBLAS sgemm, hgemm and a strided batched sgemm on
// device 0, for tests/integration/70-libs-rocblas.sh.  Prints the device's
// gcnArchName, then one "ok: <call>" line per call that rocBLAS accepted and
// whose stream completed; any failure prints rocBLAS's status string and
// exits 1.  On a simulated card kernels are dispatched, not executed: the
// results are never read or compared.
#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>
#include <cstdio>
#include <cstdlib>

#define HIPCHK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
  std::printf("hip error: %s: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)
#define BLASCHK(x) do { rocblas_status s_ = (x); if (s_ != rocblas_status_success) { \
  std::printf("rocblas error: %s: %s\n", #x, rocblas_status_to_string(s_)); return 1; } } while (0)

int main()
{
  hipDeviceProp_t p;
  HIPCHK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.gcnArchName);
  const int n = 128, batch = 4;
  float *a, *b, *c;
  rocblas_half *ha, *hb, *hc;
  HIPCHK(hipMalloc(&a, sizeof(float) * n * n * batch));
  HIPCHK(hipMalloc(&b, sizeof(float) * n * n * batch));
  HIPCHK(hipMalloc(&c, sizeof(float) * n * n * batch));
  HIPCHK(hipMalloc(&ha, sizeof(rocblas_half) * n * n));
  HIPCHK(hipMalloc(&hb, sizeof(rocblas_half) * n * n));
  HIPCHK(hipMalloc(&hc, sizeof(rocblas_half) * n * n));
  rocblas_handle h;
  BLASCHK(rocblas_create_handle(&h));
  const float one = 1.0f, zero = 0.0f;
  BLASCHK(rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_transpose, n, n, n,
                        &one, a, n, b, n, &zero, c, n));
  HIPCHK(hipDeviceSynchronize());
  std::printf("ok: rocblas_sgemm\n");
  rocblas_half hone, hzero;
  hone.data = 0x3c00; hzero.data = 0;
  BLASCHK(rocblas_hgemm(h, rocblas_operation_none, rocblas_operation_none, n, n, n,
                        &hone, ha, n, hb, n, &hzero, hc, n));
  HIPCHK(hipDeviceSynchronize());
  std::printf("ok: rocblas_hgemm\n");
  BLASCHK(rocblas_sgemm_strided_batched(h, rocblas_operation_transpose, rocblas_operation_none,
                                        n, n, n, &one, a, n, (rocblas_stride)n * n, b, n,
                                        (rocblas_stride)n * n, &zero, c, n, (rocblas_stride)n * n, batch));
  HIPCHK(hipDeviceSynchronize());
  std::printf("ok: rocblas_sgemm_strided_batched\n");
  BLASCHK(rocblas_destroy_handle(h));
  HIPCHK(hipFree(a)); HIPCHK(hipFree(b)); HIPCHK(hipFree(c));
  HIPCHK(hipFree(ha)); HIPCHK(hipFree(hb)); HIPCHK(hipFree(hc));
  return 0;
}
