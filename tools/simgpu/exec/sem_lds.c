/* SPDX-License-Identifier: MIT */
/*
 * sem_lds.c — LDS (DS) instructions: loads and stores of 8 to 128 bits,
 * the two-address forms (offset0/offset1 in elements, stride64), LDS
 * atomics with and without return, the two-address exchanges, the
 * M0-addressed forms (ds_append/ds_consume on an LDS counter, the
 * lane-indexed ds_load/store_addtid_b32), ds_condxchg32_rtn_b64, and the
 * cross-lane DS operations that touch no memory: ds_bpermute_b32,
 * ds_permute_b32, ds_swizzle_b32 (every mode).
 *
 * A workgroup runs on one thread and its waves take turns between whole
 * instructions, so an LDS atomic is simply read-modify-write.  gfx10's
 * ds_cmpst_* take (compare, new) in data0/data1, gfx11's ds_cmpstore_*
 * (new, compare): the canonical names keep them apart; their _f32/_f64
 * forms compare as floats (-0 equals +0, NaN equals nothing).  Lanes a
 * permute reads that are inactive give 0.  GDS is not modelled.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "wave.h"

enum dk { DK_NONE, DK_LOAD, DK_STORE, DK_LOAD2, DK_STORE2, DK_XCHG2, DK_ATOMIC, DK_BPERM, DK_PERM, DK_SWIZ, DK_NOP,
	  DK_APPEND, DK_CONSUME, DK_LOAD_TID, DK_STORE_TID, DK_CONDXCHG };
enum da { DA_ADD = 1, DA_SUB, DA_RSUB, DA_INC, DA_DEC, DA_MIN_I, DA_MAX_I, DA_MIN_U, DA_MAX_U, DA_AND, DA_OR, DA_XOR,
	  DA_MSKOR, DA_XCHG, DA_CMPST, DA_CMPSTORE, DA_CMPST_F, DA_CMPSTORE_F, DA_WRAP, DA_ADD_F32, DA_MIN_F, DA_MAX_F };

struct dsinfo { uint8_t kind, bytes, sign, d16, d16hi, atomic, rtn, wide, stride64; };
static struct dsinfo info[RDC_OP_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static unsigned tbytes(const char *t, uint8_t *sign)
{
	*sign = 0;
	if (!strcmp(t, "u8") || !strcmp(t, "b8")) return 1;
	if (!strcmp(t, "i8")) return *sign = 1, 1;
	if (!strcmp(t, "u16") || !strcmp(t, "b16")) return 2;
	if (!strcmp(t, "i16")) return *sign = 1, 2;
	if (!strcmp(t, "b32")) return 4;
	if (!strcmp(t, "b64")) return 8;
	if (!strcmp(t, "b96")) return 12;
	if (!strcmp(t, "b128")) return 16;
	return 0;
}

static void build(void)
{
	for (unsigned op = 1; op < RDC_OP_COUNT; op++) {
		const char *n = rdc_op_name[op];
		if (strncmp(n, "ds_", 3))
			continue;
		const char *r = n + 3;
		struct dsinfo v = { 0 };
		char t[32];
		if (!strcmp(r, "bpermute_b32")) { info[op].kind = DK_BPERM; continue; }
		if (!strcmp(r, "permute_b32")) { info[op].kind = DK_PERM; continue; }
		if (!strcmp(r, "swizzle_b32")) { info[op].kind = DK_SWIZ; continue; }
		if (!strcmp(r, "nop")) { info[op].kind = DK_NOP; continue; }
		if (!strcmp(r, "append")) { info[op].kind = DK_APPEND; continue; }
		if (!strcmp(r, "consume")) { info[op].kind = DK_CONSUME; continue; }
		if (!strcmp(r, "load_addtid_b32")) { info[op].kind = DK_LOAD_TID; continue; }
		if (!strcmp(r, "store_addtid_b32")) { info[op].kind = DK_STORE_TID; continue; }
		if (!strcmp(r, "condxchg32_rtn_b64")) { info[op].kind = DK_CONDXCHG; continue; }
		bool two = strstr(r, "_2addr_") != NULL;
		if (!strncmp(r, "load_", 5) || !strncmp(r, "store_", 6)) {
			bool ld = r[0] == 'l';
			const char *p = r + (ld ? 5 : 6);
			if (two) {
				p += 6; /* "2addr_" */
				if (!strncmp(p, "stride64_", 9)) {
					v.stride64 = 1;
					p += 9;
				}
			}
			snprintf(t, sizeof t, "%s", p);
			char *suf = strstr(t, "_d16");
			if (suf) {
				v.d16 = 1;
				v.d16hi = strstr(suf, "_hi") != NULL;
				*suf = 0;
			}
			v.bytes = (uint8_t)tbytes(t, &v.sign);
			if (!v.bytes || (two && v.bytes != 4 && v.bytes != 8))
				continue;
			v.kind = two ? (ld ? DK_LOAD2 : DK_STORE2) : (ld ? DK_LOAD : DK_STORE);
			info[op] = v;
			continue;
		}
		if (two) { /* storexchg_2addr[_stride64]_rtn_b32/b64 */
			v.stride64 = strstr(r, "_stride64_") != NULL;
			v.bytes = (uint8_t)tbytes(strrchr(r, '_') + 1, &v.sign);
			if (strncmp(r, "storexchg_", 10) || (v.bytes != 4 && v.bytes != 8))
				continue;
			v.kind = DK_XCHG2;
			v.rtn = 1;
			info[op] = v;
			continue;
		}
		/* "<op>[_rtn]_<type>" */
		const char *ty = strrchr(r, '_');
		if (!ty || (ty[1] != 'u' && ty[1] != 'i' && ty[1] != 'b' && ty[1] != 'f'))
			continue;
		size_t bl = (size_t)(ty - r);
		char base[32];
		if (bl >= sizeof base)
			continue;
		memcpy(base, r, bl);
		base[bl] = 0;
		char *rt = strstr(base, "_rtn");
		v.rtn = rt != NULL;
		if (rt)
			*rt = 0;
		v.wide = !strcmp(ty + 2, "64");
		if (!v.wide && strcmp(ty + 2, "32"))
			continue;
		v.bytes = v.wide ? 8 : 4;
		char c = ty[1];
		static const struct { const char *n; char t; uint8_t a; } atab[] = {
			{ "add", 'u', DA_ADD }, { "sub", 'u', DA_SUB }, { "rsub", 'u', DA_RSUB }, { "inc", 'u', DA_INC },
			{ "dec", 'u', DA_DEC }, { "min", 'i', DA_MIN_I }, { "max", 'i', DA_MAX_I }, { "min", 'u', DA_MIN_U },
			{ "max", 'u', DA_MAX_U }, { "and", 'b', DA_AND }, { "or", 'b', DA_OR }, { "xor", 'b', DA_XOR },
			{ "mskor", 'b', DA_MSKOR }, { "storexchg", 'b', DA_XCHG }, { "cmpst", 'b', DA_CMPST },
			{ "cmpstore", 'b', DA_CMPSTORE }, { "cmpst", 'f', DA_CMPST_F }, { "cmpstore", 'f', DA_CMPSTORE_F },
			{ "wrap", 'b', DA_WRAP }, { "add", 'f', DA_ADD_F32 }, { "min", 'f', DA_MIN_F }, { "max", 'f', DA_MAX_F },
		};
		for (unsigned i = 0; i < sizeof atab / sizeof *atab; i++) {
			if (strcmp(base, atab[i].n) || c != atab[i].t)
				continue;
			if ((atab[i].a == DA_ADD_F32 || atab[i].a == DA_WRAP) && v.wide)
				break; /* ds_add_f64 is not on RDNA; ds_wrap is 32-bit only */
			v.kind = DK_ATOMIC;
			v.atomic = atab[i].a;
			info[op] = v;
			break;
		}
	}
}

/* In range: the workgroup's LDS directly; else rdc_lds_ptr records the fault. */
static inline uint8_t *lds_at(struct rdc_wave *w, uint32_t addr, unsigned bytes)
{
	const struct rdc_wg *wg = w->wg;
	if (wg && addr <= wg->lds_size && bytes <= wg->lds_size - addr)
		return wg->lds + addr;
	return rdc_lds_ptr(w, addr, bytes);
}

/* GDS (the gds bit) is not modelled: such an access fails rather than
 * silently using the LDS. */
static inline bool gds_fails(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (__builtin_expect(!in->gds, 1))
		return false;
	rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "GDS is not modelled");
	return true;
}

static void ds_load(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	const struct dsinfo *di = &info[in->op];
	const uint32_t *a = rdc_vreg(w, in->addr);
	uint32_t *d0 = rdc_vreg(w, in->dst);
	uint32_t off = (uint32_t)in->imm | (uint32_t)in->offset1 << 8;
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint8_t *p = lds_at(w, a[l] + off, di->bytes);
		if (!p)
			return;
		uint32_t buf[4] = { 0 };
		memcpy(buf, p, di->bytes);
		if (di->bytes < 4) {
			uint32_t x = buf[0];
			x = di->bytes == 1 ? (di->sign ? (uint32_t)(int32_t)(int8_t)x : (x & 0xff))
					  : (di->sign ? (uint32_t)(int32_t)(int16_t)x : (x & 0xffff));
			uint32_t *d = &rdc_vreg(w, in->dst)[l];
			if (di->d16hi)
				*d = (*d & 0xffffu) | x << 16;
			else if (di->d16)
				*d = (*d & 0xffff0000u) | (x & 0xffffu);
			else
				*d = x;
		} else if (di->bytes == 4) {
			d0[l] = buf[0];
		} else {
			for (unsigned i = 0; i < di->bytes / 4u; i++)
				rdc_vreg(w, (uint16_t)(in->dst + i))[l] = buf[i];
		}
	}
}

static void ds_store(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	const struct dsinfo *di = &info[in->op];
	const uint32_t *a = rdc_vreg(w, in->addr);
	uint32_t off = (uint32_t)in->imm | (uint32_t)in->offset1 << 8;
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint32_t buf[4];
		for (unsigned i = 0; i < (di->bytes + 3u) / 4u; i++)
			buf[i] = rdc_vreg(w, (uint16_t)(in->data0 + i))[l];
		if (di->d16hi)
			buf[0] >>= 16;
		uint8_t *p = lds_at(w, a[l] + off, di->bytes);
		if (!p)
			return;
		memcpy(p, buf, di->bytes);
	}
}

static void ds_2addr(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	const struct dsinfo *di = &info[in->op];
	const uint32_t *a = rdc_vreg(w, in->addr);
	unsigned sz = di->bytes, scale = sz * (di->stride64 ? 64u : 1u), dw = sz / 4;
	uint64_t m = rdc_exec_mask(w);
	bool load = di->kind == DK_LOAD2;
	uint32_t *r[2][4]; /* the VGPRs each half reads or writes (dw <= 2) */
	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < dw && i < 4; i++)
			r[k][i] = rdc_vreg(w, (uint16_t)((load ? in->dst + k * dw : k ? in->data1 : in->data0) + i));
	uint32_t o0 = (uint32_t)in->imm * scale, o1 = (uint32_t)in->offset1 * scale;
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint32_t ad[2] = { a[l] + o0, a[l] + o1 };
		for (unsigned k = 0; k < 2; k++) {
			uint8_t *p = lds_at(w, ad[k], sz);
			if (!p)
				return;
			for (unsigned i = 0; i < dw; i++) {
				if (load)
					memcpy(&r[k][i][l], p + 4 * i, 4);
				else
					memcpy(p + 4 * i, &r[k][i][l], 4);
			}
		}
	}
}

/* The float compare of the _f32/_f64 compare-stores. */
static inline bool feq(bool wide, uint64_t a, uint64_t b)
{
	return wide ? rdc_u2d(a) == rdc_u2d(b) : rdc_u2f((uint32_t)a) == rdc_u2f((uint32_t)b);
}

static inline bool flt(bool wide, uint64_t a, uint64_t b)
{
	return wide ? rdc_u2d(a) < rdc_u2d(b) : rdc_u2f((uint32_t)a) < rdc_u2f((uint32_t)b);
}

static uint64_t ds_new(const struct dsinfo *di, uint64_t old, uint64_t s0, uint64_t s1)
{
	bool wd = di->wide;
	int64_t so = wd ? (int64_t)old : (int32_t)old, ss = wd ? (int64_t)s0 : (int32_t)s0;
	uint64_t mask = wd ? ~0ull : 0xffffffffull;
	switch (di->atomic) {
	case DA_ADD: return (old + s0) & mask;
	case DA_SUB: return (old - s0) & mask;
	case DA_RSUB: return (s0 - old) & mask;
	case DA_INC: return old >= s0 ? 0 : old + 1;
	case DA_DEC: return (old == 0 || old > s0) ? s0 : old - 1;
	case DA_MIN_I: return (uint64_t)(so < ss ? so : ss) & mask;
	case DA_MAX_I: return (uint64_t)(so > ss ? so : ss) & mask;
	case DA_MIN_U: return old < s0 ? old : s0;
	case DA_MAX_U: return old > s0 ? old : s0;
	case DA_AND: return old & s0;
	case DA_OR: return old | s0;
	case DA_XOR: return old ^ s0;
	case DA_MSKOR: return (old & ~s0) | s1;
	case DA_XCHG: return s0;
	case DA_CMPST: return old == s0 ? s1 : old;       /* gfx10: data0 = compare, data1 = new */
	case DA_CMPSTORE: return old == s1 ? s0 : old;    /* gfx11: data0 = new, data1 = compare */
	case DA_CMPST_F: return feq(wd, old, s0) ? s1 : old;
	case DA_CMPSTORE_F: return feq(wd, old, s1) ? s0 : old;
	case DA_WRAP: return (uint32_t)(old >= s0 ? old - s0 : old + s1);
	case DA_ADD_F32: return rdc_f2u(rdc_u2f((uint32_t)old) + rdc_u2f((uint32_t)s0));
	/* the guide's "src < tmp ? src : tmp": a NaN in memory stays, a NaN
	 * source changes nothing, -0 and +0 compare equal (memory stays) */
	case DA_MIN_F: return flt(wd, s0, old) ? s0 : old;
	case DA_MAX_F: return flt(wd, old, s0) ? s0 : old;
	default: return old;
	}
}

static void ds_atomic(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	const struct dsinfo *di = &info[in->op];
	const uint32_t *a = rdc_vreg(w, in->addr);
	uint32_t off = (uint32_t)in->imm | (uint32_t)in->offset1 << 8;
	uint64_t m = rdc_exec_mask(w);
	unsigned dw = di->wide ? 2 : 1;
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint8_t *p = lds_at(w, a[l] + off, di->bytes);
		if (!p)
			return;
		uint64_t old = 0, s0 = rdc_vreg(w, in->data0)[l], s1 = rdc_vreg(w, in->data1)[l];
		if (di->wide) {
			s0 |= (uint64_t)rdc_vreg(w, (uint16_t)(in->data0 + 1))[l] << 32;
			s1 |= (uint64_t)rdc_vreg(w, (uint16_t)(in->data1 + 1))[l] << 32;
		}
		memcpy(&old, p, di->bytes);
		uint64_t nw = ds_new(di, old, s0, s1);
		memcpy(p, &nw, di->bytes);
		if (di->rtn)
			for (unsigned i = 0; i < dw; i++)
				rdc_vreg(w, (uint16_t)(in->dst + i))[l] = (uint32_t)(old >> (32 * i));
	}
}

/* ds_storexchg_2addr[_stride64]_rtn: both old values are read, then DATA
 * goes to the first address and DATA2 to the second (the later write wins
 * when they coincide); the old values return in dst (first) and after it. */
static void ds_xchg2(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	const struct dsinfo *di = &info[in->op];
	const uint32_t *a = rdc_vreg(w, in->addr);
	unsigned sz = di->bytes, dw = sz / 4, scale = sz * (di->stride64 ? 64u : 1u);
	uint32_t o[2] = { (uint32_t)in->imm * scale, (uint32_t)in->offset1 * scale };
	uint16_t src[2] = { in->data0, in->data1 };
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint8_t *p[2];
		uint32_t old[2][2];
		for (unsigned k = 0; k < 2; k++) {
			if (!(p[k] = lds_at(w, a[l] + o[k], sz)))
				return;
			memcpy(old[k], p[k], sz);
		}
		for (unsigned k = 0; k < 2; k++)
			for (unsigned i = 0; i < dw; i++)
				memcpy(p[k] + 4 * i, &rdc_vreg(w, (uint16_t)(src[k] + i))[l], 4);
		for (unsigned k = 0; k < 2; k++)
			for (unsigned i = 0; i < dw; i++)
				rdc_vreg(w, (uint16_t)(in->dst + k * dw + i))[l] = old[k][i];
	}
}

/* The byte address of the M0-based forms: M0[15:0] + the 16-bit offset. */
static inline uint32_t m0_addr(const struct rdc_wave *w, const struct rdc_inst *in)
{
	return (w->s[RDC_OPD_M0] & 0xffffu) + ((uint32_t)in->imm | (uint32_t)in->offset1 << 8);
}

/* ds_append / ds_consume: one counter for the whole wave at M0.base +
 * offset, moved up (down) by the number of active lanes; every active lane
 * gets its value from before. */
static void ds_append(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	uint64_t m = rdc_exec_mask(w);
	uint8_t *p = lds_at(w, m0_addr(w, in), 4);
	if (!p)
		return;
	uint32_t old, n = (uint32_t)__builtin_popcountll(m);
	memcpy(&old, p, 4);
	uint32_t nw = info[in->op].kind == DK_APPEND ? old + n : old - n;
	memcpy(p, &nw, 4);
	uint32_t *d = rdc_vreg(w, in->dst);
	for (unsigned l = 0; l < w->n; l++)
		if ((m >> l) & 1)
			d[l] = old;
}

/* ds_load/store_addtid_b32: lane L at M0[15:0] + offset + 4 * L. */
static void ds_addtid(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	uint32_t base = m0_addr(w, in);
	bool load = info[in->op].kind == DK_LOAD_TID;
	uint32_t *r = rdc_vreg(w, load ? in->dst : in->data0);
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint8_t *p = lds_at(w, base + 4 * l, 4);
		if (!p)
			return;
		if (load)
			memcpy(&r[l], p, 4);
		else
			memcpy(p, &r[l], 4);
	}
}

/* ds_condxchg32_rtn_b64: at (ADDR + offset) & 0xfff8, each dword of DATA
 * whose bit 31 is set replaces that dword of LDS with bit 31 cleared; the
 * two old dwords return. */
static void ds_condxchg(struct rdc_wave *w, const struct rdc_inst *in)
{
	if (gds_fails(w, in))
		return;
	const uint32_t *a = rdc_vreg(w, in->addr);
	uint32_t off = (uint32_t)in->imm | (uint32_t)in->offset1 << 8;
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint8_t *p = lds_at(w, (a[l] + off) & 0xfff8u, 8);
		if (!p)
			return;
		uint32_t old[2], d[2] = { rdc_vreg(w, in->data0)[l], rdc_vreg(w, (uint16_t)(in->data0 + 1))[l] };
		memcpy(old, p, 8);
		for (unsigned i = 0; i < 2; i++) {
			if (d[i] >> 31) {
				d[i] &= 0x7fffffffu;
				memcpy(p + 4 * i, &d[i], 4);
			}
			rdc_vreg(w, (uint16_t)(in->dst + i))[l] = old[i];
		}
	}
}

static void ds_bpermute(struct rdc_wave *w, const struct rdc_inst *in)
{
	const uint32_t *a = rdc_vreg(w, in->addr), *src = rdc_vreg(w, in->data0);
	uint32_t d[RDC_LANES];
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		/* the 16-bit offset: offset0 | offset1 << 8 (as every one-address DS op) */
		unsigned s = ((a[l] + ((uint32_t)in->imm | (uint32_t)in->offset1 << 8)) >> 2) & (w->n - 1);
		d[l] = (m >> s) & 1 ? src[s] : 0;
	}
	uint32_t *dst = rdc_vreg(w, in->dst);
	for (unsigned l = 0; l < w->n; l++)
		if ((m >> l) & 1)
			dst[l] = d[l];
}

static void ds_permute(struct rdc_wave *w, const struct rdc_inst *in)
{
	const uint32_t *a = rdc_vreg(w, in->addr), *src = rdc_vreg(w, in->data0);
	uint32_t d[RDC_LANES] = { 0 };
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		unsigned t = ((a[l] + ((uint32_t)in->imm | (uint32_t)in->offset1 << 8)) >> 2) & (w->n - 1);
		d[t] = src[l];
	}
	uint32_t *dst = rdc_vreg(w, in->dst);
	for (unsigned l = 0; l < w->n; l++)
		if ((m >> l) & 1)
			dst[l] = d[l];
}

static void ds_swizzle(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t off = (uint32_t)in->imm | (uint32_t)in->offset1 << 8;
	/* the source is the ADDR field (ds_swizzle_b32 vdst, vaddr): DATA0 is unused */
	const uint32_t *src = rdc_vreg(w, in->addr);
	uint32_t d[RDC_LANES];
	uint64_t m = rdc_exec_mask(w);
	for (unsigned l = 0; l < w->n; l++) {
		unsigned s;
		if (off >= 0xE000) { /* FFT: the lane's low 5 bits reversed, shifted past the kept (mask) bits */
			unsigned mask = off & 0x1f, r = 0;
			for (unsigned b = 0; b < 5; b++)
				r |= ((l >> b) & 1u) << (4 - b);
			s = (r >> __builtin_popcount(mask)) | (l & mask) | (l & 0x20);
		} else if (off >= 0xC000) {
			/* rotate: the lane bits outside the mask (offset[4:0]) advance by
			 * offset[9:5], backwards when offset[10] is set, wrapping within
			 * the group the mask bits name (rocWMMA's Rotate<dir, n, group>) */
			unsigned mask = off & 0x1f, rot = (off >> 5) & 0x1f;
			if (off & 0x400)
				rot = (32 - rot) & 31;
			s = (l & mask) | ((l + rot) & ~mask & 31u) | (l & 0x20);
		} else if (off & 0x8000) {
			s = (l & ~3u) | ((off >> ((l & 3) * 2)) & 3);
		} else {
			unsigned and_m = off & 0x1f, or_m = (off >> 5) & 0x1f, xor_m = (off >> 10) & 0x1f;
			s = (l & ~31u) | ((((l & 31) & and_m) | or_m) ^ xor_m);
		}
		d[l] = (m >> s) & 1 ? src[s] : 0;
	}
	uint32_t *dst = rdc_vreg(w, in->dst);
	for (unsigned l = 0; l < w->n; l++)
		if ((m >> l) & 1)
			dst[l] = d[l];
}

static void ds_nop(struct rdc_wave *w, const struct rdc_inst *in)
{
	(void)w;
	(void)in;
}

rdc_sem_fn rdc_sem_lds(uint16_t op)
{
	pthread_once(&once, build);
	if (op >= RDC_OP_COUNT)
		return NULL;
	switch (info[op].kind) {
	case DK_LOAD: return ds_load;
	case DK_STORE: return ds_store;
	case DK_LOAD2: case DK_STORE2: return ds_2addr;
	case DK_XCHG2: return ds_xchg2;
	case DK_APPEND: case DK_CONSUME: return ds_append;
	case DK_LOAD_TID: case DK_STORE_TID: return ds_addtid;
	case DK_CONDXCHG: return ds_condxchg;
	case DK_ATOMIC: return ds_atomic;
	case DK_BPERM: return ds_bpermute;
	case DK_PERM: return ds_permute;
	case DK_SWIZ: return ds_swizzle;
	case DK_NOP: return ds_nop;
	default: return NULL;
	}
}
