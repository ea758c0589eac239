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

#include "exec_harness.h"

#define LOOP_HEAD(n) \
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

static const char movrel_body[] = LOOP_HEAD(5)
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

static const char branch_body[] = LOOP_HEAD(5)
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
	"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xa\ns_getreg_b32 s17, hwreg(HW_REG_MODE, 0, 8)\nv_mov_b32 v43, s17\n"
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

#define END_HEAD "v_xor_b32 v40, 0x5a5a, v1\nv_mov_b32 v41, 7\nglobal_store_dword v34, v40, s[6:7]\ns_waitcnt vmcnt(0)\n"

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

const struct xt_test xt_tests_salu2[] = {
	{ "salu_movrel", XT_BOTH, movrel_body, NULL, NULL, 5, 15, xt_init_u, ref_movrel, XT_EXACT },
	{ "salu_branch", XT_BOTH, branch_body, NULL, NULL, 5, 1, xt_init_u, ref_branch, XT_EXACT },
	{ "salu_pc", XT_BOTH, pc_body, NULL, NULL, 1, 4, xt_init_u, ref_pc, XT_EXACT },
	{ "salu_hwreg", XT_BOTH, hwreg_body, NULL, NULL, 1, 6, xt_init_u, ref_hwreg, XT_EXACT },
	{ "salu_waits_hints", XT_BOTH, nops10, nops11, NULL, 1, 2, xt_init_u, ref_nops, XT_EXACT },
	{ "salu_endpgm", XT_BOTH, END_HEAD "s_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm\nv_mov_b32 v40, 0\n",
	  END_HEAD "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\ns_endpgm\nv_mov_b32 v40, 0\n", NULL, 1, 2, xt_init_u,
	  ref_endpgm, XT_EXACT },
	{ "salu_endpgm_saved", XT_BOTH, END_HEAD "s_endpgm_saved\n", NULL, NULL, 1, 2, xt_init_u, ref_endpgm, XT_EXACT },
	{ "salu_smem_load", XT_BOTH, sload_body, NULL, NULL, 8, 32, xt_init_u, ref_sload, XT_EXACT },
	{ "salu_smem_buffer", XT_BOTH, sbuf_body, NULL, NULL, 8, 32, xt_init_u, ref_sbuf, XT_EXACT },
	{ "salu_memtime", XT_G10, memtime_body, NULL, NULL, 1, 3, xt_init_u, ref_memtime, XT_EXACT },
};
const unsigned xt_ntests_salu2 = sizeof xt_tests_salu2 / sizeof xt_tests_salu2[0];
