/* SPDX-License-Identifier: MIT */
/*
 * kfd_dev.c — the simulated /dev/kfd and /dev/dri/renderD<128+i>: which fds
 * of this process are theirs, the ioctl dispatch of /dev/kfd (by _IOC_NR,
 * with KFD's own size handling: the caller's argument is copied into a
 * zeroed buffer of the larger of its size and ours, and back), the ioctls
 * small enough to live here (version, apertures, acquire VM, memory policy,
 * XNACK mode, clock counters, tile config, scratch, trap handler), and the
 * mmaps of the kfd fd (doorbell pages and MMIO remap pages: plain shared
 * memory, nothing listens to them; the command processor polls the rings).
 *
 * An fd of /dev/kfd is a memfd named "kfd", a render node's one named
 * "renderD<minor>": they exist, can be closed, and map only through the
 * mmap hook.  The KFD process lives while a kfd fd is open; when the last
 * one is closed its queues, events and buffer objects go.  A forked child
 * that opens /dev/kfd gets a KFD process of its own, as on KFD (the parent's
 * queues, events and memory are not its).  Unknown ioctls fail with EINVAL,
 * as KFD answers them, and are logged.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

#define MAX_FDS 256
/* kfd_priv.h: the mmap offset types of the kfd fd. */
#define KFD_MMAP_TYPE_SHIFT 62
#define KFD_MMAP_TYPE_DOORBELL 3ull
#define KFD_MMAP_TYPE_EVENTS 2ull
#define KFD_MMAP_TYPE_MMIO 0ull


static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { int fd; enum rdc_sim_fd_kind kind; int gpu; } fds[MAX_FDS];
static unsigned n_fds, kfd_open;  /* kfd_open: open kfd fds of the KFD process */
static pid_t kfd_pid;             /* the process the KFD state belongs to */
static int vm_fd[RDC_SIM_MAX_GPUS]; /* ACQUIRE_VM: the render fd, 0 = none */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

uint32_t rdc_sim_gpu_id(unsigned gpu)
{
	/* KFD's gpu_id is a 16-bit hash of the device; any stable non-zero
	 * value per GPU will do. */
	return 0x5a10u + gpu * 0x101u;
}

int rdc_sim_gpu_by_id(uint32_t id)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	for (unsigned i = 0; c && i < c->n_gpus; i++)
		if (rdc_sim_gpu_id(i) == id)
			return (int)i;
	return -1;
}

uint64_t rdc_sim_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void atfork_child(void)
{
	pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
	fd_lock = fresh;
	rdc_sim_events_atfork_child();
	rdc_sim_queues_atfork_child();
	rdc_sim_mem_atfork_child();
	rdc_sim_drm_bo_atfork_child();
}

static void register_atfork(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

static int add_fd_locked(int fd, enum rdc_sim_fd_kind kind, int gpu)
{
	if (n_fds == MAX_FDS)
		return -EMFILE;
	fds[n_fds].fd = fd;
	fds[n_fds].kind = kind;
	fds[n_fds].gpu = gpu;
	n_fds++;
	return 0;
}

static int new_memfd(const char *name, int flags)
{
	return memfd_create(name, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
}

/* Tear the KFD process down (last kfd fd closed, or a forked child's first
 * open).  Caller does not hold fd_lock. */
static void kfd_process_end(void)
{
	rdc_sim_queues_close();
	rdc_sim_kfd_queues_end();
	rdc_sim_events_close();
	rdc_sim_kfd_events_end();
	rdc_sim_mem_close();
	rdc_sim_trace_close();
	memset(vm_fd, 0, sizeof vm_fd);
}

int rdc_sim_open_kfd(int flags)
{
	pthread_once(&atfork_once, register_atfork);
	if (!rdc_sim_config_get()) {
		errno = ENODEV; /* the reason is already on stderr */
		return -1;
	}
	pthread_mutex_lock(&fd_lock);
	bool child = kfd_open && kfd_pid != getpid();
	pthread_mutex_unlock(&fd_lock);
	if (child) {
		/* The inherited fds stay (the thunk closes them); their KFD
		 * process is the parent's.  Start a new one. */
		rdc_sim_debug("forked child opens /dev/kfd: a KFD process of its own");
		kfd_process_end();
		pthread_mutex_lock(&fd_lock);
		kfd_open = 0;
		for (unsigned i = 0; i < n_fds; i++)
			if (fds[i].kind == RDC_SIM_FD_KFD)
				fds[i].kind = RDC_SIM_FD_NONE; /* not ours to count any more */
		pthread_mutex_unlock(&fd_lock);
	}
	int fd = new_memfd("kfd", flags);
	if (fd < 0)
		return -1;
	pthread_mutex_lock(&fd_lock);
	int rc = add_fd_locked(fd, RDC_SIM_FD_KFD, -1);
	if (!rc) {
		if (!kfd_open++)
			kfd_pid = getpid();
	}
	pthread_mutex_unlock(&fd_lock);
	if (rc) {
		rdc_sim_real()->close(fd);
		errno = -rc;
		return -1;
	}
	rdc_sim_debug("/dev/kfd opened: fd %d", fd);
	return fd;
}

int rdc_sim_open_render(int minor, int flags)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	int gpu = minor - 128;
	if (!c || gpu < 0 || (unsigned)gpu >= c->n_gpus) {
		errno = ENOENT;
		return -1;
	}
	char name[32];
	snprintf(name, sizeof name, "renderD%d", minor);
	int fd = new_memfd(name, flags);
	if (fd < 0)
		return -1;
	pthread_mutex_lock(&fd_lock);
	int rc = add_fd_locked(fd, RDC_SIM_FD_RENDER, gpu);
	pthread_mutex_unlock(&fd_lock);
	if (rc) {
		rdc_sim_real()->close(fd);
		errno = -rc;
		return -1;
	}
	return fd;
}

int rdc_sim_fd_dup(int fd)
{
	int gpu;
	if (rdc_sim_fd_kind(fd, &gpu) != RDC_SIM_FD_RENDER) {
		errno = EBADF;
		return -1;
	}
	int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (nfd < 0)
		return -1;
	pthread_mutex_lock(&fd_lock);
	int rc = add_fd_locked(nfd, RDC_SIM_FD_RENDER, gpu);
	pthread_mutex_unlock(&fd_lock);
	if (rc) {
		rdc_sim_real()->close(nfd);
		errno = -rc;
		return -1;
	}
	return nfd;
}

enum rdc_sim_fd_kind rdc_sim_fd_kind(int fd, int *gpu)
{
	enum rdc_sim_fd_kind k = RDC_SIM_FD_NONE;
	if (fd < 0 || !__atomic_load_n(&n_fds, __ATOMIC_ACQUIRE))
		return k;
	pthread_mutex_lock(&fd_lock);
	for (unsigned i = 0; i < n_fds; i++)
		if (fds[i].fd == fd) {
			k = fds[i].kind;
			if (gpu)
				*gpu = fds[i].gpu;
			break;
		}
	pthread_mutex_unlock(&fd_lock);
	return k;
}

void rdc_sim_fd_forget(int fd)
{
	if (fd < 0 || !__atomic_load_n(&n_fds, __ATOMIC_ACQUIRE))
		return;
	bool last = false;
	pthread_mutex_lock(&fd_lock);
	for (unsigned i = 0; i < n_fds; i++) {
		if (fds[i].fd != fd)
			continue;
		if (fds[i].kind == RDC_SIM_FD_KFD && kfd_pid == getpid())
			last = --kfd_open == 0;
		if (fds[i].kind == RDC_SIM_FD_RENDER)
			for (unsigned g = 0; g < RDC_SIM_MAX_GPUS; g++)
				if (vm_fd[g] == fd)
					vm_fd[g] = 0; /* the VM stays; its fd is gone */
		fds[i] = fds[--n_fds];
		break;
	}
	pthread_mutex_unlock(&fd_lock);
	if (last) {
		rdc_sim_debug("last /dev/kfd fd closed: the KFD process ends");
		kfd_process_end();
	}
}

static int n_gpus(void)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	return c ? (int)c->n_gpus : 0;
}

/* KFD 1.14 ("Update kfd_event_data"): the event ages of events.c, without
 * which ROCR 6.4/7.2's waits can lose a wake-up.  1.12's DMA-buf export is
 * emulated (kfd_mem.c; ROCR takes IPC through DMA-buf from 1.12 on,
 * runtime.cpp HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED); 1.13's debugger
 * requests are answered like any request not emulated; the thunk reaches
 * them only where the topology claims debug firmware, which ours does not. */
#define SIM_KFD_MINOR_VERSION 14

static int ioc_get_version(void *arg)
{
	struct kfd_ioctl_get_version_args *a = arg;
	a->major_version = KFD_IOCTL_MAJOR_VERSION;
	a->minor_version = SIM_KFD_MINOR_VERSION;
	return 0;
}

/* kfd_ioctl_get_process_apertures_new: num_of_nodes 0 asks for the count.
 * The values are those KFD gives a gfx9+ dGPU (kfd_flat_memory.c): LDS and
 * scratch apertures in the non-canonical hole, GPUVM up to 2^47 - 1 (which
 * makes the thunk use plain mmap for its SVM apertures). */
static int ioc_apertures_new(void *arg)
{
	struct kfd_ioctl_get_process_apertures_new_args *a = arg;
	uint32_t n = (uint32_t)n_gpus();
	if (a->num_of_nodes == 0) {
		a->num_of_nodes = n;
		return 0;
	}
	struct kfd_process_device_apertures *ap =
		(struct kfd_process_device_apertures *)(uintptr_t)a->kfd_process_device_apertures_ptr;
	if (!ap)
		return -EFAULT;
	uint32_t k = a->num_of_nodes < n ? a->num_of_nodes : n;
	for (uint32_t i = 0; i < k; i++) {
		memset(&ap[i], 0, sizeof ap[i]);
		ap[i].gpu_id = rdc_sim_gpu_id(i);
		ap[i].lds_base = RDC_SIM_LDS_APERTURE;
		ap[i].lds_limit = (1ull << 48) | 0xffffffffull;
		ap[i].scratch_base = RDC_SIM_SCRATCH_APERTURE;
		ap[i].scratch_limit = (2ull << 48) | 0xffffffffull;
		ap[i].gpuvm_base = 0x1000;
		ap[i].gpuvm_limit = (1ull << 47) - 1;
	}
	a->num_of_nodes = k;
	return 0;
}

static int ioc_acquire_vm(void *arg)
{
	struct kfd_ioctl_acquire_vm_args *a = arg;
	int g = rdc_sim_gpu_by_id(a->gpu_id), fg = -1;
	if (g < 0)
		return -EINVAL;
	if (rdc_sim_fd_kind((int)a->drm_fd, &fg) != RDC_SIM_FD_RENDER || fg != g)
		return -EINVAL; /* not a render node of this GPU (fget / drm file) */
	pthread_mutex_lock(&fd_lock);
	int rc = 0;
	if (vm_fd[g] && vm_fd[g] != (int)a->drm_fd)
		rc = -EBUSY; /* KFD: a VM is already acquired from another file */
	else
		vm_fd[g] = (int)a->drm_fd;
	pthread_mutex_unlock(&fd_lock);
	return rc;
}

static int ioc_memory_policy(void *arg)
{
	struct kfd_ioctl_set_memory_policy_args *a = arg;
	if (rdc_sim_gpu_by_id(a->gpu_id) < 0)
		return -EINVAL;
	if (a->default_policy > KFD_IOC_CACHE_POLICY_NONCOHERENT ||
	    a->alternate_policy > KFD_IOC_CACHE_POLICY_NONCOHERENT)
		return -EINVAL;
	return 0;
}

static int ioc_xnack(void *arg)
{
	struct kfd_ioctl_set_xnack_mode_args *a = arg;
	if (a->xnack_enabled < 0) {
		a->xnack_enabled = 0; /* query: off (RDNA has no XNACK replay) */
		return 0;
	}
	return a->xnack_enabled ? -EPERM : 0;
}

static int ioc_clock(void *arg)
{
	struct kfd_ioctl_get_clock_counters_args *a = arg;
	uint64_t now = rdc_sim_now_ns();
	/* KFD: the GPU counter of a known gpu_id (0 otherwise), the CPU's raw
	 * monotonic ns, boot time ns, and a 1 GHz system clock. */
	a->gpu_clock_counter = rdc_sim_gpu_by_id(a->gpu_id) >= 0 ? now : 0;
	a->cpu_clock_counter = now;
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	a->system_clock_counter = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	a->system_clock_freq = 1000000000ull;
	return 0;
}

/* amdgpu_amdkfd_get_tile_config: gfx10 has 32 tile and 16 macro-tile
 * registers, all 0 (no legacy tiling); gb_addr_config is not read by
 * compute (ROCR passes it to image code only). */
static int ioc_tile_config(void *arg)
{
	struct kfd_ioctl_get_tile_config_args *a = arg;
	if (rdc_sim_gpu_by_id(a->gpu_id) < 0)
		return -EINVAL;
	uint32_t *t = (uint32_t *)(uintptr_t)a->tile_config_ptr;
	uint32_t *m = (uint32_t *)(uintptr_t)a->macro_tile_config_ptr;
	uint32_t nt = a->num_tile_configs < 32 ? a->num_tile_configs : 32;
	uint32_t nm = a->num_macro_tile_configs < 16 ? a->num_macro_tile_configs : 16;
	if ((nt && !t) || (nm && !m))
		return -EFAULT;
	for (uint32_t i = 0; i < nt; i++)
		t[i] = 0;
	for (uint32_t i = 0; i < nm; i++)
		m[i] = 0;
	a->num_tile_configs = nt;
	a->num_macro_tile_configs = nm;
	a->gb_addr_config = 0;
	a->num_banks = 0;
	a->num_ranks = 0;
	return 0;
}

static int ioc_gpu_only(uint32_t gpu_id)
{
	return rdc_sim_gpu_by_id(gpu_id) < 0 ? -EINVAL : 0;
}

static const char *const ioc_names[] = {
	[0x01] = "GET_VERSION", [0x02] = "CREATE_QUEUE", [0x03] = "DESTROY_QUEUE",
	[0x04] = "SET_MEMORY_POLICY", [0x05] = "GET_CLOCK_COUNTERS",
	[0x06] = "GET_PROCESS_APERTURES", [0x07] = "UPDATE_QUEUE", [0x08] = "CREATE_EVENT",
	[0x09] = "DESTROY_EVENT", [0x0A] = "SET_EVENT", [0x0B] = "RESET_EVENT",
	[0x0C] = "WAIT_EVENTS", [0x11] = "SET_SCRATCH_BACKING_VA", [0x12] = "GET_TILE_CONFIG",
	[0x13] = "SET_TRAP_HANDLER", [0x14] = "GET_PROCESS_APERTURES_NEW", [0x15] = "ACQUIRE_VM",
	[0x16] = "ALLOC_MEMORY_OF_GPU", [0x17] = "FREE_MEMORY_OF_GPU",
	[0x18] = "MAP_MEMORY_TO_GPU", [0x19] = "UNMAP_MEMORY_FROM_GPU", [0x1A] = "SET_CU_MASK",
	[0x1B] = "GET_QUEUE_WAVE_STATE", [0x1C] = "GET_DMABUF_INFO", [0x1D] = "IMPORT_DMABUF",
	[0x1E] = "ALLOC_QUEUE_GWS", [0x1F] = "SMI_EVENTS", [0x20] = "SVM",
	[0x21] = "SET_XNACK_MODE", [0x22] = "CRIU_OP", [0x23] = "AVAILABLE_MEMORY",
	[0x24] = "EXPORT_DMABUF", [0x25] = "RUNTIME_ENABLE", [0x26] = "DBG_TRAP",
};

static int dispatch(unsigned nr, void *arg)
{
	switch (nr) {
	case 0x01: return ioc_get_version(arg);
	case 0x04: return ioc_memory_policy(arg);
	case 0x05: return ioc_clock(arg);
	case 0x11: return ioc_gpu_only(((struct kfd_ioctl_set_scratch_backing_va_args *)arg)->gpu_id);
	case 0x12: return ioc_tile_config(arg);
	case 0x13: return ioc_gpu_only(((struct kfd_ioctl_set_trap_handler_args *)arg)->gpu_id);
	case 0x14: return ioc_apertures_new(arg);
	case 0x15: return ioc_acquire_vm(arg);
	case 0x16: return rdc_sim_mem_alloc(arg);
	case 0x17: return rdc_sim_mem_free(arg);
	case 0x18: return rdc_sim_mem_map(arg, true);
	case 0x19: return rdc_sim_mem_map(arg, false);
	case 0x21: return ioc_xnack(arg);
	case 0x23: return rdc_sim_mem_available(arg);
	case 0x1C: return rdc_sim_mem_dmabuf_info(arg);
	case 0x1D: return rdc_sim_mem_import(arg);
	case 0x24: return rdc_sim_mem_export(arg);
	case 0x08: case 0x09: case 0x0A: case 0x0B: case 0x0C:
		return rdc_sim_kfd_events_ioctl(nr, arg);
	case 0x02: case 0x03: case 0x07: case 0x1A: case 0x1E:
		return rdc_sim_kfd_queues_ioctl(nr, arg);
	default: return -ENOTTY; /* not emulated: see below */
	}
}

int rdc_sim_kfd_ioctl(int fd, unsigned long req, void *arg)
{
	(void)fd;
	unsigned nr = _IOC_NR(req), usize = _IOC_SIZE(req), dir = _IOC_DIR(req);
	const char *name = nr < sizeof ioc_names / sizeof ioc_names[0] && ioc_names[nr] ? ioc_names[nr]
										      : "?";
	/* KFD (kfd_ioctl): the argument is copied into a zeroed kernel buffer
	 * (its own size or the caller's, the larger) and back. */
	uint64_t buf[64];
	if (_IOC_TYPE(req) != AMDKFD_IOCTL_BASE || usize > sizeof buf) {
		rdc_sim_log("/dev/kfd: ioctl 0x%lx is not a KFD request: EINVAL", req);
		errno = EINVAL;
		return -1;
	}
	memset(buf, 0, sizeof buf);
	if ((dir & _IOC_WRITE) && usize) {
		if (!arg) {
			errno = EFAULT;
			return -1;
		}
		memcpy(buf, arg, usize);
	}
	int rc = dispatch(nr, buf);
	rdc_sim_debug("ioctl AMDKFD_IOC_%s: %d", name, rc);
	if (rc == -ENOTTY) {
		/* Said once per request and process.  0x80-0x86 are numbers of
		 * ROCm's own kfd_ioctl.h (DBG_TRAP 0x82 in thunk 5.2.3, called at
		 * every start), which upstream KFD answers EINVAL as well. */
		static uint64_t said[4];
		bool first = !(__atomic_fetch_or(&said[nr / 64 % 4], 1ull << (nr % 64), __ATOMIC_RELAXED) &
			       (1ull << (nr % 64)));
		if (nr >= 0x80 && nr <= 0x86)
			rdc_sim_debug("/dev/kfd: ROCm-only request nr 0x%02x (not in upstream KFD): "
				      "EINVAL", nr);
		else if (first)
			rdc_sim_log("/dev/kfd: AMDKFD_IOC_%s (nr 0x%02x) is not emulated: EINVAL", name,
				    nr);
		errno = EINVAL;
		return -1;
	}
	if ((dir & _IOC_READ) && usize && arg)
		memcpy(arg, buf, usize);
	if (rc) {
		rdc_sim_debug("AMDKFD_IOC_%s: %s", name, strerror(-rc));
		errno = -rc;
		return -1;
	}
	return 0;
}

/* Doorbell and MMIO remap pages: shared anonymous memory at the address the
 * thunk chose; the event page of the APU path is not emulated. */
void *rdc_sim_kfd_mmap(void *addr, size_t len, int prot, int flags, uint64_t off)
{
	uint64_t type = off >> KFD_MMAP_TYPE_SHIFT;
	if (type == KFD_MMAP_TYPE_DOORBELL || type == KFD_MMAP_TYPE_MMIO) {
		flags = (flags & ~(MAP_PRIVATE | MAP_SHARED_VALIDATE)) | MAP_SHARED | MAP_ANONYMOUS;
		return rdc_sim_real()->mmap(addr, len, prot, flags, -1, 0);
	}
	rdc_sim_log("mmap of /dev/kfd at offset 0x%llx (%s) is not emulated: EINVAL",
		    (unsigned long long)off, type == KFD_MMAP_TYPE_EVENTS ? "event page" : "reserved");
	errno = EINVAL;
	return MAP_FAILED;
}

void *rdc_sim_render_mmap(void *addr, size_t len, int prot, int flags, uint64_t off)
{
	return rdc_sim_mem_render_map(addr, len, prot, flags, off);
}
