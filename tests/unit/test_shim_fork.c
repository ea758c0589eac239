/* SPDX-License-Identifier: MIT */
/*
 * test_shim_fork.c — fork.c's pthread_atfork handlers (installed by the hook
 * objects' constructor, init.c) cover every internal lock: for each lock of
 * shim.h's lock order, another thread holds it while this one forks, and the
 * child takes the lock and exits within 5 s (a lock left out of fork.c's
 * list is copied held into the child, which then never gets it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dcache.h"
#include "route.h"
#include "shim.h"

#define LOCK(name) { &name, #name }
static const struct {
	pthread_mutex_t *m;
	const char *name;
} locks[] = {
	LOCK(rdc_fatbin_lock),    LOCK(rdc_module_lock),    LOCK(rdc_lazy_obj_lock),
	LOCK(rdc_defer_lock),     LOCK(rdc_reader_lock),    LOCK(rdc_diag_lock),
	LOCK(rdc_dcache_lock),    LOCK(rdc_dev_lock),       LOCK(rdc_arena_lock),
	LOCK(rdc_log_lock),       LOCK(rdc_lazy_note_lock), LOCK(rdc_lazy_memo_lock),
	LOCK(rdc_lazy_rt_lock),   LOCK(rdc_route_rt_lock),  LOCK(rdc_caller_lock),
	LOCK(rdc_image_lock),     LOCK(rdc_kpack_lock),     LOCK(rdc_comgr_lock),
	LOCK(rdc_route_lock),     LOCK(rdc_retired_lock),   LOCK(rdc_codename_lock),
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

struct hold {
	pthread_mutex_t *m;
	atomic_int taken;
};

/* Hold the lock for 100 ms: the fork starts while it is held. */
static void *holder(void *arg)
{
	struct hold *h = arg;
	pthread_mutex_lock(h->m);
	atomic_store(&h->taken, 1);
	sleep_ms(100);
	pthread_mutex_unlock(h->m);
	return NULL;
}

/* 0: the child forked while another thread held `m` took it and exited. */
static int fork_while_held(pthread_mutex_t *m)
{
	struct hold h = { .m = m };
	pthread_t t;
	if (pthread_create(&t, NULL, holder, &h) != 0)
		return -1;
	while (!atomic_load(&h.taken))
		sleep_ms(1);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
		_exit(0);
	}
	int rc = -1, st = 0;
	for (int i = 0; pid > 0 && i < 500; i++) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid) {
			rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
			pid = 0;
			break;
		}
		sleep_ms(10);
	}
	if (pid > 0) {   /* stuck on the lock */
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	pthread_join(t, NULL);
	return rc;
}

static void test_fork_with_each_lock_held(void **state)
{
	(void)state;
	char stuck[1024] = "";
	size_t n = 0;
	for (size_t i = 0; i < sizeof locks / sizeof locks[0]; i++)
		if (fork_while_held(locks[i].m) != 0 && n < sizeof stuck - 64)
			n += (size_t)snprintf(stuck + n, sizeof stuck - n, " %s", locks[i].name);
	if (n)
		fail_msg("children forked while these were held did not get them:%s", stuck);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_with_each_lock_held),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
