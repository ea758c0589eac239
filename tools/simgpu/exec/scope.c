/* SPDX-License-Identifier: MIT */
/*
 * scope.c — the instructions the engine leaves out on purpose, with the
 * reason: graphics-only work (exports, interpolation, the image
 * instructions sem_image.c does not execute, the parameter/position caches), global wave sync (GWS),
 * ordered append counters, halts, and what only a trap handler or the
 * debugger runs.  A compute kernel that meets one fails the dispatch with
 * a line naming the instruction and this reason (dispatch.c); the opcode
 * table (tests/exec, `rdnacompat sim --coverage`) counts them apart from
 * the instructions not executed yet.
 */
#include <string.h>

#include "wave.h"

static const struct { const char *prefix; const char *why; } scope[] = {
	{ "image_", "of the image instructions the engine executes loads, stores, sampling (plain, _l, _lz, _b), "
		    "gather4 (plain, _l, _lz) and get_resinfo; atomics, MSAA loads, derivatives, depth compares, "
		    "offsets and ray tracing are left out" },
	{ "exp", "exports feed the graphics pipeline" },
	{ "v_interp_", "interpolation reads graphics pipeline parameters" },
	{ "lds_param_load", "interpolation reads graphics pipeline parameters" },
	{ "lds_direct_load", "LDS direct loads feed interpolation" },
	{ "ds_gws_", "global wave sync (GWS) needs a device-wide resource the runtime allocates for cooperative launches" },
	{ "ds_ordered_count", "ordered count (GDS) serves graphics ordering" },
	{ "ds_add_gs_reg_rtn", "geometry-shader registers" },
	{ "ds_sub_gs_reg_rtn", "geometry-shader registers" },
	{ "s_sethalt", "halts the wave for the debugger" },
	{ "s_sendmsghalt", "halts the wave for the debugger" },
	{ "s_setkill", "a debugger control" },
	{ "s_rfe_b64", "returns from a trap handler" },
	{ "s_cbranch_cdbg", "branches on debugger state" },
	{ "s_endpgm_ordered_ps_done", "pixel-shader ordering" },
	{ "s_incperflevel", "performance-counter control" },
	{ "s_decperflevel", "performance-counter control" },
	{ "s_ttracedata", "thread-trace data" },
	{ "s_atc_probe", "address-translation-cache probes (no effect without ATS)" },
	{ "s_subvector_loop_", "subvector loops split a wave64 for graphics" },
	{ "ds_bvh_stack_rtn_b32", "ray-tracing BVH stacks" },
};

const char *rdc_exec_scope(uint16_t op)
{
	if (!op || op >= RDC_OP_COUNT)
		return NULL;
	const char *n = rdc_op_name[op];
	if (rdc_sem_image(op))
		return NULL; /* executed (sem_image.c) */
	for (size_t i = 0; i < sizeof scope / sizeof scope[0]; i++)
		if (!strncmp(n, scope[i].prefix, strlen(scope[i].prefix)))
			return scope[i].why;
	return NULL;
}
