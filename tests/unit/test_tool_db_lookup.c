/* SPDX-License-Identifier: MIT */
/*
 * test_tool_db_lookup.c — the report ranking of tools/rdnacompat/db_lookup.c
 * (rdc_db_relevant) on reports built in memory: only sourced reports of the
 * card's target with a source; same ROCm major.minor > same major > same PCI
 * device > a workaround > a quoted message; ties to the newer thread, then
 * the name; at most `max`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "db_lookup.h"

#define MAXF 10

struct rep {
	struct rdc_report r;
	struct rdc_rfield f[MAXF];
};

/* name, then key, value pairs ending in NULL; kind sourced, target gfx1031
 * and a source unless given. */
static void mk(struct rep *p, char *name, ...)
{
	memset(p, 0, sizeof *p);
	p->r.name = name;
	p->r.path = name;
	p->r.f = p->f;
	va_list ap;
	va_start(ap, name);
	for (char *k; (k = va_arg(ap, char *)) && p->r.n < MAXF;) {
		p->f[p->r.n].key = k;
		p->f[p->r.n++].value = va_arg(ap, char *);
	}
	va_end(ap);
	static char *defaults[][2] = { { "kind", "sourced" }, { "gfx_target", "gfx1031" },
				       { "source", "https://example.org/t" } };
	for (size_t i = 0; i < 3; i++)
		if (!rdc_report_get(&p->r, defaults[i][0]) && p->r.n < MAXF) {
			p->f[p->r.n].key = defaults[i][0];
			p->f[p->r.n++].value = defaults[i][1];
		}
}

static struct rdc_report *flat(struct rep *v, size_t n, struct rdc_report *out)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = v[i].r;
		out[i].f = v[i].f;
	}
	return out;
}

static void test_filter(void **state)
{
	(void)state;
	struct rep v[5];
	struct rdc_report r[5];
	mk(&v[0], "ok", NULL);
	mk(&v[1], "measured", "kind", "measured", NULL);
	mk(&v[2], "other-target", "gfx_target", "gfx1030", NULL);
	mk(&v[3], "no-source", NULL);
	v[3].r.n--;    /* the default source, added last */
	mk(&v[4], "also-ok", NULL);
	const struct rdc_report *out[5];
	size_t k = rdc_db_relevant(flat(v, 5, r), 5, "gfx1031", 0x1002, 0x73df, "6.4.3", out, 5);
	assert_int_equal(k, 2);
	assert_string_equal(out[0]->name, "also-ok");  /* a tie: by name */
	assert_string_equal(out[1]->name, "ok");
	assert_int_equal(rdc_db_relevant(r, 5, NULL, 0, 0, NULL, out, 5), 0);
	assert_int_equal(rdc_db_relevant(r, 5, "gfx1100", 0, 0, NULL, out, 5), 0);
}

static void test_order(void **state)
{
	(void)state;
	struct rep v[7];
	struct rdc_report r[7];
	mk(&v[0], "plain", NULL);
	mk(&v[1], "message", "message", "m", NULL);
	mk(&v[2], "workaround", "workaround", "w", NULL);
	mk(&v[3], "same-device", "pci_id", "1002:73df", NULL);
	mk(&v[4], "same-major", "rocm_version", "6.2", "pci_id", "1002:73df", "workaround", "w", NULL);
	mk(&v[5], "same-minor", "rocm_version", "6.4", NULL);
	mk(&v[6], "major-x", "rocm_version", "6.x", NULL);
	const struct rdc_report *out[7];
	size_t k = rdc_db_relevant(flat(v, 7, r), 7, "gfx1031", 0x1002, 0x73df, "6.4.3", out, 7);
	assert_int_equal(k, 7);
	const char *want[] = { "same-minor", "same-major", "major-x", "same-device", "workaround", "message",
			       "plain" };
	for (size_t i = 0; i < 7; i++)
		assert_string_equal(out[i]->name, want[i]);
	/* Another device and no ROCm: only workaround and message count. */
	k = rdc_db_relevant(r, 7, "gfx1031", 0x1002, 0x73ff, NULL, out, 2);
	assert_int_equal(k, 2);
	assert_string_equal(out[0]->name, "same-major");   /* workaround, then name */
	assert_string_equal(out[1]->name, "workaround");
}

static void test_newer_first(void **state)
{
	(void)state;
	struct rep v[3];
	struct rdc_report r[3];
	mk(&v[0], "a-old", "reported", "2024-01-05", NULL);
	mk(&v[1], "b-new", "reported", "2025-06-01", NULL);
	mk(&v[2], "c-mid", "reported", "2024-11-30", NULL);
	const struct rdc_report *out[3];
	assert_int_equal(rdc_db_relevant(flat(v, 3, r), 3, "gfx1031", 0, 0, NULL, out, 3), 3);
	assert_string_equal(out[0]->name, "b-new");
	assert_string_equal(out[1]->name, "c-mid");
	assert_string_equal(out[2]->name, "a-old");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_newer_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
