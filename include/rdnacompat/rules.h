/* SPDX-License-Identifier: MIT */
/*
 * rules.h — the kernel rules of tables/kernels.tsv (docs/RULES.md): which
 * rule, if any, applies to one kernel of one code object on one device under
 * one HIP runtime; the descriptor-derived occupancy the `occupancy` action
 * answers with; the .args layout comparison a `fallback` needs; and the
 * helpers a client needs to build the subject (demangling, SHA-256).
 *
 * Pure: names and bytes in, a rule (or a number) out.  The rows themselves
 * are struct rdc_kernel_rule in rdnacompat/tables.h, parsed and validated by
 * the table parser (tables_parse.c with the field checks of rules_parse.c).
 */
#ifndef RDNACOMPAT_RULES_H
#define RDNACOMPAT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdnacompat/codeobj.h"
#include "rdnacompat/error.h"
#include "rdnacompat/tables.h"

/* What a rule is matched against: one kernel as loaded for one device. */
struct rdc_rule_subject {
	const char *name;          /* the kernel symbol (mangled, without ".kd") */
	const char *demangled;     /* its demangled form, NULL if none */
	const char *lib;           /* path or file name of the library (or program) the code
				      object came from; NULL: unknown (scoped-by-library
				      rules do not match) */
	const uint8_t *sha256;     /* 32 bytes, SHA-256 of the code object; NULL: unknown */
	const char *device;        /* the device's true processor ("gfx1031") */
	uint32_t runtime;          /* HIP runtime version (HIP_VERSION encoding); 0: unknown
				      (only rows with runtime "*" match) */
	bool runtime_later;        /* do not check runtime ranges now: the client checks
				      rdc_rule_runtime_ok once it knows the version (the shim
				      cannot ask HIP at registration without starting it) */
	bool provisional;          /* also apply rows marked provisional */
};

/* The rules that apply, one per action kind: the first matching user row
 * (RDNACOMPAT_TABLES) of each kind, else the first matching built-in row.
 * A user's rules are never silently defeated by built-in ones:
 *   - a user `allow` row cancels every other row: `allow` set, the other
 *     three NULL;
 *   - a built-in `allow` row cancels the built-in rows only: when no user
 *     row matches, `allow` set and the other three NULL; when user rows
 *     match, they apply (`allow` NULL) and `overruled` names the built-in
 *     allow row they won over, for the client to say. */
struct rdc_rule_match {
	const struct rdc_kernel_rule *allow;
	const struct rdc_kernel_rule *deny;
	const struct rdc_kernel_rule *fallback;
	const struct rdc_kernel_rule *occupancy;
	const struct rdc_kernel_rule *prefer;   /* decided per code object at load
						   (rdc_policy_prefer), not per kernel */
	const struct rdc_kernel_rule *overruled;
	/* When no fallback row applies: the first fallback row scoped to
	 * code-object hashes that matches in everything but the hash (the
	 * user's before the built-in ones; none under an allow).  The rows name
	 * the builds whose launch contract was checked; this code object is
	 * another build, so the fallback is not used (the client says so, once
	 * per code object) and the other rows (occupancy) apply as they are.
	 * Not counted in the return value. */
	const struct rdc_kernel_rule *unchecked;
};

/* Fill *m for subject *s.  Returns the number of non-NULL entries among
 * deny, fallback and occupancy — what a kernel needs at lookup, query and
 * launch (0: nothing to do; a `prefer` row acts when the code object is
 * chosen, so it is not counted) — or RDC_E_INVAL for NULL arguments or a
 * subject without name/device. */
int rdc_rules_match(const struct rdc_tables *t, const struct rdc_rule_subject *s,
		    struct rdc_rule_match *m);

/* Does any rule (allow rows aside) possibly concern `device` under
 * `runtime` (0: not known yet; every range counts)?  Lets a client skip all
 * per-kernel work for a code object.  Pure; false for NULL arguments. */
bool rdc_rules_any_for(const struct rdc_tables *t, const char *device, uint32_t runtime,
		       bool provisional);

/* Does any `prefer` row possibly concern `device` and a code object of
 * library `lib` (its file name; NULL: unknown, so library-scoped rows do
 * not) under `runtime` (0: not known; every range counts)?  Pure. */
bool rdc_rules_prefer_any(const struct rdc_tables *t, const char *device, const char *lib,
			  uint32_t runtime, bool provisional);
/* Could any row (allow rows too) apply to some kernel of the subject's code
 * object: one whose status, targets, runtime range and library scope admit
 * the subject, its symbol and any sha256 scope aside?  When none does, no
 * kernel of it needs a name demangled, a hash or a match.  s->name may be
 * NULL.  Pure; false for NULL arguments. */
bool rdc_rules_any_admit(const struct rdc_tables *t, const struct rdc_rule_subject *s);

/* What rdc_rules_match(t, s) needs that s does not carry, so that a client
 * computes it only then (the answer is the same as with everything given):
 *   RDC_RULES_NEED_DEMANGLED  a row that admits s and whose pattern does not
 *                             match the mangled name could match the
 *                             demangled one (s->demangled NULL, name mangled);
 *   RDC_RULES_NEED_SHA256     a sha256-scoped row that admits s could match
 *                             its name (s->sha256 NULL).
 * Ask again after demangling: the hash may no longer be needed.  Pure. */
enum { RDC_RULES_NEED_DEMANGLED = 1, RDC_RULES_NEED_SHA256 = 2 };
unsigned rdc_rules_needs(const struct rdc_tables *t, const struct rdc_rule_subject *s);

/* Is `runtime` within r's range ("*" rows: always; others need runtime > 0)? */
bool rdc_rule_runtime_ok(const struct rdc_kernel_rule *r, uint32_t runtime);

/* "occupancy", "fallback", "deny", "allow", "prefer"; "?" otherwise. */
const char *rdc_rule_action_name(int action);

/* ---- field syntax (shared by the table parser and the tests) ------------ */
/* Each returns 0 or RDC_E_FORMAT with a one-line reason in err. */
int rdc_rule_parse_runtime(const char *s, uint32_t *min, uint32_t *max, char *err, size_t n);
/* scope: "*", "<glob>", "sha256:<64 hex>" or "<glob>+sha256:<64 hex>".
 * *lib_len / *sha_off: the library glob's length (0: none) and the offset of
 * the hex digits in s (0: none). */
int rdc_rule_parse_scope(const char *s, size_t *lib_len, size_t *sha_off, char *err, size_t n);
/* action: occupancy | deny | allow | fallback:<C identifier> |
 * prefer:<processor>.  *name_off: offset of the fallback kernel's or the
 * processor's name in s (0: none). */
int rdc_rule_parse_action(const char *s, int *action, size_t *name_off, char *err, size_t n);
/* "7.1" -> 70100000, "5.2.21153" -> 50221153 (HIP_VERSION encoding); -1 bad. */
long long rdc_rule_version(const char *s, size_t len);

/* ---- subject helpers ----------------------------------------------------- */
/* Demangle an Itanium C++ name into buf (libiberty's cplus_demangle_v3
 * callback form: no allocation).  Returns 0, RDC_E_FORMAT when `name` is not
 * a mangled name, or RDC_E_RANGE when buf is too small (buf then holds a
 * truncated, NUL-terminated prefix). */
int rdc_demangle(const char *name, char *buf, size_t n);

/* SHA-256 of n bytes (nettle). */
void rdc_sha256(const void *p, size_t n, uint8_t out[32]);
/* 64 lowercase hex digits + NUL. */
void rdc_sha256_hex(const uint8_t sum[32], char out[65]);

/* ---- the `occupancy` action ---------------------------------------------- */
/* Blocks of `block_threads` threads with `dyn_lds` bytes of dynamic LDS that
 * fit one multiprocessor as HIP counts them (a WGP for a WGP-mode kernel on
 * gfx10+, a CU otherwise), from the kernel descriptor (VGPR count and the
 * device's granule, wave size, WGP/CU mode; metadata counts when there is no
 * descriptor) and the device's true limits (VGPR file, waves per SIMD, LDS;
 * SGPRs limit waves on pre-gfx10 only: 800 per SIMD, granule 16): the same
 * arithmetic as the policy's per-kernel check.  *blocks is 0 when one block
 * cannot run at all (too many threads for the kernel or the device, LDS
 * over the device's, registers over the file).  Returns 0 or RDC_E_INVAL. */
int rdc_rules_occupancy(const struct rdc_isa *dev, const struct rdc_kernel *k,
			uint32_t block_threads, uint64_t dyn_lds, uint32_t *blocks);

/* ---- the `fallback` action's precondition -------------------------------- */
/* Do two kernels declare the same kernarg layout: segment size and
 * alignment, and every .args entry's offset, size and value kind (hidden
 * arguments included), in order?  Returns 0 when equal, else 1 and a
 * one-line description of the first difference in why ("entry 22: offset
 * 152 size 8 by_value vs offset 148 size 4 by_value"). */
int rdc_rules_args_equal(const struct rdc_kernel *a, const struct rdc_kernel *b, char *why,
			 size_t n);

#endif
