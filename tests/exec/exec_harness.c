/* SPDX-License-Identifier: MIT */
/*
 * exec_harness.c — runs the single-instruction tests of exec_harness.h:
 * assembles each snippet with llvm-mc-19 (the .text of an object file),
 * places it behind a synthetic 64-byte kernel descriptor (AMDGPUUsage,
 * "Kernel Descriptor": entry offset, COMPUTE_PGM_RSRC1/2 with the user
 * SGPR count, kernel_code_properties with the kernarg pointer and wave32),
 * runs one workgroup of 32 work-items through rdc_exec_dispatch over
 * malloc'd buffers (GPU address = host address) and compares every lane.
 *
 * Usage: exec_harness [NAME-SUBSTRING...]   (RDC_LLVM_MC: the assembler)
 * Exit: 0 all passed, 1 a test failed, 77 llvm-mc-19 is missing (skip).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"
#include "exec_harness.h"
#include "wave.h"

/* ---- reference conversions and inputs --------------------------------------------- */
float xt_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
uint32_t xt_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

double xt_h2d(uint16_t h)
{
	int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
	double v;
	if (e == 31)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(1024 + m, e - 25);
	return s ? -v : v;
}

uint16_t xt_d2h(long double v)
{
	uint16_t s = signbit(v) ? 0x8000 : 0;
	long double a = fabsl(v);
	if (isnan(v))
		return (uint16_t)(s | 0x7e00);
	if (a >= 65520.0L) /* halfway between 65504 and 2^16 rounds to even: infinity */
		return (uint16_t)(s | 0x7c00);
	if (a < ldexpl(1.0L, -14)) {
		long double n = rintl(a * ldexpl(1.0L, 24)); /* units of 2^-24, ties to even */
		return (uint16_t)(s | (uint16_t)n);           /* 1024 is the smallest normal's pattern */
	}
	int e;
	frexpl(a, &e); /* a = f * 2^e, f in [0.5, 1) */
	e -= 1;        /* a = 1.m * 2^e */
	long double m = rintl((ldexpl(a, -e) - 1.0L) * 1024.0L);
	if (m >= 1024.0L) {
		m = 0;
		e++;
	}
	if (e + 15 >= 31)
		return (uint16_t)(s | 0x7c00);
	return (uint16_t)(s | (uint16_t)((e + 15) << 10) | (uint16_t)m);
}

double xt_bf2d(uint16_t b) { return (double)xt_u2f((uint32_t)b << 16); }

/* From the double's bits: keep 7 fraction bits, round the other 45 to
 * nearest even, rebuild the f32 exponent (normal range only). */
uint16_t xt_d2bf(double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	uint16_t s = (uint16_t)((u >> 48) & 0x8000);
	if (isnan(v))
		return (uint16_t)(s | 0x7fc0);
	if (v == 0)
		return s;
	int e = (int)((u >> 52) & 0x7ff) - 1023;
	uint64_t frac = u & ((1ull << 52) - 1), keep = frac >> 45, rest = frac & ((1ull << 45) - 1);
	if (rest > (1ull << 44) || (rest == (1ull << 44) && (keep & 1)))
		keep++;
	if (keep == 128) {
		keep = 0;
		e++;
	}
	if (e + 127 >= 255)
		return (uint16_t)(s | 0x7f80);
	return (uint16_t)(s | (uint16_t)((e + 127) << 7) | (uint16_t)keep);
}

uint32_t xt_rand(unsigned lane, unsigned k, unsigned salt)
{
	uint32_t x = 0x9E3779B9u * (lane + 1) ^ 0x85EBCA6Bu * (k + 7) ^ 0xC2B2AE35u * (salt + 13);
	for (int i = 0; i < 4; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
	}
	return x;
}

/* A finite f16 in about [2^-7, 2^8) of either sign. */
static uint16_t rand_h(unsigned lane, unsigned k)
{
	uint32_t r = xt_rand(lane, k, 1);
	uint16_t e = (uint16_t)(8 + (r >> 10) % 15);
	return (uint16_t)((r & 0x8000) | e << 10 | (r & 1023));
}

static const uint16_t special_h[4][2] = {
	{ 0x0000, 0x8000 }, { 0x3c00, 0xbc00 }, { 0x0001, 0x83ff }, { 0x7bff, 0x3555 },
};

void xt_init_h(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	for (unsigned k = 0; k < nin; k++) {
		uint16_t lo = rand_h(lane, 2 * k), hi = rand_h(lane, 2 * k + 1);
		if (lane < 4 && k == 0) {
			lo = special_h[lane][0];
			hi = special_h[lane][1];
		}
		in[k] = lo | (uint32_t)hi << 16;
	}
	for (unsigned j = 0; j < nout; j++)
		out[j] = 0xdead0000u | (xt_rand(lane, 100 + j, 2) & 0xffff);
}

void xt_init_u(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	for (unsigned k = 0; k < nin; k++)
		in[k] = xt_rand(lane, k, 3);
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(lane, 100 + j, 4);
}

void xt_init_f(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	for (unsigned k = 0; k < nin; k++) {
		uint32_t r = xt_rand(lane, k, 5);
		in[k] = xt_f2u(ldexpf((float)(r & 0xffffff) / 16777216.0f + 0.5f, (int)((r >> 24) % 24) - 12) *
			       ((r >> 31) ? -1.0f : 1.0f));
	}
	for (unsigned j = 0; j < nout; j++)
		out[j] = xt_rand(lane, 100 + j, 6);
}

/* ---- memory map ----------------------------------------------------------------------- */
#define NRANGE 8
struct map {
	struct rdc_exec_range r[NRANGE];
	unsigned n;
};

static bool map_find(void *ctx, uint64_t va, struct rdc_exec_range *out)
{
	const struct map *m = ctx;
	for (unsigned i = 0; i < m->n; i++) {
		if (va >= m->r[i].base && va - m->r[i].base < m->r[i].size) {
			*out = m->r[i];
			return true;
		}
	}
	return false;
}

static void *map_add(struct map *m, size_t size, size_t align)
{
	size = (size + align - 1) / align * align;
	void *p = aligned_alloc(align, size);
	if (!p)
		return NULL;
	memset(p, 0, size);
	m->r[m->n].base = (uint64_t)(uintptr_t)p;
	m->r[m->n].size = size;
	m->r[m->n].cpu = p;
	m->n++;
	return p;
}

/* ---- assembling ------------------------------------------------------------------------- */
static const char *llvm_mc;

static const char *find_llvm_mc(void)
{
	const char *e = getenv("RDC_LLVM_MC");
	if (e && *e)
		return access(e, X_OK) == 0 ? e : NULL;
	static const char *const cand[] = { "/usr/bin/llvm-mc-19", "/usr/lib/llvm-19/bin/llvm-mc" };
	for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++)
		if (access(cand[i], X_OK) == 0)
			return cand[i];
	return NULL;
}

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The .text of an ELF64 relocatable object. */
static uint8_t *elf_text(const uint8_t *f, size_t n, size_t *len)
{
	if (n < 64 || memcmp(f, "\177ELF", 4) || f[4] != 2)
		return NULL;
	uint64_t shoff = rd(f + 0x28, 8);
	unsigned shentsize = (unsigned)rd(f + 0x3a, 2), shnum = (unsigned)rd(f + 0x3c, 2),
		 shstrndx = (unsigned)rd(f + 0x3e, 2);
	if (shoff + (uint64_t)shnum * shentsize > n || shstrndx >= shnum)
		return NULL;
	const uint8_t *strsh = f + shoff + (uint64_t)shstrndx * shentsize;
	uint64_t stroff = rd(strsh + 24, 8);
	for (unsigned i = 0; i < shnum; i++) {
		const uint8_t *sh = f + shoff + (uint64_t)i * shentsize;
		uint64_t name = rd(sh, 4), off = rd(sh + 24, 8), size = rd(sh + 32, 8);
		if (stroff + name + 6 > n || strcmp((const char *)f + stroff + name, ".text"))
			continue;
		if (off + size > n)
			return NULL;
		uint8_t *t = malloc(size ? size : 1);
		if (t)
			memcpy(t, f + off, size);
		*len = size;
		return t;
	}
	return NULL;
}

static uint8_t *assemble(const char *src, const char *mcpu, const char *mattr, bool wave64, size_t *len)
{
	char sfile[] = "/tmp/rdc-exec-XXXXXX";
	int fd = mkstemp(sfile);
	if (fd < 0)
		return NULL;
	FILE *fp = fdopen(fd, "w");
	fputs(src, fp);
	fclose(fp);
	char ofile[64], efile[64], cmd[512];
	snprintf(ofile, sizeof ofile, "%s.o", sfile);
	snprintf(efile, sizeof efile, "%s.err", sfile);
	snprintf(cmd, sizeof cmd, "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=+wavefrontsize%s%s%s -filetype=obj -o %s %s 2>%s",
		 llvm_mc, mcpu, wave64 ? "64" : "32", mattr ? "," : "", mattr ? mattr : "", ofile, sfile, efile);
	int rc = system(cmd);
	uint8_t *text = NULL;
	if (rc == 0) {
		FILE *o = fopen(ofile, "rb");
		if (o) {
			uint8_t *buf = malloc(1 << 20);
			size_t n = buf ? fread(buf, 1, 1 << 20, o) : 0;
			fclose(o);
			if (buf)
				text = elf_text(buf, n, len);
			free(buf);
		}
	} else {
		FILE *e = fopen(efile, "r");
		char line[256];
		fprintf(stderr, "  llvm-mc (%s) refused the kernel:\n", mcpu);
		while (e && fgets(line, sizeof line, e))
			fprintf(stderr, "    %s", line);
		if (e)
			fclose(e);
	}
	unlink(sfile);
	unlink(ofile);
	unlink(efile);
	return text;
}

/* ---- one test on one generation ------------------------------------------------------- */
static void kernel_text(const struct xt_test *t, unsigned gfx, char *out, size_t cap)
{
	size_t n = 0;
#define EMIT(...) (n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, __VA_ARGS__))
	EMIT(".text\n");
	EMIT("s_load_dwordx4 s[4:7], s[0:1], 0x0\n");
	EMIT("v_and_b32 v0, 0x3ff, v0\n"); /* gfx11 packs y and z above x */
	EMIT("v_mul_u32_u24 v33, %u, v0\n", t->nin * 4);
	EMIT("v_mul_u32_u24 v34, %u, v0\n", t->nout * 4);
	EMIT("s_waitcnt lgkmcnt(0)\n");
	for (unsigned k = 0; k < t->nin; k++)
		EMIT("global_load_dword v%u, v33, s[4:5] offset:%u\n", 1 + k, 4 * k);
	for (unsigned j = 0; j < t->nout; j++)
		EMIT("global_load_dword v%u, v34, s[6:7] offset:%u\n", 40 + j, 4 * j);
	EMIT("s_waitcnt vmcnt(0)\n");
	EMIT("s_nop 0x3f1\n"); /* markers: the body lies between them (opcode table) */
	EMIT("%s\n", gfx == 11 && t->body11 ? t->body11 : t->body10);
	EMIT("s_nop 0x3f2\n");
	for (unsigned j = 0; j < t->nout; j++)
		EMIT("global_store_dword v34, v%u, s[6:7] offset:%u\n", 40 + j, 4 * j);
	EMIT("s_waitcnt vmcnt(0)\ns_endpgm\n");
#undef EMIT
}

static int h_ulps(uint16_t a, uint16_t b)
{
	int x = a & 0x8000 ? -(int)(a & 0x7fff) : (int)a, y = b & 0x8000 ? -(int)(b & 0x7fff) : (int)b;
	return abs(x - y);
}

/* The operations a passing test's body holds, per generation (the opcode
 * table's "tested" column). */
static bool tested[2][RDC_OP_COUNT];

static void note_tested(unsigned gfx, const uint8_t *code, size_t len)
{
	bool in_body = false;
	for (size_t off = 0; off + 4 <= len;) {
		struct rdc_inst in;
		int rc = rdc_decode(gfx, code + off, len - off, &in);
		if (rc == 0 && in.op == RDC_OP_S_NOP && (in.imm == 0x3f1 || in.imm == 0x3f2)) {
			in_body = in.imm == 0x3f1;
		} else if (rc == 0 && in_body) {
			tested[gfx == 11][in.op] = true;
			if (in.fmt == RDC_FMT_VOPD)
				tested[gfx == 11][in.op_y] = true;
		}
		off += in.len ? in.len : 4;
	}
}

static bool f64_nan(const uint32_t *v, unsigned j)
{
	uint64_t u = (uint64_t)v[j | 1] << 32 | v[j & ~1u];
	return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (u & 0xfffffffffffffull);
}

/* f32 patterns on one integer line (sign-magnitude to two's complement):
 * neighbours differ by 1, +0 and -0 are both 0. */
static int64_t f_line(uint32_t u) { return u >> 31 ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u; }
static bool f_nan(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu); }
static bool f_exactly(uint32_t u) { return (u & 0x7fffffffu) == 0 || (u & 0x7fffffffu) == 0x7f800000u; }

static bool close_enough(enum xt_tol tol, uint32_t got, uint32_t want)
{
	if (got == want)
		return true;
	if (tol == XT_FNAN)
		return f_nan(got) && f_nan(want);
	if (tol == XT_F1) {
		if (f_nan(got) || f_nan(want))
			return f_nan(got) && f_nan(want);
		if (f_exactly(want) && (want & 0x7fffffffu))
			return false; /* infinities exact */
		if (f_exactly(want))
			return (got & 0x7fffffffu) == 0 || llabs(f_line(got) - f_line(want)) <= 1;
		return llabs(f_line(got) - f_line(want)) <= 1;
	}
	if (tol == XT_H1)
		return h_ulps(xt_lo(got), xt_lo(want)) <= 1 && h_ulps(xt_hi(got), xt_hi(want)) <= 1;
	return false;
}

/* The status the dispatch of the test being run must end with (0: it completes). */
static int expect_status;

/* 0 pass, 1 fail */
static int run_one(const struct xt_test *t, unsigned gfx)
{
	char src[32768];
	kernel_text(t, gfx, src, sizeof src);
	size_t clen = 0;
	uint8_t *code = assemble(src, gfx == 10 ? "gfx1030" : "gfx1100", gfx == 11 ? t->mattr11 : NULL,
				 (t->gens & XT_W64) != 0, &clen);
	if (!code) {
		printf("FAIL %s gfx%u: the snippet does not assemble\n", t->name, gfx);
		return 1;
	}
	struct map m = { .n = 0 };
	uint8_t *kd = map_add(&m, 64 + clen + 64, 4096);
	uint32_t *kernarg = map_add(&m, 64, 64);
	uint32_t *in = map_add(&m, (size_t)XT_LANES * (t->nin ? t->nin : 1) * 4, 256);
	uint32_t *out = map_add(&m, (size_t)XT_LANES * t->nout * 4, 256);
	uint8_t *pkt = map_add(&m, 64, 64);
	if (!kd || !kernarg || !in || !out || !pkt) {
		printf("FAIL %s gfx%u: out of memory\n", t->name, gfx);
		return 1;
	}
	/* kernel descriptor */
	uint64_t entry = 64;
	memcpy(kd + 16, &entry, 8);
	uint32_t rsrc1 = 0xF0u << 12 | 1u << 21 | 1u << 23; /* denormals kept, DX10 clamp, IEEE */
	uint32_t rsrc2 = 2u << 1;                            /* USER_SGPR_COUNT = 2: the kernarg pointer */
	/* the kernarg pointer; wave32 unless the test asks for wave64 */
	uint16_t props = (uint16_t)(1u << 3 | ((t->gens & XT_W64) ? 0 : 1u << 10));
	uint32_t ksize = 16;
	uint32_t lds = 65536; /* group_segment_fixed_size: every test may use the whole LDS (zeroed by the
				* dispatcher): the DS tests, flat's LDS-aperture tests, buffer_load_lds */
	memcpy(kd + 0, &lds, 4);
	memcpy(kd + 8, &ksize, 4);
	memcpy(kd + 48, &rsrc1, 4);
	memcpy(kd + 52, &rsrc2, 4);
	memcpy(kd + 56, &props, 2);
	memcpy(kd + 64, code, clen);
	uint8_t *body_code = code;
	uint32_t priv = 64; /* private segment bytes per lane (scratch tests) */
	memcpy(kd + 4, &priv, 4);
	/* buffers */
	uint32_t init_out[XT_LANES * XT_MAXOUT];
	for (unsigned l = 0; l < XT_LANES; l++) {
		void (*init)(unsigned, uint32_t *, uint32_t *, unsigned, unsigned) = t->init ? t->init : xt_init_h;
		init(l, in + l * t->nin, out + l * t->nout, t->nin, t->nout);
	}
	memcpy(init_out, out, (size_t)XT_LANES * t->nout * 4);
	uint64_t pin = (uint64_t)(uintptr_t)in, pout = (uint64_t)(uintptr_t)out;
	memcpy(kernarg, &pin, 8);
	memcpy(kernarg + 2, &pout, 8);
	/* AQL packet: one dimension, one workgroup of 32 */
	uint16_t setup = 1, wg = XT_LANES, one = 1;
	uint32_t grid = XT_LANES, one32 = 1;
	uint64_t kdva = (uint64_t)(uintptr_t)kd, kava = (uint64_t)(uintptr_t)kernarg;
	memcpy(pkt + 2, &setup, 2);
	memcpy(pkt + 4, &wg, 2);
	memcpy(pkt + 6, &one, 2);
	memcpy(pkt + 8, &one, 2);
	memcpy(pkt + 12, &grid, 4);
	memcpy(pkt + 16, &one32, 4);
	memcpy(pkt + 20, &one32, 4);
	memcpy(pkt + 32, &kdva, 8);
	memcpy(pkt + 40, &kava, 8);
	struct rdc_exec_mem mem = { .find = map_find, .ctx = &m, .lds_aperture = 1ull << 48,
				    .scratch_aperture = 2ull << 48 };
	struct rdc_exec_request req = { .packet = pkt, .packet_va = (uint64_t)(uintptr_t)pkt, .gfx = gfx,
					.major = gfx, .minor = gfx == 10 ? 3 : 0, .kernel = t->name,
					.max_insts = 100000, .threads = 1 };
	struct rdc_exec_result res;
	int bad = 0;
	int st = rdc_exec_dispatch(&req, &mem, &res);
	if (st != expect_status) {
		if (expect_status)
			printf("FAIL %s gfx%u: the dispatch ended with status %d, want %d: %s\n", t->name, gfx, st,
			       expect_status, st ? res.msg : "it completed");
		else
			printf("FAIL %s gfx%u: the dispatch failed: %s\n", t->name, gfx, res.msg);
		bad = 1;
	} else {
		struct xt_ctx c = { .gfx = gfx, .nin = t->nin, .nout = t->nout, .in = in };
		for (unsigned l = 0; l < XT_LANES && bad < 4; l++) {
			uint32_t want[XT_MAXOUT];
			memcpy(want, init_out + l * t->nout, t->nout * 4);
			t->ref(&c, l, want);
			for (unsigned j = 0; j < t->nout; j++) {
				uint32_t got = out[l * t->nout + j];
				if (close_enough(t->tol, got, want[j]))
					continue;
				if (t->tol == XT_F64NAN && (j | 1) < t->nout && f64_nan(out + l * t->nout, j) &&
				    f64_nan(want, j))
					continue;
				if (!bad)
					printf("FAIL %s gfx%u\n", t->name, gfx);
				printf("  lane %u v%u: got 0x%08x, want 0x%08x (initial 0x%08x; inputs", l, 40 + j, got,
				       want[j], init_out[l * t->nout + j]);
				for (unsigned k = 0; k < t->nin && k < 4; k++)
					printf(" 0x%08x", in[l * t->nin + k]);
				printf(")\n");
				if (++bad >= 4)
					break;
			}
		}
	}
	for (unsigned i = 0; i < m.n; i++)
		free(m.r[i].cpu);
	if (!bad) {
		printf("ok   %s gfx%u\n", t->name, gfx);
		note_tested(gfx, body_code, clen);
	}
	free(body_code);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	llvm_mc = find_llvm_mc();
	if (!llvm_mc) {
		printf("SKIP exec_harness: llvm-mc-19 not found (Debian's llvm-19 package; or set RDC_LLVM_MC)\n");
		return 77;
	}
	xt_salu_setup();
	const char *table = NULL;
	int nfilter = 0;
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--table") && a + 1 < argc)
			table = argv[++a];
		else
			argv[1 + nfilter++] = argv[a];
	}
	const struct { const struct xt_test *t; unsigned n; } suites[] = {
		{ xt_tests_v16, xt_ntests_v16 }, { xt_tests_valu, xt_ntests_valu },
		{ xt_tests_f64, xt_ntests_f64 }, { xt_tests_rare, xt_ntests_rare },
		{ xt_tests_buf, xt_ntests_buf },
		{ xt_tests_salu, xt_ntests_salu },
		{ xt_tests_salu2, xt_ntests_salu2 },
		{ xt_tests_vop, xt_ntests_vop },
		{ xt_tests_vop_2, xt_ntests_vop_2 },
		{ xt_tests_vcmp, xt_ntests_vcmp },
		{ xt_tests_ds, xt_ntests_ds },
		{ xt_tests_mubuf, xt_ntests_mubuf },
		{ xt_tests_flat, xt_ntests_flat },
		{ xt_tests_image, xt_ntests_image },
	};
	unsigned run = 0, failed = 0;
	const unsigned nsuites = sizeof suites / sizeof suites[0];
	for (size_t s = 0; s <= nsuites; s++) {
		/* the last pass runs the tests that must end with a status */
		for (unsigned i = 0; i < (s < nsuites ? suites[s].n : xt_nstatus_tests_salu); i++) {
			const struct xt_test *t = s < nsuites ? &suites[s].t[i] : &xt_status_tests_salu[i].t;
			expect_status = s < nsuites ? 0 : xt_status_tests_salu[i].status;
			bool want = nfilter == 0;
			for (int a = 1; a <= nfilter; a++)
				want |= strstr(t->name, argv[a]) != NULL;
			if (!want)
				continue;
			if (t->nin > XT_MAXIN || t->nout > XT_MAXOUT || !t->nout) {
				printf("FAIL %s: bad test (nin %u, nout %u)\n", t->name, t->nin, t->nout);
				failed++;
				continue;
			}
			for (unsigned g = 10; g <= 11; g++) {
				if (!(t->gens & (g == 10 ? XT_G10 : XT_G11)))
					continue;
				run++;
				failed += (unsigned)run_one(t, g);
			}
		}
	}
	printf("exec_harness: %u runs, %u failed\n", run, failed);
	/* The opcode table needs every test: only on a full run. */
	if (nfilter == 0) {
		const char *src = getenv("RDC_SRCDIR"), *build = getenv("RDC_BUILD");
		char notyet[4096], md[4096];
		snprintf(notyet, sizeof notyet, "%s/tests/exec/not-yet.txt", src && *src ? src : ".");
		if (!table && build && *build) {
			snprintf(md, sizeof md, "%s/exec-opcodes.md", build);
			table = md;
		}
		if (xt_optable(tested[0], tested[1], notyet, table))
			failed++;
		else if (table)
			printf("opcode table written to %s\n", table);
	}
	return failed ? 1 : 0;
}
