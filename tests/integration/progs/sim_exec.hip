// SPDX-License-Identifier: MIT
// sim_exec.hip — kernels for the execution engine's integration test
// (21-sim-exec.sh), each checked against a CPU reference computed here:
//   check   all checks below, one "ok NAME" / "FAIL NAME ..." line each;
//           exit 0 when all pass
//   oob     a kernel that writes outside every allocation (a GPU memory fault)
//   trap    a kernel that executes __builtin_trap()
//   spin    workgroup 0 waits for a flag that workgroup 1 sets (a kernel that
//           depends on workgroups running concurrently)
//   uniform float arithmetic on kernel arguments (uniform values: on
//           gfx1150/gfx1151 clang computes them with the scalar float
//           instructions), exact values; prints "uniform: ok" or what differs
//   queue   the queue pointer and dispatch id the command processor gives a
//           kernel: the hsa_queue_t's ring must hold the kernel's own
//           dispatch packet, its read index must be this packet's, and
//           ROCR's read_dispatch_id_field_base_byte_offset must be 128;
//           prints "queue: ok" or what differs, exit 0 / 1
// Checks: 2D/3D grids with partial workgroups (workgroup and work-item ids),
// an LDS tree reduction with barriers, warp shuffles (ds_bpermute / DPP),
// dynamic LDS, private memory (a dynamically indexed local array), global
// atomics from many workgroups, f32/f64 math (div, sqrt, exp, sin) against
// libm with tolerances, integer division and 64-bit arithmetic.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                        \
	do {                                                                         \
		hipError_t e_ = (x);                                                 \
		if (e_ != hipSuccess) {                                              \
			fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_));      \
			exit(2);                                                     \
		}                                                                    \
	} while (0)

__global__ void ids3d(int *out, int nx, int ny, int nz)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z * blockDim.z + threadIdx.z;
	if (x < nx && y < ny && z < nz)
		out[(z * ny + y) * nx + x] = x * 10000 + y * 100 + z + (int)(threadIdx.x + threadIdx.y + threadIdx.z);
}

__global__ void reduce(const float *in, float *out, int n)
{
	__shared__ float t[256];
	int l = threadIdx.x, i = blockIdx.x * 256 + l;
	t[l] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int s = 128; s > 0; s >>= 1) {
		if (l < s)
			t[l] += t[l + s];
		__syncthreads();
	}
	if (l == 0)
		out[blockIdx.x] = t[0];
}

__global__ void shuffles(const int *in, int *out)
{
	int l = threadIdx.x, v = in[blockIdx.x * blockDim.x + l];
	int sum = v;
	for (int m = 1; m < warpSize; m <<= 1)
		sum += __shfl_xor(sum, m);
	int up = __shfl_up(v, 1), down = __shfl_down(v, 3), bc = __shfl(v, 5);
	out[(blockIdx.x * blockDim.x + l) * 4 + 0] = sum;
	out[(blockIdx.x * blockDim.x + l) * 4 + 1] = up;
	out[(blockIdx.x * blockDim.x + l) * 4 + 2] = down;
	out[(blockIdx.x * blockDim.x + l) * 4 + 3] = bc;
}

/* The wave size this code object was built for (wave64 with
 * -mwavefrontsize64 on gfx11; the runtime's attribute says the card's
 * default, 32). */
__global__ void wavesize(int *out) { *out = warpSize; }

__global__ void dynlds(const int *in, int *out, int n)
{
	extern __shared__ int buf[];
	int l = threadIdx.x;
	buf[l] = in[blockIdx.x * n + l];
	__syncthreads();
	out[blockIdx.x * n + l] = buf[n - 1 - l] * 3;
}

__global__ void privmem(const int *idx, int *out)
{
	int a[48];
	int l = blockIdx.x * blockDim.x + threadIdx.x;
	for (int k = 0; k < 48; k++)
		a[k] = k * k + l;
	int s = 0;
	for (int k = 0; k < 8; k++)
		s += a[(idx[l] + k * 5) % 48];
	out[l] = s;
}

__global__ void atomics(int *counter, unsigned *maxv, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		atomicAdd(counter, i % 7);
		atomicMax(maxv, (unsigned)(i * 2654435761u));
	}
}

__global__ void fmath(const float *x, float *f, double *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	f[i * 4 + 0] = v / (v * 0.5f + 3.0f);
	f[i * 4 + 1] = sqrtf(fabsf(v));
	f[i * 4 + 2] = expf(v * 0.01f);
	f[i * 4 + 3] = sinf(v * 0.1f);
	double w = (double)v;
	d[i * 2 + 0] = w / (w * w + 1.0);
	d[i * 2 + 1] = sqrt(fabs(w) + 2.0);
}

__global__ void intmath(const int *a, long long *o, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = a[i], q = v / 7, r = v % 13;
	unsigned long long big = (unsigned long long)(unsigned)v * 0x9E3779B97F4A7C15ull;
	o[i * 3 + 0] = q;
	o[i * 3 + 1] = r;
	o[i * 3 + 2] = (long long)(big >> 7);
}

__global__ void oob(int *p)
{
	p[threadIdx.x + (1ull << 40) / 4] = 1; /* 1 TiB past the allocation */
}

__global__ void trap(int *p)
{
	if (p[0] == 0)
		__builtin_trap();
	p[1] = 1;
}

__global__ void uniform(float a, float b, int i, unsigned u, float *o)
{
	float p = a * b;
	float r[8] = { p + a, p - b, fminf(a, b), fmaxf(a, b), floorf(p), ceilf(p), (float)i, (float)u };
	r[0] += a < b ? 100.0f : 0.0f;
	r[1] += a == b ? 1000.0f : 0.0f;
	if (threadIdx.x < 8)
		o[threadIdx.x] = r[threadIdx.x] + (float)(int)(p * 4.0f);
}

static int check_uniform(void)
{
	float *d, h[8];
	const float a = 1.5f, b = 2.25f;
	CK(hipMalloc(&d, sizeof h));
	hipLaunchKernelGGL(uniform, dim3(1), dim3(32), 0, 0, a, b, -7, 9u, d);
	CK(hipDeviceSynchronize());
	CK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
	CK(hipFree(d));
	/* every value exact in f32: a*b = 3.375, (int)(4 * 3.375) = 13 */
	const float want[8] = { 3.375f + 1.5f + 100.0f + 13, 3.375f - 2.25f + 13, 1.5f + 13, 2.25f + 13, 3.0f + 13,
				4.0f + 13, -7.0f + 13, 9.0f + 13 };
	int bad = 0;
	for (int k = 0; k < 8; k++)
		if (h[k] != want[k]) {
			printf("uniform: o[%d] = %g, want %g\n", k, h[k], want[k]);
			bad = 1;
		}
	printf("uniform: %s\n", bad ? "FAIL" : "ok");
	return bad;
}

/* hsa_queue_t / amd_queue_t fields (hsa.h, amd_hsa_queue.h): base_address
 * at 8, size (packets) at 24, read_dispatch_id at 128, its field's offset
 * at 136. */
/* No clang builtin before LLVM 20: the intrinsic by its name. */
extern "C" __device__ unsigned long long dispatch_id(void) __asm("llvm.amdgcn.dispatch.id");

__global__ void queue(unsigned long long *o)
{
	const char *q = (const char *)__builtin_amdgcn_queue_ptr();
	o[0] = (unsigned long long)q;
	o[1] = (unsigned long long)__builtin_amdgcn_dispatch_ptr();
	o[2] = dispatch_id();
	if (!q)
		return;
	o[3] = *(const unsigned long long *)(q + 8);
	o[4] = *(const unsigned *)(q + 24);
	o[5] = *(const volatile unsigned long long *)(q + 128);
	o[6] = *(const unsigned *)(q + 136);
}

static int check_queue(void)
{
	unsigned long long *d, h[8] = { 0 };
	CK(hipMalloc(&d, sizeof h));
	CK(hipMemset(d, 0, sizeof h));
	hipLaunchKernelGGL(queue, dim3(1), dim3(1), 0, 0, d);
	CK(hipDeviceSynchronize());
	CK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
	unsigned long long qp = h[0], pkt = h[1], id = h[2], base = h[3], size = h[4], rd = h[5], off = h[6];
	printf("queue: queue_ptr 0x%llx, ring 0x%llx (%llu packets), packet 0x%llx, dispatch id %llu, "
	       "read index %llu, read_dispatch_id at %llu\n", qp, base, size, pkt, id, rd, off);
	const char *bad = !qp ? "the queue pointer is 0"
			  : qp % 64 ? "the queue pointer is not 64-byte aligned"
			  : !size || (size & (size - 1)) ? "the ring size is not a power of two"
			  : pkt < base || pkt >= base + size * 64 || (pkt - base) % 64 ? "the ring does not hold the dispatch packet"
			  : off != 128 ? "read_dispatch_id_field_base_byte_offset is not 128"
			  : rd % size != (pkt - base) / 64 ? "the read index is not this packet's"
			  : id != rd ? "the dispatch id is not the packet's index"
			  : NULL;
	printf("queue: %s\n", bad ? bad : "ok");
	CK(hipFree(d));
	return bad != NULL;
}

__global__ void spin(volatile int *flag, int *out)
{
	if (blockIdx.x == 0) {
		while (*flag == 0) {
		}
		out[0] = 1;
	} else if (threadIdx.x == 0) {
		*flag = 1;
	}
}

static int failures;
static void report(const char *name, int bad, const char *detail)
{
	if (bad) {
		printf("FAIL %s: %s\n", name, detail);
		failures++;
	} else {
		printf("ok %s\n", name);
	}
}

static bool close_f(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fmax(1.0, fabs(b));
}

static void check(void)
{
	char msg[256];
	/* 3D grid with partial workgroups at every edge */
	{
		const int nx = 37, ny = 11, nz = 5, N = nx * ny * nz;
		int *d, *h = (int *)malloc(N * sizeof(int));
		CK(hipMalloc(&d, N * sizeof(int)));
		CK(hipMemset(d, 0xff, N * sizeof(int)));
		hipLaunchKernelGGL(ids3d, dim3(5, 3, 2), dim3(8, 4, 3), 0, 0, d, nx, ny, nz);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(h, d, N * sizeof(int), hipMemcpyDeviceToHost));
		int bad = 0;
		for (int z = 0; z < nz; z++)
			for (int y = 0; y < ny; y++)
				for (int x = 0; x < nx; x++) {
					int want = x * 10000 + y * 100 + z + x % 8 + y % 4 + z % 3;
					if (h[(z * ny + y) * nx + x] != want && !bad++)
						snprintf(msg, sizeof msg, "(%d,%d,%d) = %d, want %d", x, y, z,
							 h[(z * ny + y) * nx + x], want);
				}
		report("ids3d", bad, msg);
		CK(hipFree(d));
		free(h);
	}
	/* LDS reduction with barriers */
	{
		const int n = 256 * 40 - 17, nb = 40;
		float *hi = (float *)malloc(n * sizeof(float)), ho[40], *di, *dout;
		for (int i = 0; i < n; i++)
			hi[i] = (float)((i * 37) % 101) - 50.0f;
		CK(hipMalloc(&di, n * sizeof(float)));
		CK(hipMalloc(&dout, nb * sizeof(float)));
		CK(hipMemcpy(di, hi, n * sizeof(float), hipMemcpyHostToDevice));
		hipLaunchKernelGGL(reduce, dim3(nb), dim3(256), 0, 0, di, dout, n);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(ho, dout, sizeof ho, hipMemcpyDeviceToHost));
		int bad = 0;
		for (int b = 0; b < nb; b++) {
			double want = 0;
			for (int l = 0; l < 256 && b * 256 + l < n; l++)
				want += hi[b * 256 + l];
			if (ho[b] != (float)want && !bad++)
				snprintf(msg, sizeof msg, "block %d: %g, want %g", b, ho[b], want);
		}
		report("reduce", bad, msg);
		CK(hipFree(di));
		CK(hipFree(dout));
		free(hi);
	}
	/* shuffles across the wave */
	{
		int ws = 0, *dws;
		CK(hipMalloc(&dws, sizeof ws));
		hipLaunchKernelGGL(wavesize, dim3(1), dim3(1), 0, 0, dws);
		CK(hipMemcpy(&ws, dws, sizeof ws, hipMemcpyDeviceToHost));
		CK(hipFree(dws));
		if (ws != 32 && ws != 64) {
			int attr = 0;
			CK(hipDeviceGetAttribute(&attr, hipDeviceAttributeWarpSize, 0));
			printf("wave size: the kernel says %d (the runtime %d)\n", ws, attr);
			ws = attr;   /* the shuffle check then fails and says why */
		}
		printf("wave size: %d\n", ws);
		const int nb = 3, n = nb * 64;
		int hi[n], ho[n * 4], *di, *dout;
		for (int i = 0; i < n; i++)
			hi[i] = i * 3 + 1;
		CK(hipMalloc(&di, sizeof hi));
		CK(hipMalloc(&dout, sizeof ho));
		CK(hipMemcpy(di, hi, sizeof hi, hipMemcpyHostToDevice));
		hipLaunchKernelGGL(shuffles, dim3(nb), dim3(64), 0, 0, di, dout);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(ho, dout, sizeof ho, hipMemcpyDeviceToHost));
		int bad = 0;
		for (int i = 0; i < n; i++) {
			int w0 = i / ws * ws, l = i % ws, sum = 0;
			for (int k = 0; k < ws; k++)
				sum += hi[w0 + k];
			int up = l >= 1 ? hi[i - 1] : hi[i], down = l + 3 < ws ? hi[i + 3] : hi[i], bc = hi[w0 + 5];
			if ((ho[i * 4] != sum || ho[i * 4 + 1] != up || ho[i * 4 + 2] != down || ho[i * 4 + 3] != bc) &&
			    !bad++)
				snprintf(msg, sizeof msg, "lane %d (wave size %d): %d %d %d %d, want %d %d %d %d", i, ws,
					 ho[i * 4], ho[i * 4 + 1], ho[i * 4 + 2], ho[i * 4 + 3], sum, up, down, bc);
		}
		report("shuffles", bad, msg);
		CK(hipFree(di));
		CK(hipFree(dout));
	}
	/* dynamic LDS */
	{
		const int n = 96, nb = 4;
		int hi[n * nb], ho[n * nb], *di, *dout;
		for (int i = 0; i < n * nb; i++)
			hi[i] = i ^ 0x55;
		CK(hipMalloc(&di, sizeof hi));
		CK(hipMalloc(&dout, sizeof ho));
		CK(hipMemcpy(di, hi, sizeof hi, hipMemcpyHostToDevice));
		hipLaunchKernelGGL(dynlds, dim3(nb), dim3(n), n * sizeof(int), 0, di, dout, n);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(ho, dout, sizeof ho, hipMemcpyDeviceToHost));
		int bad = 0;
		for (int b = 0; b < nb; b++)
			for (int l = 0; l < n; l++)
				if (ho[b * n + l] != hi[b * n + n - 1 - l] * 3 && !bad++)
					snprintf(msg, sizeof msg, "block %d lane %d", b, l);
		report("dynlds", bad, msg);
		CK(hipFree(di));
		CK(hipFree(dout));
	}
	/* private memory */
	{
		const int n = 128;
		int hi[n], ho[n], *di, *dout;
		for (int i = 0; i < n; i++)
			hi[i] = (i * 11) % 48;
		CK(hipMalloc(&di, sizeof hi));
		CK(hipMalloc(&dout, sizeof ho));
		CK(hipMemcpy(di, hi, sizeof hi, hipMemcpyHostToDevice));
		hipLaunchKernelGGL(privmem, dim3(2), dim3(64), 0, 0, di, dout);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(ho, dout, sizeof ho, hipMemcpyDeviceToHost));
		int bad = 0;
		for (int l = 0; l < n; l++) {
			int s = 0;
			for (int k = 0; k < 8; k++) {
				int j = (hi[l] + k * 5) % 48;
				s += j * j + l;
			}
			if (ho[l] != s && !bad++)
				snprintf(msg, sizeof msg, "lane %d: %d, want %d", l, ho[l], s);
		}
		report("privmem", bad, msg);
		CK(hipFree(di));
		CK(hipFree(dout));
	}
	/* global atomics from many workgroups */
	{
		const int n = 100000;
		int *dc, hc = 0;
		unsigned *dm, hm = 0, wantm = 0;
		long long wantc = 0;
		CK(hipMalloc(&dc, sizeof(int)));
		CK(hipMalloc(&dm, sizeof(unsigned)));
		CK(hipMemset(dc, 0, sizeof(int)));
		CK(hipMemset(dm, 0, sizeof(unsigned)));
		hipLaunchKernelGGL(atomics, dim3((n + 255) / 256), dim3(256), 0, 0, dc, dm, n);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(&hc, dc, sizeof hc, hipMemcpyDeviceToHost));
		CK(hipMemcpy(&hm, dm, sizeof hm, hipMemcpyDeviceToHost));
		for (int i = 0; i < n; i++) {
			wantc += i % 7;
			unsigned v = (unsigned)(i * 2654435761u);
			wantm = v > wantm ? v : wantm;
		}
		snprintf(msg, sizeof msg, "sum %d want %lld, max %u want %u", hc, wantc, hm, wantm);
		report("atomics", hc != wantc || hm != wantm, msg);
		CK(hipFree(dc));
		CK(hipFree(dm));
	}
	/* float math */
	{
		const int n = 300;
		float hx[n], hf[n * 4], *dx, *df;
		double hd[n * 2], *dd;
		for (int i = 0; i < n; i++)
			hx[i] = (float)(i - 150) * 1.37f;
		CK(hipMalloc(&dx, sizeof hx));
		CK(hipMalloc(&df, sizeof hf));
		CK(hipMalloc(&dd, sizeof hd));
		CK(hipMemcpy(dx, hx, sizeof hx, hipMemcpyHostToDevice));
		hipLaunchKernelGGL(fmath, dim3(2), dim3(256), 0, 0, dx, df, dd, n);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(hf, df, sizeof hf, hipMemcpyDeviceToHost));
		CK(hipMemcpy(hd, dd, sizeof hd, hipMemcpyDeviceToHost));
		int bad = 0;
		for (int i = 0; i < n && !bad; i++) {
			double v = hx[i], w = v;
			double want[4] = { v / (v * 0.5 + 3.0), sqrt(fabs(v)), exp(v * 0.01), sin(v * 0.1) };
			for (int k = 0; k < 4; k++)
				if (!close_f(hf[i * 4 + k], want[k], 4e-6) && !bad++)
					snprintf(msg, sizeof msg, "f32 op %d at %g: %.9g, want %.9g", k, v, hf[i * 4 + k], want[k]);
			if (!bad && (!close_f(hd[i * 2], w / (w * w + 1.0), 1e-15) || !close_f(hd[i * 2 + 1], sqrt(fabs(w) + 2.0), 1e-15)))
				snprintf(msg, sizeof msg, "f64 at %g: %.17g %.17g", w, hd[i * 2], hd[i * 2 + 1]), bad++;
		}
		report("fmath", bad, msg);
		CK(hipFree(dx));
		CK(hipFree(df));
		CK(hipFree(dd));
	}
	/* integer division, modulo, 64-bit multiply/shift */
	{
		const int n = 200;
		int ha[n], *da;
		long long ho[n * 3], *dout;
		for (int i = 0; i < n; i++)
			ha[i] = (i - 100) * 99991 + (i & 1 ? 7 : -3);
		CK(hipMalloc(&da, sizeof ha));
		CK(hipMalloc(&dout, sizeof ho));
		CK(hipMemcpy(da, ha, sizeof ha, hipMemcpyHostToDevice));
		hipLaunchKernelGGL(intmath, dim3(1), dim3(256), 0, 0, da, dout, n);
		CK(hipDeviceSynchronize());
		CK(hipMemcpy(ho, dout, sizeof ho, hipMemcpyDeviceToHost));
		int bad = 0;
		for (int i = 0; i < n; i++) {
			unsigned long long big = (unsigned long long)(unsigned)ha[i] * 0x9E3779B97F4A7C15ull;
			if ((ho[i * 3] != ha[i] / 7 || ho[i * 3 + 1] != ha[i] % 13 || ho[i * 3 + 2] != (long long)(big >> 7)) &&
			    !bad++)
				snprintf(msg, sizeof msg, "%d: %lld %lld %lld", ha[i], ho[i * 3], ho[i * 3 + 1], ho[i * 3 + 2]);
		}
		report("intmath", bad, msg);
		CK(hipFree(da));
		CK(hipFree(dout));
	}
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "check";
	int *d;
	CK(hipMalloc(&d, 4096));
	CK(hipMemset(d, 0, 4096));
	if (!strcmp(what, "check")) {
		check();
		printf("%s\n", failures ? "some checks failed" : "all checks passed");
		return failures != 0;
	}
	if (!strcmp(what, "queue"))
		return check_queue();
	if (!strcmp(what, "uniform"))
		return check_uniform();
	if (!strcmp(what, "oob"))
		hipLaunchKernelGGL(oob, dim3(1), dim3(32), 0, 0, d);
	else if (!strcmp(what, "trap"))
		hipLaunchKernelGGL(trap, dim3(1), dim3(32), 0, 0, d);
	else if (!strcmp(what, "spin"))
		hipLaunchKernelGGL(spin, dim3(2), dim3(64), 0, 0, (volatile int *)d, d + 16);
	else
		return 2;
	hipError_t e = hipDeviceSynchronize();
	printf("%s: returned %s\n", what, hipGetErrorString(e));
	return 3;
}
