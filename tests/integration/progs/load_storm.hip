// SPDX-License-Identifier: MIT
// load_storm.hip — load test for the shim on simulated cards.  Two uses:
//   load_storm storm BUNDLE SECONDS THREADS LIB
//     THREADS threads for SECONDS seconds, each on device (i % count):
//     role i % 4 = 0: dlopen LIB (its constructor registers its fat binary
//     through __hipRegisterFatBinary), call its run_kernel, dlclose (the
//     last close unregisters it); 1: hipModuleLoadData of the thread's own
//     copy of BUNDLE with a per-load stamp in the header's zero padding
//     (so every load is a new image the shim decides and logs once)
//     + launch fill_iota + unload; 2: hipModuleLoad(BUNDLE) + launch +
//     unload; 3: launch this program's own kernel (its fat binary, built for
//     gfx1030) and synchronise.  Every launch starts from a garbage-filled
//     buffer and counts as done only when the executed kernel's output is
//     the CPU's iota (the simulator runs it).  Prints one line of counts
//     per role.
//   load_storm rss BUNDLE N
//     hipModuleLoadData + unload N times on device 0; prints the resident
//     set (VmRSS, kB) after 1000 and after N loads.
// Exit 0 when nothing failed.
#include <hip/hip_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__global__ void own_iota(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i; }

static const char *path, *lib;
static void *image;
static size_t image_size;
static double deadline;
static int ndev = 1;
static long done[4], failed[4];
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The n ints at d, after a synchronised launch, are 0..n-1. */
static bool is_iota(const int *d, int n)
{
	int h[64];
	if (n > 64 || hipMemcpy(h, d, n * sizeof(int), hipMemcpyDeviceToHost) != hipSuccess)
		return false;
	for (int i = 0; i < n; i++)
		if (h[i] != i)
			return false;
	return true;
}

static bool launch_module(hipModule_t m)
{
	hipFunction_t f;
	int *d = NULL, n = 64;
	if (hipModuleGetFunction(&f, m, "fill_iota") != hipSuccess || hipMalloc(&d, n * sizeof(int)) != hipSuccess ||
	    hipMemset(d, 0xff, n * sizeof(int)) != hipSuccess)
		return false;
	struct { int *p; int n; } args = { d, n };
	size_t sz = sizeof args;
	void *cfg[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz, HIP_LAUNCH_PARAM_END };
	bool ok = hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, 0, NULL, cfg) == hipSuccess &&
		  hipStreamSynchronize(0) == hipSuccess && is_iota(d, n);
	hipFree(d);
	return ok;
}

static const size_t stamp_at = 0x200;

static bool one(int role, unsigned char *mine, unsigned long stamp)
{
	hipModule_t m;
	switch (role) {
	case 0: {
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			return false;
		int (*run)(void) = (int (*)(void))dlsym(h, "run_kernel");
		bool ok = run && run() == 0;
		return (dlclose(h) == 0) & ok;
	}
	case 1:
		memcpy(mine + stamp_at, &stamp, sizeof stamp);
		if (hipModuleLoadData(&m, mine) != hipSuccess)
			return false;
		return launch_module(m) & (hipModuleUnload(m) == hipSuccess);
	case 2:
		if (hipModuleLoad(&m, path) != hipSuccess)
			return false;
		return launch_module(m) & (hipModuleUnload(m) == hipSuccess);
	default: {
		int *d = NULL;
		if (hipMalloc(&d, 64 * sizeof(int)) != hipSuccess || hipMemset(d, 0xff, 64 * sizeof(int)) != hipSuccess)
			return false;
		hipLaunchKernelGGL(own_iota, dim3(1), dim3(64), 0, 0, d, 64);
		bool ok = hipGetLastError() == hipSuccess && hipStreamSynchronize(0) == hipSuccess &&
			  is_iota(d, 64);
		hipFree(d);
		return ok;
	}
	}
}

static void *work(void *arg)
{
	long i = (long)arg;
	int role = (int)(i % 4);
	hipSetDevice((int)(i % ndev));
	long ok = 0, bad = 0;
	unsigned char *mine = (unsigned char *)malloc(image_size);
	if (!mine)
		return NULL;
	memcpy(mine, image, image_size);
	while (now() < deadline) {
		if (one(role, mine, ((unsigned long)(i + 1) << 32) | (unsigned long)(ok + bad)))
			ok++;
		else
			bad++;
	}
	free(mine);
	pthread_mutex_lock(&count_lock);
	done[role] += ok;
	failed[role] += bad;
	pthread_mutex_unlock(&count_lock);
	return NULL;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = atol(line + 6);
	if (f)
		fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	path = argv[2];
	FILE *f = fopen(path, "rb");
	if (!f)
		return 2;
	fseek(f, 0, SEEK_END);
	image_size = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	image = malloc(image_size);
	if (!image || fread(image, 1, image_size, f) != image_size)
		return 2;
	fclose(f);
	if (hipGetDeviceCount(&ndev) != hipSuccess || ndev < 1)
		return 3;
	if (!strcmp(argv[1], "rss")) {
		long n = atol(argv[3]), bad = 0, at1k = -1;
		for (long i = 1; i <= n; i++) {
			hipModule_t m;
			if (hipModuleLoadData(&m, image) != hipSuccess || hipModuleUnload(m) != hipSuccess)
				bad++;
			if (i == 1000)
				at1k = rss_kb();
		}
		printf("loads %ld failed %ld rss_kb_1000 %ld rss_kb_%ld %ld\n", n, bad, at1k, n, rss_kb());
		return bad ? 1 : 0;
	}
	if (argc < 6)
		return 2;
	for (size_t k = stamp_at; k < stamp_at + 8; k++)
		if (image_size < 0x1000 || ((unsigned char *)image)[k]) {
			fprintf(stderr, "%s: no zero padding at 0x%zx to stamp\n", path, stamp_at);
			return 2;
		}
	int threads = atoi(argv[4]);
	lib = argv[5];
	if (threads < 1 || threads > 256)
		return 2;
	deadline = now() + atof(argv[3]);
	pthread_t t[256];
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i))
			return 3;
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	static const char *const name[] = { "register", "loaddata", "loadfile", "launch" };
	long bad = 0;
	printf("devices %d threads %d\n", ndev, threads);
	for (int r = 0; r < 4; r++) {
		printf("%s done %ld failed %ld\n", name[r], done[r], failed[r]);
		bad += failed[r];
	}
	return bad ? 1 : 0;
}
