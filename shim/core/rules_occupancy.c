/* SPDX-License-Identifier: MIT */
/*
 * rules_occupancy.c — the answer of the `occupancy` action: how many blocks
 * of a kernel fit one multiprocessor, from its descriptor and the device's
 * true limits (tables isa row), with the arithmetic of the policy's
 * per-kernel check (policy_check.c): VGPRs rounded up to the device's
 * granule for the kernel's wave size, the waves a SIMD can hold, SIMDs per
 * multiprocessor by WGP/CU mode, LDS per workgroup.  HIP's multiprocessor is
 * a WGP for a WGP-mode kernel on gfx10+ (clr counts SIMDs per CU x 2 there).
 * Pure.
 */
#include "rdnacompat/rules.h"

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return b ? (a + b - 1) / b : a;
}

int rdc_rules_occupancy(const struct rdc_isa *dev, const struct rdc_kernel *k,
			uint32_t block_threads, uint64_t dyn_lds, uint32_t *blocks)
{
	if (!dev || !k || !blocks || block_threads == 0)
		return RDC_E_INVAL;
	*blocks = 0;
	bool wgp_dev = rdc_isa_has_wgp(dev);
	uint32_t wave = k->kd.present ? (wgp_dev && k->kd.wave32 ? 32 : 64)
			: k->wavefront_size ? k->wavefront_size : dev->default_wave;
	uint32_t file = wave == 32 ? dev->vgprs_per_simd_w32 : dev->vgprs_per_simd_w64;
	uint32_t gran = wave == 32 ? dev->vgpr_granule_w32 : dev->vgpr_granule_w64;
	if (!file)
		return 0; /* the device does not run this wave size */
	uint32_t flat = k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 1024;
	if (block_threads > flat || block_threads > 1024)
		return 0;

	uint32_t vg = k->vgpr_count;
	if (vg == 0 && k->kd.present)
		vg = ((k->kd.rsrc1 & 0x3f) + 1) * (wgp_dev ? (wave == 32 ? 8 : 4) : 4);
	if (!wgp_dev && dev->vgprs_per_simd_w64 > 256 && k->agpr_count)
		vg = div_up(vg, 4) * 4 + k->agpr_count; /* unified VGPR+AGPR file */
	uint32_t alloc = gran ? div_up(vg ? vg : 1, gran) * gran : (vg ? vg : 1);
	uint32_t waves_simd = file / alloc;
	if (dev->max_waves_per_simd && waves_simd > dev->max_waves_per_simd)
		waves_simd = dev->max_waves_per_simd;
	if (!wgp_dev && k->sgpr_count) {
		/* gfx9 and older: 800 SGPRs per SIMD, granule 16 (gfx10+ give
		 * every wave its SGPRs: no limit there) */
		uint32_t sg = div_up(k->sgpr_count, 16) * 16;
		if (800 / sg < waves_simd)
			waves_simd = 800 / sg;
	}
	bool wgp = wgp_dev && (k->kd.present ? k->kd.wgp_mode : true);
	uint32_t simds = wgp_dev ? (wgp ? 4 : 2) : 4;
	uint32_t threads = simds * waves_simd * wave;
	uint32_t per_block = div_up(block_threads, wave) * wave;
	uint32_t by_alu = threads / per_block;

	uint64_t lds = (uint64_t)k->group_segment_fixed_size + dyn_lds;
	if (lds > dev->lds_per_workgroup)
		return 0;
	uint64_t by_lds = lds ? dev->lds_per_workgroup / lds : UINT32_MAX;
	*blocks = by_alu < by_lds ? by_alu : (uint32_t)by_lds;
	return 0;
}
