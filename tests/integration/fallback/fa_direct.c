// SPDX-License-Identifier: MIT
//
// fa_direct.c OUTDIR CASE... — one ggml FLASH_ATTN_EXT graph per CASE
// ("DK:DV:NH:NHKV:KV:NQ[:mla]"), inputs filled from a fixed seed, computed
// on ggml's ROCm0 backend and on its CPU backend; writes the f32 outputs to
// OUTDIR/dDK_vDV.{gpu,cpu}, and the same attention computed in double from
// the same inputs to OUTDIR/dDK_vDV.ref (f64); prints one line per case with
// a digest of the input bytes (so two runs can show that their inputs were
// identical).
// tests/integration/85-exec-fallback-direct.sh compares the files of two
// runs: ggml's own flash_attn_tile kernel against rdnacompat's fallback.
//
// Tensors as ggml's test-backend-ops builds them (test_flash_attn_ext):
// Q f32 [DK, NQ, NH, 1], K f16 [DK, KV, NHKV, 1], V f16 [DV, KV, NHKV, 1]
// (with ":mla", V is a view of K's first DV values per row, as llama.cpp's
// MLA models and test-backend-ops' hsk=576 cases pass it), mask f16
// [KV, NQ, 1, 1], scale 1/sqrt(DK), no ALiBi, no softcap, precision F32.
//
// ggml ships no headers in the roots (only libggml0 and the HIP backend),
// so the handful of its C API used here is declared below from ggml's
// public headers (include/ggml.h, ggml-alloc.h, ggml-backend.h; read at
// ggml-org/ggml@d99724f2 = v0.21.0, stable in these functions since well
// before Debian's 0.27.0): opaque pointers everywhere except
// struct ggml_init_params, which is passed by value (checked below).
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ggml_context;
struct ggml_tensor;
struct ggml_cgraph;
typedef struct ggml_backend *ggml_backend_t;
typedef struct ggml_backend_buffer *ggml_backend_buffer_t;
typedef uint16_t ggml_fp16_t;

// include/ggml.h: { size_t mem_size; void *mem_buffer; bool no_alloc; }
struct ggml_init_params {
	size_t mem_size;
	void *mem_buffer;
	bool no_alloc;
};
_Static_assert(offsetof(struct ggml_init_params, mem_buffer) == 8 &&
		       offsetof(struct ggml_init_params, no_alloc) == 16 && sizeof(struct ggml_init_params) == 24,
	       "struct ggml_init_params layout (x86-64)");

enum ggml_type { GGML_TYPE_F32 = 0, GGML_TYPE_F16 = 1 };
enum ggml_prec { GGML_PREC_DEFAULT = 0, GGML_PREC_F32 = 10 };
enum ggml_status { GGML_STATUS_SUCCESS = 0 };

struct ggml_context *ggml_init(struct ggml_init_params params);
void ggml_free(struct ggml_context *ctx);
size_t ggml_tensor_overhead(void);
size_t ggml_graph_overhead(void);
struct ggml_tensor *ggml_new_tensor_4d(struct ggml_context *ctx, enum ggml_type type, int64_t ne0, int64_t ne1,
				       int64_t ne2, int64_t ne3);
struct ggml_tensor *ggml_view_4d(struct ggml_context *ctx, struct ggml_tensor *a, int64_t ne0, int64_t ne1,
				 int64_t ne2, int64_t ne3, size_t nb1, size_t nb2, size_t nb3, size_t offset);
struct ggml_tensor *ggml_flash_attn_ext(struct ggml_context *ctx, struct ggml_tensor *q, struct ggml_tensor *k,
					struct ggml_tensor *v, struct ggml_tensor *mask, float scale, float max_bias,
					float logit_softcap);
void ggml_flash_attn_ext_set_prec(struct ggml_tensor *a, enum ggml_prec prec);
size_t ggml_nbytes(const struct ggml_tensor *tensor);
struct ggml_cgraph *ggml_new_graph(struct ggml_context *ctx);
void ggml_build_forward_expand(struct ggml_cgraph *cgraph, struct ggml_tensor *tensor);
void ggml_fp32_to_fp16_row(const float *x, ggml_fp16_t *y, int64_t n);

void ggml_backend_load_all(void);
ggml_backend_t ggml_backend_init_by_name(const char *name, const char *params);
void ggml_backend_free(ggml_backend_t backend);
ggml_backend_buffer_t ggml_backend_alloc_ctx_tensors(struct ggml_context *ctx, ggml_backend_t backend);
void ggml_backend_buffer_free(ggml_backend_buffer_t buffer);
void ggml_backend_tensor_set(struct ggml_tensor *tensor, const void *data, size_t offset, size_t size);
void ggml_backend_tensor_get(const struct ggml_tensor *tensor, void *data, size_t offset, size_t size);
enum ggml_status ggml_backend_graph_compute(ggml_backend_t backend, struct ggml_cgraph *cgraph);

struct fa_case {
	int dk, dv, nh, nhkv, kv, nq;
	bool mla;
};

struct fa_inputs {
	float *q;
	ggml_fp16_t *k, *v, *m;
	size_t nq, nk, nv, nm; // element counts
};

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state; // xorshift64*
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static float rng_uniform(float lo, float hi)
{
	return lo + (hi - lo) * (float)((rng_next() >> 40) * (1.0 / 16777216.0));
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p) {
		fprintf(stderr, "fa_direct: out of memory\n");
		exit(1);
	}
	return p;
}

// IEEE binary16 -> double (every f16 value is exact in double).
static double h2d(ggml_fp16_t h)
{
	const int e = (h >> 10) & 31, m = h & 1023;
	const double s = (h & 0x8000) ? -1.0 : 1.0;
	if (e == 31)
		return m ? NAN : s * INFINITY;
	return s * ldexp(e ? 1024 + m : m, e ? e - 25 : -24);
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; ++i)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

// Inputs of one case, from a seed that depends only on the shape.
static void make_inputs(const struct fa_case *c, struct fa_inputs *in)
{
	rng_state = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)c->dk << 40) ^ ((uint64_t)c->dv << 24) ^
		    ((uint64_t)c->nh << 16) ^ ((uint64_t)c->kv << 4) ^ (uint64_t)c->nq;
	in->nq = (size_t)c->dk * c->nq * c->nh;
	in->nk = (size_t)c->dk * c->kv * c->nhkv;
	in->nv = c->mla ? 0 : (size_t)c->dv * c->kv * c->nhkv;
	in->nm = (size_t)c->kv * c->nq;
	size_t most = in->nk > in->nv ? in->nk : in->nv;
	float *tmp = xmalloc(most * sizeof(float));
	in->q = xmalloc(in->nq * sizeof(float));
	in->k = xmalloc(in->nk * sizeof(ggml_fp16_t));
	in->v = xmalloc((in->nv ? in->nv : 1) * sizeof(ggml_fp16_t));
	in->m = xmalloc(in->nm * sizeof(ggml_fp16_t));
	for (size_t i = 0; i < in->nq; ++i)
		in->q[i] = rng_uniform(-1.0f, 1.0f);
	for (size_t i = 0; i < in->nk; ++i)
		tmp[i] = rng_uniform(-1.0f, 1.0f);
	ggml_fp32_to_fp16_row(tmp, in->k, (int64_t)in->nk);
	for (size_t i = 0; i < in->nv; ++i)
		tmp[i] = rng_uniform(-1.0f, 1.0f);
	if (in->nv)
		ggml_fp32_to_fp16_row(tmp, in->v, (int64_t)in->nv);
	// Mask: row r sees keys up to kv - nq + r (causal against the end),
	// about one key in eight is masked out at random, the others carry a
	// finite bias in [-1, 0].
	for (int r = 0; r < c->nq; ++r)
		for (int k = 0; k < c->kv; ++k) {
			const bool off = k > c->kv - c->nq + r || (rng_next() >> 61) == 0;
			tmp[(size_t)r * c->kv + k] = off ? -INFINITY : rng_uniform(-1.0f, 0.0f);
		}
	ggml_fp32_to_fp16_row(tmp, in->m, (int64_t)in->nm);
	free(tmp);
}

static uint64_t inputs_digest(const struct fa_inputs *in)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	h = fnv1a(h, in->q, in->nq * sizeof(float));
	h = fnv1a(h, in->k, in->nk * sizeof(ggml_fp16_t));
	h = fnv1a(h, in->v, in->nv * sizeof(ggml_fp16_t));
	return fnv1a(h, in->m, in->nm * sizeof(ggml_fp16_t));
}

// The graph on one backend; out gets nh*nq*dv floats ([DV, NH, NQ]).
static int run_case(ggml_backend_t be, const char *bname, const struct fa_case *c, const struct fa_inputs *in,
		    float *out)
{
	struct ggml_init_params ip = {ggml_tensor_overhead() * 16 + ggml_graph_overhead(), NULL, true};
	struct ggml_context *ctx = ggml_init(ip);
	if (!ctx) {
		fprintf(stderr, "fa_direct: ggml_init failed\n");
		return -1;
	}
	struct ggml_tensor *q = ggml_new_tensor_4d(ctx, GGML_TYPE_F32, c->dk, c->nq, c->nh, 1);
	struct ggml_tensor *k = ggml_new_tensor_4d(ctx, GGML_TYPE_F16, c->dk, c->kv, c->nhkv, 1);
	struct ggml_tensor *v;
	if (c->mla) {
		const size_t nb1 = (size_t)c->dk * sizeof(ggml_fp16_t), nb2 = nb1 * c->kv, nb3 = nb2 * c->nhkv;
		v = ggml_view_4d(ctx, k, c->dv, c->kv, c->nhkv, 1, nb1, nb2, nb3, 0);
	} else {
		v = ggml_new_tensor_4d(ctx, GGML_TYPE_F16, c->dv, c->kv, c->nhkv, 1);
	}
	struct ggml_tensor *m = ggml_new_tensor_4d(ctx, GGML_TYPE_F16, c->kv, c->nq, 1, 1);
	struct ggml_tensor *fa = ggml_flash_attn_ext(ctx, q, k, v, m, 1.0f / sqrtf((float)c->dk), 0.0f, 0.0f);
	ggml_flash_attn_ext_set_prec(fa, GGML_PREC_F32);
	struct ggml_cgraph *gf = ggml_new_graph(ctx);
	ggml_build_forward_expand(gf, fa);
	ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, be);
	int rc = -1;
	const size_t nout = (size_t)c->dv * c->nh * c->nq;
	if (!buf) {
		fprintf(stderr, "fa_direct: %s: allocation failed\n", bname);
	} else if (ggml_nbytes(fa) != nout * sizeof(float)) {
		fprintf(stderr, "fa_direct: %s: output has %zu bytes, expected %zu\n", bname, ggml_nbytes(fa),
			nout * sizeof(float));
	} else {
		ggml_backend_tensor_set(q, in->q, 0, in->nq * sizeof(float));
		ggml_backend_tensor_set(k, in->k, 0, in->nk * sizeof(ggml_fp16_t));
		if (!c->mla)
			ggml_backend_tensor_set(v, in->v, 0, in->nv * sizeof(ggml_fp16_t));
		ggml_backend_tensor_set(m, in->m, 0, in->nm * sizeof(ggml_fp16_t));
		const enum ggml_status st = ggml_backend_graph_compute(be, gf);
		if (st != GGML_STATUS_SUCCESS) {
			fprintf(stderr, "fa_direct: %s: graph_compute returned %d\n", bname, (int)st);
		} else {
			ggml_backend_tensor_get(fa, out, 0, nout * sizeof(float));
			rc = 0;
		}
	}
	if (buf)
		ggml_backend_buffer_free(buf);
	ggml_free(ctx);
	return rc;
}

// The same attention in double from the same (f32/f16) inputs, no backend:
// out[(r*NH + h)*DV + d] = sum_k e^{x_k - M} V_k[d] / sum_k e^{x_k - M},
// x_k = scale * Q_r . K_k + mask[r][k], K/V head h / (NH/NHKV).
static void reference(const struct fa_case *c, const struct fa_inputs *in, double *out)
{
	const int gqa = c->nh / c->nhkv;
	const double scale = 1.0 / sqrt((double)c->dk);
	double *x = xmalloc((size_t)c->kv * sizeof(double));
	for (int r = 0; r < c->nq; ++r)
		for (int h = 0; h < c->nh; ++h) {
			const float *q = in->q + ((size_t)h * c->nq + r) * c->dk;
			const ggml_fp16_t *kh = in->k + (size_t)(h / gqa) * c->kv * c->dk;
			double mx = -INFINITY, sum = 0.0;
			for (int k = 0; k < c->kv; ++k) {
				double dot = 0.0;
				for (int i = 0; i < c->dk; ++i)
					dot += (double)q[i] * h2d(kh[(size_t)k * c->dk + i]);
				x[k] = scale * dot + h2d(in->m[(size_t)r * c->kv + k]);
				mx = x[k] > mx ? x[k] : mx;
			}
			double *o = out + ((size_t)r * c->nh + h) * c->dv;
			for (int d = 0; d < c->dv; ++d)
				o[d] = 0.0;
			for (int k = 0; k < c->kv; ++k) {
				const double p = exp(x[k] - mx);
				sum += p;
				for (int d = 0; d < c->dv; ++d)
					o[d] += p * (c->mla ? h2d(kh[(size_t)k * c->dk + d])
							    : h2d(in->v[((size_t)(h / gqa) * c->kv + k) * c->dv + d]));
			}
			for (int d = 0; d < c->dv; ++d)
				o[d] /= sum;
		}
	free(x);
}

static int write_file(const char *dir, const struct fa_case *c, const char *ext, const void *p, size_t size,
		      size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/d%d_v%d.%s", dir, c->dk, c->dv, ext);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, size, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "fa_direct: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

static double nmse(const float *ref, const float *x, size_t n)
{
	double e = 0.0, r = 0.0; // test-backend-ops' nmse(): mse(a, b) / mse(a, 0)
	for (size_t i = 0; i < n; ++i) {
		e += ((double)ref[i] - x[i]) * ((double)ref[i] - x[i]);
		r += (double)ref[i] * ref[i];
	}
	return e / r;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc < 3) {
		fprintf(stderr, "usage: fa_direct OUTDIR DK:DV:NH:NHKV:KV:NQ[:mla]...\n");
		return 2;
	}
	ggml_backend_load_all();
	ggml_backend_t gpu = ggml_backend_init_by_name("ROCm0", NULL);
	ggml_backend_t cpu = ggml_backend_init_by_name("CPU", NULL);
	if (!gpu || !cpu) {
		fprintf(stderr, "fa_direct: backend %s not available\n", gpu ? "CPU" : "ROCm0");
		return 1;
	}
	int bad = 0;
	for (int a = 2; a < argc; ++a) {
		struct fa_case c = {0};
		char tail[8] = "";
		const int n = sscanf(argv[a], "%d:%d:%d:%d:%d:%d:%7s", &c.dk, &c.dv, &c.nh, &c.nhkv, &c.kv, &c.nq, tail);
		c.mla = n == 7 && strcmp(tail, "mla") == 0;
		if (n < 6 || (n == 7 && !c.mla) || c.dk <= 0 || c.dv <= 0 || c.nh <= 0 || c.nhkv <= 0 ||
		    c.nh % c.nhkv || c.kv <= 0 || c.nq <= 0 || (c.mla && c.dv > c.dk)) {
			fprintf(stderr, "fa_direct: bad case '%s'\n", argv[a]);
			return 2;
		}
		struct fa_inputs in;
		make_inputs(&c, &in);
		const size_t nout = (size_t)c.dv * c.nh * c.nq;
		float *og = xmalloc(nout * sizeof(float)), *oc = xmalloc(nout * sizeof(float));
		double *ref = xmalloc(nout * sizeof(double));
		reference(&c, &in, ref);
		if (run_case(gpu, "ROCm0", &c, &in, og) || run_case(cpu, "CPU", &c, &in, oc) ||
		    write_file(argv[1], &c, "gpu", og, sizeof(float), nout) ||
		    write_file(argv[1], &c, "cpu", oc, sizeof(float), nout) ||
		    write_file(argv[1], &c, "ref", ref, sizeof(double), nout)) {
			bad++;
		} else {
			printf("case dk=%d dv=%d nh=%d nhkv=%d kv=%d nq=%d%s inputs=%016llx rocm0-vs-cpu nmse=%.3e\n", c.dk,
			       c.dv, c.nh, c.nhkv, c.kv, c.nq, c.mla ? " mla" : "",
			       (unsigned long long)inputs_digest(&in), nmse(oc, og, nout));
		}
		free(og);
		free(oc);
		free(ref);
		free(in.q);
		free(in.k);
		free(in.v);
		free(in.m);
	}
	ggml_backend_free(gpu);
	ggml_backend_free(cpu);
	return bad ? 1 : 0;
}
