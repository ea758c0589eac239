// SPDX-License-Identifier: MIT
// exec_speed.hip — kernels for bench/exec-speed.sh: how fast the simulator's
// execution engine runs RDNA code.  Three kernels, each timed around its own
// hipDeviceSynchronize (host wall clock; the simulator executes the
// dispatch inside that wait):
//   alu  — a chain of dependent FMAs per work-item (VALU-bound)
//   lds  — LDS stores/loads with barriers, a tree reduction (LDS-bound)
//   mem  — a streaming copy with one add (memory-bound)
// Each kernel's result is checked against a CPU reference, so the timing is
// of work that was done.  Prints: name seconds checked.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void alu(float *out, int iters)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float a = (float)(i & 255) * 0.001f, b = 1.0001f, c = 0.25f;
	for (int k = 0; k < iters; k++) {
		a = fmaf(a, b, c);
		c = fmaf(c, 0.5f, a * 1e-6f);
	}
	out[i] = a + c;
}

__global__ void lds(float *out, int iters)
{
	__shared__ float t[256];
	int l = threadIdx.x;
	float acc = 0.0f;
	for (int k = 0; k < iters; k++) {
		t[l] = (float)(l + k);
		__syncthreads();
		for (int s = 128; s > 0; s >>= 1) {
			if (l < s)
				t[l] += t[l + s];
			__syncthreads();
		}
		acc += t[0];
		__syncthreads();
	}
	if (l == 0)
		out[blockIdx.x] = acc;
}

__global__ void mem(float *dst, const float *src, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		dst[i] = src[i] + 1.0f;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CK(x) do { if ((x) != hipSuccess) { fprintf(stderr, "%s failed\n", #x); return 1; } } while (0)

int main(void)
{
	const int nalu = 64 * 256, iters = 256, nlds = 64, liters = 16, nmem = 1 << 20;
	float *d_a, *d_l, *d_s, *d_d;
	CK(hipMalloc(&d_a, nalu * sizeof(float)));
	CK(hipMalloc(&d_l, nlds * sizeof(float)));
	CK(hipMalloc(&d_s, nmem * sizeof(float)));
	CK(hipMalloc(&d_d, nmem * sizeof(float)));
	float *h = (float *)malloc(nmem * sizeof(float)), *r = (float *)malloc(nmem * sizeof(float));
	for (int i = 0; i < nmem; i++)
		h[i] = (float)(i % 1000);
	CK(hipMemcpy(d_s, h, nmem * sizeof(float), hipMemcpyHostToDevice));
	/* warm-up: code decoded once */
	hipLaunchKernelGGL(alu, dim3(1), dim3(256), 0, 0, d_a, 1);
	CK(hipDeviceSynchronize());

	double t0 = now();
	hipLaunchKernelGGL(alu, dim3(nalu / 256), dim3(256), 0, 0, d_a, iters);
	CK(hipDeviceSynchronize());
	double t_alu = now() - t0;
	CK(hipMemcpy(r, d_a, nalu * sizeof(float), hipMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < nalu; i++) {
		float a = (float)(i & 255) * 0.001f, b = 1.0001f, c = 0.25f;
		for (int k = 0; k < iters; k++) {
			a = fmaf(a, b, c);
			c = fmaf(c, 0.5f, a * 1e-6f);
		}
		bad += fabsf(r[i] - (a + c)) > 1e-3f * fabsf(a + c);
	}
	printf("alu %.4f %s\n", t_alu, bad ? "WRONG" : "ok");

	t0 = now();
	hipLaunchKernelGGL(lds, dim3(nlds), dim3(256), 0, 0, d_l, liters);
	CK(hipDeviceSynchronize());
	double t_lds = now() - t0;
	CK(hipMemcpy(r, d_l, nlds * sizeof(float), hipMemcpyDeviceToHost));
	double want = 0;
	for (int k = 0; k < liters; k++)
		want += 256.0 * 255.0 / 2.0 + 256.0 * k;
	bad = 0;
	for (int b = 0; b < nlds; b++)
		bad += r[b] != (float)want;
	printf("lds %.4f %s\n", t_lds, bad ? "WRONG" : "ok");

	t0 = now();
	hipLaunchKernelGGL(mem, dim3(256), dim3(256), 0, 0, d_d, d_s, nmem);
	CK(hipDeviceSynchronize());
	double t_mem = now() - t0;
	CK(hipMemcpy(r, d_d, nmem * sizeof(float), hipMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < nmem; i++)
		bad += r[i] != h[i] + 1.0f;
	printf("mem %.4f %s\n", t_mem, bad ? "WRONG" : "ok");
	return 0;
}
