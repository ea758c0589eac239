/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c — one AQL kernel dispatch, from packet to retired waves.
 *
 * Reads the 64-byte kernel descriptor at kernel_object (AMDGPUUsage, "Kernel
 * Descriptor"), and for each workgroup builds its waves as the hardware's
 * dispatcher does ("Initial Kernel Execution State"): user SGPRs in the
 * documented order as kernel_code_properties enables them (private-segment
 * buffer V#, dispatch pointer, queue pointer, kernarg pointer, dispatch id,
 * flat-scratch init, private-segment size), then from rsrc2.USER_SGPR_COUNT
 * (which already includes gfx1100/1102's padding to 16) the workgroup ids,
 * workgroup info and the private-segment wave offset; work-item ids in
 * v0-v2 (gfx10) or packed 10:10:10 in v0 (gfx11); EXEC for the work-items
 * that exist; MODE from rsrc1's float round/denorm, DX10 clamp and IEEE bits.
 *
 * Waves of a workgroup run in turn, each until it reaches s_barrier, ends,
 * or has run a quantum of instructions (so waves that spin on each other's
 * LDS writes progress); the barrier opens when every live wave is at it.
 * Workgroups run to completion one after another on each worker thread, so
 * a kernel that waits for another workgroup's global writes can wait
 * forever: the instruction budget ends it with RDC_EXEC_LIMIT and a message
 * that says so (docs/SIMGPU.md, "Execution").
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wave.h"

#define QUANTUM 4096u
#define PRIV_VSHARP_TID (1u << 23)  /* ADD_TID_ENABLE in V# dword 3: the private-segment V# */

struct kd {
	uint32_t group_fixed, private_fixed, kernarg_size;
	int64_t entry_off;
	uint32_t rsrc1, rsrc2, rsrc3;
	uint16_t props;
};

struct dims {
	uint32_t wg[3], grid[3], nwg[3];
	uint64_t total_wg;
	uint32_t lds, priv;
	unsigned waves_per_wg; /* for a full workgroup */
};

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

struct worker {
	struct rdc_disp *d;
	const struct kd *kd;
	const struct dims *dm;
	uint64_t kd_va;
	uint64_t *next_wg;       /* atomic */
	struct rdc_wave *waves;
	uint32_t (*vgprs)[RDC_LANES];
	uint8_t *lds, *priv;
	uint64_t insts;
	uint64_t cpu_ns;
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void fail_disp(struct rdc_disp *d, enum rdc_exec_status st, const char *fmt, const char *a)
{
	if (__atomic_exchange_n(&d->failed, 1, __ATOMIC_ACQ_REL))
		return;
	d->res->status = st;
	snprintf(d->res->msg, sizeof d->res->msg, fmt, d->req->kernel && *d->req->kernel ? d->req->kernel : "?", a);
}

/* Build wave wi of workgroup (gx, gy, gz). */
static void wave_init(struct worker *wk, struct rdc_wave *w, struct rdc_wg *wg, unsigned wi, uint32_t items,
		      const uint32_t wgsz[3])
{
	struct rdc_disp *d = wk->d;
	const struct kd *kd = wk->kd;
	const struct rdc_exec_request *req = d->req;
	const uint8_t *pkt = req->packet;
	memset(w->s, 0, sizeof w->s);
	w->scc = false;
	w->done = w->at_barrier = w->failed = false;
	w->n = d->wave_size;
	w->gfx = d->gfx;
	w->wg = wg;
	w->mem = d->mem;
	w->disp = d;
	w->cur = NULL;
	w->page = NULL;
	w->code_slot = NULL;
	w->cache.cpu = NULL;
	w->insts = 0;
	w->ran = 0;
	w->trapsts = 0;
	w->dpp_off = 0;
	w->pc = wk->kd_va + (uint64_t)kd->entry_off;
	w->mode = ((kd->rsrc1 >> 12) & 0xff) | (((kd->rsrc1 >> 21) & 1) << 8) | (((kd->rsrc1 >> 23) & 1) << 9);

	unsigned s = 0;
	uint16_t p = kd->props;
	if (p & (1u << 0)) { /* private segment buffer V# */
		w->s[s + 0] = 0;
		w->s[s + 1] = 0;
		w->s[s + 2] = 0xffffffffu;
		w->s[s + 3] = PRIV_VSHARP_TID;
		s += 4;
	}
	if (p & (1u << 1)) { /* dispatch pointer */
		w->s[s++] = (uint32_t)req->packet_va;
		w->s[s++] = (uint32_t)(req->packet_va >> 32);
	}
	if (p & (1u << 2)) { /* queue pointer */
		w->s[s++] = (uint32_t)req->queue_va;
		w->s[s++] = (uint32_t)(req->queue_va >> 32);
	}
	if (p & (1u << 3)) { /* kernarg segment pointer */
		uint64_t ka = rd64(pkt + 40);
		w->s[s++] = (uint32_t)ka;
		w->s[s++] = (uint32_t)(ka >> 32);
	}
	if (p & (1u << 4)) { /* dispatch id */
		w->s[s++] = (uint32_t)req->dispatch_id;
		w->s[s++] = (uint32_t)(req->dispatch_id >> 32);
	}
	if (p & (1u << 5)) { /* flat scratch init: scratch_* is modelled per lane, base 0 */
		w->s[s++] = 0;
		w->s[s++] = 0;
	}
	if (p & (1u << 6)) /* private segment size */
		w->s[s++] = wk->dm->priv;
	s = (kd->rsrc2 >> 1) & 0x1f; /* USER_SGPR_COUNT: the system SGPRs start here */
	for (int k = 0; k < 3; k++)
		if ((kd->rsrc2 >> (7 + k)) & 1)
			w->s[s++] = wg->id[k];
	if ((kd->rsrc2 >> 10) & 1) /* workgroup info */
		w->s[s++] = 0;
	if (kd->rsrc2 & 1) /* private segment wave offset */
		w->s[s++] = 0;

	uint64_t exec = 0;
	unsigned n = w->n;
	for (unsigned l = 0; l < n; l++) {
		uint32_t id = wi * n + l;
		uint32_t x = 0, y = 0, z = 0;
		if (id < items) {
			exec |= 1ull << l;
			x = id % wgsz[0];
			y = (id / wgsz[0]) % wgsz[1];
			z = id / (wgsz[0] * wgsz[1]);
		}
		if (d->gfx >= 11) {
			w->v[0][l] = x | y << 10 | z << 20;
		} else {
			w->v[0][l] = x;
			w->v[1][l] = y;
			w->v[2][l] = z;
		}
	}
	rdc_set_exec(w, exec);
	(void)pkt;
}

static void unsupported(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint8_t *b = rdc_gpeek(w, w->pc, 8);
	uint32_t w0 = 0, w1 = 0;
	if (b) {
		memcpy(&w0, b, 4);
		memcpy(&w1, b + 4, 4);
	}
	const char *why = rdc_exec_scope(in->op);
	if (why) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in,
			 "instruction outside the engine's scope: %s (word 0x%08x 0x%08x, gfx%u; docs/SIMGPU.md "
			 "'Execution' lists what is left out)", why, w0, w1, w->gfx);
		return;
	}
	rdc_fail(w, in->op ? RDC_EXEC_UNSUPPORTED : RDC_EXEC_TRAP, in,
		 "%s (word 0x%08x 0x%08x, gfx%u); docs/SIMGPU.md 'Execution' says how to add it",
		 in->op ? "instruction the engine cannot execute yet" : "no instruction this decoder knows", w0, w1,
		 w->gfx);
}

/* itrace's line: append, never past the end. */
struct line {
	char buf[512];
	size_t n;
};

__attribute__((format(printf, 2, 3)))
static void line_add(struct line *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(t->buf + t->n, sizeof t->buf - t->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->n = t->n + (size_t)k < sizeof t->buf ? t->n + (size_t)k : sizeof t->buf - 1;
}

/* A VGPR's first 16 lanes, hex. */
static void line_lanes(struct line *t, const struct rdc_wave *w, const char *sep, uint16_t reg)
{
	const uint32_t *v = rdc_vreg(w, reg);
	line_add(t, "%s v%u:", sep, (unsigned)(reg - RDC_OPD_VGPR));
	for (unsigned l = 0; l < 16 && l < w->n; l++)
		line_add(t, " %x", v[l]);
}

static bool is_vgpr(uint16_t opd)
{
	return opd >= RDC_OPD_VGPR && opd < RDC_OPD_VGPR + 256;
}

/* One line for an instruction of workgroup 0 that just ran: the wave, the
 * pc, the mnemonic, exec, SCC, and what a VALU or VMEM destination holds in
 * the first 16 lanes (hex), or an SGPR destination's value; a compare's
 * mask; VOPD's second result. */
static void itrace(const struct rdc_wave *w, const struct rdc_inst *in, uint64_t pc)
{
	struct line t = { .n = 0 };
	line_add(&t, "itrace w%llu pc 0x%llx %-24s exec %08x scc %d", (unsigned long long)w->wave_id,
		 (unsigned long long)pc, in->mnemonic, w->s[RDC_OPD_EXEC], w->scc);
	uint16_t dst = in->fmt == RDC_FMT_MUBUF || in->fmt == RDC_FMT_MTBUF ? in->data0 : in->dst;
	if (is_vgpr(dst))
		line_lanes(&t, w, "", dst);
	else if (dst < RDC_NSGPR && dst)
		line_add(&t, " s%u: %x", dst, w->s[dst]);
	if (!strncmp(in->mnemonic, "v_cmp", 5) && in->sdst < RDC_NSGPR)
		line_add(&t, " sdst s%u: %x", in->sdst, w->s[in->sdst]);
	if (in->fn_y && is_vgpr(in->dst_y))
		line_lanes(&t, w, " ::", in->dst_y);
	fprintf(w->disp->req->itrace, "%s\n", t.buf);
}

/* Run w for at most quantum instructions; stops at a barrier or the end. */
static void run_wave(struct rdc_wave *w, unsigned quantum)
{
	struct rdc_disp *d = w->disp;
	uint64_t start = w->insts;
	while (!w->done && !w->at_barrier && quantum--) {
		const struct rdc_inst *in = rdc_program_next(w, w->pc);
		if (!in)
			return;
		if (!in->fn) {
			w->cur = in;
			unsupported(w, in);
			return;
		}
		w->cur = in;
		w->dpp_off = 0;
		uint64_t pc = w->pc;
		w->pc += in->len;
		in->fn(w, in);
		if (d->req->itrace && w->wg && !w->wg->id[0] && !w->wg->id[1] && !w->wg->id[2])
			itrace(w, in, pc);
		if (w->failed) {
			w->pc = pc;
			if (w->disp->res->status != RDC_EXEC_OK && w->disp->res->pc == pc + in->len)
				w->disp->res->pc = pc;
			return;
		}
		w->insts++;
	}
	w->ran += w->insts - start;
	if (w->ran > d->budget && !w->done && !w->at_barrier) {
		rdc_fail(w, RDC_EXEC_LIMIT, NULL,
			 "ran past the engine's budget of %llu instructions per wave (a hang: a loop that never ends, or "
			 "a kernel waiting on another workgroup, which the engine runs one after another)",
			 (unsigned long long)d->budget);
	}
}

static bool run_workgroup(struct worker *wk, uint64_t index)
{
	struct rdc_disp *d = wk->d;
	const struct dims *dm = wk->dm;
	struct rdc_wg wg;
	uint64_t gx = index % dm->nwg[0], gy = (index / dm->nwg[0]) % dm->nwg[1],
		 gz = index / ((uint64_t)dm->nwg[0] * dm->nwg[1]);
	wg.id[0] = (uint32_t)gx;
	wg.id[1] = (uint32_t)gy;
	wg.id[2] = (uint32_t)gz;
	uint32_t sz[3];
	for (int k = 0; k < 3; k++) {
		uint64_t start = (uint64_t)wg.id[k] * dm->wg[k];
		uint64_t left = dm->grid[k] - start;
		sz[k] = left < dm->wg[k] ? (uint32_t)left : dm->wg[k];
	}
	uint32_t items = sz[0] * sz[1] * sz[2];
	unsigned nw = (items + d->wave_size - 1) / d->wave_size;
	wg.lds = wk->lds;
	wg.lds_size = dm->lds;
	wg.waves = nw;
	wg.at_barrier = wg.done = 0;
	if (dm->lds)
		memset(wk->lds, 0, dm->lds);
	for (unsigned i = 0; i < nw; i++) {
		struct rdc_wave *w = &wk->waves[i];
		w->v = wk->vgprs + (size_t)i * 256;
		w->nvgpr = 256;
		w->priv = wk->priv ? wk->priv + (size_t)i * d->wave_size * dm->priv : NULL;
		w->priv_size = dm->priv;
		w->wave_id = index * dm->waves_per_wg + i;
		wave_init(wk, w, &wg, i, items, sz);
	}
	unsigned live = nw;
	while (live) {
		unsigned waiting = 0;
		live = 0;
		for (unsigned i = 0; i < nw; i++) {
			struct rdc_wave *w = &wk->waves[i];
			if (w->done)
				continue;
			if (!w->at_barrier)
				run_wave(w, QUANTUM);
			wk->insts += w->insts;
			w->insts = 0;
			if (__atomic_load_n(&d->failed, __ATOMIC_ACQUIRE))
				return false;
			if (w->done)
				continue;
			live++;
			if (w->at_barrier)
				waiting++;
		}
		if (live && waiting == live)
			for (unsigned i = 0; i < nw; i++)
				wk->waves[i].at_barrier = false;
	}
	return true;
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	uint64_t t0 = thread_cpu_ns();
	for (;;) {
		if (__atomic_load_n(&wk->d->failed, __ATOMIC_ACQUIRE))
			break;
		uint64_t i = __atomic_fetch_add(wk->next_wg, 1, __ATOMIC_ACQ_REL);
		if (i >= wk->dm->total_wg)
			break;
		if (!run_workgroup(wk, i))
			break;
	}
	wk->cpu_ns = thread_cpu_ns() - t0;
	return NULL;
}

static bool worker_alloc(struct worker *wk, const struct dims *dm, unsigned wave_size)
{
	unsigned nw = dm->waves_per_wg;
	wk->waves = calloc(nw, sizeof *wk->waves);
	wk->vgprs = calloc((size_t)nw * 256, sizeof *wk->vgprs);
	wk->lds = dm->lds ? malloc(dm->lds) : NULL;
	wk->priv = dm->priv ? calloc((size_t)nw * wave_size, dm->priv) : NULL;
	return wk->waves && wk->vgprs && (!dm->lds || wk->lds) && (!dm->priv || wk->priv);
}

static void worker_free(struct worker *wk)
{
	free(wk->waves);
	free(wk->vgprs);
	free(wk->lds);
	free(wk->priv);
}

static bool read_kd(const struct rdc_exec_mem *mem, uint64_t va, struct kd *kd)
{
	struct rdc_exec_range r;
	if (!mem->find(mem->ctx, va, &r) || !r.cpu || va < r.base || r.size - (va - r.base) < 64)
		return false;
	const uint8_t *p = r.cpu + (va - r.base);
	kd->group_fixed = rd32(p + 0);
	kd->private_fixed = rd32(p + 4);
	kd->kernarg_size = rd32(p + 8);
	memcpy(&kd->entry_off, p + 16, 8);
	kd->rsrc3 = rd32(p + 44);
	kd->rsrc1 = rd32(p + 48);
	kd->rsrc2 = rd32(p + 52);
	kd->props = rd16(p + 56);
	return true;
}

enum rdc_exec_status rdc_exec_dispatch(const struct rdc_exec_request *req, const struct rdc_exec_mem *mem,
				       struct rdc_exec_result *res)
{
	memset(res, 0, sizeof *res);
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct rdc_disp d = { .req = req, .mem = mem, .res = res, .gfx = req->gfx, .lock = &lock };
	d.budget = req->max_insts ? req->max_insts : (1ull << 31);
	const uint8_t *pkt = req->packet;
	uint64_t kd_va = rd64(pkt + 32);
	struct kd kd;
	if (req->gfx != 10 && req->gfx != 11) {
		fail_disp(&d, RDC_EXEC_BAD, "kernel %s: the engine executes gfx10.3 and gfx11 code only%s", "");
		return res->status;
	}
	if (!read_kd(mem, kd_va, &kd)) {
		char a[64];
		snprintf(a, sizeof a, " (0x%llx)", (unsigned long long)kd_va);
		fail_disp(&d, RDC_EXEC_BAD, "kernel %s: kernel descriptor outside every buffer object%s", a);
		return res->status;
	}
	d.wave_size = (kd.props >> 10) & 1 ? 32 : 64;
	struct dims dm;
	uint16_t dims_used = rd16(pkt + 2) & 3;
	for (int k = 0; k < 3; k++) {
		dm.wg[k] = rd16(pkt + 4 + 2 * k);
		dm.grid[k] = rd32(pkt + 12 + 4 * k);
		if (k >= dims_used && dims_used) {
			if (!dm.wg[k])
				dm.wg[k] = 1;
			if (!dm.grid[k])
				dm.grid[k] = 1;
		}
		if (!dm.wg[k] || !dm.grid[k]) {
			fail_disp(&d, RDC_EXEC_BAD, "kernel %s: empty workgroup or grid%s", "");
			return res->status;
		}
		dm.nwg[k] = (uint32_t)(((uint64_t)dm.grid[k] + dm.wg[k] - 1) / dm.wg[k]);
	}
	uint32_t wg_items = dm.wg[0] * dm.wg[1] * dm.wg[2];
	if (wg_items > 1024) {
		fail_disp(&d, RDC_EXEC_BAD, "kernel %s: workgroup of more than 1024 work-items%s", "");
		return res->status;
	}
	dm.total_wg = (uint64_t)dm.nwg[0] * dm.nwg[1] * dm.nwg[2];
	uint32_t pkt_lds = rd32(pkt + 28), pkt_priv = rd32(pkt + 24);
	dm.lds = pkt_lds > kd.group_fixed ? pkt_lds : kd.group_fixed;
	dm.priv = pkt_priv > kd.private_fixed ? pkt_priv : kd.private_fixed;
	dm.priv = (dm.priv + 3) & ~3u;
	if (dm.lds > 65536 || dm.priv > (1u << 20)) {
		fail_disp(&d, RDC_EXEC_BAD, "kernel %s: LDS or private segment beyond the hardware's limits%s", "");
		return res->status;
	}
	dm.waves_per_wg = (wg_items + d.wave_size - 1) / d.wave_size;
	d.epoch = rdc_program_epoch();

	uint64_t next = 0;
	unsigned nt = req->threads ? req->threads : 1;
	if (nt > dm.total_wg)
		nt = (unsigned)dm.total_wg;
	if (nt > 16)
		nt = 16;
	struct worker wk[16];
	pthread_t th[16];
	bool started[16] = { false };
	unsigned ok = 0;
	for (unsigned t = 0; t < nt; t++) {
		memset(&wk[t], 0, sizeof wk[t]);
		wk[t].d = &d;
		wk[t].kd = &kd;
		wk[t].dm = &dm;
		wk[t].kd_va = kd_va;
		wk[t].next_wg = &next;
		if (!worker_alloc(&wk[t], &dm, d.wave_size)) {
			worker_free(&wk[t]);
			break;
		}
		ok++;
	}
	if (!ok) {
		fail_disp(&d, RDC_EXEC_BAD, "kernel %s: out of memory for the engine's wave state%s", "");
		return res->status;
	}
	for (unsigned t = 1; t < ok; t++)
		started[t] = pthread_create(&th[t], NULL, worker_main, &wk[t]) == 0;
	worker_main(&wk[0]);
	for (unsigned t = 0; t < ok; t++) {
		if (started[t])
			pthread_join(th[t], NULL);
		res->insts += wk[t].insts;
		res->cpu_ns += wk[t].cpu_ns;
		worker_free(&wk[t]);
	}
	res->workgroups = dm.total_wg;
	res->waves = dm.total_wg * dm.waves_per_wg;
	pthread_mutex_destroy(&lock);
	return res->status;
}
