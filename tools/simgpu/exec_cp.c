/* SPDX-License-Identifier: MIT */
/*
 * exec_cp.c — the command processor's side of kernel execution: hands one
 * AQL dispatch to the engine (exec/exec.h) with the simulator's address
 * translation (buffer objects, KFD's LDS and scratch apertures) and reports
 * what happened.
 *
 * A failed dispatch first prints one line on stderr naming the kernel, the
 * PC, the instruction and, for a memory fault, the address.  A memory fault
 * is then told to the runtime the way KFD tells a real one: through the
 * process's memory event (kfd_events.c, rdc_sim_kfd_memory_fault), which
 * wakes ROCR's error-handler thread; ROCR prints its own "Memory access
 * fault by GPU node-N ... Reason: Page not present or supervisor
 * privilege." and aborts.  The dispatch does not complete: the call
 * answers false and the queue stops (queues.c), as a faulting queue does.
 * A process without a memory event (ROCR's interrupt waits are off, or a
 * program below ROCR), and every other failure (trap, an instruction the
 * engine lacks, a hang past the budget), ends with abort() here, exit
 * status 134 — what ROCR's handlers do.  A program is never left running on
 * results a kernel did not compute.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "sim.h"

/* The object holding va, as GPU `*ctx` (0-based) sees it: an object that
 * MAP_MEMORY_TO_GPU mapped to other GPUs only is not in this GPU's page
 * tables (amdgpu_amdkfd_gpuvm_map_memory_to_gpu maps per device), so the
 * access faults as on hardware — another card's VRAM without peer access
 * enabled, for one.  An object mapped to no GPU at all is let through (what
 * the simulator always did; the runtimes map what they use). */
static bool find(void *ctx, uint64_t va, struct rdc_exec_range *out)
{
	unsigned gpu = *(const unsigned *)ctx;
	struct rdc_sim_range r;
	if (!rdc_sim_mem_find(va, &r))
		return false;
	if (r.mapped && !(r.mapped & (1u << gpu))) {
		static int said;
		if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
			rdc_sim_log("GPU %u touched 0x%llx, in an object mapped only to other GPUs (mask 0x%x): "
				    "not in its page tables (peer access not enabled?)", gpu, (unsigned long long)va,
				    r.mapped);
		return false;
	}
	*out = (struct rdc_exec_range){ r.base, r.size, r.cpu };
	return true;
}

static const char *status_name(enum rdc_exec_status s)
{
	switch (s) {
	case RDC_EXEC_OK: return "ok";
	case RDC_EXEC_FAULT: return "fault";
	case RDC_EXEC_UNSUPPORTED: return "unsupported";
	case RDC_EXEC_TRAP: return "trap";
	case RDC_EXEC_LIMIT: return "limit";
	default: return "bad";
	}
}

bool rdc_sim_exec(uint32_t node, uint32_t qid, uint64_t packet_va, const uint8_t *packet, const char *kernel,
		  const struct rdc_sim_exec_queue *q, struct rdc_sim_exec_note *note)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	const char *proc = rdc_sim_node_proc(node);
	unsigned ver = 0;
	if (!c || !proc || sscanf(proc, "gfx%u", &ver) != 1)
		return true;
	unsigned gfx = ver / 100;
	if (gfx != 10 && gfx != 11) {
		note->status = "not-executed";
		return true;
	}
	struct rdc_exec_request req = {
		.packet = packet,
		.packet_va = packet_va,
		.queue_va = q->queue_va,
		.dispatch_id = q->index,
		.gfx = gfx,
		.major = gfx,
		.minor = (ver / 10) % 10,
		.step = ver % 10,
		.kernel = kernel,
		.threads = c->threads,
		.max_insts = c->budget,
		.itrace = c->itrace[0] && kernel && strstr(kernel, c->itrace) ? stderr : NULL,
	};
	unsigned gpu = node - 1;
	struct rdc_exec_mem mem = { find, &gpu, RDC_SIM_LDS_APERTURE, RDC_SIM_SCRATCH_APERTURE };
	struct rdc_exec_result res;
	uint64_t t0 = rdc_sim_now_ns();
	enum rdc_exec_status st = rdc_exec_dispatch(&req, &mem, &res);
	note->ns = rdc_sim_now_ns() - t0;
	note->status = status_name(st);
	note->insts = res.insts;
	note->waves = res.waves;
	note->cpu_ns = res.cpu_ns;
	rdc_sim_debug("queue %u: %s executed: %llu wave-instructions, %llu waves", qid, kernel,
		      (unsigned long long)res.insts, (unsigned long long)res.waves);
	if (st == RDC_EXEC_OK)
		return true;
	if (st == RDC_EXEC_FAULT) {
		fprintf(stderr, "rdnacompat-sim: GPU memory access fault on node %u (%s, simulated card) at address "
			"0x%llx: %s\n", node, proc, (unsigned long long)res.addr, res.msg);
		fflush(stderr);
		if (rdc_sim_kfd_memory_fault(rdc_sim_gpu_id(node - 1), res.addr))
			return false; /* the runtime's handler ends the process */
	} else
		fprintf(stderr, "rdnacompat-sim: GPU exception on node %u (%s, simulated card), dispatch failed (%s): "
			"%s\n", node, proc, note->status, res.msg);
	fflush(stderr);
	abort();
}
