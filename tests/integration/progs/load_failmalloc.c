/* SPDX-License-Identifier: MIT */
/*
 * load_failmalloc.c — test-only allocation fault injector, preloaded
 * before libc: malloc, calloc, realloc, strdup and strndup called directly
 * from librdnacompat.so's code are counted, and the Nth of them
 * (RDC_FAILMALLOC_NTH=N, 1-based) returns NULL with ENOMEM.  Calls from
 * anywhere else (libc itself, HIP, the program) are never failed.  At exit
 * the count goes to the file RDC_FAILMALLOC_COUNT names.  The failed call
 * is said on stderr as "failmalloc: call N from librdnacompat.so+0xOFFSET"
 * (addr2line -e librdnacompat.so OFFSET names the line).  The shim's text
 * is found in /proc/self/maps by the constructor (every preloaded object is
 * mapped before any constructor runs), read without allocating.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static uintptr_t lo, hi;
static long nth = -1;
static atomic_long count;

static int parse_hex(const char **p, uintptr_t *v)
{
	*v = 0;
	int n = 0;
	for (; **p; (*p)++, n++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			break;
		*v = *v * 16 + (uintptr_t)d;
	}
	return n;
}

__attribute__((constructor)) static void setup(void)
{
	const char *e = getenv("RDC_FAILMALLOC_NTH");
	if (e)
		nth = atol(e);
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	static char buf[1 << 20];
	size_t n = 0;
	ssize_t r;
	while (n < sizeof buf - 1 && (r = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = 0;
	for (char *line = buf; line && *line;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (strstr(line, "/librdnacompat.so")) {
			const char *p = line;
			uintptr_t a, b;
			if (parse_hex(&p, &a) && *p++ == '-' && parse_hex(&p, &b)) {
				lo = lo && lo < a ? lo : a;
				hi = hi > b ? hi : b;
			}
		}
		line = next;
	}
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("RDC_FAILMALLOC_COUNT");
	if (!path)
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[32];
	int n = snprintf(line, sizeof line, "%ld\n", atomic_load(&count));
	(void)!write(fd, line, (size_t)n);
	close(fd);
}

/* Is this call from the shim, and the one to fail? */
static int fail_here(const void *caller)
{
	uintptr_t c = (uintptr_t)caller;
	if (!lo || c < lo || c >= hi)
		return 0;
	long k = atomic_fetch_add(&count, 1) + 1;
	if (k != nth)
		return 0;
	char line[96];
	int n = snprintf(line, sizeof line, "failmalloc: call %ld from librdnacompat.so+0x%lx\n", k,
			 (unsigned long)(c - lo));
	(void)!write(2, line, (size_t)n);
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t n)
{
	return fail_here(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	return fail_here(__builtin_return_address(0)) ? NULL : __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	return fail_here(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
}

char *strdup(const char *s)
{
	if (fail_here(__builtin_return_address(0)))
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = __libc_malloc(n);
	return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
	if (fail_here(__builtin_return_address(0)))
		return NULL;
	size_t n = strnlen(s, max);
	char *d = __libc_malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}
