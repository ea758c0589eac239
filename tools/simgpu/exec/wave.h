/* SPDX-License-Identifier: MIT */
/*
 * wave.h — the execution engine's internals: the state of a wave and of its
 * workgroup, and the helpers every semantic file uses (operand.c, mem.c).
 * The decoded instruction (struct rdc_inst) and the operand codes are the
 * shared decoder's (include/rdnacompat/isa.h, shim/core/isa_decode.c).
 */
#ifndef RDC_SIMGPU_WAVE_H
#define RDC_SIMGPU_WAVE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "exec.h"
#include "rdnacompat/isa.h"

#define RDC_LANES 64
#define RDC_NSGPR 128

struct rdc_program;

/* One dispatch, shared by the threads that run its workgroups. */
struct rdc_disp {
	const struct rdc_exec_request *req;
	const struct rdc_exec_mem *mem;
	struct rdc_exec_result *res;
	unsigned gfx, wave_size;
	int failed;               /* atomic: a wave failed, every wave stops */
	uint64_t insts;           /* atomic: executed wave-instructions */
	uint64_t budget;          /* wave-instruction limit */
	void *lock;               /* pthread_mutex_t *, for res */
	uint64_t epoch;           /* program.c: pages are checked once per dispatch */
};

/* A workgroup's shared state. */
struct rdc_wg {
	uint8_t *lds;
	uint32_t lds_size;
	unsigned waves, at_barrier, done;
	uint32_t id[3];
};

struct rdc_wave {
	uint32_t s[RDC_NSGPR];   /* by operand code: SGPRs, VCC, TTMP, M0, NULL, EXEC */
	bool scc;
	bool done, at_barrier, failed;
	unsigned n;              /* lanes: 32 or 64 */
	unsigned gfx;            /* 10 or 11 */
	uint64_t pc;             /* byte address of the next instruction */
	uint32_t (*v)[RDC_LANES];/* VGPRs: v[reg][lane] */
	unsigned nvgpr;
	uint32_t mode;           /* HW_REG_MODE (round, denorm, ieee, dx10 clamp) */
	uint8_t *priv;           /* per-lane private memory: lane L at priv + L * priv_size */
	uint32_t priv_size;
	struct rdc_wg *wg;
	const struct rdc_exec_mem *mem;
	struct rdc_disp *disp;
	const struct rdc_inst *cur;  /* the instruction being executed */
	struct rdc_exec_range cache; /* last range found (translation cache) */
	uint64_t insts;          /* executed since the worker last collected them */
	uint64_t ran;            /* executed in all, against the budget */
	uint32_t trapsts;
	uint64_t wave_id;        /* within the dispatch */
	uint64_t dpp_off;        /* lanes the current DPP source leaves unwritten */
	void *page;              /* program.c: the code page last executed, */
	uint64_t code_va;        /* its address, */
	const uint8_t *code_ready;        /* its slots' "decoded" flags */
	const struct rdc_inst *code_slot; /* and slots (NULL: none yet) */
};

static inline float rdc_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t rdc_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
/* f32 -> i32/u32 as v_cvt_*_f32 and s_cvt_*_f32 convert: NaN gives 0,
 * out-of-range values saturate, the rest truncate toward zero. */
static inline int32_t rdc_cvt_i32_f32(float a)
{
	if (isnan(a))
		return 0;
	if (a >= 2147483647.0f)
		return INT32_MAX;
	if (a <= -2147483648.0f)
		return INT32_MIN;
	return (int32_t)a;
}
static inline uint32_t rdc_cvt_u32_f32(float a)
{
	if (isnan(a) || a <= 0.0f)
		return 0;
	if (a >= 4294967295.0f)
		return UINT32_MAX;
	return (uint32_t)a;
}
static inline uint32_t rdc_brev32(uint32_t x)
{
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
	x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
	return (x >> 16) | (x << 16);
}
static inline uint64_t rdc_brev64(uint64_t x)
{
	return (uint64_t)rdc_brev32((uint32_t)x) << 32 | rdc_brev32((uint32_t)(x >> 32));
}
static inline double rdc_u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t rdc_d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* v_min/v_max (f32, f64) as the ISA guides' pseudocode writes them for
 * IEEE mode: a signaling NaN operand gives that NaN quieted (S0 first),
 * a quiet NaN gives the other operand, and -0 counts as less than +0. */
static inline bool rdc_snanf(float a) { uint32_t u = rdc_f2u(a); return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) && !(u & 0x400000u); }
static inline bool rdc_snand(double a) { uint64_t u = rdc_d2u(a); return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (u & 0xfffffffffffffull) && !(u & 0x8000000000000ull); }
static inline float rdc_nanpickf(float a, float b)
{
	if (rdc_snanf(a))
		return rdc_u2f(rdc_f2u(a) | 0x400000u);
	if (rdc_snanf(b))
		return rdc_u2f(rdc_f2u(b) | 0x400000u);
	return isnan(b) ? a : b;
}
static inline double rdc_nanpickd(double a, double b)
{
	if (rdc_snand(a))
		return rdc_u2d(rdc_d2u(a) | 0x8000000000000ull);
	if (rdc_snand(b))
		return rdc_u2d(rdc_d2u(b) | 0x8000000000000ull);
	return isnan(b) ? a : b;
}
static inline float rdc_minf(float a, float b)
{
	if (__builtin_expect(isnan(a) || isnan(b), 0))
		return rdc_nanpickf(a, b);
	return a < b ? a : b < a ? b : signbit(a) ? a : b;
}
static inline float rdc_maxf(float a, float b)
{
	if (__builtin_expect(isnan(a) || isnan(b), 0))
		return rdc_nanpickf(a, b);
	return a > b ? a : b > a ? b : signbit(a) ? b : a;
}
static inline double rdc_mind(double a, double b)
{
	if (__builtin_expect(isnan(a) || isnan(b), 0))
		return rdc_nanpickd(a, b);
	return a < b ? a : b < a ? b : signbit(a) ? a : b;
}
static inline double rdc_maxd(double a, double b)
{
	if (__builtin_expect(isnan(a) || isnan(b), 0))
		return rdc_nanpickd(a, b);
	return a > b ? a : b > a ? b : signbit(a) ? b : a;
}

static inline uint64_t rdc_exec_mask(const struct rdc_wave *w)
{
	return w->n == 64 ? ((uint64_t)w->s[127] << 32 | w->s[126]) : w->s[126];
}
static inline void rdc_set_exec(struct rdc_wave *w, uint64_t m)
{
	w->s[126] = (uint32_t)m;
	w->s[127] = w->n == 64 ? (uint32_t)(m >> 32) : 0;
}
static inline uint64_t rdc_lanemask(const struct rdc_wave *w)
{
	return w->n == 64 ? ~0ull : 0xffffffffull;
}

/* operand.c — scalar operands (SOP*, SMEM, readlane...). */
uint32_t rdc_sread(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t opd);
uint64_t rdc_sread64(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t opd, bool f64);
void rdc_swrite(struct rdc_wave *w, uint16_t opd, uint32_t v);
void rdc_swrite64(struct rdc_wave *w, uint16_t opd, uint64_t v);
/* A lane mask (VCC, SGPR pair in wave64, one SGPR in wave32) as 64 bits. */
uint64_t rdc_sread_mask(const struct rdc_wave *w, const struct rdc_inst *in, uint16_t opd);
void rdc_swrite_mask(struct rdc_wave *w, uint16_t opd, uint64_t m);

/* operand.c — vector sources, per lane (n lanes), before modifiers.  k is
 * the source index (0..2); DPP/SDWA apply to source 0 (and SDWA's 1).  The
 * 16-bit form takes op_sel (VOP3) / SDWA word select / true16 halves. */
enum rdc_ty { RDC_TY_B32, RDC_TY_F32, RDC_TY_F16, RDC_TY_F64, RDC_TY_B16 };
void rdc_vsrc32(const struct rdc_wave *w, const struct rdc_inst *in, int k, enum rdc_ty ty, uint32_t *out);
void rdc_vsrc64(const struct rdc_wave *w, const struct rdc_inst *in, int k, bool f64, uint64_t *out);
void rdc_vsrcf(const struct rdc_wave *w, const struct rdc_inst *in, int k, float *out);   /* f32, abs/neg */
void rdc_vsrcd(const struct rdc_wave *w, const struct rdc_inst *in, int k, double *out);  /* f64, abs/neg */
void rdc_vsrch(const struct rdc_wave *w, const struct rdc_inst *in, int k, float *out);   /* f16 -> float, op_sel, abs/neg */
void rdc_vsrc16(const struct rdc_wave *w, const struct rdc_inst *in, int k, uint16_t *out); /* raw 16 bits, op_sel */
/* Destinations: active lanes only (EXEC), VOP3 clamp/omod for the float forms,
 * SDWA dst_sel/dst_unused, true16/op_sel[3] halves for the 16-bit form. */
void rdc_vdst32(struct rdc_wave *w, const struct rdc_inst *in, const uint32_t *val);
void rdc_vdst64(struct rdc_wave *w, const struct rdc_inst *in, const uint64_t *val);
void rdc_vdstf(struct rdc_wave *w, const struct rdc_inst *in, float *val);
void rdc_vdstd(struct rdc_wave *w, const struct rdc_inst *in, double *val);
void rdc_vdsth(struct rdc_wave *w, const struct rdc_inst *in, const float *val); /* float -> f16 */
void rdc_vdst16(struct rdc_wave *w, const struct rdc_inst *in, const uint16_t *val);
/* The VGPR a VGPR operand code names (RDC_OPD_VGPR + r), wrapped to the
 * file.  Inline: memory and LDS handlers call it per lane. */
static inline uint32_t *rdc_vreg(const struct rdc_wave *w, uint16_t opd)
{
	unsigned r = (unsigned)(opd - RDC_OPD_VGPR);
	return w->v[r < w->nvgpr ? r : r % w->nvgpr];
}

/* Fast paths for element-wise operations (inline; the general cases are
 * operand.c's rdc_vsrc32/rdc_vsrcf/rdc_vdst32/rdc_vdstf): a source that is a
 * plain VGPR (no DPP/SDWA, no abs/neg) is read in place — the returned
 * pointer is the register itself — else it is computed into tmp.  The
 * destination may be written in place when every lane is active and no
 * modifier applies: rdc_vdst*_begin returns the register or tmp, and
 * rdc_vdst*_end writes tmp back with EXEC and the modifiers.  Only for
 * operations where lane l of the result depends on lane l of the sources. */
static inline bool rdc_src_plain(const struct rdc_inst *in, int k)
{
	if (in->src[k] < RDC_OPD_VGPR)
		return false;
	if (k == 0 && (in->enc == RDC_ENC_DPP16 || in->enc == RDC_ENC_DPP8))
		return false;
	return in->enc != RDC_ENC_SDWA;
}
static inline bool rdc_dst_direct(const struct rdc_wave *w, const struct rdc_inst *in)
{
	return in->enc != RDC_ENC_SDWA && !in->omod && !in->clamp && !w->dpp_off &&
	       rdc_exec_mask(w) == rdc_lanemask(w);
}
static inline const uint32_t *rdc_vsrc32_p(const struct rdc_wave *w, const struct rdc_inst *in, int k,
					   enum rdc_ty ty, uint32_t *tmp)
{
	if (rdc_src_plain(in, k))
		return rdc_vreg(w, in->src[k]);
	rdc_vsrc32(w, in, k, ty, tmp);
	return tmp;
}
static inline const float *rdc_vsrcf_p(const struct rdc_wave *w, const struct rdc_inst *in, int k, float *tmp)
{
	if (rdc_src_plain(in, k) && !((in->abs | in->neg) >> k & 1))
		return (const float *)rdc_vreg(w, in->src[k]);
	rdc_vsrcf(w, in, k, tmp);
	return tmp;
}
static inline uint32_t *rdc_vdst32_begin(struct rdc_wave *w, const struct rdc_inst *in, uint32_t *tmp)
{
	return rdc_dst_direct(w, in) ? rdc_vreg(w, in->dst) : tmp;
}
static inline void rdc_vdst32_end(struct rdc_wave *w, const struct rdc_inst *in, uint32_t *d, uint32_t *tmp)
{
	if (d == tmp)
		rdc_vdst32(w, in, tmp);
}
static inline float *rdc_vdstf_begin(struct rdc_wave *w, const struct rdc_inst *in, float *tmp)
{
	return rdc_dst_direct(w, in) ? (float *)rdc_vreg(w, in->dst) : tmp;
}
static inline void rdc_vdstf_end(struct rdc_wave *w, const struct rdc_inst *in, float *d, float *tmp)
{
	if (d == tmp)
		rdc_vdstf(w, in, tmp);
}

/* mem.c — GPU memory by address: the CPU pointer of [va, va+len), or NULL
 * after recording a fault (w->failed).  Private and LDS apertures of flat
 * addresses are resolved by rdc_flat_ptr. */
uint8_t *rdc_gptr_slow(struct rdc_wave *w, uint64_t va, uint32_t len, bool write);
static inline uint8_t *rdc_gptr(struct rdc_wave *w, uint64_t va, uint32_t len, bool write)
{
	const struct rdc_exec_range *c = &w->cache; /* the last buffer object hit */
	if (c->cpu && va >= c->base && va - c->base <= c->size && len <= c->size - (va - c->base))
		return c->cpu + (va - c->base);
	return rdc_gptr_slow(w, va, len, write);
}
uint8_t *rdc_gpeek(struct rdc_wave *w, uint64_t va, uint32_t len); /* no fault */
uint8_t *rdc_flat_ptr(struct rdc_wave *w, unsigned lane, uint64_t va, uint32_t len, bool write);
uint8_t *rdc_priv_ptr(struct rdc_wave *w, unsigned lane, uint64_t addr, uint32_t len);
uint8_t *rdc_lds_ptr(struct rdc_wave *w, uint64_t addr, uint32_t len);

/* buffmt.c — typed buffer data formats (MTBUF format, V# FORMAT). */
enum { RDC_BF_UNORM, RDC_BF_SNORM, RDC_BF_USCALED, RDC_BF_SSCALED, RDC_BF_UINT, RDC_BF_SINT, RDC_BF_FLOAT };
struct rdc_buffmt {
	uint8_t valid, n, bytes, type;   /* components, element size, RDC_BF_* */
	uint8_t bits[4], shift[4];       /* X first: width and bit position */
};
/* One component: a float-typed value (isf: f, exact) or an integer (u);
 * raw: u holds the 32 bits of a float as they are. */
struct rdc_bfval { bool isf, raw; double f; uint32_t u; };
const struct rdc_buffmt *rdc_buffmt(unsigned gfx, unsigned value); /* NULL: invalid */
bool rdc_buffmt_isfloat(const struct rdc_buffmt *f);
/* Element -> (x, y, z, w), the missing components (0, 0, 0, 1). */
void rdc_buffmt_unpack(const struct rdc_buffmt *f, const uint8_t *el, struct rdc_bfval out[4]);
/* (x, y, z, w) -> element (f->bytes bytes). */
void rdc_buffmt_pack(const struct rdc_buffmt *f, const struct rdc_bfval in[4], uint8_t *el);
uint16_t rdc_buffmt_d2h(double v);  /* binary16, nearest even */
double rdc_buffmt_h2d(uint16_t h);

/* Failing the dispatch: the first failure wins; the wave stops. */
void rdc_fail(struct rdc_wave *w, enum rdc_exec_status st, const struct rdc_inst *in, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* sem_*.c — each family's handler for an operation, or NULL. */
rdc_sem_fn rdc_sem_salu(uint16_t op);
rdc_sem_fn rdc_sem_sfloat(uint16_t op); /* gfx1150/1151 scalar float */
rdc_sem_fn rdc_sem_sctl(uint16_t op);
rdc_sem_fn rdc_sem_smem(uint16_t op);
rdc_sem_fn rdc_sem_valu(uint16_t op);
rdc_sem_fn rdc_sem_vcmp(uint16_t op);
rdc_sem_fn rdc_sem_v16(uint16_t op);
rdc_sem_fn rdc_sem_vmem(uint16_t op);
rdc_sem_fn rdc_sem_lds(uint16_t op);
rdc_sem_fn rdc_sem_vmedia(uint16_t op); /* sad, lerp, cube, cvt_pk_u8 */
rdc_sem_fn rdc_sem_image(uint16_t op);  /* image load/store/sample/gather4/resinfo (sem_image.c) */
rdc_sem_fn rdc_sem_lookup(uint16_t op); /* all families */
rdc_sem_fn rdc_sem_vopd(void);          /* a VOPD pair (sem_valu.c) */

/* scope.c — why the engine leaves op out on purpose, or NULL when it does not. */
const char *rdc_exec_scope(uint16_t op);

/* decode_sem.c: rdc_isa_decode (shim/core/isa_decode.c, the decoder the shim
 * and inspect share) and in->fn filled from the semantic core; 0 on success,
 * -1 when the word is no instruction this engine executes. */
int rdc_decode(unsigned gfx, const uint8_t *code, size_t avail, struct rdc_inst *in);

/* disasm.c — the decoded fields as one line ("MNEMONIC op=OP fmt=F dst=v0
 * src0=s1 ..."), for tests and tools; 0, or -1 when n was too small. */
int rdc_disasm(unsigned gfx, const struct rdc_inst *in, char *buf, size_t n);

/* program.c — decoded code around a PC, cached per code object range. */
const struct rdc_inst *rdc_program_at(struct rdc_wave *w, uint64_t pc);
uint64_t rdc_program_epoch(void); /* a new dispatch's epoch */
/* The common case inline: pc in the wave's current page, already decoded. */
static inline const struct rdc_inst *rdc_program_next(struct rdc_wave *w, uint64_t pc)
{
	uint64_t off = pc - w->code_va;
	if (w->code_slot && off < 4096 && !(off & 3) && __atomic_load_n(&w->code_ready[off / 4], __ATOMIC_ACQUIRE))
		return &w->code_slot[off / 4];
	return rdc_program_at(w, pc);
}

#endif
