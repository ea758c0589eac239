/* SPDX-License-Identifier: MIT */
/*
 * mem.c — where the engine's loads and stores land, and how a dispatch fails.
 *
 * Global and flat addresses go through the command processor's translation
 * (the simulator's buffer objects); an access not wholly inside one buffer
 * object is a GPU memory fault.  Flat addresses in the LDS or private
 * apertures (KFD's lds_base / scratch_base, which the runtime also learns)
 * go to the workgroup's LDS or the lane's private memory.  Private memory
 * is modelled per lane (what the hardware's swizzled scratch gives each
 * lane): MUBUF accesses through the private-segment descriptor, scratch_*
 * instructions and flat private addresses all index it by the byte address
 * the code computes.  An access beyond it, or beyond the workgroup's LDS,
 * fails the dispatch (hardware would drop it; correct code never does it).
 */
#include <stdarg.h>
#include <stdio.h>

#include "wave.h"

void rdc_fail(struct rdc_wave *w, enum rdc_exec_status st, const struct rdc_inst *in, const char *fmt, ...)
{
	w->failed = true;
	w->done = true;
	struct rdc_disp *d = w->disp;
	if (__atomic_exchange_n(&d->failed, 1, __ATOMIC_ACQ_REL))
		return; /* the first failure is the one reported */
	struct rdc_exec_result *r = d->res;
	if (!in)
		in = w->cur;
	r->status = st;
	r->pc = w->pc;
	char what[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(r->msg, sizeof r->msg, "kernel %s: pc 0x%llx (wave %llu, workgroup %u,%u,%u): %s%s%s",
		 d->req->kernel && *d->req->kernel ? d->req->kernel : "?", (unsigned long long)w->pc,
		 (unsigned long long)w->wave_id, w->wg ? w->wg->id[0] : 0, w->wg ? w->wg->id[1] : 0,
		 w->wg ? w->wg->id[2] : 0, in ? in->mnemonic : "", in ? ": " : "", what);
}

uint8_t *rdc_gpeek(struct rdc_wave *w, uint64_t va, uint32_t len)
{
	struct rdc_exec_range *c = &w->cache;
	if (c->cpu && va >= c->base && va - c->base <= c->size && len <= c->size - (va - c->base))
		return c->cpu + (va - c->base);
	struct rdc_exec_range r;
	if (!w->mem->find(w->mem->ctx, va, &r) || !r.cpu || va < r.base || va - r.base > r.size ||
	    len > r.size - (va - r.base))
		return NULL;
	*c = r;
	return r.cpu + (va - r.base);
}

uint8_t *rdc_gptr_slow(struct rdc_wave *w, uint64_t va, uint32_t len, bool write)
{
	uint8_t *p = rdc_gpeek(w, va, len);
	if (!p && !w->failed) {
		if (!__atomic_load_n(&w->disp->failed, __ATOMIC_ACQUIRE))
			w->disp->res->addr = va;
		rdc_fail(w, RDC_EXEC_FAULT, NULL, "memory %s of %u bytes at 0x%llx outside every buffer object",
			 write ? "write" : "read", len, (unsigned long long)va);
	}
	return p;
}

uint8_t *rdc_priv_ptr(struct rdc_wave *w, unsigned lane, uint64_t addr, uint32_t len)
{
	if (addr > w->priv_size || len > w->priv_size - addr) {
		rdc_fail(w, RDC_EXEC_FAULT, NULL,
			 "private (scratch) access of %u bytes at offset 0x%llx, lane %u, beyond the %u bytes per lane "
			 "the kernel descriptor asks for", len, (unsigned long long)addr, lane, w->priv_size);
		return NULL;
	}
	return w->priv + (size_t)lane * w->priv_size + addr;
}

uint8_t *rdc_lds_ptr(struct rdc_wave *w, uint64_t addr, uint32_t len)
{
	if (!w->wg || addr > w->wg->lds_size || len > w->wg->lds_size - addr) {
		rdc_fail(w, RDC_EXEC_FAULT, NULL, "LDS access of %u bytes at 0x%llx beyond the workgroup's %u bytes",
			 len, (unsigned long long)addr, w->wg ? w->wg->lds_size : 0);
		return NULL;
	}
	return w->wg->lds + addr;
}

/* Apertures are 4 GiB windows at their base (KFD reports base..limit). */
uint8_t *rdc_flat_ptr(struct rdc_wave *w, unsigned lane, uint64_t va, uint32_t len, bool write)
{
	const struct rdc_exec_mem *m = w->mem;
	if (m->lds_aperture && va - m->lds_aperture < (1ull << 32))
		return rdc_lds_ptr(w, va - m->lds_aperture, len);
	if (m->scratch_aperture && va - m->scratch_aperture < (1ull << 32))
		return rdc_priv_ptr(w, lane, va - m->scratch_aperture, len);
	return rdc_gptr(w, va, len, write);
}
