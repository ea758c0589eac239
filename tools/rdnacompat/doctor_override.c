/* SPDX-License-Identifier: MIT */
/*
 * doctor_override.c — the "stale override" checks of `rdnacompat doctor`:
 * HSA_OVERRIDE_GFX_VERSION and its per-node form HSA_OVERRIDE_GFX_VERSION_<n>
 * (the thunk reads "HSA_OVERRIDE_GFX_VERSION_%d" with the KFD node id first,
 * then the global one: ROCR-Runtime libhsakmt/src/topology.c,
 * topology_sysfs_get_node_props), in this process's environment and in the
 * shell start-up files that set it for every later program (~/.bashrc,
 * ~/.profile, ~/.bash_profile, ~/.zshrc, /etc/environment, /etc/bash.bashrc,
 * /etc/profile.d/NAME.sh, read under --root with the safe open of
 * rdc_read_file).  For each card it names: another generation (fail),
 * another family of the same generation (RDNA3 vs RDNA3.5: warn), a card
 * ROCm ships code for (its own code taken away: warn), or a lie the tables
 * call compatible or not.  Threads: ROCm/legacy-rocm-build#5238 (a forgotten
 * global override turned an MI210 into gfx1030), #5696 (a .bashrc override
 * on a gfx1151), #5069 (per-node form).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "tool_util.h"

extern char **environ;

static const char shim_does[] =
	"use `rdnacompat run -- CMD` instead, which keeps each card's real target and maps, per device and per "
	"code object, only the code that lacks it (checking each kernel's registers and LDS against the real card)";

static bool preload_has_shim(void)
{
	const char *p = getenv("LD_PRELOAD");
	return p && strstr(p, "librdnacompat");
}

static size_t distinct_targets(const struct rdc_sysinfo *si)
{
	size_t n = 0;
	for (size_t i = 0; i < si->n_gpus; i++) {
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(si->gpus[k].target, si->gpus[i].target);
		n += !seen && si->gpus[i].target[0];
	}
	return n;
}

static bool edge_exists(const struct rdc_tables *t, const char *dev, const char *code)
{
	for (size_t i = 0; t && i < t->n_edges; i++)
		if (!strcmp(t->edges[i].device, dev) && !strcmp(t->edges[i].code, code))
			return true;
	return false;
}

static const char *family_of(const struct rdc_tables *t, const char *proc)
{
	const struct rdc_isa *i = t ? rdc_isa_find(t, proc) : NULL;
	return i && i->family ? i->family : NULL;
}

/* What an override to `proc` (major `maj`) does to card g: appends
 * "; NAME (TARGET) ..." to b and returns the level it deserves (ok when
 * the card already is `proc`). */
static int judge(const struct rdc_tables *t, const struct rdc_gpu *g, const char *proc, unsigned maj,
		 struct rdc_sbuf *b)
{
	unsigned gm, gn, gs;
	if (!g->target[0] || !strcmp(g->target, proc))
		return RDC_LVL_OK;
	if (rdc_proc_to_version(g->target, &gm, &gn, &gs) == 0 && gm != maj) {
		rdc_sb_printf(b, "; %s (%s) is another family and generation: expect HSA_STATUS_ERROR_INVALID_ISA, "
			      "memory access faults or GPU hangs", rdc_card_name(g), g->target);
		return RDC_LVL_FAIL;
	}
	const char *fd = family_of(t, g->target), *fc = family_of(t, proc);
	if (fd && fc && strcmp(fd, fc)) {
		rdc_sb_printf(b, "; %s (%s, %s) is told it is %s, another family (%s)%s", rdc_card_name(g),
			      g->target, fd, proc, fc,
			      edge_exists(t, g->target, proc) ? "" : ": no compatibility edge in tables/compat.tsv");
		return RDC_LVL_WARN;
	}
	if (g->card && (g->card->status == RDC_STATUS_OFFICIAL || g->card->status == RDC_STATUS_UNOFFICIAL)) {
		rdc_sb_printf(b, "; %s (%s) runs natively (%s): the override only takes its own code away",
			      rdc_card_name(g), g->target, rdc_card_status_name(g->card->status));
		return RDC_LVL_WARN;
	}
	rdc_sb_printf(b, "; %s (%s) %s", rdc_card_name(g), g->target,
		      edge_exists(t, g->target, proc) ? "is lied about (compatible per tables/compat.tsv)"
						      : "is lied about (no compatibility edge in tables/compat.tsv)");
	return RDC_LVL_WARN;
}

static bool per_node_known(const struct rdc_sysinfo *si, bool *old)
{
	unsigned vm, vn;
	bool have = si->rocm_version && rdc_version_mm(si->rocm_version, &vm, &vn);
	*old = have && (vm < 6 || (vm == 6 && vn < 3));
	return have && !*old;
}

static void check_global(const struct rdc_sysinfo *si, const struct rdc_tables *t, const char *v,
			 struct rdc_checks *c)
{
	bool shim = preload_has_shim();
	unsigned maj, min, step;
	struct rdc_diag d;
	char proc[RDC_PROC_MAX];
	if (rdc_parse_gfx_override(v, &maj, &min, &step, &d) != 0 ||
	    rdc_proc_from_version(maj, min, step, proc, sizeof proc) != 0) {
		rdc_check_add(c, "override", RDC_LVL_FAIL,
			      "unset HSA_OVERRIDE_GFX_VERSION or write it as major.minor.stepping in decimal (gfx1030 = 10.3.0, gfx90a = 9.0.10)",
			      "HSA_OVERRIDE_GFX_VERSION=%s is malformed: the thunk fails the whole GPU node and HSA init reports no devices",
			      v);
		return;
	}
	struct rdc_sbuf b = { 0 };
	int lvl = RDC_LVL_WARN;
	rdc_sb_printf(&b, "HSA_OVERRIDE_GFX_VERSION=%s makes every GPU report %s", v, proc);
	for (size_t i = 0; i < si->n_gpus; i++) {
		int l = judge(t, &si->gpus[i], proc, maj, &b);
		lvl = l > lvl ? l : lvl;
	}
	for (size_t i = 0; i < si->n_gpus; i++)
		if (distinct_targets(si) > 1 && si->gpus[i].card && si->gpus[i].card->status == RDC_STATUS_OFFICIAL &&
		    strcmp(si->gpus[i].target, proc)) {
			rdc_sb_printf(&b, "; on this mixed machine the supported %s loses its native code",
				      rdc_card_name(&si->gpus[i]));
			break;
		}
	if (shim)
		rdc_sb_add(&b, "; with the shim preloaded the shim sees the overridden identity, not the real one");
	bool old;
	struct rdc_sbuf fix = { 0 };
	if (shim)
		rdc_sb_printf(&fix, "unset HSA_OVERRIDE_GFX_VERSION: %s", shim_does);
	else if (per_node_known(si, &old))
		rdc_sb_printf(&fix, "unset it; %s (or, for one card only, the per-node HSA_OVERRIDE_GFX_VERSION_<KFD node>)",
			      shim_does);
	else
		rdc_sb_printf(&fix, "unset it; %s", shim_does);
	rdc_check_add(c, "override", lvl, fix.s, "%s", rdc_sb_str(&b));
	rdc_sb_free(&fix);
	rdc_sb_free(&b);
}

static const struct rdc_gpu *gpu_of_node(const struct rdc_sysinfo *si, long node)
{
	for (size_t i = 0; i < si->n_gpus; i++) {
		int k = si->gpus[i].kfd_node;
		if (k >= 0 && si->nodes[k].id == node)
			return &si->gpus[i];
	}
	return NULL;
}

/* HSA_OVERRIDE_GFX_VERSION_<KFD node id>=VALUE (name is "HSA_..._<n>=VALUE"). */
static void check_node(const struct rdc_sysinfo *si, const struct rdc_tables *t, const char *env,
		       struct rdc_checks *c)
{
	static const char pfx[] = "HSA_OVERRIDE_GFX_VERSION_";
	const char *num = env + sizeof pfx - 1;
	char *end;
	long node = strtol(num, &end, 10);
	const char *val = strchr(env, '=');
	val = val ? val + 1 : "";
	if (end == num || *end != '=') {
		rdc_check_add(c, "override", RDC_LVL_WARN,
			      "the suffix must be a KFD topology node id, e.g. HSA_OVERRIDE_GFX_VERSION_1",
			      "%.*s is not a per-node override name", (int)(end - env), env);
		return;
	}
	const struct rdc_kfd_node *n = NULL;
	for (size_t i = 0; i < si->n_nodes; i++)
		if (si->nodes[i].id == node)
			n = &si->nodes[i];
	int first_gpu = -1;
	for (size_t i = 0; i < si->n_nodes && first_gpu < 0; i++)
		if (si->nodes[i].gfx_target_version)
			first_gpu = si->nodes[i].id;
	char fix[200];
	snprintf(fix, sizeof fix,
		 "KFD node ids count CPU nodes: the first GPU here is node %d (HSA_OVERRIDE_GFX_VERSION_%d), not HIP device numbering",
		 first_gpu, first_gpu);
	if (!n || !n->gfx_target_version) {
		rdc_check_add(c, "override", RDC_LVL_WARN, fix, "HSA_OVERRIDE_GFX_VERSION_%ld=%s names %s, so it changes nothing",
			      node, val, n ? "a CPU node" : "no KFD node");
		return;
	}
	bool old;
	if (!per_node_known(si, &old) && old) {
		rdc_check_add(c, "override", RDC_LVL_WARN,
			      "the per-node form needs a newer ROCm (it appeared after 6.2); use `rdnacompat run -- CMD`",
			      "HSA_OVERRIDE_GFX_VERSION_%ld=%s (node %ld is %s) is ignored by ROCm %s", node, val, node,
			      n->target, si->rocm_version);
		return;
	}
	struct rdc_sbuf b = { 0 };
	int lvl = RDC_LVL_WARN;
	unsigned maj, min, step;
	struct rdc_diag d;
	char proc[RDC_PROC_MAX];
	const struct rdc_gpu *g = gpu_of_node(si, node);
	rdc_sb_printf(&b, "HSA_OVERRIDE_GFX_VERSION_%ld=%s rewrites node %ld (%s) only", node, val, node, n->target);
	if (rdc_parse_gfx_override(val, &maj, &min, &step, &d) != 0 ||
	    rdc_proc_from_version(maj, min, step, proc, sizeof proc) != 0) {
		rdc_sb_add(&b, "; the value is malformed: the thunk fails this GPU node");
		lvl = RDC_LVL_FAIL;
	} else if (g) {
		int l = judge(t, g, proc, maj, &b);
		lvl = l > lvl ? l : lvl;
	}
	struct rdc_sbuf f = { 0 };
	rdc_sb_printf(&f, "prefer it unset and %s", shim_does);
	rdc_check_add(c, "override", lvl, f.s, "%s", b.s);
	rdc_sb_free(&f);
	rdc_sb_free(&b);
}

/* ---- shell start-up files ------------------------------------------------------- */

/* An assignment of HSA_OVERRIDE_GFX_VERSION[_n] on `line` (sh, bash, zsh
 * syntax: [export ]NAME=VALUE, and /etc/environment's NAME="VALUE"):
 * copies "NAME=VALUE" to out and returns true. */
static bool rc_assignment(const char *line, char *out, size_t n)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#')
		return false;
	if (!strncmp(p, "export", 6) && (p[6] == ' ' || p[6] == '\t')) {
		p += 6;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	static const char name[] = "HSA_OVERRIDE_GFX_VERSION";
	if (strncmp(p, name, sizeof name - 1))
		return false;
	const char *q = p + sizeof name - 1;
	if (*q == '_')
		for (q++; *q >= '0' && *q <= '9'; q++)
			;
	if (*q != '=')
		return false;
	size_t nl = (size_t)(q - p);
	q++;
	char quote = (*q == '"' || *q == '\'') ? *q++ : 0;
	size_t vl = quote ? strcspn(q, quote == '"' ? "\"" : "'") : strcspn(q, " \t;#");
	snprintf(out, n, "%.*s=%.*s", (int)nl, p, (int)vl, q);
	return true;
}

/* What assignment a ("NAME=VALUE") does to the cards it reaches: appends
 * the judgement to b, returns the level (at least warn). */
static int judge_rc(const struct rdc_sysinfo *si, const struct rdc_tables *t, const char *a, struct rdc_sbuf *b)
{
	const char *val = strchr(a, '=') + 1;
	long node = -1;
	if (a[24] == '_')
		node = strtol(a + 25, NULL, 10);
	unsigned maj, min, step;
	struct rdc_diag d;
	char proc[RDC_PROC_MAX];
	if (rdc_parse_gfx_override(val, &maj, &min, &step, &d) != 0 ||
	    rdc_proc_from_version(maj, min, step, proc, sizeof proc) != 0) {
		rdc_sb_add(b, " (malformed: the thunk fails the GPU node)");
		return RDC_LVL_FAIL;
	}
	int lvl = RDC_LVL_WARN;
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		if (node >= 0 && (g->kfd_node < 0 || si->nodes[g->kfd_node].id != node))
			continue;
		int l = judge(t, g, proc, maj, b);
		lvl = l > lvl ? l : lvl;
	}
	return lvl;
}

static void scan_rc(const struct rdc_sysinfo *si, const struct rdc_tables *t, const char *path, const char *shown,
		    struct rdc_sbuf *hits, size_t *n, int *lvl)
{
	char *s = rdc_read_file(path, 1u << 20, NULL);
	if (!s)
		return;
	unsigned ln = 0;
	for (char *line = s, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ln++;
		char a[128];
		if (!rc_assignment(line, a, sizeof a))
			continue;
		rdc_sb_printf(hits, "%s%s:%u sets %s", *n ? ". " : "", shown, ln, a);
		int l = judge_rc(si, t, a, hits);
		*lvl = l > *lvl ? l : *lvl;
		(*n)++;
	}
	free(s);
}

static void check_rc_files(const struct rdc_sysinfo *si, const struct rdc_tables *t, struct rdc_checks *c)
{
	static const char *const home_files[] = { ".bashrc", ".profile", ".bash_profile", ".zshrc", ".zprofile", NULL };
	static const char *const etc_files[] = { "/etc/environment", "/etc/bash.bashrc", "/etc/profile", NULL };
	struct rdc_sbuf hits = { 0 };
	size_t n = 0;
	int lvl = RDC_LVL_WARN;
	for (size_t i = 0; home_files[i]; i++) {
		struct rdc_sbuf p = { 0 }, shown = { 0 };
		rdc_sb_printf(&p, "%s/%s", si->home, home_files[i]);
		rdc_sb_printf(&shown, "~/%s", home_files[i]);
		scan_rc(si, t, p.s, shown.s, &hits, &n, &lvl);
		rdc_sb_free(&p);
		rdc_sb_free(&shown);
	}
	for (size_t i = 0; etc_files[i]; i++) {
		char *p = rdc_rooted(si->root, etc_files[i]);
		scan_rc(si, t, p, etc_files[i], &hits, &n, &lvl);
		free(p);
	}
	char *pat = rdc_rooted(si->root, "/etc/profile.d/*.sh");
	glob_t g;
	if (glob(pat, 0, NULL, &g) == 0) {
		size_t rl = strlen(si->root);
		for (size_t i = 0; i < g.gl_pathc; i++)
			scan_rc(si, t, g.gl_pathv[i], g.gl_pathv[i] + rl, &hits, &n, &lvl);
		globfree(&g);
	}
	free(pat);
	if (n) {
		struct rdc_sbuf fix = { 0 };
		rdc_sb_printf(&fix, "delete the line%s and open a new shell; for the programs that needed it, %s",
			      n == 1 ? "" : "s", shim_does);
		rdc_check_add(c, "override-startup", lvl, fix.s,
			      "%s. Every program started from a shell gets this override, on every card, long after it was "
			      "needed (a forgotten global override is the usual cause of faults on the card it was not meant for)",
			      hits.s);
		rdc_sb_free(&fix);
	} else {
		rdc_check_add(c, "override-startup", RDC_LVL_OK, NULL,
			      "no shell start-up file sets HSA_OVERRIDE_GFX_VERSION (~/.bashrc, ~/.profile, ~/.bash_profile, "
			      "~/.zshrc, ~/.zprofile, /etc/environment, /etc/bash.bashrc, /etc/profile, /etc/profile.d/*.sh)");
	}
	rdc_sb_free(&hits);
}

void rdc_doctor_override(const struct rdc_sysinfo *si, const struct rdc_tables *t, struct rdc_checks *c)
{
	const char *v = getenv("HSA_OVERRIDE_GFX_VERSION");
	if (v)
		check_global(si, t, v, c);
	bool any = v != NULL;
	static const char pfx[] = "HSA_OVERRIDE_GFX_VERSION_";
	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, pfx, sizeof pfx - 1)) {
			any = true;
			check_node(si, t, *e, c);
		}
	if (!any)
		rdc_check_add(c, "override", RDC_LVL_OK, NULL,
			      "HSA_OVERRIDE_GFX_VERSION not set: GPUs report their real targets");
	check_rc_files(si, t, c);
}
