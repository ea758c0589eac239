// SPDX-License-Identifier: MIT
// sim_stress.hip — thread-safety check for the simulated GPU: T host
// threads per device, each with its own stream, do N rounds of
// H2D copy -> kernel launch -> D2H copy and check the bytes came back
// (SDMA and AQL queues of several devices busy at once; every dispatch
// traced).  Kernels are NOT executed by the simulator: only copies are checked.
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void touch(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += 1;
}

enum { ROUNDS = 20, N = 1 << 14 };
static int failures;

static void *worker(void *arg)
{
	int id = (int)(long)arg, dev = id & 1;
	hipStream_t s;
	int *d = NULL, *h = (int *)malloc(N * sizeof(int)), *back = (int *)malloc(N * sizeof(int));
	int ndev = 0;
	if (hipGetDeviceCount(&ndev) != hipSuccess || hipSetDevice(dev % ndev) != hipSuccess)
		goto bad;
	if (hipStreamCreate(&s) != hipSuccess || hipMalloc(&d, N * sizeof(int)) != hipSuccess)
		goto bad;
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < N; i++)
			h[i] = id * 1000003 + r * 7919 + i;
		memset(back, 0, N * sizeof(int));
		if (hipMemcpyAsync(d, h, N * sizeof(int), hipMemcpyHostToDevice, s) != hipSuccess)
			goto bad;
		hipLaunchKernelGGL(touch, dim3(N / 256), dim3(256), 0, s, d, N);
		if (hipMemcpyAsync(back, d, N * sizeof(int), hipMemcpyDeviceToHost, s) != hipSuccess ||
		    hipStreamSynchronize(s) != hipSuccess)
			goto bad;
		if (memcmp(h, back, N * sizeof(int))) {
			fprintf(stderr, "thread %d round %d: bytes differ\n", id, r);
			goto bad;
		}
	}
	(void)hipFree(d);
	(void)hipStreamDestroy(s);
	free(h);
	free(back);
	return NULL;
bad:
	__atomic_add_fetch(&failures, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t[64];
	if (threads < 1 || threads > 64)
		return 2;
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("stress: %d threads x %d rounds, %d failures\n", threads, ROUNDS, failures);
	return failures != 0;
}
