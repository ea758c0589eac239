/* SPDX-License-Identifier: MIT */
/*
 * kfd_events.c — AMDKFD_IOC_CREATE_EVENT / DESTROY_EVENT / SET_EVENT /
 * RESET_EVENT / WAIT_EVENTS on top of the event engine (events.c), with
 * KFD's answers (kfd_events.c, kfd_chardev.c):
 *  - the first CREATE_EVENT of a dGPU process passes the handle of the
 *    thunk's event page (a buffer object) in event_page_offset; a second
 *    one is EINVAL ("event page is already set"); slots start UNSIGNALED
 *    (all ones);
 *  - a signal event's id is its slot index and its trigger data, and its
 *    event_page_offset answer is KFD_MMAP_TYPE_EVENTS (kfd_event_create):
 *    the thunk sets HWData2 (the mailbox address ROCR puts into interrupt
 *    signals) only when that answer is non-zero;
 *  - unknown ids are EINVAL; WAIT_EVENTS blocks up to its timeout
 *    (0xffffffff: forever) and answers COMPLETE or TIMEOUT in wait_result;
 *    an event destroyed under a waiter fails the wait with EIO;
 *  - memory events (KFD_IOC_EVENT_MEMORY; ROCR creates one, manual reset,
 *    when it binds its error handlers) carry a GPU memory fault: the engine
 *    reports one through rdc_sim_kfd_memory_fault, which fills every memory
 *    event's kfd_hsa_memory_exception_data (gpu_id, va, failure.NotPresent,
 *    as kfd_signal_vm_fault_event does for an unmapped page) and sets it;
 *    WAIT_EVENTS copies that data into the waiter's kfd_event_data
 *    (copy_signaled_event_data), from which the thunk fills
 *    HsaMemoryAccessFault with Flags = HSA_EVENTID_MEMORY_FATAL_PROCESS and
 *    ROCR's VMFaultHandler prints its "Memory access fault by GPU node-N"
 *    line and aborts.
 */
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"


static pthread_mutex_t page_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t page_handle; /* 0: none set */

/* The memory events of the process and the fault each carries (under
 * page_lock). */
#define MAX_MEM_EVENTS 16
static struct mem_event {
	uint32_t id;
	bool faulted;
	struct kfd_hsa_memory_exception_data data;
} mem_ev[MAX_MEM_EVENTS];
static unsigned n_mem_ev;

static void mem_event_add(uint32_t id)
{
	pthread_mutex_lock(&page_lock);
	if (n_mem_ev < MAX_MEM_EVENTS)
		mem_ev[n_mem_ev++] = (struct mem_event){ .id = id };
	else
		rdc_sim_log("more than %d memory events: event %u will not report GPU memory faults",
			    MAX_MEM_EVENTS, id);
	pthread_mutex_unlock(&page_lock);
}

static void mem_event_remove(uint32_t id)
{
	pthread_mutex_lock(&page_lock);
	for (unsigned i = 0; i < n_mem_ev; i++)
		if (mem_ev[i].id == id) {
			mem_ev[i] = mem_ev[--n_mem_ev];
			break;
		}
	pthread_mutex_unlock(&page_lock);
}

bool rdc_sim_kfd_memory_fault(uint32_t gpu_id, uint64_t va)
{
	uint32_t ids[MAX_MEM_EVENTS];
	unsigned n;
	pthread_mutex_lock(&page_lock);
	n = n_mem_ev;
	for (unsigned i = 0; i < n; i++) {
		struct mem_event *m = &mem_ev[i];
		memset(&m->data, 0, sizeof m->data);
		m->data.gpu_id = gpu_id;
		m->data.va = va;
		m->data.failure.NotPresent = 1;
		m->faulted = true;
		ids[i] = m->id;
	}
	pthread_mutex_unlock(&page_lock);
	for (unsigned i = 0; i < n; i++)
		rdc_sim_event_set(ids[i]);
	return n > 0;
}

/* copy_signaled_event_data: a memory event's fault goes back to the waiter. */
static void copy_fault_data(struct kfd_event_data *ev, uint32_t num)
{
	pthread_mutex_lock(&page_lock);
	for (uint32_t i = 0; i < num; i++)
		for (unsigned k = 0; k < n_mem_ev; k++)
			if (mem_ev[k].id == ev[i].event_id && mem_ev[k].faulted)
				ev[i].memory_exception_data = mem_ev[k].data;
	pthread_mutex_unlock(&page_lock);
}

static int create(struct kfd_ioctl_create_event_args *a)
{
	if (a->event_page_offset) {
		uint64_t size = 0;
		uint64_t *page = rdc_sim_mem_by_handle(a->event_page_offset, &size);
		pthread_mutex_lock(&page_lock);
		int rc = page_handle ? -EINVAL : !page ? -EINVAL : 0;
		if (!rc)
			page_handle = a->event_page_offset;
		pthread_mutex_unlock(&page_lock);
		if (rc)
			return rc;
		memset(page, 0xff, size < RDC_SIM_MAX_EVENTS * 8 ? size : RDC_SIM_MAX_EVENTS * 8);
	}
	bool is_signal = a->event_type == KFD_IOC_EVENT_SIGNAL;
	if (a->event_type > KFD_IOC_EVENT_MEMORY)
		return -EINVAL;
	uint32_t id;
	int rc = rdc_sim_event_create(a->auto_reset != 0, false, is_signal, &id);
	if (rc)
		return rc;
	if (a->event_type == KFD_IOC_EVENT_MEMORY)
		mem_event_add(id);
	a->event_id = id;
	a->event_trigger_data = is_signal ? id : 0;
	a->event_slot_index = is_signal ? id : 0;
	if (is_signal || a->event_type == KFD_IOC_EVENT_DEBUG_EVENT)
		a->event_page_offset = 2ull << 62; /* kfd_priv.h KFD_MMAP_TYPE_EVENTS */
	return 0;
}

/* KFD 1.14's kfd_hsa_signal_event_data.last_event_age: the first 8 bytes of
 * kfd_event_data's union (Debian 12's header, KFD 1.11, predates the member).
 * The thunk sets it for signal events only; 0 is "no age" (older thunks, and
 * memory events, whose union holds the fault data coming back). */
static uint64_t event_age_of(const struct kfd_event_data *ev)
{
	uint64_t age;
	memcpy(&age, ev, sizeof age);
	return age;
}

static int wait_events(struct kfd_ioctl_wait_events_args *a)
{
	struct kfd_event_data *ev = (struct kfd_event_data *)(uintptr_t)a->events_ptr;
	if (!a->num_events || !ev)
		return -EINVAL;
	uint32_t one, *ids = a->num_events == 1 ? &one : calloc(a->num_events, sizeof *ids);
	uint64_t age1, *ages = a->num_events == 1 ? &age1 : calloc(a->num_events, sizeof *ages);
	if (!ids || !ages) {
		if (ids != &one)
			free(ids);
		if (ages != &age1)
			free(ages);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < a->num_events; i++) {
		ids[i] = ev[i].event_id;
		ages[i] = event_age_of(&ev[i]);
	}
	int result = RDC_SIM_WAIT_FAIL;
	int rc = rdc_sim_event_wait(ids, a->num_events, a->wait_for_all != 0,
				    a->timeout == 0xffffffffu ? UINT32_MAX : a->timeout, ages, &result);
	if (!rc)
		for (uint32_t i = 0; i < a->num_events; i++)
			if (ages[i])
				memcpy(&ev[i], &ages[i], sizeof ages[i]);
	if (ids != &one)
		free(ids);
	if (ages != &age1)
		free(ages);
	if (rc)
		return rc;
	if (result == RDC_SIM_WAIT_COMPLETE)
		copy_fault_data(ev, a->num_events);
	a->wait_result = result == RDC_SIM_WAIT_COMPLETE ? KFD_IOC_WAIT_RESULT_COMPLETE
			 : result == RDC_SIM_WAIT_TIMEOUT ? KFD_IOC_WAIT_RESULT_TIMEOUT
							  : KFD_IOC_WAIT_RESULT_FAIL;
	return result == RDC_SIM_WAIT_FAIL ? -EIO : 0;
}

int rdc_sim_kfd_events_ioctl(unsigned nr, void *arg)
{
	switch (nr) {
	case 0x08: return create(arg);
	case 0x09: {
		uint32_t id = ((struct kfd_ioctl_destroy_event_args *)arg)->event_id;
		int rc = rdc_sim_event_destroy(id);
		if (!rc)
			mem_event_remove(id);
		return rc;
	}
	case 0x0A: return rdc_sim_event_set(((struct kfd_ioctl_set_event_args *)arg)->event_id);
	case 0x0B: return rdc_sim_event_reset(((struct kfd_ioctl_reset_event_args *)arg)->event_id);
	case 0x0C: return wait_events(arg);
	default: return -ENOTTY;
	}
}

/* The KFD process ended: the next one sets its page again. */
void rdc_sim_kfd_events_end(void)
{
	pthread_mutex_lock(&page_lock);
	page_handle = 0;
	n_mem_ev = 0;
	pthread_mutex_unlock(&page_lock);
}
