/* SPDX-License-Identifier: MIT */
/*
 * sdma.c — the simulated SDMA engine: executes the packets ROCR 5.2's
 * BlitSdma writes for gfx9+/gfx10 (ROCR core/inc/sdma_registers.h: read and
 * write pointers are monotonic byte indices, count fields are size - 1), so
 * hipMemcpy really moves bytes:
 *   NOP (op 0, header bits 16-29 = extra dwords), COPY_LINEAR (1/0),
 *   COPY_LINEAR_RECT (1/4: 2D/3D copies, hipMemcpy2D), WRITE_LINEAR (2), FENCE (5), TRAP (6: fires event int_ctx), POLL_REGMEM
 *   (8: memory polls wait; HDP-flush/register polls are no-ops), ATOMIC (10:
 *   ADD64), CONST_FILL (11), TIMESTAMP (13/2: global, ns), GCR (17: no-op).
 * Every address is a GPU address, translated through the buffer objects
 * (kfd_mem.c) first: an access outside them is reported (like a GPU page
 * fault) and the packet skipped, never executed.  Anything else is reported
 * as unsupported and skipped.
 */
#include <string.h>

#include "sim.h"

#define OP_NOP 0
#define OP_COPY 1
#define OP_WRITE 2
#define OP_FENCE 5
#define OP_TRAP 6
#define OP_POLL_REGMEM 8
#define OP_ATOMIC 10
#define OP_CONST_FILL 11
#define OP_TIMESTAMP 13
#define OP_GCR 17
#define SUBOP_COPY_LINEAR 0
#define SUBOP_COPY_LINEAR_RECT 4
#define SUBOP_TIMESTAMP_GET_GLOBAL 2
#define ATOMIC_ADD64 47

static uint64_t addr64(const uint32_t *lo_hi) { return (uint64_t)lo_hi[0] | (uint64_t)lo_hi[1] << 32; }

/* CPU view of a GPU address range, or NULL (said on stderr). */
static void *check(struct rdc_sim_ring *r, const char *what, uint64_t addr, uint64_t len)
{
	void *p = rdc_sim_mem_ptr(addr, len);
	if (p)
		return p;
	rdc_sim_log("SDMA (node %u): %s of %llu bytes at 0x%llx is outside every buffer "
		    "object; packet skipped (a real GPU would fault)",
		    r->node, what, (unsigned long long)len, (unsigned long long)addr);
	return NULL;
}

static void unsupported(struct rdc_sim_ring *r, unsigned op, unsigned sub)
{
	uint64_t bit = 1ull << (op & 63);
	if (r->unsupported_ops & bit)
		return; /* said once per ring and op */
	r->unsupported_ops |= bit;
	rdc_sim_log("SDMA (node %u): packet op %u sub-op %u is not supported by the simulator; "
		    "skipped (its effect is missing)", r->node, op, sub);
}

/* Length in dwords of the packet starting with dw0, or 0 if unknown. */
static unsigned packet_dwords(uint32_t dw0, const uint32_t *p, uint64_t avail_dw)
{
	unsigned op = dw0 & 0xff, sub = (dw0 >> 8) & 0xff;
	switch (op) {
	case OP_NOP: return 1 + ((dw0 >> 16) & 0x3fff);
	case OP_COPY: return sub == SUBOP_COPY_LINEAR ? 7 : sub == SUBOP_COPY_LINEAR_RECT ? 13 : 0;
	case OP_WRITE: return avail_dw >= 4 ? 4 + (p[3] & 0xfffff) + 1 : 0;
	case OP_FENCE: return 4;
	case OP_TRAP: return 2;
	case OP_POLL_REGMEM: return 6;
	case OP_ATOMIC: return 8;
	case OP_CONST_FILL: return 5;
	case OP_TIMESTAMP: return 3;
	case OP_GCR: return 5;
	default: return 0;
	}
}

/* COPY_LINEAR_RECT (pre-gfx12 layout, ROCR BuildCopyRectCommand): element
 * size 1 << header[31:29]; base addresses dword aligned with x offsets in
 * elements; pitches, slices and the rectangle are "count - 1" in elements. */
static void copy_rect(struct rdc_sim_ring *r, const uint32_t *p)
{
	uint64_t es = 1ull << ((p[0] >> 29) & 7);
	uint64_t src = addr64(&p[1]), dst = addr64(&p[6]);
	uint64_t sx = p[3] & 0x3fff, sy = (p[3] >> 16) & 0x3fff, sz = p[4] & 0x7ff;
	uint64_t spitch = ((uint64_t)(p[4] >> 13) + 1) * es, sslice = ((uint64_t)(p[5] & 0xfffffff) + 1) * es;
	uint64_t dx = p[8] & 0x3fff, dy = (p[8] >> 16) & 0x3fff, dz = p[9] & 0x7ff;
	uint64_t dpitch = ((uint64_t)(p[9] >> 13) + 1) * es, dslice = ((uint64_t)(p[10] & 0xfffffff) + 1) * es;
	uint64_t w = ((uint64_t)(p[11] & 0x3fff) + 1) * es, h = ((p[11] >> 16) & 0x3fff) + 1;
	uint64_t d = (p[12] & 0x7ff) + 1;
	for (uint64_t z = 0; z < d; z++)
		for (uint64_t y = 0; y < h; y++) {
			uint64_t s_row = src + sx * es + (sy + y) * spitch + (sz + z) * sslice;
			uint64_t d_row = dst + dx * es + (dy + y) * dpitch + (dz + z) * dslice;
			void *sp = check(r, "rect copy source row", s_row, w);
			void *dp = sp ? check(r, "rect copy destination row", d_row, w) : NULL;
			if (!dp)
				return;
			memmove(dp, sp, w);
		}
}

static bool poll_true(unsigned func, uint32_t v, uint32_t want)
{
	switch (func) {
	case 0: return true;
	case 1: return v < want;
	case 2: return v <= want;
	case 3: return v == want;
	case 4: return v != want;
	case 5: return v >= want;
	case 6: return v > want;
	default: return true;
	}
}

/* Execute one packet; false if it must be retried later (a poll). */
static bool execute(struct rdc_sim_ring *r, const uint32_t *p)
{
	unsigned op = p[0] & 0xff, sub = (p[0] >> 8) & 0xff;
	switch (op) {
	case OP_NOP:
	case OP_GCR:
		return true;
	case OP_COPY: {
		if (sub == SUBOP_COPY_LINEAR_RECT) {
			copy_rect(r, p);
			return true;
		}
		if (sub != SUBOP_COPY_LINEAR) {
			unsupported(r, op, sub);
			return true;
		}
		uint64_t n = (uint64_t)(p[1] & 0x3fffffff) + 1;
		uint64_t src = addr64(&p[3]), dst = addr64(&p[5]);
		void *sp = check(r, "copy source", src, n);
		void *dp = sp ? check(r, "copy destination", dst, n) : NULL;
		if (dp)
			memmove(dp, sp, n);
		return true;
	}
	case OP_WRITE: {
		uint64_t dst = addr64(&p[1]);
		uint64_t n = ((uint64_t)(p[3] & 0xfffff) + 1) * 4;
		void *dp = check(r, "write", dst, n);
		if (dp)
			memcpy(dp, &p[4], n);
		return true;
	}
	case OP_FENCE: {
		uint64_t a = addr64(&p[1]);
		uint32_t *fp = check(r, "fence", a, 4);
		if (fp)
			__atomic_store_n(fp, p[3], __ATOMIC_SEQ_CST);
		return true;
	}
	case OP_TRAP:
		rdc_sim_event_fire(p[1] & 0x0fffffff);
		return true;
	case OP_POLL_REGMEM: {
		bool hdp_flush = (p[0] >> 26) & 1, mem = (p[0] >> 31) & 1;
		if (hdp_flush || !mem)
			return true; /* register poll / HDP flush: no hardware to wait for */
		uint64_t a = addr64(&p[1]);
		uint32_t *pp = check(r, "poll", a, 4);
		if (!pp)
			return true;
		uint32_t v = __atomic_load_n(pp, __ATOMIC_ACQUIRE);
		return poll_true((p[0] >> 28) & 7, v & p[4], p[3]);
	}
	case OP_ATOMIC: {
		unsigned operation = (p[0] >> 25) & 0x7f;
		uint64_t a = addr64(&p[1]), src = addr64(&p[3]);
		if (operation != ATOMIC_ADD64) {
			unsupported(r, op, operation);
			return true;
		}
		uint64_t *ap = check(r, "atomic", a, 8);
		if (ap)
			__atomic_fetch_add(ap, src, __ATOMIC_SEQ_CST);
		return true;
	}
	case OP_CONST_FILL: {
		/* count is 1-based bytes; a dword fill writes whole dwords: ROCR 5.2
		 * writes bytes - 1, newer ROCR (dwords - 1) * 4, both mean
		 * (count >> 2) + 1 dwords. */
		uint64_t dst = addr64(&p[1]);
		uint64_t count = p[4] & 0x3fffffff;
		unsigned esize = 1u << ((p[0] >> 30) & 3);
		if (esize > 4)
			esize = 4;
		uint64_t n = esize == 1 ? count + 1 : ((count / esize) + 1) * esize;
		uint8_t *d = check(r, "fill", dst, n);
		if (!d)
			return true;
		uint8_t pat[4];
		memcpy(pat, &p[3], 4);
		for (uint64_t i = 0; i < n; i++)
			d[i] = pat[i % esize];
		return true;
	}
	case OP_TIMESTAMP: {
		uint64_t a = addr64(&p[1]);
		if (sub != SUBOP_TIMESTAMP_GET_GLOBAL) {
			unsupported(r, op, sub);
			return true;
		}
		uint64_t *tp = check(r, "timestamp", a, 8);
		if (tp)
			__atomic_store_n(tp, rdc_sim_now_ns(), __ATOMIC_SEQ_CST);
		return true;
	}
	default:
		unsupported(r, op, sub);
		return true;
	}
}

bool rdc_sim_sdma_poll(struct rdc_sim_ring *r)
{
	uint64_t rd = __atomic_load_n(r->rptr, __ATOMIC_ACQUIRE);
	uint64_t wr = __atomic_load_n(r->wptr, __ATOMIC_ACQUIRE);
	uint64_t db = __atomic_load_n(r->doorbell, __ATOMIC_ACQUIRE);
	if (db > wr)
		wr = db;
	bool progress = false;
	while (rd < wr) {
		uint64_t off = rd % r->size;
		if (off & 3) {
			rdc_sim_log("SDMA (node %u): read pointer 0x%llx not dword aligned; queue stalled",
				    r->node, (unsigned long long)rd);
			return false;
		}
		const uint32_t *p = (const uint32_t *)(r->base + off);
		uint64_t avail = (r->size - off) / 4;
		unsigned len = packet_dwords(p[0], p, avail);
		if (len == 0) {
			unsupported(r, p[0] & 0xff, (p[0] >> 8) & 0xff);
			len = 1; /* resynchronise on the next dword */
		} else if (len > avail || (uint64_t)len * 4 > wr - rd) {
			if (!r->warned)
				rdc_sim_log("SDMA (node %u): packet op %u runs past the written part "
					    "of the ring; waiting", r->node, p[0] & 0xff);
			r->warned = true;
			return progress;
		} else {
			rdc_sim_mem_hold();
			bool done = execute(r, p);
			rdc_sim_mem_release();
			if (!done)
				return progress; /* poll not satisfied yet */
		}
		rd += (uint64_t)len * 4;
		__atomic_store_n(r->rptr, rd, __ATOMIC_RELEASE);
		progress = true;
	}
	return progress;
}
