// SPDX-License-Identifier: MIT
// twomain.cpp — runs libtwo.so's two kernels (two_a.hip, then two_b.hip on
// the same buffer: 3*i + 5) and says whether the descriptor two_close.cpp
// took over still names /dev/null.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern "C" int two_closed_fd;
extern "C" int two_run_a(int *d, int n);
extern "C" int two_run_b(int *d, int n);

int main(void)
{
	if (two_closed_fd >= 0) {
		char path[64], link[256];
		snprintf(path, sizeof path, "/proc/self/fd/%d", two_closed_fd);
		ssize_t n = readlink(path, link, sizeof link - 1);
		link[n > 0 ? n : 0] = 0;
		printf("closed %d now %s\n", two_closed_fd, n > 0 ? link : "(closed)");
	} else {
		printf("closed none\n");
	}
	int *d, h[64], wrong = 0;
	if (hipMalloc(&d, sizeof h) != hipSuccess)
		return 1;
	int ea = two_run_a(d, 64), eb = ea ? ea : two_run_b(d, 64);
	if (ea || eb || hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess) {
		printf("kernels failed: %d %d\n", ea, eb);
		return 1;
	}
	for (int i = 0; i < 64; i++)
		wrong += h[i] != 3 * i + 5;
	printf("result %s\n", wrong ? "wrong" : "ok");
	return wrong != 0;
}
