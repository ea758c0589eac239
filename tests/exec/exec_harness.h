/* SPDX-License-Identifier: MIT */
/*
 * exec_harness.h — single-instruction tests of the execution engine
 * (tools/simgpu/exec), without HIP and without the simulator.
 *
 * A test is a snippet of assembly (the instructions under test) that
 * exec_harness.c wraps into a kernel: it loads nin dwords per lane from
 * the input buffer into v1..v[nin], the nout dwords of the output buffer
 * into v40..v[39+nout] (their initial values), runs the snippet, stores
 * v40.. back and ends.  The kernel is assembled at test time by
 * llvm-mc-19 for gfx1030 and/or gfx1100, put behind a kernel descriptor
 * built here and run through rdc_exec_dispatch on one wave32 workgroup
 * of 32 lanes (XT_W64 in gens: one wave64 whose lanes 32-63 hold no
 * work-item and start inactive).  Each lane's outputs are compared with ref(), which the
 * test writes from the ISA guide's definition of the instruction — never
 * from the engine's own helpers.
 */
#ifndef RDC_TESTS_EXEC_HARNESS_H
#define RDC_TESTS_EXEC_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#define XT_LANES 32
#define XT_G10 1u
#define XT_G11 2u
#define XT_BOTH (XT_G10 | XT_G11)
#define XT_W64 4u /* in gens: run as one wave64 (lanes 32-63 inactive), not wave32 */
#define XT_MAXIN 32
#define XT_MAXOUT 32

struct xt_ctx {
	unsigned gfx;            /* 10 or 11 */
	unsigned nin, nout;
	const uint32_t *in;      /* all lanes: in[lane * nin + k] */
};

enum xt_tol {
	XT_EXACT = 0,
	XT_H1,   /* each 16-bit half: within 1 f16 ulp (transcendentals) */
	XT_F64NAN, /* exact, but an f64 NaN (output dwords 2i, 2i+1) matches any NaN */
	XT_FNAN, /* exact, but an f32 NaN matches any NaN */
	XT_F1,   /* f32: within 1 ulp (the guides' bound for v_rcp/v_rsq/v_sqrt/v_exp/v_log_f32),
		  * +0 and -0 alike, a NaN matches any NaN; infinities and zeros stay exact */
};

struct xt_test {
	const char *name;
	unsigned gens;           /* XT_G10 | XT_G11, XT_W64 */
	const char *body10;      /* the snippet for gfx1030 */
	const char *body11;      /* for gfx1100 (NULL: body10) */
	const char *mattr11;     /* extra -mattr for gfx1100 ("+real-true16"), or NULL */
	unsigned nin, nout;
	/* inputs and the outputs' initial values of one lane (NULL: xt_init_h) */
	void (*init)(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout);
	/* the expected outputs of one lane; out holds the initial values */
	void (*ref)(const struct xt_ctx *c, unsigned lane, uint32_t *out);
	enum xt_tol tol;
};

/* Pseudo-random numbers, deterministic per (lane, index). */
uint32_t xt_rand(unsigned lane, unsigned k, unsigned salt);

/* Reference binary16 / bfloat16 conversions, written from IEEE 754's
 * definition of the formats (round to nearest, ties to even). */
double xt_h2d(uint16_t h);
uint16_t xt_d2h(long double v);
double xt_bf2d(uint16_t b);
uint16_t xt_d2bf(double v);

/* Common initialisers: random f16 values in both halves (lanes 0-3 hold
 * signed zeros, ones, denormals and the largest f16), random dwords,
 * random f32 values. */
void xt_init_h(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout);
void xt_init_u(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout);
void xt_init_f(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout);

static inline uint16_t xt_lo(uint32_t v) { return (uint16_t)v; }
static inline uint16_t xt_hi(uint32_t v) { return (uint16_t)(v >> 16); }
static inline uint32_t xt_setlo(uint32_t old, uint16_t v) { return (old & 0xffff0000u) | v; }
static inline uint32_t xt_sethi(uint32_t old, uint16_t v) { return (old & 0xffffu) | (uint32_t)v << 16; }
float xt_u2f(uint32_t u);
uint32_t xt_f2u(float f);

/* The tests (exec_tests_v16.c). */
extern const struct xt_test xt_tests_v16[];
extern const unsigned xt_ntests_v16;
extern const struct xt_test xt_tests_valu[];
extern const unsigned xt_ntests_valu;
extern const struct xt_test xt_tests_f64[];   /* exec_tests_f64.c */
extern const unsigned xt_ntests_f64;
extern const struct xt_test xt_tests_rare[];  /* exec_tests_rare.c */
extern const unsigned xt_ntests_rare;
extern const struct xt_test xt_tests_buf[];   /* exec_tests_buf.c */
extern const unsigned xt_ntests_buf;
extern const struct xt_test xt_tests_salu[];  /* exec_tests_salu.c */
extern const unsigned xt_ntests_salu;
extern const struct xt_test xt_tests_salu2[];  /* exec_tests_salu_2.c */
extern const unsigned xt_ntests_salu2;
/* Tests whose dispatch must end with a given status instead of completing
 * (s_trap, s_code_end); what the snippet stored before is compared as
 * usual, and the body counts as tested when both match. */
struct xt_status_test {
	struct xt_test t;
	int status;              /* enum rdc_exec_status */
};
extern const struct xt_status_test xt_status_tests_salu[];  /* exec_tests_salu_2.c */
extern const unsigned xt_nstatus_tests_salu;
void xt_salu_setup(void); /* builds exec_tests_salu.c's table-driven snippets (before any test runs) */
extern const struct xt_test xt_tests_vop[];  /* exec_tests_vop.c */
extern const unsigned xt_ntests_vop;
extern const struct xt_test xt_tests_vop_2[];  /* exec_tests_vop_2.c */
extern const unsigned xt_ntests_vop_2;
/* exec_tests_vop.c's inputs, shared with exec_tests_vop_2.c: edge integers
 * and edge floats in rotating combinations; one of the edge floats */
void xt_init_vop_int(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout);
void xt_init_vop_flt(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout);
uint32_t xt_vop_edge_f(unsigned i);
extern const struct xt_test xt_tests_vcmp[];  /* exec_tests_vcmp.c */
extern const unsigned xt_ntests_vcmp;
extern const struct xt_test xt_tests_ds[];  /* exec_tests_ds.c */
extern const unsigned xt_ntests_ds;
extern const struct xt_test xt_tests_mubuf[];  /* exec_tests_mubuf.c */
extern const unsigned xt_ntests_mubuf;
extern const struct xt_test xt_tests_image[];  /* exec_tests_image.c */
extern const unsigned xt_ntests_image;
extern const struct xt_test xt_tests_flat[];  /* exec_tests_flat.c */
extern const unsigned xt_ntests_flat;

/* exec_optable.c — the opcode table's check (0 pass, 1 fail): tested10/11
 * are indexed by enum rdc_op; notyet is tests/exec/not-yet.txt; out_md, if
 * not NULL, receives the table in Markdown. */
int xt_optable(const bool *tested10, const bool *tested11, const char *notyet, const char *out_md);

#endif
