// SPDX-License-Identifier: MIT
// sim_iota.hip — a real HIP program for the simulated-GPU tests: prints the
// devices, round-trips bytes through device memory with hipMemcpy and
// hipMemcpy2D (SDMA on the simulator, so the bytes must come back), and launches two kernels
// (fill_iota, scale_add) whose results are compared with a CPU reference
// (the simulator executes them; with RDNACOMPAT_SIM_EXEC=0 it only retires
// them, and the comparison is skipped, said on stdout).  Usage:
// sim_iota [DEVICE [fork] [no2d] [small]]; "fork": after the copies, a child
// that never touches the GPU is forked and exits normally (static destructors
// run); "no2d": skip the 2D copies; "small": 4096 elements instead of 65536
// (under valgrind, where the simulator runs the kernels some 50 times slower).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__global__ void fill_iota(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = i;
}

__global__ void scale_add(float *y, const float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

#define CHECK(x)                                                                      \
	do {                                                                          \
		hipError_t e_ = (x);                                                  \
		if (e_ != hipSuccess) {                                               \
			fprintf(stderr, "%s failed: %s\n", #x, hipGetErrorString(e_)); \
			return 1;                                                     \
		}                                                                     \
	} while (0)

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* lines reach a pipe even if a GPU exception aborts */
	int n_dev = 0;
	CHECK(hipGetDeviceCount(&n_dev));
	for (int d = 0; d < n_dev; d++) {
		hipDeviceProp_t p;
		CHECK(hipGetDeviceProperties(&p, d));
		printf("device %d: %s gcnArchName=%s CUs=%d\n", d, p.name, p.gcnArchName,
		       p.multiProcessorCount);
	}
	if (n_dev >= 2) { /* peer access and a device-to-device copy across GPUs */
		int can = -1, a[1024], r[1024], *p0, *p1;
		CHECK(hipDeviceCanAccessPeer(&can, 0, 1));
		for (int i = 0; i < 1024; i++)
			a[i] = i * 3 + 1;
		CHECK(hipSetDevice(0));
		CHECK(hipMalloc(&p0, sizeof a));
		CHECK(hipMemcpy(p0, a, sizeof a, hipMemcpyHostToDevice));
		CHECK(hipSetDevice(1));
		CHECK(hipMalloc(&p1, sizeof a));
		CHECK(hipMemcpyPeer(p1, 1, p0, 0, sizeof a));
		CHECK(hipMemcpy(r, p1, sizeof r, hipMemcpyDeviceToHost));
		printf("peer 0->1: %d, peer copy: %s\n", can, memcmp(a, r, sizeof a) ? "MISMATCH" : "ok");
		CHECK(hipFree(p1));
		CHECK(hipSetDevice(0));
		CHECK(hipFree(p0));
	}
	int dev = argc > 1 ? atoi(argv[1]) : 0;
	CHECK(hipSetDevice(dev));
	bool small = false;
	for (int a = 2; a < argc; a++)
		small |= !strcmp(argv[a], "small");
	const int n = small ? 1 << 12 : 1 << 16;
	size_t bytes = n * sizeof(int);
	int *h = (int *)malloc(bytes), *back = (int *)malloc(bytes);
	for (int i = 0; i < n; i++)
		h[i] = i * 2654435761u;
	memset(back, 0, bytes);
	int *d_p;
	float *d_x, *d_y;
	CHECK(hipMalloc(&d_p, bytes));
	CHECK(hipMalloc(&d_x, n * sizeof(float)));
	CHECK(hipMalloc(&d_y, n * sizeof(float)));
	CHECK(hipMemcpy(d_p, h, bytes, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(back, d_p, bytes, hipMemcpyDeviceToHost));
	int bad = memcmp(h, back, bytes) != 0;
	printf("memcpy round trip: %s\n", bad ? "MISMATCH" : "ok");

	bool do_fork = false, do_2d = true;
	for (int a = 2; a < argc; a++) {
		do_fork |= !strcmp(argv[a], "fork");
		do_2d &= strcmp(argv[a], "no2d") != 0;
	}
	/* 2D copies with pinned host memory: SDMA COPY_LINEAR_RECT packets. */
	const int W = 100, H = 37;
	if (do_2d) {
	size_t dpitch;
	unsigned char *h2, *back2, *d2;
	CHECK(hipHostMalloc((void **)&h2, 256 * H, 0));
	CHECK(hipHostMalloc((void **)&back2, 256 * H, 0));
	for (int i = 0; i < 256 * H; i++)
		h2[i] = (unsigned char)(i * 13 + 7);
	memset(back2, 0, 256 * H);
	CHECK(hipMallocPitch((void **)&d2, &dpitch, W, H));
	CHECK(hipMemcpy2D(d2, dpitch, h2, 256, W, H, hipMemcpyHostToDevice));
	CHECK(hipMemcpy2D(back2, 200, d2, dpitch, W, H, hipMemcpyDeviceToHost));
	int bad2 = 0;
	for (int y = 0; y < H; y++)
		bad2 |= memcmp(h2 + y * 256, back2 + y * 200, W) != 0;
	printf("memcpy2D round trip: %s\n", bad2 ? "MISMATCH" : "ok");
	bad |= bad2;
	CHECK(hipFree(d2));
	CHECK(hipHostFree(h2));
	CHECK(hipHostFree(back2));
	}
	if (do_fork) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0)
			exit(0);
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "forked child failed (status 0x%x)\n", st);
			return 1;
		}
		printf("fork: child exited cleanly\n");
	}
	float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
	for (int i = 0; i < n; i++) {
		hx[i] = (float)(i % 977) * 0.25f - 100.0f;
		hy[i] = (float)(i % 131) * -1.5f;
	}
	CHECK(hipMemcpy(d_x, hx, n * sizeof(float), hipMemcpyHostToDevice));
	CHECK(hipMemcpy(d_y, hy, n * sizeof(float), hipMemcpyHostToDevice));
	hipLaunchKernelGGL(fill_iota, dim3(n / 256), dim3(256), 0, 0, d_p, n);
	hipLaunchKernelGGL(scale_add, dim3(n / 128), dim3(128), 0, 0, d_y, d_x, 2.5f, n);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	const char *ex = getenv("RDNACOMPAT_SIM_EXEC");
	if (ex && !strcmp(ex, "0")) {
		printf("kernels: not executed (RDNACOMPAT_SIM_EXEC=0), results not compared\n");
	} else {
		float *gy = (float *)malloc(n * sizeof(float));
		CHECK(hipMemcpy(back, d_p, bytes, hipMemcpyDeviceToHost));
		CHECK(hipMemcpy(gy, d_y, n * sizeof(float), hipMemcpyDeviceToHost));
		int wrong_i = 0, wrong_y = 0;
		for (int i = 0; i < n; i++) {
			wrong_i += back[i] != i;
			wrong_y += gy[i] != 2.5f * hx[i] + hy[i];
		}
		printf("kernels: fill_iota %s, scale_add %s (%d elements, CPU reference)\n",
		       wrong_i ? "WRONG" : "ok", wrong_y ? "WRONG" : "ok", n);
		if (wrong_i || wrong_y)
			fprintf(stderr, "fill_iota: %d wrong (first: p[1]=%d), scale_add: %d wrong (y[1]=%g, want %g)\n",
				wrong_i, back[1], wrong_y, gy[1], 2.5f * hx[1] + hy[1]);
		bad |= wrong_i || wrong_y;
		free(gy);
	}
	free(hx);
	free(hy);
	CHECK(hipFree(d_p));
	CHECK(hipFree(d_x));
	CHECK(hipFree(d_y));
	free(h);
	free(back);
	printf("done\n");
	return bad;
}
