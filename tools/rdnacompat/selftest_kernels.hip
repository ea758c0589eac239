// SPDX-License-Identifier: MIT
//
// selftest_kernels.hip — the kernels of `rdnacompat doctor --selftest`
// (selftest.c, docs/SIMGPU.md "The self-test"): small numeric checks whose results the tool
// compares with CPU references.  Built by selftest-bundle.sh with Debian's
// clang (no HIP headers, no device libraries) for gfx1030 and gfx1100 into
// one offload bundle embedded in the tool as rdc_selftest_bundle.
//
// Every kernel is launched with 256-thread blocks along x (ST_BLOCK) and
// computes its global index from the workgroup id, so it reads no implicit
// argument and the same source works as code object v4 and v5.
//
// RDC_SELFTEST_WRONG (tests only) builds a deliberately bad code object the
// self-test must catch: saxpy computes a*x - y (a wrong result), intops never
// ends (a hang), reduce traps (a crash).

typedef unsigned int u32;
#define ST_BLOCK 256
#define KERNEL extern "C" __attribute__((global)) __attribute__((amdgpu_flat_work_group_size(1, ST_BLOCK))) void
#define DEV static __attribute__((device)) __attribute__((always_inline)) inline
#define SHARED __attribute__((shared))

DEV int gid(void)
{
	return (int)(__builtin_amdgcn_workgroup_id_x() * ST_BLOCK + __builtin_amdgcn_workitem_id_x());
}

DEV void barrier(void)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// y[i] = a*x[i] + y[i]
KERNEL rdc_st_saxpy(float a, const float *x, float *y, int n)
{
	const int i = gid();
	if (i < n) {
#ifdef RDC_SELFTEST_WRONG
		y[i] = a * x[i] - y[i];
#else
		y[i] = a * x[i] + y[i];
#endif
	}
}

// Six results per element: low 32 bits of a*b, a << (b & 31), a >> (b & 31)
// arithmetic, (unsigned)a >> (b & 31), min(a, b), max(a, b) (signed).
KERNEL rdc_st_intops(const int *a, const int *b, int *out, int n)
{
	const int i = gid();
#ifdef RDC_SELFTEST_WRONG
	// always true, but two volatile loads the compiler must keep doing
	while (*(volatile const int *)&a[0] != 0 || *(volatile const int *)&a[0] == 0)
		;
#endif
	if (i < n) {
		const int x = a[i], y = b[i];
		const u32 s = (u32)y & 31u;
		out[6 * i + 0] = (int)((u32)x * (u32)y);
		out[6 * i + 1] = (int)((u32)x << s);
		out[6 * i + 2] = x >> s;
		out[6 * i + 3] = (int)((u32)x >> s);
		out[6 * i + 4] = x < y ? x : y;
		out[6 * i + 5] = x > y ? x : y;
	}
}

// f16: sum[i] = a[i] + b[i] (f16 arithmetic), up[i] = (float)a[i],
// down[i] = (f16)f[i] (round to nearest even).  Halves travel as u16 bits.
KERNEL rdc_st_f16(const unsigned short *a, const unsigned short *b, const float *f, unsigned short *sum,
		  float *up, unsigned short *down, int n)
{
	const int i = gid();
	if (i < n) {
		_Float16 ha, hb;
		__builtin_memcpy(&ha, &a[i], 2);
		__builtin_memcpy(&hb, &b[i], 2);
		const _Float16 hs = ha + hb;
		const _Float16 hd = (_Float16)f[i];
		__builtin_memcpy(&sum[i], &hs, 2);
		__builtin_memcpy(&down[i], &hd, 2);
		up[i] = (float)ha;
	}
}

// Sum of x[0..n) per block into partial[blockIdx.x]: each thread adds a
// strided slice, the wave reduces with ds_bpermute shuffles (lane ^ m), the
// waves' sums meet in LDS behind a barrier, and the first wave reduces them
// with shuffles again.  Wave size as compiled (32 on RDNA by default).
DEV float shfl_xor(float v, int mask)
{
	const int lane = (int)__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
	const int src = lane ^ mask;
	return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(src << 2, __builtin_bit_cast(int, v)));
}

KERNEL rdc_st_reduce(const float *x, float *partial, int n, int per_block)
{
	SHARED float wsum[ST_BLOCK / 32];
#ifdef RDC_SELFTEST_WRONG
	__builtin_trap();
#endif
	const int tid = (int)__builtin_amdgcn_workitem_id_x();
	const int ws = __AMDGCN_WAVEFRONT_SIZE;
	const int base = (int)__builtin_amdgcn_workgroup_id_x() * per_block;
	int end = base + per_block;
	if (end > n)
		end = n;
	float acc = 0.0f;
	for (int i = base + tid; i < end; i += ST_BLOCK)
		acc += x[i];
	for (int m = ws / 2; m > 0; m /= 2)
		acc += shfl_xor(acc, m);
	const int nw = ST_BLOCK / ws;
	if (tid % ws == 0)
		wsum[tid / ws] = acc;
	barrier();
	if (tid < ws) {
		float v = tid < nw ? wsum[tid] : 0.0f;
		for (int m = ws / 2; m > 0; m /= 2)
			v += shfl_xor(v, m);
		if (tid == 0)
			partial[__builtin_amdgcn_workgroup_id_x()] = v;
	}
}
