/* SPDX-License-Identifier: MIT */
/*
 * sim_events.c — wake-up semantics of the simulated thunk's events, as KFD
 * has them (kfd_events.c: set_event, init_event_waiter, destroy_event),
 * through Debian's hsakmt.h with threads asleep in hsaKmtWaitOnEvent:
 *   - a set activates every waiter asleep on the event at that moment, and
 *     an auto-reset event then stays unsignaled, so a wait that starts right
 *     after the set cannot take the wake-up from the sleeper (ROCR 5.2's
 *     hsa_shut_down hung on exactly that: its main thread and its
 *     async-events thread sleep on one shared event);
 *   - one set wakes all sleepers; a manual-reset event stays signaled;
 *   - a wait for all keeps what it got until the rest comes;
 *   - hsaKmtDestroyEvent and hsaKmtCloseKFD wake the sleepers, whose wait
 *     fails instead of sleeping forever.
 * Each sleeper has a bounded timeout, so a lost wake-up fails, never hangs.
 * Prints "ok: ..." per check; exits non-zero on the first failure.
 */
#define _GNU_SOURCE
#include <hsakmt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sim_check.h"

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

struct sleeper {
	HsaEvent *ev[2];
	unsigned n;
	bool all;
	HSAuint32 ms;
	pid_t tid;              /* set before the wait starts */
	HSAKMT_STATUS st;
	double took_ms;
	int done;               /* atomic */
	pthread_t thread;
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	double t0 = now_ms();
	s->st = s->n == 1 ? hsaKmtWaitOnEvent(s->ev[0], s->ms)
			  : hsaKmtWaitOnMultipleEvents(s->ev, s->n, s->all, s->ms);
	s->took_ms = now_ms() - t0;
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Thread state from /proc ('S': blocked, here in the wait's futex). */
static char task_state(pid_t tid)
{
	char path[64], buf[256];
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return '?';
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Start a thread waiting on ev[0..n) and return once it is asleep in the
 * wait (blocked, then a little longer: it registers before it blocks). */
static void start(struct sleeper *s, HsaEvent *a, HsaEvent *b, bool all, HSAuint32 ms)
{
	memset(s, 0, sizeof *s);
	s->ev[0] = a;
	s->ev[1] = b;
	s->n = b ? 2 : 1;
	s->all = all;
	s->ms = ms;
	CHECK(pthread_create(&s->thread, NULL, sleeper_main, s) == 0, "pthread_create");
	double t0 = now_ms();
	pid_t tid;
	while (!(tid = __atomic_load_n(&s->tid, __ATOMIC_ACQUIRE)) || task_state(tid) != 'S') {
		CHECK(!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE), "the wait returned at once (status %d)",
		      (int)s->st);
		CHECK(now_ms() - t0 < 10000, "the waiting thread never blocked");
		sleep_ms(1);
	}
	sleep_ms(100);
	CHECK(!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE), "the wait returned early (status %d)", (int)s->st);
}

/* Join within limit_ms, or fail (the thread slept through its wake-up). */
static void finish(struct sleeper *s, unsigned limit_ms, const char *what)
{
	double t0 = now_ms();
	while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) {
		CHECK(now_ms() - t0 < limit_ms, "%s: the sleeper was not woken", what);
		sleep_ms(1);
	}
	pthread_join(s->thread, NULL);
}

int main(void)
{
	CHECK(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "open");
	/* The real thunk allocates its event page on a GPU of the snapshot. */
	HsaSystemProperties sp;
	CHECK(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, "topology");
	HsaEventDescriptor ed = { .EventType = HSA_EVENTTYPE_SIGNAL, .NodeId = 0 };
	HsaEvent *ev, *ev2, *evm, *gone, *last;
	CHECK(hsaKmtCreateEvent(&ed, false, false, &ev) == 0, "create");
	CHECK(hsaKmtCreateEvent(&ed, false, false, &ev2) == 0, "create");
	CHECK(hsaKmtCreateEvent(&ed, true, false, &evm) == 0, "create manual");
	CHECK(hsaKmtCreateEvent(&ed, false, false, &gone) == 0, "create");
	CHECK(hsaKmtCreateEvent(&ed, false, false, &last) == 0, "create");
	struct sleeper s1, s2;

	/* The lost wake-up: set, then at once a wait of our own on the same
	 * auto-reset event.  The sleeper must get it, and we must not. */
	start(&s1, ev, NULL, false, 3000);
	CHECK(hsaKmtSetEvent(ev) == 0, "set");
	HSAKMT_STATUS mine = hsaKmtWaitOnEvent(ev, 0);
	finish(&s1, 5000, "set then a second wait");
	CHECK(s1.st == HSAKMT_STATUS_SUCCESS && s1.took_ms < 2500,
	      "the sleeper lost its wake-up to a wait that started after the set (sleeper %d after "
	      "%.0f ms, the later wait %d)", (int)s1.st, s1.took_ms, (int)mine);
	CHECK(mine == HSAKMT_STATUS_WAIT_TIMEOUT,
	      "a set that woke a sleeper left the auto-reset event signaled (later wait %d)", (int)mine);
	printf("ok: a set goes to the thread asleep on the event, not to a wait that starts after it\n");

	/* One set wakes every sleeper (wake_up_all). */
	start(&s1, ev, NULL, false, 3000);
	start(&s2, ev, NULL, false, 3000);
	CHECK(hsaKmtSetEvent(ev) == 0, "set");
	finish(&s1, 5000, "two sleepers, first");
	finish(&s2, 5000, "two sleepers, second");
	CHECK(s1.st == 0 && s2.st == 0 && s1.took_ms < 2500 && s2.took_ms < 2500,
	      "one set woke %d of 2 sleepers", (s1.st == 0) + (s2.st == 0));
	CHECK(hsaKmtWaitOnEvent(ev, 0) == HSAKMT_STATUS_WAIT_TIMEOUT, "auto-reset after the wake-up");
	printf("ok: one set wakes every sleeper; the auto-reset event is then unsignaled\n");

	/* A manual-reset event wakes its sleeper and stays signaled. */
	start(&s1, evm, NULL, false, 3000);
	CHECK(hsaKmtSetEvent(evm) == 0, "set manual");
	finish(&s1, 5000, "manual reset");
	CHECK(s1.st == 0, "manual-reset sleeper: %d", (int)s1.st);
	CHECK(hsaKmtWaitOnEvent(evm, 0) == 0 && hsaKmtWaitOnEvent(evm, 0) == 0, "manual reset stays signaled");
	printf("ok: a manual-reset event wakes its sleeper and stays signaled\n");

	/* Wait for all: the first set is kept while the second is awaited. */
	start(&s1, ev, ev2, true, 3000);
	CHECK(hsaKmtSetEvent(ev) == 0, "set first");
	sleep_ms(100);
	CHECK(!__atomic_load_n(&s1.done, __ATOMIC_ACQUIRE), "wait-all returned with one event of two");
	CHECK(hsaKmtSetEvent(ev2) == 0, "set second");
	finish(&s1, 5000, "wait for all");
	CHECK(s1.st == 0 && s1.took_ms < 2500, "wait-all: %d after %.0f ms", (int)s1.st, s1.took_ms);
	/* Wait for any, woken by the second of two. */
	start(&s1, ev, ev2, false, 3000);
	CHECK(hsaKmtSetEvent(ev2) == 0, "set second");
	finish(&s1, 5000, "wait for any");
	CHECK(s1.st == 0 && s1.took_ms < 2500, "wait-any: %d", (int)s1.st);
	printf("ok: wait for all keeps the first set until the second; wait for any wakes on either\n");

	/* Destroying the event wakes its sleeper, whose wait fails (KFD's
	 * destroy_event; the ioctl fails with EIO). */
	start(&s1, gone, NULL, false, HSA_EVENTTIMEOUT_INFINITE);
	CHECK(hsaKmtDestroyEvent(gone) == 0, "destroy");
	finish(&s1, 5000, "destroy");
	CHECK(s1.st != HSAKMT_STATUS_SUCCESS && s1.st != HSAKMT_STATUS_WAIT_TIMEOUT,
	      "wait on a destroyed event: %d", (int)s1.st);
	printf("ok: destroying an event wakes its sleeper, whose wait fails (status %d)\n", (int)s1.st);

	/* Closing the KFD destroys every event: a sleeper wakes the same way. */
	CHECK(hsaKmtDestroyEvent(ev) == 0 && hsaKmtDestroyEvent(ev2) == 0 && hsaKmtDestroyEvent(evm) == 0,
	      "destroy");
	start(&s1, last, NULL, false, HSA_EVENTTIMEOUT_INFINITE);
	CHECK(hsaKmtCloseKFD() == 0, "close");
	finish(&s1, 5000, "close");
	CHECK(s1.st != HSAKMT_STATUS_SUCCESS && s1.st != HSAKMT_STATUS_WAIT_TIMEOUT,
	      "wait across hsaKmtCloseKFD: %d", (int)s1.st);
	printf("ok: hsaKmtCloseKFD wakes a sleeper, whose wait fails\n");
	return 0;
}
