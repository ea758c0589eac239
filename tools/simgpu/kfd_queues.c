/* SPDX-License-Identifier: MIT */
/*
 * kfd_queues.c — AMDKFD_IOC_CREATE_QUEUE / DESTROY_QUEUE / UPDATE_QUEUE /
 * SET_CU_MASK / ALLOC_QUEUE_GWS on top of the command processor (queues.c).
 *
 * CREATE_QUEUE takes AQL compute and SDMA (and SDMA_XGMI, run as SDMA)
 * queues; PM4 compute queues are not emulated (logged, EINVAL).  As KFD:
 * ring size a power of two or EINVAL; queue ids are the lowest free in
 * 0..1023; the answer's doorbell_offset is KFD_MMAP_TYPE_DOORBELL | the
 * gpu_id at bit 46 | the byte offset of this queue's doorbell in the
 * process's doorbell page (8 bytes a queue; kfd_chardev.c, SOC15).  The
 * ring, read and write pointers are GPU addresses; each must lie in a buffer
 * object (EFAULT otherwise, where KFD would fault later).
 *
 * The queue pointer a dispatch gets (AMDGPUUsage's enable_sgpr_queue_ptr,
 * the amd_queue_t) is not passed to KFD: the command processor finds it
 * from the read pointer, which ROCR points at amd_queue_t.read_dispatch_id,
 * followed by read_dispatch_id_field_base_byte_offset, the field's offset
 * from the start of the amd_queue_t (ROCR's AqlQueue sets it before
 * creating the queue; amd_hsa_queue.h, amd_aql_queue.cpp,
 * ROCm/ROCR-Runtime@c7785a6 and rocm-5.2.3).  A queue whose offset field is
 * 0, unaligned or does not lead to mapped memory (a program below ROCR)
 * gets queue pointer 0.
 */
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <string.h>

#include "sim.h"

#define MAX_QUEUES 1024


static pthread_mutex_t qid_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t used[MAX_QUEUES];
static uint64_t no_doorbell; /* the engines read wptr; doorbells are not trapped */

/* amd_queue_t = read pointer - read_dispatch_id_field_base_byte_offset. */
static uint64_t queue_va(uint64_t rptr)
{
	const uint32_t *off = rdc_sim_mem_ptr(rptr + 8, 4);
	if (!off || !*off || *off % 8 || *off > 4096 || *off > rptr)
		return 0;
	uint64_t va = rptr - *off;
	return rdc_sim_mem_ptr(va, 64) ? va : 0; /* hsa_queue_t and more, mapped */
}

static int create(struct kfd_ioctl_create_queue_args *a)
{
	int g = rdc_sim_gpu_by_id(a->gpu_id);
	if (g < 0)
		return -EINVAL;
	enum rdc_sim_qtype t;
	if (a->queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
		t = RDC_SIM_Q_AQL;
	else if (a->queue_type == KFD_IOC_QUEUE_TYPE_SDMA || a->queue_type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI)
		t = RDC_SIM_Q_SDMA;
	else {
		rdc_sim_log("AMDKFD_IOC_CREATE_QUEUE: queue type %u is not emulated (AQL compute and "
			    "SDMA only): EINVAL", a->queue_type);
		return -EINVAL;
	}
	if (!a->ring_size || (a->ring_size & (a->ring_size - 1)) || a->queue_percentage > 100 ||
	    a->queue_priority > 15)
		return -EINVAL;
	struct rdc_sim_ring r = { .node = (uint32_t)g + 1, .size = a->ring_size,
				  .doorbell = &no_doorbell };
	r.base = rdc_sim_mem_ptr(a->ring_base_address, a->ring_size);
	r.gpu_base = a->ring_base_address;
	r.rptr = rdc_sim_mem_ptr(a->read_pointer_address, 8);
	r.wptr = rdc_sim_mem_ptr(a->write_pointer_address, 8);
	if (!r.base || !r.rptr || !r.wptr) {
		rdc_sim_log("AMDKFD_IOC_CREATE_QUEUE: ring 0x%llx, rptr 0x%llx or wptr 0x%llx is in no "
			    "buffer object: EFAULT", (unsigned long long)a->ring_base_address,
			    (unsigned long long)a->read_pointer_address,
			    (unsigned long long)a->write_pointer_address);
		return -EFAULT;
	}
	r.queue_va = queue_va(a->read_pointer_address);
	pthread_mutex_lock(&qid_lock);
	uint32_t qid = MAX_QUEUES;
	for (uint32_t i = 0; i < MAX_QUEUES; i++)
		if (!used[i]) {
			qid = i;
			used[i] = 1;
			break;
		}
	pthread_mutex_unlock(&qid_lock);
	if (qid == MAX_QUEUES)
		return -ENOSPC;
	int rc = rdc_sim_queue_start(qid, t, &r);
	if (rc) {
		pthread_mutex_lock(&qid_lock);
		used[qid] = 0;
		pthread_mutex_unlock(&qid_lock);
		return rc;
	}
	a->queue_id = qid;
	a->doorbell_offset = 3ull << 62 | ((uint64_t)a->gpu_id & 0xffff) << 46 | (uint64_t)qid * 8;
	return 0;
}

static int destroy(uint32_t qid)
{
	if (qid >= MAX_QUEUES || rdc_sim_queue_stop(qid))
		return -EINVAL;
	pthread_mutex_lock(&qid_lock);
	used[qid] = 0;
	pthread_mutex_unlock(&qid_lock);
	return 0;
}

int rdc_sim_kfd_queues_ioctl(unsigned nr, void *arg)
{
	switch (nr) {
	case 0x02: return create(arg);
	case 0x03: return destroy(((struct kfd_ioctl_destroy_queue_args *)arg)->queue_id);
	case 0x07: {
		struct kfd_ioctl_update_queue_args *u = arg;
		if (!rdc_sim_queue_exists(u->queue_id))
			return -EINVAL;
		if (u->ring_base_address)
			rdc_sim_log("AMDKFD_IOC_UPDATE_QUEUE: queue %u keeps its ring (moving a ring "
				    "is not emulated)", u->queue_id);
		return 0;
	}
	case 0x1A:
		return rdc_sim_queue_exists(((struct kfd_ioctl_set_cu_mask_args *)arg)->queue_id) ? 0
												 : -EINVAL;
	case 0x1E:
		return -ENODEV; /* KFD without GWS */
	default: return -ENOTTY;
	}
}

/* The KFD process ended: every queue id is free again. */
void rdc_sim_kfd_queues_end(void)
{
	pthread_mutex_lock(&qid_lock);
	memset(used, 0, sizeof used);
	pthread_mutex_unlock(&qid_lock);
}
