/* SPDX-License-Identifier: MIT */
/*
 * devices.c — the device registry: each GPU agent's true target, in HIP's
 * device order (the order hsa_iterate_agents reports GPU agents, which is
 * how HIP 5.2 numbers devices), its mode and the target spoof mode reports.
 *
 * HIP 5.2 digests a fat binary either at its first API call or, when it is
 * already initialised, inside __hipRegisterFatBinary (clr hip_platform.cpp:
 * PlatformState::addFatBinary(data, initialized_) / PlatformState::init).
 * Either way the bundle it keeps is the one handed over at registration, so
 * the devices must be known then: when HSA is not up yet, the registry calls
 * the real hsa_init itself and keeps that reference for the life of the
 * process (ROCR counts references; HIP's own hsa_init then only adds one).
 * Also holds the tables (built-in or RDNACOMPAT_TABLES), loaded once.
 */
#include <fcntl.h>
#include <hsa.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

pthread_mutex_t rdc_dev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rdc_device devs[RDC_MAX_DEVICES];
static _Atomic size_t n_devs;
static bool filled, tried;
static bool held_checked;    /* rdc_hold_watch_check ran after the devices were learnt */
static _Atomic bool runtime_up;
static const struct rdc_tables *tables;
static struct rdc_tables *tables_owned;

bool rdc_runtime_up(void)
{
	return atomic_load(&runtime_up);
}

/* The parser's message quotes what it found ('...'); the shim says where
 * (file:line) and why, never what a file holds: the text between quotes
 * becomes "...".  (A file the user may not read must not leak through the
 * log of a process that can; audit S1.) */
static void unquote(char *m)
{
	char out[sizeof ((struct rdc_diag *)0)->msg];
	size_t k = 0;
	bool in = false;
	for (const char *r = m; *r && k + 5 < sizeof out; r++) {
		if (*r == '\'') {
			out[k++] = '\'';
			if (!in) {
				memcpy(out + k, "...", 3);
				k += 3;
			}
			in = !in;
		} else if (!in) {
			out[k++] = *r;
		}
	}
	if (in)
		out[k++] = '\'';
	out[k] = 0;
	memcpy(m, out, k + 1);
}

const struct rdc_tables *rdc_tables(void)
{
	pthread_mutex_lock(&rdc_dev_lock);
	if (!tables) {
		rdc_guard_enter();
		if (rdc_cfg.tables_file[0]) {
			struct rdc_diag d = { 0 };
			int rc = rdc_tables_load(rdc_cfg.tables_file, &tables_owned, &d);
			if (rc == 0) {
				tables = tables_owned;
				rdc_logf(RDC_LOG_INFO, "tables: built-in merged with %s",
					 rdc_cfg.tables_file);
			} else {
				unquote(d.msg);
				rdc_logf(RDC_LOG_ERROR, "tables: %s refused (%s); using the built-in tables",
					 rdc_cfg.tables_file, d.msg[0] ? d.msg : rdc_strerror(rc));
			}
		}
		if (!tables)
			tables = rdc_tables_builtin();
		rdc_guard_leave();
	}
	pthread_mutex_unlock(&rdc_dev_lock);
	return tables;
}

/* Every ISA the agent reports: ROCR <= 6.3 reports one (the native ISA);
 * newer ROCR also reports the generic one ("amdgcn-amd-amdhsa--gfx10-3-
 * generic", native first).  The native one is the first that is not a
 * generic target, whatever the order. */
struct isa_ctx {
	char name[96];           /* native ISA name */
	uint64_t handle;
	char generic[96];        /* generic ISA name, "" if none */
	uint64_t generic_handle;
	unsigned n;
};

bool rdc_proc_is_generic(const char *proc)
{
	size_t n = proc ? strlen(proc) : 0;
	return n > 8 && strcmp(proc + n - 8, "-generic") == 0;
}

int rdc_isa_name_of(uint64_t handle, char *buf, size_t n)
{
	hsa_isa_t isa = { handle };
	uint32_t len = 0;
	__typeof__(&hsa_isa_get_info_alt) get = RDC_REAL(hsa_isa_get_info_alt);
	if (!get || get(isa, HSA_ISA_INFO_NAME_LENGTH, &len) != HSA_STATUS_SUCCESS || len == 0 ||
	    len >= n)
		return RDC_E_NOTFOUND;
	char tmp[256];
	memset(tmp, 0, sizeof tmp);
	if (len >= sizeof tmp || get(isa, HSA_ISA_INFO_NAME, tmp) != HSA_STATUS_SUCCESS)
		return RDC_E_NOTFOUND;
	snprintf(buf, n, "%s", tmp);
	return buf[0] ? 0 : RDC_E_NOTFOUND;
}

static hsa_status_t note_isa(hsa_isa_t isa, void *arg)
{
	struct isa_ctx *c = arg;
	char name[96];
	c->n++;
	if (rdc_isa_name_of(isa.handle, name, sizeof name) != 0)
		return HSA_STATUS_SUCCESS;
	const char *proc = strstr(name, "--");
	char p[RDC_PROC_MAX];
	snprintf(p, sizeof p, "%.*s", proc ? (int)strcspn(proc + 2, ":") : 0, proc ? proc + 2 : "");
	if (rdc_proc_is_generic(p)) {
		if (!c->generic[0]) {
			snprintf(c->generic, sizeof c->generic, "%s", name);
			c->generic_handle = isa.handle;
		}
	} else if (!c->name[0]) {
		snprintf(c->name, sizeof c->name, "%s", name);
		c->handle = isa.handle;
	}
	return HSA_STATUS_SUCCESS;
}

/* The spoof target: the most preferred specific (non-generic) processor the
 * tables let this device run. */
static void pick_spoof(const struct rdc_tables *t, struct rdc_device *d)
{
	unsigned best = ~0u;
	d->spoof_as[0] = 0;
	for (size_t i = 0; t && i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		if (strcmp(e->device, d->target.proc) != 0 || strcmp(e->code, d->target.proc) == 0 ||
		    !rdc_edge_usable(e))
			continue;
		const struct rdc_isa *isa = rdc_isa_find(t, e->code);
		if (isa && isa->generic)
			continue;
		if (e->rank < best) {
			best = e->rank;
			snprintf(d->spoof_as, sizeof d->spoof_as, "%s", e->code);
		}
	}
}

static hsa_status_t add_agent(hsa_agent_t agent, void *arg)
{
	(void)arg;
	hsa_device_type_t type;
	__typeof__(&hsa_agent_get_info) info = RDC_REAL(hsa_agent_get_info);
	__typeof__(&hsa_agent_iterate_isas) isas = RDC_REAL(hsa_agent_iterate_isas);
	if (!info || !isas || info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS ||
	    type != HSA_DEVICE_TYPE_GPU)
		return HSA_STATUS_SUCCESS;
	size_t n = atomic_load(&n_devs);
	if (n >= RDC_MAX_DEVICES)
		return HSA_STATUS_SUCCESS;
	struct rdc_device *d = &devs[n];
	memset(d, 0, sizeof *d);
	const char *vis = getenv("HIP_VISIBLE_DEVICES");
	if (!vis)
		vis = getenv("CUDA_VISIBLE_DEVICES");
	d->agent_index = (int)n;
	d->index = rdc_hip_ordinal(vis, (int)n);
	d->agent = agent.handle;
	struct isa_ctx c;
	memset(&c, 0, sizeof c);
	isas(agent, note_isa, &c);
	char aname[64] = { 0 };
	if (info(agent, HSA_AGENT_INFO_NAME, aname) != HSA_STATUS_SUCCESS)
		aname[0] = 0;
	aname[sizeof aname - 1] = 0;
	if (!c.name[0] && aname[0])
		snprintf(c.name, sizeof c.name, "amdgcn-amd-amdhsa--%s", aname);
	snprintf(d->isa_name, sizeof d->isa_name, "%s", c.name);
	d->isa = c.handle;
	d->n_isas = c.n;
	struct rdc_diag dg = { 0 };
	if (c.generic[0] && rdc_target_parse(c.generic, (size_t)-1, &d->generic, &dg) == 0)
		d->generic_isa = c.generic_handle;
	else
		memset(&d->generic, 0, sizeof d->generic);
	if (rdc_target_parse(c.name, (size_t)-1, &d->target, &dg) != 0) {
		rdc_logf(RDC_LOG_WARN, "device %zu: ISA name '%s' not understood (%s); leaving it alone",
			 n, c.name, dg.msg);
		d->mode = RDC_MODE_OFF;
	} else if (d->index < 0) {
		d->mode = RDC_MODE_OFF;   /* HIP does not see it: nothing to decide */
	} else {
		d->mode = rdc_config_device_mode(&rdc_cfg, d->index);
	}
	/* Confirm: the agent's name is the native ISA's processor. */
	if (aname[0] && d->target.proc[0] && strcmp(aname, d->target.proc) != 0)
		rdc_logf(RDC_LOG_WARN, "device %zu: agent name %s but ISA %s; using the ISA", n, aname,
			 c.name);
	atomic_store(&n_devs, n + 1);
	return HSA_STATUS_SUCCESS;
}

/* The KFD's own view (sysfs gfx_target_version of GPU nodes, in node
 * order), to tell when HSA reports something else — HSA_OVERRIDE_GFX_VERSION
 * changes what ROCR reports, and the loader then wants that target.  The
 * shim maps to what the runtime reports and says so. */
static void kfd_cross_check(size_t n)
{
	char path[128], buf[4096];
	size_t gpu = 0;
	for (int node = 0; node < 64 && gpu < n; node++) {
		snprintf(path, sizeof path, "/sys/class/kfd/kfd/topology/nodes/%d/properties", node);
		int fd = rdc_sys_open(path, O_RDONLY);
		if (fd < 0)
			break;
		ssize_t r = read(fd, buf, sizeof buf - 1);
		close(fd);
		buf[r > 0 ? r : 0] = 0;
		const char *g = strstr(buf, "gfx_target_version ");
		unsigned long v = g ? strtoul(g + 19, NULL, 10) : 0;
		if (!v)
			continue;   /* CPU node */
		char proc[RDC_PROC_MAX];
		const struct rdc_device *d = &devs[gpu++];
		if (rdc_proc_from_kfd_version((uint32_t)v, proc, sizeof proc) != 0)
			continue;
		if (strcmp(proc, d->target.proc) != 0)
			rdc_logf(RDC_LOG_WARN, "device %d: the KFD says %s (gfx_target_version %lu) but HSA "
				 "reports %s%s; mapping for what the runtime reports", d->index, proc, v,
				 d->target.proc, getenv("HSA_OVERRIDE_GFX_VERSION") ?
				 " (HSA_OVERRIDE_GFX_VERSION is set)" : "");
		else
			rdc_logf(RDC_LOG_DEBUG, "device %d: KFD node %d agrees: %s", d->index, node, proc);
	}
}

/* Called with rdc_dev_lock held and the guard set. */
static void enumerate(void)
{
	__typeof__(&hsa_iterate_agents) it = RDC_REAL(hsa_iterate_agents);
	if (!it) {
		rdc_logf(RDC_LOG_WARN, "devices: hsa_iterate_agents not found; passing everything through");
		return;
	}
	it(add_agent, NULL);
	filled = true;
	size_t n = atomic_load(&n_devs);
	kfd_cross_check(n);
	pthread_mutex_unlock(&rdc_dev_lock);
	const struct rdc_tables *t = rdc_tables();
	pthread_mutex_lock(&rdc_dev_lock);
	for (size_t i = 0; i < n; i++) {
		struct rdc_device *d = &devs[i];
		pick_spoof(t, d);
		char tgt[64];
		rdc_target_format(&d->target, tgt, sizeof tgt);
		struct rdc_kv kv[] = {
			RDC_KV_N("device", d->index), RDC_KV_N("agent", d->agent_index),
			RDC_KV_S("target", tgt),
			RDC_KV_S("isa", d->isa_name),
			RDC_KV_S("generic", d->generic.proc[0] ? d->generic.proc : "-"),
			RDC_KV_N("isas", d->n_isas), RDC_KV_S("mode", rdc_mode_name(d->mode)),
			RDC_KV_S("spoof_as", d->spoof_as[0] ? d->spoof_as : "-"),
		};
		rdc_log_event(RDC_LOG_INFO, "device", kv, sizeof kv / sizeof kv[0]);
	}
}

bool rdc_any_device_active(void)
{
	if (rdc_cfg.mode != RDC_MODE_OFF)
		return true;
	for (int i = 0; i < RDC_MAX_DEVICES; i++)
		if (rdc_cfg.device_mode[i] >= 0 && rdc_cfg.device_mode[i] != RDC_MODE_OFF)
			return true;
	return false;
}

int rdc_devices_ensure(void)
{
	if (!rdc_any_device_active())
		return 0;
	pthread_mutex_lock(&rdc_dev_lock);
	if (!filled && !tried) {
		tried = true;
		rdc_guard_enter();
		if (!atomic_load(&runtime_up)) {
			__typeof__(&hsa_init) init = RDC_REAL(hsa_init);
			hsa_status_t st = init ? init() : HSA_STATUS_ERROR_NOT_INITIALIZED;
			if (st != HSA_STATUS_SUCCESS) {
				rdc_logf(RDC_LOG_WARN, "devices: hsa_init failed (status 0x%x); "
					 "passing fat binaries through", (unsigned)st);
			} else {
				rdc_logf(RDC_LOG_DEBUG, "devices: started HSA to learn the devices "
					 "(reference kept)");
				enumerate();
			}
		} else {
			enumerate();
		}
		rdc_guard_leave();
	}
	int n = (int)atomic_load(&n_devs);
	bool now = filled && !held_checked;
	held_checked |= filled;
	pthread_mutex_unlock(&rdc_dev_lock);
	if (now)
		rdc_hold_watch_check();   /* held kernels of lazily read fat binaries (hold.c) */
	return filled ? n : RDC_E_NOTFOUND;
}

void rdc_devices_note_runtime_up(void)
{
	atomic_store(&runtime_up, true);
	if (!rdc_any_device_active())
		return;
	pthread_mutex_lock(&rdc_dev_lock);
	if (!filled) {
		tried = true;
		rdc_guard_enter();
		enumerate();
		rdc_guard_leave();
	}
	bool now = filled && !held_checked;
	held_checked |= filled;
	pthread_mutex_unlock(&rdc_dev_lock);
	if (now)
		rdc_hold_watch_check();
}

size_t rdc_devices_count(void)
{
	return atomic_load(&n_devs);
}

const struct rdc_device *rdc_device_get(size_t i)
{
	return i < atomic_load(&n_devs) ? &devs[i] : NULL;
}

const struct rdc_device *rdc_device_by_hip(int ordinal)
{
	size_t n = atomic_load(&n_devs);
	for (size_t i = 0; ordinal >= 0 && i < n; i++)
		if (devs[i].index == ordinal)
			return &devs[i];
	return NULL;
}

bool rdc_device_runtime_generic(const struct rdc_device *dev, const struct rdc_target *code)
{
	return dev && dev->generic.proc[0] && !rdc_cfg.isa_filter_native &&
	       rdc_target_matches(code, &dev->generic);
}

const struct rdc_device *rdc_device_by_isa(uint64_t handle)
{
	size_t n = atomic_load(&n_devs);
	for (size_t i = 0; handle && i < n; i++)
		if (devs[i].isa == handle)
			return &devs[i];
	return NULL;
}

const struct rdc_device *rdc_device_by_agent(uint64_t handle)
{
	size_t n = atomic_load(&n_devs);
	for (size_t i = 0; i < n; i++)
		if (devs[i].agent == handle)
			return &devs[i];
	return NULL;
}
