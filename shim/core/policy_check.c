/* SPDX-License-Identifier: MIT */
/*
 * policy_check.c — the per-kernel check of a candidate entry against the
 * device's true limits (tables isa rows): wave size, VGPRs rounded to the
 * device's granule x the waves per SIMD that max_flat_workgroup_size needs
 * (WGP or CU mode) within the register file, the addressable 256, the waves
 * per SIMD limit, LDS, xnack/sramecc, bad-kernel globs; and the edge
 * condition "user-sgpr-16".  Every refusal says the check and the numbers.
 * Pure.
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "policy_internal.h"

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return b ? (a + b - 1) / b : a;
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
bool rdc_pol_bad_rules_for(const struct rdc_tables *t, const char *dev, const char *code)
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
	if (k->kd.present && rdc_isa_has_wgp(dev))
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
		uint32_t enc = rdc_isa_has_wgp(dev) ? (wave == 32 ? 8 : 4) : 4;
		vg = ((k->kd.rsrc1 & 0x3f) + 1) * enc;
	}
	/* Pre-gfx10 rows with more than 256 wave64 VGPRs per lane (gfx90a,
	 * gfx94x: GFX90AInsts) have one unified VGPR+AGPR file: AGPRs start at
	 * the next multiple of 4 after the arch VGPRs (AMDGPUBaseInfo
	 * getTotalNumVGPRs / IsaInfo::getNumVGPRBlocks with AGPRs). */
	uint32_t arch_vg = vg;
	if (!rdc_isa_has_wgp(dev) && dev->vgprs_per_simd_w64 > 256 && k->agpr_count)
		vg = div_up(vg, 4) * 4 + k->agpr_count;
	uint32_t alloc = gran ? div_up(vg ? vg : 1, gran) * gran : vg;
	uint32_t flat = k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 1024;
	bool wgp = rdc_isa_has_wgp(dev) ? (k->kd.present ? k->kd.wgp_mode : true) : false;
	uint32_t simds = rdc_isa_has_wgp(dev) ? (wgp ? 4 : 2) : 4;
	uint32_t waves = div_up(flat, wave);
	uint32_t per_simd = div_up(waves, simds);
	v->vgprs_alloc = alloc;
	v->waves_per_simd = per_simd;
	v->vgprs_needed = alloc * per_simd;
	v->wgp_mode = wgp;
	const char *mode = rdc_isa_has_wgp(dev) ? (wgp ? "WGP mode" : "CU mode") : "CU";

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

bool rdc_pol_check_holdable(const char *check)
{
	static const char *const holdable[] = { "wave", "vgpr", "waves", "lds", "user-sgpr" };
	for (size_t i = 0; check && i < sizeof holdable / sizeof holdable[0]; i++)
		if (!strcmp(check, holdable[i]))
			return true;
	return false;
}

bool rdc_pol_same_limits(const struct rdc_isa *a, const struct rdc_isa *b)
{
	return a && b && a->vgprs_per_simd_w32 == b->vgprs_per_simd_w32 &&
	       a->vgprs_per_simd_w64 == b->vgprs_per_simd_w64 &&
	       a->vgpr_granule_w32 == b->vgpr_granule_w32 && a->vgpr_granule_w64 == b->vgpr_granule_w64 &&
	       a->max_waves_per_simd == b->max_waves_per_simd &&
	       a->lds_per_workgroup == b->lds_per_workgroup && a->default_wave == b->default_wave &&
	       rdc_isa_has_wgp(a) == rdc_isa_has_wgp(b);
}

bool rdc_pol_own_limits(const struct rdc_tables *t, const struct rdc_isa *dev, const char *code_proc,
			const char *cond)
{
	return (!cond || !strcmp(cond, "none")) && rdc_pol_same_limits(dev, rdc_isa_find(t, code_proc));
}

bool rdc_check_kernel_name(const struct rdc_tables *t, const struct rdc_isa *dev,
			   const struct rdc_target *code, const struct rdc_kernel *k,
			   struct rdc_kernel_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->kernel = k->name ? k->name : (k->symbol ? k->symbol : "?");
	v->k = k;
	v->ok = true;
	const struct rdc_bad_kernel *r = t ? bad_rule(t, dev->name, code ? code->proc : NULL, v->kernel)
					   : NULL;
	if (r)
		return refuse(v, "badlist", "matches '%s' (%s): %s", r->kernel_glob,
			      r->action ? r->action : "refuse", r->reason ? r->reason : "");
	return true;
}

/* Edge condition "user-sgpr-16": the device needs LLVM's UserSGPRInit16Bug
 * workaround, i.e. each kernel's descriptor must enable at least 16 user +
 * system SGPRs (COMPUTE_PGM_RSRC2: USER_SGPR_COUNT [5:1], workgroup id X/Y/Z
 * bits 7-9, workgroup info bit 10; the private segment offset does not
 * count, as in SIISelLowering's padding).  Wave32 kernels only: LLVM's
 * GCNSubtarget::hasUserSGPRInit16Bug() is UserSGPRInit16Bug && isWave32()
 * (allocateSystemSGPRs pads only then; llvm-project 0010bb42,
 * SIISelLowering.cpp), so a wave64 kernel needs no padding. */
bool rdc_pol_check_user_sgpr16(const struct rdc_kernel *k, struct rdc_kernel_verdict *v)
{
	if (!k->kd.present)
		return refuse(v, "user-sgpr", "no kernel descriptor to verify the 16 user+system SGPRs "
			      "the device needs");
	if (!k->kd.wave32)
		return true;   /* the bug is wave32's */
	uint32_t r2 = k->kd.rsrc2;
	uint32_t user = (r2 >> 1) & 0x1f;
	uint32_t sys = ((r2 >> 7) & 1) + ((r2 >> 8) & 1) + ((r2 >> 9) & 1) + ((r2 >> 10) & 1);
	if (user + sys < 16)
		return refuse(v, "user-sgpr", "%u user + %u system SGPRs enabled, the device needs "
			      ">= 16 (UserSGPRInit16Bug)", user, sys);
	return true;
}
