/* SPDX-License-Identifier: MIT */
/*
 * doctor_platform.c — the kernel and firmware under each card against the
 * faults tables/platform.tsv lists (read through tsvtab.c): the running
 * kernel's version, the amdgpu module's cwsr_enable parameter, and the
 * card's MES scheduler firmware version (sysfs fw_version/mes_fw_version,
 * amdgpu_ucode.c FW_VERSION_ATTR, mode 0444; else the MES line of a readable
 * debugfs amdgpu_firmware_info when there is one AMD GPU).  One "platform"
 * line with the facts, then one warning per matching row with its links.
 * Everything is read under --root; nothing is loaded or probed.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "tool_util.h"
#include "tsvtab.h"

static const char *const cols[] = { "id", "targets", "kernel", "condition", "finding", "fix", "sources", NULL };

/* "6.17.9-arch1", "6.18-rc6" -> a comparable number (major<<20 | minor<<10 | patch). */
static bool kver(const char *s, unsigned long *out)
{
	unsigned a, b, c = 0;
	int n = sscanf(s, "%u.%u.%u", &a, &b, &c);
	if (n < 2 || a > 1023 || b > 1023 || c > 1023)
		return false;
	*out = ((unsigned long)a << 20) | ((unsigned long)b << 10) | (n == 3 ? c : 0);
	return true;
}

/* Does kernel version v satisfy every bound of `spec` ("*", "<6.18", ">=6.18,<7.1")? */
static bool kernel_in(unsigned long v, const char *spec)
{
	if (!strcmp(spec, "*"))
		return true;
	char *copy = rdc_xstrdup(spec), *save = NULL;
	bool ok = true;
	for (char *b = strtok_r(copy, ",", &save); b && ok; b = strtok_r(NULL, ",", &save)) {
		bool ge = !strncmp(b, ">=", 2);
		unsigned long w;
		if (!(ge || b[0] == '<') || !kver(b + (ge ? 2 : 1), &w))
			ok = false;
		else
			ok = ge ? v >= w : v < w;
	}
	free(copy);
	return ok;
}

static bool target_in(const char *target, const char *list)
{
	if (!strcmp(list, "*"))
		return true;
	size_t n = strlen(target);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && !strncmp(p, target, n))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* MES firmware version of the card at pci (sysfs), or of the only card
 * (debugfs, root only); -1 unknown. */
static long mes_version(const struct rdc_sysinfo *si, const struct rdc_gpu *g, size_t n_amd)
{
	struct rdc_sbuf p = { 0 };
	rdc_sb_printf(&p, "/sys/bus/pci/devices/%s/fw_version/mes_fw_version", g->pci_addr);
	char *r = rdc_rooted(si->root, p.s);
	char *v = rdc_read_line_file(r);
	free(r);
	rdc_sb_free(&p);
	long out = -1;
	if (v) {
		char *end;
		unsigned long x = strtoul(v, &end, 16);
		if (end != v)
			out = (long)x;
		free(v);
		return out;
	}
	if (n_amd != 1)
		return -1;
	char *pat = rdc_rooted(si->root, "/sys/kernel/debug/dri/*/amdgpu_firmware_info");
	glob_t gl;
	if (glob(pat, 0, NULL, &gl) == 0) {
		for (size_t i = 0; i < gl.gl_pathc && out < 0; i++) {
			char *s = rdc_read_file(gl.gl_pathv[i], 1 << 16, NULL);
			const char *m = s ? strstr(s, "\nMES feature version:") : NULL;
			unsigned feat, fw;
			if (m && sscanf(m + 1, "MES feature version: %u, firmware version: 0x%x", &feat, &fw) == 2)
				out = (long)fw;
			free(s);
		}
		globfree(&gl);
	}
	free(pat);
	return out;
}

static bool condition(const char *cond, int cwsr, long mes)
{
	if (!strcmp(cond, "-"))
		return true;
	if (!strcmp(cond, "cwsr_enable!=0"))
		return cwsr != 0;   /* -1 (unknown) counts: the driver's default is on */
	unsigned long want;
	if (!strncmp(cond, "mes=", 4) && sscanf(cond + 4, "%lx", &want) == 1)
		return mes >= 0 && (unsigned long)mes == want;
	return false;
}

void rdc_doctor_platform(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	if (rdc_doctor_simulated(si) || !si->n_gpus) {
		rdc_check_add(c, "platform", RDC_LVL_OK, NULL, "%s: kernel and firmware not checked",
			      si->n_gpus ? "simulated cards" : "no AMD GPU");
		return;
	}
	unsigned long kv = 0;
	bool have_k = si->kernel && kver(si->kernel, &kv);
	char *pp = rdc_rooted(si->root, "/sys/module/amdgpu/parameters/cwsr_enable");
	char *pv = rdc_read_line_file(pp);
	free(pp);
	int cwsr = pv ? atoi(pv) : si->amdgpu_module ? 1 : -1;
	struct rdc_sbuf facts = { 0 };
	rdc_sb_printf(&facts, "kernel %s; amdgpu cwsr_enable=%s", si->kernel ? si->kernel : "unknown",
		      pv ? pv : si->amdgpu_module ? "(absent: the driver's default, on)" : "(module not loaded)");
	free(pv);
	long mes[RDC_SYS_MAX_GPUS];
	size_t n_amd = 0;
	for (size_t i = 0; i < si->n_gpus; i++)
		n_amd += !si->gpus[i].from_runtime;
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		mes[i] = g->from_runtime ? -1 : mes_version(si, g, n_amd);
		if (mes[i] >= 0)
			rdc_sb_printf(&facts, "; %s: MES firmware 0x%08lx", rdc_card_name(g), (unsigned long)mes[i]);
		else if (!g->from_runtime)
			rdc_sb_printf(&facts, "; %s: MES firmware version not readable", rdc_card_name(g));
	}
	rdc_check_add(c, "platform", RDC_LVL_OK, NULL, "%s", facts.s);
	rdc_sb_free(&facts);
	struct rdc_tsvtab t;
	struct rdc_diag d = { 0 };
	if (rdc_tsvtab_load("platform.tsv", cols, &t, &d) != 0) {
		rdc_check_add(c, "platform", RDC_LVL_WARN, "reinstall rdnacompat (tables/platform.tsv ships with it)",
			      "%s", d.msg);
		return;
	}
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		if (g->from_runtime || !g->target[0])
			continue;
		for (size_t r = 0; r < t.n; r++) {
			const char *kspec = rdc_tsv_cell(&t, r, 2);
			if (!target_in(g->target, rdc_tsv_cell(&t, r, 1)) ||
			    (strcmp(kspec, "*") && (!have_k || !kernel_in(kv, kspec))) ||
			    !condition(rdc_tsv_cell(&t, r, 3), cwsr, mes[i]))
				continue;
			struct rdc_sbuf fix = { 0 };
			rdc_sb_printf(&fix, "%s — %s", rdc_tsv_cell(&t, r, 5), rdc_tsv_cell(&t, r, 6));
			rdc_check_add(c, "platform", RDC_LVL_WARN, fix.s, "%s (%s), kernel %s [%s]: %s", rdc_card_name(g),
				      g->target, si->kernel ? si->kernel : "?", rdc_tsv_cell(&t, r, 0),
				      rdc_tsv_cell(&t, r, 4));
			rdc_sb_free(&fix);
		}
	}
	rdc_tsvtab_free(&t);
}
