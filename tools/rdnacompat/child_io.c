/* SPDX-License-Identifier: MIT */
/*
 * child_io.c — records from a forked child over a pipe, with a deadline, and
 * the child's status, killed when late (child_io.h).
 */
#include "child_io.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

bool rdc_child_records(int fd, time_t end, void *rec, size_t size, void (*take)(void *ctx, void *rec),
		       void *ctx)
{
	size_t got = 0;
	for (;;) {
		int left = (int)(end - time(NULL));
		struct pollfd pf = { fd, POLLIN, 0 };
		int pr = left > 0 ? poll(&pf, 1, left * 1000) : 0;
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			return true;
		ssize_t k = read(fd, (char *)rec + got, size - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
		if (got == size) {
			take(ctx, rec);
			got = 0;
		}
	}
}

int rdc_child_reap(pid_t pid, time_t end, bool *killed)
{
	int st = 0;
	*killed = false;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return st;
		if (time(NULL) >= end) {
			kill(pid, SIGKILL);
			*killed = true;
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return st;
		}
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}
