/* SPDX-License-Identifier: MIT */
/*
 * sys.c — file access for the shim's own use.  The shim defines open(),
 * openat(), stat() ... itself (hook_files.c), so calling them from inside
 * would re-enter the hooks; these go to the kernel directly.
 *
 * rdc_sys_open is for fixed system paths only (/proc/self/maps, the KFD's
 * sysfs nodes): a blocking open that follows links.  A name that comes from
 * the environment, the user or the program goes through rdc_open_file
 * (shim/core/fileopen.c), which can neither block nor be redirected.
 * rdc_same_file tells whether two fstat results are one unchanged file.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim.h"

int rdc_sys_open(const char *path, int flags)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC, 0644);
}

int rdc_sys_exists(const char *path)
{
	struct stat st;
	return syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) == 0;
}

bool rdc_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}
