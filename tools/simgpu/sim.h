/* SPDX-License-Identifier: MIT */
/*
 * sim.h — internals shared by the simulated GPU (tools/simgpu/ (*.c)), a
 * test-only replacement of the KFD thunk libhsakmt.so.1 (ABI of Debian's
 * libhsakmt 5.2.3, whose own hsakmt.h/hsakmttypes.h are included, so every
 * struct layout is the real one).  Kernels are NOT executed: dispatch packets
 * are retired (and traced), SDMA packets really move bytes.
 *
 * Split by job: config.c (environment), topology.c (nodes, override),
 * memory.c (allocations), events.c, queues.c (AQL command processor),
 * sdma.c (SDMA engine), blit.c (ROCR's blit kernels), trace.c (dispatch
 * trace), misc.c (the rest).
 */
#ifndef RDC_SIMGPU_SIM_H
#define RDC_SIMGPU_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hsakmt.h>

#define RDC_SIM_API __attribute__((visibility("default")))
#define RDC_SIM_MAX_GPUS 8

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
};

/* config.c: parse the environment once; NULL + message on stderr if bad. */
const struct rdc_sim_config *rdc_sim_config_get(void);
void rdc_sim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rdc_sim_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* State common to all parts (misc.c). */
extern pthread_mutex_t rdc_sim_lock;     /* open count, topology snapshot */
bool rdc_sim_is_open(void);

/* topology.c */
unsigned rdc_sim_num_nodes(void);        /* CPU + GPUs of the snapshot */
bool rdc_sim_node_is_gpu(uint32_t node);
int rdc_sim_gpu_index(uint32_t node);    /* -1 for the CPU */
const char *rdc_sim_node_proc(uint32_t node); /* effective (overridden) processor */
uint64_t rdc_sim_now_ns(void);           /* CLOCK_MONOTONIC_RAW, the clock counters' */

/* memory.c: allocations the simulator made or registered. */
struct rdc_sim_range { uintptr_t base; uint64_t size; };
bool rdc_sim_mem_find(uintptr_t addr, struct rdc_sim_range *out);
void rdc_sim_mem_close(void);
void rdc_sim_mem_atfork_child(void);
/* Memory of the simulator itself that "the GPU" writes (event mailboxes). */
int rdc_sim_mem_track(void *addr, uint64_t len);
void rdc_sim_mem_untrack(void *addr);
/* While held (shared), no tracked memory is unmapped: the engines hold it
 * around each packet's memory accesses.  Nests. */
void rdc_sim_mem_hold(void);
void rdc_sim_mem_release(void);
/* Is [addr, addr+len) inside one tracked range? */
bool rdc_sim_mem_valid(uintptr_t addr, uint64_t len);

/* events.c */
void rdc_sim_event_fire(uint32_t event_id);
void rdc_sim_events_close(void);
void rdc_sim_events_atfork_child(void);

/* queues.c */
void rdc_sim_queues_close(void);
void rdc_sim_queues_atfork_child(void);

/* A ring the engines poll (queues.c owns it, one thread each). */
struct rdc_sim_ring {
	uint32_t node;
	uint8_t *base;
	uint64_t size;               /* bytes */
	volatile uint64_t *rptr, *wptr, *doorbell;
	bool warned;                 /* one "unsupported"/"stalled" message per ring */
	uint64_t unsupported_ops;    /* SDMA ops already reported (bit per op < 64) */
};

/* sdma.c: execute the SDMA packets between *rptr and *wptr (byte indices).
 * Returns true if it made progress; false if idle or waiting (POLL_REGMEM). */
bool rdc_sim_sdma_poll(struct rdc_sim_ring *r);

/* blit.c: apply the effect of ROCR's own copy/fill blit kernels; returns a
 * name for the trace ("rocr-blit:copy-aligned") or NULL if not one of them. */
const char *rdc_sim_blit_emulate(const void *packet, uint32_t *kernarg_size);

/* trace.c */
/* Kernel symbol (no ".kd") and code-object processor of a kernel object, from
 * the ELF image it was loaded in; false (and "?") if it is in none. */
bool rdc_sim_kernel_lookup(uintptr_t kobj, char *kernel, size_t kn, char *proc, size_t pn);
/* kernarg_size: 0 = read it from the kernel descriptor. */
void rdc_sim_trace_dispatch(uint32_t node, const void *packet, const char *kernel, const char *proc,
			    uint32_t kernarg_size);
void rdc_sim_trace_close(void);

#endif
