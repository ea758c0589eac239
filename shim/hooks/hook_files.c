/* SPDX-License-Identifier: MIT */
/*
 * hook_files.c — per-arch data files.  Libraries pick files by the device's
 * name: rocBLAS and hipBLASLt TensileLibrary_lazy_gfx1031.dat, their
 * *gfx1031*.co/.hsaco code objects, MIOpen gfx1031_40.kdb.  When a read-only
 * open (or a stat/access probe, or a glob listing) of such a file for a
 * device's real target fails because it does not exist, and the tables let
 * that device run a compatible target, the same name with that target (most
 * preferred first) is used instead, and said once per file at warn: the data
 * came from another target, and the user must be able to see it.
 *
 * Only the data files of those libraries, recognised by base name alone
 * (rdc_datafile_of, shim/core/datafile.c); the target is replaced in the
 * base name only, never in a directory.  Any other name — a program's own
 * …/gfx1031/settings.txt, its cache_gfx1031.bin — is passed through as
 * given, whoever opens it.  (The caller is not checked: the libraries read
 * these files through libstdc++, SQLite and Boost, so the caller's object
 * says nothing about whose file it is.)
 *
 * MIOpen's databases carry the CU count too (gfx1031_40.HIP.fdb.txt): only
 * the target is substituted, never the count — under the override MIOpen
 * does not take another count's file either.  MIOpen's user databases and
 * SQLite's -journal/-wal/-shm companions are never redirected.
 *
 * Nothing happens before the device registry exists; writes and creates are
 * never redirected; the shim's own file access bypasses these hooks (sys.c).
 * RDNACOMPAT_REDIRECT_FILES=0 turns this off.
 *
 * State: `logged`, a fixed set of hashes of the (from, to) pairs already
 * logged, so each redirected file is logged once per process although
 * libraries probe a name several times (rocBLAS stats, then opens, its
 * .dat); when the set is full, later redirections are logged every time.
 */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rdnacompat/datafile.h"

#include "shim.h"

#define LOGGED_SLOTS 256
static uint64_t logged[LOGGED_SLOTS];

/* True the first time this (from, to) pair is seen (or when the set is full). */
static bool first_redirect(const char *from, const char *to)
{
	uint64_t h = 1469598103934665603ull;
	for (const char *p = from; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	h = (h ^ 0xffu) * 1099511628211ull;
	for (const char *p = to; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	if (h == 0)
		h = 1;
	for (size_t i = 0; i < LOGGED_SLOTS; i++) {
		uint64_t *slot = &logged[(h + i) % LOGGED_SLOTS];
		uint64_t seen = __atomic_load_n(slot, __ATOMIC_RELAXED);
		if (seen == h)
			return false;
		if (seen == 0) {
			uint64_t zero = 0;
			if (__atomic_compare_exchange_n(slot, &zero, h, false, __ATOMIC_RELAXED,
							__ATOMIC_RELAXED))
				return true;
			if (zero == h)
				return false;
		}
	}
	return true;
}

static bool exists_cb(const char *cand, void *arg)
{
	(void)arg;
	return rdc_sys_exists(cand);
}

/* Find a replacement for `path` (a file name or a glob pattern) that is a
 * per-arch data file of a library for a device's real target
 * (rdc_datafile_of: by base name only): the same path with a compatible
 * target in the base name, most preferred first, that `accept` takes.
 * `missing` says whether the original is known to be absent (else it is
 * checked as a file).  Returns true and fills out; the first redirection of
 * each file is said at warn. */
static bool redirect_to(const char *path, char *out, size_t n, bool missing, bool dso,
			bool (*accept)(const char *cand, void *arg), void *arg, const char *how)
{
	if (!path || !rdc_initialized() || !rdc_cfg.redirect_files || !strstr(path, "gfx"))
		return false;
	size_t ndev = rdc_devices_count();
	for (size_t i = 0; i < ndev; i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		if (!dev || (dev->mode != RDC_MODE_MAP && dev->mode != RDC_MODE_SPOOF))
			continue;
		const char *proc = dev->target.proc;
		const char *lib = rdc_datafile_of(path, proc);
		if (!lib || (dso && !rdc_datafile_is_dso(path, proc)))
			continue;
		if (!missing && rdc_sys_exists(path))
			return false;
		const struct rdc_tables *t = rdc_tables();
		for (unsigned rank = 1; rank < 64; rank++) {
			for (size_t k = 0; t && k < t->n_edges; k++) {
				const struct rdc_compat_edge *e = &t->edges[k];
				if (e->rank != rank || strcmp(e->device, proc) != 0 ||
				    strcmp(e->code, proc) == 0 || !rdc_edge_usable(e) ||
				    rdc_datafile_rename(path, proc, e->code, out, n) != 0 || !accept(out, arg))
					continue;
				if (!first_redirect(path, out))
					return true;
				struct rdc_kv kv[] = {
					RDC_KV_N("device", dev->index), RDC_KV_S("target", proc),
					RDC_KV_S("from", path), RDC_KV_S("to", out),
					RDC_KV_N("rank", e->rank), RDC_KV_S("how", how),
					RDC_KV_S("lib", lib),
				};
				rdc_log_event(RDC_LOG_WARN, "redirect", kv, sizeof kv / sizeof kv[0]);
				return true;
			}
		}
		return false;
	}
	return false;
}

static bool redirect(const char *path, char *out, size_t n)
{
	return redirect_to(path, out, n, false, false, exists_cb, NULL, "file");
}

bool rdc_redirect_dso(const char *path, char *out, size_t n)
{
	return redirect_to(path, out, n, false, true, exists_cb, NULL, "dlopen");
}

/* The path to use: the caller's, or a redirected one in buf. */
static const char *choose(const char *path, int flags, char *buf, size_t n)
{
	if (rdc_guard_active() || (flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT))
		return path;
	int saved = errno;
	rdc_guard_enter();
	bool r = redirect(path, buf, n);
	rdc_guard_leave();
	errno = saved;
	return r ? buf : path;
}

/* Relative names resolve against dirfd: only absolute ones or AT_FDCWD. */
static bool relative_ok(int dirfd, const char *p)
{
	return dirfd == AT_FDCWD || (p && p[0] == '/');
}

#define MODE_ARG(flags, mode)                                   \
	mode_t mode = 0;                                        \
	if ((flags) & (O_CREAT | __O_TMPFILE)) {                \
		va_list ap;                                     \
		va_start(ap, flags);                            \
		mode = (mode_t)va_arg(ap, int);                 \
		va_end(ap);                                     \
	}

/* The real function; when there is none (it could not be resolved), the
 * kernel does the job directly (kernel_*), so the program never gets less
 * than it would without the shim. */
#define REAL_OR_KERNEL(name, fallback)                          \
	__typeof__(&name) real = RDC_REAL(name);                \
	char buf[4096];                                         \
	if (!real)                                              \
		return fallback

static long kernel_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	long r = syscall(SYS_openat, dirfd, path, flags, mode);
	return r;
}

static long kernel_stat(const char *path, void *st)
{
	/* struct stat and struct stat64 are the same on x86-64 (newfstatat). */
	return syscall(SYS_newfstatat, AT_FDCWD, path, st, 0);
}

/* fopen's mode string as open flags (glibc's: r w a, +, e, x). */
static int fopen_open_flags(const char *m)
{
	int fl = m[0] == 'r' ? O_RDONLY : m[0] == 'w' ? O_WRONLY | O_CREAT | O_TRUNC
			: O_WRONLY | O_CREAT | O_APPEND;
	for (const char *p = m + 1; *p && *p != ','; p++) {
		if (*p == '+')
			fl = (fl & ~(O_RDONLY | O_WRONLY)) | O_RDWR;
		else if (*p == 'e')
			fl |= O_CLOEXEC;
		else if (*p == 'x')
			fl |= O_EXCL;
	}
	return fl;
}

static FILE *kernel_fopen(const char *path, const char *mode)
{
	if (!mode || !strchr("rwa", mode[0])) {
		errno = EINVAL;
		return NULL;
	}
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, fopen_open_flags(mode), 0666);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

#define OPEN_HOOK(name)                                                          \
	RDC_HOOK int name(const char *path, int flags, ...)                      \
	{                                                                        \
		MODE_ARG(flags, mode);                                           \
		REAL_OR_KERNEL(name, (int)kernel_openat(AT_FDCWD, path, flags, mode)); \
		return real(choose(path, flags, buf, sizeof buf), flags, mode);  \
	}

#define OPENAT_HOOK(name)                                                        \
	RDC_HOOK int name(int dirfd, const char *path, int flags, ...)           \
	{                                                                        \
		MODE_ARG(flags, mode);                                           \
		REAL_OR_KERNEL(name, (int)kernel_openat(dirfd, path, flags, mode)); \
		const char *use = relative_ok(dirfd, path)                       \
					  ? choose(path, flags, buf, sizeof buf) \
					  : path;                                \
		return real(dirfd, use, flags, mode);                            \
	}

static int fopen_flags(const char *mode)
{
	return mode && mode[0] == 'r' && !strchr(mode, '+') ? O_RDONLY : O_RDWR;
}

#define FOPEN_HOOK(name)                                                              \
	RDC_HOOK FILE *name(const char *path, const char *mode)                       \
	{                                                                             \
		REAL_OR_KERNEL(name, kernel_fopen(path, mode));                       \
		return real(choose(path, fopen_flags(mode), buf, sizeof buf), mode);  \
	}

#define STAT_HOOK(name, st_type)                                                      \
	RDC_HOOK int name(const char *restrict path, st_type *restrict st)            \
	{                                                                             \
		REAL_OR_KERNEL(name, (int)kernel_stat(path, st));                     \
		return real(choose(path, O_RDONLY, buf, sizeof buf), st);             \
	}

#define XSTAT_HOOK(name, st_type)                                                     \
	RDC_HOOK int name(int ver, const char *path, st_type *st)                     \
	{                                                                             \
		REAL_OR_KERNEL(name, (int)kernel_stat(path, st));                     \
		return real(ver, choose(path, O_RDONLY, buf, sizeof buf), st);        \
	}

OPEN_HOOK(open)
OPEN_HOOK(open64)
OPENAT_HOOK(openat)
OPENAT_HOOK(openat64)
FOPEN_HOOK(fopen)
FOPEN_HOOK(fopen64)
STAT_HOOK(stat, struct stat)
STAT_HOOK(stat64, struct stat64)

RDC_HOOK int access(const char *path, int amode)
{
	REAL_OR_KERNEL(access, (int)syscall(SYS_faccessat, AT_FDCWD, path, amode, 0));
	return real((amode & W_OK) ? path : choose(path, O_RDONLY, buf, sizeof buf), amode);
}

/* What stat() compiles to in binaries built against glibc < 2.33 (wheels
 * built on manylinux images); glibc still exports them. */
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
XSTAT_HOOK(__xstat, struct stat)
XSTAT_HOOK(__xstat64, struct stat64)

/* glob(3): rocBLAS lists its code objects with the pattern <dir>/ * <arch> * co
 * (without the spaces).  When a
 * pattern naming a device's real target matches nothing, the same pattern
 * with a compatible target is tried.  Only fresh searches (no GLOB_APPEND,
 * no GLOB_NOCHECK) are retried: glibc resets pglob for those. */
#define GLOB_HOOK(name, glob_type)                                                        \
	struct name##_try {                                                               \
		int (*real)(const char *, int, int (*)(const char *, int), glob_type *);  \
		int flags;                                                                \
		int (*errfunc)(const char *, int);                                        \
		glob_type *pglob;                                                         \
	};                                                                                \
	static bool name##_cb(const char *cand, void *arg)                                \
	{                                                                                 \
		struct name##_try *g = arg;                                               \
		return g->real(cand, g->flags, g->errfunc, g->pglob) == 0;                \
	}                                                                                 \
	RDC_HOOK int name(const char *restrict pattern, int flags,                        \
			  int (*errfunc)(const char *, int), glob_type *restrict pglob)   \
	{                                                                                 \
		__typeof__(&name) real = RDC_REAL(name);                                  \
		if (!real)                                                                \
			return GLOB_ABORTED;                                              \
		int rc = real(pattern, flags, errfunc, pglob);                            \
		if (rc != GLOB_NOMATCH || rdc_guard_active() ||                           \
		    (flags & (GLOB_APPEND | GLOB_NOCHECK)))                               \
			return rc;                                                        \
		int saved = errno;                                                        \
		rdc_guard_enter();                                                        \
		char buf[4096];                                                           \
		struct name##_try g = { real, flags, errfunc, pglob };                    \
		if (redirect_to(pattern, buf, sizeof buf, true, false, name##_cb, &g, "glob"))   \
			rc = 0;                                                           \
		rdc_guard_leave();                                                        \
		errno = saved;                                                            \
		return rc;                                                                \
	}

GLOB_HOOK(glob, glob_t)
GLOB_HOOK(glob64, glob64_t)
