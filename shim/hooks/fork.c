/* SPDX-License-Identifier: MIT */
/*
 * fork.c — every internal lock, from one list, taken before fork() and
 * released in both parent and child (musl src/process/fork.c does the same),
 * so a child forked while another thread held one never deadlocks in the
 * shim.  Order = the lock order written in shim.h.  The registry survives:
 * the child has the same devices (its HSA state is the runtime's business).
 */
#include "dcache.h"
#include "route.h"
#include "shim.h"

static pthread_mutex_t *const locks[] = {
	&rdc_fatbin_lock, &rdc_module_lock, &rdc_lazy_obj_lock, &rdc_defer_lock, &rdc_reader_lock,
	&rdc_diag_lock, &rdc_dcache_lock, &rdc_dev_lock, &rdc_arena_lock, &rdc_log_lock,
	/* leaves */
	&rdc_lazy_note_lock, &rdc_lazy_memo_lock, &rdc_lazy_rt_lock, &rdc_route_rt_lock,
	&rdc_caller_lock, &rdc_image_lock, &rdc_kpack_lock, &rdc_comgr_lock, &rdc_route_lock,
	&rdc_retired_lock, &rdc_codename_lock, &rdc_hold_lock,
};
#define N_LOCKS (sizeof locks / sizeof locks[0])

static void prepare(void)
{
	for (size_t i = 0; i < N_LOCKS; i++)
		pthread_mutex_lock(locks[i]);
}

static void release(void)
{
	for (size_t i = N_LOCKS; i-- > 0;)
		pthread_mutex_unlock(locks[i]);
}

void rdc_fork_install(void)
{
	if (pthread_atfork(prepare, release, release) != 0)
		rdc_logf(RDC_LOG_WARN, "pthread_atfork failed: fork() while the shim works may hang");
}
