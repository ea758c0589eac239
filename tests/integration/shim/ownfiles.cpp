// SPDX-License-Identifier: MIT
// ownfiles.cpp — a program's own file access under the shim: after HIP
// knows the devices, each PATH is probed with access, stat, fopen, open and
// openat, and its first line printed ("-" where the call fails).
// Usage: ownfiles PATH...
#include <fcntl.h>
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void first_line(int fd, char *out, size_t n)
{
	ssize_t r = fd >= 0 ? read(fd, out, n - 1) : -1;
	out[r > 0 ? r : 0] = 0;
	out[strcspn(out, "\n")] = 0;
	if (fd >= 0)
		close(fd);
	if (r < 0)
		snprintf(out, n, "-");
}

int main(int argc, char **argv)
{
	int n = 0;
	if (argc < 2 || hipGetDeviceCount(&n) != hipSuccess || n < 1)
		return 2;
	for (int i = 1; i < argc; i++) {
		const char *p = argv[i];
		struct stat st;
		char a[128] = "-", b[128], c[128];
		FILE *f = fopen(p, "r");
		if (f) {
			if (!fgets(a, sizeof a, f))
				a[0] = 0;
			a[strcspn(a, "\n")] = 0;
			fclose(f);
		}
		first_line(open(p, O_RDONLY), b, sizeof b);
		first_line(openat(AT_FDCWD, p, O_RDONLY), c, sizeof c);
		printf("%s access=%d stat=%d fopen=%s open=%s openat=%s\n", p, access(p, R_OK) == 0,
		       stat(p, &st) == 0, a, b, c);
	}
	return 0;
}
