// SPDX-License-Identifier: MIT
// rocblas_gemm.cpp — rocBLAS sgemm (N,T), hgemm (N,N) and a strided batched
// sgemm (T,N) on device 0, for tests/integration/70-libs-rocblas.sh.  Inputs
// are small integers (ref_check.h), so every product sum is exact in float
// and in half: each result is copied back and compared with a plain-loop CPU
// GEMM, tolerance 0.  Prints the device's gcnArchName, then per call
// "max err: <call> ..." and "ok: <call>" when rocBLAS accepted it, its
// stream completed and every value matched; a rocBLAS or HIP failure prints
// its status string and a mismatch its first wrong value, and exits 1.  The
// output buffers start as 7777 so that a kernel that did not run shows.
#include "ref_check.h"
#include <rocblas/rocblas.h>

#define BLASCHK(x) do { rocblas_status s_ = (x); if (s_ != rocblas_status_success) { \
  std::printf("rocblas error: %s: %s\n", #x, rocblas_status_to_string(s_)); return 1; } } while (0)

int main()
{
  hipDeviceProp_t p;
  HIPCHK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.gcnArchName);
  const int n = 128, batch = 4;
  const size_t nn = (size_t)n * n;
  std::vector<float> ha = rc_fill(nn * batch, 1), hb = rc_fill(nn * batch, 2), hc(nn * batch), want(nn * batch);
  std::vector<float> stale(nn * batch, 7777.0f);
  std::vector<uint16_t> h16a(nn), h16b(nn), h16c(nn), h16stale(nn, rc_f2h(7777.0f));
  for (size_t i = 0; i < nn; i++) { h16a[i] = rc_f2h(ha[i]); h16b[i] = rc_f2h(hb[i]); }
  float *a, *b, *c;
  uint16_t *a16, *b16, *c16;
  HIPCHK(hipMalloc(&a, sizeof(float) * nn * batch));
  HIPCHK(hipMalloc(&b, sizeof(float) * nn * batch));
  HIPCHK(hipMalloc(&c, sizeof(float) * nn * batch));
  HIPCHK(hipMalloc(&a16, sizeof(uint16_t) * nn));
  HIPCHK(hipMalloc(&b16, sizeof(uint16_t) * nn));
  HIPCHK(hipMalloc(&c16, sizeof(uint16_t) * nn));
  HIPCHK(rc_up(a, ha)); HIPCHK(rc_up(b, hb)); HIPCHK(rc_up(c, stale));
  HIPCHK(rc_up(a16, h16a)); HIPCHK(rc_up(b16, h16b)); HIPCHK(rc_up(c16, h16stale));
  rocblas_handle h;
  BLASCHK(rocblas_create_handle(&h));
  const float one = 1.0f, zero = 0.0f;
  int bad = 0;

  BLASCHK(rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_transpose, n, n, n,
                        &one, a, n, b, n, &zero, c, n));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(hc, c));
  rc_gemm(false, true, n, n, n, 1.0f, ha.data(), n, hb.data(), n, want.data(), n);
  if (rc_check("rocblas_sgemm", hc.data(), want.data(), nn, 0)) std::printf("ok: rocblas_sgemm\n"); else bad++;

  rocblas_half hone, hzero;
  hone.data = rc_f2h(1.0f); hzero.data = 0;
  BLASCHK(rocblas_hgemm(h, rocblas_operation_none, rocblas_operation_none, n, n, n,
                        &hone, (const rocblas_half *)a16, n, (const rocblas_half *)b16, n, &hzero,
                        (rocblas_half *)c16, n));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(h16c, c16));
  for (size_t i = 0; i < nn; i++) hc[i] = rc_h2f(h16c[i]);
  rc_gemm(false, false, n, n, n, 1.0f, ha.data(), n, hb.data(), n, want.data(), n);
  if (rc_check("rocblas_hgemm", hc.data(), want.data(), nn, 0)) std::printf("ok: rocblas_hgemm\n"); else bad++;

  HIPCHK(rc_up(c, stale));
  BLASCHK(rocblas_sgemm_strided_batched(h, rocblas_operation_transpose, rocblas_operation_none,
                                        n, n, n, &one, a, n, (rocblas_stride)nn, b, n,
                                        (rocblas_stride)nn, &zero, c, n, (rocblas_stride)nn, batch));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(hc, c));
  for (int i = 0; i < batch; i++)
    rc_gemm(true, false, n, n, n, 1.0f, ha.data() + i * nn, n, hb.data() + i * nn, n, want.data() + i * nn, n);
  if (rc_check("rocblas_sgemm_strided_batched", hc.data(), want.data(), nn * batch, 0))
    std::printf("ok: rocblas_sgemm_strided_batched\n");
  else
    bad++;

  BLASCHK(rocblas_destroy_handle(h));
  HIPCHK(hipFree(a)); HIPCHK(hipFree(b)); HIPCHK(hipFree(c));
  HIPCHK(hipFree(a16)); HIPCHK(hipFree(b16)); HIPCHK(hipFree(c16));
  return bad ? 1 : 0;
}
