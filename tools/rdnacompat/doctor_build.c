/* SPDX-License-Identifier: MIT */
/*
 * doctor_build.c — which build to install, and which is installed:
 *
 *  - "build": for each card's target, TheRock's multi-arch package (one
 *    index, a device-<target> extra) and, where documented, the older
 *    per-family index, with the libraries that build leaves out for the
 *    target (tables/builds.tsv, read at run time through tsvtab.c);
 *  - "therock": TheRock layouts found under --root as the other checks find
 *    /opt/rocm and Debian's packages: native packages in /opt/rocm/core-<v>,
 *    `_rocm_sdk_*` packages in Python site-packages (core, libraries-<family>,
 *    device packages rocm_sdk_device_<target>-*.dist-info), and `.kpack/`
 *    directories of per-arch kernel archives (blas_lib_gfx1100.kpack).  The
 *    targets those carry are compared with the cards': a build for another
 *    family is the "wrong index, wrong wheel" case, a warning.
 */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "tool_util.h"
#include "tsvtab.h"

#define MAX_COVER 64

/* RELEASES.md (nightlies); the release channel per ROCm/TheRock#6137. */
static const char multi_index[] = "https://rocm.nightlies.amd.com/whl-multi-arch/";
static const char release_index[] = "https://repo.amd.com/rocm/whl-multi-arch/";

struct layout {
	struct rdc_sbuf found;          /* "; "-joined descriptions */
	size_t n_found;
	char cover[MAX_COVER][24];      /* targets or family patterns ("gfx110X") carried */
	size_t n_cover;
};

static void cover_add(struct layout *l, const char *s, size_t len)
{
	if (!len || len >= sizeof l->cover[0] || l->n_cover == MAX_COVER)
		return;
	for (size_t i = 0; i < l->n_cover; i++)
		if (strlen(l->cover[i]) == len && !strncmp(l->cover[i], s, len))
			return;
	memcpy(l->cover[l->n_cover], s, len);
	l->cover[l->n_cover++][len] = '\0';
}

/* Adds every "gfx<digits/hex/X>" token of `name` to the covered set. */
static void cover_from_name(struct layout *l, const char *name)
{
	for (const char *p = strstr(name, "gfx"); p; p = strstr(p + 3, "gfx")) {
		size_t n = 3;
		while (isxdigit((unsigned char)p[n]) || p[n] == 'X')
			n++;
		if (n >= 6)
			cover_add(l, p, n);
	}
}

/* Does the covered set include `target`?  "gfx110X" covers gfx1100..gfx110f. */
static bool covers(const struct layout *l, const char *target)
{
	for (size_t i = 0; i < l->n_cover; i++) {
		const char *c = l->cover[i];
		size_t n = strlen(c);
		if (n == strlen(target) && !strncmp(c, target, n - (c[n - 1] == 'X')))
			return true;
	}
	return false;
}

static void found(struct layout *l, const char *fmt, const char *what)
{
	rdc_sb_printf(&l->found, "%s", l->n_found ? "; " : "");
	rdc_sb_printf(&l->found, fmt, what);
	l->n_found++;
}

/* Each path matching `pattern` (already rooted); `shown_from` chars of the
 * root are cut when printing. */
static void each_glob(const char *pattern, size_t cut, struct layout *l, const char *fmt, bool kpack)
{
	glob_t g;
	if (glob(pattern, 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *p = g.gl_pathv[i];
		found(l, fmt, p + cut);
		if (!kpack) {
			const char *base = strrchr(p, '/');
			cover_from_name(l, base ? base + 1 : p);
			continue;
		}
		struct rdc_sbuf k = { 0 };
		rdc_sb_printf(&k, "%s/*.kpack", p);
		glob_t kg;
		if (glob(k.s, 0, NULL, &kg) == 0) {
			for (size_t j = 0; j < kg.gl_pathc; j++)
				cover_from_name(l, strrchr(kg.gl_pathv[j], '/') + 1);
			globfree(&kg);
		}
		rdc_sb_free(&k);
	}
	globfree(&g);
}

static void scan_layouts(const struct rdc_sysinfo *si, struct layout *l)
{
	size_t cut = strlen(si->root);
	struct rdc_sbuf sp = { 0 };
	const char *venv = getenv("VIRTUAL_ENV"), *conda = getenv("CONDA_PREFIX");
	if (venv && *venv)
		rdc_sb_printf(&sp, "%s%s/lib/python3*/site-packages\n", si->root, venv);
	if (conda && *conda)
		rdc_sb_printf(&sp, "%s%s/lib/python3*/site-packages\n", si->root, conda);
	rdc_sb_printf(&sp, "%s/.local/lib/python3*/site-packages\n%s/.venv/lib/python3*/site-packages\n"
			   "%s/venv/lib/python3*/site-packages\n", si->home, si->home, si->home);
	static const char *const sys[] = { "/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
					   "/usr/lib/python3/dist-packages", "/opt/conda/lib/python3*/site-packages", NULL };
	for (size_t i = 0; sys[i]; i++)
		rdc_sb_printf(&sp, "%s%s\n", si->root, sys[i]);
	struct rdc_sbuf p = { 0 };
	/* /opt/rocm/core-<version> (TheRock's native packages) and tarball .kpack dirs. */
	rdc_sb_printf(&p, "%s/opt/rocm/core-*", si->root);
	each_glob(p.s, cut, l, "native packages %s", false);
	rdc_sb_free(&p);
	static const char *const kdirs[] = { "/opt/rocm/.kpack", "/opt/rocm/core-*/.kpack", "/opt/rocm-*/.kpack", NULL };
	for (size_t i = 0; kdirs[i]; i++) {
		rdc_sb_printf(&p, "%s%s", si->root, kdirs[i]);
		each_glob(p.s, cut, l, "kernel archives %s", true);
		rdc_sb_free(&p);
	}
	char *save = NULL;
	for (char *dir = strtok_r(sp.s, "\n", &save); dir; dir = strtok_r(NULL, "\n", &save)) {
		rdc_sb_printf(&p, "%s/_rocm_sdk_*", dir);
		each_glob(p.s, cut, l, "Python package %s", false);
		rdc_sb_free(&p);
		rdc_sb_printf(&p, "%s/rocm_sdk_device_gfx*.dist-info", dir);
		each_glob(p.s, cut, l, "device package %s", false);
		rdc_sb_free(&p);
		rdc_sb_printf(&p, "%s/_rocm_sdk_*/.kpack", dir);
		each_glob(p.s, cut, l, "kernel archives %s", true);
		rdc_sb_free(&p);
	}
	rdc_sb_free(&sp);
}

static const char *const cols[] = { "target", "legacy_index", "leaves_out", "sources", NULL };

static void advise(const struct rdc_gpu *g, const struct rdc_tsvtab *t, const struct layout *l,
		   struct rdc_checks *c)
{
	size_t r = t->n;
	for (size_t i = 0; i < t->n && r == t->n; i++)
		if (!strcmp(rdc_tsv_cell(t, i, 0), g->target))
			r = i;
	if (r == t->n) {
		rdc_check_add(c, "build", RDC_LVL_OK, NULL, "%s (%s): tables/builds.tsv lists no TheRock package for it",
			      rdc_card_name(g), g->target);
		return;
	}
	struct rdc_sbuf m = { 0 }, fix = { 0 };
	rdc_sb_printf(&fix, "pip install --index-url %s \"torch[device-%s]\" (ROCm alone: \"rocm[libraries,device-%s]\")",
		      multi_index, g->target, g->target);
	const char *legacy = rdc_tsv_cell(t, r, 1), *out = rdc_tsv_cell(t, r, 2);
	rdc_sb_printf(&m, "%s (%s): the build made for it is TheRock's: %s (released versions: the same with "
		      "--index-url %s)", rdc_card_name(g), g->target, fix.s, release_index);
	if (strcmp(legacy, "-"))
		rdc_sb_printf(&m, ", or the per-family index https://rocm.nightlies.amd.com/v2/%s/", legacy);
	if (strcmp(out, "-")) {
		rdc_sb_printf(&m, "; it leaves out for %s: ", g->target);
		for (const char *s = out; *s; s++)
			rdc_sb_add(&m, *s == ';' ? ", " : (char[2]){ *s, 0 });
		rdc_sb_add(&m, " (no code for the target there: programs that need them run without them, or "
			   "with another build's copy under `rdnacompat run` where that copy has code for a target "
			   "of the card's family)");
	}
	int lvl = RDC_LVL_OK;
	if (l->n_found && !covers(l, g->target)) {
		struct rdc_sbuf have = { 0 };
		for (size_t i = 0; i < l->n_cover; i++)
			rdc_sb_printf(&have, "%s%s", i ? ", " : "", l->cover[i]);
		rdc_sb_printf(&m, "; the TheRock build installed here carries %s, not %s (a package or index for "
			      "another family)", have.len ? have.s : "no target named in its file names", g->target);
		rdc_sb_free(&have);
		lvl = RDC_LVL_WARN;
	}
	rdc_check_add(c, "build", lvl, fix.s, "%s", m.s);
	rdc_sb_free(&m);
	rdc_sb_free(&fix);
}

void rdc_doctor_build(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	struct layout l = { 0 };
	scan_layouts(si, &l);
	if (l.n_found)
		rdc_check_add(c, "therock", RDC_LVL_OK, NULL, "TheRock layout: %s", l.found.s);
	else
		rdc_check_add(c, "therock", RDC_LVL_OK, NULL,
			      "no TheRock layout (/opt/rocm/core-*, _rocm_sdk_* in site-packages, .kpack/ archives)");
	struct rdc_tsvtab t;
	struct rdc_diag d = { 0 };
	if (rdc_tsvtab_load("builds.tsv", cols, &t, &d) != 0) {
		rdc_check_add(c, "build", RDC_LVL_WARN, "reinstall rdnacompat (tables/builds.tsv ships with it)", "%s",
			      d.msg);
		rdc_sb_free(&l.found);
		return;
	}
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		bool seen = !g->target[0];
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(si->gpus[k].target, g->target);
		if (!seen)
			advise(g, &t, &l, c);
	}
	rdc_tsvtab_free(&t);
	rdc_sb_free(&l.found);
}
