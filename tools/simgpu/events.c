/* SPDX-License-Identifier: MIT */
/*
 * events.c — the event engine behind AMDKFD_IOC_CREATE_EVENT / DESTROY /
 * SET / RESET / WAIT_EVENTS (kfd_events.c is the ioctl side): ids 1..4095
 * (KFD's signal-event range; the id is what SDMA TRAP packets and
 * amd_signal_t.event_id carry).  Waits block on a condition variable with
 * real CLOCK_MONOTONIC timeouts (ROCR's async-event thread lives in
 * WAIT_EVENTS).
 *
 * Wake-ups follow KFD (kfd_events.c): a wait registers one waiter per event;
 * it takes an event that is already signaled (resetting an auto-reset one)
 * and otherwise sleeps on it.  Setting an event activates every waiter
 * registered on it at that moment, and an auto-reset event stays signaled
 * only if nobody was waiting (set_event).  So a thread already asleep keeps
 * its wake-up even if another thread starts a wait on the same event right
 * after the set.  ROCR 5.2 needs that: one event serves the inactive and
 * exception signals of all its queues, and in hsa_shut_down (~AqlQueue) the
 * main thread sleeps on it until the async-events thread's handler stores -1
 * into the queue's inactive signal and sets it, while that thread's next
 * wait (for the exception signal) is on the same event.  With one
 * "signaled" bit taken by whichever thread looked first, that next wait
 * could take the set meant for the main thread and both slept forever
 * (about one run in a hundred under load).  Destroying an event wakes its
 * waiters, whose wait then fails.
 *
 * Signal events also keep KFD 1.14's event age (set_event: +1, never back to
 * the reserved 0 and 1; init_event_waiter: a waiter whose last seen age
 * differs is activated at once; copy_signaled_event_data: the age goes back).
 * ROCR 6.4 and 7.2 use it from KFD 1.14 on (KfdVersion().supports_event_age)
 * and are racy without it: their wait loops check a signal's value, then
 * sleep on its event; a set landing between the two can be lost, and
 * test_thrust_swap_ranges hung about one run in sixty under load (2026-12-05)
 * with the async-events thread asleep and a handler never called.  The age
 * closes that window, as on every kernel those releases support.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

#define MAX_EVENTS RDC_SIM_MAX_EVENTS

struct waiter;

struct sim_event {
	uint32_t id;
	bool manual_reset;
	bool signaled;
	bool has_age;           /* a signal event: KFD 1.14's event age */
	uint64_t age;
	struct waiter *waiters; /* asleep on this event (KFD's wait queue) */
};

/* One per event of a wait (the waiting thread's stack or heap), linked into
 * its event's list from registration until the wait returns, unless the
 * event was already signaled then.  All fields under ev_lock. */
struct waiter {
	struct sim_event *event;  /* NULL once the event is destroyed */
	bool activated;
	struct waiter *next, **pprev;
};

static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cond;
static pthread_once_t ev_once = PTHREAD_ONCE_INIT;
static struct sim_event *table[MAX_EVENTS];
static uint32_t next_id = 1;

static void ev_init(void)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&ev_cond, &a);
	pthread_condattr_destroy(&a);
}

int rdc_sim_event_create(bool auto_reset, bool signaled, bool signal_event, uint32_t *out)
{
	pthread_once(&ev_once, ev_init);
	struct sim_event *e = calloc(1, sizeof *e);
	if (!e)
		return -ENOMEM;
	pthread_mutex_lock(&ev_lock);
	uint32_t id = 0;
	for (uint32_t k = 0; k < MAX_EVENTS - 1; k++) {
		uint32_t cand = 1 + (next_id - 1 + k) % (MAX_EVENTS - 1);
		if (!table[cand]) {
			id = cand;
			break;
		}
	}
	if (!id) {
		pthread_mutex_unlock(&ev_lock);
		free(e);
		return -ENOSPC;
	}
	next_id = id + 1;
	e->id = id;
	e->manual_reset = !auto_reset;
	e->signaled = signaled;
	e->has_age = signal_event;
	e->age = 1;
	table[id] = e;
	pthread_mutex_unlock(&ev_lock);
	*out = id;
	return 0;
}

static struct sim_event *lookup_locked(uint32_t id)
{
	return id > 0 && id < MAX_EVENTS ? table[id] : NULL;
}

static void unlink_waiter(struct waiter *w)
{
	if (w->pprev) {
		*w->pprev = w->next;
		if (w->next)
			w->next->pprev = w->pprev;
		w->next = NULL;
		w->pprev = NULL;
	}
}

/* KFD's destroy_event: every waiter learns the event is gone and wakes
 * (its wait fails); the caller frees e.  Caller holds ev_lock. */
static void destroy_locked(struct sim_event *e)
{
	while (e->waiters) {
		struct waiter *w = e->waiters;
		unlink_waiter(w);
		w->event = NULL;
	}
	table[e->id] = NULL;
	pthread_cond_broadcast(&ev_cond);
}

int rdc_sim_event_destroy(uint32_t id)
{
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	struct sim_event *e = lookup_locked(id);
	if (e)
		destroy_locked(e);
	pthread_mutex_unlock(&ev_lock);
	if (!e)
		return -EINVAL;
	free(e);
	return 0;
}

/* KFD's set_event: activate every waiter registered on e now (they stay
 * registered until their wait returns, as on KFD's wait queue); an
 * auto-reset event stays signaled only if there was none.  Caller holds
 * ev_lock. */
static void set_locked(struct sim_event *e)
{
	e->signaled = e->manual_reset || !e->waiters;
	if (++e->age == 0)
		e->age = 2;
	for (struct waiter *w = e->waiters; w; w = w->next)
		w->activated = true;
	pthread_cond_broadcast(&ev_cond);
}

void rdc_sim_event_fire(uint32_t id)
{
	rdc_sim_event_set(id);
}

int rdc_sim_event_set(uint32_t id)
{
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	struct sim_event *e = lookup_locked(id);
	if (e)
		set_locked(e);
	pthread_mutex_unlock(&ev_lock);
	return e ? 0 : -EINVAL;
}

int rdc_sim_event_reset(uint32_t id)
{
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	struct sim_event *e = lookup_locked(id);
	if (e)
		e->signaled = false;
	pthread_mutex_unlock(&ev_lock);
	return e ? 0 : -EINVAL;
}

/* Activated (any / all), a destroyed event (fail), or neither. */
enum { W_WAIT, W_DONE, W_FAIL };
static int wait_state_locked(const struct waiter *w, uint32_t n, bool all)
{
	uint32_t active = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!w[i].event)
			return W_FAIL;
		if (w[i].activated)
			active++;
	}
	return (all ? active == n : active > 0) ? W_DONE : W_WAIT;
}

/* KFD's kfd_wait_on_events.  An unknown event is refused up front (EINVAL),
 * before any event is taken; one destroyed during the wait fails it
 * (RDC_SIM_WAIT_FAIL; the ioctl side answers EIO as KFD does). */
int rdc_sim_event_wait(const uint32_t *ids, uint32_t n, bool all, uint32_t ms, uint64_t *ages,
		       int *result)
{
	if (!ids || n == 0)
		return -EINVAL;
	pthread_once(&ev_once, ev_init);
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	struct waiter one = { 0 }, *w = n == 1 ? &one : calloc(n, sizeof *w);
	if (!w)
		return -ENOMEM;
	int rc = 0;
	pthread_mutex_lock(&ev_lock);
	for (uint32_t i = 0; i < n; i++) {
		if (!lookup_locked(ids[i])) {
			rc = -EINVAL;
			goto out;
		}
	}
	/* init_event_waiter: take a signaled event (resetting an auto-reset
	 * one) or a signal event set since the age the waiter last saw, else
	 * sleep on it. */
	for (uint32_t i = 0; i < n; i++) {
		struct sim_event *e = lookup_locked(ids[i]);
		w[i].event = e;
		w[i].activated = e->signaled;
		if (!e->manual_reset)
			e->signaled = false;
		if (ages && ages[i] && e->has_age && e->age != ages[i])
			w[i].activated = true;
		if (!w[i].activated) {
			w[i].next = e->waiters;
			if (e->waiters)
				e->waiters->pprev = &w[i].next;
			w[i].pprev = &e->waiters;
			e->waiters = &w[i];
		}
	}
	for (;;) {
		int ws = wait_state_locked(w, n, all);
		if (ws != W_WAIT) {
			*result = ws == W_DONE ? RDC_SIM_WAIT_COMPLETE : RDC_SIM_WAIT_FAIL;
			break;
		}
		if (ms == 0) {
			*result = RDC_SIM_WAIT_TIMEOUT;
			break;
		}
		int prc = ms == UINT32_MAX ? pthread_cond_wait(&ev_cond, &ev_lock)
					   : pthread_cond_timedwait(&ev_cond, &ev_lock, &deadline);
		if (prc == ETIMEDOUT) {
			ws = wait_state_locked(w, n, all);
			*result = ws == W_DONE ? RDC_SIM_WAIT_COMPLETE
				  : ws == W_FAIL ? RDC_SIM_WAIT_FAIL : RDC_SIM_WAIT_TIMEOUT;
			break;
		}
	}
out:
	for (uint32_t i = 0; i < n; i++) {
		unlink_waiter(&w[i]);
		if (!rc && ages && ages[i] && w[i].activated && w[i].event && w[i].event->has_age)
			ages[i] = w[i].event->age;
	}
	pthread_mutex_unlock(&ev_lock);
	if (w != &one)
		free(w);
	return rc;
}

void rdc_sim_events_close(void)
{
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		struct sim_event *e = table[i];
		if (e) {
			destroy_locked(e);
			free(e);
		}
	}
	next_id = 1;
	pthread_mutex_unlock(&ev_lock);
}

/* In a forked child no other thread exists: the lock may have been held by
 * one at fork time and the condition variable may count waiters that stayed
 * in the parent (a broadcast could then wait for them forever), so both
 * start afresh, and the waiter lists (those threads' waits) are emptied. */
void rdc_sim_events_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
	ev_lock = fresh;
	ev_init();
	for (unsigned i = 0; i < MAX_EVENTS; i++)
		if (table[i])
			table[i]->waiters = NULL;
}
