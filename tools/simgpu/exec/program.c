/* SPDX-License-Identifier: MIT */
/*
 * program.c — decoded code, kept across dispatches.
 *
 * Code is decoded lazily, once, in 4 KiB pages of the GPU address space:
 * each page holds a copy of its bytes and one decoded slot per dword
 * (an instruction starts on any dword).  A page is checked against memory
 * once per dispatch (a code object unloaded and another loaded at the same
 * address gets decoded afresh), then used without locks: slots are filled
 * under the page's lock and published with a release store.  Pages live
 * until the process ends (bounded: RDC_PROG_MAX_PAGES, then the oldest
 * table is dropped between dispatches).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "wave.h"

#define PAGE 4096u
#define SLOTS (PAGE / 4)
#define NBUCKET 4096u
#define RDC_PROG_MAX_PAGES 65536u

struct page {
	uint64_t va;
	uint64_t epoch;              /* the dispatch that last checked it */
	pthread_mutex_t lock;
	uint8_t bytes[PAGE];
	uint8_t ready[SLOTS];        /* atomic: slot decoded */
	struct rdc_inst slot[SLOTS];
	struct page *next;
};

static pthread_mutex_t prog_lock = PTHREAD_MUTEX_INITIALIZER;
static struct page *bucket[NBUCKET];
static unsigned npages;
static uint64_t epoch_now;

uint64_t rdc_program_epoch(void)
{
	pthread_mutex_lock(&prog_lock);
	uint64_t e = ++epoch_now;
	if (npages > RDC_PROG_MAX_PAGES) {
		for (unsigned i = 0; i < NBUCKET; i++) {
			while (bucket[i]) {
				struct page *p = bucket[i];
				bucket[i] = p->next;
				pthread_mutex_destroy(&p->lock);
				free(p);
			}
		}
		npages = 0;
	}
	pthread_mutex_unlock(&prog_lock);
	return e;
}

static struct page *page_get(struct rdc_wave *w, uint64_t va)
{
	unsigned h = (unsigned)((va >> 12) * 0x9E3779B1u) % NBUCKET;
	const uint8_t *mem = rdc_gpeek(w, va, PAGE);
	size_t have = PAGE;
	if (!mem) {
		/* The code's buffer object may end inside this page. */
		struct rdc_exec_range r;
		if (!w->mem->find(w->mem->ctx, va, &r) || !r.cpu || va < r.base)
			return NULL;
		have = r.size - (va - r.base);
		if (have > PAGE)
			return NULL;
		mem = r.cpu + (va - r.base);
	}
	pthread_mutex_lock(&prog_lock);
	struct page *p = bucket[h];
	while (p && p->va != va)
		p = p->next;
	if (!p) {
		p = calloc(1, sizeof *p);
		if (!p) {
			pthread_mutex_unlock(&prog_lock);
			return NULL;
		}
		p->va = va;
		pthread_mutex_init(&p->lock, NULL);
		p->next = bucket[h];
		bucket[h] = p;
		npages++;
	}
	pthread_mutex_unlock(&prog_lock);
	pthread_mutex_lock(&p->lock);
	uint64_t e = w->disp->epoch;
	if (p->epoch != e) {
		if (memcmp(p->bytes, mem, have) != 0 || have != PAGE) {
			memset(p->bytes, 0, PAGE);
			memcpy(p->bytes, mem, have);
			for (unsigned i = 0; i < SLOTS; i++)
				__atomic_store_n(&p->ready[i], 0, __ATOMIC_RELAXED);
		}
		p->epoch = e;
	}
	pthread_mutex_unlock(&p->lock);
	return p;
}

const struct rdc_inst *rdc_program_at(struct rdc_wave *w, uint64_t pc)
{
	if (pc & 3) {
		rdc_fail(w, RDC_EXEC_BAD, NULL, "program counter 0x%llx is not dword aligned", (unsigned long long)pc);
		return NULL;
	}
	uint64_t base = pc & ~(uint64_t)(PAGE - 1);
	struct page *p = w->page && ((struct page *)w->page)->va == base ? w->page : NULL;
	if (!p) {
		p = page_get(w, base);
		if (!p) {
			w->disp->res->addr = pc;
			rdc_fail(w, RDC_EXEC_FAULT, NULL, "instruction fetch at 0x%llx outside every buffer object",
				 (unsigned long long)pc);
			return NULL;
		}
		w->page = p;
		w->code_va = p->va;
		w->code_ready = p->ready;
		w->code_slot = p->slot;
	}
	unsigned i = (unsigned)(pc - base) / 4;
	if (__atomic_load_n(&p->ready[i], __ATOMIC_ACQUIRE))
		return &p->slot[i];
	pthread_mutex_lock(&p->lock);
	if (!p->ready[i]) {
		uint8_t buf[16];
		size_t off = pc - base, n = PAGE - off < 16 ? PAGE - off : 16;
		memcpy(buf, p->bytes + off, n);
		if (n < 16) { /* the instruction runs into the next page */
			const uint8_t *more = rdc_gpeek(w, base + PAGE, (uint32_t)(16 - n));
			if (more)
				memcpy(buf + n, more, 16 - n);
			else
				memset(buf + n, 0, 16 - n);
		}
		rdc_decode(w->gfx, buf, 16, &p->slot[i]);
		__atomic_store_n(&p->ready[i], 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->lock);
	return &p->slot[i];
}
