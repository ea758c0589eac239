/* SPDX-License-Identifier: MIT */
/*
 * init.c — one-time initialisation: from a constructor and, because another
 * library's constructor may call a hooked function before ours ran, lazily
 * at the top of every hook, under pthread_once.  Reads the configuration,
 * prepares the log (opened at its first line), resolves the libc part of the real-function table (HIP/HSA
 * entries resolve at first use, real.c) and installs the fork handlers.  Loads nothing ROCm-related: the device registry and tables
 * start only when a HIP/HSA hook needs them, and configuration warnings are
 * given then too (rdc_config_report): a process that never reaches one —
 * sh, ls, python without torch — stays silent.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "shim.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Atomic int done;
static _Atomic int hiphsa_seen;          /* a HIP/HSA hook ran before init finished */

/* Every RDNACOMPAT_* setting through secure_getenv: a set-id process (as
 * with the shim in /etc/ld.so.preload) honours none of them. */
static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return secure_getenv(name);
}

extern char **environ;

static void apply_test_unresolved(void)
{
	const char *s = secure_getenv("RDNACOMPAT_TEST_UNRESOLVED");
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
	if (!getauxval(AT_SECURE))
		rdc_config_check_names(&rdc_cfg, environ);
	rdc_log_open(&rdc_cfg);   /* the file itself is opened at the first line */
	apply_test_unresolved();
	size_t found = rdc_real_resolve_all();
	rdc_fork_install();
	rdc_logf(RDC_LOG_DEBUG, "init: mode=%s, %zu libc real functions resolved (HIP/HSA ones "
		 "at their first use)", rdc_mode_name(rdc_cfg.mode), found);
	atomic_store(&done, 1);
	if (atomic_load(&hiphsa_seen))
		rdc_config_report();
	rdc_guard_leave();
	errno = saved;
}

void rdc_config_report(void)
{
	static _Atomic int reported;
	if (!rdc_initialized()) {
		atomic_store(&hiphsa_seen, 1);   /* init_body reports when it is done */
		return;
	}
	if (!rdc_cfg.problems[0] || atomic_exchange(&reported, 1))
		return;
	rdc_logf(RDC_LOG_WARN, "configuration: %s", rdc_cfg.problems);
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
