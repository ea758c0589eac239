// SPDX-License-Identifier: MIT
// kpack_host.cpp — a stand-in for what CLR does with a HIPK fat-binary
// wrapper (ROCm/rocm-systems projects/clr/hipamd/src/hip_fatbin.cpp,
// ExtractKpackBinary; docs/KPACK.md): take the marker bytes of a kpack'd
// library (here read from its .rocm_kpack_ref section, as they are mapped
// in memory; a 64 KiB zero-padded buffer since the loader reads up to
// that much), build arch_list = [the device's ISA name, its generic] from
// hipDeviceProp_t.gcnArchName, call kpack_load_code_object with the
// library's path, load the code object with hipModuleLoadData, launch
// fill_iota(int *p, int n) and compare with a CPU reference.
// Usage: kpack_host LIB [CO_INDEX].  Prints "kpack_load_code_object: ERR",
// then "result ok" or what differed.  Exit 0 ok, 3 loader error, 1 other.
#include <hip/hip_runtime.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern "C" {
typedef struct kpack_cache *kpack_cache_t;
int kpack_cache_create(kpack_cache_t *cache);
void kpack_cache_destroy(kpack_cache_t cache);
int kpack_load_code_object(kpack_cache_t cache, const void *meta, const char *binary_path, uint32_t co_index,
			   const char *const *arch_list, size_t arch_count, void **out, size_t *out_size);
void kpack_free_code_object(void *p);
}

// The .rocm_kpack_ref section's bytes (section headers read with <elf.h>
// only: the Debian roots have no libelf headers), in a zeroed 64 KiB buffer.
static uint8_t *marker(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = n > (long)sizeof(Elf64_Ehdr) ? (uint8_t *)malloc(n) : NULL;
	uint8_t *buf = NULL;
	if (b && fread(b, 1, n, f) == (size_t)n && !memcmp(b, ELFMAG, SELFMAG)) {
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
		size_t tab = eh->e_shoff, cnt = eh->e_shnum;
		if (tab + cnt * sizeof(Elf64_Shdr) <= (size_t)n && eh->e_shstrndx < cnt) {
			const Elf64_Shdr *sh = (const Elf64_Shdr *)(b + tab), *str = &sh[eh->e_shstrndx];
			for (size_t i = 0; i < cnt; i++) {
				if (sh[i].sh_name >= str->sh_size || str->sh_offset + str->sh_size > (size_t)n)
					continue;
				const char *name = (const char *)b + str->sh_offset + sh[i].sh_name;
				if (strcmp(name, ".rocm_kpack_ref") != 0 || sh[i].sh_size >= 65536 ||
				    sh[i].sh_offset + sh[i].sh_size > (size_t)n)
					continue;
				if ((buf = (uint8_t *)calloc(1, 65536)))
					memcpy(buf, b + sh[i].sh_offset, sh[i].sh_size);
			}
		}
	}
	free(b);
	fclose(f);
	return buf;
}

// CLR's TargetToGeneric for the RDNA targets (hip_fatbin.cpp).
static const char *generic_of(const char *proc)
{
	if (!strncmp(proc, "gfx103", 6))
		return "gfx10-3-generic";
	if (!strncmp(proc, "gfx110", 6) || !strncmp(proc, "gfx115", 6))
		return "gfx11-generic";
	if (!strncmp(proc, "gfx120", 6))
		return "gfx12-generic";
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	char path[4096];
	if (!realpath(argv[1], path))
		return 2;
	uint32_t co_index = argc > 2 ? (uint32_t)atoi(argv[2]) : 0;
	uint8_t *m = marker(path);
	if (!m) {
		fprintf(stderr, "%s: no .rocm_kpack_ref section\n", path);
		return 1;
	}
	hipDeviceProp_t prop;
	if (hipGetDeviceProperties(&prop, 0) != hipSuccess)
		return 1;
	char proc[64], isa[128], gen[128];
	snprintf(proc, sizeof proc, "%s", prop.gcnArchName);
	char *colon = strchr(proc, ':');
	const char *g = generic_of(proc);
	snprintf(isa, sizeof isa, "amdgcn-amd-amdhsa--%s", prop.gcnArchName);
	if (g)
		snprintf(gen, sizeof gen, "amdgcn-amd-amdhsa--%s%s", g, colon ? colon : "");
	const char *arch_list[2] = { isa, gen };
	printf("device %s, arch_list %s%s%s\n", prop.gcnArchName, isa, g ? " " : "", g ? gen : "");
	kpack_cache_t cache = NULL;
	if (kpack_cache_create(&cache) != 0)
		return 1;
	void *co = NULL;
	size_t n = 0;
	int err = kpack_load_code_object(cache, m, path, co_index, arch_list, g ? 2 : 1, &co, &n);
	printf("kpack_load_code_object: %d\n", err);
	if (err != 0)
		return 3;
	hipModule_t mod;
	hipFunction_t f;
	hipError_t e = hipModuleLoadData(&mod, co);
	if (e == hipSuccess)
		e = hipModuleGetFunction(&f, mod, "fill_iota");
	const int N = 1000;
	int *d = NULL, h[N];
	if (e == hipSuccess)
		e = hipMalloc(&d, N * sizeof(int));
	if (e == hipSuccess)
		e = hipMemset(d, 0xff, N * sizeof(int));
	struct { int *p; int n; } args = { d, N };
	size_t sz = sizeof args;
	void *cfg[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &sz, HIP_LAUNCH_PARAM_END };
	if (e == hipSuccess)
		e = hipModuleLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, 0, NULL, cfg);
	if (e == hipSuccess)
		e = hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);
	kpack_free_code_object(co);
	if (e != hipSuccess) {
		printf("hip: %s\n", hipGetErrorString(e));
		return 1;
	}
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += h[i] != i;   // CPU reference: iota
	if (bad) {
		printf("result: %d of %d wrong\n", bad, N);
		return 1;
	}
	printf("result ok (%d values)\n", N);
	hipFree(d);
	hipModuleUnload(mod);
	kpack_cache_destroy(cache);
	free(m);
	return 0;
}
