/* SPDX-License-Identifier: MIT */
/*
 * sparse_run.c — the librocsparse program the shim benchmarks run
 * (bench/shim-startup.sh, bench/shim-memory.sh): create a rocsparse handle,
 * copy a small sparse vector to the device and launch rocsparse_saxpyi (one
 * kernel), synchronise, free, destroy the handle.  On the simulated card the
 * engine executes the kernel, the same work for each way a benchmark compares.
 *
 * With an argument FILE it also writes, just before returning, what the
 * memory benchmark needs: the address ranges librocsparse was loaded at by
 * the dynamic loader ("image START END" per PT_LOAD, from dl_iterate_phdr),
 * then this process's /proc/self/status and /proc/self/smaps.  Without an
 * argument it does nothing beyond the rocsparse calls (the timing runs).
 */
#define _GNU_SOURCE
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <link.h>
#include <rocsparse/rocsparse.h>
#include <stdio.h>
#include <string.h>

#define CHECK_HIP(x)                                                                    \
	do {                                                                            \
		hipError_t e_ = (x);                                                    \
		if (e_ != hipSuccess) {                                                 \
			fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_));         \
			return 1;                                                       \
		}                                                                       \
	} while (0)
#define CHECK_SP(x)                                                                     \
	do {                                                                            \
		rocsparse_status s_ = (x);                                              \
		if (s_ != rocsparse_status_success) {                                   \
			fprintf(stderr, "%s: rocsparse status %d\n", #x, (int)s_);      \
			return 1;                                                       \
		}                                                                       \
	} while (0)

static int image_ranges(struct dl_phdr_info *info, size_t size, void *arg)
{
	FILE *out = arg;
	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "librocsparse"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type == PT_LOAD)
			fprintf(out, "image %lx %lx\n", (unsigned long)(info->dlpi_addr + p->p_vaddr),
				(unsigned long)(info->dlpi_addr + p->p_vaddr + p->p_memsz));
	}
	return 0;
}

static void copy_file(const char *path, FILE *out)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen(path, "r");
	if (!in)
		return;
	fprintf(out, "== %s\n", path);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
}

static int dump(const char *path)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 1;
	}
	dl_iterate_phdr(image_ranges, out);
	copy_file("/proc/self/status", out);
	copy_file("/proc/self/smaps", out);
	return fclose(out) != 0;
}

int main(int argc, char **argv)
{
	enum { N = 1024, NNZ = 64 };
	float hx[NNZ];
	int hi[NNZ];
	for (int i = 0; i < NNZ; i++) {
		hx[i] = (float)i;
		hi[i] = i * 16;
	}
	rocsparse_handle h;
	CHECK_SP(rocsparse_create_handle(&h));
	float *dx, *dy;
	int *di;
	CHECK_HIP(hipMalloc((void **)&dx, sizeof hx));
	CHECK_HIP(hipMalloc((void **)&di, sizeof hi));
	CHECK_HIP(hipMalloc((void **)&dy, N * sizeof(float)));
	CHECK_HIP(hipMemcpy(dx, hx, sizeof hx, hipMemcpyHostToDevice));
	CHECK_HIP(hipMemcpy(di, hi, sizeof hi, hipMemcpyHostToDevice));
	float alpha = 2.0f;
	CHECK_SP(rocsparse_saxpyi(h, NNZ, &alpha, dx, di, dy, rocsparse_index_base_zero));
	CHECK_HIP(hipDeviceSynchronize());
	CHECK_HIP(hipFree(dx));
	CHECK_HIP(hipFree(di));
	CHECK_HIP(hipFree(dy));
	CHECK_SP(rocsparse_destroy_handle(h));
	if (argc > 1 && dump(argv[1]) != 0)
		return 1;
	puts("saxpyi: launched");
	return 0;
}
