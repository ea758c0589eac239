/* SPDX-License-Identifier: MIT */
/*
 * agents.c — the GPUs the ROCm runtime itself reports, for `doctor` when
 * /sys/bus/pci/devices shows none: under `rdnacompat sim` the simulated
 * cards exist only for the runtime (the simulator answers the KFD, not the
 * PCI bus), and a container may hide PCI sysfs while passing /dev/kfd.
 *
 * The runtime is asked for what the override does not change only in a
 * child whose HSA_OVERRIDE_GFX_VERSION and HSA_OVERRIDE_GFX_VERSION_<N>
 * are removed; rdc_sys_ask_runtime asks a second time with the environment
 * as it is when one of them is set, to say what programs here are told.
 *
 * The runtime is never loaded into the tool itself: a child process
 * dlopen()s libhsa-runtime64.so.1, calls hsa_init, lists the GPU agents
 * (HSA_AGENT_INFO_NAME, HSA_AMD_AGENT_INFO_CHIP_ID / _BDFID /
 * _PRODUCT_NAME) and writes them to a pipe as fixed records.  A runtime that
 * is missing, fails, crashes or hangs (AGENT_TIMEOUT_S, then SIGKILL) gives
 * no agents and a reason, never a stuck or crashed doctor.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hsa.h>
#include <hsa_ext_amd.h>

#include "agents.h"
#include "child_io.h"

#define AGENT_TIMEOUT_S 20

extern char **environ;

struct walk {
	hsa_status_t (*info)(hsa_agent_t, hsa_agent_info_t, void *);
	int fd;
	unsigned n;
};

static hsa_status_t one_agent(hsa_agent_t a, void *arg)
{
	struct walk *w = arg;
	hsa_device_type_t type;
	if (w->info(a, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS || type != HSA_DEVICE_TYPE_GPU)
		return HSA_STATUS_SUCCESS;
	struct rdc_agent r;
	memset(&r, 0, sizeof r);
	r.hip_index = (int)w->n++;
	char name[64] = "";
	if (w->info(a, HSA_AGENT_INFO_NAME, name) == HSA_STATUS_SUCCESS)
		memcpy(r.name, name, sizeof r.name - 1);
	w->info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &r.chip_id);
	w->info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &r.bdfid);
	char product[64] = "";
	if (w->info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product) == HSA_STATUS_SUCCESS)
		memcpy(r.product, product, sizeof r.product - 1);
	return write(w->fd, &r, sizeof r) == (ssize_t)sizeof r ? HSA_STATUS_SUCCESS
							   : HSA_STATUS_ERROR;
}

/* Remove HSA_OVERRIDE_GFX_VERSION and every HSA_OVERRIDE_GFX_VERSION_<N>. */
static void drop_overrides(void)
{
	static const char pfx[] = "HSA_OVERRIDE_GFX_VERSION";
	for (int again = 1; again;) {
		again = 0;
		for (char **e = environ; e && *e; e++)
			if (!strncmp(*e, pfx, sizeof pfx - 1) && ((*e)[sizeof pfx - 1] == '=' || (*e)[sizeof pfx - 1] == '_')) {
				char name[128];
				snprintf(name, sizeof name, "%.*s", (int)strcspn(*e, "="), *e);
				unsetenv(name);
				again = 1;
				break;
			}
	}
}

/* The child: never returns. */
static void child(int fd, bool keep_overrides)
{
	if (!keep_overrides)
		drop_overrides();
	void *h = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		_exit(10);
	hsa_status_t (*init)(void) = (hsa_status_t (*)(void))dlsym(h, "hsa_init");
	hsa_status_t (*iter)(hsa_status_t (*)(hsa_agent_t, void *), void *) =
		(hsa_status_t (*)(hsa_status_t (*)(hsa_agent_t, void *), void *))dlsym(h, "hsa_iterate_agents");
	struct walk w = { (hsa_status_t (*)(hsa_agent_t, hsa_agent_info_t, void *))dlsym(h, "hsa_agent_get_info"),
			  fd, 0 };
	if (!init || !iter || !w.info)
		_exit(11);
	if (init() != HSA_STATUS_SUCCESS)
		_exit(12);
	_exit(iter(one_agent, &w) == HSA_STATUS_SUCCESS ? 0 : 13);
}

static const char *child_reason(int status)
{
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == SIGKILL ? "the runtime did not answer in time" : "the runtime crashed";
	switch (WIFEXITED(status) ? WEXITSTATUS(status) : -1) {
	case 0: return NULL;
	case 10: return "no ROCm runtime (libhsa-runtime64.so.1) to ask";
	case 11: return "the ROCm runtime lacks hsa_init/hsa_iterate_agents";
	case 12: return "hsa_init failed (no usable /dev/kfd)";
	default: return "the runtime failed listing its agents";
	}
}

struct take_ctx {
	struct rdc_agent *out;
	size_t cap, *n;
};

static void take_agent(void *ctx, void *rec)
{
	struct take_ctx *c = ctx;
	if (*c->n < c->cap)
		c->out[(*c->n)++] = *(struct rdc_agent *)rec;
}

int rdc_runtime_agents(struct rdc_agent *out, size_t cap, size_t *n, bool keep_overrides, char *why, size_t why_len)
{
	*n = 0;
	if (why_len)
		why[0] = '\0';
	int p[2];
	if (pipe(p) != 0) {
		snprintf(why, why_len, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, why_len, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		/* the runtime's own chatter is not the doctor's output */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		child(p[1], keep_overrides);
	}
	close(p[1]);
	struct rdc_agent r;
	struct take_ctx tc = { out, cap, n };
	time_t end = time(NULL) + AGENT_TIMEOUT_S;
	bool late = rdc_child_records(p[0], end, &r, sizeof r, take_agent, &tc);
	close(p[0]);
	bool killed;
	int status = rdc_child_reap(pid, late ? 0 : end, &killed);
	const char *reason = child_reason(status);
	if (reason) {
		snprintf(why, why_len, "%s", reason);
		*n = 0;
		return -1;
	}
	return 0;
}

size_t rdc_sys_add_runtime_gpus(struct rdc_sysinfo *si, const struct rdc_tables *t, char *why,
				size_t why_len)
{
	struct rdc_agent a[RDC_SYS_MAX_GPUS];
	size_t n = 0;
	if (si->n_gpus || rdc_runtime_agents(a, RDC_SYS_MAX_GPUS, &n, false, why, why_len) != 0)
		return 0;
	if (!n)
		snprintf(why, why_len, "the runtime lists no GPU agent");
	for (size_t i = 0; i < n && si->n_gpus < RDC_SYS_MAX_GPUS; i++) {
		struct rdc_gpu *g = &si->gpus[si->n_gpus++];
		memset(g, 0, sizeof *g);
		g->vendor = 0x1002;
		g->device = (uint16_t)a[i].chip_id;
		g->revision = -1;
		g->kfd_node = -1;
		g->hip_index = a[i].hip_index;
		g->from_runtime = true;
		snprintf(g->source, sizeof g->source, "runtime");
		snprintf(g->rt_target, sizeof g->rt_target, "%.*s", (int)sizeof g->rt_target - 1, a[i].name);
		g->rt_asked = true;
		snprintf(g->pci_addr, sizeof g->pci_addr, "%02x:%02x.%x", (a[i].bdfid >> 8) & 0xff,
			 (a[i].bdfid >> 3) & 0x1f, a[i].bdfid & 7);
		size_t tl = strnlen(a[i].name, sizeof a[i].name);
		if (tl < sizeof g->target)   /* a longer name is no processor: left unknown */
			memcpy(g->target, a[i].name, tl + 1);
		memcpy(g->product, a[i].product, sizeof g->product);
		g->product[sizeof g->product - 1] = '\0';
		g->card = rdc_card_by_id(t, g->vendor, g->device, g->target);
		g->apu = g->card && g->card->kind && !strcmp(g->card->kind, "apu");
	}
	return n;
}

bool rdc_override_set(void)
{
	static const char pfx[] = "HSA_OVERRIDE_GFX_VERSION";
	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, pfx, sizeof pfx - 1) && ((*e)[sizeof pfx - 1] == '=' || (*e)[sizeof pfx - 1] == '_'))
			return true;
	return false;
}

/* The agent of a[0..n) that is GPU g: same PCI location (bdfid), else the
 * same place in the runtime's order. */
static const struct rdc_agent *agent_of(const struct rdc_gpu *g, const struct rdc_agent *a, size_t n)
{
	unsigned dom, bus, dev, fn;
	if (sscanf(g->pci_addr, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4 ||
	    (sscanf(g->pci_addr, "%x:%x.%x", &bus, &dev, &fn) == 3)) {
		uint32_t bdf = (bus << 8) | (dev << 3) | fn;
		for (size_t i = 0; i < n; i++)
			if (a[i].bdfid == bdf && bdf)
				return &a[i];
	}
	for (size_t i = 0; i < n; i++)
		if (g->hip_index >= 0 && a[i].hip_index == g->hip_index)
			return &a[i];
	return NULL;
}

/* The runtime's names with this environment, overrides kept (rt_env_target). */
static void ask_with_env(struct rdc_sysinfo *si)
{
	struct rdc_agent a[RDC_SYS_MAX_GPUS];
	size_t n = 0;
	char why[160] = "";
	if (rdc_runtime_agents(a, RDC_SYS_MAX_GPUS, &n, true, why, sizeof why) != 0)
		snprintf(si->runtime_note, sizeof si->runtime_note, "with this environment's override: %s", why);
	for (size_t i = 0; i < si->n_gpus; i++) {
		struct rdc_gpu *g = &si->gpus[i];
		const struct rdc_agent *x = agent_of(g, a, n);
		g->rt_env_asked = true;
		if (x)
			snprintf(g->rt_env_target, sizeof g->rt_env_target, "%.*s", (int)sizeof g->rt_env_target - 1,
				 x->name);
	}
}

void rdc_sys_ask_runtime(struct rdc_sysinfo *si, const struct rdc_tables *t)
{
	char why[160] = "";
	if (!si->n_gpus) {
		if (!rdc_sys_add_runtime_gpus(si, t, why, sizeof why))
			snprintf(si->runtime_note, sizeof si->runtime_note,
				 "the ROCm runtime, asked, reports none (%s)", why);
		else if (rdc_override_set())
			ask_with_env(si);
		return;
	}
	struct rdc_agent a[RDC_SYS_MAX_GPUS];
	size_t n = 0;
	if (rdc_runtime_agents(a, RDC_SYS_MAX_GPUS, &n, false, why, sizeof why) != 0) {
		snprintf(si->runtime_note, sizeof si->runtime_note, "%s", why);
		return;
	}
	for (size_t i = 0; i < si->n_gpus; i++) {
		struct rdc_gpu *g = &si->gpus[i];
		const struct rdc_agent *x = agent_of(g, a, n);
		g->rt_asked = true;
		if (!x)
			continue;
		snprintf(g->rt_target, sizeof g->rt_target, "%.*s", (int)sizeof g->rt_target - 1, x->name);
		if (!g->product[0])
			snprintf(g->product, sizeof g->product, "%s", x->product);
		if (g->hip_index < 0)
			g->hip_index = x->hip_index;
	}
	if (rdc_override_set())
		ask_with_env(si);
}
