/* SPDX-License-Identifier: MIT */
/*
 * memory.c — "GPU" memory of the simulated GPU: every allocation is
 * anonymous host memory (mmap), so the GPU virtual address equals the CPU
 * one; scratch reservations use MAP_NORESERVE (ROCR asks for up to 4 GB).
 * Allocations and registered user ranges are tracked in one table (for
 * hsaKmtQueryPointerInfo, the trace's code-object lookup and bounds checks)
 * and released on hsaKmtFreeMemory / hsaKmtCloseKFD.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim.h"

struct region {
	uintptr_t base;
	uint64_t size;      /* what the caller asked for (page-rounded) */
	bool owned;         /* mmap'd here (vs. a registered user range) */
	HSA_POINTER_TYPE type;
	HSAuint32 node;
	HsaMemFlags flags;
	void *user_data;
	HSAuint32 n_mapped;
	HSAuint32 mapped[RDC_SIM_MAX_GPUS + 1];
};

/* Readers: lookups, and the engines while a packet touches memory
 * (rdc_sim_mem_hold); writers: changes to the table, and hsaKmtFreeMemory
 * until its munmap is done, so no packet ever touches unmapped memory. */
static pthread_rwlock_t mem_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct region *regions; /* sorted by base */
static size_t n_regions, cap_regions;

static uint64_t page_round(uint64_t n) { return (n + 4095) & ~4095ull; }

/* Index of the region containing addr, or -1.  Caller holds mem_lock. */
static ptrdiff_t find_locked(uintptr_t addr)
{
	size_t lo = 0, hi = n_regions;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (regions[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	const struct region *r = &regions[lo - 1];
	return addr - r->base < (r->size ? r->size : 1) ? (ptrdiff_t)(lo - 1) : -1;
}

static int insert_locked(const struct region *r)
{
	if (n_regions == cap_regions) {
		size_t cap = cap_regions ? cap_regions * 2 : 64;
		struct region *nr = realloc(regions, cap * sizeof *nr);
		if (!nr)
			return -1;
		regions = nr;
		cap_regions = cap;
	}
	size_t i = n_regions;
	while (i > 0 && regions[i - 1].base > r->base) {
		regions[i] = regions[i - 1];
		i--;
	}
	regions[i] = *r;
	n_regions++;
	return 0;
}

static void remove_locked(size_t i)
{
	memmove(&regions[i], &regions[i + 1], (n_regions - i - 1) * sizeof *regions);
	n_regions--;
}

bool rdc_sim_mem_find(uintptr_t addr, struct rdc_sim_range *out)
{
	pthread_rwlock_rdlock(&mem_lock);
	ptrdiff_t i = find_locked(addr);
	if (i >= 0 && out) {
		out->base = regions[i].base;
		out->size = regions[i].size;
	}
	pthread_rwlock_unlock(&mem_lock);
	return i >= 0;
}

bool rdc_sim_mem_valid(uintptr_t addr, uint64_t len)
{
	struct rdc_sim_range r;
	if (!rdc_sim_mem_find(addr, &r))
		return false;
	return len <= r.size && addr - r.base <= r.size - len;
}

int rdc_sim_mem_track(void *addr, uint64_t len)
{
	struct region r = { .base = (uintptr_t)addr, .size = len, .owned = false,
			    .type = HSA_POINTER_ALLOCATED, .node = 0 };
	pthread_rwlock_wrlock(&mem_lock);
	int rc = insert_locked(&r);
	pthread_rwlock_unlock(&mem_lock);
	return rc;
}

void rdc_sim_mem_untrack(void *addr)
{
	pthread_rwlock_wrlock(&mem_lock);
	ptrdiff_t i = find_locked((uintptr_t)addr);
	if (i >= 0 && regions[i].base == (uintptr_t)addr && !regions[i].owned)
		remove_locked((size_t)i);
	pthread_rwlock_unlock(&mem_lock);
}

void rdc_sim_mem_hold(void)
{
	pthread_rwlock_rdlock(&mem_lock);
}

void rdc_sim_mem_release(void)
{
	pthread_rwlock_unlock(&mem_lock);
}

void rdc_sim_mem_atfork_child(void)
{
	pthread_rwlock_t fresh = PTHREAD_RWLOCK_INITIALIZER;
	mem_lock = fresh;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtAllocMemory(HSAuint32 node, HSAuint64 size, HsaMemFlags flags,
					     void **addr)
{
	if (!rdc_sim_is_open())
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	if (!addr || size == 0)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (node >= rdc_sim_num_nodes())
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	if (flags.ui32.GDSMemory) {
		rdc_sim_log("hsaKmtAllocMemory: GDS memory is not simulated (the nodes report 0 KB)");
		return HSAKMT_STATUS_NOT_SUPPORTED;
	}
	uint64_t len = page_round(size);
	int mflags = MAP_PRIVATE | MAP_ANONYMOUS;
	void *hint = NULL;
	if (flags.ui32.Scratch || len >= (1ull << 30))
		mflags |= MAP_NORESERVE;
	if (flags.ui32.FixedAddress) {
		if (!*addr || ((uintptr_t)*addr & 4095))
			return HSAKMT_STATUS_INVALID_PARAMETER;
		hint = *addr;
		mflags |= MAP_FIXED_NOREPLACE;
	}
	void *p = mmap(hint, len, PROT_READ | PROT_WRITE | (flags.ui32.ExecuteAccess ? PROT_EXEC : 0),
		       mflags, -1, 0);
	if (p == MAP_FAILED)
		return HSAKMT_STATUS_NO_MEMORY;
	if (hint && p != hint) { /* kernels without MAP_FIXED_NOREPLACE treat it as a hint */
		munmap(p, len);
		return HSAKMT_STATUS_NO_MEMORY;
	}
	struct region r = { .base = (uintptr_t)p, .size = len, .owned = true,
			    .type = HSA_POINTER_ALLOCATED, .node = node, .flags = flags };
	pthread_rwlock_wrlock(&mem_lock);
	int rc = insert_locked(&r);
	pthread_rwlock_unlock(&mem_lock);
	if (rc) {
		munmap(p, len);
		return HSAKMT_STATUS_NO_MEMORY;
	}
	*addr = p;
	rdc_sim_debug("alloc node %u size 0x%llx%s -> %p", node, (unsigned long long)size,
		      flags.ui32.Scratch ? " (scratch)" : "", p);
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtFreeMemory(void *addr, HSAuint64 size)
{
	(void)size;
	if (!addr)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pthread_rwlock_wrlock(&mem_lock);
	ptrdiff_t i = find_locked((uintptr_t)addr);
	if (i < 0 || regions[i].base != (uintptr_t)addr || !regions[i].owned) {
		pthread_rwlock_unlock(&mem_lock);
		return HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
	}
	struct region r = regions[i];
	remove_locked((size_t)i);
	munmap((void *)r.base, r.size); /* under the lock: no engine is inside it */
	pthread_rwlock_unlock(&mem_lock);
	return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS map_nodes(void *addr, HSAuint64 *alt, HSAuint64 n, const HSAuint32 *nodes)
{
	if (!addr)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pthread_rwlock_wrlock(&mem_lock);
	ptrdiff_t i = find_locked((uintptr_t)addr);
	if (i >= 0) {
		struct region *r = &regions[i];
		if (nodes) {
			r->n_mapped = 0;
			for (HSAuint64 k = 0; k < n && r->n_mapped < RDC_SIM_MAX_GPUS + 1; k++)
				r->mapped[r->n_mapped++] = nodes[k];
		} else {
			r->n_mapped = 0;
			for (unsigned k = 1; k < rdc_sim_num_nodes() && r->n_mapped < RDC_SIM_MAX_GPUS + 1; k++)
				r->mapped[r->n_mapped++] = k;
		}
	}
	pthread_rwlock_unlock(&mem_lock);
	if (alt)
		*alt = (HSAuint64)(uintptr_t)addr; /* same VA on CPU and "GPU" */
	return i >= 0 ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_MEMORY_NOT_REGISTERED;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtMapMemoryToGPU(void *addr, HSAuint64 size, HSAuint64 *alt)
{
	(void)size;
	return map_nodes(addr, alt, 0, NULL);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtMapMemoryToGPUNodes(void *addr, HSAuint64 size, HSAuint64 *alt,
						     HsaMemMapFlags f, HSAuint64 n, HSAuint32 *nodes)
{
	(void)size;
	(void)f;
	return map_nodes(addr, alt, n, nodes);
}

RDC_SIM_API HSAKMT_STATUS hsaKmtUnmapMemoryToGPU(void *addr)
{
	if (!addr)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pthread_rwlock_wrlock(&mem_lock);
	ptrdiff_t i = find_locked((uintptr_t)addr);
	if (i >= 0)
		regions[i].n_mapped = 0;
	pthread_rwlock_unlock(&mem_lock);
	/* The thunk tolerates unmapping what is not mapped. */
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtRegisterMemoryWithFlags(void *addr, HSAuint64 size, HsaMemFlags f)
{
	if (!addr || !size)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	pthread_rwlock_wrlock(&mem_lock);
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	ptrdiff_t i = find_locked((uintptr_t)addr);
	if (i >= 0 && regions[i].base == (uintptr_t)addr) {
		/* Our own allocation (or already registered): nothing to do. */
	} else {
		struct region r = { .base = (uintptr_t)addr, .size = size, .owned = false,
				    .type = HSA_POINTER_REGISTERED_USER, .node = 0, .flags = f };
		if (insert_locked(&r))
			st = HSAKMT_STATUS_NO_MEMORY;
	}
	pthread_rwlock_unlock(&mem_lock);
	return st;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtDeregisterMemory(void *addr)
{
	pthread_rwlock_wrlock(&mem_lock);
	ptrdiff_t i = find_locked((uintptr_t)addr);
	if (i >= 0 && !regions[i].owned && regions[i].base == (uintptr_t)addr)
		remove_locked((size_t)i);
	pthread_rwlock_unlock(&mem_lock);
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtQueryPointerInfo(const void *ptr, HsaPointerInfo *info)
{
	if (!info)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	memset(info, 0, sizeof *info);
	pthread_rwlock_rdlock(&mem_lock);
	ptrdiff_t i = find_locked((uintptr_t)ptr);
	if (i < 0) {
		pthread_rwlock_unlock(&mem_lock);
		info->Type = HSA_POINTER_UNKNOWN;
		return HSAKMT_STATUS_ERROR;
	}
	struct region *r = &regions[i];
	info->Type = r->type;
	info->Node = r->node;
	info->MemFlags = r->flags;
	info->CPUAddress = (void *)r->base;
	info->GPUAddress = r->base;
	info->SizeInBytes = r->size;
	info->NRegisteredNodes = r->n_mapped;
	info->NMappedNodes = r->n_mapped;
	info->RegisteredNodes = r->mapped;
	info->MappedNodes = r->mapped;
	info->UserData = r->user_data;
	pthread_rwlock_unlock(&mem_lock);
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSetMemoryUserData(const void *ptr, void *user_data)
{
	pthread_rwlock_wrlock(&mem_lock);
	ptrdiff_t i = find_locked((uintptr_t)ptr);
	if (i >= 0)
		regions[i].user_data = user_data;
	pthread_rwlock_unlock(&mem_lock);
	return i >= 0 ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_PARAMETER;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtSetMemoryPolicy(HSAuint32 node, HSAuint32 def, HSAuint32 alt,
						 void *addr, HSAuint64 size)
{
	(void)node; (void)def; (void)alt; (void)addr; (void)size;
	return HSAKMT_STATUS_SUCCESS;
}

/* hsaKmtCloseKFD: release everything still allocated. */
void rdc_sim_mem_close(void)
{
	pthread_rwlock_wrlock(&mem_lock);
	for (size_t i = 0; i < n_regions; i++)
		if (regions[i].owned)
			munmap((void *)regions[i].base, regions[i].size);
	free(regions);
	regions = NULL;
	n_regions = cap_regions = 0;
	pthread_rwlock_unlock(&mem_lock);
}
