/* SPDX-License-Identifier: MIT */
/*
 * queues.c — user-mode queues and the simulated command processor.
 *
 * Each queue gets a thread that polls its ring (doorbell writes cannot be
 * trapped without a device, so it polls with a backoff from a yield up to
 * 1 ms when idle).  AQL queues (ROCR passes the read/write dispatch-id
 * pointers in): packets are retired in order once their header is no longer
 * INVALID — kernel dispatch (traced; the kernel is NOT executed), barrier-AND,
 * barrier-OR, AMD vendor packets (PM4 IB: retired; barrier-value: waits for its
 * condition) — then the header is set INVALID, the read index advances, and
 * the completion signal is decremented with its event fired (interrupt
 * signals).  Agent-dispatch packets are unsupported: said once on stderr and
 * retired so nothing hangs.  SDMA queues (ROCR passes NULL pointers and gets
 * ours back) run sdma.c.
 */
#include <errno.h>
#include <hsa.h>
#include <hsa_ext_amd.h>
#include <amd_hsa_signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

struct sim_queue {
	struct rdc_sim_ring ring;     /* first */
	uint64_t doorbell __attribute__((aligned(64)));
	uint64_t rptr_store __attribute__((aligned(64))); /* SDMA: ours */
	uint64_t wptr_store __attribute__((aligned(64)));
	HSA_QUEUEID id;
	HSA_QUEUE_TYPE type;
	pid_t owner;
	int stop;                     /* atomic */
	pthread_t thread;
	struct sim_queue *next;
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_queue *queues;
static HSA_QUEUEID next_qid = 1;

/* Idle-poll backoff: yield first, then sleep 10, 20, ... up to 1280 us. */
static void nap(unsigned *backoff_us)
{
	if (*backoff_us == 0) {
		sched_yield();
		*backoff_us = 10;
		return;
	}
	struct timespec ts = { 0, (long)*backoff_us * 1000L };
	nanosleep(&ts, NULL);
	if (*backoff_us < 1000)
		*backoff_us *= 2;
}

/* A signal the "GPU" may touch: inside tracked memory, like real hardware
 * that would fault on anything else. */
static bool signal_ok(uint64_t handle)
{
	if (rdc_sim_mem_valid((uintptr_t)handle, sizeof(amd_signal_t)))
		return true;
	rdc_sim_log("signal 0x%llx is outside every simulated allocation; not touched (a real GPU "
		    "would fault)", (unsigned long long)handle);
	return false;
}

static void signal_complete(uint64_t handle)
{
	if (!handle || !signal_ok(handle))
		return;
	amd_signal_t *s = (amd_signal_t *)(uintptr_t)handle;
	/* Read the mailbox and event id first: once the value reaches its target
	 * the waiter may return and free or reuse the signal. */
	uint64_t mailbox = __atomic_load_n(&s->event_mailbox_ptr, __ATOMIC_ACQUIRE);
	uint32_t event_id = __atomic_load_n(&s->event_id, __ATOMIC_ACQUIRE);
	__atomic_sub_fetch(&s->value, 1, __ATOMIC_SEQ_CST);
	if (mailbox) {
		if (rdc_sim_mem_valid((uintptr_t)mailbox, 8))
			__atomic_store_n((volatile uint64_t *)(uintptr_t)mailbox, (uint64_t)event_id,
					 __ATOMIC_SEQ_CST);
		rdc_sim_event_fire(event_id);
	}
}

/* Value of a dependency signal; a bad one reads as 0 (satisfied) after the
 * message, so a broken program does not hang the queue forever. */
static int64_t signal_value(hsa_signal_t sig)
{
	if (!signal_ok(sig.handle))
		return 0;
	const amd_signal_t *s = (const amd_signal_t *)(uintptr_t)sig.handle;
	return __atomic_load_n(&s->value, __ATOMIC_ACQUIRE);
}

static bool cond_holds(uint32_t cond, int64_t v, int64_t want)
{
	switch (cond) {
	case HSA_SIGNAL_CONDITION_EQ: return v == want;
	case HSA_SIGNAL_CONDITION_NE: return v != want;
	case HSA_SIGNAL_CONDITION_LT: return v < want;
	case HSA_SIGNAL_CONDITION_GTE: return v >= want;
	default: return true;
	}
}

static void dispatch(struct sim_queue *q, const uint8_t *pkt)
{
	char kernel[256], proc[32];
	uint64_t kobj;
	memcpy(&kobj, pkt + 32, 8);
	bool elf = rdc_sim_kernel_lookup((uintptr_t)kobj, kernel, sizeof kernel, proc, sizeof proc);
	uint32_t ksize = 0;
	const char *internal = elf ? NULL : rdc_sim_blit_emulate(pkt, &ksize);
	if (internal) {
		snprintf(kernel, sizeof kernel, "%s", internal);
		snprintf(proc, sizeof proc, "%s", rdc_sim_node_proc(q->ring.node));
	} else if (!elf && !q->ring.warned) {
		rdc_sim_log("queue %llu: dispatch of kernel object 0x%llx that lies in no loaded code "
			    "object; retired without effect", (unsigned long long)q->id,
			    (unsigned long long)kobj);
		q->ring.warned = true;
	}
	rdc_sim_trace_dispatch(q->ring.node, pkt, kernel, proc, ksize);
}

/* One AQL packet: true if retired (or unsupported and retired). */
static bool aql_packet(struct sim_queue *q, uint8_t *pkt, uint16_t header)
{
	unsigned type = (header >> HSA_PACKET_HEADER_TYPE) & 0xff;
	uint64_t completion = 0;
	memcpy(&completion, pkt + 56, 8);
	switch (type) {
	case HSA_PACKET_TYPE_KERNEL_DISPATCH:
		dispatch(q, pkt);
		break;
	case HSA_PACKET_TYPE_BARRIER_AND:
	case HSA_PACKET_TYPE_BARRIER_OR: {
		const hsa_barrier_and_packet_t *b = (const hsa_barrier_and_packet_t *)pkt;
		unsigned deps = 0, zero = 0;
		for (int i = 0; i < 5; i++) {
			if (!b->dep_signal[i].handle)
				continue;
			deps++;
			if (signal_value(b->dep_signal[i]) == 0)
				zero++;
		}
		bool ready = type == HSA_PACKET_TYPE_BARRIER_AND ? zero == deps : (deps == 0 || zero > 0);
		if (!ready)
			return false;
		break;
	}
	case HSA_PACKET_TYPE_VENDOR_SPECIFIC: {
		const hsa_amd_barrier_value_packet_t *v = (const hsa_amd_barrier_value_packet_t *)pkt;
		if (v->header.AmdFormat == HSA_AMD_PACKET_TYPE_BARRIER_VALUE && v->signal.handle &&
		    !cond_holds(v->cond, signal_value(v->signal) & v->mask, v->value))
			return false;
		/* PM4 IB (cache flushes etc.): nothing to do without hardware. */
		break;
	}
	default:
		if (!q->ring.warned) {
			rdc_sim_log("queue %llu: AQL packet type %u is not supported by the simulator; "
				    "retiring it without effect", (unsigned long long)q->id, type);
			q->ring.warned = true;
		}
		break;
	}
	signal_complete(completion);
	return true;
}

/* Returns true if it made progress. */
static bool aql_poll(struct sim_queue *q)
{
	uint64_t n = q->ring.size / 64;
	uint64_t rd = __atomic_load_n(q->ring.rptr, __ATOMIC_ACQUIRE);
	uint64_t wr = __atomic_load_n(q->ring.wptr, __ATOMIC_ACQUIRE);
	bool progress = false;
	while (rd < wr && !__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE)) {
		uint8_t *pkt = q->ring.base + (rd % n) * 64;
		uint16_t header = __atomic_load_n((uint16_t *)pkt, __ATOMIC_ACQUIRE);
		if (((header >> HSA_PACKET_HEADER_TYPE) & 0xff) == HSA_PACKET_TYPE_INVALID)
			break; /* reserved, not yet written */
		rdc_sim_mem_hold();
		bool done = aql_packet(q, pkt, header);
		rdc_sim_mem_release();
		if (!done)
			break; /* barrier not satisfied yet */
		__atomic_store_n((uint16_t *)pkt, (uint16_t)(HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE),
				 __ATOMIC_RELEASE);
		rd++;
		__atomic_store_n(q->ring.rptr, rd, __ATOMIC_RELEASE);
		progress = true;
	}
	return progress;
}

static void *queue_thread(void *arg)
{
	struct sim_queue *q = arg;
	unsigned backoff = 0;
	while (!__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE)) {
		bool did = q->type == HSA_QUEUE_COMPUTE_AQL ? aql_poll(q) : rdc_sim_sdma_poll(&q->ring);
		if (did)
			backoff = 0;
		else
			nap(&backoff);
	}
	return NULL;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtCreateQueue(HSAuint32 node, HSA_QUEUE_TYPE type, HSAuint32 pct,
					     HSA_QUEUE_PRIORITY prio, void *addr, HSAuint64 size,
					     HsaEvent *event, HsaQueueResource *res)
{
	(void)pct;
	(void)prio;
	(void)event;
	if (!rdc_sim_is_open())
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	if (!res || !addr || size < 64)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!rdc_sim_node_is_gpu(node))
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	if (type != HSA_QUEUE_COMPUTE_AQL && type != HSA_QUEUE_SDMA && type != HSA_QUEUE_SDMA_XGMI) {
		rdc_sim_log("hsaKmtCreateQueue: queue type %d is not supported by the simulator "
			    "(AQL compute and SDMA only)", (int)type);
		return HSAKMT_STATUS_NOT_SUPPORTED;
	}
	if (type == HSA_QUEUE_COMPUTE_AQL && (!res->Queue_read_ptr_aql || !res->Queue_write_ptr_aql))
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (size & (size - 1))
		return HSAKMT_STATUS_INVALID_PARAMETER; /* QueueSizePowerOfTwo */
	struct sim_queue *q;
	if (posix_memalign((void **)&q, 64, sizeof *q))
		return HSAKMT_STATUS_NO_MEMORY;
	memset(q, 0, sizeof *q);
	q->ring.node = node;
	q->ring.base = addr;
	q->ring.size = size;
	q->type = type;
	q->owner = getpid();
	q->ring.doorbell = &q->doorbell;
	if (type == HSA_QUEUE_COMPUTE_AQL) {
		q->ring.rptr = (volatile uint64_t *)res->Queue_read_ptr_aql;
		q->ring.wptr = (volatile uint64_t *)res->Queue_write_ptr_aql;
	} else {
		q->ring.rptr = &q->rptr_store;
		q->ring.wptr = &q->wptr_store;
		res->Queue_read_ptr_aql = &q->rptr_store;
		res->Queue_write_ptr_aql = &q->wptr_store;
	}
	res->Queue_DoorBell_aql = &q->doorbell;
	pthread_mutex_lock(&q_lock);
	q->id = next_qid++;
	int rc = pthread_create(&q->thread, NULL, queue_thread, q);
	if (rc == 0) {
		q->next = queues;
		queues = q;
	}
	pthread_mutex_unlock(&q_lock);
	if (rc) {
		free(q);
		return HSAKMT_STATUS_OUT_OF_RESOURCES;
	}
	res->QueueId = q->id;
	rdc_sim_debug("queue %llu: %s on node %u, ring %p size 0x%llx", (unsigned long long)q->id,
		      type == HSA_QUEUE_COMPUTE_AQL ? "AQL" : "SDMA", node, addr,
		      (unsigned long long)size);
	return HSAKMT_STATUS_SUCCESS;
}

static void stop_queue(struct sim_queue *q)
{
	__atomic_store_n(&q->stop, 1, __ATOMIC_RELEASE);
	if (q->owner == getpid())
		pthread_join(q->thread, NULL);
	/* else: a forked child; the thread only existed in the parent. */
	free(q);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtDestroyQueue(HSA_QUEUEID id)
{
	pthread_mutex_lock(&q_lock);
	struct sim_queue **pp = &queues;
	while (*pp && (*pp)->id != id)
		pp = &(*pp)->next;
	struct sim_queue *q = *pp;
	if (q)
		*pp = q->next;
	pthread_mutex_unlock(&q_lock);
	if (!q)
		return HSAKMT_STATUS_INVALID_HANDLE;
	stop_queue(q);
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtUpdateQueue(HSA_QUEUEID id, HSAuint32 pct, HSA_QUEUE_PRIORITY prio,
					     void *addr, HSAuint64 size, HsaEvent *event)
{
	(void)pct; (void)prio; (void)addr; (void)size; (void)event;
	pthread_mutex_lock(&q_lock);
	struct sim_queue *q = queues;
	while (q && q->id != id)
		q = q->next;
	pthread_mutex_unlock(&q_lock);
	return q ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSetQueueCUMask(HSA_QUEUEID id, HSAuint32 count, HSAuint32 *mask)
{
	(void)count;
	(void)mask;
	return hsaKmtUpdateQueue(id, 100, HSA_QUEUE_PRIORITY_NORMAL, NULL, 0, NULL);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtAllocQueueGWS(HSA_QUEUEID id, HSAuint32 n, HSAuint32 *first)
{
	(void)id; (void)n; (void)first;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

/* hsaKmtCloseKFD: stop every queue ROCR left behind. */
void rdc_sim_queues_close(void)
{
	pthread_mutex_lock(&q_lock);
	struct sim_queue *q = queues;
	queues = NULL;
	pthread_mutex_unlock(&q_lock);
	while (q) {
		struct sim_queue *next = q->next;
		stop_queue(q);
		q = next;
	}
}

void rdc_sim_queues_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
	q_lock = fresh;
}
