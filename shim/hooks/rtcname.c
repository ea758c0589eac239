/* SPDX-License-Identifier: MIT */
/*
 * rtcname.c — map mode: a library that compiles device code at run time for
 * the name it is told (tables/rtc-names.tsv: MIOpen) and carries no device
 * code of its own for codename.c to follow is told the most preferred
 * target of the compat table that its sources know, when they do not know
 * the device's own name.  MIOpen told "gfx1032" builds its CK reductions
 * with -DCK_AMD_GPU_GFX1032, which its CK config refuses ("No
 * CK_AMD_GPU_GFX* macro defined"); told gfx1030 it builds gfx1030 code,
 * which hipModuleLoadData hands the shim to map and check like any other.
 * The table is parsed once; a bad table is logged and changes nothing.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rdnacompat/rtcnames.h"
#include "shim.h"

extern const char rdc_rtcnames_tsv[];

static struct rdc_rtcnames table;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	struct rdc_diag d = { 0 };
	if (rdc_rtcnames_parse(rdc_rtcnames_tsv, strlen(rdc_rtcnames_tsv), &table, &d) != 0) {
		struct rdc_kv kv[] = { RDC_KV_S("table", "rtc-names.tsv"), RDC_KV_S("error", d.msg) };
		rdc_log_event(RDC_LOG_WARN, "tables", kv, sizeof kv / sizeof kv[0]);
	}
}

const char *rdc_rtcname(const struct rdc_device *dev, const char *object_path, char *proc, size_t n,
			const char **why)
{
	pthread_once(&once, load);
	const struct rdc_rtcname *r = rdc_rtcnames_find(&table, object_path);
	if (!r || !dev || n == 0 || rdc_rtcname_knows(r, dev->target.proc))
		return NULL;
	const struct rdc_tables *t = rdc_tables();
	unsigned best = ~0u;
	proc[0] = 0;
	for (size_t i = 0; t && i < t->n_edges; i++) {
		const struct rdc_compat_edge *e = &t->edges[i];
		if (strcmp(e->device, dev->target.proc) != 0 || !rdc_edge_usable(e) ||
		    !rdc_rtcname_knows(r, e->code) || e->rank >= best)
			continue;
		best = e->rank;
		snprintf(proc, n, "%s", e->code);
	}
	if (!proc[0])
		return NULL;
	*why = "it compiles device code at run time for the name it is told, and its sources know the "
	       "compat table's most preferred target, not the device's (tables/rtc-names.tsv)";
	return proc;
}
