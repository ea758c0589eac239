// SPDX-License-Identifier: MIT
// stack_gemm.cpp — one 64x64 rocBLAS SGEMM on device 0, compared with a
// plain-loop CPU GEMM on small-integer inputs (tolerance 0, ref_check.h).
// Built twice by tests/integration/49-shim-lazy.sh and bench/startup-stack.sh:
// alone (rocBLAS only) and linked with the ROCm 7.2 math stack a PyTorch
// process loads at `import torch` (MIOpen, hipBLASLt, hipBLAS, rocSPARSE,
// rocFFT, rocRAND, rocSOLVER, RCCL, linked with --no-as-needed and never
// called), so the two differ only in the code their libraries ship and
// register.  Prints the device's gcnArchName, "max err: ..." and "ok:
// rocblas_sgemm".  With --scal it also scales a vector with rocblas_sscal,
// whose kernel comes from rocBLAS's own fat binary (compressed in 7.2), not
// from a Tensile code object: "ok: rocblas_sscal".
#include "ref_check.h"
#include <rocblas/rocblas.h>

#define BLASCHK(x) do { rocblas_status s_ = (x); if (s_ != rocblas_status_success) { \
  std::printf("rocblas error: %s: %s\n", #x, rocblas_status_to_string(s_)); return 1; } } while (0)

int main(int argc, char **argv)
{
  const bool scal = argc > 1 && std::strcmp(argv[1], "--scal") == 0;
  hipDeviceProp_t p;
  HIPCHK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.gcnArchName);
  const int n = 64;
  const size_t nn = (size_t)n * n;
  std::vector<float> ha = rc_fill(nn, 1), hb = rc_fill(nn, 2), hc(nn), want(nn), stale(nn, 7777.0f);
  float *a, *b, *c;
  HIPCHK(hipMalloc(&a, sizeof(float) * nn));
  HIPCHK(hipMalloc(&b, sizeof(float) * nn));
  HIPCHK(hipMalloc(&c, sizeof(float) * nn));
  HIPCHK(rc_up(a, ha)); HIPCHK(rc_up(b, hb)); HIPCHK(rc_up(c, stale));
  rocblas_handle h;
  BLASCHK(rocblas_create_handle(&h));
  const float one = 1.0f, zero = 0.0f;
  BLASCHK(rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_none, n, n, n,
                        &one, a, n, b, n, &zero, c, n));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(hc, c));
  rc_gemm(false, false, n, n, n, 1.0f, ha.data(), n, hb.data(), n, want.data(), n);
  int bad = 0;
  if (rc_check("rocblas_sgemm", hc.data(), want.data(), nn, 0)) std::printf("ok: rocblas_sgemm\n"); else bad++;
  if (scal) {
    const float two = 2.0f;
    std::vector<float> hx = rc_fill(nn, 3), wx(nn);
    HIPCHK(rc_up(a, hx));
    BLASCHK(rocblas_sscal(h, (int)nn, &two, a, 1));
    HIPCHK(hipDeviceSynchronize());
    HIPCHK(rc_down(wx, a));
    for (size_t i = 0; i < nn; i++) hx[i] *= 2.0f;
    if (rc_check("rocblas_sscal", wx.data(), hx.data(), nn, 0)) std::printf("ok: rocblas_sscal\n"); else bad++;
  }
  BLASCHK(rocblas_destroy_handle(h));
  return bad ? 1 : 0;
}
