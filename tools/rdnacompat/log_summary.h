/* SPDX-License-Identifier: MIT */
/*
 * log_summary.h — reads a shim log (docs/SHIM.md: text lines
 * "rdnacompat[PID]: LEVEL: EVENT: k=v ..." or JSON lines
 * {"pid":..,"level":..,"event":..,...}) and sums it up per library: which
 * devices the shim saw, what it mapped, refused, found missing, spoofed,
 * redirected or routed, and the warnings.  Used by `explain --log`,
 * `explain -- CMD` and `report`.
 *
 * Events are classified by name, as shim/hooks logs them (decide.c,
 * hook_hsa.c, devices.c): "device"; "native"; "map" (mapped; a "verdict" of
 * missing counts as missing); "audit" (audit mode: would be mapped);
 * "refused" (a kernel failed the per-kernel check); "missing"; "spoof";
 * "redirect"; "route"/"fallback" (routed, for when the shim logs them); a
 * free-text warning "refused: ..." counts as refused.  Names containing
 * these words also match, so a renamed event still lands somewhere sensible.
 * The library is the "lib" key (else "library", "caller", else
 * "(process)").  Any other warn/error line is kept as a warning.
 */
#ifndef RDC_TOOL_LOG_SUMMARY_H
#define RDC_TOOL_LOG_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rdnacompat/error.h"

enum rdc_log_cat {
	RDC_CAT_DEVICE = 0, RDC_CAT_NATIVE, RDC_CAT_MAPPED, RDC_CAT_AUDIT, RDC_CAT_REFUSED,
	RDC_CAT_MISSING, RDC_CAT_SPOOFED, RDC_CAT_REDIRECTED, RDC_CAT_ROUTED, RDC_CAT_WARNING, RDC_CAT_N
};

struct rdc_log_item {
	char *text;                /* "k=v k=v" without pid/level/event/lib */
	unsigned count;
};

struct rdc_log_lib {
	char *name;
	size_t n[RDC_CAT_N];       /* events per category (with repeats) */
	size_t n_items[RDC_CAT_N];
	struct rdc_log_item *items[RDC_CAT_N]; /* distinct details */
	/* The same events grouped by what was decided, without per-bundle
	 * detail ("gfx1030 -> gfx1031", "check=vgpr"): what a report lists. */
	size_t n_groups[RDC_CAT_N];
	struct rdc_log_item *groups[RDC_CAT_N];
	unsigned long kernels[RDC_CAT_N]; /* sum of "kernels" values */
};

struct rdc_log_summary {
	bool json;                 /* the log was JSON lines */
	size_t n_lines, n_events, n_unparsed;
	size_t n_libs;
	struct rdc_log_lib *libs;
	char *mode;                /* from a "device" event's mode, if any */
	/* The shim's "no compatible GPU code" block (lines "rdnacompat: ..."
	 * without a pid, docs/SHIM.md), prefix removed, one string. */
	char *diagnosis;
};

/* Read `path`.  Errors: RDC_E_IO (cannot read).  Unparseable lines are
 * counted, not fatal. */
int rdc_log_summarize(const char *path, struct rdc_log_summary *s, struct rdc_diag *d);
void rdc_log_summary_free(struct rdc_log_summary *s);

/* Human summary (with what would fix the rest) or one JSON object. */
void rdc_log_summary_print(FILE *f, const struct rdc_log_summary *s, bool json);
/* The JSON object as a value inside a document being written. */
struct rdc_json;
void rdc_log_summary_json(struct rdc_json *j, const struct rdc_log_summary *s);

#endif
