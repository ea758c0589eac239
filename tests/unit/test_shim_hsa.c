/* SPDX-License-Identifier: MIT */
/*
 * test_shim_hsa.c — the HSA query hooks (shim/hooks/hook_query.c) and the
 * device registry (devices.c) against fake "real" functions injected
 * through the real-function table (rdc_real_inject), so the contracts can
 * be checked for what ROCR 5.2 never reports: agents with two ISAs (native
 * + generic, ROCR >= ~6.4), listed in either order, and an agent whose ISA
 * query fails (the agent name is used).  Checked: the registry learns
 * native and generic; hsa_agent_iterate_isas passes every ISA through
 * unless RDNACOMPAT_ISA_FILTER=native, then hides only generic ones;
 * HSA_STATUS_INFO_BREAK and errors from the caller's callback stop the walk
 * and come back unchanged; a NULL callback and failing real functions keep
 * ROCR's status; spoof mode renames only for RDNACOMPAT_SPOOF_FOR callers,
 * never generic ISAs, never past the real name's length; a generic bundle
 * entry the runtime lists needs no added entry (unless the filter hides the
 * generic ISA from HIP).  Links every hook object except the libc ones.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <hsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdnacompat/bundle.h"
#include "shim.h"

/* ---- the fake runtime ----------------------------------------------------- */
/* agent 1: CPU.  agent 10: gfx1031, ISAs native then generic.  agent 20:
 * gfx1103, generic listed first.  agent 30: gfx1032 whose ISA name query
 * fails (ISA 300). */
struct fake_isa {
	uint64_t h;
	const char *name;
};
static const struct fake_isa isas10[] = { { 100, "amdgcn-amd-amdhsa--gfx1031" },
					  { 101, "amdgcn-amd-amdhsa--gfx10-3-generic" } };
static const struct fake_isa isas20[] = { { 201, "amdgcn-amd-amdhsa--gfx11-generic" },
					  { 200, "amdgcn-amd-amdhsa--gfx1103" } };
static const struct fake_isa isas30[] = { { 300, NULL } };
static int get_info_calls;

static hsa_status_t f_init(void)
{
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t f_iterate_agents(hsa_status_t (*cb)(hsa_agent_t, void *), void *data)
{
	static const uint64_t agents[] = { 1, 10, 20, 30 };
	for (size_t i = 0; i < 4; i++) {
		hsa_status_t st = cb((hsa_agent_t){ agents[i] }, data);
		if (st != HSA_STATUS_SUCCESS)
			return st;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t f_agent_get_info(hsa_agent_t a, hsa_agent_info_t attr, void *value)
{
	get_info_calls++;
	if (attr == HSA_AGENT_INFO_DEVICE) {
		*(hsa_device_type_t *)value = a.handle == 1 ? HSA_DEVICE_TYPE_CPU : HSA_DEVICE_TYPE_GPU;
		return HSA_STATUS_SUCCESS;
	}
	if (attr == HSA_AGENT_INFO_NAME) {
		const char *n = a.handle == 10 ? "gfx1031" : a.handle == 20 ? "gfx1103"
				: a.handle == 30 ? "gfx1032" : "cpu";
		memset(value, 0, 64);
		memcpy(value, n, strlen(n));
		return HSA_STATUS_SUCCESS;
	}
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

static const struct fake_isa *agent_isas(uint64_t a, size_t *n)
{
	*n = a == 10 ? 2 : a == 20 ? 2 : a == 30 ? 1 : 0;
	return a == 10 ? isas10 : a == 20 ? isas20 : isas30;
}

static hsa_status_t f_iterate_isas(hsa_agent_t a, hsa_status_t (*cb)(hsa_isa_t, void *), void *data)
{
	if (!cb)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	size_t n;
	const struct fake_isa *l = agent_isas(a.handle, &n);
	if (!n)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	for (size_t i = 0; i < n; i++) {
		hsa_status_t st = cb((hsa_isa_t){ l[i].h }, data);
		if (st != HSA_STATUS_SUCCESS)
			return st;
	}
	return HSA_STATUS_SUCCESS;
}

static const char *isa_name(uint64_t h)
{
	const struct fake_isa *all[] = { &isas10[0], &isas10[1], &isas20[0], &isas20[1], &isas30[0] };
	for (size_t i = 0; i < 5; i++)
		if (all[i]->h == h)
			return all[i]->name;
	return NULL;
}

/* As ROCR: NAME_LENGTH counts the NUL; NAME writes name and NUL. */
static hsa_status_t f_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attr, void *value)
{
	const char *n = isa_name(isa.handle);
	if (!n)
		return HSA_STATUS_ERROR_INVALID_ISA;
	if (attr == HSA_ISA_INFO_NAME_LENGTH) {
		*(uint32_t *)value = (uint32_t)strlen(n) + 1;
		return HSA_STATUS_SUCCESS;
	}
	if (attr == HSA_ISA_INFO_NAME) {
		memcpy(value, n, strlen(n) + 1);
		return HSA_STATUS_SUCCESS;
	}
	if (attr == HSA_ISA_INFO_MACHINE_MODELS) {
		((bool *)value)[0] = true;
		return HSA_STATUS_SUCCESS;
	}
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

static void inject_all(void)
{
	assert_int_equal(rdc_real_inject("hsa_init", (void *)f_init), 0);
	assert_int_equal(rdc_real_inject("hsa_iterate_agents", (void *)f_iterate_agents), 0);
	assert_int_equal(rdc_real_inject("hsa_agent_get_info", (void *)f_agent_get_info), 0);
	assert_int_equal(rdc_real_inject("hsa_agent_iterate_isas", (void *)f_iterate_isas), 0);
	assert_int_equal(rdc_real_inject("hsa_isa_get_info_alt", (void *)f_isa_get_info_alt), 0);
}

static int setup(void **state)
{
	(void)state;
	inject_all();
	rdc_cfg.isa_filter_native = false;
	rdc_cfg.spoof_all = false;
	rdc_cfg.n_spoof_for = 0;
	return 0;
}

/* ---- registry --------------------------------------------------------------- */
static void test_registry_learns_both_isas(void **state)
{
	(void)state;
	assert_int_equal(rdc_devices_ensure(), 3);
	const struct rdc_device *d0 = rdc_device_by_agent(10), *d1 = rdc_device_by_agent(20),
				*d2 = rdc_device_by_agent(30);
	assert_non_null(d0);
	assert_non_null(d1);
	assert_non_null(d2);
	assert_int_equal(d0->index, 0);
	assert_string_equal(d0->target.proc, "gfx1031");
	assert_string_equal(d0->isa_name, "amdgcn-amd-amdhsa--gfx1031");
	assert_int_equal(d0->isa, 100);
	assert_string_equal(d0->generic.proc, "gfx10-3-generic");
	assert_int_equal(d0->generic_isa, 101);
	assert_int_equal(d0->n_isas, 2);
	/* generic listed first: the native one is still the target */
	assert_string_equal(d1->target.proc, "gfx1103");
	assert_int_equal(d1->isa, 200);
	assert_string_equal(d1->generic.proc, "gfx11-generic");
	/* no ISA name: the agent name */
	assert_string_equal(d2->target.proc, "gfx1032");
	assert_string_equal(d2->isa_name, "amdgcn-amd-amdhsa--gfx1032");
	assert_int_equal(d2->isa, 0);
	assert_string_equal(d2->generic.proc, "");
	assert_ptr_equal(rdc_device_by_isa(100), d0);
	assert_null(rdc_device_by_isa(101));   /* generic ISAs name no single device */
	assert_string_equal(d0->spoof_as, "gfx1030");
	assert_true(rdc_proc_is_generic("gfx10-3-generic"));
	assert_false(rdc_proc_is_generic("generic"));
	assert_false(rdc_proc_is_generic("gfx1031"));
}

/* ---- hsa_agent_iterate_isas ----------------------------------------------- */
struct seen {
	uint64_t h[8];
	size_t n;
	size_t stop_at;          /* return `ret` on this call (1-based), 0 never */
	hsa_status_t ret;
};

static hsa_status_t collect(hsa_isa_t isa, void *arg)
{
	struct seen *s = arg;
	if (s->n < 8)
		s->h[s->n] = isa.handle;
	s->n++;
	return s->stop_at && s->n == s->stop_at ? s->ret : HSA_STATUS_SUCCESS;
}

static void test_iterate_isas_truthful_by_default(void **state)
{
	(void)state;
	struct seen s = { .n = 0 };
	assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 10 }, collect, &s), HSA_STATUS_SUCCESS);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.h[0], 100);
	assert_int_equal(s.h[1], 101);
	memset(&s, 0, sizeof s);
	assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 20 }, collect, &s), HSA_STATUS_SUCCESS);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.h[0], 201);
}

static void test_iterate_isas_filter(void **state)
{
	(void)state;
	rdc_cfg.isa_filter_native = true;
	struct seen s = { .n = 0 };
	assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 10 }, collect, &s), HSA_STATUS_SUCCESS);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.h[0], 100);
	memset(&s, 0, sizeof s);
	assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 20 }, collect, &s), HSA_STATUS_SUCCESS);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.h[0], 200);
	/* one ISA whose name cannot be read: kept */
	memset(&s, 0, sizeof s);
	assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 30 }, collect, &s), HSA_STATUS_SUCCESS);
	assert_int_equal(s.n, 1);
	/* the CPU agent: ROCR's own status */
	memset(&s, 0, sizeof s);
	assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 1 }, collect, &s),
			 HSA_STATUS_ERROR_INVALID_AGENT);
	assert_int_equal(s.n, 0);
}

static void test_iterate_isas_break_and_errors(void **state)
{
	(void)state;
	for (int filter = 0; filter < 2; filter++) {
		rdc_cfg.isa_filter_native = filter;
		struct seen s = { .stop_at = 1, .ret = HSA_STATUS_INFO_BREAK };
		assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 10 }, collect, &s),
				 HSA_STATUS_INFO_BREAK);
		assert_int_equal(s.n, 1);
		assert_int_equal(s.h[0], 100);
		struct seen e = { .stop_at = 1, .ret = HSA_STATUS_ERROR_OUT_OF_RESOURCES };
		assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 20 }, collect, &e),
				 HSA_STATUS_ERROR_OUT_OF_RESOURCES);
		assert_int_equal(e.n, 1);
		assert_int_equal(e.h[0], filter ? 200 : 201);
		/* break on the last one the caller sees */
		struct seen l = { .stop_at = filter ? 1 : 2, .ret = HSA_STATUS_INFO_BREAK };
		assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 10 }, collect, &l),
				 HSA_STATUS_INFO_BREAK);
		assert_int_equal(l.n, filter ? 1 : 2);
		assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 10 }, NULL, NULL),
				 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	}
}

/* ---- hsa_agent_get_info / hsa_isa_get_info_alt ---------------------------- */
static void test_agent_name_truth_and_spoof(void **state)
{
	(void)state;
	char name[64];
	memset(name, 'x', sizeof name);
	assert_int_equal(hsa_agent_get_info((hsa_agent_t){ 10 }, HSA_AGENT_INFO_NAME, name), 0);
	assert_string_equal(name, "gfx1031");
	/* not spoof mode: the truth even for a listed caller */
	rdc_cfg.spoof_all = true;
	assert_int_equal(hsa_agent_get_info((hsa_agent_t){ 10 }, HSA_AGENT_INFO_NAME, name), 0);
	assert_string_equal(name, "gfx1031");
	struct rdc_device *d0 = (struct rdc_device *)rdc_device_by_agent(10);
	d0->mode = RDC_MODE_SPOOF;
	assert_int_equal(hsa_agent_get_info((hsa_agent_t){ 10 }, HSA_AGENT_INFO_NAME, name), 0);
	assert_string_equal(name, "gfx1030");
	for (size_t i = strlen(name); i < sizeof name; i++)
		assert_int_equal(name[i], 0);
	/* other attributes and other statuses untouched */
	hsa_device_type_t t = HSA_DEVICE_TYPE_DSP;
	assert_int_equal(hsa_agent_get_info((hsa_agent_t){ 10 }, HSA_AGENT_INFO_DEVICE, &t), 0);
	assert_int_equal(t, HSA_DEVICE_TYPE_GPU);
	assert_int_equal(hsa_agent_get_info((hsa_agent_t){ 10 }, HSA_AGENT_INFO_PROFILE, &t),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* a caller not listed: the truth */
	rdc_cfg.spoof_all = false;
	assert_int_equal(hsa_agent_get_info((hsa_agent_t){ 10 }, HSA_AGENT_INFO_NAME, name), 0);
	assert_string_equal(name, "gfx1031");
	d0->mode = RDC_MODE_MAP;
}

static void test_isa_name_truth_and_spoof(void **state)
{
	(void)state;
	struct rdc_device *d0 = (struct rdc_device *)rdc_device_by_agent(10);
	char name[64];
	uint32_t len = 0;
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME_LENGTH, &len), 0);
	assert_int_equal(len, strlen("amdgcn-amd-amdhsa--gfx1031") + 1);
	d0->mode = RDC_MODE_SPOOF;
	rdc_cfg.spoof_all = true;
	memset(name, 'x', sizeof name);
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME, name), 0);
	assert_string_equal(name, "amdgcn-amd-amdhsa--gfx1030");
	assert_int_equal(name[strlen(name) + 1], 'x');   /* name and NUL only */
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME_LENGTH, &len), 0);
	assert_int_equal(len, strlen(name) + 1);
	/* the generic ISA is never renamed */
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 101 }, HSA_ISA_INFO_NAME, name), 0);
	assert_string_equal(name, "amdgcn-amd-amdhsa--gfx10-3-generic");
	/* other attributes, unknown ISAs: ROCR's answer */
	bool models[2] = { false, false };
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_MACHINE_MODELS, models), 0);
	assert_true(models[0]);
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 999 }, HSA_ISA_INFO_NAME, name),
			 HSA_STATUS_ERROR_INVALID_ISA);
	/* a shorter spoof name: the length follows it */
	char saved[RDC_PROC_MAX];
	memcpy(saved, d0->spoof_as, sizeof saved);
	snprintf(d0->spoof_as, sizeof d0->spoof_as, "gfx900");
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME_LENGTH, &len), 0);
	assert_int_equal(len, strlen("amdgcn-amd-amdhsa--gfx900") + 1);
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME, name), 0);
	assert_string_equal(name, "amdgcn-amd-amdhsa--gfx900");
	/* a longer spoof name would not fit a buffer sized by the truth: truth */
	snprintf(d0->spoof_as, sizeof d0->spoof_as, "gfx10310");
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME, name), 0);
	assert_string_equal(name, "amdgcn-amd-amdhsa--gfx1031");
	memcpy(d0->spoof_as, saved, sizeof saved);
	/* unlisted caller */
	rdc_cfg.spoof_all = false;
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME, name), 0);
	assert_string_equal(name, "amdgcn-amd-amdhsa--gfx1031");
	d0->mode = RDC_MODE_MAP;
}

static void test_spoof_rename(void **state)
{
	(void)state;
	char out[64];
	assert_int_equal(rdc_spoof_rename("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "gfx90a", "gfx908",
					  out, sizeof out), 0);
	assert_string_equal(out, "amdgcn-amd-amdhsa--gfx908:sramecc+:xnack-");
	assert_int_equal(rdc_spoof_rename("gfx1031", "gfx1031", "gfx1030", out, sizeof out), 0);
	assert_string_equal(out, "gfx1030");
	assert_int_equal(rdc_spoof_rename("amdgcn-amd-amdhsa--gfx10310", "gfx1031", "gfx1030", out,
					  sizeof out), RDC_E_NOTFOUND);
	assert_int_equal(rdc_spoof_rename("gfx1031", "gfx1031", "gfx1030", out, 4), RDC_E_RANGE);
}

static void test_unresolved_real(void **state)
{
	(void)state;
	rdc_real_inject("hsa_agent_iterate_isas", NULL);
	rdc_real_inject("hsa_agent_get_info", NULL);
	rdc_real_inject("hsa_isa_get_info_alt", NULL);
	char name[64];
	struct seen s = { .n = 0 };
	assert_int_equal(hsa_agent_iterate_isas((hsa_agent_t){ 10 }, collect, &s),
			 HSA_STATUS_ERROR_NOT_INITIALIZED);
	assert_int_equal(s.n, 0);
	assert_int_equal(hsa_agent_get_info((hsa_agent_t){ 10 }, HSA_AGENT_INFO_NAME, name),
			 HSA_STATUS_ERROR_NOT_INITIALIZED);
	assert_int_equal(hsa_isa_get_info_alt((hsa_isa_t){ 100 }, HSA_ISA_INFO_NAME, name),
			 HSA_STATUS_ERROR_NOT_INITIALIZED);
	inject_all();
}

/* ---- decisions with a generic entry --------------------------------------- */
static uint8_t *slurp(const char *rel, size_t *n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", getenv("RDC_FIXTURES") ? getenv("RDC_FIXTURES") : "", rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)len);
	if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return b;
}

static void test_generic_entry_left_to_runtime(void **state)
{
	(void)state;
	size_t n = 0;
	uint8_t *co = slurp("co/gfx1030.co", &n);
	if (!co) {
		print_message("skipped: fixture co/gfx1030.co missing (make fixtures)\n");
		skip();
	}
	/* Only device 0 (gfx1031, lists gfx10-3-generic) decides here. */
	struct rdc_device *d1 = (struct rdc_device *)rdc_device_by_agent(20),
			  *d2 = (struct rdc_device *)rdc_device_by_agent(30);
	enum rdc_mode m1 = d1->mode, m2 = d2->mode;
	d1->mode = d2->mode = RDC_MODE_OFF;
	struct rdc_bundle_input in[] = {
		{ "host-x86_64-unknown-linux-gnu-", NULL, 0 },
		{ "hipv4-amdgcn-amd-amdhsa--gfx10-3-generic", co, n },
		{ "hipv4-amdgcn-amd-amdhsa--gfx1030", co, n },
	};
	uint8_t *buf = NULL;
	size_t len = 0;
	assert_int_equal(rdc_bundle_write(in, 3, 4096, &buf, &len, NULL), 0);
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse(buf, len, &b, NULL), 0);
	struct rdc_add add[RDC_MAX_DEVICES];
	size_t n_add = 9;
	rdc_cfg.isa_filter_native = false;
	assert_int_equal(rdc_decide_bundle(&b, "test", 0, "fatbin", add, &n_add), 0);
	assert_int_equal(n_add, 0);   /* the runtime takes the generic entry itself */
	rdc_cfg.isa_filter_native = true;   /* HIP no longer sees the generic ISA */
	assert_int_equal(rdc_decide_bundle(&b, "test", 0, "fatbin", add, &n_add), 0);
	assert_int_equal(n_add, 1);
	assert_string_equal(add[0].to.proc, "gfx1031");
	rdc_bundle_free(&b);
	free(buf);
	free(co);
	d1->mode = m1;
	d2->mode = m2;
}

int main(void)
{
	setenv("RDNACOMPAT_LOG", "error", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_registry_learns_both_isas, setup),
		cmocka_unit_test_setup(test_iterate_isas_truthful_by_default, setup),
		cmocka_unit_test_setup(test_iterate_isas_filter, setup),
		cmocka_unit_test_setup(test_iterate_isas_break_and_errors, setup),
		cmocka_unit_test_setup(test_agent_name_truth_and_spoof, setup),
		cmocka_unit_test_setup(test_isa_name_truth_and_spoof, setup),
		cmocka_unit_test_setup(test_spoof_rename, setup),
		cmocka_unit_test_setup(test_unresolved_real, setup),
		cmocka_unit_test_setup(test_generic_entry_left_to_runtime, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
