// SPDX-License-Identifier: MIT
// miopen_conv.cpp — one MIOpen convolution forward (N1 C8 H16 W16, 8 3x3
// filters, pad 1) and one batch-norm forward inference (spatial) on device 0,
// for tests/integration/70-libs-miopen.sh.  Prints the device's gcnArchName,
// per call "max err: <call> ..." and "ok: <call>" when it completed and its
// output matched a plain-loop CPU reference, or MIOpen's status string (or
// the first wrong value) and exits 1.  Inputs are small integers (ref_check.h):
// the convolution (cross-correlation, MIOpen's miopenConvolution) is exact,
// tolerance 0; batch norm y = scale (x - mean) / sqrt(var + eps) + bias is
// computed in double, tolerance 1e-5 (|y| <= 10).  Outputs start as 7777.
#include "ref_check.h"
#include <miopen/miopen.h>
#define MICHK(x) do { miopenStatus_t s_ = (x); if (s_ != miopenStatusSuccess) { \
  std::printf("miopen error: %s: %s\n", #x, miopenGetErrorString(s_)); return 1; } } while (0)

int main()
{
  hipDeviceProp_t p;
  HIPCHK(hipGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.gcnArchName);
  const int n = 1, c = 8, h = 16, w = 16, k = 8;
  miopenHandle_t mh;
  MICHK(miopenCreate(&mh));
  miopenTensorDescriptor_t xd, wd, yd, bnd;
  MICHK(miopenCreateTensorDescriptor(&xd));
  MICHK(miopenCreateTensorDescriptor(&wd));
  MICHK(miopenCreateTensorDescriptor(&yd));
  MICHK(miopenCreateTensorDescriptor(&bnd));
  MICHK(miopenSet4dTensorDescriptor(xd, miopenFloat, n, c, h, w));
  MICHK(miopenSet4dTensorDescriptor(wd, miopenFloat, k, c, 3, 3));
  miopenConvolutionDescriptor_t cd;
  MICHK(miopenCreateConvolutionDescriptor(&cd));
  MICHK(miopenInitConvolutionDescriptor(cd, miopenConvolution, 1, 1, 1, 1, 1, 1));
  int on, oc, oh, ow;
  MICHK(miopenGetConvolutionForwardOutputDim(cd, xd, wd, &on, &oc, &oh, &ow));
  MICHK(miopenSet4dTensorDescriptor(yd, miopenFloat, on, oc, oh, ow));
  if (on != n || oc != k || oh != h || ow != w) {
    std::printf("miopen error: output %dx%dx%dx%d, expected %dx%dx%dx%d\n", on, oc, oh, ow, n, k, h, w);
    return 1;
  }
  const size_t nx = (size_t)n * c * h * w, ny = (size_t)n * k * h * w;
  std::vector<float> hx = rc_fill(nx, 7), hw = rc_fill((size_t)k * c * 9, 8), hy(ny, 7777.0f), want(ny);
  float *x, *wt, *y, *ws = nullptr;
  HIPCHK(hipMalloc(&x, sizeof(float) * nx));
  HIPCHK(hipMalloc(&wt, sizeof(float) * k * c * 9));
  HIPCHK(hipMalloc(&y, sizeof(float) * ny));
  HIPCHK(rc_up(x, hx)); HIPCHK(rc_up(wt, hw)); HIPCHK(rc_up(y, hy));
  size_t wsz = 0;
  MICHK(miopenConvolutionForwardGetWorkSpaceSize(mh, wd, xd, cd, yd, &wsz));
  if (wsz) HIPCHK(hipMalloc(&ws, wsz));
  miopenConvAlgoPerf_t perf;
  int found = 0;
  MICHK(miopenFindConvolutionForwardAlgorithm(mh, xd, x, wd, wt, cd, yd, y, 1, &found, &perf, ws, wsz, false));
  std::printf("conv algo: %d\n", (int)perf.fwd_algo);
  const float one = 1.0f, zero = 0.0f;
  MICHK(miopenConvolutionForward(mh, &one, xd, x, wd, wt, cd, perf.fwd_algo, &zero, yd, y, ws, wsz));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(hy, y));
  // NCHW, pad 1, stride 1: y[b][o][i][j] = sum_{ch,r,s} x[b][ch][i+r-1][j+s-1] w[o][ch][r][s]
  for (int b = 0; b < n; b++)
    for (int o = 0; o < k; o++)
      for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
          double s = 0;
          for (int ch = 0; ch < c; ch++)
            for (int r = 0; r < 3; r++)
              for (int q = 0; q < 3; q++) {
                int yi = i + r - 1, xj = j + q - 1;
                if (yi < 0 || yi >= h || xj < 0 || xj >= w) continue;
                s += (double)hx[(((size_t)b * c + ch) * h + yi) * w + xj] * hw[(((size_t)o * c + ch) * 3 + r) * 3 + q];
              }
          want[(((size_t)b * k + o) * h + i) * w + j] = (float)s;
        }
  int bad = 0;
  if (rc_check("miopenConvolutionForward", hy.data(), want.data(), ny, 0))
    std::printf("ok: miopenConvolutionForward\n");
  else
    bad++;
  MICHK(miopenDeriveBNTensorDescriptor(bnd, xd, miopenBNSpatial));
  // per channel: scale -2..2, bias -2..2, mean -2..2, variance 1..5
  std::vector<float> hsc = rc_fill(c, 9), hbi = rc_fill(c, 10), hmu = rc_fill(c, 11), hvar = rc_fill(c, 12);
  for (float &v : hvar) v += 3.0f;
  std::vector<float> hbo(nx, 7777.0f), bwant(nx);
  const double eps = 1e-5;
  float *sc, *bi, *mu, *var, *bo;
  HIPCHK(hipMalloc(&sc, sizeof(float) * c)); HIPCHK(hipMalloc(&bi, sizeof(float) * c));
  HIPCHK(hipMalloc(&mu, sizeof(float) * c)); HIPCHK(hipMalloc(&var, sizeof(float) * c));
  HIPCHK(hipMalloc(&bo, sizeof(float) * nx));
  HIPCHK(rc_up(sc, hsc)); HIPCHK(rc_up(bi, hbi)); HIPCHK(rc_up(mu, hmu)); HIPCHK(rc_up(var, hvar));
  HIPCHK(rc_up(bo, hbo));
  MICHK(miopenBatchNormalizationForwardInference(mh, miopenBNSpatial, (void *)&one, (void *)&zero, xd, x, xd, bo,
                                                 bnd, sc, bi, mu, var, eps));
  HIPCHK(hipDeviceSynchronize());
  HIPCHK(rc_down(hbo, bo));
  for (size_t i = 0; i < nx; i++) {
    size_t ch = i / ((size_t)h * w) % c;
    bwant[i] = (float)(hsc[ch] * ((double)hx[i] - hmu[ch]) / std::sqrt((double)hvar[ch] + eps) + hbi[ch]);
  }
  if (rc_check("miopenBatchNormalizationForwardInference", hbo.data(), bwant.data(), nx, 1e-5))
    std::printf("ok: miopenBatchNormalizationForwardInference\n");
  else
    bad++;
  MICHK(miopenDestroy(mh));
  return bad ? 1 : 0;
}
