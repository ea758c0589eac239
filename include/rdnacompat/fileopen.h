/* SPDX-License-Identifier: MIT */
/*
 * fileopen.h — the one way rdnacompat opens a file whose name it was given
 * (a user's path: log file, tables, CLI inputs; or one derived from the
 * decision cache's directory): so that a FIFO, a socket, a device or a
 * symbolic link can neither block the caller nor redirect the access.
 */
#ifndef RDNACOMPAT_FILEOPEN_H
#define RDNACOMPAT_FILEOPEN_H

#include "rdnacompat/error.h"

/* The file types a caller accepts (or'ed). */
enum rdc_open_allow {
	RDC_OPEN_REG = 1,   /* regular file */
	RDC_OPEN_CHR = 2,   /* character device (e.g. /dev/null for a log) */
	RDC_OPEN_FOLLOW = 4,/* follow a final symlink (inputs named by the user:
	                       libfoo.so -> libfoo.so.5; system files such as
	                       /etc/os-release); the type check applies to what
	                       it points to.  Never for files we create or the
	                       decision cache. */
	RDC_OPEN_OWNED = 8, /* a regular file must belong to the effective user
	                       (files we write or trust: the log, the decision
	                       cache), so another user's file planted under the
	                       name is refused */
	RDC_OPEN_KEEP_NONBLOCK = 16, /* a regular file keeps O_NONBLOCK (no effect on
	                       a regular file's reads, pread or mmap): two fcntl
	                       calls fewer, for files opened once per fat binary */
};

/* Open `path` with `flags` (O_RDONLY, or O_WRONLY|O_CREAT|O_APPEND ...;
 * `mode` for O_CREAT) plus O_NONBLOCK|O_NOFOLLOW|O_NOCTTY|O_CLOEXEC, so the
 * open itself cannot wait for a FIFO's partner nor follow a final symlink;
 * then fstat and refuse any type not in `allow`; then clear O_NONBLOCK.
 * Goes to the kernel directly (openat(2)), so the shim's own open hooks
 * are not re-entered.  Returns the descriptor, or a negative RDC_E_* with
 * "PATH: why" in `d` (e.g. "is a FIFO", "is a symbolic link (not
 * followed)"); errno is set as the failing call left it (ELOOP, ENXIO,
 * EISDIR..., or EINVAL for a refused type).  Never quotes file content. */
int rdc_open_file(const char *path, int flags, unsigned mode, unsigned allow, struct rdc_diag *d);
/* The same, and the fstat it did in *st (when not NULL). */
struct stat;
int rdc_open_file_st(const char *path, int flags, unsigned mode, unsigned allow, struct stat *st,
		     struct rdc_diag *d);

/* "a FIFO", "a socket", "a directory", ... for an st_mode. */
const char *rdc_file_kind(unsigned st_mode);

#endif
