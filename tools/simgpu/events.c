/* SPDX-License-Identifier: MIT */
/*
 * events.c — KFD events: ids 1..4095, each with an 8-byte mailbox slot in one
 * events page (HWData2 = mailbox address, as ROCR's interrupt signals expect;
 * EventId is what SDMA TRAP packets and amd_signal_t.event_id carry).
 * Waits block on a condition variable with real CLOCK_MONOTONIC timeouts
 * (ROCR's async-event thread lives in hsaKmtWaitOnMultipleEvents).  Auto-reset
 * events are reset when a wait consumes them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sim.h"

#define MAX_EVENTS 4096

struct sim_event {
	HsaEvent ev;        /* must be first: the HsaEvent* we hand out */
	bool manual_reset;
	bool signaled;
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

RDC_SIM_API HSAKMT_STATUS hsaKmtDestroyEvent(HsaEvent *ev)
{
	pthread_mutex_lock(&ev_lock);
	struct sim_event *e = lookup_locked(ev);
	if (e)
		table[ev->EventId] = NULL;
	pthread_mutex_unlock(&ev_lock);
	if (!e)
		return HSAKMT_STATUS_INVALID_HANDLE;
	free(e);
	return HSAKMT_STATUS_SUCCESS;
}

void rdc_sim_event_fire(uint32_t id)
{
	if (id == 0 || id >= MAX_EVENTS)
		return;
	pthread_once(&ev_once, ev_init);
	pthread_mutex_lock(&ev_lock);
	if (table[id]) {
		table[id]->signaled = true;
		pthread_cond_broadcast(&ev_cond);
	}
	pthread_mutex_unlock(&ev_lock);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSetEvent(HsaEvent *ev)
{
	pthread_mutex_lock(&ev_lock);
	struct sim_event *e = lookup_locked(ev);
	if (e) {
		e->signaled = true;
		pthread_cond_broadcast(&ev_cond);
	}
	pthread_mutex_unlock(&ev_lock);
	return e ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

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
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	pthread_mutex_lock(&ev_lock);
	for (;;) {
		HSAuint32 ready = 0;
		bool bad = false;
		for (HSAuint32 i = 0; i < n; i++) {
			struct sim_event *e = lookup_locked(events[i]);
			if (!e)
				bad = true;
			else if (e->signaled)
				ready++;
		}
		if (bad) {
			st = HSAKMT_STATUS_INVALID_HANDLE;
			break;
		}
		if (all ? ready == n : ready > 0) {
			for (HSAuint32 i = 0; i < n; i++) {
				struct sim_event *e = lookup_locked(events[i]);
				if (e->signaled && !e->manual_reset)
					e->signaled = false;
			}
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
			st = HSAKMT_STATUS_WAIT_TIMEOUT;
			break;
		}
	}
	pthread_mutex_unlock(&ev_lock);
	return st;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtWaitOnEvent(HsaEvent *ev, HSAuint32 ms)
{
	return hsaKmtWaitOnMultipleEvents(&ev, 1, true, ms);
}

void rdc_sim_events_close(void)
{
	pthread_mutex_lock(&ev_lock);
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		free(table[i]);
		table[i] = NULL;
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
 * start afresh. */
void rdc_sim_events_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
	ev_lock = fresh;
	ev_init();
}
