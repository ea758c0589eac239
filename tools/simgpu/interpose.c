/* SPDX-License-Identifier: MIT */
/*
 * interpose.c — the libc functions the simulator hooks, thin: each looks at
 * its path or fd and either serves the simulated device (kfd_dev.c), reads
 * the simulated sysfs instead (sysfs.c), or calls the next definition
 * unchanged (resolved once with dlsym(RTLD_NEXT), in a constructor and
 * again lazily; errno is the callee's).
 *
 *   open, open64, openat, openat64, __open_2, __open64_2, __openat_2,
 *   __openat64_2   /dev/kfd, /dev/dri/renderD<128+i>, sysfs paths
 *   fopen, fopen64, opendir, stat, stat64, lstat, lstat64, fstatat,
 *   fstatat64, statx, access   sysfs paths (libc's own opens inside fopen
 *                  and opendir bypass the open hook; ls and find stat first)
 *   realpath, __realpath_chk, canonicalize_file_name   the simulated PCI
 *                  devices' /sys paths (pci.c): resolved in the tree, whose
 *                  links mirror sysfs's, and answered as the /sys path
 *                  (glibc resolves links with its own syscalls, so the
 *                  lstat/readlink it does inside are not seen by our hooks)
 *   close          forget a simulated fd first
 *   ioctl          AMDKFD_IOC_* on a kfd fd; anything on a render fd is
 *                  logged and EINVAL (the libdrm entry points that would
 *                  issue them are drm.c's)
 *   mmap, mmap64   doorbell / MMIO pages of a kfd fd, buffer objects of a
 *                  render fd
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>

#include "sim.h"

static struct rdc_sim_real real;
static int (*real_stat)(const char *, struct stat *);
static int (*real_lstat)(const char *, struct stat *);
static int (*real_access)(const char *, int);
static void *(*real_fopen64)(const char *, const char *);
static int (*real_fstatat)(int, const char *, struct stat *, int);
static int (*real_statx)(int, const char *, int, unsigned, struct statx *);
static char *(*real_realpath)(const char *, char *);
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void resolve(void)
{
	real.open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real.openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	real.fopen = (void *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	real.opendir = (void *(*)(const char *))dlsym(RTLD_NEXT, "opendir");
	real.close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	real.ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real.mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	real.munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
	real_stat = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");
	real_lstat = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "lstat");
	real_access = (int (*)(const char *, int))dlsym(RTLD_NEXT, "access");
	real_fopen64 = (void *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen64");
	real_fstatat = (int (*)(int, const char *, struct stat *, int))dlsym(RTLD_NEXT, "fstatat");
	real_statx = (int (*)(int, const char *, int, unsigned, struct statx *))dlsym(RTLD_NEXT, "statx");
	real_realpath = (char *(*)(const char *, char *))dlsym(RTLD_NEXT, "realpath");
}

__attribute__((constructor)) static void interpose_init(void)
{
	pthread_once(&real_once, resolve);
}

const struct rdc_sim_real *rdc_sim_real(void)
{
	pthread_once(&real_once, resolve);
	return &real;
}

/* -1: not a simulated device; else the render minor (or 0 for /dev/kfd). */
static int device_of(const char *path)
{
	if (!path || strncmp(path, "/dev/", 5))
		return -1;
	if (!strcmp(path, "/dev/kfd"))
		return 0;
	int minor;
	char end;
	if (sscanf(path, "/dev/dri/renderD%d%c", &minor, &end) == 1 && minor >= 128) {
		const struct rdc_sim_config *c = rdc_sim_config_get();
		if (c && minor < 128 + (int)c->n_gpus)
			return minor;
	}
	return -1;
}

static int open_common(int dirfd, const char *path, int flags, mode_t mode, bool at)
{
	const struct rdc_sim_real *r = rdc_sim_real();
	int dev = device_of(path);
	if (dev == 0)
		return rdc_sim_open_kfd(flags);
	if (dev > 0)
		return rdc_sim_open_render(dev, flags);
	char buf[4200];
	const char *p = rdc_sim_sysfs_redirect(path, buf, sizeof buf);
	if (at)
		return r->openat(dirfd, p, flags, mode);
	return r->open(p, flags, mode);
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

RDC_SIM_API int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common(AT_FDCWD, path, flags, m, false);
}

RDC_SIM_API int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common(AT_FDCWD, path, flags | O_LARGEFILE, m, false);
}

RDC_SIM_API int __open_2(const char *path, int flags)
{
	return open_common(AT_FDCWD, path, flags, 0, false);
}

RDC_SIM_API int __open64_2(const char *path, int flags)
{
	return open_common(AT_FDCWD, path, flags | O_LARGEFILE, 0, false);
}

RDC_SIM_API int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common(dirfd, path, flags, m, true);
}

RDC_SIM_API int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_common(dirfd, path, flags | O_LARGEFILE, m, true);
}

RDC_SIM_API int __openat_2(int dirfd, const char *path, int flags)
{
	return open_common(dirfd, path, flags, 0, true);
}

RDC_SIM_API int __openat64_2(int dirfd, const char *path, int flags)
{
	return open_common(dirfd, path, flags | O_LARGEFILE, 0, true);
}

RDC_SIM_API FILE *fopen(const char *path, const char *mode)
{
	char buf[4200];
	return rdc_sim_real()->fopen(rdc_sim_sysfs_redirect(path, buf, sizeof buf), mode);
}

RDC_SIM_API FILE *fopen64(const char *path, const char *mode)
{
	char buf[4200];
	rdc_sim_real();
	void *(*f)(const char *, const char *) = real_fopen64 ? real_fopen64 : real.fopen;
	return f(rdc_sim_sysfs_redirect(path, buf, sizeof buf), mode);
}

RDC_SIM_API DIR *opendir(const char *path)
{
	char buf[4200];
	return rdc_sim_real()->opendir(rdc_sim_sysfs_redirect(path, buf, sizeof buf));
}

RDC_SIM_API int stat(const char *restrict path, struct stat *restrict st)
{
	char buf[4200];
	rdc_sim_real();
	return real_stat(rdc_sim_sysfs_redirect(path, buf, sizeof buf), st);
}

RDC_SIM_API int lstat(const char *restrict path, struct stat *restrict st)
{
	char buf[4200];
	rdc_sim_real();
	return real_lstat(rdc_sim_sysfs_redirect(path, buf, sizeof buf), st);
}

/* On x86-64 struct stat64 is struct stat. */
RDC_SIM_API int stat64(const char *restrict path, struct stat64 *restrict st)
{
	return stat(path, (struct stat *)st);
}

RDC_SIM_API int lstat64(const char *restrict path, struct stat64 *restrict st)
{
	return lstat(path, (struct stat *)st);
}

RDC_SIM_API int fstatat(int dirfd, const char *restrict path, struct stat *restrict st, int flags)
{
	char buf[4200];
	rdc_sim_real();
	return real_fstatat(dirfd, rdc_sim_sysfs_redirect(path, buf, sizeof buf), st, flags);
}

RDC_SIM_API int fstatat64(int dirfd, const char *restrict path, struct stat64 *restrict st, int flags)
{
	return fstatat(dirfd, path, (struct stat *)st, flags);
}

RDC_SIM_API int statx(int dirfd, const char *restrict path, int flags, unsigned mask,
		      struct statx *restrict st)
{
	char buf[4200];
	rdc_sim_real();
	if (!real_statx) {
		errno = ENOSYS;
		return -1;
	}
	return real_statx(dirfd, rdc_sim_sysfs_redirect(path, buf, sizeof buf), flags, mask, st);
}

RDC_SIM_API int access(const char *path, int mode)
{
	if (device_of(path) >= 0)
		return rdc_sim_config_get() ? 0 : (errno = ENOENT, -1);
	char buf[4200];
	rdc_sim_real();
	return real_access(rdc_sim_sysfs_redirect(path, buf, sizeof buf), mode);
}

/* The tree's directory as realpath gives it ($TMPDIR may be a link). */
static char tree_canon[PATH_MAX];
static pthread_once_t canon_once = PTHREAD_ONCE_INIT;

static void canon_tree(void)
{
	const char *r = rdc_sim_sysfs_root();
	if (!r[0] || !real_realpath || !real_realpath(r, tree_canon))
		tree_canon[0] = 0;
}

RDC_SIM_API char *realpath(const char *restrict path, char *restrict resolved)
{
	rdc_sim_real();
	if (!real_realpath) {
		errno = ENOSYS;
		return NULL;
	}
	if (!path || !rdc_sim_pci_path(path))
		return real_realpath(path, resolved);
	char buf[4200];
	const char *p = rdc_sim_sysfs_redirect(path, buf, sizeof buf);
	pthread_once(&canon_once, canon_tree);
	char tmp[PATH_MAX];
	if (p == path || !tree_canon[0] || !real_realpath(p, tmp))
		return p == path ? real_realpath(path, resolved) : NULL;
	size_t l = strlen(tree_canon);
	const char *out = !strncmp(tmp, tree_canon, l) && !strncmp(tmp + l, "/sys/", 5) ? tmp + l : tmp;
	if (!resolved)
		return strdup(out);
	memmove(resolved, out, strlen(out) + 1);
	return resolved;
}

RDC_SIM_API char *__realpath_chk(const char *restrict path, char *restrict resolved, size_t len)
{
	(void)len; /* glibc's check: len >= PATH_MAX, which the caller's buffer is */
	return realpath(path, resolved);
}

RDC_SIM_API char *canonicalize_file_name(const char *path)
{
	return realpath(path, NULL);
}

RDC_SIM_API int close(int fd)
{
	rdc_sim_fd_forget(fd);
	return rdc_sim_real()->close(fd);
}

RDC_SIM_API int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	switch (rdc_sim_fd_kind(fd, NULL)) {
	case RDC_SIM_FD_KFD:
		return rdc_sim_kfd_ioctl(fd, req, arg);
	case RDC_SIM_FD_RENDER:
		rdc_sim_log("render node fd %d: DRM ioctl 0x%lx is not emulated: EINVAL", fd, req);
		errno = EINVAL;
		return -1;
	default:
		return rdc_sim_real()->ioctl(fd, req, arg);
	}
}

RDC_SIM_API void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd >= 0 && !(flags & MAP_ANONYMOUS)) {
		switch (rdc_sim_fd_kind(fd, NULL)) {
		case RDC_SIM_FD_KFD:
			return rdc_sim_kfd_mmap(addr, len, prot, flags, (uint64_t)off);
		case RDC_SIM_FD_RENDER:
			return rdc_sim_render_mmap(addr, len, prot, flags, (uint64_t)off);
		default:
			break;
		}
	}
	return rdc_sim_real()->mmap(addr, len, prot, flags, fd, off);
}

RDC_SIM_API void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}
