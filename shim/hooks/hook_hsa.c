/* SPDX-License-Identifier: MIT */
/*
 * hook_hsa.c — the HSA side.
 *
 * hsa_init: when someone else (HIP) starts the runtime, the device registry
 * is filled from it and the pending diagnosis is printed — HIP 5.2 digests
 * its fat binaries right after, and aborts on missing code.
 *
 * Code-object loading: ROCR 5.2's loader accepts a code object only for the
 * exact ISA version of the agent (isa.cpp IsCompatible), so a gfx1030
 * object loaded by hand on a gfx1031 (a library's own .co/.hsaco files, or
 * anything that reaches ROCR directly) fails with
 * HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS.  Readers created from memory are
 * remembered; at hsa_executable_load_agent_code_object the object's target
 * is compared with the agent's, the policy is asked, and an allowed one is
 * loaded from a retargeted copy through a reader of our own.  The copy lives
 * until the executable is destroyed (the loader and debuggers refer to it).
 */
#include <errno.h>
#include <hsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/codeobj.h"
#include "shim.h"

pthread_mutex_t rdc_reader_lock = PTHREAD_MUTEX_INITIALIZER;

struct reader {                 /* a reader the load hook may remap from */
	struct rdc_link link;    /* key: hsa_code_object_reader_t.handle */
	const void *p;
	size_t n;
	bool owned;              /* p is our copy of a file's bytes (freed with the reader) */
};

struct owned {                  /* a retargeted copy and our reader for it */
	struct owned *next;
	uint64_t exec;
	uint8_t *copy;
	hsa_code_object_reader_t reader;
};

static struct rdc_link *readers;
static struct owned *owned;

RDC_HOOK hsa_status_t hsa_init(void)
{
	__typeof__(&hsa_init) real = RDC_REAL(hsa_init);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (rdc_guard_active())
		return real();
	rdc_init();
	int saved = errno;
	hsa_status_t st = real();
	if (st == HSA_STATUS_SUCCESS) {
		rdc_devices_note_runtime_up();
		rdc_fatbin_file_release();   /* the start-up registrations are over */
		rdc_diag_flush();
	}
	errno = saved;
	return st;
}

/* Remember reader `handle` reading `n` bytes at `p` (guard set). */
static void remember(uint64_t handle, const void *p, size_t n, bool owned)
{
	struct reader *r = malloc(sizeof *r);
	if (!r) {
		if (owned)
			free((void *)p);
		return;
	}
	*r = (struct reader){ .p = p, .n = n, .owned = owned };
	pthread_mutex_lock(&rdc_reader_lock);
	rdc_list_push(&readers, &r->link, handle);
	pthread_mutex_unlock(&rdc_reader_lock);
}

RDC_HOOK hsa_status_t hsa_code_object_reader_create_from_memory(const void *code_object, size_t size,
						       hsa_code_object_reader_t *code_object_reader)
{
	__typeof__(&hsa_code_object_reader_create_from_memory) real =
		RDC_REAL(hsa_code_object_reader_create_from_memory);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* an entry HIP 5.2 got at registration, decided now (defer.c); also
	 * inside a hook, as HIP may load a module from within any HIP call */
	if (rdc_defer_load(code_object) != 0)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
	if (rdc_guard_active())
		return real(code_object, size, code_object_reader);
	rdc_init();
	hsa_status_t st = real(code_object, size, code_object_reader);
	if (st != HSA_STATUS_SUCCESS || !code_object_reader || !rdc_any_device_active() ||
	    !rdc_is_codeobj(code_object, size))
		return st;
	int saved = errno;
	rdc_guard_enter();
	remember(code_object_reader->handle, code_object, size, false);
	rdc_guard_leave();
	errno = saved;
	return st;
}

/* Larger files are passed through (no code object is near this). */
#define FILE_CODEOBJ_MAX (1ull << 30)

/* The bytes of `fd` from offset 0 (what ROCR's from_file reads: it seeks to
 * the end for the size, back to 0, and reads it all), with pread so the
 * caller's file offset stays where ROCR left it.  NULL on any doubt. */
static uint8_t *read_fd(int fd, size_t *len)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > FILE_CODEOBJ_MAX)
		return NULL;
	size_t n = (size_t)st.st_size, got = 0;
	uint8_t *buf = malloc(n);
	while (buf && got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	uint64_t extent = 0;
	if (!buf || got != n || rdc_elf_extent(buf, n, &extent) != 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* Could this code object need a retargeted copy on some device (or are the
 * devices not known yet)? */
static bool may_need_copy(const void *p, size_t n)
{
	struct rdc_codeobj co;
	if (rdc_codeobj_parse(p, n, RDC_CO_HEADER_ONLY, &co, NULL) != 0)
		return false;
	size_t ndev = rdc_devices_count();
	bool need = ndev == 0;
	for (size_t i = 0; i < ndev && !need; i++) {
		const struct rdc_device *dev = rdc_device_get(i);
		need = dev && dev->mode != RDC_MODE_OFF && strcmp(dev->target.proc, co.target.proc) != 0;
	}
	rdc_codeobj_free(&co);
	return need;
}

/* ROCR's reader is created from the file as usual (status, reader and the
 * file offset are ROCR's own); when the object may need a retargeted copy
 * at load time, the shim keeps its own copy of the bytes with the reader. */
RDC_HOOK hsa_status_t hsa_code_object_reader_create_from_file(hsa_file_t file,
							     hsa_code_object_reader_t *code_object_reader)
{
	__typeof__(&hsa_code_object_reader_create_from_file) real =
		RDC_REAL(hsa_code_object_reader_create_from_file);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (rdc_guard_active())
		return real(file, code_object_reader);
	rdc_init();
	hsa_status_t st = real(file, code_object_reader);
	if (st != HSA_STATUS_SUCCESS || !code_object_reader || !rdc_any_device_active())
		return st;
	int saved = errno;
	rdc_guard_enter();
	size_t n = 0;
	uint8_t *copy = read_fd(file, &n);
	if (copy && may_need_copy(copy, n))
		remember(code_object_reader->handle, copy, n, true);
	else
		free(copy);
	rdc_guard_leave();
	errno = saved;
	return st;
}

RDC_HOOK hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader)
{
	__typeof__(&hsa_code_object_reader_destroy) real = RDC_REAL(hsa_code_object_reader_destroy);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (rdc_guard_active())
		return real(code_object_reader);
	pthread_mutex_lock(&rdc_reader_lock);
	struct reader *gone = (struct reader *)rdc_list_take(&readers, code_object_reader.handle);
	pthread_mutex_unlock(&rdc_reader_lock);
	hsa_status_t st = real(code_object_reader);
	if (gone) {
		int saved = errno;
		if (gone->owned)
			free((void *)gone->p);
		free(gone);
		errno = saved;
	}
	return st;
}

static bool find_reader(uint64_t h, const void **p, size_t *n)
{
	pthread_mutex_lock(&rdc_reader_lock);
	const struct reader *r = (const struct reader *)rdc_list_find(readers, h);
	if (r) {
		*p = r->p;
		*n = r->n;
	}
	pthread_mutex_unlock(&rdc_reader_lock);
	return r != NULL;
}

/* Returns a reader for a retargeted copy, or 0 handle when nothing to do. */
static hsa_code_object_reader_t remap(hsa_executable_t exec, const struct rdc_device *dev,
				      const void *p, size_t n)
{
	hsa_code_object_reader_t none = { 0 };
	struct rdc_codeobj co;
	struct rdc_diag d = { 0 };
	if (rdc_codeobj_parse(p, n, RDC_CO_HEADER_ONLY, &co, &d) != 0)
		return none;
	bool exact = rdc_target_matches(&co.target, &dev->target) ||
		     strcmp(co.target.proc, dev->target.proc) == 0;
	bool generic = !exact && rdc_device_runtime_generic(dev, &co.target);
	char from[64], to[64];
	rdc_target_format(&co.target, from, sizeof from);
	rdc_target_format(&dev->target, to, sizeof to);
	rdc_codeobj_free(&co);
	if (generic) {
		/* ROCR lists the generic ISA for this agent and loads it itself. */
		struct rdc_kv kv[] = {
			RDC_KV_S("source", "hsa_executable_load_agent_code_object"),
			RDC_KV_N("device", dev->index), RDC_KV_S("target", to), RDC_KV_S("code", from),
			RDC_KV_S("verdict", "native"),
			RDC_KV_S("reason", "the runtime lists this generic ISA for the agent and loads it itself"),
		};
		rdc_log_event(RDC_LOG_DEBUG, "native", kv, sizeof kv / sizeof kv[0]);
	}
	if (exact || generic)
		return none;
	struct rdc_choice c;
	int rc = rdc_policy_choose_codeobj(rdc_tables(), &dev->target, p, n, rdc_policy_flags(), &c, &d);
	if (rc != 0) {
		rdc_logf(RDC_LOG_WARN, "hsa load: %s code object on device %d (%s): policy error %s; "
			 "passing through", from, dev->index, to, d.msg[0] ? d.msg : rdc_strerror(rc));
		return none;
	}
	struct rdc_kv kv[] = {
		RDC_KV_S("source", "hsa_executable_load_agent_code_object"),
		RDC_KV_N("device", dev->index), RDC_KV_S("target", to), RDC_KV_S("code", from),
		RDC_KV_S("verdict", rdc_verdict_name(c.verdict)), RDC_KV_N("kernels", c.n_kernels),
		RDC_KV_N("refused", c.n_refused), RDC_KV_S("reason", c.reason),
	};
	bool go = c.verdict == RDC_VERDICT_MAPPED && (dev->mode == RDC_MODE_MAP || dev->mode == RDC_MODE_SPOOF);
	rdc_log_event(c.verdict == RDC_VERDICT_MAPPED ? RDC_LOG_INFO : RDC_LOG_WARN,
		      go ? "map" : (dev->mode == RDC_MODE_AUDIT ? "audit" : "missing"), kv,
		      sizeof kv / sizeof kv[0]);
	for (size_t i = 0; c.kernels && i < c.n_kernels; i++)
		if (!c.kernels[i].ok)
			rdc_logf(RDC_LOG_WARN, "refused: kernel=%s check=%s %s", c.kernels[i].kernel,
				 c.kernels[i].check, c.kernels[i].reason);
	struct rdc_target tgt = c.chosen;
	rdc_choice_free(&c);
	if (!go)
		return none;
	snprintf(tgt.proc, sizeof tgt.proc, "%s", dev->target.proc);
	uint8_t *copy = NULL;
	size_t len = 0;
	if (rdc_codeobj_retarget(p, n, &tgt, &copy, &len, &d) != 0) {
		rdc_logf(RDC_LOG_WARN, "hsa load: retarget %s -> %s failed (%s); passing through", from, to,
			 d.msg);
		return none;
	}
	__typeof__(&hsa_code_object_reader_create_from_memory) mk =
		RDC_REAL(hsa_code_object_reader_create_from_memory);
	hsa_code_object_reader_t r = { 0 };
	struct owned *o = malloc(sizeof *o);
	if (!o || !mk || mk(copy, len, &r) != HSA_STATUS_SUCCESS) {
		free(o);
		free(copy);
		return none;
	}
	*o = (struct owned){ NULL, exec.handle, copy, r };
	pthread_mutex_lock(&rdc_reader_lock);
	o->next = owned;
	owned = o;
	pthread_mutex_unlock(&rdc_reader_lock);
	return r;
}

RDC_HOOK hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
						   hsa_code_object_reader_t code_object_reader,
						   const char *options,
						   hsa_loaded_code_object_t *loaded_code_object)
{
	__typeof__(&hsa_executable_load_agent_code_object) real =
		RDC_REAL(hsa_executable_load_agent_code_object);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (rdc_guard_active())
		return real(executable, agent, code_object_reader, options, loaded_code_object);
	rdc_init();
	int saved = errno;
	const void *p = NULL;
	size_t n = 0;
	hsa_code_object_reader_t use = code_object_reader;
	const struct rdc_device *dev = NULL;
	if (find_reader(code_object_reader.handle, &p, &n)) {
		rdc_devices_note_runtime_up();
		dev = rdc_device_by_agent(agent.handle);
	}
	if (dev && dev->mode != RDC_MODE_OFF) {
		rdc_guard_enter();
		hsa_code_object_reader_t r = remap(executable, dev, p, n);
		rdc_guard_leave();
		if (r.handle)
			use = r;
	}
	errno = saved;
	return real(executable, agent, use, options, loaded_code_object);
}

RDC_HOOK hsa_status_t hsa_executable_destroy(hsa_executable_t executable)
{
	__typeof__(&hsa_executable_destroy) real = RDC_REAL(hsa_executable_destroy);
	if (!real)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	hsa_status_t st = real(executable);
	if (rdc_guard_active())
		return st;
	int saved = errno;
	struct owned *mine = NULL;
	pthread_mutex_lock(&rdc_reader_lock);
	for (struct owned **pp = &owned; *pp;) {
		struct owned *o = *pp;
		if (o->exec == executable.handle) {
			*pp = o->next;
			o->next = mine;
			mine = o;
		} else {
			pp = &o->next;
		}
	}
	pthread_mutex_unlock(&rdc_reader_lock);
	__typeof__(&hsa_code_object_reader_destroy) destroy = RDC_REAL(hsa_code_object_reader_destroy);
	while (mine) {
		struct owned *o = mine;
		mine = o->next;
		if (destroy)
			destroy(o->reader);
		free(o->copy);
		free(o);
	}
	errno = saved;
	return st;
}
