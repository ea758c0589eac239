/* SPDX-License-Identifier: MIT */
/*
 * test_codeobj.c — cmocka tests of include/rdnacompat/codeobj.h against real
 * clang-built code objects (tests/fixtures/build.sh, codeobj.d/vgpr.sh).
 *
 * Expected values are what clang's output says (checked with
 * `llvm-readelf-15 --notes -h`): _Z9fill_iotaPii has 2 args at offsets 0 and
 * 8 (global_buffer, by_value), kernarg 12 in v4 and 272 in v5 (hidden
 * args); wave32 on gfx10+, wave64 on gfx9; clang-16's vgpr_hog needs 192
 * VGPRs on gfx1100/1101 and is capped at 128 on gfx1102/1103.  Where
 * llvm-readelf-15 is installed the test also runs it on the inputs and on
 * every retargeted output and compares.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <msgpack.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/target.h"
#include "fixture.h"

/* ---- helpers ---------------------------------------------------------- */

#define LOAD_OR_SKIP(var, n, rel)                                                  \
	size_t n = 0;                                                              \
	uint8_t *var = load_fixture(rel, &n);                                      \
	if (!var) {                                                                \
		print_message("fixture %s missing, skipped\n", rel);               \
		skip();                                                            \
	}

static uint64_t fnv1a(const uint8_t *b, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static struct rdc_target tgt(const char *s)
{
	struct rdc_target t;
	assert_int_equal(rdc_target_parse(s, (size_t)-1, &t, NULL), 0);
	return t;
}

static bool have_readelf(void)
{
	return system("command -v llvm-readelf-15 >/dev/null 2>&1") == 0;
}

/* Write bytes to a temp file, run llvm-readelf-15 OPTS on it, return the
 * output (malloc'd) and the exit status. */
static char *readelf(const uint8_t *b, size_t n, const char *opts, int *status)
{
	char path[] = "/tmp/rdc_test_codeobj_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "llvm-readelf-15 %s %s 2>&1", opts, path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	size_t k;
	while ((k = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += k;
		if (cap - len < 2)
			out = realloc(out, cap *= 2);
	}
	out[len] = '\0';
	*status = pclose(p);
	unlink(path);
	return out;
}

/* Values of ".KEY: N" lines in llvm-readelf --notes output, in order. */
static size_t readelf_values(const char *out, const char *key, unsigned long *v, size_t max)
{
	size_t k = 0;
	char pat[64];
	snprintf(pat, sizeof pat, "%s:", key);
	for (const char *s = strstr(out, pat); s && k < max; s = strstr(s + 1, pat)) {
		if (s[-1] != ' ' && s[-1] != '\n')
			continue;
		v[k++] = strtoul(s + strlen(pat), NULL, 0);
	}
	return k;
}

/* llvm-readelf prints "amdhsa.target:   X", quoting X when it has ':'. */
static bool readelf_target_is(const char *out, const char *want)
{
	const char *s = strstr(out, "amdhsa.target:");
	if (!s)
		return false;
	s += strlen("amdhsa.target:");
	while (*s == ' ' || *s == '\'')
		s++;
	size_t l = strlen(want);
	return strncmp(s, want, l) == 0 && (s[l] == '\n' || s[l] == '\'');
}

static void assert_parse(const uint8_t *b, size_t n, unsigned flags, struct rdc_codeobj *co)
{
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_codeobj_parse(b, n, flags, co, &d);
	if (rc)
		print_message("parse: %d %s\n", rc, d.msg);
	assert_int_equal(rc, 0);
}

/* Kernels (metadata + descriptors) equal, field by field. */
static void assert_same_kernels(const struct rdc_codeobj *a, const struct rdc_codeobj *b)
{
	assert_int_equal(a->n_kernels, b->n_kernels);
	for (size_t i = 0; i < a->n_kernels; i++) {
		const struct rdc_kernel *x = &a->kernels[i], *y = &b->kernels[i];
		assert_string_equal(x->name, y->name);
		assert_string_equal(x->symbol, y->symbol);
		assert_int_equal(x->kernarg_size, y->kernarg_size);
		assert_int_equal(x->kernarg_align, y->kernarg_align);
		assert_int_equal(x->vgpr_count, y->vgpr_count);
		assert_int_equal(x->sgpr_count, y->sgpr_count);
		assert_int_equal(x->agpr_count, y->agpr_count);
		assert_int_equal(x->wavefront_size, y->wavefront_size);
		assert_int_equal(x->max_flat_workgroup_size, y->max_flat_workgroup_size);
		assert_int_equal(x->group_segment_fixed_size, y->group_segment_fixed_size);
		assert_int_equal(x->private_segment_fixed_size, y->private_segment_fixed_size);
		assert_int_equal(x->n_args, y->n_args);
		for (size_t j = 0; j < x->n_args; j++) {
			assert_int_equal(x->args[j].offset, y->args[j].offset);
			assert_int_equal(x->args[j].size, y->args[j].size);
			assert_string_equal(x->args[j].value_kind, y->args[j].value_kind);
		}
		assert_int_equal(x->kd.present, y->kd.present);
		assert_memory_equal(&x->kd, &y->kd, sizeof x->kd);
	}
}

/* ---- mach table ------------------------------------------------------- */

static void test_mach_table(void **state)
{
	(void)state;
	static const struct { uint8_t m; const char *p; } want[] = {
		{ 0x2f, "gfx906" }, { 0x3f, "gfx90a" }, { 0x4c, "gfx942" }, { 0x36, "gfx1030" },
		{ 0x37, "gfx1031" }, { 0x38, "gfx1032" }, { 0x45, "gfx1036" }, { 0x41, "gfx1100" },
		{ 0x46, "gfx1101" }, { 0x47, "gfx1102" }, { 0x44, "gfx1103" }, { 0x43, "gfx1150" },
		{ 0x4a, "gfx1151" }, { 0x55, "gfx1152" }, { 0x58, "gfx1153" }, { 0x48, "gfx1200" },
		{ 0x4e, "gfx1201" }, { 0x51, "gfx9-generic" }, { 0x5f, "gfx9-4-generic" },
		{ 0x52, "gfx10-1-generic" }, { 0x53, "gfx10-3-generic" }, { 0x54, "gfx11-generic" },
		{ 0x59, "gfx12-generic" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		assert_string_equal(rdc_mach_to_proc(want[i].m), want[i].p);
		assert_int_equal(rdc_proc_to_mach(want[i].p), want[i].m);
	}
	/* Every known byte round-trips; unknown ones are NULL / -1. */
	unsigned known = 0;
	for (unsigned m = 0; m < 256; m++) {
		const char *p = rdc_mach_to_proc((uint8_t)m);
		if (!p)
			continue;
		known++;
		assert_int_equal(rdc_proc_to_mach(p), (int)m);
	}
	assert_true(known >= 60);
	assert_null(rdc_mach_to_proc(0));
	assert_null(rdc_mach_to_proc(0x01)); /* r600 family: not AMDGCN */
	assert_int_equal(rdc_proc_to_mach("gfx9999"), -1);
	assert_int_equal(rdc_proc_to_mach(""), -1);
	assert_int_equal(rdc_proc_to_mach(NULL), -1);
}

/* ---- parsing real fixtures -------------------------------------------- */

struct fx {
	const char *file;
	uint8_t mach;
	const char *target;  /* target id in the metadata */
	uint8_t xnack, sramecc;
	unsigned wave;
	bool wgp;
};

static const struct fx fixtures[] = {
	{ "co/gfx1030.co", 0x36, "gfx1030", RDC_FEAT_ANY, RDC_FEAT_ANY, 32, true },
	{ "co/gfx1031.co", 0x37, "gfx1031", RDC_FEAT_ANY, RDC_FEAT_ANY, 32, true },
	{ "co/gfx1032.co", 0x38, "gfx1032", RDC_FEAT_ANY, RDC_FEAT_ANY, 32, true },
	{ "co/gfx1100.co", 0x41, "gfx1100", RDC_FEAT_ANY, RDC_FEAT_ANY, 32, true },
	{ "co/gfx1101.co", 0x46, "gfx1101", RDC_FEAT_ANY, RDC_FEAT_ANY, 32, true },
	{ "co/gfx1102.co", 0x47, "gfx1102", RDC_FEAT_ANY, RDC_FEAT_ANY, 32, true },
	{ "co/gfx1103.co", 0x44, "gfx1103", RDC_FEAT_ANY, RDC_FEAT_ANY, 32, true },
	{ "co/gfx90a_xnackon.co", 0x3f, "gfx90a:xnack+", RDC_FEAT_ON, RDC_FEAT_ANY, 64, false },
	{ "co/gfx90a_xnackoff.co", 0x3f, "gfx90a:xnack-", RDC_FEAT_OFF, RDC_FEAT_ANY, 64, false },
	{ "co/gfx906.co", 0x2f, "gfx906", RDC_FEAT_ANY, RDC_FEAT_ANY, 64, false },
};

static void check_iota_kernels(const struct rdc_codeobj *co, unsigned wave, bool wgp,
			       uint32_t ka_fill, uint32_t ka_scale, bool hidden)
{
	assert_int_equal(co->n_kernels, 2);
	const struct rdc_kernel *f = NULL, *s = NULL;
	for (size_t i = 0; i < 2; i++) {
		if (strcmp(co->kernels[i].name, "_Z9fill_iotaPii") == 0)
			f = &co->kernels[i];
		if (strcmp(co->kernels[i].name, "_Z9scale_addPfPKffi") == 0)
			s = &co->kernels[i];
	}
	assert_non_null(f);
	assert_non_null(s);
	assert_string_equal(f->symbol, "_Z9fill_iotaPii.kd");
	assert_string_equal(s->symbol, "_Z9scale_addPfPKffi.kd");
	/* fill_iota(int *p, int n): 8-byte pointer at 0, 4-byte int at 8. */
	assert_true(hidden ? f->n_args > 2 : f->n_args == 2);
	assert_int_equal(f->args[0].offset, 0);
	assert_int_equal(f->args[0].size, 8);
	assert_string_equal(f->args[0].value_kind, "global_buffer");
	assert_int_equal(f->args[1].offset, 8);
	assert_int_equal(f->args[1].size, 4);
	assert_string_equal(f->args[1].value_kind, "by_value");
	if (hidden)
		assert_int_equal(strncmp(f->args[2].value_kind, "hidden_", 7), 0);
	/* scale_add(float *y, const float *x, float a, int n): 0, 8, 16, 20. */
	static const uint32_t so[4] = { 0, 8, 16, 20 }, ss[4] = { 8, 8, 4, 4 };
	assert_true(s->n_args >= 4);
	for (int j = 0; j < 4; j++) {
		assert_int_equal(s->args[j].offset, so[j]);
		assert_int_equal(s->args[j].size, ss[j]);
	}
	assert_int_equal(f->kernarg_size, ka_fill);
	assert_int_equal(s->kernarg_size, ka_scale);
	const struct rdc_kernel *ks[2] = { f, s };
	for (int i = 0; i < 2; i++) {
		const struct rdc_kernel *k = ks[i];
		assert_int_equal(k->kernarg_align, 8);
		assert_int_equal(k->wavefront_size, wave);
		assert_int_equal(k->max_flat_workgroup_size, 1024);
		assert_int_equal(k->group_segment_fixed_size, 0);
		assert_int_equal(k->private_segment_fixed_size, 0);
		assert_false(k->uses_dynamic_stack);
		assert_true(k->vgpr_count >= 1 && k->vgpr_count <= 16);
		assert_true(k->sgpr_count >= 1);
		/* The descriptor agrees with the metadata. */
		assert_true(k->kd.present);
		assert_int_equal(k->kd.wave32, wave == 32);
		assert_int_equal(k->kd.wgp_mode, wgp);
		assert_int_equal(k->kd.kernarg_size, k->kernarg_size);
		assert_int_equal(k->kd.group_segment_fixed_size, k->group_segment_fixed_size);
		assert_int_equal(k->kd.private_segment_fixed_size, k->private_segment_fixed_size);
		assert_int_equal(k->kd.file_offset % 64, 0);
	}
}

/* Compare our numbers with llvm-readelf-15's for the same file. */
static void cross_check_readelf(const uint8_t *b, size_t n, const struct rdc_codeobj *co)
{
	if (!have_readelf())
		return;
	int st;
	char *out = readelf(b, n, "-h --notes", &st);
	assert_int_equal(st, 0);
	char flags[32];
	snprintf(flags, sizeof flags, "0x%X", co->e_flags);
	assert_non_null(strstr(out, flags));
	unsigned long v[16];
	size_t k = readelf_values(out, ".vgpr_count", v, 16);
	assert_int_equal(k, co->n_kernels);
	for (size_t i = 0; i < k; i++)
		assert_int_equal(v[i], co->kernels[i].vgpr_count);
	k = readelf_values(out, ".kernarg_segment_size", v, 16);
	assert_int_equal(k, co->n_kernels);
	for (size_t i = 0; i < k; i++)
		assert_int_equal(v[i], co->kernels[i].kernarg_size);
	if (co->meta_target)
		assert_true(readelf_target_is(out, co->meta_target));
	free(out);
}

static void test_parse_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
		const struct fx *x = &fixtures[i];
		LOAD_OR_SKIP(b, n, x->file);
		assert_true(rdc_is_codeobj(b, n));
		struct rdc_codeobj co;
		assert_parse(b, n, RDC_CO_METADATA | RDC_CO_DESCRIPTORS, &co);
		assert_int_equal(co.mach, x->mach);
		assert_int_equal(co.e_flags & 0xff, x->mach);
		assert_int_equal(co.cov, 4); /* clang-15 default */
		assert_int_equal(co.abi_version, 2);
		assert_int_equal(co.generic_version, 0);
		struct rdc_target t = tgt(x->target);
		assert_string_equal(co.target.proc, t.proc);
		assert_int_equal(co.target.xnack, x->xnack);
		assert_int_equal(co.target.sramecc, x->sramecc);
		char isa[96];
		snprintf(isa, sizeof isa, "amdgcn-amd-amdhsa--%s", x->target);
		assert_string_equal(co.meta_target, isa);
		assert_int_equal(co.meta_version[0], 1);
		assert_int_equal(co.meta_version[1], 1);
		assert_true(co.note_desc_offset > 0 && co.note_desc_offset + co.note_desc_size <= n);
		check_iota_kernels(&co, x->wave, x->wgp, 12, 24, false);
		cross_check_readelf(b, n, &co);
		rdc_codeobj_free(&co);
		assert_int_equal(co.n_kernels, 0);
		free(b);
	}
}

static void test_header_only(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "co/gfx1101.co");
	struct rdc_codeobj co;
	assert_parse(b, n, RDC_CO_HEADER_ONLY, &co);
	assert_int_equal(co.mach, 0x46);
	assert_string_equal(co.target.proc, "gfx1101");
	assert_int_equal(co.cov, 4);
	assert_null(co.meta_target);
	assert_int_equal(co.n_kernels, 0);
	rdc_codeobj_free(&co);
	/* Header-only needs only the 64-byte header (plus table bounds): a
	 * corrupt note does not matter to it. */
	uint8_t *c = malloc(n);
	memcpy(c, b, n);
	struct rdc_codeobj full;
	assert_parse(b, n, RDC_CO_METADATA, &full);
	memset(c + full.note_desc_offset, 0xc1, full.note_desc_size);
	assert_parse(c, n, RDC_CO_HEADER_ONLY, &co);
	struct rdc_diag d;
	assert_int_equal(rdc_codeobj_parse(c, n, RDC_CO_METADATA, &co, &d), RDC_E_FORMAT);
	rdc_codeobj_free(&full);
	free(c);
	free(b);
}

static void test_v5_v3(void **state)
{
	(void)state;
	struct rdc_codeobj co;
	{
		LOAD_OR_SKIP(b, n, "codeobj/iota-gfx1030-v3.co");
		assert_parse(b, n, RDC_CO_DESCRIPTORS, &co);
		assert_int_equal(co.cov, 3);
		assert_int_equal(co.abi_version, 1);
		assert_null(co.meta_target); /* v3 metadata has no amdhsa.target */
		assert_int_equal(co.meta_version[0], 1);
		assert_int_equal(co.meta_version[1], 0);
		assert_string_equal(co.target.proc, "gfx1030");
		check_iota_kernels(&co, 32, true, 12, 24, false);
		rdc_codeobj_free(&co);
		free(b);
	}
	{
		/* v3 features are single bits; LLVM sets them for "any" too. */
		LOAD_OR_SKIP(b, n, "codeobj/iota-gfx90a-xnackon-v3.co");
		assert_parse(b, n, RDC_CO_DESCRIPTORS, &co);
		assert_int_equal(co.cov, 3);
		assert_int_equal(co.e_flags, 0x33f);
		assert_int_equal(co.target.xnack, RDC_FEAT_ON);
		assert_int_equal(co.target.sramecc, RDC_FEAT_ON);
		check_iota_kernels(&co, 64, false, 12, 24, false);
		rdc_codeobj_free(&co);
		free(b);
	}
	static const char *v5[] = { "codeobj/iota-gfx1030-v5.co", "codeobj/iota-gfx1100-v5.co" };
	for (int i = 0; i < 2; i++) {
		LOAD_OR_SKIP(b, n, v5[i]);
		assert_parse(b, n, RDC_CO_DESCRIPTORS, &co);
		assert_int_equal(co.cov, 5);
		assert_int_equal(co.abi_version, 3);
		assert_int_equal(co.meta_version[0], 1);
		assert_int_equal(co.meta_version[1], 2);
		/* v5 appends the hidden arguments: 256 bytes after the explicit ones. */
		check_iota_kernels(&co, 32, true, 272, 280, true);
		cross_check_readelf(b, n, &co);
		rdc_codeobj_free(&co);
		free(b);
	}
}

static void test_vgpr_fixtures(void **state)
{
	(void)state;
	static const struct { const char *f; uint32_t vgpr; bool spills; } v[] = {
		{ "codeobj/vgpr192-gfx1100.co", 192, false },
		{ "codeobj/vgpr192-gfx1101.co", 192, false },
		{ "codeobj/vgpr192-gfx1102.co", 128, true },
		{ "codeobj/vgpr192-gfx1103.co", 128, true },
		{ "codeobj/vgpr192-gfx1100-clang15.co", 128, true },
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		LOAD_OR_SKIP(b, n, v[i].f);
		struct rdc_codeobj co;
		assert_parse(b, n, RDC_CO_DESCRIPTORS, &co);
		assert_int_equal(co.n_kernels, 1);
		const struct rdc_kernel *k = &co.kernels[0];
		assert_string_equal(k->name, "_Z8vgpr_hogPfPKfi");
		assert_int_equal(k->vgpr_count, v[i].vgpr);
		assert_int_equal(k->private_segment_fixed_size > 0, v[i].spills);
		assert_int_equal(k->max_flat_workgroup_size, 1024);
		assert_int_equal(k->wavefront_size, 32);
		assert_true(k->kd.present && k->kd.wave32 && k->kd.wgp_mode);
		/* GRANULATED_WORKITEM_VGPR_COUNT = ceil(vgprs / 8) - 1 in wave32. */
		assert_int_equal(k->kd.rsrc1 & 0x3f, (v[i].vgpr + 7) / 8 - 1);
		cross_check_readelf(b, n, &co);
		rdc_codeobj_free(&co);
		free(b);
	}
}

/* ---- retargeting ------------------------------------------------------ */

static void apply(uint8_t *c, const struct rdc_patch *p, size_t k)
{
	for (size_t i = 0; i < k; i++)
		memcpy(c + p[i].offset, p[i].bytes, p[i].len);
}

static void test_retarget_patches(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "co/gfx1030.co");
	uint8_t *orig = malloc(n);
	memcpy(orig, b, n);
	uint64_t sum = fnv1a(b, n);
	struct rdc_target to = tgt("gfx1031");
	struct rdc_patch p[8];
	size_t k = 8;
	struct rdc_diag d;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &k, &d), 0);
	assert_int_equal(k, 2); /* e_flags and the target string */
	assert_int_equal(fnv1a(b, n), sum);
	assert_memory_equal(b, orig, n);

	uint8_t *c = malloc(n);
	memcpy(c, b, n);
	apply(c, p, k);
	struct rdc_codeobj a, r;
	assert_parse(b, n, RDC_CO_DESCRIPTORS, &a);
	assert_parse(c, n, RDC_CO_DESCRIPTORS, &r);
	assert_string_equal(r.target.proc, "gfx1031");
	assert_int_equal(r.mach, 0x37);
	assert_string_equal(r.meta_target, "amdgcn-amd-amdhsa--gfx1031");
	assert_same_kernels(&a, &r);
	cross_check_readelf(c, n, &r);
	/* Same as what clang writes for gfx1031 in the header. */
	{
		LOAD_OR_SKIP(g, gn, "co/gfx1031.co");
		struct rdc_codeobj real;
		assert_parse(g, gn, RDC_CO_METADATA, &real);
		assert_int_equal(real.e_flags, r.e_flags);
		assert_string_equal(real.meta_target, r.meta_target);
		rdc_codeobj_free(&real);
		free(g);
	}
	/* The copy API gives byte-identical output for a same-length change. */
	uint8_t *o = NULL;
	size_t on = 0;
	assert_int_equal(rdc_codeobj_retarget(b, n, &to, &o, &on, &d), 0);
	assert_int_equal(on, n);
	assert_memory_equal(o, c, n);
	assert_int_equal(fnv1a(b, n), sum);
	free(o);

	/* Too little room: the count needed comes back. */
	k = 1;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &k, &d), RDC_E_INVAL);
	assert_int_equal(k, 2);
	/* Same target: nothing to do. */
	struct rdc_target same = tgt("gfx1030");
	k = 8;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &same, p, &k, &d), 0);
	assert_int_equal(k, 0);
	/* gfx1100 -> gfx1101 too. */
	{
		LOAD_OR_SKIP(g, gn, "co/gfx1100.co");
		struct rdc_target t1101 = tgt("gfx1101");
		k = 8;
		assert_int_equal(rdc_codeobj_retarget_patches(g, gn, &t1101, p, &k, &d), 0);
		uint8_t *gc = malloc(gn);
		memcpy(gc, g, gn);
		apply(gc, p, k);
		struct rdc_codeobj gr;
		assert_parse(gc, gn, RDC_CO_METADATA, &gr);
		assert_string_equal(gr.meta_target, "amdgcn-amd-amdhsa--gfx1101");
		assert_int_equal(gr.mach, 0x46);
		rdc_codeobj_free(&gr);
		free(gc);
		free(g);
	}
	rdc_codeobj_free(&a);
	rdc_codeobj_free(&r);
	free(c);
	free(orig);
	free(b);
}

/* How HIP (hip_module.cpp) and ROCR size an ELF they get without a length:
 * the furthest section end, or the end of the section header table. */
static uint64_t hip_elf_size(const uint8_t *b)
{
	Elf64_Ehdr eh;
	memcpy(&eh, b, sizeof eh);
	uint64_t max_off = eh.e_shoff, total = eh.e_shoff + (uint64_t)eh.e_shentsize * eh.e_shnum;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		memcpy(&sh, b + eh.e_shoff + i * sizeof sh, sizeof sh);
		if (sh.sh_offset > max_off) {
			max_off = sh.sh_offset;
			total = max_off + (sh.sh_type != SHT_NOBITS ? sh.sh_size : 0);
		}
	}
	return total;
}

/* A different-length retarget through the copy API; checks the result
 * parses back, keeps its kernels, and llvm-readelf-15 accepts it. */
static void retarget_copy_check(const uint8_t *b, size_t n, const char *to_id, uint8_t want_mach,
				uint8_t want_gv, uint8_t **outp, size_t *outn)
{
	struct rdc_target to = tgt(to_id);
	uint64_t sum = fnv1a(b, n);
	struct rdc_patch p[8];
	size_t k = 8;
	struct rdc_diag d;
	assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &k, &d), RDC_E_UNSUPPORTED);
	assert_non_null(strstr(d.msg, "length"));
	uint8_t *o = NULL;
	size_t on = 0;
	int rc = rdc_codeobj_retarget(b, n, &to, &o, &on, &d);
	if (rc)
		print_message("retarget %s: %s\n", to_id, d.msg);
	assert_int_equal(rc, 0);
	assert_int_equal(fnv1a(b, n), sum);
	assert_true(on > n);
	struct rdc_codeobj a, r;
	assert_parse(b, n, RDC_CO_DESCRIPTORS, &a);
	assert_parse(o, on, RDC_CO_DESCRIPTORS, &r);
	assert_int_equal(r.mach, want_mach);
	assert_int_equal(r.generic_version, want_gv);
	char isa[96];
	rdc_target_format_isa_name(&to, isa, sizeof isa);
	assert_string_equal(r.meta_target, isa);
	assert_true(r.note_desc_offset >= n); /* the new note was appended */
	assert_int_equal(r.meta_version[0], a.meta_version[0]);
	assert_int_equal(r.meta_version[1], a.meta_version[1]);
	assert_same_kernels(&a, &r);
	/* Between the program headers and the section headers (the loadable
	 * bytes, the old note included) nothing changed. */
	Elf64_Ehdr eh;
	memcpy(&eh, b, sizeof eh);
	size_t from = eh.e_phoff + (size_t)eh.e_phnum * sizeof(Elf64_Phdr);
	assert_true(eh.e_shoff > from && eh.e_shoff <= n);
	assert_memory_equal(o + from, b + from, eh.e_shoff - from);
	assert_memory_equal(o, b, 48);
	/* A runtime that sizes the ELF from its section headers (HIP's and
	 * ROCR's ElfSize, used when no length is passed) sees all of it. */
	assert_int_equal(hip_elf_size(b), n);
	assert_int_equal(hip_elf_size(o), on);
	if (have_readelf()) {
		int st;
		char *out = readelf(o, on, "-h -l -S --notes", &st);
		assert_int_equal(st, 0);
		assert_null(strstr(out, "warning"));
		assert_null(strstr(out, "error"));
		assert_true(readelf_target_is(out, isa));
		free(out);
		cross_check_readelf(o, on, &r);
	}
	rdc_codeobj_free(&a);
	rdc_codeobj_free(&r);
	*outp = o;
	*outn = on;
}

static void test_retarget_copy_lengths(void **state)
{
	(void)state;
	uint8_t *o;
	size_t on;
	{
		LOAD_OR_SKIP(b, n, "co/gfx90a_xnackon.co");
		/* shorter: "gfx90a:xnack+" -> "gfx90a" (xnack any) */
		retarget_copy_check(b, n, "gfx90a", 0x3f, 0, &o, &on);
		struct rdc_codeobj r;
		assert_parse(o, on, RDC_CO_HEADER_ONLY, &r);
		assert_int_equal(r.e_flags, 0x53f); /* sramecc any, xnack any */
		free(o);
		/* longer: -> "gfx90a:sramecc-:xnack+" */
		retarget_copy_check(b, n, "gfx90a:sramecc-:xnack+", 0x3f, 0, &o, &on);
		assert_parse(o, on, RDC_CO_HEADER_ONLY, &r);
		assert_int_equal(r.target.sramecc, RDC_FEAT_OFF);
		assert_int_equal(r.target.xnack, RDC_FEAT_ON);
		free(o);
		free(b);
	}
	{
		/* gfx90a:xnack- -> gfx90a:xnack+ is the same length: patches. */
		LOAD_OR_SKIP(b, n, "co/gfx90a_xnackoff.co");
		struct rdc_target to = tgt("gfx90a:xnack+");
		struct rdc_patch p[8];
		size_t k = 8;
		assert_int_equal(rdc_codeobj_retarget_patches(b, n, &to, p, &k, NULL), 0);
		uint8_t *c = malloc(n);
		memcpy(c, b, n);
		apply(c, p, k);
		struct rdc_codeobj r;
		assert_parse(c, n, RDC_CO_METADATA, &r);
		assert_int_equal(r.e_flags, 0x73f);
		assert_string_equal(r.meta_target, "amdgcn-amd-amdhsa--gfx90a:xnack+");
		rdc_codeobj_free(&r);
		free(c);
		free(b);
	}
}

static void test_retarget_generic(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "co/gfx1030.co");
	struct rdc_diag d;
	uint8_t *o = NULL;
	size_t on = 0;
	/* v4 -> generic: refused, generic targets need v6. */
	struct rdc_target gen = tgt("gfx10-3-generic");
	assert_int_equal(rdc_codeobj_retarget(b, n, &gen, &o, &on, &d), RDC_E_UNSUPPORTED);
	assert_non_null(strstr(d.msg, "v6"));
	assert_null(o);
	/* A v6 input (synthesised: EI_ABIVERSION 4 = ELFABIVERSION_AMDGPU_HSA_V6). */
	uint8_t *v6 = malloc(n);
	memcpy(v6, b, n);
	v6[8] = 4;
	struct rdc_codeobj co;
	assert_parse(v6, n, RDC_CO_METADATA, &co);
	assert_int_equal(co.cov, 6);
	assert_int_equal(co.generic_version, 0);
	rdc_codeobj_free(&co);
	uint8_t *g;
	size_t gn;
	retarget_copy_check(v6, n, "gfx10-3-generic", 0x53, 1, &g, &gn);
	assert_int_equal(g[8], 4);
	/* ... and back to a specific processor: the version byte is cleared. */
	uint8_t *s;
	size_t sn;
	retarget_copy_check(g, gn, "gfx1031", 0x37, 0, &s, &sn);
	struct rdc_codeobj r;
	assert_parse(s, sn, RDC_CO_HEADER_ONLY, &r);
	assert_int_equal(r.e_flags, 0x37);
	/* Generic with a version already set keeps it. */
	uint8_t *g2 = malloc(gn);
	memcpy(g2, g, gn);
	g2[51] = 7; /* e_flags bits 24..31 */
	struct rdc_target g11 = tgt("gfx10-3-generic");
	struct rdc_patch p[4];
	size_t k = 4;
	assert_int_equal(rdc_codeobj_retarget_patches(g2, gn, &g11, p, &k, &d), 0);
	assert_int_equal(k, 0);
	assert_parse(g2, gn, RDC_CO_HEADER_ONLY, &r);
	assert_int_equal(r.generic_version, 7);
	/* Unknown processor: invalid argument. */
	struct rdc_target bad;
	memset(&bad, 0, sizeof bad);
	strcpy(bad.proc, "gfx1999");
	assert_int_equal(rdc_codeobj_retarget(b, n, &bad, &o, &on, &d), RDC_E_INVAL);
	free(g2);
	free(s);
	free(g);
	free(v6);
	free(b);
}

/* ---- the input is never written: parse from read-only pages ------------ */

static void test_readonly_input(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "co/gfx1030.co");
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (n + 1 + pg - 1) / pg * pg;
	for (size_t shift = 0; shift < 2; shift++) {
		uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		assert_true(m != MAP_FAILED);
		memcpy(m + shift, b, n);
		assert_int_equal(mprotect(m, len, PROT_READ), 0);
		const uint8_t *in = m + shift; /* shift 1: misaligned for libelf */
		struct rdc_codeobj co;
		assert_parse(in, n, RDC_CO_METADATA | RDC_CO_DESCRIPTORS, &co);
		check_iota_kernels(&co, 32, true, 12, 24, false);
		rdc_codeobj_free(&co);
		struct rdc_target t = tgt("gfx1031"), g = tgt("gfx1100");
		struct rdc_patch p[8];
		size_t k = 8;
		assert_int_equal(rdc_codeobj_retarget_patches(in, n, &t, p, &k, NULL), 0);
		uint8_t *o;
		size_t on;
		assert_int_equal(rdc_codeobj_retarget(in, n, &g, &o, &on, NULL), 0);
		free(o);
		assert_memory_equal(in, b, n);
		munmap(m, len);
	}
	free(b);
}

/* ---- bad input: errors with offsets, no crashes ------------------------ */

static void expect_err(const uint8_t *b, size_t n, unsigned flags, int want, uint64_t off)
{
	struct rdc_codeobj co;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_codeobj_parse(b, n, flags, &co, &d);
	if (rc != want || (off != UINT64_MAX - 1 && d.offset != off))
		print_message("got %d at %llu: %s\n", rc, (unsigned long long)d.offset, d.msg);
	assert_int_equal(rc, want);
	if (off != UINT64_MAX - 1)
		assert_int_equal(d.offset, off);
	assert_true(d.msg[0] != '\0');
	assert_int_equal(co.n_kernels, 0);
	assert_null(co.kernels);
}
#define ANY_OFF (UINT64_MAX - 1)

/* RDC_CO_SYMBOLS (codeobj_tail.c + the symbol table) against the full
 * decode, on every fixture code object: the same amdhsa.target span and
 * version, the same kernels (names, symbols, descriptors); a note whose
 * tail is not LLVM's layout is refused (RDC_E_UNSUPPORTED), never misread. */
static void test_symbols_mode(void **state)
{
	(void)state;
	static const char *files[] = {
		"co/gfx1030.co", "co/gfx1031.co", "co/gfx1100.co", "co/gfx1103.co", "co/gfx906.co",
		"co/gfx90a_xnackon.co", "codeobj/iota-gfx1030-v3.co", "codeobj/iota-gfx1030-v5.co",
		"codeobj/iota-gfx1100-v5.co", "codeobj/iota-gfx90a-xnackon-v3.co",
		"codeobj/vgpr192-gfx1100.co", "codeobj/vgpr192-gfx1103.co",
	};
	size_t done = 0;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		size_t n = 0;
		uint8_t *b = load_fixture(files[i], &n);
		if (!b) {
			print_message("fixture %s missing\n", files[i]);
			continue;
		}
		struct rdc_codeobj full, q;
		assert_parse(b, n, RDC_CO_METADATA | RDC_CO_DESCRIPTORS, &full);
		struct rdc_diag d = { 0 };
		if (!full.meta_target) {   /* v3: no amdhsa.target, decode instead */
			assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_SYMBOLS, &q, &d), RDC_E_UNSUPPORTED);
			rdc_codeobj_free(&full);
			free(b);
			done++;
			continue;
		}
		assert_int_equal(rdc_codeobj_parse(b, n, RDC_CO_SYMBOLS, &q, &d), 0);
		assert_string_equal(q.meta_target, full.meta_target);
		assert_int_equal(q.meta_target_offset, full.meta_target_offset);
		assert_int_equal(q.meta_target_len, full.meta_target_len);
		assert_int_equal(q.meta_version[0], full.meta_version[0]);
		assert_int_equal(q.meta_version[1], full.meta_version[1]);
		assert_int_equal(q.note_desc_offset, full.note_desc_offset);
		assert_int_equal(q.n_kernels, full.n_kernels);
		for (size_t k = 0; k < full.n_kernels; k++) {
			size_t j;
			for (j = 0; j < q.n_kernels && strcmp(q.kernels[j].symbol, full.kernels[k].symbol); j++)
				;
			assert_true(j < q.n_kernels);
			assert_string_equal(q.kernels[j].name, full.kernels[k].name);
			assert_memory_equal(&q.kernels[j].kd, &full.kernels[k].kd, sizeof q.kernels[j].kd);
		}
		/* the same patches either way */
		struct rdc_target to = full.target;
		snprintf(to.proc, sizeof to.proc, "%s", full.target.proc[3] == '1' ? "gfx1031" : full.target.proc);
		struct rdc_patch pa[8], pb[8];
		size_t na = 8, nb = 8;
		int ra = rdc_codeobj_retarget_patches_from(&full, &to, pa, &na, NULL);
		int rb = rdc_codeobj_retarget_patches_from(&q, &to, pb, &nb, NULL);
		assert_int_equal(ra, rb);
		if (ra == 0) {
			assert_int_equal(na, nb);
			for (size_t k = 0; k < na; k++) {
				assert_int_equal(pa[k].offset, pb[k].offset);
				assert_int_equal(pa[k].len, pb[k].len);
				assert_memory_equal(pa[k].bytes, pb[k].bytes, pa[k].len);
			}
		}
		/* a tail that is not LLVM's: the last version number made wide */
		uint8_t *c = malloc(n);
		assert_non_null(c);
		memcpy(c, b, n);
		c[full.note_desc_offset + full.note_desc_size - 1] = 0xcc;
		struct rdc_codeobj r;
		assert_int_equal(rdc_codeobj_parse(c, n, RDC_CO_SYMBOLS, &r, &d), RDC_E_UNSUPPORTED);
		assert_non_null(strstr(d.msg, "does not end as LLVM writes it"));
		/* the target key renamed: not found either */
		memcpy(c, b, n);
		c[full.meta_target_offset - 2] ^= 0x20;
		assert_int_equal(rdc_codeobj_parse(c, n, RDC_CO_SYMBOLS, &r, &d), RDC_E_UNSUPPORTED);
		free(c);
		rdc_codeobj_free(&q);
		rdc_codeobj_free(&full);
		free(b);
		done++;
	}
	if (!done) {
		print_message("skipped: no fixture code object with symbols to cut (make fixtures)\n");
		skip();
	}
}

static void test_corrupt_header(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "co/gfx1030.co");
	uint8_t *c = malloc(n);
#define RESET() memcpy(c, b, n)
	RESET();
	expect_err(c, 0, 0, RDC_E_TRUNCATED, 0);
	expect_err(c, 3, 0, RDC_E_TRUNCATED, 0);
	expect_err(c, 63, 0, RDC_E_TRUNCATED, 63);
	c[1] = 'X';
	expect_err(c, n, 0, RDC_E_FORMAT, 0);
	RESET();
	c[4] = 1; /* ELFCLASS32 */
	expect_err(c, n, 0, RDC_E_FORMAT, 4);
	RESET();
	c[5] = 2; /* big-endian */
	expect_err(c, n, 0, RDC_E_FORMAT, 5);
	RESET();
	c[7] = 0; /* OS ABI none */
	expect_err(c, n, 0, RDC_E_UNSUPPORTED, 7);
	RESET();
	c[8] = 9; /* ABI version */
	expect_err(c, n, 0, RDC_E_UNSUPPORTED, 8);
	RESET();
	c[18] = 62; /* EM_X86_64 */
	expect_err(c, n, 0, RDC_E_FORMAT, 18);
	RESET();
	c[48] = 0x01; /* r600 mach */
	expect_err(c, n, 0, RDC_E_UNSUPPORTED, 48);
	RESET();
	c[32 + 6] = 0x7f; /* e_phoff huge */
	expect_err(c, n, 0, RDC_E_RANGE, 32);
	RESET();
	c[40] = 0xf0; /* e_shoff off the end */
	c[41] = 0xff;
	expect_err(c, n, 0, RDC_E_RANGE, 40);
	RESET();
	c[60] = 0xff; /* e_shnum */
	expect_err(c, n, 0, RDC_E_RANGE, 40);
	/* Every truncation: an error (never a crash), until the whole file. */
	for (size_t l = 0; l < n; l++) {
		struct rdc_codeobj co;
		struct rdc_diag d;
		int rc = rdc_codeobj_parse(b, l, RDC_CO_DESCRIPTORS, &co, &d);
		assert_true(rc < 0);
		assert_true(d.offset == RDC_NO_OFFSET || d.offset <= n);
	}
	assert_false(rdc_is_codeobj(b, 19));
	assert_true(rdc_is_codeobj(b, 20));
	assert_false(rdc_is_codeobj(NULL, 100));
	free(c);
	free(b);
}

static void test_corrupt_note(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "co/gfx1030.co");
	struct rdc_codeobj co;
	assert_parse(b, n, RDC_CO_METADATA, &co);
	uint64_t desc = co.note_desc_offset, dsz = co.note_desc_size, note = desc - 20;
	rdc_codeobj_free(&co);
	uint8_t *c = malloc(n);
	/* descsz lies (runs past the segment): error at the note header. */
	memcpy(c, b, n);
	c[note + 4] = 0xff;
	c[note + 5] = 0xff;
	expect_err(c, n, RDC_CO_METADATA, RDC_E_RANGE, note);
	/* namesz lies. */
	memcpy(c, b, n);
	c[note + 0] = 0xf0;
	c[note + 1] = 0xff;
	c[note + 2] = 0xff;
	expect_err(c, n, RDC_CO_METADATA, RDC_E_RANGE, note);
	/* PT_NOTE p_filesz past the file: error at that program header. */
	memcpy(c, b, n);
	size_t ph = 64 + 7 * 56; /* the 8th program header is PT_NOTE (clang/lld layout) */
	assert_int_equal(c[ph], 4);
	c[ph + 32 + 2] = 0x10; /* p_filesz += 0x100000 */
	expect_err(c, n, RDC_CO_METADATA, RDC_E_RANGE, ph);
	/* Garbage MessagePack (0xc1 is never used). */
	memcpy(c, b, n);
	c[desc] = 0xc1;
	expect_err(c, n, RDC_CO_METADATA, RDC_E_FORMAT, ANY_OFF);
	/* Root is an array. */
	memcpy(c, b, n);
	c[desc] = 0x91;
	expect_err(c, n, RDC_CO_METADATA, RDC_E_FORMAT, desc);
	/* A map16 of 65535 entries whose data ends early: truncated at desc end. */
	memcpy(c, b, n);
	c[desc] = 0xde;
	c[desc + 1] = 0xff;
	c[desc + 2] = 0xff;
	memset(c + desc + 3, 0xa0, dsz - 3); /* 0xa0: empty strings */
	expect_err(c, n, RDC_CO_METADATA, RDC_E_TRUNCATED, desc + dsz);
	/* An array32 declaring 2^32-1 entries in a few hundred bytes: refused as
	 * truncated before msgpack-c would allocate ~100 GB for it (which came
	 * back as RDC_E_NOMEM at best). */
	memcpy(c, b, n);
	c[desc] = 0xdd;
	memset(c + desc + 1, 0xff, 4);
	expect_err(c, n, RDC_CO_METADATA, RDC_E_TRUNCATED, desc + dsz);
	/* The same inside the root map: the kernels array lies. */
	memcpy(c, b, n);
	c[desc] = 0x81;                 /* fixmap, 1 pair */
	c[desc + 1] = 0xa1;             /* key: 1-byte string */
	c[desc + 2] = 'k';
	c[desc + 3] = 0xdf;             /* value: map32 of 2^31 pairs */
	c[desc + 4] = 0x80;
	memset(c + desc + 5, 0, 3);
	expect_err(c, n, RDC_CO_METADATA, RDC_E_TRUNCATED, desc + dsz);
	/* No metadata note at all (type changed): not found. */
	memcpy(c, b, n);
	c[note + 8] = 33;
	expect_err(c, n, RDC_CO_METADATA, RDC_E_NOTFOUND, ANY_OFF);
	free(c);
	free(b);
}

/* Put a hand-made MessagePack document in place of the metadata. */
static uint8_t *with_metadata(const uint8_t *b, size_t n, const msgpack_sbuffer *sb, uint64_t *desc)
{
	struct rdc_codeobj co;
	assert_parse(b, n, RDC_CO_METADATA, &co);
	*desc = co.note_desc_offset;
	assert_true(sb->size <= co.note_desc_size);
	uint8_t *c = malloc(n);
	memcpy(c, b, n);
	/* The note keeps its size (every note of the segment is read, so the
	 * bytes after it must stay notes): the document, then MessagePack nils,
	 * which the decoder leaves unread after the root map. */
	memcpy(c + *desc, sb->data, sb->size);
	memset(c + *desc + sb->size, 0xc0, co.note_desc_size - sb->size);
	rdc_codeobj_free(&co);
	return c;
}

static void pk_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

static void test_metadata_types(void **state)
{
	(void)state;
	LOAD_OR_SKIP(b, n, "co/gfx1030.co");
	for (int variant = 0; variant < 4; variant++) {
		msgpack_sbuffer sb;
		msgpack_packer pk;
		msgpack_sbuffer_init(&sb);
		msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
		msgpack_pack_map(&pk, 2);
		pk_str(&pk, "amdhsa.target");
		pk_str(&pk, "amdgcn-amd-amdhsa--gfx1030");
		pk_str(&pk, "amdhsa.kernels");
		msgpack_pack_array(&pk, 1);
		msgpack_pack_map(&pk, 3);
		pk_str(&pk, ".name");
		pk_str(&pk, "k");
		pk_str(&pk, variant == 2 ? ".nosymbol" : ".symbol");
		pk_str(&pk, "k.kd");
		pk_str(&pk, variant == 1 ? ".args" : ".vgpr_count");
		if (variant == 0)
			pk_str(&pk, "lots"); /* wrong type */
		else if (variant == 1)
			msgpack_pack_uint32(&pk, 3); /* .args not an array */
		else if (variant == 2)
			msgpack_pack_uint32(&pk, 3);
		else
			msgpack_pack_uint64(&pk, 1ull << 40); /* does not fit 32 bits */
		uint64_t desc;
		uint8_t *c = with_metadata(b, n, &sb, &desc);
		struct rdc_codeobj co;
		struct rdc_diag d;
		int rc = rdc_codeobj_parse(c, n, RDC_CO_DESCRIPTORS, &co, &d);
		assert_int_equal(rc, RDC_E_FORMAT);
		if (variant != 2) {
			/* The offset points at the offending key inside the note. */
			const char *key = variant == 1 ? ".args" : ".vgpr_count";
			assert_true(d.offset >= desc && d.offset < desc + sb.size);
			assert_memory_equal(c + d.offset, key, strlen(key));
			assert_non_null(strstr(d.msg, key));
		} else {
			assert_non_null(strstr(d.msg, ".symbol"));
		}
		free(c);
		msgpack_sbuffer_destroy(&sb);
	}
	/* A valid hand-made document with a kernel whose .kd symbol is absent:
	 * parses, descriptor not present. */
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 1);
	pk_str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, 1);
	msgpack_pack_map(&pk, 2);
	pk_str(&pk, ".name");
	pk_str(&pk, "ghost");
	pk_str(&pk, ".symbol");
	pk_str(&pk, "ghost.kd");
	uint64_t desc;
	uint8_t *c = with_metadata(b, n, &sb, &desc);
	struct rdc_codeobj co;
	assert_parse(c, n, RDC_CO_DESCRIPTORS, &co);
	assert_int_equal(co.n_kernels, 1);
	assert_false(co.kernels[0].kd.present);
	assert_null(co.meta_target);
	/* The retargeter adds nothing for a note without amdhsa.target. */
	struct rdc_target t = tgt("gfx1031");
	struct rdc_patch p[4];
	size_t k = 4;
	assert_int_equal(rdc_codeobj_retarget_patches(c, n, &t, p, &k, NULL), 0);
	assert_int_equal(k, 1);
	rdc_codeobj_free(&co);
	free(c);
	msgpack_sbuffer_destroy(&sb);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mach_table),
		cmocka_unit_test(test_parse_fixtures),
		cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_v5_v3),
		cmocka_unit_test(test_vgpr_fixtures),
		cmocka_unit_test(test_retarget_patches),
		cmocka_unit_test(test_retarget_copy_lengths),
		cmocka_unit_test(test_retarget_generic),
		cmocka_unit_test(test_readonly_input),
		cmocka_unit_test(test_symbols_mode),
		cmocka_unit_test(test_corrupt_header),
		cmocka_unit_test(test_corrupt_note),
		cmocka_unit_test(test_metadata_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
