// SPDX-License-Identifier: MIT
// ccobfat.c — a host program whose fat binary is a compressed bundle (CCOB),
// laid out the way clang lays out HIP programs (docs/SHIM.md, research §2):
// the bundle in .hip_fatbin (here .incbin'ed from CCOB_FILE), the wrapper
// {0x48495046, 1, bundle, NULL} in .hipFatBinSegment, and a constructor that
// registers it and the kernel fill_iota with HIP like __hip_module_ctor.
// Then launches fill_iota once and prints "ran <error>".
// Build: gcc -DCCOB_FILE='"path"' ccobfat.c -lamdhip64.
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <stdio.h>

__asm__(".section .hip_fatbin,\"a\",@progbits\n"
	".p2align 12\n"
	"ccob_bundle:\n"
	".incbin \"" CCOB_FILE "\"\n"
	".previous\n");
extern const char ccob_bundle[];

struct fat_wrapper {
	unsigned magic, version;
	const void *binary;
	void *dummy;
};
__attribute__((section(".hipFatBinSegment"), aligned(8), used))
static const struct fat_wrapper wrapper = { 0x48495046u, 1, ccob_bundle, NULL };

extern void **__hipRegisterFatBinary(const void *data);
extern void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
				  const char *deviceName, unsigned int threadLimit, void *tid, void *bid,
				  void *blockDim, void *gridDim, int *wSize);
extern void __hipUnregisterFatBinary(void **modules);

static void **handle;
static void stub(int *p, int n)
{
	(void)p;
	(void)n;
}

__attribute__((constructor)) static void ctor(void)
{
	handle = __hipRegisterFatBinary(&wrapper);
	__hipRegisterFunction(handle, (const void *)stub, "fill_iota", "fill_iota", (unsigned)-1, NULL,
			      NULL, NULL, NULL, NULL);
}

int main(void)
{
	int *d = NULL, n = 64;
	hipError_t e = hipMalloc((void **)&d, n * sizeof(int));
	void *args[] = { &d, &n };
	if (e == hipSuccess)
		e = hipLaunchKernel((const void *)stub, (dim3){ 1, 1, 1 }, (dim3){ 64, 1, 1 }, args, 0, NULL);
	if (e == hipSuccess)
		e = hipDeviceSynchronize();
	printf("ran %s\n", hipGetErrorName(e));
	hipFree(d);
	return e == hipSuccess ? 0 : 1;
}
