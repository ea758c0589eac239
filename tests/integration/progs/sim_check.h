/* SPDX-License-Identifier: MIT */
/*
 * sim_check.h — what the simulator's direct tests (sim_kfd.c,
 * sim_events.c) share: CHECK(cond, fmt, ...) that names the line and exits 1,
 * and a monotonic clock in milliseconds.
 */
#ifndef SIM_CHECK_H
#define SIM_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(cond, ...)                                               \
	do {                                                           \
		if (!(cond)) {                                         \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                  \
			fputc('\n', stderr);                           \
			exit(1);                                       \
		}                                                      \
	} while (0)

static inline double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif
