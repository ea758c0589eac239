/* SPDX-License-Identifier: MIT */
/*
 * test_container.c — rdc_container_open on real files: fixture code objects,
 * bundles and host shared libraries (hipcc/clang-15 builds with one and two
 * targets, one and two translation units), Debian's 1.3 GB librocsparse
 * (111 bundles in .hip_fatbin, each with gfx1030 and no gfx1031/gfx11), all
 * cross-checked against readelf and roc-obj-ls; and broken files (missing,
 * empty, text, directory, truncated ELF, .hip_fatbin pointing past the end)
 * failing with the file name and the right code/offset.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rdnacompat/bundle.h"
#include "rdnacompat/container.h"
#include "fixture.h"

#define ROCSPARSE "/usr/lib/x86_64-linux-gnu/librocsparse.so.0"

static uint64_t file_size(const char *p)
{
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	return (uint64_t)st.st_size;
}

/* readelf's view of .hip_fatbin: file offset and size (0/0 when absent). */
static void readelf_fatbin(const char *path, uint64_t *off, uint64_t *size)
{
	char cmd[4096], line[512];
	snprintf(cmd, sizeof cmd, "readelf -SW '%s'", path);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	*off = *size = 0;
	while (fgets(line, sizeof line, f)) {
		char *s = strstr(line, " .hip_fatbin ");
		if (!s)
			continue;
		char type[32];
		unsigned long long addr, o, sz;
		assert_int_equal(sscanf(s, " .hip_fatbin %31s %llx %llx %llx", type, &addr, &o, &sz), 4);
		*off = o;
		*size = sz;
	}
	pclose(f);
}

/* roc-obj-ls -v: one row per entry; bundle number, id, absolute offset, size. */
struct row {
	unsigned bundle;
	char id[128];
	unsigned long long off, size;
};

static size_t roc_obj_ls(const char *path, struct row **rows)
{
	char cmd[4096], line[1024];
	snprintf(cmd, sizeof cmd, "roc-obj-ls -v '%s' 2>/dev/null", path);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t n = 0, cap = 64;
	*rows = malloc(cap * sizeof **rows);
	while (fgets(line, sizeof line, f)) {
		struct row r;
		char uri[768];
		if (sscanf(line, "%u %127s %767s", &r.bundle, r.id, uri) != 3)
			continue;
		const char *o = strstr(uri, "#offset="), *s = strstr(uri, "&size=");
		if (!o || !s)
			continue;
		r.off = strtoull(o + 8, NULL, 10);
		r.size = strtoull(s + 6, NULL, 10);
		if (n == cap)
			*rows = realloc(*rows, (cap *= 2) * sizeof **rows);
		(*rows)[n++] = r;
	}
	pclose(f);
	return n;
}

/* What a scan saw, entry by entry, in file coordinates. */
struct scan {
	uint64_t base; /* file offset of the region */
	size_t bundles;
	size_t n, cap;
	struct row *rows;
	size_t with_1030, with_1031, with_gfx11;
};

static int collect(size_t i, uint64_t off, const struct rdc_bundle *b, void *arg)
{
	struct scan *s = arg;
	assert_int_equal(i, s->bundles);
	s->bundles++;
	bool has1030 = false, has1031 = false, has11 = false;
	for (size_t k = 0; k < b->n_entries; k++) {
		const struct rdc_bundle_entry *e = &b->entries[k];
		if (s->n == s->cap)
			s->rows = realloc(s->rows, (s->cap = s->cap ? 2 * s->cap : 256) * sizeof *s->rows);
		struct row *r = &s->rows[s->n++];
		r->bundle = (unsigned)i + 1;
		size_t l = e->id_len < sizeof r->id - 1 ? e->id_len : sizeof r->id - 1;
		memcpy(r->id, e->id, l);
		r->id[l] = '\0';
		r->off = s->base + off + e->offset;
		r->size = e->size;
		if (e->parsed.has_target) {
			has1030 |= strcmp(e->parsed.target.proc, "gfx1030") == 0;
			has1031 |= strcmp(e->parsed.target.proc, "gfx1031") == 0;
			has11 |= strncmp(e->parsed.target.proc, "gfx11", 5) == 0;
		}
	}
	s->with_1030 += has1030;
	s->with_1031 += has1031;
	s->with_gfx11 += has11;
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->bundle != y->bundle)
		return x->bundle < y->bundle ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Open a host ELF, check it against readelf, scan it, and compare every
 * entry with roc-obj-ls.  Returns the scan (caller frees rows). */
static struct scan check_host(const char *path, size_t want_bundles)
{
	struct rdc_container c;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_container_open(path, &c, &d);
	if (rc)
		print_error("%s\n", d.msg);
	assert_int_equal(rc, 0);
	assert_int_equal(c.kind, RDC_CONT_HOST_ELF);
	assert_true(c.has_fatbin);
	assert_int_equal(c.e_machine, 62 /* EM_X86_64 */);
	assert_true(c.file_size == file_size(path));
	uint64_t ro, rs;
	readelf_fatbin(path, &ro, &rs);
	assert_true(c.offset == ro);
	assert_true(c.size == rs);
	assert_int_equal(c.fatbin_align, 4096);
	assert_true((const uint8_t *)c.map_base <= c.data);
	assert_true(c.map_size < c.size + 2 * 4096); /* only the section is mapped */

	struct scan s = { .base = c.offset };
	rc = rdc_bundle_scan(c.data, c.size, collect, &s, &d);
	if (rc)
		print_error("%s\n", d.msg);
	assert_int_equal(rc, 0);
	if (want_bundles)
		assert_int_equal(s.bundles, want_bundles);

	if (have_tool("roc-obj-ls") && have_tool("objdump")) {
		struct row *want;
		size_t n = roc_obj_ls(path, &want);
		assert_int_equal(n, s.n);
		qsort(want, n, sizeof *want, cmp_row);
		qsort(s.rows, s.n, sizeof *s.rows, cmp_row);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(want[i].bundle, s.rows[i].bundle);
			assert_string_equal(want[i].id, s.rows[i].id);
			assert_true(want[i].off == s.rows[i].off);
			assert_true(want[i].size == s.rows[i].size);
		}
		free(want);
	}
	rdc_container_close(&c);
	assert_null(c.data);
	return s;
}

static void test_host_1030(void **state)
{
	(void)state;
	char *p = fixture_path("host/libiota-1030.so");
	if (!p) {
		print_message("skipped: fixture host/libiota-1030.so missing (make fixtures)\n");
		skip();
	}
	struct scan s = check_host(p, 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.with_1030, 1);
	free(s.rows);
	free(p);
}

static void test_host_two_targets(void **state)
{
	(void)state;
	char *p = fixture_path("host/libiota-2t.so");
	if (!p) {
		print_message("skipped: fixture host/libiota-2t.so missing (make fixtures)\n");
		skip();
	}
	struct scan s = check_host(p, 1);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.with_gfx11, 1);
	free(s.rows);
	free(p);
}

static void test_host_two_tus(void **state)
{
	(void)state;
	char *p = fixture_path("host/libiota-2tu.so");
	if (!p) {
		print_message("skipped: fixture host/libiota-2tu.so missing (make fixtures)\n");
		skip();
	}
	struct scan s = check_host(p, 2);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.with_1030, 2);
	assert_int_equal(s.with_gfx11, 2);
	free(s.rows);
	free(p);
}

/* Debian's librocsparse: 111 bundles, every one with gfx1030 and none with
 * gfx1031 or gfx11 — checked against roc-obj-ls entry by entry.  Headers
 * only: the scan must stay fast on the 1.3 GB file. */
static void test_rocsparse(void **state)
{
	(void)state;
	if (access(ROCSPARSE, R_OK) != 0) {
		print_message("skipped: Debian librocsparse (%s) not readable (librocsparse0 not installed)\n", ROCSPARSE);
		skip();
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct rdc_container c;
	struct rdc_diag d;
	assert_int_equal(rdc_container_open(ROCSPARSE, &c, &d), 0);
	struct scan s = { .base = c.offset };
	assert_int_equal(rdc_bundle_scan(c.data, c.size, collect, &s, &d), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rdc_container_close(&c);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("librocsparse: %zu bundles, %zu entries, %.3f s\n", s.bundles, s.n, secs);
	assert_int_equal(s.bundles, 111);
	assert_int_equal(s.with_1030, 111);
	assert_int_equal(s.with_1031, 0);
	assert_int_equal(s.with_gfx11, 0);
	assert_true(secs < 5.0);
	free(s.rows);
	/* And entry by entry against roc-obj-ls (readelf for the section). */
	s = check_host(ROCSPARSE, 111);
	free(s.rows);
}

static void test_code_object_and_bundle(void **state)
{
	(void)state;
	char *co = fixture_path("co/gfx1030.co"), *bu = fixture_path("bundle/iota.bundle");
	if (!co || !bu) {
		free(co);
		free(bu);
		print_message("skipped: fixtures co/gfx1030.co or bundle/iota.bundle missing (make fixtures)\n");
		skip();
	}
	struct rdc_container c;
	struct rdc_diag d;
	assert_int_equal(rdc_container_open(co, &c, &d), 0);
	assert_int_equal(c.kind, RDC_CONT_CODE_OBJECT);
	assert_int_equal(c.e_machine, 224);
	assert_false(c.has_fatbin);
	assert_true(c.size == file_size(co));
	assert_true(c.offset == 0);
	assert_memory_equal(c.data, "\177ELF", 4);
	assert_string_equal(rdc_container_kind_name(c.kind), "AMDGPU code object");
	rdc_container_close(&c);

	assert_int_equal(rdc_container_open(bu, &c, &d), 0);
	assert_int_equal(c.kind, RDC_CONT_BUNDLE);
	assert_true(c.size == file_size(bu));
	struct rdc_bundle b;
	assert_int_equal(rdc_bundle_parse(c.data, c.size, &b, &d), 0);
	assert_int_equal(b.n_entries, 5);
	rdc_bundle_free(&b);
	rdc_container_close(&c);
	free(co);
	free(bu);
}

static void test_host_without_fatbin(void **state)
{
	(void)state;
	/* This test binary itself: a host ELF with no device code. */
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	assert_true(n > 0);
	self[n] = '\0';
	struct rdc_container c;
	struct rdc_diag d;
	assert_int_equal(rdc_container_open(self, &c, &d), 0);
	assert_int_equal(c.kind, RDC_CONT_HOST_ELF);
	assert_false(c.has_fatbin);
	assert_null(c.data);
	assert_int_equal(c.size, 0);
	rdc_container_close(&c);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void expect_open_fail(const char *path, int code, uint64_t offset)
{
	struct rdc_container c;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_container_open(path, &c, &d);
	if (rc != code)
		print_error("%s: rc %d: %s\n", path, rc, d.msg);
	assert_int_equal(rc, code);
	assert_non_null(strstr(d.msg, path)); /* errors name the file */
	if (offset != RDC_NO_OFFSET)
		assert_true(d.offset == offset);
	assert_null(c.data);
	assert_null(c.map_base);
	rdc_container_close(&c);
}

static void test_bad_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/rdc-test-container-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[4200];

	snprintf(p, sizeof p, "%s/missing", dir);
	expect_open_fail(p, RDC_E_IO, RDC_NO_OFFSET);
	expect_open_fail(dir, RDC_E_FORMAT, RDC_NO_OFFSET); /* a directory */

	snprintf(p, sizeof p, "%s/empty", dir);
	write_file(p, "", 0);
	expect_open_fail(p, RDC_E_FORMAT, 0);
	unlink(p);

	snprintf(p, sizeof p, "%s/text", dir);
	write_file(p, "hello, world\n", 13);
	expect_open_fail(p, RDC_E_FORMAT, 0);
	unlink(p);

	char *so = fixture_path("host/libiota-1030.so");
	if (so) {
		FILE *f = fopen(so, "rb");
		assert_non_null(f);
		uint8_t buf[65536];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		assert_true(n > 4096 && n < sizeof buf);

		/* Truncated: ELF header only, section headers beyond the end. */
		snprintf(p, sizeof p, "%s/trunc.so", dir);
		write_file(p, buf, 64);
		expect_open_fail(p, RDC_E_FORMAT, 0x28); /* e_shoff */
		unlink(p);

		/* .hip_fatbin's sh_offset moved past the end of the file. */
		uint64_t shoff = 0;
		for (int i = 7; i >= 0; i--)
			shoff = shoff << 8 | buf[0x28 + i];
		unsigned shentsize = buf[0x3a] | buf[0x3b] << 8, shnum = buf[0x3c] | buf[0x3d] << 8;
		uint64_t off, size;
		readelf_fatbin(so, &off, &size);
		int hit = -1;
		for (unsigned i = 0; i < shnum; i++) {
			uint8_t *sh = buf + shoff + (uint64_t)i * shentsize;
			uint64_t o = 0;
			for (int k = 7; k >= 0; k--)
				o = o << 8 | sh[24 + k];
			if (o == off && sh[4] == 1 /* SHT_PROGBITS */) {
				uint64_t sz = 0;
				for (int k = 7; k >= 0; k--)
					sz = sz << 8 | sh[32 + k];
				if (sz == size)
					hit = (int)i;
			}
		}
		assert_true(hit >= 0);
		uint8_t *sh = buf + shoff + (uint64_t)hit * shentsize;
		uint64_t bad = n - 16;
		for (int k = 0; k < 8; k++)
			sh[24 + k] = (uint8_t)(bad >> (8 * k));
		snprintf(p, sizeof p, "%s/badsec.so", dir);
		write_file(p, buf, n);
		expect_open_fail(p, RDC_E_RANGE, shoff + (uint64_t)hit * shentsize);
		unlink(p);
		free(so);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_code_object_and_bundle),
		cmocka_unit_test(test_host_without_fatbin),
		cmocka_unit_test(test_host_1030),
		cmocka_unit_test(test_host_two_targets),
		cmocka_unit_test(test_host_two_tus),
		cmocka_unit_test(test_rocsparse),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
