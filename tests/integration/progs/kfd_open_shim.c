/* SPDX-License-Identifier: MIT */
/*
 * kfd_open_shim.c — test helper, LD_PRELOADed into rocminfo only.  rocminfo
 * checks, before it uses HSA at all, that /dev/kfd can be opened read-write
 * (and `lsmod` lists amdgpu; the tests put an lsmod script first on PATH).
 * There is no /dev/kfd on a machine without an AMD GPU, and the simulated
 * thunk never opens it, so this redirects exactly that one path to /dev/null.
 * Nothing else is changed; ROCR itself talks only to libhsakmt.so.1.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>

static const char *fix(const char *path)
{
	return path && !strcmp(path, "/dev/kfd") ? "/dev/null" : path;
}

#define WRAP(name)                                                              \
	int name(const char *path, int flags, ...)                              \
	{                                                                       \
		int (*real)(const char *, int, ...) =                           \
			(int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name);   \
		va_list ap;                                                     \
		va_start(ap, flags);                                            \
		int mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, int) : 0; \
		va_end(ap);                                                     \
		return real(fix(path), flags, mode);                            \
	}
WRAP(open)
WRAP(open64)

int openat(int dir, const char *path, int flags, ...)
{
	int (*real)(int, const char *, int, ...) =
		(int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	va_list ap;
	va_start(ap, flags);
	int mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, int) : 0;
	va_end(ap);
	return real(dir, fix(path), flags, mode);
}
