/* SPDX-License-Identifier: MIT */
/*
 * selftest.h — `rdnacompat doctor --selftest`: numeric checks run on the
 * card through the shim, each in a child process (docs/SIMGPU.md "The self-test").
 *   selftest.c      the parent: which GPU, the shim, one child per check
 *                   (timeout, crash = a failed check), ggml's own test,
 *                   text/JSON output, exit status
 *   selftest_run.c  the child: dlopen'ed HIP (and rocBLAS), one check,
 *                   its record written to fd RDC_ST_FD
 *   selftest_ref.c  CPU references (f16 conversions, attention in double)
 *   selftest_log.c  the code object a check ran from, from the shim's log
 */
#ifndef RDC_TOOL_SELFTEST_H
#define RDC_TOOL_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The child writes its records here (the parent's pipe). */
#define RDC_ST_FD 3

enum rdc_st_status { RDC_ST_PASS = 0, RDC_ST_FAIL, RDC_ST_SKIP, RDC_ST_NORUN };

/* One result, as the child writes it (fixed size, one write). */
struct rdc_st_rec {
	char id[32];               /* "saxpy", "fattn-split", ... */
	int status;                /* enum rdc_st_status */
	double max_err;            /* measured (NaN when none) */
	double tol;                /* allowed */
	char err_kind[16];         /* "abs", "rel", "ulp" */
	char detail[400];          /* what was run, or why it failed / was skipped */
};

/* Child exit codes besides 0. */
#define RDC_ST_EXIT_NOHIP 20       /* no HIP runtime to dlopen */
#define RDC_ST_EXIT_NOINIT 21      /* hipInit / device 0 failed */
#define RDC_ST_EXIT_USAGE 22

/* The child: runs check `name` and writes its records to RDC_ST_FD.
 * Returns the process exit code. */
int rdc_selftest_child(const char *name);

/* The parent: `doctor --selftest [--json]`.  Returns the exit status. */
int rdc_selftest_main(bool json);

/* What the shim's JSON log `log` says about the module loads on device 0
 * ("gfx1030 code retargeted to gfx1031"); shim: whether it was preloaded. */
void rdc_st_code_from_log(const char *log, bool shim, char *out, size_t n);

/* The checks a child knows, in the order they run. */
extern const char *const rdc_st_checks[];

/* ---- CPU references (selftest_ref.c) ---- */
float rdc_st_h2f(uint16_t h);
uint16_t rdc_st_f2h(double x);   /* round to nearest even; x must be finite */
/* out[(row*H + h)*DV + d] = softmax_k(scale * q.k) v in double, for Q f32
 * [H][L][DKQ], K f16 [H][S][DKQ], V f16 [H][S][DV] (one sequence). */
void rdc_st_attn_ref(const float *q, const uint16_t *k, const uint16_t *v, int H, int L, int S, int dkq,
		     int dv, double scale, double *out);
/* A deterministic generator (xorshift) for test data. */
uint32_t rdc_st_rand(uint32_t *s);
float rdc_st_randf(uint32_t *s, float lo, float hi);

#endif
