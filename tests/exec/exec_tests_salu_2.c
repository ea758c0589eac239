/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_salu_2.c — single-instruction tests of scalar control (branches, PC ops, hardware registers, waits
 * and hints, s_endpgm), SGPR-relative moves, scalar memory (SMEM) and gfx1150's f16 scalar float instructions.
 * References follow the ISA guides' pseudocode, written here in plain C.
 *
 * The lane loops read one lane's inputs into SGPRs (v_readlane, lane
 * number in s30) and put each result back into that lane (v_writelane),
 * as in exec_tests_salu.c: A = s10 (v1), B = s11 (v2), ... s[4:7] (the
 * buffer pointers) are kept.
 */
#include <math.h>
#include <string.h>

#include "exec.h"
#include "exec_harness.h"

#define LOOP_HEAD \
	"s_mov_b32 s30, 0\n.Lloop:\n" \
	"v_readlane_b32 s10, v1, s30\nv_readlane_b32 s11, v2, s30\nv_readlane_b32 s12, v3, s30\n" \
	"v_readlane_b32 s13, v4, s30\nv_readlane_b32 s14, v5, s30\n"
#define LOOP_TAIL "s_add_u32 s30, s30, 1\ns_cmp_lt_u32 s30, 32\ns_cbranch_scc1 .Lloop\n"

static const uint32_t *lane_in(const struct xt_ctx *c, unsigned lane) { return c->in + lane * c->nin; }

/* ---- s_movrels / s_movreld / s_movrelsd_2: s[40:45] = A, B, C, D, E, ~A;
 * M0 from E's bits ---- */
static void ref_movrel(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = lane_in(c, lane);
	uint32_t s[6] = { in[0], in[1], in[2], in[3], in[4], ~in[0] }, e = in[4];
	out[0] = s[e & 3];                     /* s_movrels_b32 s16, s40, M0 = E[1:0] */
	out[1] = s[e & 2];                     /* s_movrels_b64 s[16:17], s[40:41], M0 = E[1] * 2 */
	out[2] = s[(e & 2) + 1];
	for (unsigned i = 0; i < 12; i++)
		out[3 + i] = 0;
	out[3 + ((e >> 2) & 3)] = in[0];       /* s_movreld_b32 s48, A, M0 = E[3:2] */
	out[7 + ((e >> 4) & 2)] = in[2];       /* s_movreld_b64 s[52:53], C:D, M0 = E[5] * 2 */
	out[8 + ((e >> 4) & 2)] = in[3];
	out[11 + ((e >> 8) & 3)] = s[(e >> 10) & 3]; /* s_movrelsd_2_b32 s56, s40, M0 = E[9:8] << 16 | E[11:10] */
}

static const char movrel_body[] = LOOP_HEAD
	"s_mov_b64 s[40:41], s[10:11]\ns_mov_b64 s[42:43], s[12:13]\ns_mov_b32 s44, s14\ns_not_b32 s45, s10\n"
	"s_and_b32 m0, s14, 3\ns_movrels_b32 s16, s40\nv_writelane_b32 v40, s16, s30\n"
	"s_and_b32 m0, s14, 2\ns_movrels_b64 s[16:17], s[40:41]\n"
	"v_writelane_b32 v41, s16, s30\nv_writelane_b32 v42, s17, s30\n"
	"s_mov_b64 s[48:49], 0\ns_mov_b64 s[50:51], 0\ns_bfe_u32 m0, s14, 0x20002\ns_movreld_b32 s48, s10\n"
	"v_writelane_b32 v43, s48, s30\nv_writelane_b32 v44, s49, s30\n"
	"v_writelane_b32 v45, s50, s30\nv_writelane_b32 v46, s51, s30\n"
	"s_mov_b64 s[52:53], 0\ns_mov_b64 s[54:55], 0\ns_bfe_u32 m0, s14, 0x10005\ns_lshl_b32 m0, m0, 1\n"
	"s_movreld_b64 s[52:53], s[12:13]\n"
	"v_writelane_b32 v47, s52, s30\nv_writelane_b32 v48, s53, s30\n"
	"v_writelane_b32 v49, s54, s30\nv_writelane_b32 v50, s55, s30\n"
	"s_mov_b64 s[56:57], 0\ns_mov_b64 s[58:59], 0\ns_bfe_u32 s19, s14, 0x20008\ns_lshl_b32 s19, s19, 16\n"
	"s_bfe_u32 m0, s14, 0x2000a\ns_or_b32 m0, m0, s19\ns_movrelsd_2_b32 s56, s40\n"
	"v_writelane_b32 v51, s56, s30\nv_writelane_b32 v52, s57, s30\n"
	"v_writelane_b32 v53, s58, s30\nv_writelane_b32 v54, s59, s30\n"
	LOOP_TAIL;

/* ---- branches: bit k of the result is set when the instruction after
 * branch k ran (the branch was not taken) ---- */
static void ref_branch(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = lane_in(c, lane);
	uint32_t e = in[4], r = 0;
	uint32_t vcc = (e >> 2) & 1 ? in[0] : 0;          /* VCC_LO; VCC_HI = B does not count in wave32 */
	uint32_t exec = (e >> 3) & 1 ? in[2] : ~0u;
	r |= (e & 1) ? 1 : 0;                              /* s_cbranch_scc0 with SCC = E[0] */
	r |= (e & 2) ? 0 : 2;                              /* s_cbranch_scc1 with SCC = E[1] */
	r |= vcc != 0 ? 4 : 0;                             /* s_cbranch_vccz */
	r |= vcc == 0 ? 8 : 0;                             /* s_cbranch_vccnz */
	r |= exec != 0 ? 16 : 0;                           /* s_cbranch_execz */
	r |= exec == 0 ? 32 : 0;                           /* s_cbranch_execnz */
	out[0] = r;                                        /* s_branch: 64 never set */
}

static const char branch_body[] = LOOP_HEAD
	"s_mov_b32 s16, 0\n"
	"s_bitcmp1_b32 s14, 0\ns_cbranch_scc0 .Lb1\ns_or_b32 s16, s16, 1\n.Lb1:\n"
	"s_bitcmp1_b32 s14, 1\ns_cbranch_scc1 .Lb2\ns_or_b32 s16, s16, 2\n.Lb2:\n"
	"s_bitcmp1_b32 s14, 2\ns_cselect_b32 vcc_lo, s10, 0\ns_mov_b32 vcc_hi, s11\n"
	"s_cbranch_vccz .Lb3\ns_or_b32 s16, s16, 4\n.Lb3:\n"
	"s_cbranch_vccnz .Lb4\ns_or_b32 s16, s16, 8\n.Lb4:\n"
	"s_bitcmp1_b32 s14, 3\ns_cselect_b32 exec_lo, s12, -1\n"
	"s_cbranch_execz .Lb5\ns_or_b32 s16, s16, 16\n.Lb5:\n"
	"s_cbranch_execnz .Lb6\ns_or_b32 s16, s16, 32\n.Lb6:\n"
	"s_mov_b32 exec_lo, -1\n"
	"s_branch .Lb7\ns_or_b32 s16, s16, 64\n.Lb7:\n"
	"v_writelane_b32 v40, s16, s30\n"
	LOOP_TAIL;

/* ---- PC: s_getpc gives the next instruction's address; s_swappc and
 * s_call save it and jump; s_setpc jumps.  The skipped s_mov_b32 s26 are 4
 * bytes each. ---- */
static void ref_pc(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	(void)lane;
	out[0] = 4;           /* two s_getpc_b64 in a row */
	out[1] = 0xfffffffcu; /* swappc's return address minus its target: the skipped s_mov in between */
	out[2] = 8;           /* s_call's return address to a s_getpc at its target */
	out[3] = 0;           /* no skipped s_mov ran */
}

static const char pc_body[] =
	"s_mov_b32 s26, 0\n"
	"s_getpc_b64 s[16:17]\ns_getpc_b64 s[18:19]\ns_sub_u32 s20, s18, s16\nv_mov_b32 v40, s20\n"
	"s_getpc_b64 s[22:23]\n.Lp0:\ns_add_u32 s22, s22, .Lp1-.Lp0\ns_addc_u32 s23, s23, 0\n"
	"s_swappc_b64 s[24:25], s[22:23]\ns_mov_b32 s26, 1\n.Lp1:\n"
	"s_sub_u32 s27, s24, s22\nv_mov_b32 v41, s27\n"
	"s_call_b64 s[34:35], .Lc1\ns_mov_b32 s26, 2\n.Lc1:\n"
	"s_getpc_b64 s[36:37]\ns_sub_u32 s27, s36, s34\nv_mov_b32 v42, s27\n"
	"s_getpc_b64 s[28:29]\n.Lq0:\ns_add_u32 s28, s28, .Lq1-.Lq0\ns_addc_u32 s29, s29, 0\n"
	"s_setpc_b64 s[28:29]\ns_mov_b32 s26, 3\n.Lq1:\n"
	"v_mov_b32 v43, s26\n";

/* ---- MODE through s_getreg/s_setreg, s_round_mode, s_denorm_mode.  The
 * kernel descriptor (exec_harness.c) sets FLOAT_MODE 0xf0 (round to
 * nearest, denormals kept), DX10_CLAMP and IEEE: MODE = 0x3f0. ---- */
static void ref_hwreg(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	(void)lane;
	out[0] = 0x3f0; /* s_getreg_b32 hwreg(HW_REG_MODE) */
	out[1] = 3;     /* s_round_mode 3, MODE[3:0] */
	out[2] = 5;     /* s_denorm_mode 5, MODE[7:4] */
	out[3] = 0x5a;  /* s_setreg_imm32_b32 MODE[3:0] = 0xa, MODE[7:0] */
	out[4] = 0x3f0; /* s_setreg_b32 MODE = the first value back */
	out[5] = 0x1c;  /* s_setreg_b32 of a 3-bit field at offset 2: MODE[4:2] = 7 of 0xff */
}

static const char hwreg_body[] =
	"s_getreg_b32 s16, hwreg(HW_REG_MODE)\nv_mov_b32 v40, s16\n"
	"s_round_mode 0x3\ns_getreg_b32 s17, hwreg(HW_REG_MODE, 0, 4)\nv_mov_b32 v41, s17\n"
	"s_denorm_mode 0x5\ns_getreg_b32 s17, hwreg(HW_REG_MODE, 4, 4)\nv_mov_b32 v42, s17\n"
	"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xa\n"
	"s_getreg_b32 s17, hwreg(HW_REG_MODE, 0, 8)\nv_mov_b32 v43, s17\n"
	"s_setreg_b32 hwreg(HW_REG_MODE), s16\ns_getreg_b32 s17, hwreg(HW_REG_MODE)\nv_mov_b32 v44, s17\n"
	"s_mov_b32 s18, 0xff\ns_setreg_b32 hwreg(HW_REG_MODE, 2, 3), s18\ns_getreg_b32 s17, hwreg(HW_REG_MODE, 0, 5)\n"
	"v_mov_b32 v45, s17\ns_setreg_b32 hwreg(HW_REG_MODE), s16\n";

/* ---- waits, hints and cache controls: they change nothing a wave sees.
 * A VGPR, an SGPR and SCC set before them are read after them. ---- */
static void ref_nops(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	out[0] = lane_in(c, lane)[0] + 1;
	out[1] = 0x1234;
}

#define NOPS_HEAD \
	"v_add_nc_u32 v40, 1, v1\ns_movk_i32 s16, 0x1234\ns_cmp_eq_u32 s16, 0x1234\n" \
	"s_nop 0x3\ns_sleep 0x1\ns_setprio 0x2\ns_waitcnt_vscnt null, 0x0\ns_waitcnt_vmcnt null, 0x0\n" \
	"s_waitcnt_expcnt null, 0x0\ns_waitcnt_lgkmcnt null, 0x0\ns_waitcnt_depctr 0xfffe\ns_icache_inv\n" \
	"s_dcache_inv\ns_gl1_inv\ns_wakeup\ns_version 0x4\ns_wait_idle\ns_barrier\n"
#define NOPS_TAIL "s_cselect_b32 s17, s16, 0\nv_mov_b32 v41, s17\n"

static const char nops10[] = NOPS_HEAD "s_inst_prefetch 0x1\ns_sendmsg sendmsg(MSG_INTERRUPT)\n" NOPS_TAIL;
static const char nops11[] = NOPS_HEAD "s_set_inst_prefetch_distance 0x1\ns_delay_alu instid0(VALU_DEP_1)\n"
				       "s_wait_event 0x0\ns_sendmsg sendmsg(MSG_INTERRUPT)\n" NOPS_TAIL;

/* ---- s_endpgm / s_endpgm_saved: the wave ends there.  The snippet stores
 * v40 itself; the harness's stores after the snippet never run, so v41
 * keeps its initial value in memory.  gfx11 frees its VGPRs first, as the
 * compiler does (s_sendmsg MSG_DEALLOC_VGPRS). ---- */
static void ref_endpgm(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	out[0] = lane_in(c, lane)[0] ^ 0x5a5a;
}

#define END_HEAD \
	"v_xor_b32 v40, 0x5a5a, v1\nv_mov_b32 v41, 7\nglobal_store_dword v34, v40, s[6:7]\ns_waitcnt vmcnt(0)\n"

/* ---- SMEM: s_load of every width from the input buffer (immediate,
 * SGPR and both offsets), and s_buffer_load through a V# of 64 bytes
 * (num_records 0x40, stride 0): dwords past the range read 0. ---- */
static void ref_sload(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	const uint32_t *m = c->in; /* the whole input buffer, lane after lane */
	unsigned o = 0;
	out[o++] = m[1];                               /* s_load_dword, offset 0x4 */
	out[o++] = m[2], out[o++] = m[3];              /* x2, 0x8 */
	for (unsigned i = 0; i < 4; i++)
		out[o++] = m[5 + i];                   /* x4, 0x14 */
	for (unsigned i = 0; i < 8; i++)
		out[o++] = m[9 + i];                   /* x8, 0x24 */
	for (unsigned i = 0; i < 16; i++)
		out[o++] = m[16 + i];                  /* x16, soffset 0x40 */
	out[o++] = m[66];                              /* soffset 0x100 + offset 0x8 */
}

static const char sload_body[] =
	"s_clause 0x1\ns_load_dword s16, s[4:5], 0x4\ns_load_dwordx2 s[18:19], s[4:5], 0x8\n"
	"s_load_dwordx4 s[20:23], s[4:5], 0x14\ns_load_dwordx8 s[24:31], s[4:5], 0x24\n"
	"s_mov_b32 s9, 0x40\ns_load_dwordx16 s[32:47], s[4:5], s9\n"
	"s_mov_b32 s48, 0x100\ns_load_dword s49, s[4:5], s48 offset:0x8\ns_waitcnt lgkmcnt(0)\n"
	"v_mov_b32 v40, s16\nv_mov_b32 v41, s18\nv_mov_b32 v42, s19\nv_mov_b32 v43, s20\nv_mov_b32 v44, s21\n"
	"v_mov_b32 v45, s22\nv_mov_b32 v46, s23\nv_mov_b32 v47, s24\nv_mov_b32 v48, s25\nv_mov_b32 v49, s26\n"
	"v_mov_b32 v50, s27\nv_mov_b32 v51, s28\nv_mov_b32 v52, s29\nv_mov_b32 v53, s30\nv_mov_b32 v54, s31\n"
	"v_mov_b32 v55, s32\nv_mov_b32 v56, s33\nv_mov_b32 v57, s34\nv_mov_b32 v58, s35\nv_mov_b32 v59, s36\n"
	"v_mov_b32 v60, s37\nv_mov_b32 v61, s38\nv_mov_b32 v62, s39\nv_mov_b32 v63, s40\nv_mov_b32 v64, s41\n"
	"v_mov_b32 v65, s42\nv_mov_b32 v66, s43\nv_mov_b32 v67, s44\nv_mov_b32 v68, s45\nv_mov_b32 v69, s46\n"
	"v_mov_b32 v70, s47\nv_mov_b32 v71, s49\n";

static void ref_sbuf(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)lane;
	const uint32_t *m = c->in;
	unsigned o = 0;
	out[o++] = m[1];                               /* b32 at 0x4 */
	out[o++] = m[15], out[o++] = 0;                /* b64 at 0x3c: the second dword is past 0x40 */
	out[o++] = m[14], out[o++] = m[15];            /* b128 at 0x38 */
	out[o++] = 0, out[o++] = 0;
	for (unsigned i = 0; i < 8; i++)
		out[o++] = m[i];                       /* b256 at 0 */
	for (unsigned i = 0; i < 16; i++)
		out[o++] = i < 8 ? m[8 + i] : 0;       /* b512 at soffset 0x20 */
	out[o++] = m[14];                              /* s_load_dword at base + 0x40, offset -0x8 */
}

static const char sbuf_body[] =
	"s_mov_b32 s8, s4\ns_and_b32 s9, s5, 0xffff\ns_mov_b32 s10, 0x40\ns_mov_b32 s11, 0\n"
	"s_buffer_load_dword s16, s[8:11], 0x4\ns_buffer_load_dwordx2 s[18:19], s[8:11], 0x3c\n"
	"s_buffer_load_dwordx4 s[20:23], s[8:11], 0x38\ns_buffer_load_dwordx8 s[24:31], s[8:11], 0x0\n"
	"s_mov_b32 s48, 0x20\ns_buffer_load_dwordx16 s[32:47], s[8:11], s48\n"
	"s_add_u32 s50, s4, 0x40\ns_addc_u32 s51, s5, 0\ns_load_dword s49, s[50:51], -0x8\ns_waitcnt lgkmcnt(0)\n"
	"v_mov_b32 v40, s16\nv_mov_b32 v41, s18\nv_mov_b32 v42, s19\nv_mov_b32 v43, s20\nv_mov_b32 v44, s21\n"
	"v_mov_b32 v45, s22\nv_mov_b32 v46, s23\nv_mov_b32 v47, s24\nv_mov_b32 v48, s25\nv_mov_b32 v49, s26\n"
	"v_mov_b32 v50, s27\nv_mov_b32 v51, s28\nv_mov_b32 v52, s29\nv_mov_b32 v53, s30\nv_mov_b32 v54, s31\n"
	"v_mov_b32 v55, s32\nv_mov_b32 v56, s33\nv_mov_b32 v57, s34\nv_mov_b32 v58, s35\nv_mov_b32 v59, s36\n"
	"v_mov_b32 v60, s37\nv_mov_b32 v61, s38\nv_mov_b32 v62, s39\nv_mov_b32 v63, s40\nv_mov_b32 v64, s41\n"
	"v_mov_b32 v65, s42\nv_mov_b32 v66, s43\nv_mov_b32 v67, s44\nv_mov_b32 v68, s45\nv_mov_b32 v69, s46\n"
	"v_mov_b32 v70, s47\nv_mov_b32 v71, s49\n";

/* ---- gfx1030's s_memtime / s_memrealtime: a 64-bit clock that does not
 * go backwards and is not zero ---- */
static void ref_memtime(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	(void)c;
	(void)lane;
	out[0] = 0; /* the sign of the second read minus the first */
	out[1] = 0;
	out[2] = 1; /* the first read is not zero */
}

static const char memtime_body[] =
	"s_memtime s[16:17]\ns_memtime s[18:19]\ns_memrealtime s[20:21]\ns_memrealtime s[22:23]\n"
	"s_waitcnt lgkmcnt(0)\n"
	"s_sub_u32 s24, s18, s16\ns_subb_u32 s25, s19, s17\ns_lshr_b32 s25, s25, 31\nv_mov_b32 v40, s25\n"
	"s_sub_u32 s24, s22, s20\ns_subb_u32 s25, s23, s21\ns_lshr_b32 s25, s25, 31\nv_mov_b32 v41, s25\n"
	"s_cmp_lg_u64 s[16:17], 0\ns_cselect_b32 s26, 1, 0\nv_mov_b32 v42, s26\n";

/* ---- gfx1150's f16 scalar arithmetic and the float compares (assembled for
 * gfx1100 with +salu-float, the same encodings).  A, B, C: f16 in the low
 * half (junk above it, which must be ignored); F, G: f32.  An f16 result is
 * checked zero-extended (sem_sfloat.c says why).  Invalid operations
 * (inf - inf) are left out: the sign of the default NaN they make is not
 * pinned down by the pseudocode. ---- */
static uint16_t hbits(uint32_t v) { return (uint16_t)v; }
static bool hnan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
static bool hsnan(uint16_t h) { return hnan(h) && !(h & 0x200); }

static void init_sh(unsigned lane, uint32_t *in, uint32_t *out, unsigned nin, unsigned nout)
{
	xt_init_u(lane, in, out, nin, nout);
	for (unsigned k = 0; k < 3; k++) {
		uint32_t r = xt_rand(lane, k, 11);
		uint16_t h = (uint16_t)((r & 0x8000) | (8 + (r >> 10) % 15) << 10 | (r & 1023));
		in[k] = (in[k] & 0xffff0000u) | h;
	}
	for (unsigned k = 3; k < 5; k++) {
		uint32_t r = xt_rand(lane, k, 12);
		in[k] = xt_f2u(ldexpf(1.0f + (float)(r & 0xffffff) / 16777216.0f, (int)((r >> 24) % 48) - 30) *
			       ((r >> 31) ? -1.0f : 1.0f));
	}
	static const uint32_t e[16][4] = {
		/* A, B (f16), F, G (f32) */
		{ 0x0000, 0x8000, 0x00000000u, 0x80000000u },
		{ 0x8000, 0x0000, 0x80000000u, 0x00000000u },
		{ 0x7e00, 0x3c00, 0x7fc00000u, 0x3f800000u },
		{ 0x3c00, 0xfe00, 0x3f800000u, 0xffc00000u },
		{ 0x7c01, 0x4000, 0x7f800001u, 0x40000000u },
		{ 0x4000, 0xfd00, 0x40000000u, 0xff800100u },
		{ 0x7c00, 0x4000, 0x7f800000u, 0xff800000u },
		{ 0x7bff, 0x7bff, 0x477ff000u, 0x477fef00u }, /* 65520 (ties up to inf; toward zero 65504), 65519 */
		{ 0x0001, 0x8001, 0x33000000u, 0x33400000u }, /* 2^-25, 1.5 * 2^-25 */
		{ 0x3555, 0x3555, 0x3f800800u, 0x3f800c00u }, /* 1 + 2^-12, 1 + 3 * 2^-12 */
		{ 0x4100, 0xc100, 0xbf800c00u, 0x2edbe6ffu }, /* 2.5, -2.5 */
		{ 0x3800, 0xb800, 0xc788b800u, 0x4788b800u }, /* 0.5, -0.5; -70000, 70000 */
		{ 0x3e00, 0xbe00, 0x3f800000u, 0x3f800000u },
		{ 0xb4cd, 0x3c00, 0xbf800000u, 0x7f800000u },
		{ 0x8000, 0xfc00, 0x00000001u, 0x80000001u },
		{ 0x6400, 0x03ff, 0x387fc000u, 0xb87fe000u }, /* f16's largest denormal, ~ */
	};
	if (lane < 16) {
		in[0] = (in[0] & 0xffff0000u) | e[lane][0];
		in[1] = (in[1] & 0xffff0000u) | e[lane][1];
		in[3] = e[lane][2];
		in[4] = e[lane][3];
	}
}

/* An f16 result of arithmetic: a NaN operand's NaN quieted (in order), else
 * the exact value rounded once. */
static uint32_t h_arith(uint16_t a, uint16_t b, uint16_t c, long double v)
{
	if (hnan(a))
		return a | 0x200u;
	if (hnan(b))
		return b | 0x200u;
	if (hnan(c))
		return c | 0x200u;
	return xt_d2h(v);
}

/* s_min_f16 / s_max_f16 as the pseudocode (IEEE mode): signaling NaNs
 * first, quieted; a quiet NaN loses to the other operand; -0 < +0. */
static uint32_t h_minmax(uint16_t a, uint16_t b, bool max)
{
	if (hsnan(a))
		return a | 0x200u;
	if (hsnan(b))
		return b | 0x200u;
	if (hnan(b))
		return a;
	if (hnan(a))
		return b;
	double x = xt_h2d(a), y = xt_h2d(b);
	bool zeros = x == 0 && y == 0;
	bool first = max ? x > y || (zeros && !(a >> 15) && (b >> 15)) : x < y || (zeros && (a >> 15) && !(b >> 15));
	return first ? a : b;
}

/* f32 to f16 toward zero, from the value: the largest-magnitude f16 not
 * above |v|; finite values past 65504 give 65504. */
static uint32_t h_rtz(float f)
{
	if (isnan(f))
		return (signbit(f) ? 0x8000u : 0) | 0x7e00u;
	uint32_t s = signbit(f) ? 0x8000u : 0;
	double a = fabs((double)f);
	if (isinf(a))
		return s | 0x7c00u;
	if (a < ldexp(1, -14))
		return s | (uint32_t)floor(a * ldexp(1, 24));
	int e;
	frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
	e -= 1;
	if (e > 15)
		return s | 0x7bffu;
	return s | (uint32_t)(e + 15) << 10 | (uint32_t)floor((ldexp(a, -e) - 1) * 1024);
}

static uint32_t h_round(uint16_t h, double (*fn)(double))
{
	return hnan(h) ? h | 0x200u : xt_d2h(fn(xt_h2d(h)));
}

/* The 14 compares in the snippet's order: lt eq le gt lg ge o u nge nlg ngt nle neq nlt. */
static uint32_t fcmp_bits(double a, double b)
{
	bool un = isnan(a) || isnan(b);
	bool r[14] = { a < b, a == b, a <= b, a > b, a < b || a > b, a >= b, !un, un,
		       !(a >= b), !(a < b || a > b), !(a > b), !(a <= b), !(a == b), !(a < b) };
	uint32_t m = 0;
	for (unsigned i = 0; i < 14; i++)
		m |= (uint32_t)r[i] << i;
	return m;
}

static float minmaxf(float a, float b, bool max)
{
	uint32_t ua = xt_f2u(a), ub = xt_f2u(b);
	bool sa = isnan(a) && !(ua & 0x400000u), sb = isnan(b) && !(ub & 0x400000u);
	if (sa)
		return xt_u2f(ua | 0x400000u);
	if (sb)
		return xt_u2f(ub | 0x400000u);
	if (isnan(b))
		return a;
	if (isnan(a))
		return b;
	bool zeros = a == 0 && b == 0;
	bool first = max ? a > b || (zeros && !signbit(a) && signbit(b))
			 : a < b || (zeros && signbit(a) && !signbit(b));
	return first ? a : b;
}

static void ref_sh(const struct xt_ctx *c, unsigned lane, uint32_t *out)
{
	const uint32_t *in = lane_in(c, lane);
	uint16_t a = hbits(in[0]), b = hbits(in[1]), d = hbits(in[2]);
	long double x = xt_h2d(a), y = xt_h2d(b), z = xt_h2d(d);
	float f = xt_u2f(in[3]), g = xt_u2f(in[4]);
	out[0] = h_arith(a, b, 0, x + y);
	out[1] = h_arith(a, b, 0, x - y);
	out[2] = h_arith(a, b, 0, x * y);
	out[3] = h_minmax(a, b, false);
	out[4] = h_minmax(a, b, true);
	out[5] = h_arith(a, b, d, fmal(x, y, z));
	out[6] = h_rtz(f) | h_rtz(g) << 16;
	out[7] = isnan(f) ? (signbit(f) ? 0xfe00u : 0x7e00u) : xt_d2h(f);
	out[8] = h_round(a, ceil);
	out[9] = h_round(a, floor);
	out[10] = h_round(a, trunc);
	out[11] = h_round(a, nearbyint);
	out[12] = fcmp_bits(xt_h2d(a), xt_h2d(b));
	out[13] = fcmp_bits(f, g);
	out[14] = xt_f2u(minmaxf(f, g, false));
	out[15] = xt_f2u(minmaxf(f, g, true));
	out[16] = h_arith(a, 0x3800, 0, x * 0.5L);   /* an inline constant is the f16 0.5 */
	out[17] = h_arith(0x4900, a, 0, 10.0L + x);  /* a literal's low half: 10.0 */
}

#define CMP1(op, t, x, y, bit) \
	"s_cmp_" op "_" t " " x ", " y "\ns_cselect_b32 s19, " bit ", 0\ns_or_b32 s18, s18, s19\n"
#define CMPS(t, x, y) \
	"s_mov_b32 s18, 0\n" CMP1("lt", t, x, y, "0x1") CMP1("eq", t, x, y, "0x2") CMP1("le", t, x, y, "0x4") \
	CMP1("gt", t, x, y, "0x8") CMP1("lg", t, x, y, "0x10") CMP1("ge", t, x, y, "0x20") CMP1("o", t, x, y, "0x40") \
	CMP1("u", t, x, y, "0x80") CMP1("nge", t, x, y, "0x100") CMP1("nlg", t, x, y, "0x200") \
	CMP1("ngt", t, x, y, "0x400") CMP1("nle", t, x, y, "0x800") CMP1("neq", t, x, y, "0x1000") \
	CMP1("nlt", t, x, y, "0x2000")

static const char sh_body[] = LOOP_HEAD
	"s_add_f16 s16, s10, s11\nv_writelane_b32 v40, s16, s30\n"
	"s_sub_f16 s16, s10, s11\nv_writelane_b32 v41, s16, s30\n"
	"s_mul_f16 s16, s10, s11\nv_writelane_b32 v42, s16, s30\n"
	"s_min_f16 s16, s10, s11\nv_writelane_b32 v43, s16, s30\n"
	"s_max_f16 s16, s10, s11\nv_writelane_b32 v44, s16, s30\n"
	"s_mov_b32 s16, s12\ns_fmac_f16 s16, s10, s11\nv_writelane_b32 v45, s16, s30\n"
	"s_cvt_pk_rtz_f16_f32 s16, s13, s14\nv_writelane_b32 v46, s16, s30\n"
	"s_cvt_f16_f32 s16, s13\nv_writelane_b32 v47, s16, s30\n"
	"s_ceil_f16 s16, s10\nv_writelane_b32 v48, s16, s30\n"
	"s_floor_f16 s16, s10\nv_writelane_b32 v49, s16, s30\n"
	"s_trunc_f16 s16, s10\nv_writelane_b32 v50, s16, s30\n"
	"s_rndne_f16 s16, s10\nv_writelane_b32 v51, s16, s30\n"
	CMPS("f16", "s10", "s11") "v_writelane_b32 v52, s18, s30\n"
	CMPS("f32", "s13", "s14") "v_writelane_b32 v53, s18, s30\n"
	"s_min_f32 s16, s13, s14\nv_writelane_b32 v54, s16, s30\n"
	"s_max_f32 s16, s13, s14\nv_writelane_b32 v55, s16, s30\n"
	"s_mul_f16 s16, s10, 0.5\nv_writelane_b32 v56, s16, s30\n"
	"s_add_f16 s16, 0x4900, s10\nv_writelane_b32 v57, s16, s30\n"
	LOOP_TAIL;

const struct xt_test xt_tests_salu2[] = {
	{ "salu_movrel", XT_BOTH, movrel_body, NULL, NULL, 5, 15, xt_init_u, ref_movrel, XT_EXACT },
	{ "salu_branch", XT_BOTH, branch_body, NULL, NULL, 5, 1, xt_init_u, ref_branch, XT_EXACT },
	{ "salu_pc", XT_BOTH, pc_body, NULL, NULL, 1, 4, xt_init_u, ref_pc, XT_EXACT },
	{ "salu_hwreg", XT_BOTH, hwreg_body, NULL, NULL, 1, 6, xt_init_u, ref_hwreg, XT_EXACT },
	{ "salu_waits_hints", XT_BOTH, nops10, nops11, NULL, 1, 2, xt_init_u, ref_nops, XT_EXACT },
	{ "salu_endpgm", XT_BOTH, END_HEAD "s_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm\nv_mov_b32 v40, 0\n",
	  END_HEAD "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\ns_endpgm\nv_mov_b32 v40, 0\n", NULL, 1, 2, xt_init_u,
	  ref_endpgm, XT_EXACT },
	{ "salu_endpgm_saved", XT_BOTH, END_HEAD "s_endpgm_saved\n", NULL, NULL, 1, 2, xt_init_u, ref_endpgm,
	  XT_EXACT },
	{ "salu_smem_load", XT_BOTH, sload_body, NULL, NULL, 8, 32, xt_init_u, ref_sload, XT_EXACT },
	{ "salu_smem_buffer", XT_BOTH, sbuf_body, NULL, NULL, 8, 32, xt_init_u, ref_sbuf, XT_EXACT },
	{ "salu_float16", XT_G11, sh_body, NULL, "+salu-float", 5, 18, init_sh, ref_sh, XT_EXACT },
	{ "salu_memtime", XT_G10, memtime_body, NULL, NULL, 1, 3, xt_init_u, ref_memtime, XT_EXACT },
};
const unsigned xt_ntests_salu2 = sizeof xt_tests_salu2 / sizeof xt_tests_salu2[0];

/* ---- s_trap and s_code_end: the wave enters the trap handler, which a
 * dispatch without one ends as a trap (RDC_EXEC_TRAP); v40, stored before,
 * reaches memory and nothing after the instruction runs. ---- */
#define TRAP_HEAD "v_xor_b32 v40, 0x5a5a, v1\nglobal_store_dword v34, v40, s[6:7]\ns_waitcnt vmcnt(0)\n"
#define TRAP_TAIL "v_mov_b32 v40, 0\nglobal_store_dword v34, v40, s[6:7]\ns_waitcnt vmcnt(0)\n"

const struct xt_status_test xt_status_tests_salu[] = {
	{ { "salu_trap", XT_BOTH, TRAP_HEAD "s_trap 0x2\n" TRAP_TAIL, NULL, NULL, 1, 1, xt_init_u, ref_endpgm,
	    XT_EXACT }, RDC_EXEC_TRAP },
	{ { "salu_code_end", XT_BOTH, TRAP_HEAD "s_code_end\n" TRAP_TAIL, NULL, NULL, 1, 1, xt_init_u, ref_endpgm,
	    XT_EXACT }, RDC_EXEC_TRAP },
};
const unsigned xt_nstatus_tests_salu = sizeof xt_status_tests_salu / sizeof xt_status_tests_salu[0];
