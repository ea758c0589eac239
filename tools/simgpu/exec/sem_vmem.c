/* SPDX-License-Identifier: MIT */
/*
 * sem_vmem.c — vector memory: GLOBAL, FLAT, SCRATCH and MUBUF loads, stores
 * and atomics.
 *
 * Addresses: GLOBAL = SGPR pair (saddr) + 32-bit VGPR offset, or a 64-bit
 * VGPR address, + the instruction offset (the addtid forms: saddr + offset
 * + the lane's id * 4, no VGPR); FLAT = 64-bit VGPR address +
 * offset, then the LDS and private apertures (mem.c); SCRATCH = the lane's
 * private memory at VGPR/SGPR + offset; MUBUF = the V#'s base + soffset +
 * offset (+ VGPR offset with offen, + index * stride with idxen), with the
 * hardware's range check (buf_ok: out of range reads 0 and is not
 * written) — except the private-segment V# the dispatcher gave the wave
 * (ADD_TID_ENABLE set), which addresses the lane's private memory.  Loads
 * into LDS (RDNA3 buffer_load_lds_*, RDNA2's lds bit) write LDS at M0.
 * Atomics are host atomics (workgroups run on several threads) and return
 * the old value when glc is set.  What each operation does (size, sign,
 * d16 half, atomic kind) is read once from its canonical name.  Typed
 * accesses (MTBUF tbuffer_*, MUBUF *_format_*) convert through the data
 * format (buffmt.c).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "wave.h"

enum vk { VK_NONE, VK_LOAD, VK_STORE, VK_ATOMIC, VK_NOP, VK_FLOAD, VK_FSTORE };
enum at { AT_SWAP = 1, AT_CMPSWAP, AT_ADD, AT_SUB, AT_MIN_I, AT_MIN_U, AT_MAX_I, AT_MAX_U, AT_AND, AT_OR, AT_XOR,
	  AT_INC, AT_DEC, AT_ADD_F32, AT_MIN_F32, AT_MAX_F32, AT_CSUB, AT_ADD_F64, AT_MIN_F64, AT_MAX_F64,
	  AT_CMPSWAP_F32, AT_CMPSWAP_F64 };

struct vminfo {
	uint8_t kind, bytes, dwords, sign, d16, d16hi, atomic, wide, addtid;
	uint8_t ncomp;            /* typed (format) accesses: components x..w */
	uint8_t lds;              /* RDNA3 buffer_load_lds_*: the data goes to LDS */
};
static struct vminfo info[RDC_OP_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool ends(const char *s, const char *t)
{
	size_t a = strlen(s), b = strlen(t);
	return a >= b && !strcmp(s + a - b, t);
}

/* buffer_/tbuffer_ load/store [d16_[hi_]]format_{x,xy,xyz,xyzw} */
static bool parse_format(unsigned op, const char *rest)
{
	struct vminfo v = { 0 };
	bool ld = !strncmp(rest, "load_", 5);
	if (!ld && strncmp(rest, "store_", 6))
		return false;
	const char *t = rest + (ld ? 5 : 6);
	if (!strncmp(t, "d16_hi_", 7)) {
		v.d16 = v.d16hi = 1;
		t += 7;
	} else if (!strncmp(t, "d16_", 4)) {
		v.d16 = 1;
		t += 4;
	}
	if (strncmp(t, "format_", 7))
		return false;
	t += 7;
	size_t n = strlen(t);
	if (n < 1 || n > 4 || strncmp(t, "xyzw", n))
		return false;
	v.kind = ld ? VK_FLOAD : VK_FSTORE;
	v.ncomp = (uint8_t)n;
	info[op] = v;
	return true;
}

static void parse(unsigned op, const char *rest)
{
	struct vminfo v = { 0 };
	if (!strcmp(rest, "load_addtid_b32") || !strcmp(rest, "store_addtid_b32")) {
		v.kind = rest[0] == 'l' ? VK_LOAD : VK_STORE;
		v.bytes = 4;
		v.dwords = 1;
		v.addtid = 1;
		info[op] = v;
		return;
	}
	if (!strncmp(rest, "load_", 5) || !strncmp(rest, "store_", 6)) {
		bool ld = rest[0] == 'l';
		const char *t = rest + (ld ? 5 : 6);
		v.kind = ld ? VK_LOAD : VK_STORE;
		if (!strncmp(t, "d16_hi_", 7)) {
			v.d16 = v.d16hi = 1;
			t += 7;
		} else if (!strncmp(t, "d16_", 4)) {
			v.d16 = 1;
			t += 4;
		}
		if (!strcmp(t, "u8") || !strcmp(t, "b8")) v.bytes = 1;
		else if (!strcmp(t, "i8")) v.bytes = 1, v.sign = 1;
		else if (!strcmp(t, "u16") || !strcmp(t, "b16")) v.bytes = 2;
		else if (!strcmp(t, "i16")) v.bytes = 2, v.sign = 1;
		else if (!strcmp(t, "b32")) v.bytes = 4;
		else if (!strcmp(t, "b64")) v.bytes = 8;
		else if (!strcmp(t, "b96")) v.bytes = 12;
		else if (!strcmp(t, "b128")) v.bytes = 16;
		else return;
		v.dwords = (uint8_t)(v.bytes < 4 ? 1 : v.bytes / 4);
		info[op] = v;
		return;
	}
	if (strncmp(rest, "atomic_", 7))
		return;
	const char *a = rest + 7;
	static const struct { const char *n; uint8_t at; } tab[] = {
		{ "swap_b32", AT_SWAP }, { "swap_b64", AT_SWAP }, { "cmpswap_b32", AT_CMPSWAP },
		{ "cmpswap_b64", AT_CMPSWAP }, { "add_u32", AT_ADD }, { "add_u64", AT_ADD }, { "sub_u32", AT_SUB },
		{ "sub_u64", AT_SUB }, { "min_i32", AT_MIN_I }, { "min_i64", AT_MIN_I }, { "min_u32", AT_MIN_U },
		{ "min_u64", AT_MIN_U }, { "max_i32", AT_MAX_I }, { "max_i64", AT_MAX_I }, { "max_u32", AT_MAX_U },
		{ "max_u64", AT_MAX_U }, { "and_b32", AT_AND }, { "and_b64", AT_AND }, { "or_b32", AT_OR },
		{ "or_b64", AT_OR }, { "xor_b32", AT_XOR }, { "xor_b64", AT_XOR }, { "inc_u32", AT_INC },
		{ "inc_u64", AT_INC }, { "dec_u32", AT_DEC }, { "dec_u64", AT_DEC }, { "add_f32", AT_ADD_F32 },
		{ "min_f32", AT_MIN_F32 }, { "max_f32", AT_MAX_F32 }, { "csub_u32", AT_CSUB },
		{ "add_f64", AT_ADD_F64 }, { "min_f64", AT_MIN_F64 }, { "max_f64", AT_MAX_F64 },
		{ "cmpswap_f32", AT_CMPSWAP_F32 }, { "cmpswap_f64", AT_CMPSWAP_F64 },
	};
	for (unsigned i = 0; i < sizeof tab / sizeof *tab; i++) {
		if (!strcmp(a, tab[i].n)) {
			v.kind = VK_ATOMIC;
			v.atomic = tab[i].at;
			v.wide = ends(a, "64");
			v.bytes = v.wide ? 8 : 4;
			v.dwords = v.wide ? 2 : 1;
			info[op] = v;
			return;
		}
	}
}

/* RDNA3's buffer_load_lds_{u8,i8,u16,i16,b32,format_x}: the load of the
 * same name without "lds_", into LDS. */
static void parse_lds(unsigned op, const char *rest)
{
	char name[32];
	snprintf(name, sizeof name, "load_%s", rest);
	if (!parse_format(op, name))
		parse(op, name);
	if (info[op].kind == VK_LOAD || info[op].kind == VK_FLOAD)
		info[op].lds = 1;
}

static void build(void)
{
	for (unsigned op = 1; op < RDC_OP_COUNT; op++) {
		const char *n = rdc_op_name[op];
		if (!strncmp(n, "global_", 7))
			parse(op, n + 7);
		else if (!strncmp(n, "flat_", 5))
			parse(op, n + 5);
		else if (!strncmp(n, "scratch_", 8))
			parse(op, n + 8);
		else if (!strncmp(n, "tbuffer_", 8))
			parse_format(op, n + 8);
		else if (!strncmp(n, "buffer_load_lds_", 16))
			parse_lds(op, n + 16);
		else if (!strncmp(n, "buffer_", 7)) {
			if (!strcmp(n, "buffer_gl0_inv") || !strcmp(n, "buffer_gl1_inv") || !strcmp(n, "buffer_wbinvl1"))
				info[op].kind = VK_NOP;
			else if (!parse_format(op, n + 7))
				parse(op, n + 7);
		}
	}
}

/* Where one lane's access goes: a CPU pointer, NULL after a fault, or
 * the "nowhere" marker for a MUBUF access the range check drops. */
static uint8_t nowhere[16];

struct vaddr {
	enum { A_GLOBAL, A_FLAT, A_PRIV, A_BUF } space;
	uint64_t a[RDC_LANES];
	/* A_BUF: the bytes from the access's offset to num_records (raw
	 * buffers), or all or none (structured: stride and idxen). */
	uint64_t room[RDC_LANES];
};

/* The buffer range check (the ISA guides' "Range Checking", the raw and
 * structured rows of OOB_SELECT, which the engine does not read): a raw
 * access is out of range when its offset (the instruction's, the VGPR's
 * and soffset) is at or past num_records on RDNA2, when its offset plus
 * its payload passes num_records on RDNA3; a structured one when its index
 * is at or past num_records.  True when bytes [at, at + n) of lane l's
 * access are in range.  Loads and stores of 2-4 dwords are checked dword
 * by dword, typed accesses and atomics all or nothing. */
static inline bool buf_ok(const struct rdc_wave *w, const struct vaddr *va, unsigned l, unsigned at, unsigned n)
{
	return w->gfx == 11 ? (uint64_t)at + n <= va->room[l] : at < va->room[l];
}

static void buf_addresses(struct rdc_wave *w, const struct rdc_inst *in, struct vaddr *va)
{
	const uint32_t *v0 = rdc_vreg(w, in->addr), *v1 = rdc_vreg(w, (uint16_t)(in->addr + 1));
	uint32_t d0 = w->s[in->srsrc], d1 = w->s[in->srsrc + 1], d2 = w->s[in->srsrc + 2], d3 = w->s[in->srsrc + 3];
	uint64_t base = ((uint64_t)(d1 & 0xffff) << 32) | d0;
	uint32_t stride = (d1 >> 16) & 0x3fff;
	uint32_t so = in->soffset == RDC_OPD_NULL ? 0 : rdc_sread(w, in, in->soffset);
	bool priv = (d3 & (1u << 23)) != 0;
	va->space = priv ? A_PRIV : A_BUF;
	for (unsigned l = 0; l < w->n; l++) {
		uint64_t o = (uint64_t)(uint32_t)in->imm + so, idx = 0;
		if (in->idxen && in->offen) {
			idx = v0[l];
			o += v1[l];
		} else if (in->idxen) {
			idx = v0[l];
		} else if (in->offen) {
			o += v0[l];
		}
		if (priv) {
			va->a[l] = (base + o) & 0xffffffffu;
		} else if (stride && in->idxen) {
			va->a[l] = base + idx * stride + o;
			va->room[l] = idx < d2 ? UINT64_MAX : 0;
		} else {
			va->a[l] = base + o;
			va->room[l] = o < d2 ? d2 - o : 0;
		}
	}
}

static void addresses(struct rdc_wave *w, const struct rdc_inst *in, struct vaddr *va)
{
	unsigned n = w->n;
	const uint32_t *v0 = rdc_vreg(w, in->addr), *v1 = rdc_vreg(w, (uint16_t)(in->addr + 1));
	int64_t off = in->imm;
	switch (in->fmt) {
	case RDC_FMT_GLOBAL:
		va->space = A_GLOBAL;
		if (info[in->op].addtid) { /* no VGPR: SGPR base + offset + lane id * 4 */
			uint64_t base = in->saddr != RDC_OPD_NULL ? rdc_sread64(w, in, in->saddr, false) : 0;
			for (unsigned l = 0; l < n; l++)
				va->a[l] = base + (uint64_t)off + 4u * l;
		} else if (in->saddr != RDC_OPD_NULL) {
			uint64_t base = rdc_sread64(w, in, in->saddr, false);
			for (unsigned l = 0; l < n; l++)
				va->a[l] = base + v0[l] + (uint64_t)off;
		} else {
			for (unsigned l = 0; l < n; l++)
				va->a[l] = ((uint64_t)v1[l] << 32 | v0[l]) + (uint64_t)off;
		}
		break;
	case RDC_FMT_FLAT:
		va->space = A_FLAT;
		for (unsigned l = 0; l < n; l++)
			va->a[l] = ((uint64_t)v1[l] << 32 | v0[l]) + (uint64_t)off;
		break;
	case RDC_FMT_SCRATCH: {
		/* SV: VGPR + offset, SS: SGPR + offset, ST: offset alone; gfx11's
		 * SVS: VGPR + SGPR + offset.  RDNA2 has no SVE bit: saddr NULL
		 * (0x7d) means SV, EXEC_HI (0x7f) neither register (LLVM's
		 * "off, off"). */
		va->space = A_PRIV;
		bool st10 = w->gfx != 11 && in->saddr == RDC_OPD_EXEC + 1;
		uint32_t s = in->saddr != RDC_OPD_NULL && !st10 ? rdc_sread(w, in, in->saddr) : 0;
		bool vv = w->gfx == 11 ? in->sve : in->saddr == RDC_OPD_NULL;
		for (unsigned l = 0; l < n; l++)
			va->a[l] = (uint32_t)(s + (vv ? v0[l] : 0) + (uint32_t)off);
		break;
	}
	default:
		buf_addresses(w, in, va);
		break;
	}
}

static uint8_t *lane_ptr(struct rdc_wave *w, const struct vaddr *va, unsigned l, unsigned bytes, bool write)
{
	switch (va->space) {
	case A_GLOBAL: return rdc_gptr(w, va->a[l], bytes, write);
	case A_FLAT: return rdc_flat_ptr(w, l, va->a[l], bytes, write);
	case A_PRIV: return rdc_priv_ptr(w, l, va->a[l], bytes);
	default:
		if (!buf_ok(w, va, l, 0, bytes))
			return nowhere;
		return rdc_gptr(w, va->a[l], bytes, write);
	}
}

/* A buffer load or store of 2-4 dwords with some dword out of range: the
 * dwords in range one by one, the others read as 0 and not written.  False
 * after a fault. */
static bool buf_partial(struct rdc_wave *w, const struct vaddr *va, unsigned l, unsigned dwords, uint32_t buf[4],
			bool write)
{
	for (unsigned i = 0; i < dwords; i++) {
		if (!buf_ok(w, va, l, 4 * i, 4)) {
			if (!write)
				buf[i] = 0;
			continue;
		}
		uint8_t *p = rdc_gptr(w, va->a[l] + 4 * i, 4, write);
		if (!p)
			return false;
		if (write)
			memcpy(p, &buf[i], 4);
		else
			memcpy(&buf[i], p, 4);
	}
	return true;
}

/* The common case of global memory: every active lane's access lies in the
 * buffer object the wave hit last (w->cache).  True with *base set when so;
 * a lane's bytes are then base + (va->a[l] - w->cache.base).  Otherwise
 * the lanes go one by one through lane_ptr (other objects, faults). */
static bool one_object(struct rdc_wave *w, const struct vaddr *va, uint64_t m, unsigned bytes,
		       uint8_t **base)
{
	if (va->space != A_GLOBAL || !m)
		return false;
	uint64_t lo = UINT64_MAX, hi = 0, first = va->a[__builtin_ctzll(m)];
	for (unsigned l = 0; l < w->n; l++) {
		uint64_t a = (m >> l) & 1 ? va->a[l] : first;
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	/* A copy alternates between two objects: look the lowest address up
	 * (rdc_gpeek refills the cache and records no fault). */
	const struct rdc_exec_range *c = &w->cache;
	if (!c->cpu || lo < c->base || lo - c->base > c->size)
		if (!rdc_gpeek(w, lo, bytes))
			return false;
	if (lo < c->base || hi - c->base > c->size || bytes > c->size - (hi - c->base))
		return false;
	*base = c->cpu;
	return true;
}

/* A lane's naturally aligned 64-bit access (the dwordx2 forms) is one
 * indivisible copy, as on the hardware: another workgroup, running on
 * another of the engine's threads, sees either all of it or none — the
 * flag and value that rocPRIM's decoupled look-back publishes in one
 * 64-bit word.  Unaligned ones are copied bytewise. */
static inline uint64_t get64(const uint8_t *p)
{
	uint64_t x;
	if (((uintptr_t)p & 7) == 0)
		return __atomic_load_n((const uint64_t *)(const void *)p, __ATOMIC_RELAXED);
	memcpy(&x, p, 8);
	return x;
}

static inline void put64(uint8_t *p, uint64_t x)
{
	if (((uintptr_t)p & 7) == 0)
		__atomic_store_n((uint64_t *)(void *)p, x, __ATOMIC_RELAXED);
	else
		memcpy(p, &x, 8);
}

/* The dwordx4 forms: an aligned 16-byte access is also one copy on the
 * hardware in practice, and rocPRIM's look-back relies on it for a flag
 * next to an 8-byte value (states wider than 64 bits); SSE2's aligned
 * 16-byte moves are indivisible on the x86-64 processors with AVX (Intel
 * SDM vol. 3A 9.1.1; AMD APM vol. 2 7.3.2). */
static inline void get128(const uint8_t *p, uint32_t out[4])
{
#if defined(__x86_64__)
	if (((uintptr_t)p & 15) == 0) {
		_mm_storeu_si128((__m128i *)(void *)out, _mm_load_si128((const __m128i *)(const void *)p));
		return;
	}
#endif
	memcpy(out, p, 16);
}

static inline void put128(uint8_t *p, const uint32_t in[4])
{
#if defined(__x86_64__)
	if (((uintptr_t)p & 15) == 0) {
		_mm_store_si128((__m128i *)(void *)p, _mm_loadu_si128((const __m128i *)(const void *)in));
		return;
	}
#endif
	memcpy(p, in, 16);
}

/* One lane's `bytes` at p, as the hardware copies them: a 64- or 128-bit
 * access in one piece (get64/get128), anything else bytewise. */
static inline void lane_get(const uint8_t *p, unsigned bytes, uint32_t buf[4])
{
	if (bytes == 8) {
		uint64_t x = get64(p);
		buf[0] = (uint32_t)x;
		buf[1] = (uint32_t)(x >> 32);
	} else if (bytes == 16) {
		get128(p, buf);
	} else {
		memcpy(buf, p, bytes);
	}
}

static inline void lane_put(uint8_t *p, unsigned bytes, const uint32_t buf[4])
{
	if (bytes == 8)
		put64(p, (uint64_t)buf[1] << 32 | buf[0]);
	else if (bytes == 16)
		put128(p, buf);
	else
		memcpy(p, buf, bytes);
}

/* Where a load into LDS puts lane l's dword: M0 + the instruction offset +
 * 4 * the lane's id (LLVM AMDGPUUsage on the LDS-DMA intrinsics: the
 * offset applies to both addresses, the LDS address steps 4 bytes a lane
 * for accesses of up to 4 bytes).  NULL after a fault. */
static uint8_t *lds_dst(struct rdc_wave *w, const struct rdc_inst *in, unsigned l)
{
	uint64_t a = (uint64_t)w->s[RDC_OPD_M0] + (uint32_t)in->imm + 4u * l;
	return rdc_lds_ptr(w, a, 4);
}

/* Loads into LDS (RDNA3's buffer_load_lds_*, RDNA2's lds bit): each active
 * lane's value, extended to a dword as a VGPR load would extend it (which
 * is why i8/u8 and i16/u16 forms both exist), is written to LDS; a lane
 * out of range writes 0; VDATA is not written. */
static void vload_lds(struct rdc_wave *w, const struct rdc_inst *in, const struct vaddr *va, uint64_t m)
{
	const struct vminfo *vi = &info[in->op];
	if (vi->bytes > 4) {
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "loads of more than a dword into LDS are not modelled");
		return;
	}
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint8_t *p = lane_ptr(w, va, l, vi->bytes, false), *q = p ? lds_dst(w, in, l) : NULL;
		if (!q)
			return;
		uint32_t x = 0;
		if (p != nowhere)
			memcpy(&x, p, vi->bytes);
		if (vi->bytes == 1)
			x = vi->sign ? (uint32_t)(int32_t)(int8_t)x : (x & 0xff);
		else if (vi->bytes == 2)
			x = vi->sign ? (uint32_t)(int32_t)(int16_t)x : (x & 0xffff);
		memcpy(q, &x, 4);
	}
}

static void vload(struct rdc_wave *w, const struct rdc_inst *in)
{
	const struct vminfo *vi = &info[in->op];
	struct vaddr va;
	addresses(w, in, &va);
	uint64_t m = rdc_exec_mask(w);
	uint16_t dst = in->fmt == RDC_FMT_MUBUF ? in->data0 : in->dst;
	if (in->lds || vi->lds) {
		vload_lds(w, in, &va, m);
		return;
	}
	uint8_t *cpu;
	if (vi->bytes == 4 * vi->dwords && one_object(w, &va, m, vi->bytes, &cpu)) {
		uint64_t b = w->cache.base;
		if (vi->bytes == 8 || vi->bytes == 16) {   /* one copy per lane */
			uint32_t *d[4];
			for (unsigned i = 0; i < vi->dwords; i++)
				d[i] = rdc_vreg(w, (uint16_t)(dst + i));
			for (unsigned l = 0; l < w->n; l++)
				if ((m >> l) & 1) {
					uint32_t x[4];
					lane_get(cpu + (va.a[l] - b), vi->bytes, x);
					for (unsigned i = 0; i < vi->dwords; i++)
						d[i][l] = x[i];
				}
			return;
		}
		for (unsigned i = 0; i < vi->dwords; i++) {
			uint32_t *d = rdc_vreg(w, (uint16_t)(dst + i));
			for (unsigned l = 0; l < w->n; l++)
				if ((m >> l) & 1)
					memcpy(&d[l], cpu + (va.a[l] - b) + 4 * i, 4);
		}
		return;
	}
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint32_t buf[4] = { 0, 0, 0, 0 };
		if (va.space == A_BUF && vi->dwords > 1 && !buf_ok(w, &va, l, 4 * vi->dwords - 4, 4)) {
			if (!buf_partial(w, &va, l, vi->dwords, buf, false))
				return;
		} else {
			uint8_t *p = lane_ptr(w, &va, l, vi->bytes, false);
			if (!p)
				return;
			if (p != nowhere)
				lane_get(p, vi->bytes, buf);
		}
		if (vi->bytes < 4) {
			uint32_t x = buf[0];
			if (vi->bytes == 1)
				x = vi->sign ? (uint32_t)(int32_t)(int8_t)x : (x & 0xff);
			else
				x = vi->sign ? (uint32_t)(int32_t)(int16_t)x : (x & 0xffff);
			uint32_t *d = &rdc_vreg(w, dst)[l];
			if (vi->d16hi)
				*d = (*d & 0xffffu) | (x << 16);
			else if (vi->d16)
				*d = (*d & 0xffff0000u) | (x & 0xffffu);
			else
				*d = x;
		} else {
			for (unsigned i = 0; i < vi->dwords; i++)
				rdc_vreg(w, (uint16_t)(dst + i))[l] = buf[i];
		}
	}
}

static void vstore(struct rdc_wave *w, const struct rdc_inst *in)
{
	const struct vminfo *vi = &info[in->op];
	struct vaddr va;
	addresses(w, in, &va);
	uint64_t m = rdc_exec_mask(w);
	uint8_t *cpu;
	if (vi->bytes == 4 * vi->dwords && !vi->d16hi && one_object(w, &va, m, vi->bytes, &cpu)) {
		uint64_t b = w->cache.base;
		if (vi->bytes == 8 || vi->bytes == 16) {   /* one copy per lane */
			const uint32_t *sv[4];
			for (unsigned i = 0; i < vi->dwords; i++)
				sv[i] = rdc_vreg(w, (uint16_t)(in->data0 + i));
			for (unsigned l = 0; l < w->n; l++)
				if ((m >> l) & 1) {
					uint32_t x[4];
					for (unsigned i = 0; i < vi->dwords; i++)
						x[i] = sv[i][l];
					lane_put(cpu + (va.a[l] - b), vi->bytes, x);
				}
			return;
		}
		for (unsigned i = 0; i < vi->dwords; i++) {
			const uint32_t *s = rdc_vreg(w, (uint16_t)(in->data0 + i));
			for (unsigned l = 0; l < w->n; l++)
				if ((m >> l) & 1)
					memcpy(cpu + (va.a[l] - b) + 4 * i, &s[l], 4);
		}
		return;
	}
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint32_t buf[4];
		for (unsigned i = 0; i < vi->dwords; i++)
			buf[i] = rdc_vreg(w, (uint16_t)(in->data0 + i))[l];
		if (vi->d16hi)
			buf[0] >>= 16;
		if (va.space == A_BUF && vi->dwords > 1 && !buf_ok(w, &va, l, 4 * vi->dwords - 4, 4)) {
			if (!buf_partial(w, &va, l, vi->dwords, buf, true))
				return;
			continue;
		}
		uint8_t *p = lane_ptr(w, &va, l, vi->bytes, true);
		if (!p)
			return;
		if (p != nowhere)
			lane_put(p, vi->bytes, buf);
	}
}

static uint64_t atomic_new(unsigned at, uint64_t old, uint64_t src, bool wide)
{
	uint64_t mask = wide ? ~0ull : 0xffffffffull;
	int64_t so = wide ? (int64_t)old : (int32_t)old, ss = wide ? (int64_t)src : (int32_t)src;
	switch (at) {
	case AT_SWAP: return src;
	case AT_ADD: return (old + src) & mask;
	case AT_SUB: return (old - src) & mask;
	case AT_CSUB: return old > src ? old - src : 0;
	case AT_MIN_I: return (uint64_t)(so < ss ? so : ss) & mask;
	case AT_MAX_I: return (uint64_t)(so > ss ? so : ss) & mask;
	case AT_MIN_U: return old < src ? old : src;
	case AT_MAX_U: return old > src ? old : src;
	case AT_AND: return old & src;
	case AT_OR: return old | src;
	case AT_XOR: return old ^ src;
	case AT_INC: return old >= src ? 0 : old + 1;
	case AT_DEC: return (old == 0 || old > src) ? src : old - 1;
	case AT_ADD_F32: return rdc_f2u(rdc_u2f((uint32_t)old) + rdc_u2f((uint32_t)src));
	/* The float min/max are a float compare that picks one operand (the
	 * guides: MIN "src < tmp ? src : tmp", MAX "src > tmp ? src : tmp"):
	 * a NaN compares false either way, so a NaN in memory stays and a NaN
	 * datum changes nothing; -0 against +0 keeps the memory's zero. */
	case AT_MIN_F32: return rdc_u2f((uint32_t)src) < rdc_u2f((uint32_t)old) ? src : old;
	case AT_MAX_F32: return rdc_u2f((uint32_t)src) > rdc_u2f((uint32_t)old) ? src : old;
	case AT_ADD_F64: return rdc_d2u(rdc_u2d(old) + rdc_u2d(src));
	case AT_MIN_F64: return rdc_u2d(src) < rdc_u2d(old) ? src : old;
	case AT_MAX_F64: return rdc_u2d(src) > rdc_u2d(old) ? src : old;
	default: return old;
	}
}

/* cmpswap's test, tmp == cmp: bitwise for the integer forms, a float
 * compare for the _f32/_f64 ones (+0 equals -0, a NaN equals nothing). */
static inline bool cmp_equal(unsigned at, uint64_t tmp, uint64_t cmp)
{
	if (at == AT_CMPSWAP_F32)
		return rdc_u2f((uint32_t)tmp) == rdc_u2f((uint32_t)cmp);
	if (at == AT_CMPSWAP_F64)
		return rdc_u2d(tmp) == rdc_u2d(cmp);
	return tmp == cmp;
}

static void vatomic(struct rdc_wave *w, const struct rdc_inst *in)
{
	const struct vminfo *vi = &info[in->op];
	struct vaddr va;
	addresses(w, in, &va);
	uint64_t m = rdc_exec_mask(w);
	bool cmp = vi->atomic == AT_CMPSWAP || vi->atomic == AT_CMPSWAP_F32 || vi->atomic == AT_CMPSWAP_F64;
	uint16_t ret = in->fmt == RDC_FMT_MUBUF ? in->data0 : in->dst;
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		unsigned dw = vi->dwords;
		uint64_t src = rdc_vreg(w, in->data0)[l], cmpv = 0;
		if (vi->wide)
			src |= (uint64_t)rdc_vreg(w, (uint16_t)(in->data0 + 1))[l] << 32;
		if (cmp) {
			cmpv = rdc_vreg(w, (uint16_t)(in->data0 + dw))[l];
			if (vi->wide)
				cmpv |= (uint64_t)rdc_vreg(w, (uint16_t)(in->data0 + dw + 1))[l] << 32;
		}
		uint8_t *p = lane_ptr(w, &va, l, vi->bytes, true);
		if (!p)
			return;
		uint64_t old = 0;
		if (p != nowhere) {
			if (vi->wide) {
				uint64_t *q = (uint64_t *)(void *)p, o = __atomic_load_n(q, __ATOMIC_RELAXED), nw;
				do {
					nw = cmp ? (cmp_equal(vi->atomic, o, cmpv) ? src : o)
						 : atomic_new(vi->atomic, o, src, true);
				} while (!__atomic_compare_exchange_n(q, &o, nw, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
				old = o;
			} else {
				uint32_t *q = (uint32_t *)(void *)p, o = __atomic_load_n(q, __ATOMIC_RELAXED), nw;
				do {
					nw = cmp ? (cmp_equal(vi->atomic, o, (uint32_t)cmpv) ? (uint32_t)src : o)
						 : (uint32_t)atomic_new(vi->atomic, o, src & 0xffffffffu, false);
				} while (!__atomic_compare_exchange_n(q, &o, nw, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
				old = o;
			}
		}
		if (in->glc) {
			rdc_vreg(w, ret)[l] = (uint32_t)old;
			if (vi->wide)
				rdc_vreg(w, (uint16_t)(ret + 1))[l] = (uint32_t)(old >> 32);
		}
	}
}

/* Typed accesses: the data format is the instruction's (MTBUF) or the
 * resource's (MUBUF *_format_*: V# dword 3, FORMAT in bits 12-18 on
 * RDNA2, 12-17 on RDNA3); loads also apply the resource's DST_SEL_X..W
 * (bits 0-11, three bits each: 0 -> 0, 1 -> 1, 4-7 -> x, y, z, w).  An
 * element whose offset (or, through a stride, index) is past num_records
 * reads as all zeros and is not written.  d16 forms: two components per
 * VGPR, x in the low half; d16_x keeps the high half, d16_hi_x writes it. */
static const struct rdc_buffmt *fmt_of(struct rdc_wave *w, const struct rdc_inst *in)
{
	uint32_t d3 = w->s[in->srsrc + 3];
	unsigned v = in->fmt == RDC_FMT_MUBUF ? (w->gfx == 11 ? (d3 >> 12) & 0x3f : (d3 >> 12) & 0x7f) : in->bfmt;
	const struct rdc_buffmt *f = rdc_buffmt(w->gfx, v);
	if (!f)
		rdc_fail(w, RDC_EXEC_UNSUPPORTED, in, "buffer data format %u is invalid or not modelled", v);
	return f;
}

static void vfload(struct rdc_wave *w, const struct rdc_inst *in)
{
	const struct vminfo *vi = &info[in->op];
	const struct rdc_buffmt *f = fmt_of(w, in);
	if (!f)
		return;
	struct vaddr va;
	addresses(w, in, &va);
	uint64_t m = rdc_exec_mask(w);
	uint32_t d3 = w->s[in->srsrc + 3];
	bool isf = rdc_buffmt_isfloat(f);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		uint8_t *p = lane_ptr(w, &va, l, f->bytes, false);
		if (!p)
			return;
		struct rdc_bfval c[4], r[4];
		uint8_t zero[16] = { 0 };
		rdc_buffmt_unpack(f, p == nowhere ? zero : p, c);
		for (unsigned k = 0; k < 4; k++) {
			unsigned sel = (d3 >> (3 * k)) & 7;
			if (p == nowhere && sel != 1) /* out of range: 0, but SEL_1 still gives 1 */
				r[k] = (struct rdc_bfval){ isf, false, 0.0, 0 };
			else if (sel >= 4)
				r[k] = c[sel - 4];
			else
				r[k] = (struct rdc_bfval){ isf, false, sel == 1 ? 1.0 : 0.0, sel == 1 };
		}
		for (unsigned k = 0; k < vi->ncomp; k++) {
			if (!vi->d16) {
				uint32_t x = !r[k].isf ? r[k].u : r[k].raw ? r[k].u : rdc_f2u((float)r[k].f);
				if (in->lds || vi->lds) { /* format_x into LDS (see vload_lds) */
					uint8_t *q = lds_dst(w, in, l);
					if (!q)
						return;
					memcpy(q, &x, 4);
				} else {
					rdc_vreg(w, (uint16_t)(in->data0 + k))[l] = x;
				}
				continue;
			}
			uint16_t h = r[k].isf ? rdc_buffmt_d2h(r[k].f) : (uint16_t)r[k].u;
			uint32_t *d = &rdc_vreg(w, (uint16_t)(in->data0 + k / 2))[l];
			bool hi = vi->d16hi || (k & 1);
			*d = hi ? (*d & 0xffffu) | (uint32_t)h << 16 : (*d & 0xffff0000u) | h;
		}
	}
}

static void vfstore(struct rdc_wave *w, const struct rdc_inst *in)
{
	const struct vminfo *vi = &info[in->op];
	const struct rdc_buffmt *f = fmt_of(w, in);
	if (!f)
		return;
	struct vaddr va;
	addresses(w, in, &va);
	uint64_t m = rdc_exec_mask(w);
	bool isf = rdc_buffmt_isfloat(f);
	for (unsigned l = 0; l < w->n; l++) {
		if (!((m >> l) & 1))
			continue;
		struct rdc_bfval c[4];
		memset(c, 0, sizeof c);
		for (unsigned k = 0; k < vi->ncomp; k++) {
			c[k].isf = isf;
			if (!vi->d16) {
				uint32_t x = rdc_vreg(w, (uint16_t)(in->data0 + k))[l];
				c[k].u = x;
				c[k].f = rdc_u2f(x);
				c[k].raw = true;
				continue;
			}
			uint32_t x = rdc_vreg(w, (uint16_t)(in->data0 + k / 2))[l];
			uint16_t h = (uint16_t)(vi->d16hi || (k & 1) ? x >> 16 : x);
			c[k].f = rdc_buffmt_h2d(h);
			c[k].u = f->type == RDC_BF_SINT ? (uint32_t)(int32_t)(int16_t)h : h;
			c[k].raw = false;
		}
		/* A typed store writes the whole element: components the
		 * instruction does not supply are stored as 0 (what hardware
		 * stores there is not established here). */
		uint8_t el[16];
		rdc_buffmt_pack(f, c, el);
		uint8_t *p = lane_ptr(w, &va, l, f->bytes, true);
		if (!p)
			return;
		if (p != nowhere)
			memcpy(p, el, f->bytes);
	}
}

static void vnop(struct rdc_wave *w, const struct rdc_inst *in)
{
	(void)w;
	(void)in;
}

rdc_sem_fn rdc_sem_vmem(uint16_t op)
{
	pthread_once(&once, build);
	if (op >= RDC_OP_COUNT)
		return NULL;
	switch (info[op].kind) {
	case VK_LOAD: return vload;
	case VK_STORE: return vstore;
	case VK_ATOMIC: return vatomic;
	case VK_NOP: return vnop;
	case VK_FLOAD: return vfload;
	case VK_FSTORE: return vfstore;
	default: return NULL;
	}
}
