// SPDX-License-Identifier: MIT
// ref_check.h — what tests/integration/libs/*.cpp share to check a library
// call's device output against a CPU reference: HIPCHK, a deterministic fill
// with small integers (-2..2, so float and half sums of products stay exact
// integers and the comparison can be exact), IEEE half <-> float, a plain-loop
// column-major GEMM with transpose flags, copies to and from the device, and
// rc_check, which prints "max err: <call> <err> (tol <tol>, <n> values)" and
// says whether every value is within the tolerance.  The references are
// written from the operations' definitions, never from the libraries'.
#ifndef RDC_TESTS_REF_CHECK_H
#define RDC_TESTS_REF_CHECK_H
#include <hip/hip_runtime.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define HIPCHK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
  std::printf("hip error: %s: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

// Value i of stream `seed`: an integer in -2..2 (a fixed hash, no RNG state).
static inline float rc_val(size_t i, unsigned seed)
{
  uint32_t h = (uint32_t)i * 2654435761u + seed * 40503u + 0x9e37u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (float)((int)(h % 5u) - 2);
}

static inline std::vector<float> rc_fill(size_t n, unsigned seed)
{
  std::vector<float> v(n);
  for (size_t i = 0; i < n; i++) v[i] = rc_val(i, seed);
  return v;
}

// IEEE binary16 from float, round to nearest even (exact for the fills).
static inline uint16_t rc_f2h(float f)
{
  uint32_t x; std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {                                  // subnormal half or zero
    if (e < -10) return (uint16_t)sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e), h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;   // may carry into the exponent: still right
  return (uint16_t)(sign | h);
}

static inline float rc_h2f(uint16_t h)
{
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v = exp == 0 ? std::ldexp((float)man, -24)
          : exp == 31 ? (man ? NAN : INFINITY)
          : std::ldexp((float)(man | 0x400), exp - 25);
  return (h & 0x8000) ? -v : v;
}

// C = alpha * op(A) * op(B) (beta 0), column-major; op(X) = X^T when tX.
// Sums in double.
static inline void rc_gemm(bool ta, bool tb, int m, int n, int k, float alpha, const float *a, int lda,
                           const float *b, int ldb, float *c, int ldc)
{
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double s = 0;
      for (int l = 0; l < k; l++) {
        double x = ta ? a[l + (size_t)i * lda] : a[i + (size_t)l * lda];
        double y = tb ? b[j + (size_t)l * ldb] : b[l + (size_t)j * ldb];
        s += x * y;
      }
      c[i + (size_t)j * ldc] = (float)(alpha * s);
    }
}

template <class T> static inline hipError_t rc_up(T *dev, const std::vector<T> &host)
{
  return hipMemcpy(dev, host.data(), sizeof(T) * host.size(), hipMemcpyHostToDevice);
}
template <class T> static inline hipError_t rc_down(std::vector<T> &host, const T *dev)
{
  return hipMemcpy(host.data(), dev, sizeof(T) * host.size(), hipMemcpyDeviceToHost);
}

// Prints the largest |got - want| and, when it exceeds tol (NaN counts as
// beyond), the count and the first value out; returns whether all are within.
static inline bool rc_check(const char *call, const float *got, const float *want, size_t n, double tol)
{
  double worst = 0; size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; i++) {
    double e = std::fabs((double)got[i] - (double)want[i]);
    if (!(e <= tol)) { if (!bad++) first = i; if (!(e <= worst)) worst = e; continue; }
    if (e > worst) worst = e;
  }
  std::printf("max err: %s %g (tol %g, %zu values)\n", call, worst, tol, n);
  if (bad)
    std::printf("mismatch: %s: %zu of %zu values beyond tol; first [%zu] = %g, want %g\n", call, bad, n, first,
                (double)got[first], (double)want[first]);
  return bad == 0;
}
#endif
