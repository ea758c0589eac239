// SPDX-License-Identifier: MIT
// modload.cpp — loads a code object (bundle or bare ELF) through
// hipModuleLoad (file), hipModuleLoadData or hipModuleLoadDataEx (a heap
// copy), launches fill_iota, checks the output is the CPU's iota (the
// simulator executes the kernel; any kernel named *fill_iota* is checked),
// unloads; repeats
// ROUNDS times in each of THREADS threads.  Usage: modload MODE FILE
// [THREADS] [ROUNDS]; MODE = file | data | dataex.  MODLOAD_KERNEL names
// another kernel of the same signature (int *, int) to launch.
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mode, *path;
static int rounds = 2;
static void *image;

static void *work(void *arg)
{
	long failed = 0;
	for (int r = 0; r < rounds; r++) {
		hipModule_t m;
		hipError_t e;
		if (!strcmp(mode, "file"))
			e = hipModuleLoad(&m, path);
		else if (!strcmp(mode, "dataex"))
			e = hipModuleLoadDataEx(&m, image, 0, NULL, NULL);
		else
			e = hipModuleLoadData(&m, image);
		if (e != hipSuccess) {
			fprintf(stderr, "load: %s\n", hipGetErrorString(e));
			failed++;
			continue;
		}
		hipFunction_t f;
		const char *k = getenv("MODLOAD_KERNEL");
		e = hipModuleGetFunction(&f, m, k && *k ? k : "fill_iota");
		int *d = NULL, n = 64;
		hipMalloc(&d, n * sizeof(int));
		hipMemset(d, 0xff, n * sizeof(int));
		struct { int *p; int n; } args = { d, n };
		size_t sz = sizeof args;
		void *cfg[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz,
				HIP_LAUNCH_PARAM_END };
		if (e == hipSuccess)
			e = hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, NULL, cfg);
		if (e == hipSuccess)
			e = hipDeviceSynchronize();
		if (e != hipSuccess) {
			fprintf(stderr, "launch: %s\n", hipGetErrorString(e));
			failed++;
		} else if (strstr(k && *k ? k : "fill_iota", "fill_iota")) {
			int h[64], wrong = 0;
			if (hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess)
				wrong = n;
			else
				for (int i = 0; i < n; i++)
					wrong += h[i] != i;
			if (wrong) {
				fprintf(stderr, "result wrong: %d of %d\n", wrong, n);
				failed++;
			}
		}
		hipFree(d);
		if (hipModuleUnload(m) != hipSuccess)
			failed++;
	}
	return (void *)failed;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	mode = argv[1];
	path = argv[2];
	int threads = argc > 3 ? atoi(argv[3]) : 1;
	if (argc > 4)
		rounds = atoi(argv[4]);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	image = malloc(n);
	if (fread(image, 1, n, f) != (size_t)n)
		return 2;
	fclose(f);
	int count = 0;
	hipGetDeviceCount(&count);
	pthread_t t[64];
	long failed = 0;
	for (int i = 0; i < threads && i < 64; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < threads && i < 64; i++) {
		void *r;
		pthread_join(t[i], &r);
		failed += (long)r;
	}
	printf("devices %d threads %d rounds %d failed %ld\n", count, threads, rounds, failed);
	free(image);
	return failed ? 1 : 0;
}
