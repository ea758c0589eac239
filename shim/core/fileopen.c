/* SPDX-License-Identifier: MIT */
/*
 * fileopen.c — rdc_open_file (fileopen.h): opening a named file so that
 * nothing it turns out to be can hang or redirect us.  The open carries
 * O_NONBLOCK (a FIFO without a partner fails with ENXIO for writing, or
 * opens at once for reading and is then refused by type; a socket fails
 * with ENXIO; a device's open cannot wait for a carrier) and O_NOFOLLOW (a
 * final symlink fails with ELOOP); fstat decides the type; O_NONBLOCK is
 * then cleared so reads and writes on the regular file behave as usual.
 * With RDC_OPEN_OWNED a regular file that another user owns is refused.
 * This is one of the core's named file helpers: it touches nothing but the
 * descriptor it returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rdnacompat/fileopen.h"

const char *rdc_file_kind(unsigned m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFLNK: return "a symbolic link";
	default: return "not a regular file";
	}
}

/* Why an open failed, said by what the name is when errno alone would
 * mislead (ENXIO for a FIFO or socket, ELOOP for a symlink). */
static int open_failed(const char *path, int e, bool follow, struct rdc_diag *d)
{
	struct stat st;
	if ((e == ENXIO || e == ELOOP || e == EISDIR || e == ENODEV || e == EOPNOTSUPP) &&
	    syscall(SYS_newfstatat, AT_FDCWD, path, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0) {
		rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: is %s%s", path,
			     rdc_file_kind(st.st_mode),
			     S_ISLNK(st.st_mode) ? " (not followed)"
			     : S_ISREG(st.st_mode) ? "" : ", not a regular file");
	} else {
		rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: %s", path, strerror(e));
	}
	errno = e;
	return RDC_E_IO;
}

int rdc_open_file_st(const char *path, int flags, unsigned mode, unsigned allow, struct stat *out,
		     struct rdc_diag *d)
{
	if (!path || !*path) {
		errno = EINVAL;
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "empty file name");
	}
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path,
			      flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
				      ((allow & RDC_OPEN_FOLLOW) ? 0 : O_NOFOLLOW),
			      mode);
	if (fd < 0)
		return open_failed(path, errno, (allow & RDC_OPEN_FOLLOW) != 0, d);
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: cannot stat: %s", path, strerror(e));
	}
	bool ok = (S_ISREG(st.st_mode) && (allow & RDC_OPEN_REG)) ||
		  (S_ISCHR(st.st_mode) && (allow & RDC_OPEN_CHR));
	if (!ok) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return rdc_diag_set(d, RDC_E_FORMAT, RDC_NO_OFFSET, "%s: is %s, not %s", path,
				    rdc_file_kind(st.st_mode),
				    (allow & RDC_OPEN_CHR) ? "a regular file or character device"
							   : "a regular file");
	}
	if ((allow & RDC_OPEN_OWNED) && S_ISREG(st.st_mode) && st.st_uid != geteuid()) {
		close(fd);
		errno = EPERM;
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: is owned by uid %u, not this user (%u)",
				    path, (unsigned)st.st_uid, (unsigned)geteuid());
	}
	int fl = (allow & RDC_OPEN_KEEP_NONBLOCK) && S_ISREG(st.st_mode) ? 0 : fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_NONBLOCK && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0)) {
		int e = errno;
		close(fd);
		errno = e;
		return rdc_diag_set(d, RDC_E_IO, RDC_NO_OFFSET, "%s: fcntl: %s", path, strerror(e));
	}
	if (out)
		*out = st;
	return fd;
}

int rdc_open_file(const char *path, int flags, unsigned mode, unsigned allow, struct rdc_diag *d)
{
	return rdc_open_file_st(path, flags, mode, allow, NULL, d);
}
