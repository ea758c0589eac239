/* SPDX-License-Identifier: MIT */
/*
 * sim.h — internals shared by the simulated GPU (tools/simgpu/ (*.c)), a
 * test-only library preloaded into a process (build/sim/librdnacompat-sim.so)
 * that emulates what the KFD thunk uses from the kernel: /dev/kfd and its
 * ioctls (struct layouts from Debian's <linux/kfd_ioctl.h>), the mmaps of
 * its fds, /dev/dri/renderD* with the libdrm / libdrm_amdgpu entry points
 * the thunk calls, and the sysfs topology.  The real thunk (libhsakmt 5.2.3,
 * or the one linked into libhsa-runtime64 since ROCm 6.2) runs on top.
 * Kernels are executed by the engine in exec/ (exec_cp.c hands it each
 * dispatch); SDMA packets and the runtimes' blit kernels move bytes
 * directly.
 *
 * The interface, one job a file: interpose.c (libc hooks: open, fopen,
 * opendir, stat, access, close, ioctl, mmap), kfd_dev.c (the /dev/kfd and
 * render fds, ioctl dispatch, small ioctls), kfd_mem.c (buffer objects),
 * kfd_events.c, kfd_queues.c, dmabuf.c (the dma-buf fds of EXPORT/IMPORT),
 * sysfs.c (the topology tree), pci.c (its PCI devices), drm.c (libdrm).
 * The engines: config.c (environment), events.c, queues.c (AQL command
 * processor), exec_cp.c (kernel execution: the CP's side of exec/), sdma.c,
 * blit.c, trace.c.
 */
#ifndef RDC_SIMGPU_SIM_H
#define RDC_SIMGPU_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RDC_SIM_API __attribute__((visibility("default")))
#define RDC_SIM_MAX_GPUS 8
/* The flat apertures KFD reports (kfd_dev.c) and the engine resolves. */
#define RDC_SIM_LDS_APERTURE (1ull << 48)
#define RDC_SIM_SCRATCH_APERTURE (2ull << 48)

/* One simulated GPU, as configured (config.c). */
struct rdc_sim_gpu {
	char proc[24];            /* real processor, "gfx1031" */
	unsigned major, minor, step; /* real version */
	unsigned cus;
	uint64_t vram;
	uint16_t device_id;
	uint8_t revision;
	char name[64];            /* marketing name */
	const char *codename;     /* thunk's DID table name, or NULL */
	unsigned wave_size;       /* 32 on RDNA */
	uint32_t vgpr_size_per_cu;
};

struct rdc_sim_config {
	unsigned n_gpus;
	struct rdc_sim_gpu gpu[RDC_SIM_MAX_GPUS];
	char trace_path[4096];    /* "" when off */
	unsigned verbose;         /* RDNACOMPAT_SIM_VERBOSE */
	bool exec;                /* RDNACOMPAT_SIM_EXEC: run kernels (default) */
	unsigned threads;         /* RDNACOMPAT_SIM_THREADS */
	uint64_t budget;          /* RDNACOMPAT_SIM_BUDGET (0: the engine's default) */
	bool exec_blits;          /* RDNACOMPAT_SIM_BLITS=execute */
	char itrace[128];         /* RDNACOMPAT_SIM_ITRACE: kernels whose name holds it ("" off) */
	enum { RDC_SIM_P2P_ON, RDC_SIM_P2P_OFF, RDC_SIM_P2P_LEGACY } p2p; /* RDNACOMPAT_SIM_P2P */
	bool small_bar;           /* RDNACOMPAT_SIM_BAR=small */
	enum { RDC_SIM_PCI_SWITCH, RDC_SIM_PCI_ROOT } pci; /* RDNACOMPAT_SIM_PCI */
};

/* config.c: parse the environment once; NULL + message on stderr if bad. */
const struct rdc_sim_config *rdc_sim_config_get(void);
void rdc_sim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rdc_sim_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* GPU i (0-based) is topology node i+1; its KFD gpu_id and render minor. */
uint32_t rdc_sim_gpu_id(unsigned gpu);
int rdc_sim_gpu_by_id(uint32_t gpu_id);  /* index, or -1 */
static inline int rdc_sim_render_minor(unsigned gpu) { return 128 + (int)gpu; }
uint64_t rdc_sim_now_ns(void);           /* CLOCK_MONOTONIC_RAW, the clock counters' */

/* interpose.c: the next definitions of the hooked libc functions. */
struct rdc_sim_real {
	int (*open)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	void *(*fopen)(const char *, const char *);
	void *(*opendir)(const char *);
	int (*close)(int);
	int (*ioctl)(int, unsigned long, ...);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	int (*munmap)(void *, size_t);
};
const struct rdc_sim_real *rdc_sim_real(void);

/* kfd_dev.c: the fds this process has of the simulated devices. */
enum rdc_sim_fd_kind { RDC_SIM_FD_NONE, RDC_SIM_FD_KFD, RDC_SIM_FD_RENDER };
int rdc_sim_open_kfd(int flags);              /* new fd or -1/errno */
int rdc_sim_open_render(int minor, int flags);/* new fd or -1/errno (ENOENT: no such GPU) */
int rdc_sim_fd_dup(int fd);                   /* dup of a render fd, same GPU */
enum rdc_sim_fd_kind rdc_sim_fd_kind(int fd, int *gpu);
void rdc_sim_fd_forget(int fd);               /* before close */
int rdc_sim_kfd_ioctl(int fd, unsigned long req, void *arg); /* 0 or -1/errno */
/* mmap of a kfd / render fd: the mapping, or MAP_FAILED with errno. */
void *rdc_sim_kfd_mmap(void *addr, size_t len, int prot, int flags, uint64_t off);
void *rdc_sim_render_mmap(void *addr, size_t len, int prot, int flags, uint64_t off);
/* kfd_events.c, kfd_queues.c: their ioctls (by _IOC_NR; -ENOTTY if not
 * theirs), and the end of the KFD process. */
int rdc_sim_kfd_events_ioctl(unsigned nr, void *arg);
int rdc_sim_kfd_queues_ioctl(unsigned nr, void *arg);
void rdc_sim_kfd_events_end(void);
/* A GPU memory fault at va on gpu_id, told the way KFD tells one: through
 * the process's memory events (KFD_IOC_EVENT_MEMORY) and their exception
 * data.  False when the process created none (nobody would learn of it). */
bool rdc_sim_kfd_memory_fault(uint32_t gpu_id, uint64_t va);
void rdc_sim_kfd_queues_end(void);

/* kfd_mem.c: buffer objects (AMDKFD_IOC_*_MEMORY_*) and the "GPU" view. */
int rdc_sim_mem_alloc(void *args);            /* kfd_ioctl_alloc_memory_of_gpu_args */
int rdc_sim_mem_free(void *args);
int rdc_sim_mem_map(void *args, bool map);    /* kfd_ioctl_(un)map_memory_to_gpu_args */
int rdc_sim_mem_available(void *args);
/* DMA-buf (kfd_mem.c): AMDKFD_IOC_EXPORT_DMABUF (args as the uapi's
 * kfd_ioctl_export_dmabuf_args), GET_DMABUF_INFO, IMPORT_DMABUF; 0 or -errno. */
int rdc_sim_mem_export(void *args);
int rdc_sim_mem_dmabuf_info(void *args);
int rdc_sim_mem_import(void *args);
void *rdc_sim_mem_render_map(void *addr, size_t len, int prot, int flags, uint64_t off);
/* CPU address of [va, va+len) of the GPU's address space, if it lies in one
 * buffer object (a real GPU would fault elsewhere); NULL otherwise. */
void *rdc_sim_mem_ptr(uint64_t va, uint64_t len);
/* The buffer object holding va: its GPU range and CPU view. */
struct rdc_sim_range { uint64_t base; uint64_t size; uint8_t *cpu; uint32_t mapped; /* bit per GPU */ };
bool rdc_sim_mem_find(uint64_t va, struct rdc_sim_range *out);
/* CPU address of a BO's start by KFD handle (events page), or NULL. */
void *rdc_sim_mem_by_handle(uint64_t handle, uint64_t *size);
/* While held (shared), no buffer object is freed: the engines hold it
 * around each packet's memory accesses.  Nests. */
void rdc_sim_mem_hold(void);
void rdc_sim_mem_release(void);
void rdc_sim_mem_close(void);
void rdc_sim_mem_atfork_child(void);

/* dmabuf.c: the simulated dma-buf, a memfd whose name carries the
 * exporter's gpu_id and KFD flags.  new: such a memfd of size bytes (fd or
 * -errno).  identify: 0 and what its name says, -EBADF for a closed fd,
 * -EINVAL for any fd that is not one.  move: copy [off, off+len) of from_fd
 * (view: this process's mapping of it) into to_fd and replace every mapping
 * of that range in this process by to_fd's (0 or -errno). */
int rdc_sim_dmabuf_new(uint32_t gpu_id, uint32_t flags, uint64_t size);
int rdc_sim_dmabuf_identify(int fd, uint32_t *gpu_id, uint32_t *flags, uint64_t *size);
int rdc_sim_dmabuf_move(int from_fd, uint64_t off, uint64_t len, int to_fd, const uint8_t *view);
/* The buffer's amdgpu_bo_metadata (flags, tiling, up to 256 bytes of UMD
 * metadata), kept in the memfd past its size bytes: read (set false; none
 * set reads as empty) or write.  0 or -errno. */
int rdc_sim_dmabuf_metadata(int fd, uint64_t size, bool set, uint64_t *flags, uint64_t *tiling,
			    uint32_t *n_bytes, uint32_t umd[64]);
/* drm.c: the GPU index of a simulated amdgpu_device_handle, or -1. */
int rdc_sim_drm_device_gpu(const void *dev);
/* drm_bo.c: a forked child's lock. */
void rdc_sim_drm_bo_atfork_child(void);

/* events.c: KFD events by id (1..4095), KFD's wake-up rules. */
#define RDC_SIM_MAX_EVENTS 4096
/* A signal event (KFD_IOC_EVENT_SIGNAL) keeps KFD 1.14's event age: 1 at
 * creation, +1 at every set (never back to 0 or 1). */
int rdc_sim_event_create(bool auto_reset, bool signaled, bool signal_event, uint32_t *id); /* 0 / -errno */
int rdc_sim_event_destroy(uint32_t id);
int rdc_sim_event_set(uint32_t id);
int rdc_sim_event_reset(uint32_t id);
enum { RDC_SIM_WAIT_COMPLETE = 0, RDC_SIM_WAIT_TIMEOUT = 1, RDC_SIM_WAIT_FAIL = 2 };
/* 0 with *result, or -errno (EINVAL: an unknown id). ms == UINT32_MAX: forever.
 * ages (NULL: none): the waiter's last seen age of each event, KFD 1.14's
 * last_event_age; 0 asks for none.  A signal event whose age differs is taken
 * at once; the age of each activated one comes back in ages[i]. */
int rdc_sim_event_wait(const uint32_t *ids, uint32_t n, bool all, uint32_t ms, uint64_t *ages,
		       int *result);
void rdc_sim_event_fire(uint32_t event_id);
void rdc_sim_events_close(void);
void rdc_sim_events_atfork_child(void);

/* A ring the engines poll (queues.c owns it, one thread each). */
struct rdc_sim_ring {
	uint32_t node;                 /* topology node (gpu + 1) */
	uint8_t *base;                 /* CPU view */
	uint64_t gpu_base;             /* GPU address of the ring */
	uint64_t size;                 /* bytes */
	uint64_t queue_va;             /* AQL: GPU address of the amd_queue_t, 0 if unknown */
	volatile uint64_t *rptr, *wptr, *doorbell;
	bool warned;                 /* one "unsupported"/"stalled" message per ring */
	uint64_t unsupported_ops;    /* SDMA ops already reported (bit per op < 64) */
};

/* queues.c: start / stop a queue's command processor. */
enum rdc_sim_qtype { RDC_SIM_Q_AQL, RDC_SIM_Q_SDMA };
int rdc_sim_queue_start(uint32_t qid, enum rdc_sim_qtype t, const struct rdc_sim_ring *ring);
int rdc_sim_queue_stop(uint32_t qid);          /* -ENOENT if unknown */
bool rdc_sim_queue_exists(uint32_t qid);
void rdc_sim_queues_close(void);
void rdc_sim_queues_atfork_child(void);

/* sdma.c: execute the SDMA packets between *rptr and *wptr (byte indices).
 * Returns true if it made progress; false if idle or waiting (POLL_REGMEM). */
bool rdc_sim_sdma_poll(struct rdc_sim_ring *r);

/* blit.c: apply the effect of the runtimes' copy/fill blit kernels (ROCR's
 * own, and ROCclr's __amd_rocclr_copyBuffer / fillBuffer*); returns a name
 * for the trace or NULL if the dispatch is not one of them.  kernel is the
 * symbol found by trace.c ("" if none). */
const char *rdc_sim_blit_emulate(const void *packet, const char *kernel, uint32_t *kernarg_size);

/* sysfs.c: the directory holding this process's topology tree and module
 * files; a path under /sys/devices/virtual/kfd, /sys/class/kfd,
 * /sys/module/amdgpu or /proc/modules is rewritten into it. */
const char *rdc_sim_sysfs_redirect(const char *path, char *buf, size_t n);
const char *rdc_sim_node_proc(uint32_t node);  /* "gfx1031" */
/* The directory of the tree ("" if none). */
const char *rdc_sim_sysfs_root(void);

/* pci.c: the simulated machine's PCI functions.  location: KFD's
 * location_id of GPU i (bus << 8 | devfn); path: whether a /sys path is one
 * of them (sysfs.c redirects it); write: the tree under ROOT/sys, 0 or -1. */
uint32_t rdc_sim_pci_location(unsigned i);
bool rdc_sim_pci_path(const char *path);
int rdc_sim_pci_write(const char *root);

/* trace.c */
/* Kernel symbol (no ".kd") and code-object processor of a kernel object, from
 * the ELF image it was loaded in; false (and "?") if it is in none. */
bool rdc_sim_kernel_lookup(uint64_t kobj, char *kernel, size_t kn, char *proc, size_t pn);
/* kernarg_size: 0 = read it from the kernel descriptor.  exec: what the
 * engine did (NULL: not executed). */
struct rdc_sim_exec_note { const char *status; uint64_t insts, waves, ns, cpu_ns; };
void rdc_sim_trace_dispatch(uint32_t node, const void *packet, const char *kernel, const char *proc,
			    uint32_t kernarg_size, const struct rdc_sim_exec_note *exec);

/* exec_cp.c: execute a kernel dispatch on GPU node's generation.  q: the
 * queue's amd_queue_t address (the queue pointer SGPR) and the packet's
 * index (the dispatch id).  False when it faulted and the runtime was told
 * (the queue must stop); other failures abort the process. */
struct rdc_sim_exec_queue { uint64_t queue_va, index; };
bool rdc_sim_exec(uint32_t node, uint32_t qid, uint64_t packet_va, const uint8_t *packet, const char *kernel,
		  const struct rdc_sim_exec_queue *q, struct rdc_sim_exec_note *note);
void rdc_sim_trace_close(void);

#endif
