/* SPDX-License-Identifier: MIT */
/*
 * misc.c — opening and closing the simulated KFD, its version, and the
 * entry points that have nothing to simulate: trap handler and debugger
 * runtime (succeed), XNACK (off, not changeable), SVM, IPC shared memory,
 * graphics interop (not supported: HSAKMT_STATUS_NOT_SUPPORTED, which ROCR
 * handles).  Fork: locks are re-initialised in the child; a child that never
 * touches the GPU is fine, one that does gets the parent's queues without
 * their threads (documented: do not use the GPU in a forked child, as with KFD).
 */
#include <stdio.h>
#include <unistd.h>

#include "sim.h"

pthread_mutex_t rdc_sim_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned open_count;
static pid_t open_pid;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
	rdc_sim_lock = fresh;
	rdc_sim_events_atfork_child();
	rdc_sim_queues_atfork_child();
	rdc_sim_mem_atfork_child();
}

static void register_atfork(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

bool rdc_sim_is_open(void)
{
	return __atomic_load_n(&open_count, __ATOMIC_ACQUIRE) > 0;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtOpenKFD(void)
{
	pthread_once(&atfork_once, register_atfork);
	const struct rdc_sim_config *c = rdc_sim_config_get();
	if (!c)
		return HSAKMT_STATUS_ERROR; /* the reason is already on stderr */
	pthread_mutex_lock(&rdc_sim_lock);
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	if (open_count > 0 && open_pid != getpid()) {
		/* The real thunk refuses a KFD inherited over fork the same way. */
		rdc_sim_log("hsaKmtOpenKFD in a forked child: the parent's simulated GPU is not "
			    "usable here");
		st = HSAKMT_STATUS_ERROR;
	} else {
		if (open_count == 0) {
			open_pid = getpid();
			rdc_sim_debug("opened: %u simulated GPU(s), kernels are not executed", c->n_gpus);
		}
		__atomic_add_fetch(&open_count, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&rdc_sim_lock);
	return st;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtCloseKFD(void)
{
	pthread_mutex_lock(&rdc_sim_lock);
	if (open_count == 0) {
		pthread_mutex_unlock(&rdc_sim_lock);
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	}
	bool last = __atomic_sub_fetch(&open_count, 1, __ATOMIC_ACQ_REL) == 0;
	pthread_mutex_unlock(&rdc_sim_lock);
	if (last) {
		rdc_sim_queues_close();
		rdc_sim_events_close();
		rdc_sim_mem_close();
		rdc_sim_trace_close();
		hsaKmtReleaseSystemProperties();
	}
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetVersion(HsaVersionInfo *v)
{
	if (!v)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!rdc_sim_is_open())
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	/* KFD ioctl interface 1.x with x >= 1 (1.0 disables interrupt signals). */
	v->KernelInterfaceMajorVersion = 1;
	v->KernelInterfaceMinorVersion = 8;
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetXNACKMode(HSAint32 *enable)
{
	if (!enable)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	*enable = 0;
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSetXNACKMode(HSAint32 enable)
{
	return enable ? HSAKMT_STATUS_NOT_SUPPORTED : HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSetTrapHandler(HSAuint32 node, void *base, HSAuint64 size,
						void *buf, HSAuint64 buf_size)
{
	(void)base; (void)size; (void)buf; (void)buf_size;
	return rdc_sim_node_is_gpu(node) ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_NODE_UNIT;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtRuntimeEnable(void *r_debug, bool setup_ttmp)
{
	(void)r_debug;
	(void)setup_ttmp;
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtRuntimeDisable(void)
{
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSVMSetAttr(void *start, HSAuint64 size, unsigned int n,
					    HSA_SVM_ATTRIBUTE *attrs)
{
	(void)start; (void)size; (void)n; (void)attrs;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSVMGetAttr(void *start, HSAuint64 size, unsigned int n,
					    HSA_SVM_ATTRIBUTE *attrs)
{
	(void)start; (void)size; (void)n; (void)attrs;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtShareMemory(void *addr, HSAuint64 size, HsaSharedMemoryHandle *h)
{
	(void)addr; (void)size; (void)h;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtRegisterSharedHandle(const HsaSharedMemoryHandle *h, void **addr,
						      HSAuint64 *size)
{
	(void)h; (void)addr; (void)size;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtRegisterSharedHandleToNodes(const HsaSharedMemoryHandle *h,
							     void **addr, HSAuint64 *size,
							     HSAuint64 n, HSAuint32 *nodes)
{
	(void)h; (void)addr; (void)size; (void)n; (void)nodes;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 handle,
							       HsaGraphicsResourceInfo *info,
							       HSAuint64 n, HSAuint32 *nodes)
{
	(void)handle; (void)info; (void)n; (void)nodes;
	return HSAKMT_STATUS_NOT_SUPPORTED;
}
