// SPDX-License-Identifier: MIT
// sim_stress.hip — thread-safety check for the simulated GPU: T host
// threads per device, each with its own stream, do N rounds of
// H2D copy -> kernel launch -> D2H copy and check the bytes came back
// (SDMA and AQL queues of several devices busy at once; every dispatch
// traced).  The simulator executes the kernel (each element + 1), so the
// bytes that come back are the input plus one; with RDNACOMPAT_SIM_EXEC=0
// (dispatches retired, not run) they are the input unchanged.
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
static int executed = 1;

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
		for (int i = 0; i < N; i++) {
			if (back[i] != h[i] + executed) {
				fprintf(stderr, "thread %d round %d: element %d is %d, want %d\n", id, r, i, back[i],
					h[i] + executed);
				goto bad;
			}
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
	const char *ex = getenv("RDNACOMPAT_SIM_EXEC");
	executed = !(ex && !strcmp(ex, "0"));
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
