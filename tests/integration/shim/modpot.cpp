// SPDX-License-Identifier: MIT
// modpot.cpp — hipModuleLoad a code object (argv[1]), hipModuleGetFunction
// argv[2], and print what hipModuleOccupancyMaxPotentialBlockSize and its
// WithFlags form answer: "potential<ws> grid=G block=B err=E mps=M".
#include <hip/hip_runtime.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	hipModule_t m;
	hipFunction_t f;
	hipError_t e = hipModuleLoad(&m, argv[1]);
	if (e == hipSuccess)
		e = hipModuleGetFunction(&f, m, argv[2]);
	if (e != hipSuccess) {
		printf("load: %s\n", hipGetErrorString(e));
		return 1;
	}
	int dev = 0, mps = -1;
	hipGetDevice(&dev);
	hipDeviceGetAttribute(&mps, hipDeviceAttributeMultiprocessorCount, dev);
	int grid = -1, block = -1;
	e = hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0);
	printf("potential grid=%d block=%d err=%d mps=%d\n", grid, block, (int)e, mps);
	grid = block = -1;
	e = hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, 0, 0, 0);
	printf("potentialwf grid=%d block=%d err=%d mps=%d\n", grid, block, (int)e, mps);
	return 0;
}
