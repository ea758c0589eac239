/* SPDX-License-Identifier: MIT */
/*
 * events.c — KFD events: ids 1..4095, each with an 8-byte mailbox slot in one
 * events page (HWData2 = mailbox address, as ROCR's interrupt signals expect;
 * EventId is what SDMA TRAP packets and amd_signal_t.event_id carry).
 * Waits block on a condition variable with real CLOCK_MONOTONIC timeouts
 * (ROCR's async-event thread lives in hsaKmtWaitOnMultipleEvents).
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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sim.h"

#define MAX_EVENTS 4096

struct waiter;

struct sim_event {
	HsaEvent ev;        /* must be first: the HsaEvent* we hand out */
	bool manual_reset;
	bool signaled;
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
static uint64_t *mailboxes; /* MAX_EVENTS slots */
static uint32_t next_id = 1;

static void ev_init(void)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&ev_cond, &a);
	pthread_condattr_destroy(&a);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtCreateEvent(HsaEventDescriptor *desc, bool manual_reset,
					     bool is_signaled, HsaEvent **out)
{
	if (!desc || !out)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!rdc_sim_is_open())
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	pthread_once(&ev_once, ev_init);
	struct sim_event *e = calloc(1, sizeof *e);
	if (!e)
		return HSAKMT_STATUS_NO_MEMORY;
	/* The mailbox page is made and tracked outside ev_lock (lock order:
	 * memory lock, then ev_lock, as the engines take them). */
	uint64_t *fresh = NULL;
	if (!__atomic_load_n(&mailboxes, __ATOMIC_ACQUIRE)) {
		void *p = mmap(NULL, MAX_EVENTS * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || rdc_sim_mem_track(p, MAX_EVENTS * 8)) {
			if (p != MAP_FAILED)
				munmap(p, MAX_EVENTS * 8);
			free(e);
			return HSAKMT_STATUS_NO_MEMORY;
		}
		fresh = p;
	}
	if (fresh) {
		pthread_mutex_lock(&ev_lock);
		if (!mailboxes) {
			__atomic_store_n(&mailboxes, fresh, __ATOMIC_RELEASE);
			fresh = NULL;
		}
		pthread_mutex_unlock(&ev_lock);
		if (fresh) { /* another thread made the page first */
			rdc_sim_mem_untrack(fresh);
			munmap(fresh, MAX_EVENTS * 8);
		}
	}
	pthread_mutex_lock(&ev_lock);
	if (!mailboxes) { /* closed meanwhile */
		pthread_mutex_unlock(&ev_lock);
		free(e);
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	}
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
		return HSAKMT_STATUS_OUT_OF_RESOURCES;
	}
	next_id = id + 1;
	e->ev.EventId = id;
	e->ev.EventData.EventType = desc->EventType;
	e->ev.EventData.HWData1 = id;
	e->ev.EventData.HWData2 = (HSAuint64)(uintptr_t)&mailboxes[id];
	e->ev.EventData.HWData3 = id;
	e->ev.EventData.EventData.SyncVar = desc->SyncVar;
	e->manual_reset = manual_reset;
	e->signaled = is_signaled;
	mailboxes[id] = 0;
	table[id] = e;
	pthread_mutex_unlock(&ev_lock);
	*out = &e->ev;
	return HSAKMT_STATUS_SUCCESS;
}

static struct sim_event *lookup_locked(const HsaEvent *ev)
{
	if (!ev || ev->EventId == 0 || ev->EventId >= MAX_EVENTS)
		return NULL;
	struct sim_event *e = table[ev->EventId];
	return e && &e->ev == ev ? e : NULL;
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
	table[e->ev.EventId] = NULL;
	pthread_cond_broadcast(&ev_cond);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtDestroyEvent(HsaEvent *ev)
{
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	struct sim_event *e = lookup_locked(ev);
	if (e)
		destroy_locked(e);
	pthread_mutex_unlock(&ev_lock);
	if (!e)
		return HSAKMT_STATUS_INVALID_HANDLE;
	free(e);
	return HSAKMT_STATUS_SUCCESS;
}

/* KFD's set_event: activate every waiter registered on e now (they stay
 * registered until their wait returns, as on KFD's wait queue); an
 * auto-reset event stays signaled only if there was none.  Caller holds
 * ev_lock. */
static void set_locked(struct sim_event *e)
{
	e->signaled = e->manual_reset || !e->waiters;
	for (struct waiter *w = e->waiters; w; w = w->next)
		w->activated = true;
	pthread_cond_broadcast(&ev_cond);
}

void rdc_sim_event_fire(uint32_t id)
{
	if (id == 0 || id >= MAX_EVENTS)
		return;
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	if (table[id])
		set_locked(table[id]);
	pthread_mutex_unlock(&ev_lock);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSetEvent(HsaEvent *ev)
{
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	struct sim_event *e = lookup_locked(ev);
	if (e)
		set_locked(e);
	pthread_mutex_unlock(&ev_lock);
	return e ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

/* Activated (any / all), a destroyed event (fail), or neither. */
enum { W_WAIT, W_DONE, W_FAIL };
static int wait_state_locked(const struct waiter *w, HSAuint32 n, bool all)
{
	HSAuint32 active = 0;
	for (HSAuint32 i = 0; i < n; i++) {
		if (!w[i].event)
			return W_FAIL;
		if (w[i].activated)
			active++;
	}
	return (all ? active == n : active > 0) ? W_DONE : W_WAIT;
}

/* KFD's kfd_wait_on_events.  An unknown event is refused up front
 * (INVALID_HANDLE), before any event is taken; one destroyed during the wait
 * fails it with HSAKMT_STATUS_ERROR (what the real thunk returns when the
 * ioctl fails with EIO).  Nothing of events[] is read once the waiters are
 * registered: an HsaEvent may be freed under a sleeping waiter. */
RDC_SIM_API HSAKMT_STATUS hsaKmtWaitOnMultipleEvents(HsaEvent *events[], HSAuint32 n, bool all,
						      HSAuint32 ms)
{
	if (!events || n == 0)
		return HSAKMT_STATUS_INVALID_PARAMETER;
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
		return HSAKMT_STATUS_NO_MEMORY;
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	pthread_mutex_lock(&ev_lock);
	for (HSAuint32 i = 0; i < n; i++) {
		if (!lookup_locked(events[i])) {
			st = HSAKMT_STATUS_INVALID_HANDLE;
			goto out;
		}
	}
	/* init_event_waiter: take a signaled event (resetting an auto-reset
	 * one), else sleep on it. */
	for (HSAuint32 i = 0; i < n; i++) {
		struct sim_event *e = lookup_locked(events[i]);
		w[i].event = e;
		w[i].activated = e->signaled;
		if (!e->manual_reset)
			e->signaled = false;
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
			st = ws == W_DONE ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR;
			break;
		}
		if (ms == 0) {
			st = HSAKMT_STATUS_WAIT_TIMEOUT;
			break;
		}
		int rc = ms == HSA_EVENTTIMEOUT_INFINITE
				 ? pthread_cond_wait(&ev_cond, &ev_lock)
				 : pthread_cond_timedwait(&ev_cond, &ev_lock, &deadline);
		if (rc == ETIMEDOUT) {
			ws = wait_state_locked(w, n, all);
			st = ws == W_DONE ? HSAKMT_STATUS_SUCCESS
			     : ws == W_FAIL ? HSAKMT_STATUS_ERROR : HSAKMT_STATUS_WAIT_TIMEOUT;
			break;
		}
	}
out:
	for (HSAuint32 i = 0; i < n; i++)
		unlink_waiter(&w[i]);
	pthread_mutex_unlock(&ev_lock);
	if (w != &one)
		free(w);
	return st;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtWaitOnEvent(HsaEvent *ev, HSAuint32 ms)
{
	return hsaKmtWaitOnMultipleEvents(&ev, 1, true, ms);
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
	uint64_t *mb = mailboxes;
	mailboxes = NULL;
	pthread_mutex_unlock(&ev_lock);
	if (mb) { /* outside ev_lock: engines take the memory lock, then ev_lock */
		rdc_sim_mem_untrack(mb);
		munmap(mb, MAX_EVENTS * 8);
	}
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
