/* SPDX-License-Identifier: MIT */
/*
 * test_shim_kpack.c — the librocm_kpack hooks (shim/hooks/hook_kpack.c)
 * against a fake loader and a fake HSA runtime (one gfx1031 agent with its
 * generic ISA, one gfx1103) injected through the real-function table.  The
 * fake loader answers 13 for the device's own names and, per case, a real
 * gfx1030 code object (tests' fixture) or 14 for a substitute.  Checked:
 * success and errors other than 13/14 come back untouched with no second
 * call; on 13 the loader is asked once per compatible target the runtime
 * did not ask for (never the generic again), the answer is the gfx1030 code
 * retargeted to gfx1031 (e_flags), the loader's buffer goes back to the
 * loader and ours is freed by our kpack_free_code_object without reaching
 * the real one; no substitute anywhere: the loader's first error; audit
 * and off modes: the loader's error; a device the shim does not know:
 * untouched; an unresolvable real loader: error 8, no crash.
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

#include "rdnacompat/codeobj.h"
#include "fixture.h"
#include "shim.h"

int kpack_load_code_object(void *cache, const void *meta, const char *binary_path, uint32_t co_index,
			   const char *const *arch_list, size_t arch_count, void **out, size_t *out_size);
void kpack_free_code_object(void *p);

/* ---- fake HSA: agent 10 gfx1031 (+ gfx10-3-generic), agent 20 gfx1103 ---- */
static hsa_status_t f_init(void)
{
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t f_iterate_agents(hsa_status_t (*cb)(hsa_agent_t, void *), void *data)
{
	static const uint64_t agents[] = { 10, 20 };
	for (size_t i = 0; i < 2; i++) {
		hsa_status_t st = cb((hsa_agent_t){ agents[i] }, data);
		if (st != HSA_STATUS_SUCCESS)
			return st;
	}
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t f_agent_get_info(hsa_agent_t a, hsa_agent_info_t attr, void *value)
{
	if (attr == HSA_AGENT_INFO_DEVICE) {
		*(hsa_device_type_t *)value = HSA_DEVICE_TYPE_GPU;
		return HSA_STATUS_SUCCESS;
	}
	if (attr == HSA_AGENT_INFO_NAME) {
		const char *n = a.handle == 10 ? "gfx1031" : "gfx1103";
		memset(value, 0, 64);
		memcpy(value, n, strlen(n));
		return HSA_STATUS_SUCCESS;
	}
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

static const char *isa_name(uint64_t h)
{
	return h == 100 ? "amdgcn-amd-amdhsa--gfx1031" : h == 101 ? "amdgcn-amd-amdhsa--gfx10-3-generic"
	       : h == 200 ? "amdgcn-amd-amdhsa--gfx1103" : NULL;
}

static hsa_status_t f_iterate_isas(hsa_agent_t a, hsa_status_t (*cb)(hsa_isa_t, void *), void *data)
{
	static const uint64_t i10[] = { 100, 101 }, i20[] = { 200 };
	const uint64_t *l = a.handle == 10 ? i10 : i20;
	size_t n = a.handle == 10 ? 2 : 1;
	for (size_t i = 0; i < n; i++) {
		hsa_status_t st = cb((hsa_isa_t){ l[i] }, data);
		if (st != HSA_STATUS_SUCCESS)
			return st;
	}
	return HSA_STATUS_SUCCESS;
}

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
	return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

/* ---- fake loader --------------------------------------------------------------- */
static struct {
	int own;                 /* answer for the device's own list */
	bool have_1030;          /* a gfx1030 archive exists */
	char calls[16][128];     /* arch_list[0] of each call */
	size_t n_calls;
	size_t list_len[16];
	void *given[16];         /* buffers the fake loader handed out */
	size_t n_given, n_freed;
	uint8_t *co;             /* the gfx1030 fixture */
	size_t co_n;
} L;

static int f_load(void *cache, const void *meta, const char *path, uint32_t idx, const char *const *arch,
		  size_t n, void **out, size_t *out_n)
{
	(void)cache, (void)meta, (void)path, (void)idx;
	if (L.n_calls < 16) {
		snprintf(L.calls[L.n_calls], sizeof L.calls[0], "%s", arch[0]);
		L.list_len[L.n_calls] = n;
	}
	L.n_calls++;
	if (strstr(arch[0], "gfx1030") && L.have_1030) {
		void *p = malloc(L.co_n);
		memcpy(p, L.co, L.co_n);
		L.given[L.n_given++ % 16] = p;
		*out = p;
		*out_n = L.co_n;
		return 0;
	}
	if (strstr(arch[0], "gfx1031") || strstr(arch[0], "gfx1103")) {
		if (L.own == 0) {
			void *p = malloc(16);
			L.given[L.n_given++ % 16] = p;
			*out = p;
			*out_n = 16;
		}
		return L.own;
	}
	return 14;
}

static void f_free(void *p)
{
	if (!p)
		return;   /* as std::free */
	for (size_t i = 0; i < 16; i++)
		if (p && L.given[i] == p) {
			L.given[i] = NULL;
			L.n_freed++;
			free(p);
			return;
		}
	fail_msg("the real free got a pointer the loader did not give out");
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(rdc_real_inject("hsa_init", (void *)f_init), 0);
	assert_int_equal(rdc_real_inject("hsa_iterate_agents", (void *)f_iterate_agents), 0);
	assert_int_equal(rdc_real_inject("hsa_agent_get_info", (void *)f_agent_get_info), 0);
	assert_int_equal(rdc_real_inject("hsa_agent_iterate_isas", (void *)f_iterate_isas), 0);
	assert_int_equal(rdc_real_inject("hsa_isa_get_info_alt", (void *)f_isa_get_info_alt), 0);
	assert_int_equal(rdc_real_inject("kpack_load_code_object", (void *)f_load), 0);
	assert_int_equal(rdc_real_inject("kpack_free_code_object", (void *)f_free), 0);
	uint8_t *co = L.co;
	size_t con = L.co_n;
	memset(&L, 0, sizeof L);
	L.co = co;
	L.co_n = con;
	if (!L.co)
		L.co = load_fixture("codeobj/iota-gfx1030-v5.co", &L.co_n);
	if (!L.co) {
		print_message("skipped: fixture codeobj/iota-gfx1030-v5.co missing (make fixtures)\n");
		skip();
	}
	L.own = 13;
	L.have_1030 = true;
	return 0;
}

static const char *const list1031[] = { "amdgcn-amd-amdhsa--gfx1031", "amdgcn-amd-amdhsa--gfx10-3-generic" };
static const uint8_t meta[] = { 0x80 };

static int load(const char *const *list, size_t n, void **out, size_t *out_n)
{
	*out = NULL;
	*out_n = 0;
	return kpack_load_code_object((void *)1, meta, "/x/lib/libdemo.so.1", 0, list, n, out, out_n);
}

static void test_untouched(void **state)
{
	(void)state;
	void *co;
	size_t n;
	L.own = 0;   /* the loader finds the device's own code */
	assert_int_equal(load(list1031, 2, &co, &n), 0);
	assert_int_equal(L.n_calls, 1);
	assert_int_equal(n, 16);
	assert_ptr_equal(co, L.given[0]);
	kpack_free_code_object(co);   /* not ours: the real free */
	assert_int_equal(L.n_freed, 1);
	L.own = 5;   /* KERNEL_NOT_FOUND: not ours to mend */
	assert_int_equal(load(list1031, 2, &co, &n), 5);
	assert_int_equal(L.n_calls, 2);
	L.own = 8;   /* ROCM_KPACK_DISABLE */
	assert_int_equal(load(list1031, 2, &co, &n), 8);
	assert_int_equal(L.n_calls, 3);
	kpack_free_code_object(NULL);
}

static void test_mapped(void **state)
{
	(void)state;
	void *co;
	size_t n;
	assert_int_equal(load(list1031, 2, &co, &n), 0);
	assert_true(L.n_calls >= 2);
	assert_string_equal(L.calls[0], "amdgcn-amd-amdhsa--gfx1031");
	assert_int_equal(L.list_len[0], 2);
	assert_string_equal(L.calls[1], "amdgcn-amd-amdhsa--gfx1030");   /* rank 1 edge */
	assert_int_equal(L.list_len[1], 1);
	for (size_t i = 1; i < L.n_calls && i < 16; i++)   /* the runtime asked for the generic */
		assert_null(strstr(L.calls[i], "generic"));
	assert_int_equal(L.n_freed, 1);   /* the loader's gfx1030 buffer went back */
	struct rdc_codeobj h;
	assert_int_equal(rdc_codeobj_parse(co, n, RDC_CO_HEADER_ONLY, &h, NULL), 0);
	assert_string_equal(h.target.proc, "gfx1031");
	rdc_codeobj_free(&h);
	kpack_free_code_object(co);   /* ours: not the real free */
	assert_int_equal(L.n_freed, 1);
}

static void test_nothing_compatible(void **state)
{
	(void)state;
	void *co;
	size_t n;
	L.have_1030 = false;
	assert_int_equal(load(list1031, 2, &co, &n), 13);
	assert_null(co);
	assert_true(L.n_calls >= 2);
	assert_int_equal(L.n_freed, 0);
	L.own = 14;
	assert_int_equal(load(list1031, 2, &co, &n), 14);
}

static void test_modes_and_unknown(void **state)
{
	(void)state;
	void *co;
	size_t n;
	assert_true(rdc_devices_ensure() >= 1);
	struct rdc_device *d = (struct rdc_device *)rdc_device_get(0);
	assert_string_equal(d->target.proc, "gfx1031");
	enum rdc_mode m = d->mode;
	d->mode = RDC_MODE_AUDIT;   /* logs what it would do, changes nothing */
	assert_int_equal(load(list1031, 2, &co, &n), 13);
	assert_int_equal(L.n_freed, 1);
	d->mode = RDC_MODE_OFF;
	size_t before = L.n_calls;
	assert_int_equal(load(list1031, 2, &co, &n), 13);
	assert_int_equal(L.n_calls, before + 1);
	d->mode = m;
	/* an ISA no device has */
	static const char *const other[] = { "amdgcn-amd-amdhsa--gfx1032" };
	before = L.n_calls;
	assert_int_equal(load(other, 1, &co, &n), 14);
	assert_int_equal(L.n_calls, before + 1);
}

static void test_unresolved(void **state)
{
	(void)state;
	void *co;
	size_t n;
	rdc_real_inject("kpack_load_code_object", NULL);
	assert_int_equal(load(list1031, 2, &co, &n), 8);
	assert_int_equal(L.n_calls, 0);
}

int main(void)
{
	setenv("RDNACOMPAT_LOG", "error", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_untouched, setup),
		cmocka_unit_test_setup(test_mapped, setup),
		cmocka_unit_test_setup(test_nothing_compatible, setup),
		cmocka_unit_test_setup(test_modes_and_unknown, setup),
		cmocka_unit_test_setup(test_unresolved, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
