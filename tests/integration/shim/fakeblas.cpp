// SPDX-License-Identifier: MIT
// fakeblas.cpp — built as librocblas.so.0: picks its data files by
// gcnArchName the way rocBLAS does (TensileLibrary_lazy_<arch>.dat under a
// library directory), probing with access() and stat(), reading with fopen()
// and open(), and with __xstat@GLIBC_2.2.5 as binaries built before glibc
// 2.33 do (looked up at run time: newer glibc no longer links it);
// lists its code objects with glob("<dir>/*<arch>*co") like rocBLAS.
#include <dlfcn.h>
#include <fcntl.h>
#include <glob.h>
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int xstat_fn(int ver, const char *path, struct stat *st);

extern "C" const char *fake_arch(int dev)
{
	static char name[8][256];
	hipDeviceProp_t p;
	if (hipGetDeviceProperties(&p, dev) != hipSuccess)
		return "?";
	snprintf(name[dev & 7], sizeof name[0], "%s", p.gcnArchName);
	return name[dev & 7];
}

// Read <dir>/TensileLibrary_lazy_<arch>.dat four ways; "-" where one fails.
extern "C" void fake_load(const char *dir, const char *arch, char *out, size_t n)
{
	char path[1024], a[64] = "-", b[64] = "-";
	snprintf(path, sizeof path, "%s/TensileLibrary_lazy_%s.dat", dir, arch);
	struct stat st;
	int ok_access = access(path, R_OK) == 0, ok_stat = stat(path, &st) == 0;
	// As the loader binds an old binary's __xstat@GLIBC_2.2.5 reference: to
	// the first definition in scope, an interposer's unversioned one
	// included (dlsym), else libc's compat one (dlvsym; not a default
	// version, so dlsym cannot see it).
	xstat_fn *xs = (xstat_fn *)dlsym(RTLD_DEFAULT, "__xstat");
	if (!xs)
		xs = (xstat_fn *)dlvsym(RTLD_DEFAULT, "__xstat", "GLIBC_2.2.5");
	int ok_xstat = xs && xs(1 /* _STAT_VER_LINUX */, path, &st) == 0;
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(a, sizeof a, f))
			a[0] = 0;
		fclose(f);
	}
	int fd = open(path, O_RDONLY);
	if (fd >= 0) {
		ssize_t r = read(fd, b, sizeof b - 1);
		b[r > 0 ? r : 0] = 0;
		close(fd);
	}
	char pat[1024];
	snprintf(pat, sizeof pat, "%s/*%s*co", dir, arch);
	glob_t g;
	size_t ncos = glob(pat, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
	if (ncos)
		globfree(&g);
	a[strcspn(a, "\n")] = 0;
	b[strcspn(b, "\n")] = 0;
	snprintf(out, n, "access=%d stat=%d xstat=%d fopen=%s open=%s glob=%zu", ok_access, ok_stat,
		 ok_xstat, a, b, ncos);
}
