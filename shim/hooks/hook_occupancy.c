/* SPDX-License-Identifier: MIT */
/*
 * hook_occupancy.c — how kernels are sized: hipOccupancyMaxActiveBlocks-
 * PerMultiprocessor[WithFlags] (host stub), hipModuleOccupancyMaxActive-
 * BlocksPerMultiprocessor[WithFlags] (hipFunction_t), hipOccupancyMax-
 * PotentialBlockSize, hipModuleOccupancyMaxPotentialBlockSize[WithFlags],
 * hipFuncGetAttributes and hipFuncGetAttribute.
 *
 * For a kernel with an `occupancy` rule, an answer of 0 blocks (or an error)
 * from the runtime is replaced by the count computed from the kernel
 * descriptor and the device's true limits (rdc_rules_occupancy), when that is
 * at least 1; logged once per kernel.  For a kernel routed to a fallback,
 * the queries answer with the fallback's values.  A host stub with a `deny`
 * rule: hipErrorInvalidDeviceFunction, as for a function HIP does not know.
 * Everything else: the real function's answer, untouched.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <errno.h>
#include <hip/hip_runtime_api.h>

#include "route.h"
#include "shim.h"

/* The route of a queried kernel, or NULL (fast: one atomic load when none). */
static struct rdc_route *route_of(const void *key)
{
	if (!atomic_load_explicit(&rdc_route_active, memory_order_relaxed) || rdc_guard_active())
		return NULL;
	return rdc_route_find_key(key);
}

/* A host stub refused on the current device — a live `deny` rule or a held
 * kernel (rdc_stub_refused) — is answered before the runtime is asked: as
 * for a function HIP does not know (hipErrorInvalidDeviceFunction).  A held
 * kernel's name is not in the device's code object, and CLR stops the
 * process on a stub it cannot resolve (hook_stubs.c). */

/* A routed key with a live `deny` rule, asked after the runtime (the
 * hipFunction_t queries). */
static bool is_denied(const struct rdc_route *r, const void *key, const char *api)
{
	return r->deny && rdc_route_denied(key, api);
}

/* Rewrite the runtime's answer for route r.  `err`/`*n`: the runtime's. */
static hipError_t fix(struct rdc_route *r, int *n, int block, size_t dyn, hipError_t err,
		      const char *api)
{
	if (!n || block <= 0)
		return err;
	int saved = errno;
	rdc_guard_enter();
	const struct rdc_kernel *k = &r->k;
	void *fb = r->fallback ? rdc_route_fallback(r) : NULL;
	if (fb) {
		/* routed: the fallback's own answer, else its descriptor's */
		__typeof__(&hipModuleOccupancyMaxActiveBlocksPerMultiprocessor) real =
			RDC_REAL(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor);
		k = &r->fb_k;
		err = real ? real(n, (hipFunction_t)fb, block, dyn) : hipErrorNotInitialized;
	}
	if ((rdc_route_rule_live(r, r->occupancy) || fb) && (err != hipSuccess || *n <= 0)) {
		const struct rdc_isa *isa = rdc_isa_find(rdc_tables(), r->device);
		uint32_t blocks = 0;
		if (isa && rdc_rules_occupancy(isa, k, (uint32_t)block, dyn, &blocks) == 0 && blocks >= 1) {
			int was = err == hipSuccess ? *n : -1;
			*n = (int)blocks;
			if (!atomic_exchange(&r->logged_occ, 1))
				rdc_log_event(RDC_LOG_INFO, "rule-occupancy",
					      (struct rdc_kv[]){
						      RDC_KV_S("kernel", r->name), RDC_KV_S("device", r->device),
						      RDC_KV_S("api", api), RDC_KV_N("runtime_said", was),
						      RDC_KV_N("runtime_error", err), RDC_KV_N("answer", blocks),
						      RDC_KV_N("block", block), RDC_KV_N("dyn_lds", dyn),
						      RDC_KV_S("source", (fb ? r->fallback : r->occupancy)->source) },
					      9);
			err = hipSuccess;
		} else if (!atomic_exchange(&r->logged_occ, 1)) {
			rdc_log_event(RDC_LOG_WARN, "rule-occupancy",
				      (struct rdc_kv[]){ RDC_KV_S("kernel", r->name), RDC_KV_S("device", r->device),
							 RDC_KV_S("api", api),
							 RDC_KV_S("answer", "runtime's (no block fits by the descriptor either)") },
				      4);
		}
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}

RDC_HOOK hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *f, int blockSize,
								 size_t dynSharedMemPerBlk)
{
	__typeof__(&hipOccupancyMaxActiveBlocksPerMultiprocessor) real =
		RDC_REAL(hipOccupancyMaxActiveBlocksPerMultiprocessor);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipOccupancyMaxActiveBlocksPerMultiprocessor"))
		return hipErrorInvalidDeviceFunction;
	hipError_t err = real(numBlocks, f, blockSize, dynSharedMemPerBlk);
	struct rdc_route *r = route_of(f);
	return r ? fix(r, numBlocks, blockSize, dynSharedMemPerBlk, err,
		       "hipOccupancyMaxActiveBlocksPerMultiprocessor")
		 : err;
}

RDC_HOOK hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *f,
									  int blockSize,
									  size_t dynSharedMemPerBlk,
									  unsigned int flags)
{
	__typeof__(&hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags) real =
		RDC_REAL(hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"))
		return hipErrorInvalidDeviceFunction;
	hipError_t err = real(numBlocks, f, blockSize, dynSharedMemPerBlk, flags);
	struct rdc_route *r = route_of(f);
	return r ? fix(r, numBlocks, blockSize, dynSharedMemPerBlk, err,
		       "hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags")
		 : err;
}

RDC_HOOK hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, hipFunction_t f,
								       int blockSize,
								       size_t dynSharedMemPerBlk)
{
	__typeof__(&hipModuleOccupancyMaxActiveBlocksPerMultiprocessor) real =
		RDC_REAL(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor);
	if (!real)
		return hipErrorNotInitialized;
	hipError_t err = real(numBlocks, f, blockSize, dynSharedMemPerBlk);
	struct rdc_route *r = route_of(f);
	return r ? fix(r, numBlocks, blockSize, dynSharedMemPerBlk, err,
		       "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor")
		 : err;
}

RDC_HOOK hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
	int *numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags)
{
	__typeof__(&hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags) real =
		RDC_REAL(hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags);
	if (!real)
		return hipErrorNotInitialized;
	hipError_t err = real(numBlocks, f, blockSize, dynSharedMemPerBlk, flags);
	struct rdc_route *r = route_of(f);
	return r ? fix(r, numBlocks, blockSize, dynSharedMemPerBlk, err,
		       "hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags")
		 : err;
}

/* Attributes of a kernel routed to a fallback: the fallback's resources. */
RDC_HOOK hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func)
{
	__typeof__(&hipFuncGetAttributes) real = RDC_REAL(hipFuncGetAttributes);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(func, NULL, "hipFuncGetAttributes"))
		return hipErrorInvalidDeviceFunction;
	hipError_t err = real(attr, func);
	struct rdc_route *r = err == hipSuccess && attr ? route_of(func) : NULL;
	if (!r || !r->fallback)
		return err;
	int saved = errno;
	rdc_guard_enter();
	if (rdc_route_fallback(r)) {
		attr->sharedSizeBytes = r->fb_k.group_segment_fixed_size;
		attr->localSizeBytes = r->fb_k.private_segment_fixed_size;
		attr->numRegs = (int)r->fb_k.vgpr_count;
		if (r->fb_k.max_flat_workgroup_size)
			attr->maxThreadsPerBlock = (int)r->fb_k.max_flat_workgroup_size;
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}

/* One attribute of a kernel routed to a fallback: the fallback's. */
RDC_HOOK hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib, hipFunction_t hfunc)
{
	__typeof__(&hipFuncGetAttribute) real = RDC_REAL(hipFuncGetAttribute);
	if (!real)
		return hipErrorNotInitialized;
	hipError_t err = real(value, attrib, hfunc);
	struct rdc_route *r = err == hipSuccess && value ? route_of(hfunc) : NULL;
	if (!r || !r->fallback)
		return err;
	int saved = errno;
	rdc_guard_enter();
	if (rdc_route_fallback(r)) {
		const struct rdc_kernel *k = &r->fb_k;
		switch (attrib) {
		case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)k->group_segment_fixed_size; break;
		case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = (int)k->private_segment_fixed_size; break;
		case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = (int)k->vgpr_count; break;
		case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
			if (k->max_flat_workgroup_size)
				*value = (int)k->max_flat_workgroup_size;
			break;
		default: break;
		}
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}

/* The block size with the most resident blocks and the grid that fills the
 * device.  For an `occupancy` kernel the runtime said none fits: answered
 * from the descriptor (block = the kernel's flat limit, or blockSizeLimit,
 * in whole waves; grid = blocks per multiprocessor x multiprocessors).  A
 * routed kernel: the fallback's.  `err`, `*gridSize`, `*blockSize`: the
 * runtime's; `key`: the host stub or hipFunction_t asked about. */
static hipError_t potential(const void *key, hipError_t err, int *gridSize, int *blockSize,
			    size_t dynSharedMemPerBlk, int blockSizeLimit, const char *api)
{
	struct rdc_route *r = gridSize && blockSize ? route_of(key) : NULL;
	if (r && is_denied(r, key, api))
		return hipErrorInvalidDeviceFunction;
	if (!r || (err == hipSuccess && *gridSize > 0 && *blockSize > 0))
		return err;
	int saved = errno;
	rdc_guard_enter();
	void *fb = r->fallback ? rdc_route_fallback(r) : NULL;
	const struct rdc_kernel *k = fb ? &r->fb_k : &r->k;
	const struct rdc_isa *isa = rdc_isa_find(rdc_tables(), r->device);
	__typeof__(&hipDeviceGetAttribute) attr = RDC_REAL(hipDeviceGetAttribute);
	__typeof__(&hipGetDevice) getdev = RDC_REAL(hipGetDevice);
	int dev = 0, mps = 0;
	if ((fb || rdc_route_rule_live(r, r->occupancy)) && isa && attr && getdev &&
	    getdev(&dev) == hipSuccess &&
	    attr(&mps, hipDeviceAttributeMultiprocessorCount, dev) == hipSuccess && mps > 0) {
		uint32_t wave = k->kd.present ? (k->kd.wave32 ? 32 : 64) : (k->wavefront_size ? k->wavefront_size : 64);
		uint32_t block = k->max_flat_workgroup_size ? k->max_flat_workgroup_size : 256;
		if (blockSizeLimit > 0 && (uint32_t)blockSizeLimit < block)
			block = (uint32_t)blockSizeLimit / wave * wave;
		uint32_t blocks = 0;
		if (block && rdc_rules_occupancy(isa, k, block, dynSharedMemPerBlk, &blocks) == 0 && blocks) {
			*blockSize = (int)block;
			*gridSize = (int)blocks * mps;
			if (!atomic_exchange(&r->logged_occ, 1))
				rdc_log_event(RDC_LOG_INFO, "rule-occupancy",
					      (struct rdc_kv[]){ RDC_KV_S("kernel", r->name),
								 RDC_KV_S("device", r->device),
								 RDC_KV_S("api", api),
								 RDC_KV_N("runtime_error", err),
								 RDC_KV_N("block", block), RDC_KV_N("grid", *gridSize) },
					      6);
			err = hipSuccess;
		}
	}
	rdc_guard_leave();
	errno = saved;
	return err;
}

RDC_HOOK hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, const void *f,
						      size_t dynSharedMemPerBlk, int blockSizeLimit)
{
	__typeof__(&hipOccupancyMaxPotentialBlockSize) real = RDC_REAL(hipOccupancyMaxPotentialBlockSize);
	if (!real)
		return hipErrorNotInitialized;
	if (rdc_stub_refused(f, NULL, "hipOccupancyMaxPotentialBlockSize"))
		return hipErrorInvalidDeviceFunction;
	hipError_t err = real(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit);
	return potential(f, err, gridSize, blockSize, dynSharedMemPerBlk, blockSizeLimit,
			 "hipOccupancyMaxPotentialBlockSize");
}

RDC_HOOK hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, hipFunction_t f,
							    size_t dynSharedMemPerBlk, int blockSizeLimit)
{
	__typeof__(&hipModuleOccupancyMaxPotentialBlockSize) real =
		RDC_REAL(hipModuleOccupancyMaxPotentialBlockSize);
	if (!real)
		return hipErrorNotInitialized;
	hipError_t err = real(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit);
	return potential(f, err, gridSize, blockSize, dynSharedMemPerBlk, blockSizeLimit,
			 "hipModuleOccupancyMaxPotentialBlockSize");
}

RDC_HOOK hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize,
								     hipFunction_t f, size_t dynSharedMemPerBlk,
								     int blockSizeLimit, unsigned int flags)
{
	__typeof__(&hipModuleOccupancyMaxPotentialBlockSizeWithFlags) real =
		RDC_REAL(hipModuleOccupancyMaxPotentialBlockSizeWithFlags);
	if (!real)
		return hipErrorNotInitialized;
	hipError_t err = real(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit, flags);
	return potential(f, err, gridSize, blockSize, dynSharedMemPerBlk, blockSizeLimit,
			 "hipModuleOccupancyMaxPotentialBlockSizeWithFlags");
}
