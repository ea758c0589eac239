/* SPDX-License-Identifier: MIT */
/*
 * selftest_log.c — which code object a self-test check ran from, read from
 * the shim's JSON log of the check's process (docs/SHIM.md "Log format"):
 * the module loads on device 0, "map" -> "gfx1030 code retargeted to
 * gfx1031", "native" -> "native gfx1030 code", "missing"; counted per
 * distinct wording when a library loads several (rocBLAS, ggml).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selftest.h"
#include "tool_util.h"

/* The string value of "key" in a JSON line (no escapes expected in these
 * values: targets, entry ids, event names). */
static bool jval(const char *line, const char *key, char *out, size_t n)
{
	char pat[48];
	snprintf(pat, sizeof pat, "\"%s\":\"", key);
	const char *p = strstr(line, pat);
	if (!p)
		return false;
	p += strlen(pat);
	size_t len = strcspn(p, "\"");
	snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p);
	return true;
}

void rdc_st_code_from_log(const char *log, bool shim, char *out, size_t n)
{
	if (!shim) {
		snprintf(out, n, "HIP's own choice (the shim is not installed)");
		return;
	}
	FILE *f = fopen(log, "r");
	char what[8][120];
	unsigned cnt[8] = { 0 };
	size_t nw = 0;
	char line[8192];
	while (f && fgets(line, sizeof line, f)) {
		char ev[32], src[48], tgt[40], chosen[40], dev[8] = "";
		if (!jval(line, "event", ev, sizeof ev) || !jval(line, "source", src, sizeof src) ||
		    !jval(line, "target", tgt, sizeof tgt))
			continue;
		const char *d = strstr(line, "\"device\":");
		if (d)
			snprintf(dev, sizeof dev, "%.1s", d + 9);
		if (d && strcmp(dev, "0"))
			continue;
		if (!jval(line, "chosen", chosen, sizeof chosen))
			snprintf(chosen, sizeof chosen, "?");
		char w[120];
		if (!strcmp(ev, "map"))
			snprintf(w, sizeof w, "%s code retargeted to %s", chosen, tgt);
		else if (!strcmp(ev, "native"))
			snprintf(w, sizeof w, "native %s code", chosen);
		else if (!strcmp(ev, "missing"))
			snprintf(w, sizeof w, "no usable code for %s (shim: missing)", tgt);
		else
			continue;
		size_t i = 0;
		while (i < nw && strcmp(what[i], w))
			i++;
		if (i == nw && nw < 8)
			snprintf(what[nw++], sizeof what[0], "%s", w);
		if (i < 8)
			cnt[i]++;
	}
	if (f)
		fclose(f);
	if (!nw) {
		snprintf(out, n, "no module load in the shim's log");
		return;
	}
	struct rdc_sbuf b = { 0 };
	for (size_t i = 0; i < nw; i++) {
		if (cnt[i] > 1 || nw > 1)
			rdc_sb_printf(&b, "%s%s (%u code objects)", i ? "; " : "", what[i], cnt[i]);
		else
			rdc_sb_add(&b, what[i]);
	}
	snprintf(out, n, "%s", b.s ? b.s : "");
	rdc_sb_free(&b);
}
