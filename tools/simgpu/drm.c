/* SPDX-License-Identifier: MIT */
/*
 * drm.c — the libdrm and libdrm_amdgpu entry points the thunk calls on a
 * render node, defined here so a preloaded simulator answers them for its
 * render fds (the real libraries would issue DRM ioctls the simulated node
 * cannot take): drmOpenRender, drmClose, amdgpu_device_initialize /
 * deinitialize / get_fd, amdgpu_get_marketing_name, amdgpu_query_gpu_info.
 * Any other fd goes to the next definition (the real libdrm), so a program
 * with a real render node keeps it.  Struct layouts are libdrm's own
 * (<amdgpu.h>, <amdgpu_drm.h>).
 *
 * amdgpu_device_initialize keeps a dup of the fd, as libdrm does (the thunk
 * closes its own fd and uses amdgpu_device_get_fd's); the marketing name is
 * the configured card's (the core's card table); gpu_counter_freq is 1 GHz
 * (the GPU clock counter of kfd_dev.c counts ns).  The buffer-object calls
 * (amdgpu_bo_import and the rest, for IPC) are drm_bo.c's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amdgpu.h>
#include <amdgpu_drm.h>

#include "sim.h"

struct amdgpu_device {  /* libdrm's type is opaque to its users */
	uint32_t magic;
	int fd;             /* our dup */
	int gpu;
	amdgpu_device_handle real; /* a real device handled by libdrm */
};
#define DEV_MAGIC 0x5349444du

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

RDC_SIM_API int drmOpenRender(int minor)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	if (c && minor >= 128 && minor < 128 + (int)c->n_gpus) {
		int fd = rdc_sim_open_render(minor, O_RDWR | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	int (*real)(int) = (int (*)(int))next("drmOpenRender");
	return real ? real(minor) : -ENOENT;
}

RDC_SIM_API int drmClose(int fd)
{
	if (rdc_sim_fd_kind(fd, NULL) == RDC_SIM_FD_RENDER) {
		rdc_sim_fd_forget(fd);
		return rdc_sim_real()->close(fd);
	}
	int (*real)(int) = (int (*)(int))next("drmClose");
	return real ? real(fd) : rdc_sim_real()->close(fd);
}

RDC_SIM_API int amdgpu_device_initialize(int fd, uint32_t *major, uint32_t *minor,
					 amdgpu_device_handle *out)
{
	int gpu = -1;
	if (rdc_sim_fd_kind(fd, &gpu) != RDC_SIM_FD_RENDER) {
		int (*real)(int, uint32_t *, uint32_t *, amdgpu_device_handle *) =
			(int (*)(int, uint32_t *, uint32_t *, amdgpu_device_handle *))next(
				"amdgpu_device_initialize");
		return real ? real(fd, major, minor, out) : -ENODEV;
	}
	if (!out)
		return -EINVAL;
	struct amdgpu_device *d = calloc(1, sizeof *d);
	if (!d)
		return -ENOMEM;
	d->magic = DEV_MAGIC;
	d->gpu = gpu;
	d->fd = rdc_sim_fd_dup(fd);
	if (d->fd < 0) {
		int e = errno;
		free(d);
		return -e;
	}
	if (major)
		*major = 3; /* amdgpu DRM interface 3.x */
	if (minor)
		*minor = 49;
	*out = d;
	return 0;
}

static bool ours(amdgpu_device_handle d)
{
	return d && d->magic == DEV_MAGIC;
}

int rdc_sim_drm_device_gpu(const void *dev)
{
	amdgpu_device_handle d = (amdgpu_device_handle)(uintptr_t)dev;
	return ours(d) ? d->gpu : -1;
}

RDC_SIM_API int amdgpu_device_deinitialize(amdgpu_device_handle d)
{
	if (!ours(d)) {
		int (*real)(amdgpu_device_handle) =
			(int (*)(amdgpu_device_handle))next("amdgpu_device_deinitialize");
		return real ? real(d) : -EINVAL;
	}
	rdc_sim_fd_forget(d->fd);
	rdc_sim_real()->close(d->fd);
	d->magic = 0;
	free(d);
	return 0;
}

RDC_SIM_API int amdgpu_device_get_fd(amdgpu_device_handle d)
{
	if (!ours(d)) {
		int (*real)(amdgpu_device_handle) =
			(int (*)(amdgpu_device_handle))next("amdgpu_device_get_fd");
		return real ? real(d) : -EINVAL;
	}
	return d->fd;
}

RDC_SIM_API const char *amdgpu_get_marketing_name(amdgpu_device_handle d)
{
	if (!ours(d)) {
		const char *(*real)(amdgpu_device_handle) =
			(const char *(*)(amdgpu_device_handle))next("amdgpu_get_marketing_name");
		return real ? real(d) : NULL;
	}
	return rdc_sim_config_get()->gpu[d->gpu].name;
}

/* amdgpu_drm.h families of the simulated targets. */
static uint32_t family(const struct rdc_sim_gpu *g, bool *apu)
{
	unsigned v = g->major * 10000 + g->minor * 100 + g->step;
	*apu = v == 100303 || v == 100305 || v == 100306 || v == 110003 || v >= 110500;
	switch (v) {
	case 100303: return AMDGPU_FAMILY_VGH;
	case 100305: return AMDGPU_FAMILY_YC;
	case 100306: return 149;  /* AMDGPU_FAMILY_GC_10_3_6 */
	case 110003: return 148;  /* AMDGPU_FAMILY_GC_11_0_1 */
	default:
		if (g->major == 11 && g->minor == 5)
			return 150;       /* AMDGPU_FAMILY_GC_11_5_0 */
		if (g->major == 11)
			return 145;       /* AMDGPU_FAMILY_GC_11_0_0 */
		return AMDGPU_FAMILY_NV;
	}
}

/* amdgpu's external revision (chip_external_rev): the PCI revision plus a
 * per-ASIC offset, as Linux nv.c nv_common_early_init sets external_rev_id
 * for GC 10.3.x. ROCR hands it to addrlib (image support), whose
 * Gfx10Lib::HwlConvertChipFamily asserts on a revision outside the ASIC's
 * range (amdgpu_asic_addr.h), e.g. Rembrandt's 0x01..0xFF: 0 aborted gfx1035.
 * gfx11 keeps 0 (soc21.c's offsets not checked here; addrlib accepted it). */
static uint32_t external_rev(const struct rdc_sim_gpu *g)
{
	if (g->major != 10 || g->minor != 3)
		return 0;
	switch (g->step) {
	case 0: return g->revision + 0x28u;  /* GC 10.3.0 Sienna Cichlid */
	case 1: return g->revision + 0x32u;  /* GC 10.3.2 Navy Flounder */
	case 2: return g->revision + 0x3cu;  /* GC 10.3.4 Dimgrey Cavefish */
	case 3: return g->revision + 0x01u;  /* GC 10.3.1 Van Gogh */
	case 4: return g->revision + 0x46u;  /* GC 10.3.5 Beige Goby */
	case 5: return g->device_id == 0x1681 ? 0x20u : g->revision + 0x01u; /* GC 10.3.3 Yellow Carp */
	case 6: return g->revision + 0x01u;  /* GC 10.3.6 */
	default: return 0;
	}
}

RDC_SIM_API int amdgpu_query_gpu_info(amdgpu_device_handle d, struct amdgpu_gpu_info *info)
{
	if (!ours(d)) {
		int (*real)(amdgpu_device_handle, struct amdgpu_gpu_info *) =
			(int (*)(amdgpu_device_handle, struct amdgpu_gpu_info *))next(
				"amdgpu_query_gpu_info");
		return real ? real(d, info) : -EINVAL;
	}
	if (!info)
		return -EINVAL;
	const struct rdc_sim_gpu *g = &rdc_sim_config_get()->gpu[d->gpu];
	bool apu;
	memset(info, 0, sizeof *info);
	info->asic_id = g->device_id;
	info->chip_rev = g->revision;
	info->pci_rev_id = g->revision;
	info->chip_external_rev = external_rev(g);
	info->family_id = family(g, &apu);
	info->ids_flags = apu ? AMDGPU_IDS_FLAGS_FUSION : 0;
	info->max_engine_clk = 2500000; /* kHz */
	info->max_memory_clk = 2000000;
	info->num_shader_engines = g->cus >= 40 ? 4 : g->cus >= 16 ? 2 : 1;
	info->num_shader_arrays_per_engine = 2;
	info->gpu_counter_freq = 1000000; /* kHz: the counter counts ns */
	info->cu_active_number = g->cus;
	info->vram_bit_width = 256;
	return 0;
}
