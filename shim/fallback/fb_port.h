/* SPDX-License-Identifier: MIT */
/*
 * fb_port.h — the small portability layer the fallback kernels are written
 * against, so that one source compiles two ways:
 *   - AMDGPU: Debian's clang-15/16, `-x hip --cuda-device-only -nogpulib
 *     -nogpuinc`, code object v5 (no HIP headers, no device libraries:
 *     Debian's rocm-device-libs 5.2.3 has no gfx11 ISA library).  Indices and
 *     sizes come from clang builtins and the v5 implicit (hidden) kernel
 *     arguments; math uses only LLVM intrinsics that lower to instructions.
 *   - NVIDIA: nvcc (tests/numerics builds it as a PyTorch extension), where
 *     the same names map onto CUDA's built-ins.
 * Both builds use the same exp/tanh code (rdc_fb_expf, rdc_fb_tanhf below)
 * so that numerics measured on an NVIDIA card are those of the same
 * arithmetic; only the hardware's float add/mul/fma differ (both IEEE).
 */
#ifndef RDC_FB_PORT_H
#define RDC_FB_PORT_H

#if defined(__CUDACC__) && !defined(__HIP__)
/* ------------------------------------------------------------ nvcc ---- */
#include <cuda_fp16.h>
#include <stdint.h>
#define RDC_FB_NV 1
#define RDC_KERNEL(maxthreads) extern "C" __global__ void __launch_bounds__(maxthreads)
#define RDC_DEV static __device__ __forceinline__
#define RDC_SHARED __shared__
static __device__ __forceinline__ unsigned rdc_tid_x(void) { return threadIdx.x; }
static __device__ __forceinline__ unsigned rdc_tid_y(void) { return threadIdx.y; }
static __device__ __forceinline__ unsigned rdc_tid_z(void) { return threadIdx.z; }
static __device__ __forceinline__ unsigned rdc_bid_x(void) { return blockIdx.x; }
static __device__ __forceinline__ unsigned rdc_bid_y(void) { return blockIdx.y; }
static __device__ __forceinline__ unsigned rdc_bid_z(void) { return blockIdx.z; }
static __device__ __forceinline__ unsigned rdc_nblk_x(void) { return gridDim.x; }
static __device__ __forceinline__ unsigned rdc_nblk_y(void) { return gridDim.y; }
static __device__ __forceinline__ unsigned rdc_nblk_z(void) { return gridDim.z; }
static __device__ __forceinline__ unsigned rdc_bdim_x(void) { return blockDim.x; }
static __device__ __forceinline__ unsigned rdc_bdim_y(void) { return blockDim.y; }
static __device__ __forceinline__ unsigned rdc_bdim_z(void) { return blockDim.z; }
static __device__ __forceinline__ void rdc_barrier(void) { __syncthreads(); }
static __device__ __forceinline__ float rdc_h2f(unsigned short h) { return __half2float(__ushort_as_half(h)); }
static __device__ __forceinline__ float rdc_rint(float x) { return rintf(x); }
static __device__ __forceinline__ float rdc_fma(float a, float b, float c) { return fmaf(a, b, c); }
static __device__ __forceinline__ float rdc_fmax(float a, float b) { return fmaxf(a, b); }
static __device__ __forceinline__ float rdc_fabs(float a) { return fabsf(a); }
static __device__ __forceinline__ float rdc_nan(void) { return __int_as_float(0x7fc00000); }
static __device__ __forceinline__ float rdc_bits2f(unsigned u) { return __uint_as_float(u); }

#elif defined(__AMDGCN__) || defined(__HIP__)
/* ------------------------------------------------- clang, AMDGPU ------ */
typedef unsigned int uint32_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef unsigned long uintptr_t;
#define RDC_FB_AMD 1
#define RDC_KERNEL(maxthreads) \
	extern "C" __attribute__((global)) __attribute__((amdgpu_flat_work_group_size(1, maxthreads))) void
#define RDC_DEV static __attribute__((device)) __attribute__((always_inline)) inline
#define RDC_SHARED __attribute__((shared))
/* Code object v5 implicit arguments (AMDGPUUsage "Code Object V5 Metadata",
 * hidden arguments): block counts at 0/4/8 (u32), group sizes at 12/14/16
 * (u16).  Reading them is what makes the compiler declare the hidden
 * block_count/group_size/remainder/global_offset/grid_dims arguments. */
RDC_DEV const unsigned *rdc_ia32(void)
{
	return (const unsigned *)__builtin_amdgcn_implicitarg_ptr();
}
RDC_DEV const unsigned short *rdc_ia16(void)
{
	return (const unsigned short *)__builtin_amdgcn_implicitarg_ptr();
}
RDC_DEV unsigned rdc_tid_x(void) { return __builtin_amdgcn_workitem_id_x(); }
RDC_DEV unsigned rdc_tid_y(void) { return __builtin_amdgcn_workitem_id_y(); }
RDC_DEV unsigned rdc_tid_z(void) { return __builtin_amdgcn_workitem_id_z(); }
RDC_DEV unsigned rdc_bid_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
RDC_DEV unsigned rdc_bid_y(void) { return __builtin_amdgcn_workgroup_id_y(); }
RDC_DEV unsigned rdc_bid_z(void) { return __builtin_amdgcn_workgroup_id_z(); }
RDC_DEV unsigned rdc_nblk_x(void) { return rdc_ia32()[0]; }
RDC_DEV unsigned rdc_nblk_y(void) { return rdc_ia32()[1]; }
RDC_DEV unsigned rdc_nblk_z(void) { return rdc_ia32()[2]; }
RDC_DEV unsigned rdc_bdim_x(void) { return rdc_ia16()[6]; }
RDC_DEV unsigned rdc_bdim_y(void) { return rdc_ia16()[7]; }
RDC_DEV unsigned rdc_bdim_z(void) { return rdc_ia16()[8]; }
RDC_DEV void rdc_barrier(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
RDC_DEV float rdc_h2f(unsigned short h)
{
	_Float16 f;
	__builtin_memcpy(&f, &h, sizeof f);
	return (float)f;
}
RDC_DEV float rdc_rint(float x) { return __builtin_rintf(x); }
RDC_DEV float rdc_fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
RDC_DEV float rdc_fmax(float a, float b) { return __builtin_fmaxf(a, b); }
RDC_DEV float rdc_fabs(float a) { return __builtin_fabsf(a); }
RDC_DEV float rdc_nan(void) { return __builtin_nanf(""); }
RDC_DEV float rdc_bits2f(unsigned u)
{
	float f;
	__builtin_memcpy(&f, &u, sizeof f);
	return f;
}
#else
#error "fb_port.h: compile with clang -x hip (AMDGPU) or nvcc"
#endif

/* ggml's by-value types, with their sizes and alignments (uint3: 12 bytes,
 * align 4; float2: 8 bytes, align 8). */
struct rdc_fb_u3 {
	unsigned x, y, z;
};
struct __attribute__((aligned(8))) rdc_fb_f2 {
	float x, y;
};

/* e^x, one rounding of the argument reduction (Cody-Waite, ln2 split in two)
 * and a degree-7 Taylor polynomial on |r| <= ln2/2 (truncation < 6e-9
 * relative): within a few ulp of expf, the same on both vendors.  Below
 * -103 the result is 0 (flush), above 88.7 +inf, NaN stays NaN. */
RDC_DEV float rdc_fb_expf(float x)
{
	if (x != x)
		return x;
	if (x < -103.0f)
		return 0.0f;
	if (x > 88.72283f)
		return rdc_bits2f(0x7f800000u);
	const float k = rdc_rint(x * 1.44269504088896341f);
	float r = rdc_fma(k, -0.693145751953125f, x);
	r = rdc_fma(k, -1.428606765330187e-06f, r);
	float p = 1.0f / 5040.0f;
	p = rdc_fma(p, r, 1.0f / 720.0f);
	p = rdc_fma(p, r, 1.0f / 120.0f);
	p = rdc_fma(p, r, 1.0f / 24.0f);
	p = rdc_fma(p, r, 1.0f / 6.0f);
	p = rdc_fma(p, r, 0.5f);
	p = rdc_fma(p, r, 1.0f);
	p = rdc_fma(p, r, 1.0f);
	int ki = (int)k;
	/* 2^k in two factors so that k down to -149 and up to 128 stay exact */
	int k1 = ki / 2, k2 = ki - k1;
	return p * rdc_bits2f((unsigned)(k1 + 127) << 23) * rdc_bits2f((unsigned)(k2 + 127) << 23);
}

/* tanh from rdc_fb_expf: 1 - 2/(e^{2|x|} + 1) with the sign restored; the
 * cancellation near 0 costs relative accuracy below |x| ~ 1e-2 but the
 * absolute error stays ~1e-7, which is what a logit needs. */
RDC_DEV float rdc_fb_tanhf(float x)
{
	const float a = rdc_fabs(x);
	if (a < 1e-4f)
		return x;
	const float t = a > 10.0f ? 1.0f : 1.0f - 2.0f / (rdc_fb_expf(2.0f * a) + 1.0f);
	return x < 0.0f ? -t : t;
}

#endif
