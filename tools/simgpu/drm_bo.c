/* SPDX-License-Identifier: MIT */
/*
 * drm_bo.c — the libdrm_amdgpu buffer-object calls ROCR makes on a
 * simulated device for IPC (ROCR 7.2 runtime.cpp IPCCreate / IPCClientImport
 * / IPCAttach / IPCDetach / FreeMemory; 6.4 only for host-memory imports):
 * amdgpu_bo_import of a dma-buf fd (kfd_mem.c's export, dmabuf.c's memfd),
 * amdgpu_bo_query_info, amdgpu_bo_set_metadata, amdgpu_bo_export,
 * amdgpu_bo_cpu_map / cpu_unmap, amdgpu_bo_free; amdgpu_bo_va_op is not
 * emulated (ROCR uses it for host-memory dma-bufs and the VMM API only):
 * -EINVAL, said once.  Calls on a device or buffer that is not the
 * simulator's go to the next definition (the real libdrm).
 *
 * As libdrm does (amdgpu_bo.c amdgpu_bo_import), importing a dma-buf that
 * this process already holds gives the same handle with one more
 * reference; amdgpu_bo_free drops one and the last frees it.  The metadata
 * lives with the dma-buf, not the handle, so every process sees what one
 * set.  A dma-buf fd that is not one of the simulator's is -EINVAL here
 * (the kernel's drmPrimeFDToHandle refuses a file that is no dma-buf).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <amdgpu.h>
#include <amdgpu_drm.h>

#include "sim.h"

struct amdgpu_bo {      /* libdrm's type is opaque to its users */
	uint32_t magic;
	int refs, fd;       /* our dup of the dma-buf */
	ino_t ino;
	uint64_t size;
	uint32_t kfd_flags, gem;
	void *cpu;          /* amdgpu_bo_cpu_map's mapping, NULL if none */
	int cpu_refs;
	struct amdgpu_bo *next;
};
#define BO_MAGIC 0x53494d42u

static pthread_mutex_t bo_lock = PTHREAD_MUTEX_INITIALIZER;
static struct amdgpu_bo *bos;
static uint32_t next_gem = 1;

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static bool ours(amdgpu_bo_handle b)
{
	return b && b->magic == BO_MAGIC;
}

RDC_SIM_API int amdgpu_bo_import(amdgpu_device_handle dev, enum amdgpu_bo_handle_type type, uint32_t shared,
				 struct amdgpu_bo_import_result *out)
{
	if (rdc_sim_drm_device_gpu(dev) < 0) {
		int (*real)(amdgpu_device_handle, enum amdgpu_bo_handle_type, uint32_t,
			    struct amdgpu_bo_import_result *) =
			(int (*)(amdgpu_device_handle, enum amdgpu_bo_handle_type, uint32_t,
				 struct amdgpu_bo_import_result *))next("amdgpu_bo_import");
		return real ? real(dev, type, shared, out) : -ENODEV;
	}
	if (!out)
		return -EINVAL;
	if (type != amdgpu_bo_handle_type_dma_buf_fd) {
		rdc_sim_log("amdgpu_bo_import of handle type %d is not emulated (only dma-buf fds): EINVAL", type);
		return -EINVAL;
	}
	uint32_t gpu_id, flags;
	uint64_t size;
	int rc = rdc_sim_dmabuf_identify((int)shared, &gpu_id, &flags, &size);
	struct stat st;
	if (rc || fstat((int)shared, &st))
		return rc ? rc : -errno;
	pthread_mutex_lock(&bo_lock);
	struct amdgpu_bo *b = bos;
	while (b && b->ino != st.st_ino)
		b = b->next;
	if (b) {
		b->refs++;
	} else if ((b = calloc(1, sizeof *b))) {
		b->fd = fcntl((int)shared, F_DUPFD_CLOEXEC, 0);
		if (b->fd < 0) {
			rc = -errno;
			free(b);
			b = NULL;
		} else {
			b->magic = BO_MAGIC;
			b->refs = 1;
			b->ino = st.st_ino;
			b->size = size;
			b->kfd_flags = flags;
			b->gem = next_gem++;
			b->next = bos;
			bos = b;
		}
	} else {
		rc = -ENOMEM;
	}
	pthread_mutex_unlock(&bo_lock);
	if (!b)
		return rc;
	out->buf_handle = b;
	out->alloc_size = b->size;
	return 0;
}

RDC_SIM_API int amdgpu_bo_free(amdgpu_bo_handle b)
{
	if (!ours(b)) {
		int (*real)(amdgpu_bo_handle) = (int (*)(amdgpu_bo_handle))next("amdgpu_bo_free");
		return real ? real(b) : -EINVAL;
	}
	pthread_mutex_lock(&bo_lock);
	bool last = --b->refs == 0;
	if (last) {
		struct amdgpu_bo **pp = &bos;
		while (*pp && *pp != b)
			pp = &(*pp)->next;
		if (*pp)
			*pp = b->next;
	}
	pthread_mutex_unlock(&bo_lock);
	if (last) {
		if (b->cpu)
			rdc_sim_real()->munmap(b->cpu, b->size); /* libdrm: freeing unmaps */
		rdc_sim_real()->close(b->fd);
		b->magic = 0;
		free(b);
	}
	return 0;
}

RDC_SIM_API int amdgpu_bo_query_info(amdgpu_bo_handle b, struct amdgpu_bo_info *info)
{
	if (!ours(b)) {
		int (*real)(amdgpu_bo_handle, struct amdgpu_bo_info *) =
			(int (*)(amdgpu_bo_handle, struct amdgpu_bo_info *))next("amdgpu_bo_query_info");
		return real ? real(b, info) : -EINVAL;
	}
	if (!info)
		return -EINVAL;
	memset(info, 0, sizeof *info);
	info->alloc_size = b->size;
	info->phys_alignment = 4096;
	bool vram = b->kfd_flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
	info->preferred_heap = vram ? AMDGPU_GEM_DOMAIN_VRAM : AMDGPU_GEM_DOMAIN_GTT;
	info->alloc_flags = (b->kfd_flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC) ? AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED
								     : (vram ? AMDGPU_GEM_CREATE_NO_CPU_ACCESS : 0);
	uint32_t n = 0;
	int rc = rdc_sim_dmabuf_metadata(b->fd, b->size, false, &info->metadata.flags, &info->metadata.tiling_info,
					 &n, info->metadata.umd_metadata);
	info->metadata.size_metadata = n;
	return rc;
}

RDC_SIM_API int amdgpu_bo_set_metadata(amdgpu_bo_handle b, struct amdgpu_bo_metadata *md)
{
	if (!ours(b)) {
		int (*real)(amdgpu_bo_handle, struct amdgpu_bo_metadata *) =
			(int (*)(amdgpu_bo_handle, struct amdgpu_bo_metadata *))next("amdgpu_bo_set_metadata");
		return real ? real(b, md) : -EINVAL;
	}
	if (!md)
		return -EINVAL;
	uint32_t n = md->size_metadata;
	return rdc_sim_dmabuf_metadata(b->fd, b->size, true, &md->flags, &md->tiling_info, &n, md->umd_metadata);
}

RDC_SIM_API int amdgpu_bo_export(amdgpu_bo_handle b, enum amdgpu_bo_handle_type type, uint32_t *shared)
{
	if (!ours(b)) {
		int (*real)(amdgpu_bo_handle, enum amdgpu_bo_handle_type, uint32_t *) =
			(int (*)(amdgpu_bo_handle, enum amdgpu_bo_handle_type, uint32_t *))next("amdgpu_bo_export");
		return real ? real(b, type, shared) : -EINVAL;
	}
	if (!shared)
		return -EINVAL;
	switch (type) {
	case amdgpu_bo_handle_type_kms:
		*shared = b->gem; /* a per-process GEM handle, as the kernel's */
		return 0;
	case amdgpu_bo_handle_type_dma_buf_fd: {
		int fd = fcntl(b->fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		*shared = (uint32_t)fd;
		return 0;
	}
	default:
		return -EINVAL; /* flink names need DRM authentication (libdrm: not for render nodes) */
	}
}

RDC_SIM_API int amdgpu_bo_cpu_map(amdgpu_bo_handle b, void **cpu)
{
	if (!ours(b)) {
		int (*real)(amdgpu_bo_handle, void **) = (int (*)(amdgpu_bo_handle, void **))next("amdgpu_bo_cpu_map");
		return real ? real(b, cpu) : -EINVAL;
	}
	if (!cpu)
		return -EINVAL;
	pthread_mutex_lock(&bo_lock);
	int rc = 0;
	if (!b->cpu) {
		void *p = rdc_sim_real()->mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
		if (p == MAP_FAILED)
			rc = -errno;
		else
			b->cpu = p;
	}
	if (!rc) {
		b->cpu_refs++;
		*cpu = b->cpu;
	}
	pthread_mutex_unlock(&bo_lock);
	return rc;
}

RDC_SIM_API int amdgpu_bo_cpu_unmap(amdgpu_bo_handle b)
{
	if (!ours(b)) {
		int (*real)(amdgpu_bo_handle) = (int (*)(amdgpu_bo_handle))next("amdgpu_bo_cpu_unmap");
		return real ? real(b) : -EINVAL;
	}
	pthread_mutex_lock(&bo_lock);
	int rc = b->cpu ? 0 : -EINVAL;
	if (b->cpu && --b->cpu_refs == 0) {
		rdc_sim_real()->munmap(b->cpu, b->size);
		b->cpu = NULL;
	}
	pthread_mutex_unlock(&bo_lock);
	return rc;
}

RDC_SIM_API int amdgpu_bo_va_op(amdgpu_bo_handle b, uint64_t offset, uint64_t size, uint64_t addr, uint64_t flags,
				uint32_t ops)
{
	if (!ours(b)) {
		int (*real)(amdgpu_bo_handle, uint64_t, uint64_t, uint64_t, uint64_t, uint32_t) =
			(int (*)(amdgpu_bo_handle, uint64_t, uint64_t, uint64_t, uint64_t, uint32_t))next(
				"amdgpu_bo_va_op");
		return real ? real(b, offset, size, addr, flags, ops) : -EINVAL;
	}
	static int said;
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		rdc_sim_log("amdgpu_bo_va_op on a simulated buffer (host-memory dma-buf or VMM mapping) is not "
			    "emulated: EINVAL");
	return -EINVAL;
}

void rdc_sim_drm_bo_atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
	bo_lock = fresh;
}
