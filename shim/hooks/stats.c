/* SPDX-License-Identifier: MIT */
/*
 * stats.c — counts of the work the shim does (bundles deferred to the
 * runtime's unbundling, entry tables read, bytes decompressed, code objects
 * parsed and retargeted, notes decoded again for patches, decisions from
 * the cache), so tests can assert that the work follows the code a program
 * uses, not the code its libraries ship.  Relaxed atomic counters and
 * nothing else (remap.c counts too, and the fuzzers link both);
 * stats_line.c prints them.
 */
#include <stdatomic.h>

#include "shim.h"

static _Atomic uint64_t counts[RDC_ST_COUNT];

void rdc_stat_add(enum rdc_stat s, uint64_t n)
{
	if ((unsigned)s < RDC_ST_COUNT)
		atomic_fetch_add_explicit(&counts[s], n, memory_order_relaxed);
}

uint64_t rdc_stat_get(enum rdc_stat s)
{
	return (unsigned)s < RDC_ST_COUNT ? atomic_load_explicit(&counts[s], memory_order_relaxed) : 0;
}
