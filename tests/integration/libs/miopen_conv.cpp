// SPDX-License-Identifier: MIT
// miopen_conv.cpp — one MIOpen convolution forward (N1 C8 H16 W16, 8 3x3
// filters, pad 1) and one batch-norm forward inference (spatial) on device 0,
// for tests/integration/70-libs-miopen.sh.  Prints the device's gcnArchName,
// "ok: <call>" per completed call, or MIOpen's status string and exits 1.
// On a simulated card kernels are dispatched, not executed: results are
// never read.
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
#include <cstdio>

#define HIPCHK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
  std::printf("hip error: %s: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)
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
  float *x, *wt, *y, *ws = nullptr;
  HIPCHK(hipMalloc(&x, sizeof(float) * n * c * h * w));
  HIPCHK(hipMalloc(&wt, sizeof(float) * k * c * 9));
  HIPCHK(hipMalloc(&y, sizeof(float) * on * oc * oh * ow));
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
  std::printf("ok: miopenConvolutionForward\n");
  MICHK(miopenDeriveBNTensorDescriptor(bnd, xd, miopenBNSpatial));
  float *sc, *bi, *mu, *var, *bo;
  HIPCHK(hipMalloc(&sc, sizeof(float) * c)); HIPCHK(hipMalloc(&bi, sizeof(float) * c));
  HIPCHK(hipMalloc(&mu, sizeof(float) * c)); HIPCHK(hipMalloc(&var, sizeof(float) * c));
  HIPCHK(hipMalloc(&bo, sizeof(float) * n * c * h * w));
  MICHK(miopenBatchNormalizationForwardInference(mh, miopenBNSpatial, (void *)&one, (void *)&zero, xd, x, xd, bo,
                                                 bnd, sc, bi, mu, var, 1e-5));
  HIPCHK(hipDeviceSynchronize());
  std::printf("ok: miopenBatchNormalizationForwardInference\n");
  MICHK(miopenDestroy(mh));
  return 0;
}
