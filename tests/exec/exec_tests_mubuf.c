/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_mubuf.c — single-instruction tests of MUBUF buffer loads, stores and atomics, and the scratch_* instructions.
 * References follow the ISA guides' pseudocode, written here in plain C.
 *
 * Buffer addressing (RDNA2/RDNA3 ISA guides, "Buffer Instructions"): a V#
 * in four SGPRs (base in dword 0 and the low 16 bits of dword 1, STRIDE in
 * dword 1 bits 16-29, NUM_RECORDS in dword 2); the address is base +
 * soffset + the instruction offset + the VGPR offset (offen) + index *
 * stride (idxen; both: index in VADDR, offset in VADDR+1).  Range checking
 * ("Range Checking", the raw and structured rows of OOB_SELECT): a raw
 * access is out of range when its offset is at or past num_records on
 * RDNA2, when offset + payload passes num_records on RDNA3; a structured
 * one when its index is at or past num_records.  Loads of 2-4 dwords and
 * their stores are checked per dword, atomics all or nothing; out-of-range
 * reads give 0, writes are dropped.  The tests keep soffset inside the
 * range (where it counts toward the check is not settled).
 *
 * Each body is written once with S(gfx10 name, gfx11 name) for the
 * mnemonics that differ between the generations.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec_harness.h"

#define S10(a, b) a
#define S11(a, b) b

/* s[8:11]: a raw V# over the input buffer, num_records = 0xffffffff;
 * dword 3 as the compilers write it (OOB_SELECT 3, the raw check). */
#define W3(S) S("0x31014000", "0x31004000")
#define VRAW(S, R0, R1, R2, R3, NR) \
	"s_mov_b32 " R0 ", s4\ns_and_b32 " R1 ", s5, 0xffff\ns_mov_b32 " R2 ", " NR "\ns_mov_b32 " R3 ", " W3(S) "\n"
/* A structured V#: stride in dword 1 bits 16-29, num_records in records. */
#define VIDX(S, R0, R1, R2, R3, STRIDE, NR) \
	"s_mov_b32 " R0 ", s4\ns_and_b32 " R1 ", s5, 0xffff\ns_or_b32 " R1 ", " R1 ", " STRIDE " << 16\n" \
	"s_mov_b32 " R2 ", " NR "\ns_mov_b32 " R3 ", " W3(S) "\n"

static uint32_t rd32(const uint8_t *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t sx8(uint32_t x) { return (uint32_t)(int32_t)(int8_t)x; }
static uint32_t sx16(uint32_t x) { return (uint32_t)(int32_t)(int16_t)x; }
static const uint8_t *lane_in(const struct xt_ctx *c, unsigned lane)
{
	return (const uint8_t *)(c->in + lane * c->nin);
}

/* The raw range check of one access (or one dword of a multi-dword one). */
static int in_range(unsigned gfx, uint64_t off, unsigned payload, uint64_t nr)
{
	return gfx == 11 ? off + payload <= nr : off < nr;
}

/* ---- loads of every width, offen, soffset, no VGPR, exec mask ------------------------ */
#define LOADS(S) VRAW(S, "s8", "s9", "s10", "s11", "-1") \
	"s_mov_b32 s3, 8\n" \
	S("buffer_load_ubyte", "buffer_load_u8") " v40, v33, s[8:11], 0 offen offset:1\n" \
	S("buffer_load_sbyte", "buffer_load_i8") " v41, v33, s[8:11], 0 offen offset:3\n" \
	S("buffer_load_ushort", "buffer_load_u16") " v42, v33, s[8:11], 0 offen offset:2\n" \
	S("buffer_load_sshort", "buffer_load_i16") " v43, v33, s[8:11], 0 offen offset:6\n" \
	S("buffer_load_dword", "buffer_load_b32") " v44, v33, s[8:11], 0 offen offset:4\n" \
	S("buffer_load_dwordx2", "buffer_load_b64") " v[45:46], v33, s[8:11], 0 offen offset:8\n" \
	S("buffer_load_dwordx3", "buffer_load_b96") " v[47:49], v33, s[8:11], 0 offen offset:4\n" \
	S("buffer_load_dwordx4", "buffer_load_b128") " v[50:53], v33, s[8:11], 0 offen offset:16\n" \
	S("buffer_load_ubyte_d16", "buffer_load_d16_u8") " v54, v33, s[8:11], 0 offen offset:5\n" \
	S("buffer_load_sbyte_d16", "buffer_load_d16_i8") " v55, v33, s[8:11], 0 offen offset:7\n" \
	S("buffer_load_short_d16", "buffer_load_d16_b16") " v56, v33, s[8:11], 0 offen offset:10\n" \
	S("buffer_load_ubyte_d16_hi", "buffer_load_d16_hi_u8") " v57, v33, s[8:11], 0 offen offset:11\n" \
	S("buffer_load_sbyte_d16_hi", "buffer_load_d16_hi_i8") " v58, v33, s[8:11], 0 offen offset:13\n" \
	S("buffer_load_short_d16_hi", "buffer_load_d16_hi_b16") " v59, v33, s[8:11], 0 offen offset:14\n" \
	S("buffer_load_dword", "buffer_load_b32") " v60, v33, s[8:11], s3 offen offset:4\n" \
	S("buffer_load_dword", "buffer_load_b32") " v61, off, s[8:11], s3 offset:4\n" \
	"s_mov_b32 exec_lo, 0x5a3cc3a5\n" \
	S("buffer_load_dwordx2", "buffer_load_b64") " v[62:63], v33, s[8:11], 0 offen offset:24\n" \
	"s_mov_b32 exec_lo, -1\n" \
	S("buffer_load_dword", "buffer_load_b32") " v64, v33, s[8:11], 4 offen offset:8\n" /* soffset: inline 4 */ \
	"s_waitcnt vmcnt(0)"
static const char loads10[] = LOADS(S10), loads11[] = LOADS(S11);

static void ref_loads(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint8_t *p = lane_in(c, lane);
	out[0] = p[1];
	out[1] = sx8(p[3]);
	out[2] = rd16(p + 2);
	out[3] = sx16(rd16(p + 6));
	out[4] = rd32(p + 4);
	out[5] = rd32(p + 8);
	out[6] = rd32(p + 12);
	for (unsigned i = 0; i < 3; i++)
		out[7 + i] = rd32(p + 4 + 4 * i);
	for (unsigned i = 0; i < 4; i++)
		out[10 + i] = rd32(p + 16 + 4 * i);
	out[14] = xt_setlo(out[14], p[5]);              /* d16: the high half kept */
	out[15] = xt_setlo(out[15], (uint16_t)sx8(p[7]));
	out[16] = xt_setlo(out[16], (uint16_t)rd16(p + 10));
	out[17] = xt_sethi(out[17], p[11]);             /* d16_hi: the low half kept */
	out[18] = xt_sethi(out[18], (uint16_t)sx8(p[13]));
	out[19] = xt_sethi(out[19], (uint16_t)rd16(p + 14));
	out[20] = rd32(p + 8 + 4);                      /* soffset 8 + offset 4 */
	out[21] = rd32(lane_in(c, 0) + 12);             /* no VGPR: lane 0's bytes for every lane */
	if ((0x5a3cc3a5u >> lane) & 1) {
		out[22] = rd32(p + 24);
		out[23] = rd32(p + 28);
	}
	out[24] = rd32(p + 12);
}

/* ---- structured (idxen) and range-checked loads -------------------------------------- */
#define RANGE(S) VRAW(S, "s8", "s9", "s10", "s11", "-1") \
	VIDX(S, "s12", "s13", "s14", "s15", "16", "64") \
	VIDX(S, "s16", "s17", "s18", "s19", "16", "21") \
	VRAW(S, "s20", "s21", "s22", "s23", "200") \
	VRAW(S, "s24", "s25", "s26", "s27", "199") \
	"v_lshlrev_b32 v35, 1, v0\nv_mov_b32 v36, 8\nv_add_nc_u32 v37, v35, 1\n" \
	S("buffer_load_dword", "buffer_load_b32") " v40, v35, s[12:15], 0 idxen offset:4\n" \
	S("buffer_load_dwordx2", "buffer_load_b64") " v[41:42], v[35:36], s[12:15], 0 idxen offen offset:4\n" \
	S("buffer_load_dword", "buffer_load_b32") " v43, v37, s[12:15], 0 idxen\n" \
	S("buffer_load_dwordx4", "buffer_load_b128") " v[44:47], v35, s[16:19], 0 idxen\n" \
	S("buffer_load_ubyte", "buffer_load_u8") " v48, v37, s[16:19], 0 idxen offset:3\n" \
	S("buffer_load_dwordx4", "buffer_load_b128") " v[49:52], v33, s[20:23], 0 offen\n" \
	S("buffer_load_dword", "buffer_load_b32") " v53, v33, s[24:27], 0 offen offset:4\n" \
	S("buffer_load_ushort", "buffer_load_u16") " v54, v33, s[24:27], 0 offen offset:6\n" \
	S("buffer_load_ubyte", "buffer_load_u8") " v55, v33, s[24:27], 0 offen offset:6\n" \
	S("buffer_load_dwordx2", "buffer_load_b64") " v[56:57], v33, s[24:27], 0 offen offset:4\n" \
	S("buffer_load_dwordx3", "buffer_load_b96") " v[58:60], v33, s[20:23], 0 offen offset:4\n" \
	S("buffer_load_short_d16_hi", "buffer_load_d16_hi_b16") " v61, v33, s[24:27], 0 offen offset:6\n" \
	"v_mov_b32 v38, -4\n" \
	S("buffer_load_dword", "buffer_load_b32") " v62, v38, s[8:11], 0 offen offset:8\n" \
	"s_waitcnt vmcnt(0)"
static const char range10[] = RANGE(S10), range11[] = RANGE(S11);

static void ref_range(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint8_t *p = lane_in(c, lane), *base = lane_in(c, 0);
	unsigned g = c->gfx, idx = 2 * lane;
	uint64_t o = 32u * lane; /* the lane's byte offset (v33) */
	out[0] = rd32(base + idx * 16 + 4);                /* index 2*lane, stride 16 */
	out[1] = rd32(base + idx * 16 + 8 + 4);
	out[2] = rd32(base + idx * 16 + 12 + 4);
	out[3] = rd32(base + (idx + 1) * 16);
	for (unsigned i = 0; i < 4; i++)                    /* 21 records: index 21 and up read 0 */
		out[4 + i] = idx < 21 ? rd32(p + 4 * i) : 0;
	out[8] = idx + 1 < 21 ? p[16 + 3] : 0;
	for (unsigned i = 0; i < 4; i++)                    /* num_records 200: dword by dword */
		out[9 + i] = in_range(g, o + 4 * i, 4, 200) ? rd32(p + 4 * i) : 0;
	out[13] = in_range(g, o + 4, 4, 199) ? rd32(p + 4) : 0;
	out[14] = in_range(g, o + 6, 2, 199) ? rd16(p + 6) : 0;
	out[15] = in_range(g, o + 6, 1, 199) ? p[6] : 0;
	for (unsigned i = 0; i < 2; i++)
		out[16 + i] = in_range(g, o + 4 + 4 * i, 4, 199) ? rd32(p + 4 + 4 * i) : 0;
	for (unsigned i = 0; i < 3; i++)
		out[18 + i] = in_range(g, o + 4 + 4 * i, 4, 200) ? rd32(p + 4 + 4 * i) : 0;
	out[21] = xt_sethi(out[21], in_range(g, o + 6, 2, 199) ? (uint16_t)rd16(p + 6) : 0);
	/* VGPR offset 0xfffffffc + 8 does not wrap to 4: past any num_records (LLVM AMDGPUUsage,
	 * "Relaxed Buffer OOB Mode": the check is unsigned and saturating) */
	out[22] = 0;
}

/* ---- stores: sources v1-v8 (in[0..7]), targets in[8..23] (bytes 32-95) --------------- */
#define STORES(S) VRAW(S, "s8", "s9", "s10", "s11", "-1") \
	VRAW(S, "s12", "s13", "s14", "s15", "568") \
	VRAW(S, "s16", "s17", "s18", "s19", "575") \
	VIDX(S, "s20", "s21", "s22", "s23", "96", "7") \
	S("buffer_store_byte", "buffer_store_b8") " v1, v33, s[8:11], 0 offen offset:33\n" \
	S("buffer_store_byte_d16_hi", "buffer_store_d16_hi_b8") " v2, v33, s[8:11], 0 offen offset:34\n" \
	S("buffer_store_short", "buffer_store_b16") " v3, v33, s[8:11], 0 offen offset:38\n" \
	S("buffer_store_short_d16_hi", "buffer_store_d16_hi_b16") " v4, v33, s[8:11], 0 offen offset:40\n" \
	"s_mov_b32 exec_lo, 0x3cc3a55a\n" \
	S("buffer_store_dword", "buffer_store_b32") " v5, v33, s[8:11], 0 offen offset:44\n" \
	"s_mov_b32 exec_lo, -1\n" \
	S("buffer_store_dwordx2", "buffer_store_b64") " v[6:7], v33, s[8:11], 0 offen offset:48\n" \
	S("buffer_store_dwordx3", "buffer_store_b96") " v[1:3], v33, s[8:11], 0 offen offset:56\n" \
	S("buffer_store_dwordx4", "buffer_store_b128") " v[4:7], v33, s[8:11], 0 offen offset:68\n" \
	S("buffer_store_dwordx2", "buffer_store_b64") " v[7:8], v33, s[12:15], 0 offen offset:84\n" \
	S("buffer_store_byte", "buffer_store_b8") " v1, v0, s[20:23], 0 idxen offset:92\n" \
	S("buffer_store_short", "buffer_store_b16") " v8, v33, s[16:19], 0 offen offset:94\n" \
	"s_waitcnt vmcnt(0)\n" \
	"global_load_dword v40, v33, s[4:5] offset:32\nglobal_load_dword v41, v33, s[4:5] offset:36\n" \
	"global_load_dword v42, v33, s[4:5] offset:40\nglobal_load_dword v43, v33, s[4:5] offset:44\n" \
	"global_load_dword v44, v33, s[4:5] offset:48\nglobal_load_dword v45, v33, s[4:5] offset:52\n" \
	"global_load_dword v46, v33, s[4:5] offset:56\nglobal_load_dword v47, v33, s[4:5] offset:60\n" \
	"global_load_dword v48, v33, s[4:5] offset:64\nglobal_load_dword v49, v33, s[4:5] offset:68\n" \
	"global_load_dword v50, v33, s[4:5] offset:72\nglobal_load_dword v51, v33, s[4:5] offset:76\n" \
	"global_load_dword v52, v33, s[4:5] offset:80\nglobal_load_dword v53, v33, s[4:5] offset:84\n" \
	"global_load_dword v54, v33, s[4:5] offset:88\nglobal_load_dword v55, v33, s[4:5] offset:92\n" \
	"s_waitcnt vmcnt(0)"
static const char stores10[] = STORES(S10), stores11[] = STORES(S11);

static void ref_stores(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint32_t orig[24], dummy[XT_MAXOUT];
	xt_init_u(lane, orig, dummy, 24, 0); /* the targets as they were */
	uint8_t t[96];
	memcpy(t, orig, 96);
	uint64_t o = 96u * lane;
	unsigned g = c->gfx;
	t[33] = (uint8_t)in[0];
	t[34] = (uint8_t)(in[1] >> 16);
	memcpy(t + 38, &in[2], 2);
	uint16_t hi = xt_hi(in[3]);
	memcpy(t + 40, &hi, 2);
	if ((0x3cc3a55au >> lane) & 1)
		memcpy(t + 44, &in[4], 4);
	memcpy(t + 48, &in[5], 8);
	memcpy(t + 56, &in[0], 12);
	memcpy(t + 68, &in[3], 16);
	for (unsigned i = 0; i < 2; i++) /* num_records 568: dword by dword */
		if (in_range(g, o + 84 + 4 * i, 4, 568))
			memcpy(t + 84 + 4 * i, &in[6 + i], 4);
	if (lane < 7)                    /* index = lane, 7 records */
		t[92] = (uint8_t)in[0];
	if (in_range(g, o + 94, 2, 575))
		memcpy(t + 94, &in[7], 2);
	memcpy(out, t + 32, 64);
}

static void init_stores(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
}

/* ---- integer atomics: memory targets first, then the data (cmpswap: src, cmp) ----------- */
#define ATOM32(S, GLC) VRAW(S, "s8", "s9", "s10", "s11", "-1") \
	"v_mov_b32 v40, v15\n" \
	"v_mov_b32 v41, v16\n" \
	"v_mov_b32 v42, v17\n" \
	"v_mov_b32 v43, v18\n" \
	"v_mov_b32 v44, v19\n" \
	"v_mov_b32 v45, v20\n" \
	"v_mov_b32 v46, v21\n" \
	"v_mov_b32 v47, v22\n" \
	"v_mov_b32 v48, v23\n" \
	"v_mov_b32 v49, v24\n" \
	"v_mov_b32 v50, v25\n" \
	"v_mov_b32 v51, v26\n" \
	"v_mov_b32 v52, v27\n" \
	"v_mov_b32 v53, v28\n" \
	"v_mov_b32 v54, v29\n" \
	S("buffer_atomic_swap", "buffer_atomic_swap_b32") " v40, v33, s[8:11], 0 offen offset:0" GLC "\n" \
	S("buffer_atomic_add", "buffer_atomic_add_u32") " v41, v33, s[8:11], 0 offen offset:4" GLC "\n" \
	S("buffer_atomic_sub", "buffer_atomic_sub_u32") " v42, v33, s[8:11], 0 offen offset:8" GLC "\n" \
	S("buffer_atomic_csub", "buffer_atomic_csub_u32") " v43, v33, s[8:11], 0 offen offset:12" GLC "\n" \
	S("buffer_atomic_smin", "buffer_atomic_min_i32") " v44, v33, s[8:11], 0 offen offset:16" GLC "\n" \
	S("buffer_atomic_umin", "buffer_atomic_min_u32") " v45, v33, s[8:11], 0 offen offset:20" GLC "\n" \
	S("buffer_atomic_smax", "buffer_atomic_max_i32") " v46, v33, s[8:11], 0 offen offset:24" GLC "\n" \
	S("buffer_atomic_umax", "buffer_atomic_max_u32") " v47, v33, s[8:11], 0 offen offset:28" GLC "\n" \
	S("buffer_atomic_and", "buffer_atomic_and_b32") " v48, v33, s[8:11], 0 offen offset:32" GLC "\n" \
	S("buffer_atomic_or", "buffer_atomic_or_b32") " v49, v33, s[8:11], 0 offen offset:36" GLC "\n" \
	S("buffer_atomic_xor", "buffer_atomic_xor_b32") " v50, v33, s[8:11], 0 offen offset:40" GLC "\n" \
	S("buffer_atomic_inc", "buffer_atomic_inc_u32") " v51, v33, s[8:11], 0 offen offset:44" GLC "\n" \
	S("buffer_atomic_dec", "buffer_atomic_dec_u32") " v52, v33, s[8:11], 0 offen offset:48" GLC "\n" \
	S("buffer_atomic_cmpswap", "buffer_atomic_cmpswap_b32") " v[53:54], v33, s[8:11], 0 offen offset:52" GLC "\n" \
	"s_waitcnt vmcnt(0)\n" \
	"global_load_dword v55, v33, s[4:5] offset:0\n" \
	"global_load_dword v56, v33, s[4:5] offset:4\n" \
	"global_load_dword v57, v33, s[4:5] offset:8\n" \
	"global_load_dword v58, v33, s[4:5] offset:12\n" \
	"global_load_dword v59, v33, s[4:5] offset:16\n" \
	"global_load_dword v60, v33, s[4:5] offset:20\n" \
	"global_load_dword v61, v33, s[4:5] offset:24\n" \
	"global_load_dword v62, v33, s[4:5] offset:28\n" \
	"global_load_dword v63, v33, s[4:5] offset:32\n" \
	"global_load_dword v64, v33, s[4:5] offset:36\n" \
	"global_load_dword v65, v33, s[4:5] offset:40\n" \
	"global_load_dword v66, v33, s[4:5] offset:44\n" \
	"global_load_dword v67, v33, s[4:5] offset:48\n" \
	"global_load_dword v68, v33, s[4:5] offset:52\n" \
	"s_waitcnt vmcnt(0)"
#define ATOM64A(S, GLC) VRAW(S, "s8", "s9", "s10", "s11", "-1") \
	"v_mov_b32 v40, v13\n" \
	"v_mov_b32 v41, v14\n" \
	"v_mov_b32 v42, v15\n" \
	"v_mov_b32 v43, v16\n" \
	"v_mov_b32 v44, v17\n" \
	"v_mov_b32 v45, v18\n" \
	"v_mov_b32 v46, v19\n" \
	"v_mov_b32 v47, v20\n" \
	"v_mov_b32 v48, v21\n" \
	"v_mov_b32 v49, v22\n" \
	"v_mov_b32 v50, v23\n" \
	"v_mov_b32 v51, v24\n" \
	"v_mov_b32 v52, v25\n" \
	"v_mov_b32 v53, v26\n" \
	S("buffer_atomic_swap_x2", "buffer_atomic_swap_b64") " v[40:41], v33, s[8:11], 0 offen offset:0" GLC "\n" \
	S("buffer_atomic_add_x2", "buffer_atomic_add_u64") " v[42:43], v33, s[8:11], 0 offen offset:8" GLC "\n" \
	S("buffer_atomic_sub_x2", "buffer_atomic_sub_u64") " v[44:45], v33, s[8:11], 0 offen offset:16" GLC "\n" \
	S("buffer_atomic_smin_x2", "buffer_atomic_min_i64") " v[46:47], v33, s[8:11], 0 offen offset:24" GLC "\n" \
	S("buffer_atomic_umin_x2", "buffer_atomic_min_u64") " v[48:49], v33, s[8:11], 0 offen offset:32" GLC "\n" \
	S("buffer_atomic_cmpswap_x2", "buffer_atomic_cmpswap_b64") \
		" v[50:53], v33, s[8:11], 0 offen offset:40" GLC "\n" \
	"s_waitcnt vmcnt(0)\n" \
	"global_load_dword v54, v33, s[4:5] offset:0\n" \
	"global_load_dword v55, v33, s[4:5] offset:4\n" \
	"global_load_dword v56, v33, s[4:5] offset:8\n" \
	"global_load_dword v57, v33, s[4:5] offset:12\n" \
	"global_load_dword v58, v33, s[4:5] offset:16\n" \
	"global_load_dword v59, v33, s[4:5] offset:20\n" \
	"global_load_dword v60, v33, s[4:5] offset:24\n" \
	"global_load_dword v61, v33, s[4:5] offset:28\n" \
	"global_load_dword v62, v33, s[4:5] offset:32\n" \
	"global_load_dword v63, v33, s[4:5] offset:36\n" \
	"global_load_dword v64, v33, s[4:5] offset:40\n" \
	"global_load_dword v65, v33, s[4:5] offset:44\n" \
	"s_waitcnt vmcnt(0)"
#define ATOM64B(S, GLC) VRAW(S, "s8", "s9", "s10", "s11", "-1") \
	"v_mov_b32 v40, v15\n" \
	"v_mov_b32 v41, v16\n" \
	"v_mov_b32 v42, v17\n" \
	"v_mov_b32 v43, v18\n" \
	"v_mov_b32 v44, v19\n" \
	"v_mov_b32 v45, v20\n" \
	"v_mov_b32 v46, v21\n" \
	"v_mov_b32 v47, v22\n" \
	"v_mov_b32 v48, v23\n" \
	"v_mov_b32 v49, v24\n" \
	"v_mov_b32 v50, v25\n" \
	"v_mov_b32 v51, v26\n" \
	"v_mov_b32 v52, v27\n" \
	"v_mov_b32 v53, v28\n" \
	S("buffer_atomic_smax_x2", "buffer_atomic_max_i64") " v[40:41], v33, s[8:11], 0 offen offset:0" GLC "\n" \
	S("buffer_atomic_umax_x2", "buffer_atomic_max_u64") " v[42:43], v33, s[8:11], 0 offen offset:8" GLC "\n" \
	S("buffer_atomic_and_x2", "buffer_atomic_and_b64") " v[44:45], v33, s[8:11], 0 offen offset:16" GLC "\n" \
	S("buffer_atomic_or_x2", "buffer_atomic_or_b64") " v[46:47], v33, s[8:11], 0 offen offset:24" GLC "\n" \
	S("buffer_atomic_xor_x2", "buffer_atomic_xor_b64") " v[48:49], v33, s[8:11], 0 offen offset:32" GLC "\n" \
	S("buffer_atomic_inc_x2", "buffer_atomic_inc_u64") " v[50:51], v33, s[8:11], 0 offen offset:40" GLC "\n" \
	S("buffer_atomic_dec_x2", "buffer_atomic_dec_u64") " v[52:53], v33, s[8:11], 0 offen offset:48" GLC "\n" \
	"s_waitcnt vmcnt(0)\n" \
	"global_load_dword v54, v33, s[4:5] offset:0\n" \
	"global_load_dword v55, v33, s[4:5] offset:4\n" \
	"global_load_dword v56, v33, s[4:5] offset:8\n" \
	"global_load_dword v57, v33, s[4:5] offset:12\n" \
	"global_load_dword v58, v33, s[4:5] offset:16\n" \
	"global_load_dword v59, v33, s[4:5] offset:20\n" \
	"global_load_dword v60, v33, s[4:5] offset:24\n" \
	"global_load_dword v61, v33, s[4:5] offset:28\n" \
	"global_load_dword v62, v33, s[4:5] offset:32\n" \
	"global_load_dword v63, v33, s[4:5] offset:36\n" \
	"global_load_dword v64, v33, s[4:5] offset:40\n" \
	"global_load_dword v65, v33, s[4:5] offset:44\n" \
	"global_load_dword v66, v33, s[4:5] offset:48\n" \
	"global_load_dword v67, v33, s[4:5] offset:52\n" \
	"s_waitcnt vmcnt(0)"
static const char a32g10[] = ATOM32(S10, " glc"), a32g11[] = ATOM32(S11, " glc");
static const char a32n10[] = ATOM32(S10, ""), a32n11[] = ATOM32(S11, "");
static const char a64ag10[] = ATOM64A(S10, " glc"), a64ag11[] = ATOM64A(S11, " glc");
static const char a64bg10[] = ATOM64B(S10, " glc"), a64bg11[] = ATOM64B(S11, " glc");

enum { SWAP, ADD, SUB, CSUB, SMIN, UMIN, SMAX, UMAX, AND, OR, XOR, INC, DEC };

/* The new memory value, from the pseudocode (tmp: the old value, src: DATA;
 * bits: 32 or 64). */
static uint64_t atom(unsigned op, uint64_t tmp, uint64_t src, unsigned bits)
{
	uint64_t m = bits == 64 ? ~0ull : 0xffffffffull;
	int64_t st = bits == 64 ? (int64_t)tmp : (int32_t)(uint32_t)tmp;
	int64_t ss = bits == 64 ? (int64_t)src : (int32_t)(uint32_t)src;
	switch (op) {
	case SWAP: return src;
	case ADD: return (tmp + src) & m;
	case SUB: return (tmp - src) & m;
	case CSUB: return tmp < src ? 0 : tmp - src;
	case SMIN: return ss < st ? src : tmp;
	case UMIN: return src < tmp ? src : tmp;
	case SMAX: return ss >= st ? src : tmp;
	case UMAX: return src >= tmp ? src : tmp;
	case AND: return tmp & src;
	case OR: return tmp | src;
	case XOR: return tmp ^ src;
	case INC: return tmp >= src ? 0 : tmp + 1;
	case DEC: return (tmp == 0 || tmp > src) ? src : tmp - 1;
	default: return tmp;
	}
}

/* A set of atomics as the bodies lay them out: n operations (then a
 * cmpswap, if any) on values of w dwords: memory in[0..], the data after
 * it; outputs: the VDATA registers (the old values with glc), then memory. */
struct aset {
	unsigned n, w;
	const unsigned *ops;
	int cmpswap, glc;
};

static uint64_t getv(const uint32_t *p, unsigned w) { return w == 2 ? (uint64_t)p[1] << 32 | p[0] : p[0]; }
static void putv(uint32_t *p, unsigned w, uint64_t v)
{
	p[0] = (uint32_t)v;
	if (w == 2)
		p[1] = (uint32_t)(v >> 32);
}

/* The atomics change the input buffer: the references start from the inputs
 * as the (deterministic) initialiser made them. */
typedef void initfn(unsigned, uint32_t *, uint32_t *, unsigned, unsigned);
static const uint32_t *orig_in(const struct xt_ctx *c, unsigned lane, initfn *init, uint32_t *buf)
{
	uint32_t dummy[XT_MAXOUT];
	init(lane, buf, dummy, c->nin, 0);
	return buf;
}

static void ref_aset(const struct aset *a, const uint32_t *in, uint32_t *out)
{
	unsigned w = a->w, nmem = a->n + (a->cmpswap ? 1 : 0);
	const uint32_t *data = in + nmem * w;
	uint32_t *mem = out + a->n * w + (a->cmpswap ? 2 * w : 0);
	for (unsigned j = 0; j < a->n; j++) {
		uint64_t tmp = getv(in + j * w, w), src = getv(data + j * w, w);
		putv(mem + j * w, w, atom(a->ops[j], tmp, src, 32 * w));
		putv(out + j * w, w, a->glc ? tmp : src);
	}
	if (a->cmpswap) {
		unsigned j = a->n;
		uint64_t tmp = getv(in + j * w, w), src = getv(data + j * w, w), cmp = getv(data + j * w + w, w);
		putv(mem + j * w, w, tmp == cmp ? src : tmp);
		putv(out + j * w, w, a->glc ? tmp : src);
		putv(out + j * w + w, w, cmp);
	}
}

/* Random values; in odd lanes small ones (0-4, and in lanes 3 mod 4 -2..2)
 * so that inc/dec wrap, csub clamps, min/max see equal and negative
 * operands; cmpswap's comparand equals memory in even lanes. */
static void init_atomic(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	for (unsigned k = 0; k < nin && (lane & 1); k++)
		in[k] = (lane & 2) ? (uint32_t)((int32_t)(in[k] % 5) - 2) : in[k] % 5;
	if (lane == 0) { /* 32-bit inc at ~0 with src ~0, dec from 0 */
		in[11] = in[14 + 11] = 0xffffffffu;
		in[12] = 0;
	}
}

static void init_atomic32(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	init_atomic(lane, in, out, nin, nout);
	if (!(lane & 1))
		in[28] = in[13];
}

static void init_atomic64a(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	init_atomic(lane, in, out, nin, nout);
	if (!(lane & 1)) {
		in[24] = in[10];
		in[25] = in[11];
	} else if (lane & 2) {
		in[24] = in[10]; /* only the high dwords differ */
		in[25] = in[11] ^ 0x100u;
	}
}

static const unsigned ops32[] = { SWAP, ADD, SUB, CSUB, SMIN, UMIN, SMAX, UMAX, AND, OR, XOR, INC, DEC };
static const unsigned ops64a[] = { SWAP, ADD, SUB, SMIN, UMIN };
static const unsigned ops64b[] = { SMAX, UMAX, AND, OR, XOR, INC, DEC };

static void ref_a32g(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	static const struct aset a = { 13, 1, ops32, 1, 1 };
	uint32_t buf[XT_MAXIN];
	ref_aset(&a, orig_in(c, lane, init_atomic32, buf), out);
}
static void ref_a32n(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	static const struct aset a = { 13, 1, ops32, 1, 0 };
	uint32_t buf[XT_MAXIN];
	ref_aset(&a, orig_in(c, lane, init_atomic32, buf), out);
}
static void ref_a64a(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	static const struct aset a = { 5, 2, ops64a, 1, 1 };
	uint32_t buf[XT_MAXIN];
	ref_aset(&a, orig_in(c, lane, init_atomic64a, buf), out);
}
static void ref_a64b(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	static const struct aset a = { 7, 2, ops64b, 0, 1 };
	uint32_t buf[XT_MAXIN];
	ref_aset(&a, orig_in(c, lane, init_atomic, buf), out);
}

/* ---- float atomics: memory f32 m0-m3 (in[0..3]), f64 M0-M2 (in[4..9]); data d0 c0 d1 d2 d3
 * (in[10..14]), D0 C0 D1 D2 (in[15..22]).  RDNA2: fcmpswap, fmin, fmax and their _x2
 * forms; RDNA3: cmpswap_f32, min_f32, max_f32, add_f32. ---------------------------------- */
#define FATOM_COPY "v_mov_b32 v40, v11\nv_mov_b32 v41, v12\nv_mov_b32 v42, v13\nv_mov_b32 v43, v14\n"
static const char fatom10[] = VRAW(S10, "s8", "s9", "s10", "s11", "-1") FATOM_COPY
	"v_mov_b32 v44, v16\nv_mov_b32 v45, v17\nv_mov_b32 v46, v18\nv_mov_b32 v47, v19\n"
	"v_mov_b32 v48, v20\nv_mov_b32 v49, v21\nv_mov_b32 v50, v22\nv_mov_b32 v51, v23\n"
	"buffer_atomic_fcmpswap v[40:41], v33, s[8:11], 0 offen glc\n"
	"buffer_atomic_fmin v42, v33, s[8:11], 0 offen offset:4 glc\n"
	"buffer_atomic_fmax v43, v33, s[8:11], 0 offen offset:8 glc\n"
	"buffer_atomic_fcmpswap_x2 v[44:47], v33, s[8:11], 0 offen offset:16 glc\n"
	"buffer_atomic_fmin_x2 v[48:49], v33, s[8:11], 0 offen offset:24 glc\n"
	"buffer_atomic_fmax_x2 v[50:51], v33, s[8:11], 0 offen offset:32 glc\n"
	"s_waitcnt vmcnt(0)\n"
	"global_load_dwordx4 v[52:55], v33, s[4:5]\nglobal_load_dwordx4 v[56:59], v33, s[4:5] offset:16\n"
	"global_load_dwordx2 v[60:61], v33, s[4:5] offset:32\ns_waitcnt vmcnt(0)";
static const char fatom11[] = VRAW(S11, "s8", "s9", "s10", "s11", "-1") FATOM_COPY "v_mov_b32 v44, v15\n"
	"buffer_atomic_cmpswap_f32 v[40:41], v33, s[8:11], 0 offen glc\n"
	"buffer_atomic_min_f32 v42, v33, s[8:11], 0 offen offset:4 glc\n"
	"buffer_atomic_max_f32 v43, v33, s[8:11], 0 offen offset:8 glc\n"
	"buffer_atomic_add_f32 v44, v33, s[8:11], 0 offen offset:12 glc\n"
	"s_waitcnt vmcnt(0)\n"
	"global_load_dwordx4 v[52:55], v33, s[4:5]\nglobal_load_dwordx4 v[56:59], v33, s[4:5] offset:16\n"
	"global_load_dwordx2 v[60:61], v33, s[4:5] offset:32\ns_waitcnt vmcnt(0)";

static double u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* Normal values of either sign, infinities in a few lanes; min/max see no
 * NaN and no zeros (where the pseudocode's comparisons and IEEE minNum could
 * differ); cmpswap's comparand equals memory in even lanes, and -0/+0 and
 * NaN/NaN pairs in lanes 9, 11, 12, 14. */
static void init_fatom(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_f(lane, in, out, nin, nout);
	for (unsigned k = 4; k < 10; k += 2)
		in[k + 1] = xt_f2u(1.0f) ^ (xt_rand(lane, k, 9) & 0x800fffffu); /* f64 in [1, 2) of either sign */
	for (unsigned k = 15; k < 23; k += 2)
		in[k + 1] = 0x40000000u ^ (xt_rand(lane, k, 9) & 0x800fffffu);
	if (lane % 4 == 1) { /* min(+inf, -inf); M1 = -inf */
		in[1] = xt_f2u(INFINITY);
		in[12] = xt_f2u(-INFINITY);
		in[6] = 0;
		in[7] = 0xfff00000u;
	}
	if (lane % 4 == 3) { /* max(-inf, -inf); D1 = +inf */
		in[2] = in[13] = xt_f2u(-INFINITY);
		in[19] = 0;
		in[20] = 0x7ff00000u;
	}
	if (lane == 6)
		in[13] = in[2] ^ 0x80000000u; /* max(x, -x) */
	if (!(lane & 1)) {
		in[11] = in[0];
		in[17] = in[4];
		in[18] = in[5];
	}
	if (lane == 9 || lane == 12) { /* cmpswap compares floats: -0 == +0 */
		in[0] = 0x80000000u;
		in[11] = 0;
		in[4] = 0;
		in[5] = 0x80000000u;
		in[17] = in[18] = 0;
	}
	if (lane == 11 || lane == 14) { /* a NaN equals nothing, itself included */
		in[0] = in[11] = 0x7fc00001u;
		in[4] = in[17] = 1;
		in[5] = in[18] = 0x7ff80000u;
	}
}

static void ref_fatom(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	uint32_t buf[XT_MAXIN];
	const uint32_t *in = orig_in(c, lane, init_fatom, buf);
	uint32_t *mem = out + 12;
	memcpy(mem, in, 40);
	float m0 = xt_u2f(in[0]), m1 = xt_u2f(in[1]), m2 = xt_u2f(in[2]), m3 = xt_u2f(in[3]);
	float c0 = xt_u2f(in[11]), d1 = xt_u2f(in[12]), d2 = xt_u2f(in[13]);
	mem[0] = m0 == c0 ? in[10] : in[0];       /* tmp == cmp ? src : tmp */
	mem[1] = d1 < m1 ? in[12] : in[1];        /* src < tmp ? src : tmp */
	mem[2] = d2 > m2 ? in[13] : in[2];        /* src > tmp ? src : tmp */
	out[0] = in[0];                           /* glc: the old values */
	out[1] = in[11];
	out[2] = in[1];
	out[3] = in[2];
	if (c->gfx == 11) {
		mem[3] = xt_f2u(m3 + xt_u2f(in[14]));
		out[4] = in[3];
		return;
	}
	double M0 = u2d(getv(in + 4, 2)), M1 = u2d(getv(in + 6, 2)), M2 = u2d(getv(in + 8, 2));
	double C0 = u2d(getv(in + 17, 2)), D1 = u2d(getv(in + 19, 2)), D2 = u2d(getv(in + 21, 2));
	putv(mem + 4, 2, M0 == C0 ? getv(in + 15, 2) : getv(in + 4, 2));
	putv(mem + 6, 2, D1 < M1 ? getv(in + 19, 2) : getv(in + 6, 2));
	putv(mem + 8, 2, D2 > M2 ? getv(in + 21, 2) : getv(in + 8, 2));
	putv(out + 4, 2, getv(in + 4, 2));
	putv(out + 6, 2, getv(in + 17, 2));
	putv(out + 8, 2, getv(in + 6, 2));
	putv(out + 10, 2, getv(in + 8, 2));
}

/* ---- atomics out of range (num_records 160: lanes 5 and up; the return is 0, memory
 * kept), under an exec mask, a 64-bit one checked all or nothing (num_records 84: lane 2's
 * starts 4 bytes before the end: in range on RDNA2, not on RDNA3), and the cache
 * invalidations (no visible effect).  in: add's memory and data, xor's, the 64-bit
 * add's memory (in[4..5]) and data (in[6..7]). ------------------------------------------- */
#define ARANGE(S) VRAW(S, "s8", "s9", "s10", "s11", "-1") VRAW(S, "s12", "s13", "s14", "s15", "160") \
	VRAW(S, "s16", "s17", "s18", "s19", "84") \
	"v_mov_b32 v40, v2\nv_mov_b32 v41, v4\nv_mov_b32 v44, v7\nv_mov_b32 v45, v8\n" \
	S("buffer_atomic_add", "buffer_atomic_add_u32") " v40, v33, s[12:15], 0 offen glc\n" \
	"s_mov_b32 exec_lo, 0x96696996\n" \
	S("buffer_atomic_xor", "buffer_atomic_xor_b32") " v41, v33, s[8:11], 0 offen offset:8 glc\n" \
	"s_mov_b32 exec_lo, -1\n" \
	S("buffer_atomic_add_x2", "buffer_atomic_add_u64") " v[44:45], v33, s[16:19], 0 offen offset:16 glc\n" \
	"s_waitcnt vmcnt(0)\nbuffer_gl0_inv\nbuffer_gl1_inv\n" \
	"global_load_dword v42, v33, s[4:5]\nglobal_load_dword v43, v33, s[4:5] offset:8\n" \
	"global_load_dwordx2 v[46:47], v33, s[4:5] offset:16\ns_waitcnt vmcnt(0)"
static const char arange10[] = ARANGE(S10), arange11[] = ARANGE(S11);

static void ref_arange(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	uint32_t buf[XT_MAXIN];
	const uint32_t *in = orig_in(c, lane, xt_init_u, buf);
	int ok = in_range(c->gfx, 32u * lane, 4, 160);
	out[0] = ok ? in[0] : 0;
	out[2] = ok ? in[0] + in[1] : in[0];
	int on = (0x96696996u >> lane) & 1;
	out[1] = on ? in[2] : in[3];
	out[3] = on ? in[2] ^ in[3] : in[2];
	uint64_t m = getv(in + 4, 2), d = getv(in + 6, 2);
	ok = in_range(c->gfx, 32u * lane + 16, 8, 84);
	putv(out + 4, 2, ok ? m : 0);
	putv(out + 6, 2, ok ? m + d : m);
}

/* ---- typed loads and stores out of range: DST_SEL x, 1, 0, y (the ISA guides: an
 * out-of-range read gives 0, except 1 for a SEL_1 component); num_records 199: lane 6's
 * element at 196 is in range on RDNA2, not on RDNA3 ---------------------------------------- */
#define FRANGE(S) VRAW(S, "s8", "s9", "s10", "s11", "-1") \
	"s_mov_b32 s12, s4\ns_and_b32 s13, s5, 0xffff\ns_mov_b32 s14, 199\ns_mov_b32 s15, 0x14a0c\n" /* 32_UINT */ \
	"s_mov_b32 s16, s4\ns_and_b32 s17, s5, 0xffff\ns_mov_b32 s18, 199\ns_mov_b32 s19, 0x1da0c\n" /* 16_16_FLOAT */ \
	"buffer_load_format_xyzw v[40:43], v33, s[12:15], 0 offen offset:4\n" \
	"buffer_load_format_xyzw v[44:47], v33, s[16:19], 0 offen offset:4\n" \
	S("buffer_load_format_d16_xyzw", "buffer_load_d16_format_xyzw") " v[48:49], v33, s[16:19], 0 offen offset:4\n" \
	"buffer_store_format_x v3, v33, s[12:15], 0 offen offset:4\n" \
	"s_waitcnt vmcnt(0)\nglobal_load_dword v50, v33, s[4:5] offset:4\ns_waitcnt vmcnt(0)"
static const char frange10[] = FRANGE(S10), frange11[] = FRANGE(S11);

/* f16 halves without infinities or NaNs. */
static void init_frange(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	in[1] &= 0xbfffbfffu;
}

static void ref_frange(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	uint32_t buf[XT_MAXIN];
	const uint32_t *in = orig_in(c, lane, init_frange, buf);
	int ok = in_range(c->gfx, 32u * lane + 4, 4, 199);
	uint16_t x = xt_lo(in[1]), y = xt_hi(in[1]);
	out[0] = ok ? in[1] : 0; /* 32_UINT: x; y is missing (0) */
	out[1] = 1;
	out[2] = 0;
	out[3] = 0;
	out[4] = ok ? xt_f2u((float)xt_h2d(x)) : 0;
	out[5] = xt_f2u(1.0f);
	out[6] = 0;
	out[7] = ok ? xt_f2u((float)xt_h2d(y)) : 0;
	out[8] = ok ? x : 0; /* d16: x, 1.0 in the high half; 0, y */
	out[8] |= 0x3c00u << 16;
	out[9] = ok ? (uint32_t)y << 16 : 0;
	out[10] = ok ? in[2] : in[1]; /* the store, all or nothing */
}

/* ---- scratch: the lane's 64 private bytes from in[0..15] through the four addressing
 * forms (ST: offset alone, SV: VGPR, SS: SGPR, SV with a negative offset); RDNA3's SVS
 * (VGPR + SGPR) in the last load and store -------------------------------------------- */
#define SINIT(S) "v_mov_b32 v35, 16\nv_mov_b32 v36, 52\nv_mov_b32 v37, 4\nv_mov_b32 v38, 1\n" \
	"s_mov_b32 s3, 32\ns_mov_b32 s2, 2\n" \
	S("scratch_store_dwordx4", "scratch_store_b128") " off, v[1:4], off\n" \
	S("scratch_store_dwordx4", "scratch_store_b128") " v35, v[5:8], off\n" \
	S("scratch_store_dwordx4", "scratch_store_b128") " off, v[9:12], s3\n" \
	S("scratch_store_dwordx4", "scratch_store_b128") " v36, v[13:16], off offset:-4\n"
#define SLOAD(S) SINIT(S) \
	S("scratch_load_ubyte", "scratch_load_u8") " v40, v38, off\n" \
	S("scratch_load_sbyte", "scratch_load_i8") " v41, off, s2 offset:1\n" \
	S("scratch_load_ushort", "scratch_load_u16") " v42, off, off offset:2\n" \
	S("scratch_load_sshort", "scratch_load_i16") " v43, v37, off offset:2\n" \
	S("scratch_load_dword", "scratch_load_b32") " v44, v37, off\n" \
	S("scratch_load_dwordx2", "scratch_load_b64") " v[45:46], off, off offset:8\n" \
	S("scratch_load_dwordx3", "scratch_load_b96") " v[47:49], v35, off offset:4\n" \
	S("scratch_load_dwordx4", "scratch_load_b128") " v[50:53], off, s3\n" \
	S("scratch_load_ubyte_d16", "scratch_load_d16_u8") " v54, off, off offset:5\n" \
	S("scratch_load_sbyte_d16", "scratch_load_d16_i8") " v55, off, off offset:7\n" \
	S("scratch_load_short_d16", "scratch_load_d16_b16") " v56, off, off offset:10\n" \
	S("scratch_load_ubyte_d16_hi", "scratch_load_d16_hi_u8") " v57, off, off offset:11\n" \
	S("scratch_load_sbyte_d16_hi", "scratch_load_d16_hi_i8") " v58, off, off offset:13\n" \
	S("scratch_load_short_d16_hi", "scratch_load_d16_hi_b16") " v59, off, off offset:14\n" \
	S("scratch_load_dword v60, v37, off offset:56", "scratch_load_b32 v60, v37, s2 offset:54") "\n" \
	"s_mov_b32 exec_lo, 0x69969669\n" \
	S("scratch_load_dword", "scratch_load_b32") " v61, off, off offset:48\n" \
	"s_mov_b32 exec_lo, -1\n" \
	"s_waitcnt vmcnt(0)"
static const char sload10[] = SLOAD(S10), sload11[] = SLOAD(S11);

static void ref_sload(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint8_t *p = lane_in(c, lane); /* the private bytes as the stores left them */
	out[0] = p[1];
	out[1] = sx8(p[3]);
	out[2] = rd16(p + 2);
	out[3] = sx16(rd16(p + 6));
	out[4] = rd32(p + 4);
	out[5] = rd32(p + 8);
	out[6] = rd32(p + 12);
	for (unsigned i = 0; i < 3; i++)
		out[7 + i] = rd32(p + 20 + 4 * i);
	for (unsigned i = 0; i < 4; i++)
		out[10 + i] = rd32(p + 32 + 4 * i);
	out[14] = xt_setlo(out[14], p[5]);
	out[15] = xt_setlo(out[15], (uint16_t)sx8(p[7]));
	out[16] = xt_setlo(out[16], (uint16_t)rd16(p + 10));
	out[17] = xt_sethi(out[17], p[11]);
	out[18] = xt_sethi(out[18], (uint16_t)sx8(p[13]));
	out[19] = xt_sethi(out[19], (uint16_t)rd16(p + 14));
	out[20] = rd32(p + 60);
	if ((0x69969669u >> lane) & 1)
		out[21] = rd32(p + 48);
}

/* Stores of every width over the initialised bytes (sources v17-v24), read back whole. */
#define SSTORE(S) SINIT(S) \
	S("scratch_store_byte", "scratch_store_b8") " off, v17, off offset:49\n" \
	S("scratch_store_byte_d16_hi", "scratch_store_d16_hi_b8") " v38, v17, off offset:49\n" \
	S("scratch_store_short", "scratch_store_b16") " off, v18, s3 offset:20\n" \
	S("scratch_store_short_d16_hi", "scratch_store_d16_hi_b16") " off, v18, off offset:54\n" \
	"s_mov_b32 exec_lo, 0x0ff0f00f\n" \
	S("scratch_store_dword", "scratch_store_b32") " v37, v19, off offset:52\n" \
	"s_mov_b32 exec_lo, -1\n" \
	S("scratch_store_dwordx2", "scratch_store_b64") " off, v[20:21], off offset:40\n" \
	S("scratch_store_dwordx3", "scratch_store_b96") " v35, v[22:24], off offset:4\n" \
	S("scratch_store_dword v37, v24, off offset:8", "scratch_store_b32 v37, v24, s2 offset:6") "\n" \
	S("scratch_load_dwordx4", "scratch_load_b128") " v[40:43], off, off\n" \
	S("scratch_load_dwordx4", "scratch_load_b128") " v[44:47], off, off offset:16\n" \
	S("scratch_load_dwordx4", "scratch_load_b128") " v[48:51], off, off offset:32\n" \
	S("scratch_load_dwordx4", "scratch_load_b128") " v[52:55], off, off offset:48\n" \
	"s_waitcnt vmcnt(0)"
static const char sstore10[] = SSTORE(S10), sstore11[] = SSTORE(S11);

static void ref_sstore(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = c->in + lane * c->nin;
	uint8_t t[64];
	memcpy(t, in, 64);
	t[49] = (uint8_t)in[16];
	t[50] = (uint8_t)(in[16] >> 16);
	memcpy(t + 52, &in[17], 2);
	uint16_t hi = xt_hi(in[17]);
	memcpy(t + 54, &hi, 2);
	if ((0x0ff0f00fu >> lane) & 1)
		memcpy(t + 56, &in[18], 4);
	memcpy(t + 40, &in[19], 8);
	memcpy(t + 20, &in[21], 12);
	memcpy(t + 12, &in[23], 4);
	memcpy(out, t, 64);
}

/* ---- loads into LDS (RDNA3 buffer_load_lds_*; RDNA2's lds bit): region k at M0 = 256k;
 * each lane's dword at M0 + offset + 4 * lane; regions 6 (exec mask) and 7 (out of range
 * from lane 10: 0 is written) hold a marker first -------------------------------------- */
#define LDSLOAD(S, DSW, DSR, L0, L1, L2, L3, L4, L5, LDS) \
	VRAW(S, "s8", "s9", "s10", "s11", "-1") VRAW(S, "s12", "s13", "s14", "s15", "320") \
	"s_mov_b32 s16, s4\ns_and_b32 s17, s5, 0xffff\ns_mov_b32 s18, -1\ns_mov_b32 s19, 0x13fac\n" /* 8_8_SINT */ \
	"v_lshlrev_b32 v35, 2, v0\nv_mov_b32 v36, 0x5eed1234\n" \
	"v_add_nc_u32 v37, 3, v33\nv_add_nc_u32 v38, 1, v33\nv_add_nc_u32 v39, 2, v33\n" \
	DSW " v35, v36 offset:1556\n" DSW " v35, v36 offset:1812\ns_waitcnt lgkmcnt(0)\n" \
	"s_mov_b32 m0, 0\n" L0 " v33, s[8:11], 0 offen offset:4" LDS "\n" \
	"s_mov_b32 m0, 256\n" L1 " v38, s[8:11], 0 offen offset:4" LDS "\n" \
	"s_mov_b32 m0, 512\n" L2 " v37, s[8:11], 0 offen offset:4" LDS "\n" \
	"s_mov_b32 m0, 768\n" L3 " v39, s[8:11], 0 offen offset:8" LDS "\n" \
	"s_mov_b32 m0, 1024\n" L4 " v39, s[8:11], 0 offen offset:12" LDS "\n" \
	"s_mov_b32 m0, 1280\n" L5 " v39, s[16:19], 0 offen" LDS "\n" \
	"s_mov_b32 m0, 1536\ns_mov_b32 exec_lo, 0xa5a5f00f\n" L0 " v33, s[8:11], 0 offen offset:20" LDS "\n" \
	"s_mov_b32 exec_lo, -1\n" \
	"s_mov_b32 m0, 1792\n" L0 " v33, s[12:15], 0 offen offset:20" LDS "\n" \
	"s_waitcnt vmcnt(0)\n" \
	DSR " v40, v35 offset:4\n" DSR " v41, v35 offset:260\n" DSR " v42, v35 offset:516\n" \
	DSR " v43, v35 offset:776\n" DSR " v44, v35 offset:1036\n" DSR " v45, v35 offset:1280\n" \
	DSR " v46, v35 offset:1556\n" DSR " v47, v35 offset:1812\n" \
	"s_waitcnt lgkmcnt(0)"
static const char ldsload10[] = LDSLOAD(S10, "ds_write_b32", "ds_read_b32", "buffer_load_dword", "buffer_load_ubyte",
					"buffer_load_sbyte", "buffer_load_ushort", "buffer_load_sshort",
					"buffer_load_format_x", " lds");
static const char ldsload11[] = LDSLOAD(S11, "ds_store_b32", "ds_load_b32", "buffer_load_lds_b32", "buffer_load_lds_u8",
					"buffer_load_lds_i8", "buffer_load_lds_u16", "buffer_load_lds_i16",
					"buffer_load_lds_format_x", "");

static void ref_ldsload(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint8_t *p = lane_in(c, lane);
	out[0] = rd32(p + 4);
	out[1] = p[5];
	out[2] = sx8(p[7]);
	out[3] = rd16(p + 10);
	out[4] = sx16(rd16(p + 14));
	out[5] = sx8(p[2]); /* 8_8_SINT's x: the byte at offset 2, sign-extended */
	out[6] = (0xa5a5f00fu >> lane) & 1 ? rd32(p + 20) : 0x5eed1234u;
	out[7] = in_range(c->gfx, 32u * lane + 20, 4, 320) ? rd32(p + 20) : 0;
}

const struct xt_test xt_tests_mubuf[] = {
	{ "buffer_load_widths", XT_BOTH, loads10, loads11, NULL, 8, 25, xt_init_u, ref_loads, XT_EXACT },
	{ "buffer_load_idx_range", XT_BOTH, range10, range11, NULL, 8, 23, xt_init_u, ref_range, XT_EXACT },
	{ "buffer_store_widths_range", XT_BOTH, stores10, stores11, NULL, 24, 16, init_stores, ref_stores, XT_EXACT },
	{ "buffer_atomic_32_glc", XT_BOTH, a32g10, a32g11, NULL, 29, 29, init_atomic32, ref_a32g, XT_EXACT },
	{ "buffer_atomic_32_noret", XT_BOTH, a32n10, a32n11, NULL, 29, 29, init_atomic32, ref_a32n, XT_EXACT },
	{ "buffer_atomic_64a_glc", XT_BOTH, a64ag10, a64ag11, NULL, 26, 26, init_atomic64a, ref_a64a, XT_EXACT },
	{ "buffer_atomic_64b_glc", XT_BOTH, a64bg10, a64bg11, NULL, 28, 28, init_atomic, ref_a64b, XT_EXACT },
	{ "buffer_atomic_float", XT_BOTH, fatom10, fatom11, NULL, 23, 22, init_fatom, ref_fatom, XT_EXACT },
	{ "buffer_atomic_range_exec_inv", XT_BOTH, arange10, arange11, NULL, 8, 8, xt_init_u, ref_arange, XT_EXACT },
	{ "buffer_format_range_sel1", XT_BOTH, frange10, frange11, NULL, 8, 11, init_frange, ref_frange, XT_EXACT },
	{ "scratch_load_forms", XT_BOTH, sload10, sload11, NULL, 16, 22, xt_init_u, ref_sload, XT_EXACT },
	{ "scratch_store_forms", XT_BOTH, sstore10, sstore11, NULL, 24, 16, xt_init_u, ref_sstore, XT_EXACT },
	{ "buffer_load_lds", XT_BOTH, ldsload10, ldsload11, NULL, 8, 8, xt_init_u, ref_ldsload, XT_EXACT },
};
const unsigned xt_ntests_mubuf = sizeof xt_tests_mubuf / sizeof xt_tests_mubuf[0];
