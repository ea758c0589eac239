/* SPDX-License-Identifier: MIT */
/*
 * init.c — one-time initialisation: from a constructor and, because another
 * library's constructor may call a hooked function before ours ran, lazily
 * at the top of every hook, under pthread_once.  Reads the configuration,
 * opens the log, resolves the libc part of the real-function table (HIP/HSA
 * entries resolve at first use, real.c) and installs the fork handlers.  Loads nothing ROCm-related: the device registry and tables
 * start only when a HIP/HSA hook needs them.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Atomic int done;

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

static void apply_test_unresolved(void)
{
	const char *s = getenv("RDNACOMPAT_TEST_UNRESOLVED");
	if (!s || !*s)
		return;
	char buf[512];
	strncpy(buf, s, sizeof buf - 1);
	buf[sizeof buf - 1] = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (rdc_real_inject(t, NULL) == 0)
			rdc_logf(RDC_LOG_WARN, "test: real %s left unresolved", t);
}

static void init_body(void)
{
	int saved = errno;
	rdc_guard_enter();
	rdc_config_parse(&rdc_cfg, env_get, NULL);
	rdc_log_open(&rdc_cfg);
	if (rdc_cfg.problems[0])
		rdc_logf(RDC_LOG_WARN, "configuration: %s", rdc_cfg.problems);
	apply_test_unresolved();
	size_t found = rdc_real_resolve_all();
	rdc_fork_install();
	rdc_logf(RDC_LOG_DEBUG, "init: mode=%s, %zu libc real functions resolved (HIP/HSA ones "
		 "at their first use)", rdc_mode_name(rdc_cfg.mode), found);
	atomic_store(&done, 1);
	rdc_guard_leave();
	errno = saved;
}

void rdc_init(void)
{
	if (atomic_load_explicit(&done, memory_order_acquire))
		return;
	int saved = errno;
	pthread_once(&once, init_body);
	errno = saved;
}

bool rdc_initialized(void)
{
	return atomic_load(&done) != 0;
}

__attribute__((constructor(101))) static void rdc_ctor(void)
{
	rdc_init();
}
