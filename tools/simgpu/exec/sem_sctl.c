/* SPDX-License-Identifier: MIT */
/*
 * sem_sctl.c — program control and wave state: SOPP (branches, s_endpgm,
 * s_barrier, s_trap, waits), the PC instructions of SOP1 (s_getpc, s_setpc,
 * s_swappc) and SOPK (s_call), and the hardware registers (s_getreg,
 * s_setreg: MODE, and the read-only ids).
 *
 * The engine runs one instruction at a time, in order, so every wait and
 * scheduling hint (s_waitcnt*, s_wait_idle, s_wait_event, s_delay_alu, s_clause, s_nop, s_sleep,
 * s_setprio, cache invalidations, s_sendmsg's VGPR deallocation) has nothing
 * to wait for.  s_trap and s_sethalt fail the dispatch: a trap handler is
 * what a real GPU would enter (ggml's unsupported-configuration stubs and
 * __builtin_trap end there).
 */
#include <time.h>

#include "wave.h"

/* Branches: PC (already past the instruction) + simm16 * 4. */
static void branch(struct rdc_wave *w, const struct rdc_inst *in)
{
	bool take;
	uint64_t vcc = rdc_sread_mask(w, in, RDC_OPD_VCC);
	switch (in->op) {
	case RDC_OP_S_BRANCH: take = true; break;
	case RDC_OP_S_CBRANCH_SCC0: take = !w->scc; break;
	case RDC_OP_S_CBRANCH_SCC1: take = w->scc; break;
	case RDC_OP_S_CBRANCH_VCCZ: take = vcc == 0; break;
	case RDC_OP_S_CBRANCH_VCCNZ: take = vcc != 0; break;
	case RDC_OP_S_CBRANCH_EXECZ: take = rdc_exec_mask(w) == 0; break;
	case RDC_OP_S_CBRANCH_EXECNZ: take = rdc_exec_mask(w) != 0; break;
	default: take = false; break;
	}
	if (take)
		w->pc += (int64_t)in->imm * 4;
}

static void nop(struct rdc_wave *w, const struct rdc_inst *in)
{
	(void)w;
	(void)in;
}

static void endpgm(struct rdc_wave *w, const struct rdc_inst *in)
{
	(void)in;
	w->done = true;
	if (w->wg)
		w->wg->done++;
}

static void barrier(struct rdc_wave *w, const struct rdc_inst *in)
{
	(void)in;
	w->at_barrier = true;
}

static void trap(struct rdc_wave *w, const struct rdc_inst *in)
{
	rdc_fail(w, RDC_EXEC_TRAP, in, "%s %d: the wave entered the trap handler (an abort, assert or "
		 "unsupported-configuration stub in the kernel)", in->mnemonic, in->imm & 0xff);
}

static void code_end(struct rdc_wave *w, const struct rdc_inst *in)
{
	rdc_fail(w, RDC_EXEC_TRAP, in, "executed the padding after the last kernel (s_code_end)");
}

static void denorm_mode(struct rdc_wave *w, const struct rdc_inst *in)
{
	w->mode = (w->mode & ~0xf0u) | ((uint32_t)(in->imm & 0xf) << 4);
}

static void round_mode(struct rdc_wave *w, const struct rdc_inst *in)
{
	w->mode = (w->mode & ~0xfu) | (uint32_t)(in->imm & 0xf);
}

/* SOP1 PC ops: getpc gives the address of the next instruction. */
static void pcops(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint64_t next = w->pc;
	switch (in->op) {
	case RDC_OP_S_GETPC_B64:
		rdc_swrite64(w, in->dst, next);
		break;
	case RDC_OP_S_SETPC_B64:
		w->pc = rdc_sread64(w, in, in->src[0], false);
		break;
	case RDC_OP_S_SWAPPC_B64: {
		uint64_t to = rdc_sread64(w, in, in->src[0], false);
		rdc_swrite64(w, in->dst, next);
		w->pc = to;
		break;
	}
	case RDC_OP_S_CALL_B64:
		rdc_swrite64(w, in->dst, next);
		w->pc += (int64_t)(int16_t)in->imm * 4;
		break;
	default:
		break;
	}
}

/* Hardware registers by id (simm16: id [5:0], offset [10:6], size-1 [15:11]). */
enum { HW_MODE = 1, HW_STATUS = 2, HW_TRAPSTS = 3, HW_HW_ID = 4, HW_GPR_ALLOC = 5, HW_LDS_ALLOC = 6,
       HW_IB_STS = 7, HW_SH_MEM_BASES = 15, HW_FLAT_SCR_LO = 20, HW_FLAT_SCR_HI = 21, HW_HW_ID1 = 23,
       HW_HW_ID2 = 24, HW_SHADER_CYCLES = 29 };

static bool hwreg_read(struct rdc_wave *w, unsigned id, uint32_t *v)
{
	switch (id) {
	case HW_MODE: *v = w->mode; return true;
	case HW_STATUS: *v = (rdc_exec_mask(w) == 0) << 9 | (w->scc ? 1u : 0u); return true;
	case HW_TRAPSTS: *v = w->trapsts; return true;
	case HW_HW_ID: case HW_HW_ID1: case HW_HW_ID2: *v = (uint32_t)(w->wave_id & 0x1f); return true;
	case HW_GPR_ALLOC: *v = (uint32_t)((w->nvgpr / 8 - 1) << 8); return true;
	case HW_LDS_ALLOC: *v = w->wg ? (w->wg->lds_size + 511) / 512 : 0; return true;
	case HW_IB_STS: *v = 0; return true;
	case HW_SH_MEM_BASES:
		*v = (uint32_t)(w->mem->scratch_aperture >> 48) | (uint32_t)(w->mem->lds_aperture >> 48) << 16;
		return true;
	case HW_FLAT_SCR_LO: case HW_FLAT_SCR_HI: *v = 0; return true;
	case HW_SHADER_CYCLES: *v = (uint32_t)w->insts; return true;
	default: return false;
	}
}

static void getreg(struct rdc_wave *w, const struct rdc_inst *in)
{
	unsigned id = in->imm & 0x3f, off = (in->imm >> 6) & 0x1f, size = ((in->imm >> 11) & 0x1f) + 1;
	uint32_t v;
	if (!hwreg_read(w, id, &v)) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "hardware register %u is not modelled", id);
		return;
	}
	uint32_t mask = size >= 32 ? ~0u : (1u << size) - 1;
	rdc_swrite(w, in->dst, (v >> off) & mask);
}

static void setreg(struct rdc_wave *w, const struct rdc_inst *in)
{
	unsigned id = in->imm & 0x3f, off = (in->imm >> 6) & 0x1f, size = ((in->imm >> 11) & 0x1f) + 1;
	uint32_t val = in->op == RDC_OP_S_SETREG_IMM32_B32 ? in->lit : rdc_sread(w, in, in->dst);
	uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;
	switch (id) {
	case HW_MODE:
		w->mode = (w->mode & ~mask) | ((val << off) & mask);
		return;
	case HW_TRAPSTS:
		w->trapsts = (w->trapsts & ~mask) | ((val << off) & mask);
		return;
	case HW_FLAT_SCR_LO: case HW_FLAT_SCR_HI:
		return; /* scratch_* is modelled per lane; the base is not used */
	default:
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "writing hardware register %u is not modelled", id);
	}
}

/* The clock s_memtime / s_memrealtime read: ns of CLOCK_MONOTONIC_RAW. */
static uint64_t exec_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void memtime(struct rdc_wave *w, const struct rdc_inst *in)
{
	rdc_swrite64(w, in->dst, exec_clock());
}

/* gfx11 s_sendmsg_rtn_b32/b64: a message whose answer comes back in the
 * destination SGPR(s); the id is the SSRC0 field (LLVM SIDefines.h
 * ID_RTN_*: 128 doorbell, 129 DDID, 130 TMA, 131 REALTIME, 132 SAVE_WAVE,
 * 133 TBA).  REALTIME is the clock s_memrealtime reads (RCCL's gfx11 code
 * times itself with it); the others describe a hardware queue or trap
 * handler the engine has not got, and fail the dispatch. */
static void sendmsg_rtn(struct rdc_wave *w, const struct rdc_inst *in)
{
	unsigned id = in->src[0];
	if (id != 131) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "message %u (the hardware queue or trap handler's) is not modelled",
			 id);
		return;
	}
	uint64_t t = exec_clock();
	if (in->op == RDC_OP_S_SENDMSG_RTN_B64)
		rdc_swrite64(w, in->dst, t);
	else
		rdc_swrite(w, in->dst, (uint32_t)t);
}

static void sendmsg(struct rdc_wave *w, const struct rdc_inst *in)
{
	unsigned id = in->imm & 0xff;
	/* 3 = MSG_GS_DONE / halt-like ids are graphics; 0xb (gfx11 DEALLOC_VGPRS) and
	 * the rest need nothing from a compute wave running alone. */
	(void)w;
	(void)id;
}

rdc_sem_fn rdc_sem_sctl(uint16_t op)
{
	switch (op) {
	case RDC_OP_S_BRANCH: case RDC_OP_S_CBRANCH_SCC0: case RDC_OP_S_CBRANCH_SCC1: case RDC_OP_S_CBRANCH_VCCZ:
	case RDC_OP_S_CBRANCH_VCCNZ: case RDC_OP_S_CBRANCH_EXECZ: case RDC_OP_S_CBRANCH_EXECNZ:
		return branch;
	case RDC_OP_S_NOP: case RDC_OP_S_WAITCNT: case RDC_OP_S_WAITCNT_VSCNT: case RDC_OP_S_WAITCNT_VMCNT:
	case RDC_OP_S_WAITCNT_EXPCNT: case RDC_OP_S_WAITCNT_LGKMCNT: case RDC_OP_S_WAITCNT_DEPCTR:
	case RDC_OP_S_DELAY_ALU: case RDC_OP_S_CLAUSE: case RDC_OP_S_SLEEP: case RDC_OP_S_SETPRIO:
	case RDC_OP_S_ICACHE_INV: case RDC_OP_S_INST_PREFETCH: case RDC_OP_S_SET_INST_PREFETCH_DISTANCE:
	case RDC_OP_S_DCACHE_INV: case RDC_OP_S_GL1_INV:
	case RDC_OP_S_WAIT_IDLE: /* waits for the wave's outstanding work: there is none */
	case RDC_OP_S_WAIT_EVENT: /* waits for export-ready, a graphics event a compute wave does not wait on */
	case RDC_OP_S_TTRACEDATA: case RDC_OP_S_TTRACEDATA_IMM:
	case RDC_OP_S_VERSION: case RDC_OP_S_WAKEUP: case RDC_OP_S_SENDMSGHALT:
		return op == RDC_OP_S_SENDMSGHALT ? NULL : nop;
	case RDC_OP_S_SENDMSG:
		return sendmsg;
	case RDC_OP_S_SENDMSG_RTN_B32: case RDC_OP_S_SENDMSG_RTN_B64:
		return sendmsg_rtn;
	case RDC_OP_S_ENDPGM: case RDC_OP_S_ENDPGM_SAVED:
		return endpgm;
	case RDC_OP_S_BARRIER:
		return barrier;
	case RDC_OP_S_TRAP:
		return trap;
	case RDC_OP_S_CODE_END:
		return code_end;
	case RDC_OP_S_DENORM_MODE:
		return denorm_mode;
	case RDC_OP_S_ROUND_MODE:
		return round_mode;
	case RDC_OP_S_GETPC_B64: case RDC_OP_S_SETPC_B64: case RDC_OP_S_SWAPPC_B64: case RDC_OP_S_CALL_B64:
		return pcops;
	case RDC_OP_S_GETREG_B32:
		return getreg;
	case RDC_OP_S_SETREG_B32: case RDC_OP_S_SETREG_IMM32_B32:
		return setreg;
	case RDC_OP_S_MEMTIME: case RDC_OP_S_MEMREALTIME:
		return memtime;
	default:
		return NULL;
	}
}
