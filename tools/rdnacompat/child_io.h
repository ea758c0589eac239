/* SPDX-License-Identifier: MIT */
/*
 * child_io.h — how the tool hears from a child process it forked to ask the
 * ROCm runtime something that may crash or hang (agents.c: the runtime's GPU
 * agents; selftest.c: the self-test's checks): fixed-size records over a
 * pipe until the child closes it or a deadline passes, then the child's
 * status, killed when it is late (child_io.c).
 */
#ifndef RDC_CHILD_IO_H
#define RDC_CHILD_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* Read records of `size` bytes from fd into rec until end of file or until
 * `end` (time(NULL) clock) passes; each whole record is handed to
 * take(ctx, rec).  A partial record at the end is dropped.  Returns true when
 * the deadline passed first.  Does not close fd. */
bool rdc_child_records(int fd, time_t end, void *rec, size_t size, void (*take)(void *ctx, void *rec),
		       void *ctx);

/* Wait for pid until `end`, then SIGKILL it and reap it.  Returns its wait
 * status; *killed says whether it was killed. */
int rdc_child_reap(pid_t pid, time_t end, bool *killed);

#endif
