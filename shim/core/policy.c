/* SPDX-License-Identifier: MIT */
/*
 * policy.c — the mapping decision (include/rdnacompat/policy.h).
 *
 * For one bundle (or one bare code object) and a device's true target:
 * native when an entry matches exactly; else each compatible entry in the
 * order of the tables' compat edges (device <- code, by rank), accepted only
 * when every kernel passes rdc_check_kernel against the device's real limits
 * (tables isa rows); else missing, with what the card would need and why the
 * entries present do not do.  Only the entries the decision needs are parsed
 * past their ELF header.  Pure: no globals, no I/O, no environment.
 */
#include "rdnacompat/policy.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CO_FULL (RDC_CO_METADATA | RDC_CO_DESCRIPTORS)

const char *rdc_verdict_name(enum rdc_verdict v)
{
	switch (v) {
	case RDC_VERDICT_NATIVE: return "native";
	case RDC_VERDICT_MAPPED: return "mapped";
	case RDC_VERDICT_MISSING: return "missing";
	}
	return "unknown";
}

/* Append printf text to buf (size n) at *len, truncating safely. */
__attribute__((format(printf, 4, 5)))
static void cat(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	if (*len >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *len, n - *len, fmt, ap);
	va_end(ap);
	if (k > 0)
		*len = (size_t)k >= n - *len ? n - 1 : *len + (size_t)k;
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return b ? (a + b - 1) / b : a;
}

/* gfx10 and later have WGPs (two CUs of two SIMD32 each). */
static bool has_wgp(const struct rdc_isa *dev)
{
	unsigned ma, mi, st;
	if (rdc_proc_to_version(dev->name, &ma, &mi, &st) == 0)
		return ma >= 10;
	return dev->vgprs_per_simd_w32 != 0;
}

static bool glob_or_any(const char *pat, const char *s)
{
	if (!pat || !*pat || !strcmp(pat, "*"))
		return true;
	return s && !strcmp(pat, s);
}

static const struct rdc_bad_kernel *bad_rule(const struct rdc_tables *t, const char *dev,
					     const char *code, const char *kernel)
{
	for (size_t i = 0; i < t->n_bad; i++) {
		const struct rdc_bad_kernel *r = &t->bad[i];
		if (!glob_or_any(r->target, dev) || !glob_or_any(r->code_target, code))
			continue;
		if (kernel && r->kernel_glob && fnmatch(r->kernel_glob, kernel, 0) == 0)
			return r;
	}
	return NULL;
}

/* Does any bad-kernel rule concern (device, code) at all? */
static bool bad_rules_for(const struct rdc_tables *t, const char *dev, const char *code)
{
	for (size_t i = 0; i < t->n_bad; i++)
		if (glob_or_any(t->bad[i].target, dev) && glob_or_any(t->bad[i].code_target, code))
			return true;
	return false;
}

__attribute__((format(printf, 3, 4)))
static bool refuse(struct rdc_kernel_verdict *v, const char *check, const char *fmt, ...)
{
	v->ok = false;
	snprintf(v->check, sizeof v->check, "%s", check);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof v->reason, fmt, ap);
	va_end(ap);
	return false;
}

static const char *feat_text(uint8_t f)
{
	return f == RDC_FEAT_ON ? "on" : f == RDC_FEAT_OFF ? "off" : "any";
}

bool rdc_check_kernel(const struct rdc_tables *t, const struct rdc_isa *dev,
		      const struct rdc_target *dev_target, const struct rdc_target *code,
		      const struct rdc_kernel *k, struct rdc_kernel_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->kernel = k->name ? k->name : (k->symbol ? k->symbol : "?");
	v->k = k;
	v->ok = true;

	/* Wave size: the descriptor is what the hardware obeys; then metadata. */
	uint32_t wave;
	if (k->kd.present && has_wgp(dev))
		wave = k->kd.wave32 ? 32 : 64;
	else if (k->kd.present)
		wave = 64;
	else if (k->wavefront_size)
		wave = k->wavefront_size;
	else
		wave = dev->default_wave ? dev->default_wave : 64;
	v->wave = wave;
	uint32_t have = wave == 32 ? dev->vgprs_per_simd_w32 : wave == 64 ? dev->vgprs_per_simd_w64 : 0;
	uint32_t gran = wave == 32 ? dev->vgpr_granule_w32 : dev->vgpr_granule_w64;
	v->vgprs_have = have;
	if (have == 0)
		return refuse(v, "wave", "wave%u, %s does not run wave%u", wave, dev->name, wave);

	/* VGPRs: metadata count, else the descriptor's granulated count. */
	uint32_t vg = k->vgpr_count;
	if (vg == 0 && k->kd.present) {
		uint32_t enc = has_wgp(dev) ? (wave == 32 ? 8 : 4) : 4;
		vg = ((k->kd.rsrc1 & 0x3f) + 1) * enc;
	}
	/* Pre-gfx10 rows with more than 256 wave64 VGPRs per lane (gfx90a,
	 * gfx94x: GFX90AInsts) have one unified VGPR+AGPR file: AGPRs start at
	 * the next multiple of 4 after the arch VGPRs (AMDGPUBaseInfo
	 * getTotalNumVGPRs / IsaInfo::getNumVGPRBlocks with AGPRs). */
	uint32_t arch_vg = vg;
	if (!has_wgp(dev) && dev->vgprs_per_simd_w64 > 256 && k->agpr_count)
		vg = div_up(vg, 4) * 4 + k->agpr_count;
	uint32_t alloc = gran ? div_up(vg ? vg : 1, gran) * gran : vg;
	uint32_t flat = k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 1024;
	bool wgp = has_wgp(dev) ? (k->kd.present ? k->kd.wgp_mode : true) : false;
	uint32_t simds = has_wgp(dev) ? (wgp ? 4 : 2) : 4;
	uint32_t waves = div_up(flat, wave);
	uint32_t per_simd = div_up(waves, simds);
	v->vgprs_alloc = alloc;
	v->waves_per_simd = per_simd;
	v->vgprs_needed = alloc * per_simd;
	v->wgp_mode = wgp;
	const char *mode = has_wgp(dev) ? (wgp ? "WGP mode" : "CU mode") : "CU";

	if (arch_vg > 256)
		return refuse(v, "vgpr", "%u VGPRs exceeds the 256 addressable", arch_vg);
	if (dev->max_waves_per_simd && per_simd > dev->max_waves_per_simd)
		return refuse(v, "waves", "%u threads need %u waves/SIMD (%s), %s runs at most %u",
			      flat, per_simd, mode, dev->name, dev->max_waves_per_simd);
	if (v->vgprs_needed > have) {
		char vtxt[48];
		if (vg != arch_vg)
			snprintf(vtxt, sizeof vtxt, "%u VGPRs + %u AGPRs (%u allocated)", arch_vg,
				 k->agpr_count, alloc);
		else if (alloc != vg)
			snprintf(vtxt, sizeof vtxt, "%u VGPRs (%u allocated)", vg, alloc);
		else
			snprintf(vtxt, sizeof vtxt, "%u VGPRs", vg);
		return refuse(v, "vgpr", "%s x %u waves/SIMD (%u threads, %s) needs %u, %s has %u",
			      vtxt, per_simd, flat, mode, v->vgprs_needed, dev->name, have);
	}
	if (k->group_segment_fixed_size > dev->lds_per_workgroup)
		return refuse(v, "lds", "%u bytes of LDS, %s has %u", k->group_segment_fixed_size,
			      dev->name, dev->lds_per_workgroup);
	/* Private segment and dynamic stack: scratch is per device, allowed. */
	if (code && dev_target) {
		struct rdc_target c = *code, dt = *dev_target;
		c.sramecc = RDC_FEAT_ANY;
		dt.sramecc = RDC_FEAT_ANY;
		if (!rdc_target_features_match(&c, &dt))
			return refuse(v, "xnack", "code has xnack %s, device xnack %s",
				      feat_text(code->xnack), feat_text(dev_target->xnack));
		c = *code;
		dt = *dev_target;
		c.xnack = RDC_FEAT_ANY;
		dt.xnack = RDC_FEAT_ANY;
		if (!rdc_target_features_match(&c, &dt))
			return refuse(v, "sramecc", "code has sramecc %s, device sramecc %s",
				      feat_text(code->sramecc), feat_text(dev_target->sramecc));
	}
	if (t) {
		const struct rdc_bad_kernel *r =
			bad_rule(t, dev->name, code ? code->proc : NULL, v->kernel);
		if (r)
			return refuse(v, "badlist", "matches '%s' (%s): %s", r->kernel_glob,
				      r->action ? r->action : "refuse", r->reason ? r->reason : "");
	}
	return true;
}

/* ---- "what the card would need" ------------------------------------------ */

static int proc_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

/* b directly follows a: same length, same but the last character, +1. */
static bool follows(const char *a, const char *b)
{
	size_t l = strlen(a);
	if (l < 2 || strlen(b) != l || strncmp(a, b, l - 1))
		return false;
	char x = a[l - 1], y = b[l - 1];
	return y == x + 1 || (x == '9' && y == 'a');
}

static bool in_list(const char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool has_cond(const char *cond, const char *what)
{
	size_t l = strlen(what);
	for (const char *p = cond; p && (p = strstr(p, what)); p += l)
		if ((p == cond || p[-1] == '+') && (p[l] == '\0' || p[l] == '+'))
			return true;
	return false;
}

#define NEED_MAX 64

size_t rdc_policy_need(const struct rdc_tables *t, const char *device_proc, char *out, size_t on)
{
	const char *procs[NEED_MAX], *gens[NEED_MAX];
	size_t np = 0, ng = 0, len = 0;
	char buf[1024];
	size_t n = sizeof buf;
	buf[0] = '\0';
	const struct rdc_isa *dev = rdc_isa_find(t, device_proc);
	if (!dev || !dev->generic)
		procs[np++] = device_proc;
	for (size_t i = 0; i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		if (strcmp(e->device, device_proc) || has_cond(e->condition, "opt-in"))
			continue;
		const struct rdc_isa *ci = rdc_isa_find(t, e->code);
		if (ci && ci->generic) {
			if (ng < NEED_MAX && !in_list(gens, ng, e->code))
				gens[ng++] = e->code;
		} else if (np < NEED_MAX && !in_list(procs, np, e->code)) {
			procs[np++] = e->code;
		}
	}
	qsort(procs, np, sizeof procs[0], proc_cmp);

	/* All members of the device's generic target: name it as one group. */
	const char *gen = dev ? dev->generic_target : NULL;
	size_t members = 0;
	bool all = gen != NULL;
	for (size_t i = 0; gen && i < t->n_isa; i++) {
		const struct rdc_isa *r = &t->isa[i];
		if (r->generic || !r->generic_target || strcmp(r->generic_target, gen))
			continue;
		members++;
		if (!in_list(procs, np, r->name))
			all = false;
	}
	bool contiguous = true;
	for (size_t i = 1; i < np; i++)
		if (!follows(procs[i - 1], procs[i]))
			contiguous = false;
	size_t parts = 0;
	if (all && members == np && np > 2 && !contiguous) {
		const char *dash = strstr(gen, "-generic");
		int pl = dash ? (int)(dash - gen) : (int)strlen(gen);
		cat(buf, n, &len, "%.*s family", pl, gen);
		parts = 1;
	} else {
		for (size_t i = 0; i < np;) {
			size_t j = i;
			while (j + 1 < np && follows(procs[j], procs[j + 1]))
				j++;
			bool last = j + 1 >= np && ng == 0;
			cat(buf, n, &len, "%s", parts == 0 ? "" : last ? " or " : ", ");
			if (j - i >= 2)
				cat(buf, n, &len, "%s..%s", procs[i], procs[j]);
			else if (j == i + 1)
				cat(buf, n, &len, "%s, %s", procs[i], procs[j]);
			else
				cat(buf, n, &len, "%s", procs[i]);
			parts++;
			i = j + 1;
		}
	}
	for (size_t i = 0; i < ng; i++) {
		cat(buf, n, &len, "%s%s", parts == 0 ? "" : i + 1 == ng ? " or " : ", ", gens[i]);
		parts++;
	}
	cat(buf, n, &len, " code");
	if (on)
		snprintf(out, on, "%s", buf);
	return len;
}

/* ---- choosing -------------------------------------------------------------- */

struct item {
	long index;             /* entry index */
	struct rdc_target target;
	const uint8_t *data;
	uint64_t size;
	bool usable;            /* a device code entry */
};

static void upper(const char *s, char *out, size_t n)
{
	size_t i = 0;
	for (; s && s[i] && i + 1 < n; i++)
		out[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32) : s[i];
	if (n)
		out[i] = '\0';
}

static int proc_major(const char *p)
{
	unsigned ma, mi, st;
	if (rdc_proc_to_version(p, &ma, &mi, &st) == 0)
		return (int)ma;
	if (!strncmp(p, "gfx", 3))
		return atoi(p + 3) >= 100 ? atoi(p + 3) / 100 : atoi(p + 3) / 10;
	return 0;
}

static const char *family_of(const struct rdc_tables *t, const char *proc)
{
	const struct rdc_isa *ci = rdc_isa_find(t, proc);
	return ci && ci->family ? ci->family : "unknown";
}

/* Entries of other families than the device's, closest generation first:
 * "this is RDNA2 code (gfx1030), GCN5 code (gfx900:xnack-); your card is
 * RDNA3".  Writes nothing and returns false when there are none. */
static bool family_note(const struct rdc_tables *t, const struct rdc_isa *dev,
			const struct item *it, size_t n, const char *prefix, char *buf, size_t cap,
			size_t *len)
{
	const char *fams[16];
	int dist[16];
	size_t nf = 0;
	int dm = proc_major(dev->name);
	for (size_t i = 0; i < n; i++) {
		if (!it[i].usable)
			continue;
		const char *f = family_of(t, it[i].target.proc);
		if (dev->family && !strcmp(f, dev->family))
			continue;
		int d = abs(proc_major(it[i].target.proc) - dm);
		size_t k = 0;
		while (k < nf && strcmp(fams[k], f))
			k++;
		if (k == nf) {
			if (nf == 16)
				continue;
			fams[nf] = f;
			dist[nf++] = d;
		} else if (d < dist[k]) {
			dist[k] = d;
		}
	}
	if (nf == 0)
		return false;
	/* Stable insertion sort by distance. */
	for (size_t i = 1; i < nf; i++)
		for (size_t j = i; j > 0 && dist[j] < dist[j - 1]; j--) {
			const char *tf = fams[j];
			int td = dist[j];
			fams[j] = fams[j - 1];
			dist[j] = dist[j - 1];
			fams[j - 1] = tf;
			dist[j - 1] = td;
		}
	cat(buf, cap, len, "%sthis is ", prefix);
	for (size_t i = 0; i < nf; i++) {
		char up[24];
		upper(fams[i], up, sizeof up);
		if (!strcmp(fams[i], "unknown"))
			snprintf(up, sizeof up, "%s", "unlisted");
		cat(buf, cap, len, "%s%s code (", i ? ", " : "", up);
		size_t shown = 0;
		for (size_t e = 0; e < n; e++) {
			if (!it[e].usable || strcmp(family_of(t, it[e].target.proc), fams[i]))
				continue;
			char tt[64];
			rdc_target_format(&it[e].target, tt, sizeof tt);
			cat(buf, cap, len, "%s%s", shown++ ? ", " : "", tt);
		}
		cat(buf, cap, len, ")");
	}
	char up[24];
	upper(dev->family, up, sizeof up);
	cat(buf, cap, len, "; your card is %s", up);
	return true;
}

static void keep_co(struct rdc_choice *out, struct rdc_codeobj *co)
{
	if (out->co) {
		rdc_codeobj_free(out->co);
		free(out->co);
	}
	out->co = co;
	free(out->kernels);
	out->kernels = NULL;
}

/* Edge condition "user-sgpr-16": the device needs LLVM's UserSGPRInit16Bug
 * workaround, i.e. each kernel's descriptor must enable at least 16 user +
 * system SGPRs (COMPUTE_PGM_RSRC2: USER_SGPR_COUNT [5:1], workgroup id X/Y/Z
 * bits 7-9, workgroup info bit 10; the private segment offset does not
 * count, as in SIISelLowering's padding). */
static bool check_user_sgpr16(const struct rdc_kernel *k, struct rdc_kernel_verdict *v)
{
	if (!k->kd.present)
		return refuse(v, "user-sgpr", "no kernel descriptor to verify the 16 user+system SGPRs "
			      "the device needs");
	uint32_t r2 = k->kd.rsrc2;
	uint32_t user = (r2 >> 1) & 0x1f;
	uint32_t sys = ((r2 >> 7) & 1) + ((r2 >> 8) & 1) + ((r2 >> 9) & 1) + ((r2 >> 10) & 1);
	if (user + sys < 16)
		return refuse(v, "user-sgpr", "%u user + %u system SGPRs enabled, the device needs "
			      ">= 16 (UserSGPRInit16Bug)", user, sys);
	return true;
}

/* Parse item `it` and check every kernel.  Returns 1 accepted, 0 refused,
 * <0 on allocation failure.  On refusal appends to `why`. */
static int try_entry(const struct rdc_tables *t, const struct rdc_isa *dev,
		     const struct rdc_target *device, const struct item *it, const char *cond,
		     unsigned flags, bool keep, struct rdc_choice *out, char *why, size_t cap,
		     size_t *wlen)
{
	char tt[64];
	rdc_target_format(&it->target, tt, sizeof tt);
	struct rdc_codeobj *co = calloc(1, sizeof *co);
	if (!co)
		return RDC_E_NOMEM;
	struct rdc_diag pd;
	rdc_diag_clear(&pd);
	int rc = rdc_codeobj_parse(it->data, (size_t)it->size, CO_FULL, co, &pd);
	if (rc < 0) {
		free(co);
		if (rc == RDC_E_NOMEM)
			return rc;
		cat(why, cap, wlen, "%s%s entry unreadable: %s", *wlen ? "; " : "", tt, pd.msg);
		out->refused_entry = it->index;
		return 0;
	}
	struct rdc_kernel_verdict *vs = NULL;
	if (flags & RDC_POLICY_KERNELS) {
		vs = calloc(co->n_kernels ? co->n_kernels : 1, sizeof *vs);
		if (!vs) {
			rdc_codeobj_free(co);
			free(co);
			return RDC_E_NOMEM;
		}
	}
	size_t bad = 0;
	bool first = true;
	for (size_t i = 0; i < co->n_kernels; i++) {
		struct rdc_kernel_verdict v;
		bool ok = rdc_check_kernel(t, dev, device, &it->target, &co->kernels[i], &v);
		if (ok && has_cond(cond, "user-sgpr-16"))
			ok = check_user_sgpr16(&co->kernels[i], &v);
		if (!ok) {
			bad++;
			if (first)
				cat(why, cap, wlen, "%s%s refused: %s: %s: %s", *wlen ? "; " : "", tt,
				    v.kernel, v.check, v.reason);
			first = false;
		}
		if (vs)
			vs[i] = v;
	}
	if (bad > 1)
		cat(why, cap, wlen, " (and %zu more kernel%s)", bad - 1, bad > 2 ? "s" : "");
	out->n_refused += bad;
	if (bad == 0 || keep || (flags & RDC_POLICY_KERNELS)) {
		keep_co(out, co);
		out->kernels = vs;
		out->n_kernels = co->n_kernels;
	} else {
		rdc_codeobj_free(co);
		free(co);
		free(vs);
	}
	if (bad)
		out->refused_entry = it->index;
	return bad == 0;
}

static bool same_target(const struct rdc_target *a, const struct rdc_target *b)
{
	return !strcmp(a->proc, b->proc) && a->xnack == b->xnack && a->sramecc == b->sramecc;
}

static int choose(const struct rdc_tables *t, const struct rdc_target *device,
		  const struct item *it, size_t n, unsigned flags, struct rdc_choice *out,
		  struct rdc_diag *d)
{
	memset(out, 0, sizeof *out);
	out->verdict = RDC_VERDICT_MISSING;
	out->entry = -1;
	out->refused_entry = -1;
	if (!t || !device)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "policy: no tables or device");
	const struct rdc_isa *dev = rdc_isa_find(t, device->proc);
	if (!dev)
		return rdc_diag_set(d, RDC_E_NOTFOUND, RDC_NO_OFFSET,
				    "policy: device processor '%s' is not in the isa table", device->proc);
	char why[400];
	size_t wlen = 0;
	why[0] = '\0';
	char dt[64];
	rdc_target_format(device, dt, sizeof dt);

	/* 1. Native: exact processor, compatible features; the most specific
	 * (features equal to the device's) first. */
	long native = -1;
	for (size_t i = 0; i < n; i++) {
		if (!it[i].usable || !rdc_target_matches(&it[i].target, device))
			continue;
		if (native < 0 || same_target(&it[i].target, device))
			native = (long)i;
	}
	if (native >= 0) {
		const struct item *ni = &it[native];
		bool check = (flags & RDC_POLICY_KERNELS) || bad_rules_for(t, dev->name, dev->name);
		int acc = 1;
		if (check) {
			acc = try_entry(t, dev, device, ni, NULL, flags, true, out, why, sizeof why, &wlen);
			if (acc < 0)
				return rdc_diag_set(d, acc, RDC_NO_OFFSET, "policy: out of memory");
		}
		if (acc == 1) {
			out->verdict = RDC_VERDICT_NATIVE;
			out->entry = ni->index;
			out->chosen = ni->target;
			out->refused_entry = -1;
			out->n_refused = 0;
			char tt[64];
			rdc_target_format(&ni->target, tt, sizeof tt);
			snprintf(out->reason, sizeof out->reason, "%s entry matches the device %s", tt, dt);
			return 0;
		}
		/* A known-bad kernel in native code: fall through to candidates. */
	}

	/* 2. Compatible entries in edge rank order. */
	const struct rdc_compat_edge *edges[64];
	size_t ne = 0;
	for (size_t i = 0; i < t->n_edges && ne < 64; i++)
		if (!strcmp(t->edges[i].device, dev->name) && strcmp(t->edges[i].code, dev->name))
			edges[ne++] = &t->edges[i];
	for (size_t i = 1; i < ne; i++)
		for (size_t j = i; j > 0 && edges[j]->rank < edges[j - 1]->rank; j--) {
			const struct rdc_compat_edge *x = edges[j];
			edges[j] = edges[j - 1];
			edges[j - 1] = x;
		}
	for (size_t e = 0; e < ne; e++) {
		const struct rdc_isa *ci = rdc_isa_find(t, edges[e]->code);
		for (size_t i = 0; i < n; i++) {
			const struct item *c = &it[i];
			if (!c->usable || strcmp(c->target.proc, edges[e]->code))
				continue;
			out->n_candidates++;
			char tt[64];
			rdc_target_format(&c->target, tt, sizeof tt);
			if (!rdc_target_features_match(&c->target, device)) {
				cat(why, sizeof why, &wlen, "%s%s refused: features do not match device %s",
				    wlen ? "; " : "", tt, dt);
				out->refused_entry = c->index;
				continue;
			}
			if (ci && ci->generic) {
				struct rdc_codeobj h;
				memset(&h, 0, sizeof h);
				if (rdc_codeobj_parse(c->data, (size_t)c->size, RDC_CO_HEADER_ONLY, &h,
						      NULL) == 0) {
					unsigned gv = h.generic_version;
					rdc_codeobj_free(&h);
					if (gv < ci->min_generic_version) {
						cat(why, sizeof why, &wlen,
						    "%s%s refused: generic version %u, %s needs >= %u",
						    wlen ? "; " : "", tt, gv, ci->name,
						    ci->min_generic_version);
						out->refused_entry = c->index;
						continue;
					}
				}
			}
			if (has_cond(edges[e]->condition, "opt-in") && !(flags & RDC_POLICY_OPT_IN)) {
				cat(why, sizeof why, &wlen,
				    "%s%s not tried: the %s <- %s edge is opt-in (not established as safe)",
				    wlen ? "; " : "", tt, dev->name, edges[e]->code);
				continue;
			}
			size_t before = wlen;
			int acc = try_entry(t, dev, device, c, edges[e]->condition, flags, false, out, why,
					    sizeof why, &wlen);
			if (acc < 0)
				return rdc_diag_set(d, acc, RDC_NO_OFFSET, "policy: out of memory");
			if (acc == 1) {
				out->verdict = RDC_VERDICT_MAPPED;
				out->entry = c->index;
				out->chosen = c->target;
				out->edge_rank = edges[e]->rank;
				why[before] = '\0';
				char refused[400];
				snprintf(refused, sizeof refused, "%s", why);
				size_t rl = 0;
				cat(out->reason, sizeof out->reason, &rl,
				    "no %s entry; %s code runs on %s (compat edge rank %u%s%s), %s %zu kernel%s",
				    dev->name, tt, dev->name, edges[e]->rank,
				    edges[e]->condition && strcmp(edges[e]->condition, "none") ? ", condition " : "",
				    edges[e]->condition && strcmp(edges[e]->condition, "none") ? edges[e]->condition : "",
				    out->n_kernels == 1 ? "its" : "all", out->n_kernels,
				    out->n_kernels == 1 ? " passes" : "s pass");
				if (refused[0])
					cat(out->reason, sizeof out->reason, &rl, "; %s", refused);
				return 0;
			}
		}
	}

	/* 3. Missing. */
	rdc_policy_need(t, dev->name, out->need, sizeof out->need);
	size_t rl = 0;
	char *r = out->reason;
	size_t rc = sizeof out->reason;
	bool any = false;
	for (size_t i = 0; i < n; i++)
		any = any || it[i].usable;
	if (!any) {
		cat(r, rc, &rl, "the bundle has no device code");
	} else {
		if (wlen)
			cat(r, rc, &rl, "%s", why);
		else
			cat(r, rc, &rl, "no entry for %s or a compatible target", dt);
		/* Same-family entries the tables do not let run here. */
		size_t shown = 0;
		for (size_t i = 0; i < n; i++) {
			if (!it[i].usable || strcmp(family_of(t, it[i].target.proc), dev->family ? dev->family : ""))
				continue;
			bool edge = false;
			for (size_t e = 0; e < ne && !edge; e++)
				edge = !strcmp(edges[e]->code, it[i].target.proc);
			if (edge || !strcmp(it[i].target.proc, dev->name))
				continue;
			char tt[64];
			rdc_target_format(&it[i].target, tt, sizeof tt);
			cat(r, rc, &rl, "%s%s", shown++ ? ", " : "; the tables list no edge to run ", tt);
		}
		if (shown)
			cat(r, rc, &rl, " code on %s", dev->name);
		family_note(t, dev, it, n, wlen || shown ? "; " : ": ", r, rc, &rl);
	}
	if (!(flags & RDC_POLICY_KERNELS))
		keep_co(out, NULL);
	return 0;
}

static bool usable_kind(enum rdc_offload_kind k)
{
	return k == RDC_KIND_HIP || k == RDC_KIND_HIPV4 || k == RDC_KIND_HCC;
}

int rdc_policy_choose(const struct rdc_tables *t, const struct rdc_target *device,
		      const struct rdc_bundle *b, unsigned flags, struct rdc_choice *out,
		      struct rdc_diag *d)
{
	if (!b || !out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "policy: no bundle");
	size_t n = b->n_entries;
	struct item *it = calloc(n ? n : 1, sizeof *it);
	if (!it)
		return rdc_diag_set(d, RDC_E_NOMEM, RDC_NO_OFFSET, "policy: out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct rdc_bundle_entry *e = &b->entries[i];
		it[i].index = (long)i;
		it[i].data = e->data;
		it[i].size = e->size;
		it[i].usable = usable_kind(e->parsed.kind) && e->size > 0 && e->data;
		if (!it[i].usable)
			continue;
		if (e->parsed.has_target && e->parsed.kind == RDC_KIND_HIPV4) {
			it[i].target = e->parsed.target;
			continue;
		}
		/* Old hip-/hcc- ids: the target comes from the ELF header (CLR does
		 * the same, getTripleTargetIDFromCodeObject). */
		struct rdc_codeobj h;
		memset(&h, 0, sizeof h);
		if (rdc_codeobj_parse(e->data, (size_t)e->size, RDC_CO_HEADER_ONLY, &h, NULL) == 0) {
			it[i].target = h.target;
			rdc_codeobj_free(&h);
		} else if (e->parsed.has_target) {
			it[i].target = e->parsed.target;
		} else {
			it[i].usable = false;
		}
	}
	int rc = choose(t, device, it, n, flags, out, d);
	free(it);
	return rc;
}

int rdc_policy_choose_codeobj(const struct rdc_tables *t, const struct rdc_target *device,
			      const void *co, size_t n, unsigned flags, struct rdc_choice *out,
			      struct rdc_diag *d)
{
	if (!out)
		return rdc_diag_set(d, RDC_E_INVAL, RDC_NO_OFFSET, "policy: no output");
	struct rdc_codeobj h;
	memset(&h, 0, sizeof h);
	int rc = rdc_codeobj_parse(co, n, RDC_CO_HEADER_ONLY, &h, d);
	if (rc < 0) {
		memset(out, 0, sizeof *out);
		out->entry = out->refused_entry = -1;
		out->verdict = RDC_VERDICT_MISSING;
		return rc;
	}
	struct item it = { .index = 0, .target = h.target, .data = co, .size = n, .usable = true };
	rdc_codeobj_free(&h);
	return choose(t, device, &it, 1, flags, out, d);
}

void rdc_choice_free(struct rdc_choice *c)
{
	if (!c)
		return;
	free(c->kernels);
	c->kernels = NULL;
	if (c->co) {
		rdc_codeobj_free(c->co);
		free(c->co);
		c->co = NULL;
	}
	c->n_kernels = 0;
}
