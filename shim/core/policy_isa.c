/* SPDX-License-Identifier: MIT */
/*
 * policy_isa.c — the compat conditions that a missing hardware workaround
 * makes per-kernel, decided from the instructions each kernel contains
 * (isa_class.c, the one decoder):
 *
 *   point-sample   the card has LLVM's FeaturePointSampleAccel (gfx1150,
 *                  gfx1151, gfx1152) and the code lacks its waits: kernels
 *                  with image sample / gather4 instructions are refused
 *                  (llvm-project #127991, LLVM 21; issue #139880).
 *   msaa-load      the card needs MSAALoadDstSelBug's workaround: kernels
 *                  with image_msaa_load are refused.
 *   mad-intra-fwd  the card needs MADIntraFwdBug's workaround (wrong
 *                  v_mad_u64_u32 / v_mad_i64_i32 results) and the code's
 *                  producer may predate llvm-project #89936 (2024-04, which
 *                  added it to gfx11-generic): kernels with those
 *                  instructions are refused unless the producer is known to
 *                  be after the fix (rdc_pol_producer_has_mad_fix).
 *
 * Also: every condition word must be one the policy evaluates; an unknown
 * word refuses the edge (never ignored).  Pure.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy_internal.h"
#include "rdnacompat/isa_class.h"

/* The words of an edge condition and what they mean to the policy. */
static const struct {
	const char *word;
	unsigned classes;    /* instruction classes it protects, 0: none */
	const char *feature; /* LLVM's workaround feature */
	const char *why;     /* LLVM's reason */
} words[] = {
	{ "none", 0, NULL, NULL },
	{ "vgpr-fit", 0, NULL, NULL },      /* the per-kernel register check, always done */
	{ "user-sgpr-16", 0, NULL, NULL },  /* policy_check.c */
	{ "opt-in", 0, NULL, NULL },        /* policy.c */
	{ "point-sample", 1u << RDC_ISA_SAMPLE, "PointSampleAccel",
	  "samples may return out of order here and the code lacks LLVM's waits (llvm-project #127991, #139880)" },
	{ "msaa-load", 1u << RDC_ISA_MSAA_LOAD, "MSAALoadDstSelBug",
	  "the code lacks LLVM's workaround for MSAA loads on this card (AMDGPU.td)" },
	{ "mad-intra-fwd", 1u << RDC_ISA_MAD64, "MADIntraFwdBug",
	  "wrong results here without LLVM's workaround (llvm-project #89936, 2024-04)" },
};
#define NWORDS (sizeof words / sizeof words[0])

bool rdc_pol_cond_known(const char *cond, char *bad, size_t n)
{
	if (!cond || !*cond)
		return true;
	for (const char *p = cond; *p;) {
		const char *q = strchr(p, '+');
		size_t l = q ? (size_t)(q - p) : strlen(p);
		bool ok = false;
		for (size_t i = 0; i < NWORDS && !ok; i++)
			ok = strlen(words[i].word) == l && !strncmp(words[i].word, p, l);
		if (!ok) {
			snprintf(bad, n, "%.*s", (int)l, p);
			return false;
		}
		p += l + (q ? 1 : 0);
	}
	return true;
}

unsigned rdc_pol_isa_classes(const char *cond)
{
	unsigned c = 0;
	for (size_t i = 0; i < NWORDS; i++)
		if (words[i].classes && rdc_pol_has_cond(cond, words[i].word))
			c |= words[i].classes;
	return c;
}

/* The producer (.comment) of a code object; "" when it has none. */
static void producer(const uint8_t *p, size_t n, char *out, size_t cap)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, str;
	out[0] = '\0';
	if (n < sizeof eh)
		return;
	memcpy(&eh, p, sizeof eh);
	if (eh.e_shentsize != sizeof sh || eh.e_shstrndx >= eh.e_shnum ||
	    eh.e_shoff > n || (uint64_t)eh.e_shnum * sizeof sh > n - eh.e_shoff)
		return;
	memcpy(&str, p + eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof sh, sizeof str);
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		memcpy(&sh, p + eh.e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
		if (str.sh_offset > n || sh.sh_name >= n - str.sh_offset || str.sh_offset + sh.sh_name + 9 > n)
			continue;
		if (memcmp(p + str.sh_offset + sh.sh_name, ".comment", 9))
			continue;
		if (sh.sh_offset > n || sh.sh_size > n - sh.sh_offset)
			return;
		/* NUL-separated strings: keep the first clang/LLVM one. */
		for (uint64_t o = sh.sh_offset; o < sh.sh_offset + sh.sh_size;) {
			const char *s = (const char *)p + o;
			size_t l = strnlen(s, sh.sh_offset + sh.sh_size - o);
			if (strstr(s, "clang") || strstr(s, "LLVM")) {
				snprintf(out, cap, "%.*s", (int)l, s);
				return;
			}
			o += l + 1;
		}
		return;
	}
}

/* Is the producer known to be after llvm-project #89936 (2024-04)?  Our
 * conservative rule: "clang version X.Y.Z" with X >= 20, or X == 19 and a
 * release (not "git"; LLVM 19.1.0 branched 2024-07, after the fix).  Every
 * other producer — none, 19.0.0git trunk builds (which cannot be dated),
 * anything older — may be in the window and is held to the check. */
bool rdc_pol_producer_has_mad_fix(const char *prod)
{
	const char *v = strstr(prod, "clang version ");
	if (!v)
		return false;
	unsigned major = 0, minor = 0;
	if (sscanf(v + 14, "%u.%u", &major, &minor) != 2)
		return false;
	if (major >= 20)
		return true;
	return major == 19 && !strstr(v, "git");
}

int rdc_pol_isa_prepare(const uint8_t *data, size_t size, const struct rdc_codeobj *co,
			const char *cond, unsigned *need, struct rdc_isa_kernel **out, char *prod,
			size_t prod_cap)
{
	*need = rdc_pol_isa_classes(cond);
	*out = NULL;
	prod[0] = '\0';
	if (*need & (1u << RDC_ISA_MAD64)) {
		producer(data, size, prod, prod_cap);
		if (rdc_pol_producer_has_mad_fix(prod))
			*need &= ~(1u << RDC_ISA_MAD64);
	}
	if (!*need)
		return 0;
	struct rdc_isa_kernel *ik = calloc(co->n_kernels ? co->n_kernels : 1, sizeof *ik);
	if (!ik)
		return RDC_E_NOMEM;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_isa_classify(data, size, co, ik, &d);
	if (rc == RDC_E_NOMEM) {
		free(ik);
		return rc;
	}
	if (rc < 0)   /* not decodable: every kernel counts as containing the class */
		for (size_t i = 0; i < co->n_kernels; i++) {
			ik[i].classes = 1u << RDC_ISA_UNKNOWN;
			ik[i].why_unknown = "its code could not be decoded";
			ik[i].first[RDC_ISA_UNKNOWN].mnemonic = "<code not decoded>";
			ik[i].first[RDC_ISA_UNKNOWN].kernel_off = UINT64_MAX;
		}
	*out = ik;
	return 0;
}

static const char *feature_of(unsigned cls, const char **why, const char **word)
{
	for (size_t i = 0; i < NWORDS; i++)
		if (words[i].classes & (1u << cls)) {
			*why = words[i].why;
			*word = words[i].word;
			return words[i].feature;
		}
	*why = *word = "";
	return "?";
}

bool rdc_pol_check_isa(const struct rdc_isa_kernel *ik, unsigned need, const char *cond,
		       const char *prod, struct rdc_kernel_verdict *v)
{
	for (int c = 0; c < RDC_ISA_NCLASS; c++) {
		bool unk = c == RDC_ISA_UNKNOWN;
		if (!(ik->classes & (1u << c)) || (!unk && !(need & (1u << c))))
			continue;
		const struct rdc_isa_hit *h = &ik->first[c];
		char at[48];
		if (h->kernel_off == UINT64_MAX)
			snprintf(at, sizeof at, "at 0x%llx (a called function)", (unsigned long long)h->offset);
		else
			snprintf(at, sizeof at, "at +0x%llx (file 0x%llx)", (unsigned long long)h->kernel_off,
				 (unsigned long long)h->offset);
		v->ok = false;
		if (unk) {
			snprintf(v->check, sizeof v->check, "isa-unknown");
			snprintf(v->reason, sizeof v->reason,
				 "%s %s: %s; the edge's condition '%s' needs the kernel's instructions known",
				 h->mnemonic ? h->mnemonic : "?", at, ik->why_unknown ? ik->why_unknown : "unknown", cond);
		} else {
			const char *why, *word;
			const char *feat = feature_of((unsigned)c, &why, &word);
			snprintf(v->check, sizeof v->check, "%s", word);
			snprintf(v->reason, sizeof v->reason, "%s %s needs %s: %s%s%s%s", h->mnemonic, at, feat, why,
				 c == RDC_ISA_MAD64 ? " (producer: " : "",
				 c == RDC_ISA_MAD64 ? (prod && *prod ? prod : "none recorded") : "",
				 c == RDC_ISA_MAD64 ? ")" : "");
		}
		return false;
	}
	return true;
}

/* The kernels of code object `data` that lack a workaround the device
 * needs, by the edge device <- the object's own target — with `limits` also
 * those the device's limits hold (rdc_check_kernel's holdable checks,
 * user-sgpr-16), as rdc_pol_try_entry holds them: r filled; with `at`,
 * their indices in co's kernels (malloc'd).  co is left parsed (the caller
 * frees it, also on error).  *unknown: the edge names a condition word this
 * policy does not evaluate (then every kernel counts). */
static int lacking(const struct rdc_tables *t, const char *device_proc, const void *data, size_t size,
		   bool limits, struct rdc_isa_report *r, struct rdc_codeobj *co, size_t **at, bool *unknown)
{
	memset(r, 0, sizeof *r);
	memset(co, 0, sizeof *co);
	*unknown = false;
	if (at)
		*at = NULL;
	struct rdc_diag d;
	rdc_diag_clear(&d);
	int rc = rdc_codeobj_parse(data, size, RDC_CO_DESCRIPTORS | RDC_CO_NO_ARGS, co, &d);
	if (rc < 0)
		return rc;
	const char *cond = NULL;
	for (size_t i = 0; i < t->n_edges; i++)
		if (!strcmp(t->edges[i].device, device_proc) && !strcmp(t->edges[i].code, co->target.proc))
			cond = t->edges[i].condition;
	snprintf(r->code, sizeof r->code, "%s", co->target.proc);
	r->n_kernels = co->n_kernels;
	char bad[32];
	if (cond && !rdc_pol_cond_known(cond, bad, sizeof bad)) {
		snprintf(r->first_reason, sizeof r->first_reason,
			 "the %s <- %s edge's condition names '%s', which this policy does not evaluate",
			 device_proc, co->target.proc, bad);
		r->n_lacking = co->n_kernels;
		*unknown = true;
		return 0;
	}
	unsigned need = 0;
	struct rdc_isa_kernel *ik = NULL;
	char prod[160];
	if (cond && rdc_pol_isa_classes(cond) &&
	    (rc = rdc_pol_isa_prepare(data, size, co, cond, &need, &ik, prod, sizeof prod)) < 0)
		return rc;
	/* the limits, as the policy checks them: not for code built to the
	 * device's own limits (its own target, or the same limits by an edge
	 * without condition) */
	const struct rdc_isa *dev = limits ? rdc_isa_find(t, device_proc) : NULL;
	if (dev && (!strcmp(co->target.proc, device_proc) || rdc_pol_own_limits(t, dev, co->target.proc, cond)))
		dev = NULL;
	bool sgpr16 = limits && rdc_pol_has_cond(cond, "user-sgpr-16");
	if ((ik || dev || sgpr16) && at && !(*at = malloc((co->n_kernels ? co->n_kernels : 1) * sizeof **at))) {
		free(ik);
		return RDC_E_NOMEM;
	}
	for (size_t i = 0; (ik || dev || sgpr16) && i < co->n_kernels; i++) {
		struct rdc_kernel_verdict v;
		bool ok = true;
		if (dev && !rdc_check_kernel(t, dev, NULL, NULL, &co->kernels[i], &v))
			ok = !rdc_pol_check_holdable(v.check);   /* another failure: not held (refused) */
		if (ok && sgpr16 && !rdc_pol_check_user_sgpr16(&co->kernels[i], &v))
			ok = false;
		if (ok && ik) {
			memset(&v, 0, sizeof v);
			v.ok = true;
			ok = rdc_pol_check_isa(&ik[i], need, cond, prod, &v);
		}
		if (ok)
			continue;
		if (at)
			(*at)[r->n_lacking] = i;
		if (!r->n_lacking++) {
			const struct rdc_kernel *k = &co->kernels[i];
			snprintf(r->first_kernel, sizeof r->first_kernel, "%s",
				 k->name ? k->name : k->symbol ? k->symbol : "?");
			snprintf(r->first_check, sizeof r->first_check, "%s", v.check);
			snprintf(r->first_reason, sizeof r->first_reason, "%s", v.reason);
		}
	}
	free(ik);
	return 0;
}

int rdc_policy_isa_check(const struct rdc_tables *t, const char *device_proc, const void *data, size_t size,
			 struct rdc_isa_report *r)
{
	struct rdc_codeobj co;
	bool unknown;
	int rc = lacking(t, device_proc, data, size, false, r, &co, NULL, &unknown);
	rdc_codeobj_free(&co);
	return rc;
}

int rdc_policy_hold_patches(const struct rdc_tables *t, const char *device_proc, const void *code,
			    size_t code_size, const void *dst, size_t dst_size, struct rdc_patch **patches,
			    size_t *n_patches, size_t *n_held, struct rdc_diag *d)
{
	*patches = NULL;
	*n_patches = *n_held = 0;
	struct rdc_isa_report r;
	struct rdc_codeobj co;
	size_t *at = NULL;
	bool unknown;
	int rc = lacking(t, device_proc, code, code_size, true, &r, &co, &at, &unknown);
	if (rc < 0) {
		rc = rdc_diag_set(d, rc, RDC_NO_OFFSET, "held kernels: the code object cannot be read");
	} else if (unknown) {
		rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET, "%s", r.first_reason);
	} else if (r.n_lacking) {
		const char **names = malloc(r.n_lacking * sizeof *names);
		rc = names ? 0 : rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
		for (size_t i = 0; !rc && i < r.n_lacking; i++)
			names[i] = co.kernels[at[i]].name ? co.kernels[at[i]].name : "";
		if (!rc)
			rc = rdc_codeobj_hide_patches(dst, dst_size, names, r.n_lacking, patches, n_patches, d);
		free(names);
		if (!rc)
			*n_held = r.n_lacking;
	}
	free(at);
	rdc_codeobj_free(&co);
	return rc;
}

int rdc_policy_held_kernels(const struct rdc_tables *t, const char *device_proc, const void *code,
			    size_t code_size, char ***names, size_t *n, struct rdc_diag *d)
{
	*names = NULL;
	*n = 0;
	struct rdc_isa_report r;
	struct rdc_codeobj co;
	size_t *at = NULL;
	bool unknown;
	int rc = lacking(t, device_proc, code, code_size, true, &r, &co, &at, &unknown);
	if (rc < 0)
		rc = rdc_diag_set(d, rc, RDC_NO_OFFSET, "held kernels: the code object cannot be read");
	else if (unknown)
		rc = rdc_diag_set(d, RDC_E_UNSUPPORTED, RDC_NO_OFFSET, "%s", r.first_reason);
	size_t bytes = 0;
	for (size_t i = 0; !rc && i < r.n_lacking; i++)
		bytes += strlen(co.kernels[at[i]].name ? co.kernels[at[i]].name : "") + 1;
	char **v = !rc && r.n_lacking ? malloc(r.n_lacking * sizeof *v + bytes) : NULL;
	if (!rc && r.n_lacking && !v)
		rc = rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "out of memory");
	if (v) {
		char *w = (char *)(v + r.n_lacking);
		for (size_t i = 0; i < r.n_lacking; i++) {
			const char *s = co.kernels[at[i]].name ? co.kernels[at[i]].name : "";
			size_t l = strlen(s) + 1;
			v[i] = memcpy(w, s, l);
			w += l;
		}
		*names = v;
		*n = r.n_lacking;
	}
	free(at);
	rdc_codeobj_free(&co);
	return rc;
}

bool rdc_edge_isa_condition(const struct rdc_compat_edge *e)
{
	return e && e->condition && rdc_pol_isa_classes(e->condition) != 0;
}

bool rdc_edge_may_hold(const struct rdc_tables *t, const struct rdc_compat_edge *e)
{
	if (!e)
		return false;
	if (rdc_edge_isa_condition(e) || (e->condition && rdc_pol_has_cond(e->condition, "user-sgpr-16")))
		return true;
	const struct rdc_isa *dev = t ? rdc_isa_find(t, e->device) : NULL;
	const struct rdc_isa *code = t ? rdc_isa_find(t, e->code) : NULL;
	return dev && code && !rdc_pol_same_limits(dev, code);
}

bool rdc_edge_checks_instructions(const struct rdc_compat_edge *e)
{
	char bad[32];
	return e && e->condition &&
	       (rdc_pol_isa_classes(e->condition) != 0 || !rdc_pol_cond_known(e->condition, bad, sizeof bad));
}
