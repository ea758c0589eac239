/* SPDX-License-Identifier: MIT */
/*
 * queues.c — the simulated command processor behind AMDKFD_IOC_CREATE_QUEUE
 * (kfd_queues.c is the ioctl side).
 *
 * Each queue gets a thread that polls its ring (doorbell writes cannot be
 * trapped without a device, so it polls with a backoff from a yield up to
 * 1 ms when idle).  AQL queues (ROCR passes the read/write dispatch-id
 * pointers in): packets are retired in order once their header is no longer
 * INVALID — kernel dispatch (executed by exec_cp.c unless RDNACOMPAT_SIM_EXEC=0,
 * then traced), barrier-AND,
 * barrier-OR, AMD vendor packets (PM4 IB: retired; barrier-value: waits for its
 * condition) — then the header is set INVALID, the read index advances, and
 * the completion signal is decremented with its event fired (interrupt
 * signals).  Agent-dispatch packets are unsupported: said once on stderr and
 * retired so nothing hangs.  SDMA queues run sdma.c.  Every address a packet
 * holds is a GPU address, translated through the buffer objects (kfd_mem.c).
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
	uint32_t id;
	enum rdc_sim_qtype type;
	pid_t owner;
	int stop;                     /* atomic */
	bool faulted;                 /* a dispatch faulted: the queue is stopped */
	pthread_t thread;
	struct sim_queue *next;
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_queue *queues;

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
static amd_signal_t *signal_ptr(uint64_t handle)
{
	amd_signal_t *s = rdc_sim_mem_ptr(handle, sizeof(amd_signal_t));
	if (!s)
		rdc_sim_log("signal 0x%llx is outside every buffer object; not touched (a real GPU "
			    "would fault)", (unsigned long long)handle);
	return s;
}

static void signal_complete(uint64_t handle)
{
	amd_signal_t *s = handle ? signal_ptr(handle) : NULL;
	if (!s)
		return;
	/* Read the mailbox and event id first: once the value reaches its target
	 * the waiter may return and free or reuse the signal. */
	uint64_t mailbox = __atomic_load_n(&s->event_mailbox_ptr, __ATOMIC_ACQUIRE);
	uint32_t event_id = __atomic_load_n(&s->event_id, __ATOMIC_ACQUIRE);
	__atomic_sub_fetch(&s->value, 1, __ATOMIC_SEQ_CST);
	if (mailbox) {
		uint64_t *mb = rdc_sim_mem_ptr(mailbox, 8);
		if (mb)
			__atomic_store_n(mb, (uint64_t)event_id, __ATOMIC_SEQ_CST);
		rdc_sim_event_fire(event_id);
	}
}

/* Value of a dependency signal; a bad one reads as 0 (satisfied) after the
 * message, so a broken program does not hang the queue forever. */
static int64_t signal_value(hsa_signal_t sig)
{
	const amd_signal_t *s = signal_ptr(sig.handle);
	if (!s)
		return 0;
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

/* False when the dispatch faulted (exec_cp.c told the runtime). */
static bool dispatch(struct sim_queue *q, const uint8_t *pkt, uint64_t index)
{
	char kernel[256], proc[32];
	uint64_t kobj;
	memcpy(&kobj, pkt + 32, 8);
	bool elf = rdc_sim_kernel_lookup(kobj, kernel, sizeof kernel, proc, sizeof proc);
	uint32_t ksize = 0;
	const struct rdc_sim_config *cfg = rdc_sim_config_get();
	/* RDNACOMPAT_SIM_BLITS=execute: ROCclr's blit kernels (found in an ELF)
	 * are executed like any kernel instead of applied by blit.c. */
	bool emulate = !(elf && cfg && cfg->exec && cfg->exec_blits);
	const char *internal = emulate ? rdc_sim_blit_emulate(pkt, elf ? kernel : "", &ksize) : NULL;
	if (internal && !elf) {
		snprintf(kernel, sizeof kernel, "%s", internal);
		snprintf(proc, sizeof proc, "%s", rdc_sim_node_proc(q->ring.node));
	} else if (!internal && !elf && !q->ring.warned) {
		rdc_sim_log("queue %u: dispatch of kernel object 0x%llx that lies in no loaded code "
			    "object; retired without effect", q->id,
			    (unsigned long long)kobj);
		q->ring.warned = true;
	}
	struct rdc_sim_exec_note note = { NULL, 0, 0, 0, 0 };
	const struct rdc_sim_config *c = rdc_sim_config_get();
	bool ok = true;
	if (!internal && elf && c && c->exec) {
		uint64_t n = q->ring.size / 64, at = (uint64_t)(pkt - q->ring.base) / 64;
		struct rdc_sim_exec_queue eq = { q->ring.queue_va, index };
		ok = rdc_sim_exec(q->ring.node, q->id, q->ring.gpu_base + (at % n) * 64, pkt, kernel, &eq, &note);
	}
	rdc_sim_trace_dispatch(q->ring.node, pkt, kernel, proc, ksize, note.status ? &note : NULL);
	return ok;
}

/* One AQL packet: true if retired (or unsupported and retired). */
static bool aql_packet(struct sim_queue *q, uint8_t *pkt, uint16_t header, uint64_t index)
{
	unsigned type = (header >> HSA_PACKET_HEADER_TYPE) & 0xff;
	uint64_t completion = 0;
	memcpy(&completion, pkt + 56, 8);
	switch (type) {
	case HSA_PACKET_TYPE_KERNEL_DISPATCH:
		if (!dispatch(q, pkt, index)) {
			q->faulted = true; /* neither retired nor signalled: the queue stops */
			return false;
		}
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
		/* AmdFormat: 1 = PM4 IB (HIP 6/7 invalidate the code cache with one
		 * after loading a code object; nothing to do without hardware),
		 * 2 = barrier-value (waits for its condition). */
		const hsa_amd_barrier_value_packet_t *v = (const hsa_amd_barrier_value_packet_t *)pkt;
		if (v->header.AmdFormat == HSA_AMD_PACKET_TYPE_BARRIER_VALUE && v->signal.handle &&
		    !cond_holds(v->cond, signal_value(v->signal) & v->mask, v->value))
			return false;
		break;
	}
	default:
		if (!q->ring.warned) {
			rdc_sim_log("queue %u: AQL packet type %u is not supported by the simulator; "
				    "retiring it without effect", q->id, type);
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
	if (q->faulted)
		return false;
	while (rd < wr && !__atomic_load_n(&q->stop, __ATOMIC_ACQUIRE)) {
		uint8_t *pkt = q->ring.base + (rd % n) * 64;
		uint16_t header = __atomic_load_n((uint16_t *)pkt, __ATOMIC_ACQUIRE);
		if (((header >> HSA_PACKET_HEADER_TYPE) & 0xff) == HSA_PACKET_TYPE_INVALID)
			break; /* reserved, not yet written */
		rdc_sim_mem_hold();
		bool done = aql_packet(q, pkt, header, rd);
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
		bool did = q->type == RDC_SIM_Q_AQL ? aql_poll(q) : rdc_sim_sdma_poll(&q->ring);
		if (did)
			backoff = 0;
		else
			nap(&backoff);
	}
	return NULL;
}

int rdc_sim_queue_start(uint32_t qid, enum rdc_sim_qtype t, const struct rdc_sim_ring *ring)
{
	struct sim_queue *q = calloc(1, sizeof *q);
	if (!q)
		return -ENOMEM;
	q->ring = *ring;
	q->id = qid;
	q->type = t;
	q->owner = getpid();
	pthread_mutex_lock(&q_lock);
	int rc = pthread_create(&q->thread, NULL, queue_thread, q);
	if (rc == 0) {
		q->next = queues;
		queues = q;
	}
	pthread_mutex_unlock(&q_lock);
	if (rc) {
		free(q);
		return -ENOMEM;
	}
	rdc_sim_debug("queue %u: %s on node %u, ring %p size 0x%llx", qid,
		      t == RDC_SIM_Q_AQL ? "AQL" : "SDMA", ring->node, (void *)ring->base,
		      (unsigned long long)ring->size);
	return 0;
}

static void stop_queue(struct sim_queue *q)
{
	__atomic_store_n(&q->stop, 1, __ATOMIC_RELEASE);
	if (q->owner == getpid())
		pthread_join(q->thread, NULL);
	/* else: a forked child; the thread only existed in the parent. */
	free(q);
}

int rdc_sim_queue_stop(uint32_t id)
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
		return -ENOENT;
	stop_queue(q);
	return 0;
}

bool rdc_sim_queue_exists(uint32_t id)
{
	pthread_mutex_lock(&q_lock);
	struct sim_queue *q = queues;
	while (q && q->id != id)
		q = q->next;
	pthread_mutex_unlock(&q_lock);
	return q != NULL;
}

/* The last kfd fd closed: stop every queue left behind. */
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
