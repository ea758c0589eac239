// SPDX-License-Identifier: MIT
// countcalls.c — an unrelated interposer for 43-shim-interposers.sh, the
// kind faketime or a tracer is: it defines open, open64, openat, fopen,
// fopen64, access, stat, __xstat and glob unversioned, counts the calls whose
// path names a TensileLibrary file (and the gfx target it named), passes each
// to the next definition (dlsym(RTLD_NEXT)), and at exit appends
// "<function> <count> <last target>" lines to $COUNTCALLS_OUT.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { F_OPEN, F_OPEN64, F_OPENAT, F_FOPEN, F_FOPEN64, F_ACCESS, F_STAT, F_XSTAT, F_GLOB, F_N };
static const char *const names[F_N] = { "open", "open64", "openat", "fopen", "fopen64",
					"access", "stat", "__xstat", "glob" };
static int counts[F_N];
static char last[F_N][16];

static void note(int f, const char *path)
{
	const char *g = path ? strstr(path, "TensileLibrary_lazy_gfx") : NULL;
	if (!g && path && strstr(path, "*gfx"))
		g = strstr(path, "*gfx") + 1 - strlen("TensileLibrary_lazy_");
	if (!g)
		return;
	__atomic_add_fetch(&counts[f], 1, __ATOMIC_RELAXED);
	const char *t = g + strlen("TensileLibrary_lazy_");
	size_t n = strspn(t, "gfx0123456789abcdef");
	snprintf(last[f], sizeof last[f], "%.*s", (int)n, t);
}

static void *next(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	return p ? p : dlvsym(RTLD_NEXT, name, "GLIBC_2.2.5");   /* __xstat is a compat symbol */
}

int open(const char *p, int fl, ...)
{
	va_list ap; va_start(ap, fl); mode_t m = va_arg(ap, mode_t); va_end(ap);
	note(F_OPEN, p);
	return ((int (*)(const char *, int, ...))next("open"))(p, fl, m);
}
int open64(const char *p, int fl, ...)
{
	va_list ap; va_start(ap, fl); mode_t m = va_arg(ap, mode_t); va_end(ap);
	note(F_OPEN64, p);
	return ((int (*)(const char *, int, ...))next("open64"))(p, fl, m);
}
int openat(int d, const char *p, int fl, ...)
{
	va_list ap; va_start(ap, fl); mode_t m = va_arg(ap, mode_t); va_end(ap);
	note(F_OPENAT, p);
	return ((int (*)(int, const char *, int, ...))next("openat"))(d, p, fl, m);
}
FILE *fopen(const char *p, const char *mode)
{
	note(F_FOPEN, p);
	return ((FILE * (*)(const char *, const char *)) next("fopen"))(p, mode);
}
FILE *fopen64(const char *p, const char *mode)
{
	note(F_FOPEN64, p);
	return ((FILE * (*)(const char *, const char *)) next("fopen64"))(p, mode);
}
int access(const char *p, int m)
{
	note(F_ACCESS, p);
	return ((int (*)(const char *, int))next("access"))(p, m);
}
int stat(const char *restrict p, struct stat *restrict st)
{
	note(F_STAT, p);
	return ((int (*)(const char *, struct stat *))next("stat"))(p, st);
}
int __xstat(int v, const char *p, struct stat *st)
{
	note(F_XSTAT, p);
	return ((int (*)(int, const char *, struct stat *))next("__xstat"))(v, p, st);
}
int glob(const char *restrict pat, int fl, int (*err)(const char *, int), glob_t *restrict g)
{
	note(F_GLOB, pat);
	return ((int (*)(const char *, int, int (*)(const char *, int), glob_t *))next("glob"))(
		pat, fl, err, g);
}

__attribute__((destructor)) static void report(void)
{
	const char *out = getenv("COUNTCALLS_OUT");
	FILE *f = out ? ((FILE * (*)(const char *, const char *)) next("fopen"))(out, "a") : NULL;
	if (!f)
		return;
	for (int i = 0; i < F_N; i++)
		fprintf(f, "%s %d %s\n", names[i], counts[i], last[i][0] ? last[i] : "-");
	fclose(f);
}
