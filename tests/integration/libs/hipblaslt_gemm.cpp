// SPDX-License-Identifier: MIT
// hipblaslt_gemm.cpp — one hipBLASLt fp32 matmul (D = A*B, n=128) on device
// 0, for the hipBLASLt part of docs/LIBRARIES.md and errors.tsv.  Prints the
// device's gcnArchName, then "heuristics: N" (algorithms hipBLASLt offers for
// this device) and "ok: hipblasLtMatmul" when the call completed; any failure
// prints hipBLASLt's status and exits 1.  Small-integer inputs
// (ref_check.h): D is copied back and compared with a plain-loop CPU GEMM,
// tolerance 0 ("max err: hipblasLtMatmul ..."; "ok: hipblasLtMatmul" only
// when every value matched, else the first wrong value and exit 1).  D
// starts as 7777.
#include "ref_check.h"
#include <hipblaslt/hipblaslt.h>

#define LTCHK(x) do { hipblasStatus_t s_ = (x); if (s_ != HIPBLAS_STATUS_SUCCESS) { \
  std::printf("hipblaslt error: %s: status %d\n", #x, (int)s_); return 1; } } while (0)

int main()
{
  hipDeviceProp_t p;
  HIPCHK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.gcnArchName);
  const int n = 128;
  const size_t nn = (size_t)n * n;
  std::vector<float> ha = rc_fill(nn, 5), hb = rc_fill(nn, 6), hd(nn, 7777.0f), want(nn);
  float *a, *b, *d;
  HIPCHK(hipMalloc(&a, sizeof(float) * nn));
  HIPCHK(hipMalloc(&b, sizeof(float) * nn));
  HIPCHK(hipMalloc(&d, sizeof(float) * nn));
  HIPCHK(rc_up(a, ha)); HIPCHK(rc_up(b, hb)); HIPCHK(rc_up(d, hd));
  hipblasLtHandle_t h;
  LTCHK(hipblasLtCreate(&h));
  hipblasLtMatmulDesc_t op;
  LTCHK(hipblasLtMatmulDescCreate(&op, HIPBLAS_COMPUTE_32F, HIP_R_32F));
  hipblasLtMatrixLayout_t la, lb, ld;
  LTCHK(hipblasLtMatrixLayoutCreate(&la, HIP_R_32F, n, n, n));
  LTCHK(hipblasLtMatrixLayoutCreate(&lb, HIP_R_32F, n, n, n));
  LTCHK(hipblasLtMatrixLayoutCreate(&ld, HIP_R_32F, n, n, n));
  hipblasLtMatmulPreference_t pref;
  LTCHK(hipblasLtMatmulPreferenceCreate(&pref));
  hipblasLtMatmulHeuristicResult_t res[4];
  int got = 0;
  LTCHK(hipblasLtMatmulAlgoGetHeuristic(h, op, la, lb, ld, ld, pref, 4, res, &got));
  std::printf("heuristics: %d\n", got);
  if (got == 0) { std::printf("hipblaslt error: no algorithm for this device\n"); return 1; }
  const float one = 1.0f, zero = 0.0f;
  LTCHK(hipblasLtMatmul(h, op, &one, a, la, b, lb, &zero, d, ld, d, ld, &res[0].algo, nullptr, 0, 0));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(hd, d));
  rc_gemm(false, false, n, n, n, 1.0f, ha.data(), n, hb.data(), n, want.data(), n);
  if (!rc_check("hipblasLtMatmul", hd.data(), want.data(), nn, 0)) return 1;
  std::printf("ok: hipblasLtMatmul\n");
  return 0;
}
