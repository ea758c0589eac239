// SPDX-License-Identifier: MIT
// hipblas_gemm.cpp — hipBLAS sgemm (N,N) and a strided batched sgemm (T,T)
// (hipBLAS runs on rocBLAS) on device 0, for tests/integration/70-libs-
// rocblas.sh.  Small-integer inputs (ref_check.h): each result is copied
// back and compared with a plain-loop CPU GEMM, tolerance 0.  Prints the
// device's gcnArchName, then per call "max err: <call> ..." and "ok: <call>"
// when hipBLAS accepted it, its stream completed and every value matched;
// a hipBLAS or HIP failure prints its status string and a mismatch its first
// wrong value, and exits 1.  Output buffers start as 7777.
#include "ref_check.h"
#include <hipblas/hipblas.h>

#define BLASCHK(x) do { hipblasStatus_t s_ = (x); if (s_ != HIPBLAS_STATUS_SUCCESS) { \
  std::printf("hipblas error: %s: %s\n", #x, hipblasStatusToString(s_)); return 1; } } while (0)

int main()
{
  hipDeviceProp_t p;
  HIPCHK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.gcnArchName);
  const int n = 96, batch = 3;
  const size_t nn = (size_t)n * n;
  std::vector<float> ha = rc_fill(nn * batch, 3), hb = rc_fill(nn * batch, 4), hc(nn * batch), want(nn * batch);
  std::vector<float> stale(nn * batch, 7777.0f);
  float *a, *b, *c;
  HIPCHK(hipMalloc(&a, sizeof(float) * nn * batch));
  HIPCHK(hipMalloc(&b, sizeof(float) * nn * batch));
  HIPCHK(hipMalloc(&c, sizeof(float) * nn * batch));
  HIPCHK(rc_up(a, ha)); HIPCHK(rc_up(b, hb)); HIPCHK(rc_up(c, stale));
  hipblasHandle_t h;
  BLASCHK(hipblasCreate(&h));
  const float one = 1.0f, zero = 0.0f;
  int bad = 0;

  BLASCHK(hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
  HIPCHK(hipDeviceSynchronize());
  std::vector<float> hc1(nn);
  HIPCHK(rc_down(hc1, c));
  rc_gemm(false, false, n, n, n, 1.0f, ha.data(), n, hb.data(), n, want.data(), n);
  if (rc_check("hipblasSgemm", hc1.data(), want.data(), nn, 0)) std::printf("ok: hipblasSgemm\n"); else bad++;

  HIPCHK(rc_up(c, stale));
  BLASCHK(hipblasSgemmStridedBatched(h, HIPBLAS_OP_T, HIPBLAS_OP_T, n, n, n, &one, a, n,
                                     (long long)nn, b, n, (long long)nn, &zero, c, n,
                                     (long long)nn, batch));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(hc, c));
  for (int i = 0; i < batch; i++)
    rc_gemm(true, true, n, n, n, 1.0f, ha.data() + i * nn, n, hb.data() + i * nn, n, want.data() + i * nn, n);
  if (rc_check("hipblasSgemmStridedBatched", hc.data(), want.data(), nn * batch, 0))
    std::printf("ok: hipblasSgemmStridedBatched\n");
  else
    bad++;

  BLASCHK(hipblasDestroy(h));
  HIPCHK(hipFree(a)); HIPCHK(hipFree(b)); HIPCHK(hipFree(c));
  return bad ? 1 : 0;
}
