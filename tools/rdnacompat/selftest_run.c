/* SPDX-License-Identifier: MIT */
/*
 * selftest_run.c — the child process of `doctor --selftest` (selftest.h):
 * runs ONE check on HIP device 0 and writes its records to fd RDC_ST_FD.
 * The parent started it with the shim (and, under `rdnacompat sim`, the
 * simulated card) preloaded, so this process is an ordinary HIP program as
 * far as the shim is concerned.  HIP is dlopen'ed (libamdhip64.so, else
 * .so.7, .so.6, .so.5 — whichever the system has), never linked; the kernels
 * come from the bundle embedded in the tool (rdc_selftest_bundle, or the file
 * RDNACOMPAT_SELFTEST_BUNDLE names, for tests) and the shim's fallback
 * bundle (rdc_fallback_bundle), loaded with hipModuleLoadData.  rocBLAS is
 * dlopen'ed too and HIP then taken from the library rocBLAS itself loaded.
 *
 * A check that crashes or hangs kills only this process; the parent reports it.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "selftest.h"
#include "tool_util.h"

/* The shim's fallback kernels (shim/fallback/fallback_blob.h: the same
 * bundle, built once, linked into librdnacompat.so and into the tool). */
extern const unsigned char rdc_fallback_bundle[];
extern const unsigned char rdc_selftest_bundle[];
extern const size_t rdc_selftest_bundle_size;

const char *const rdc_st_checks[] = { "saxpy", "intops", "f16", "reduce", "fattn", "sgemm", NULL };

typedef int herr;
struct hip {
	void *lib;
	herr (*init)(unsigned);
	herr (*set_device)(int);
	herr (*get_count)(int *);
	herr (*rt_version)(int *);
	herr (*malloc)(void **, size_t);
	herr (*free)(void *);
	herr (*memcpy)(void *, const void *, size_t, int);
	herr (*memset)(void *, int, size_t);
	herr (*mod_load)(void **, const void *);
	herr (*get_fn)(void **, void *, const char *);
	herr (*launch)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
		       void **, void **);
	herr (*sync)(void);
	const char *(*errstr)(herr);
};
#define H2D 1
#define D2H 2
#define LP_BUF ((void *)1)
#define LP_SIZE ((void *)2)
#define LP_END ((void *)3)

static struct hip hip;
static char hip_name[64];

static void put(const char *id, enum rdc_st_status st, double err, double tol, const char *kind, const char *fmt,
		...) __attribute__((format(printf, 6, 7)));

static void put(const char *id, enum rdc_st_status st, double err, double tol, const char *kind, const char *fmt, ...)
{
	struct rdc_st_rec r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id);
	r.status = st;
	r.max_err = err;
	r.tol = tol;
	snprintf(r.err_kind, sizeof r.err_kind, "%s", kind ? kind : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r.detail, sizeof r.detail, fmt, ap);
	va_end(ap);
	if (write(RDC_ST_FD, &r, sizeof r) != (ssize_t)sizeof r)
		_exit(70);
}

static bool bind(void *lib)
{
	void **slots[] = { (void **)&hip.init, (void **)&hip.set_device, (void **)&hip.get_count,
			   (void **)&hip.rt_version, (void **)&hip.malloc, (void **)&hip.free,
			   (void **)&hip.memcpy, (void **)&hip.memset, (void **)&hip.mod_load,
			   (void **)&hip.get_fn, (void **)&hip.launch, (void **)&hip.sync, (void **)&hip.errstr };
	static const char *const names[] = { "hipInit", "hipSetDevice", "hipGetDeviceCount",
					     "hipRuntimeGetVersion", "hipMalloc", "hipFree", "hipMemcpy",
					     "hipMemset", "hipModuleLoadData", "hipModuleGetFunction",
					     "hipModuleLaunchKernel", "hipDeviceSynchronize", "hipGetErrorString" };
	/* RTLD_DEFAULT, not the handle: a preloaded shim's hooks come first in
	 * the global scope, as for a program linked with HIP (dlsym on the
	 * handle would bypass them).  The library is loaded RTLD_GLOBAL. */
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!(*slots[i] = dlsym(RTLD_DEFAULT, names[i])))
			return false;
	hip.lib = lib;
	return true;
}

/* dlopen HIP (or take it from `via`, a library that links it). */
static int open_hip(void *via)
{
	static const char *const names[] = { "libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
					      "libamdhip64.so.5", NULL };
	if (via) {
		if (!bind(via))
			return RDC_ST_EXIT_NOHIP;
		snprintf(hip_name, sizeof hip_name, "the HIP rocBLAS links");
	} else {
		void *lib = NULL;
		for (int i = 0; names[i] && !lib; i++)
			if ((lib = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL)))
				snprintf(hip_name, sizeof hip_name, "%s", names[i]);
		if (!lib || !bind(lib))
			return RDC_ST_EXIT_NOHIP;
	}
	int n = 0;
	if (hip.init(0) != 0 || hip.get_count(&n) != 0 || n < 1 || hip.set_device(0) != 0)
		return RDC_ST_EXIT_NOINIT;
	int v = 0;
	hip.rt_version(&v);
	put("hip", RDC_ST_PASS, NAN, NAN, NULL, "%s (HIP %d.%d.%d)", hip_name, v / 10000000, v / 100000 % 100,
	    v % 100000);
	return 0;
}

static int hip_major(void)
{
	int v = 0;
	return hip.rt_version(&v) == 0 ? v / 10000000 : 0;
}

/* The kernels' bundle: RDNACOMPAT_SELFTEST_BUNDLE (tests), else embedded. */
static const void *kernels_image(char *what, size_t n)
{
	const char *f = getenv("RDNACOMPAT_SELFTEST_BUNDLE");
	if (f && *f) {
		size_t len = 0;
		char *b = rdc_read_file(f, 64u << 20, &len);
		snprintf(what, n, "%s", f);
		return b;
	}
	snprintf(what, n, "the bundle embedded in rdnacompat");
	return rdc_selftest_bundle;
}

static void *module(const char *id, const void *image, const char *what)
{
	void *m = NULL;
	herr e = hip.mod_load(&m, image);
	if (e != 0) {
		put(id, RDC_ST_FAIL, NAN, 0, NULL, "hipModuleLoadData(%s): %s", what, hip.errstr(e));
		return NULL;
	}
	return m;
}

static void *function(const char *id, void *m, const char *name)
{
	void *f = NULL;
	herr e = hip.get_fn(&f, m, name);
	if (e != 0)
		put(id, RDC_ST_FAIL, NAN, 0, NULL, "hipModuleGetFunction(%s): %s", name, hip.errstr(e));
	return e == 0 ? f : NULL;
}

/* Device buffers: copies of host arrays (src may be NULL: zeroed). */
static void *dev(const char *id, const void *src, size_t bytes)
{
	void *p = NULL;
	herr e = hip.malloc(&p, bytes);
	if (e == 0)
		e = src ? hip.memcpy(p, src, bytes, H2D) : hip.memset(p, 0, bytes);
	if (e != 0) {
		put(id, RDC_ST_FAIL, NAN, 0, NULL, "hipMalloc/hipMemcpy of %zu bytes: %s", bytes, hip.errstr(e));
		return NULL;
	}
	return p;
}

static bool run(const char *id, void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
		unsigned shm, void **params, void **extra)
{
	herr e = hip.launch(f, gx, gy, gz, bx, by, 1, shm, NULL, params, extra);
	if (e == 0)
		e = hip.sync();
	if (e != 0)
		put(id, RDC_ST_FAIL, NAN, 0, NULL, "launch: %s", hip.errstr(e));
	return e == 0;
}

static bool back(const char *id, void *dst, const void *src, size_t bytes)
{
	herr e = hip.memcpy(dst, src, bytes, D2H);
	if (e != 0)
		put(id, RDC_ST_FAIL, NAN, 0, NULL, "hipMemcpy back: %s", hip.errstr(e));
	return e == 0;
}

/* The worst error so far: a NaN sticks. */
static void worst(double *err, double e)
{
	if (!isnan(*err) && (isnan(e) || e > *err))
		*err = e;
}

static void verdict(const char *id, double err, double tol, const char *kind, const char *what)
{
	bool ok = err <= tol; /* NaN fails */
	put(id, ok ? RDC_ST_PASS : RDC_ST_FAIL, err, tol, kind, "%s", what);
}

#define N 4096
#define BLK 256

static void check_saxpy(void *m)
{
	static float x[N], y[N], out[N];
	uint32_t s = 1;
	for (int i = 0; i < N; i++) {
		x[i] = rdc_st_randf(&s, -4, 4);
		y[i] = rdc_st_randf(&s, -4, 4);
	}
	float a = 1.75f;
	int n = N;
	void *f = function("saxpy", m, "rdc_st_saxpy"), *dx = dev("saxpy", x, sizeof x), *dy = dev("saxpy", y, sizeof y);
	if (!f || !dx || !dy)
		return;
	void *p[] = { &a, &dx, &dy, &n };
	if (!run("saxpy", f, N / BLK, 1, 1, BLK, 1, 0, p, NULL) || !back("saxpy", out, dy, sizeof out))
		return;
	double err = 0;
	for (int i = 0; i < N; i++) {
		double ref = fma((double)a, x[i], y[i]); /* f32 mul+add or fma: within 1 ulp of this */
		worst(&err, fabs(out[i] - ref) / fmax(fabs(ref), 1.0));
	}
	verdict("saxpy", err, 1e-6, "rel", "f32 y = a*x + y, 4096 elements, 16 blocks of 256");
}

static void check_intops(void *m)
{
	static int a[N], b[N], out[6 * N];
	uint32_t s = 2;
	for (int i = 0; i < N; i++) {
		a[i] = (int)rdc_st_rand(&s);
		b[i] = i % 7 == 0 ? a[i] : (int)rdc_st_rand(&s);
	}
	int n = N;
	void *f = function("intops", m, "rdc_st_intops"), *da = dev("intops", a, sizeof a),
	     *db = dev("intops", b, sizeof b), *dout = dev("intops", NULL, sizeof out);
	if (!f || !da || !db || !dout)
		return;
	void *p[] = { &da, &db, &dout, &n };
	if (!run("intops", f, N / BLK, 1, 1, BLK, 1, 0, p, NULL) || !back("intops", out, dout, sizeof out))
		return;
	size_t wrong = 0;
	for (int i = 0; i < N; i++) {
		uint32_t x = (uint32_t)a[i], y = (uint32_t)b[i], sh = y & 31;
		/* arithmetic shift of a negative value, written without relying on >> of signed */
		uint32_t asr = (x >> sh) | (a[i] < 0 && sh ? ~(~0u >> sh) : 0);
		uint32_t ref[6] = { x * y, x << sh, asr, x >> sh, (uint32_t)(a[i] < b[i] ? a[i] : b[i]),
				    (uint32_t)(a[i] > b[i] ? a[i] : b[i]) };
		for (int k = 0; k < 6; k++)
			wrong += (uint32_t)out[6 * i + k] != ref[k];
	}
	verdict("intops", (double)wrong, 0, "count",
		"i32 mul (low 32 bits), shl, ashr, lshr, min, max: 4096 pairs, exact (error = wrong results)");
}

static void check_f16(void *m)
{
	static uint16_t a[N], b[N], sum[N], down[N];
	static float f[N], up[N];
	uint32_t s = 3;
	for (int i = 0; i < N; i++) {
		a[i] = rdc_st_f2h(rdc_st_randf(&s, -1000, 1000));
		b[i] = rdc_st_f2h(i % 5 ? rdc_st_randf(&s, -2, 2) : rdc_st_randf(&s, -60000, 60000));
		f[i] = rdc_st_randf(&s, -70000, 70000) * (i % 3 ? 1e-3f : 1.0f);
	}
	int n = N;
	void *fn = function("f16", m, "rdc_st_f16"), *da = dev("f16", a, sizeof a), *db = dev("f16", b, sizeof b),
	     *df = dev("f16", f, sizeof f), *dsum = dev("f16", NULL, sizeof sum), *dup = dev("f16", NULL, sizeof up),
	     *ddown = dev("f16", NULL, sizeof down);
	if (!fn || !da || !db || !df || !dsum || !dup || !ddown)
		return;
	void *p[] = { &da, &db, &df, &dsum, &dup, &ddown, &n };
	if (!run("f16", fn, N / BLK, 1, 1, BLK, 1, 0, p, NULL) || !back("f16", sum, dsum, sizeof sum) ||
	    !back("f16", up, dup, sizeof up) || !back("f16", down, ddown, sizeof down))
		return;
	size_t wrong = 0;
	for (int i = 0; i < N; i++) {
		/* The exact sum of two halves fits a double; one rounding to f16. */
		wrong += sum[i] != rdc_st_f2h((double)rdc_st_h2f(a[i]) + rdc_st_h2f(b[i]));
		wrong += up[i] != rdc_st_h2f(a[i]);
		wrong += down[i] != rdc_st_f2h(f[i]);
	}
	verdict("f16", (double)wrong, 0, "count",
		"f16 add, f16->f32 and f32->f16 (nearest even, overflow to inf): 4096 each, exact (error = wrong results)");
}

static void check_reduce(void *m)
{
	enum { RN = 100000, PER = 8192 };
	static float x[RN], part[(RN + PER - 1) / PER];
	uint32_t s = 4;
	for (int i = 0; i < RN; i++)
		x[i] = rdc_st_randf(&s, -1, 1);
	int n = RN, per = PER;
	unsigned nb = (RN + PER - 1) / PER;
	void *f = function("reduce", m, "rdc_st_reduce"), *dx = dev("reduce", x, sizeof x),
	     *dp = dev("reduce", NULL, sizeof part);
	if (!f || !dx || !dp)
		return;
	void *p[] = { &dx, &dp, &n, &per };
	if (!run("reduce", f, nb, 1, 1, BLK, 1, 0, p, NULL) || !back("reduce", part, dp, sizeof part))
		return;
	double err = 0;
	for (unsigned b = 0; b < nb; b++) {
		double ref = 0, mag = 0;
		for (int i = (int)b * PER; i < (int)(b + 1) * PER && i < RN; i++) {
			ref += x[i];
			mag += fabs(x[i]);
		}
		worst(&err, fabs(part[b] - ref) / mag); /* relative to the sum of magnitudes */
	}
	verdict("reduce", err, 1e-6, "rel",
		"f32 sum of 100000 values, 13 blocks of 256: strided adds, wave shuffles (ds_bpermute), LDS, barrier");
}

/* ---- fallback flash attention (docs/FALLBACKS.md, ggml's fattn_kernel_t) ---- */
static void put32(unsigned char *a, size_t off, const void *v)
{
	memcpy(a + off, v, 4);
}
static void put64(unsigned char *a, size_t off, const void *v)
{
	memcpy(a + off, v, 8);
}

static void check_fattn(void)
{
	if (hip_major() < 6) {
		put("fattn", RDC_ST_SKIP, NAN, 0, NULL,
		    "HIP %d cannot load code object v5, the fallback bundle's format (the shim routes to it on HIP >= 7.1 only)",
		    hip_major());
		return;
	}
	enum { H = 2, L = 4, S = 100, D = 64, P = 2 };
	static float q[H * L * D], out[L * H * D], parts[L * H * P * D], meta[L * H * P * 2];
	static uint16_t k[H * S * D], v[H * S * D];
	static double ref[L * H * D];
	uint32_t s = 5;
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
		q[i] = rdc_st_randf(&s, -1, 1);
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		k[i] = rdc_st_f2h(rdc_st_randf(&s, -1, 1));
		v[i] = rdc_st_f2h(rdc_st_randf(&s, -1, 1));
	}
	const double scale = 1.0 / sqrt(D);
	rdc_st_attn_ref(q, k, v, H, L, S, D, D, scale, ref);
	double refmax = 0;
	for (size_t i = 0; i < L * H * D; i++)
		refmax = fmax(refmax, fabs(ref[i]));

	void *m = module("fattn", rdc_fallback_bundle, "the fallback bundle");
	void *tile = m ? function("fattn", m, "rdnacompat_fb_fattn_tile_dv64") : NULL;
	void *comb = m ? function("fattn", m, "rdnacompat_fb_fattn_combine") : NULL;
	void *dq = dev("fattn", q, sizeof q), *dk = dev("fattn", k, sizeof k), *dv = dev("fattn", v, sizeof v);
	void *ddst = dev("fattn", NULL, sizeof parts), *dmeta = dev("fattn", NULL, sizeof meta),
	     *dout = dev("fattn", NULL, sizeof out);
	if (!tile || !comb || !dq || !dk || !dv || !ddst || !dmeta || !dout)
		return;
	for (int split = 1; split <= P; split++) {
		/* ggml's 208 explicit bytes (FALLBACKS.md "ABI"): Q f32 [H][L][D],
		 * K/V f16 [H][S][D], no mask/sinks/KV_max, one sequence. */
		unsigned char a[208];
		memset(a, 0, sizeof a);
		void *ptr[8] = { dq, dk, dv, NULL, NULL, NULL, split == 1 ? dout : ddst, split == 1 ? NULL : dmeta };
		for (int i = 0; i < 8; i++)
			put64(a, 8 * (size_t)i, &ptr[i]);
		float sc = (float)scale, zero = 0, one = 1;
		uint32_t nhl2 = 1;
		put32(a, 64, &sc);
		put32(a, 68, &zero);           /* max_bias */
		put32(a, 72, &one);            /* m0 */
		put32(a, 76, &one);            /* m1 */
		put32(a, 80, &nhl2);
		put32(a, 84, &zero);           /* logit_softcap */
		int32_t i32[][2] = {
			{ 88, D },                          /* ne00 */
			{ 100, L },                         /* ne01 (uint3 at 92: .z = n) */
			{ 104, H }, { 108, 1 },             /* ne02 ne03 */
			{ 112, D * 4 }, { 116, L * D * 4 }, { 120, H * L * D * 4 }, /* nb01 nb02 nb03 */
			{ 124, D }, { 128, S }, { 132, H }, { 136, 1 }, /* ne10 ne11 ne12 ne13 */
			{ 140, D * 2 }, { 144, S * D * 2 },  /* nb11 nb12 */
			{ 160, D * 2 }, { 164, S * D * 2 },  /* nb21 nb22 */
			{ 176, 1 }, { 180, 1 }, { 184, 1 }, /* ne31 ne32 ne33 */
		};
		for (size_t i = 0; i < sizeof i32 / sizeof i32[0]; i++)
			put32(a, (size_t)i32[i][0], &i32[i][1]);
		int64_t nb13 = (int64_t)H * S * D * 2;
		put64(a, 152, &nb13);          /* nb13 */
		put64(a, 168, &nb13);          /* nb23 */
		size_t as = sizeof a;
		void *cfg[] = { LP_BUF, a, LP_SIZE, &as, LP_END };
		/* ggml's launch: grid (L/ncols1, P, H/ncols2), block (32, nwarps); here ncols1 = 4, ncols2 = 1 */
		if (!run("fattn", tile, 1, (unsigned)split, H, 32, 4, 0, NULL, cfg))
			return;
		if (split > 1) {
			int pb = split;
			void *cp[] = { &ddst, &dmeta, &dout, &pb };
			/* grid (ne01, ne02, ne03), block (DV), P*8 bytes of dynamic LDS */
			if (!run("fattn", comb, L, H, 1, D, 1, (unsigned)(8 * pb), cp, NULL))
				return;
		}
		if (!back("fattn", out, dout, sizeof out))
			return;
		double err = 0;
		for (size_t i = 0; i < L * H * D; i++) {
			worst(&err, fabs(out[i] - ref[i]) / refmax);
		}
		char what[200];
		snprintf(what, sizeof what, split == 1 ? "rdnacompat_fb_fattn_tile_dv64 (DKQ 64, 2 heads, 4 rows, 100 keys) vs softmax(QK^T*scale)V in double"
						     : "rdnacompat_fb_fattn_tile_dv64 split in 2 + rdnacompat_fb_fattn_combine vs the same reference");
		verdict(split == 1 ? "fattn-tile" : "fattn-combine", err, 1e-3, "rel", what);
		hip.memset(dout, 0, sizeof out);
	}
}

/* ---- rocBLAS SGEMM ---- */
static void check_sgemm(void *blas, const char *blas_name)
{
	enum { M = 64, NN = 48, K = 32 };
	typedef int (*create_t)(void **);
	typedef int (*sgemm_t)(void *, int, int, int, int, int, const float *, const float *, int, const float *,
			       int, const float *, float *, int);
	create_t create = (create_t)(uintptr_t)dlsym(blas, "rocblas_create_handle");
	sgemm_t sgemm = (sgemm_t)(uintptr_t)dlsym(blas, "rocblas_sgemm");
	if (!create || !sgemm) {
		put("sgemm", RDC_ST_FAIL, NAN, 0, NULL, "%s lacks rocblas_create_handle/rocblas_sgemm", blas_name);
		return;
	}
	static float A[M * K], B[K * NN], C[M * NN], out[M * NN];
	uint32_t s = 6;
	for (int i = 0; i < M * K; i++)
		A[i] = rdc_st_randf(&s, -1, 1);
	for (int i = 0; i < K * NN; i++)
		B[i] = rdc_st_randf(&s, -1, 1);
	for (int i = 0; i < M * NN; i++)
		C[i] = rdc_st_randf(&s, -1, 1);
	void *h = NULL;
	int st = create(&h);
	if (st != 0) {
		put("sgemm", RDC_ST_FAIL, NAN, 0, NULL, "rocblas_create_handle: status %d", st);
		return;
	}
	void *dA = dev("sgemm", A, sizeof A), *dB = dev("sgemm", B, sizeof B), *dC = dev("sgemm", C, sizeof C);
	if (!dA || !dB || !dC)
		return;
	const float alpha = 1.5f, beta = -0.5f;
	/* column major, no transposes (rocblas_operation_none = 111) */
	st = sgemm(h, 111, 111, M, NN, K, &alpha, dA, M, dB, K, &beta, dC, M);
	herr e = hip.sync();
	if (st != 0 || e != 0) {
		put("sgemm", RDC_ST_FAIL, NAN, 0, NULL, "rocblas_sgemm: status %d, sync %s", st, hip.errstr(e));
		return;
	}
	if (!back("sgemm", out, dC, sizeof out))
		return;
	double err = 0;
	for (int j = 0; j < NN; j++)
		for (int i = 0; i < M; i++) {
			double ref = 0, mag = 0;
			for (int k = 0; k < K; k++) {
				ref += (double)A[i + k * M] * B[k + j * K];
				mag += fabs((double)A[i + k * M] * B[k + j * K]);
			}
			ref = alpha * ref + beta * C[i + j * M];
			mag = fabs(alpha) * mag + fabs(beta * C[i + j * M]);
			worst(&err, fabs(out[i + j * M] - ref) / mag);
		}
	char what[200];
	snprintf(what, sizeof what, "rocblas_sgemm 64x48x32, alpha 1.5, beta -0.5, column major (%s)", blas_name);
	verdict("sgemm", err, 1e-5, "rel", what);
}

int rdc_selftest_child(const char *name)
{
	bool known = false;
	for (int i = 0; rdc_st_checks[i]; i++)
		known |= !strcmp(name, rdc_st_checks[i]);
	if (!known)
		return RDC_ST_EXIT_USAGE;
	void *blas = NULL;
	char blas_name[32] = "";
	if (!strcmp(name, "sgemm")) {
		static const char *const names[] = { "librocblas.so", "librocblas.so.5", "librocblas.so.4", NULL };
		for (int i = 0; names[i] && !blas; i++)
			if ((blas = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL)))
				snprintf(blas_name, sizeof blas_name, "%s", names[i]);
		if (!blas) {
			put("sgemm", RDC_ST_SKIP, NAN, 0, NULL, "rocBLAS is not installed (no librocblas.so.5 or .so.4)");
			return 0;
		}
	}
	int rc = open_hip(blas);
	if (rc)
		return rc;
	if (!strcmp(name, "sgemm")) {
		check_sgemm(blas, blas_name);
		return 0;
	}
	if (!strcmp(name, "fattn")) {
		check_fattn();
		return 0;
	}
	char what[512];
	const void *img = kernels_image(what, sizeof what);
	if (!img) {
		put(name, RDC_ST_FAIL, NAN, 0, NULL, "cannot read %s", what);
		return 0;
	}
	void *m = module(name, img, what);
	if (!m)
		return 0;
	if (!strcmp(name, "saxpy"))
		check_saxpy(m);
	else if (!strcmp(name, "intops"))
		check_intops(m);
	else if (!strcmp(name, "f16"))
		check_f16(m);
	else
		check_reduce(m);
	return 0;
}
