/* SPDX-License-Identifier: MIT */
/*
 * stats_line.c — the "stats" line: the work counters of stats.c, once at
 * exit, at debug level, or at info with RDNACOMPAT_STATS=1; nothing from a
 * process that never reached HIP.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

void rdc_stats_log(void)
{
	static _Atomic int done;
	if (!rdc_initialized() || atomic_exchange(&done, 1))
		return;
	if (!rdc_stat_get(RDC_ST_FATBINS) && !rdc_stat_get(RDC_ST_UNBUNDLES) &&
	    !rdc_stat_get(RDC_ST_PARSED) && !rdc_stat_get(RDC_ST_CACHED))
		return;   /* a process that never reached HIP says nothing */
	const char *e = secure_getenv("RDNACOMPAT_STATS");
	enum rdc_level lvl = e && strcmp(e, "1") == 0 ? RDC_LOG_INFO : RDC_LOG_DEBUG;
	struct rdc_kv kv[] = {
		RDC_KV_N("fatbins", rdc_stat_get(RDC_ST_FATBINS)),
		RDC_KV_N("deferred", rdc_stat_get(RDC_ST_DEFERRED)),
		RDC_KV_N("unbundles", rdc_stat_get(RDC_ST_UNBUNDLES)),
		RDC_KV_N("tables_read", rdc_stat_get(RDC_ST_TABLES)),
		RDC_KV_N("bytes_decompressed", rdc_stat_get(RDC_ST_DECOMPRESSED)),
		RDC_KV_N("parsed", rdc_stat_get(RDC_ST_PARSED)),
		RDC_KV_N("retargeted", rdc_stat_get(RDC_ST_RETARGETED)),
		RDC_KV_N("from_cache", rdc_stat_get(RDC_ST_FROM_CACHE)),
		RDC_KV_N("notes_decoded", rdc_stat_get(RDC_ST_NOTES_DECODED)),
		RDC_KV_N("cached", rdc_stat_get(RDC_ST_CACHED)),
		RDC_KV_N("files_opened", rdc_stat_get(RDC_ST_FILES_OPENED)),
		RDC_KV_N("hold_asked", rdc_stat_get(RDC_ST_HOLD_ASKED)),
		RDC_KV_N("hold_stubs", rdc_stat_get(RDC_ST_HOLD_STUBS)),
	};
	rdc_log_event(lvl, "stats", kv, sizeof kv / sizeof kv[0]);
}

__attribute__((destructor)) static void stats_at_exit(void)
{
	rdc_stats_log();
}
