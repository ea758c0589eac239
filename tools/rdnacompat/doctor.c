/* SPDX-License-Identifier: MIT */
/*
 * doctor.c — the checks behind `rdnacompat doctor` (see doctor.h).  Each
 * check reads facts gathered by sysinfo.c plus the process environment and
 * adds one line: what was found and, when it is not ok, how to fix it.
 * Sections: helpers, GPUs and KFD, device access, versions, environment
 * (visible devices, paths), MIOpen cache, the shim.  Other checks live in
 * their own files: HSA_OVERRIDE_GFX_VERSION (doctor_override.c), the build
 * to install and TheRock layouts (doctor_build.c), kernel and firmware
 * faults (doctor_platform.c), peer access between GPUs (doctor_peer.c).
 */
#include "doctor.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <pwd.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/fileopen.h"
#include "tool_util.h"

extern char **environ;

/* ---- helpers -------------------------------------------------------------- */

void rdc_check_add(struct rdc_checks *c, const char *id, int level, const char *fix, const char *fmt, ...)
{
	c->v = rdc_xrealloc(c->v, (c->n + 1) * sizeof *c->v);
	struct rdc_check *k = &c->v[c->n++];
	memset(k, 0, sizeof *k);
	snprintf(k->id, sizeof k->id, "%s", id);
	k->level = level;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&k->msg, fmt, ap) < 0)
		k->msg = rdc_xstrdup("?");
	va_end(ap);
	k->fix = level != RDC_LVL_OK && fix ? rdc_xstrdup(fix) : NULL;
}

const char *rdc_level_name(int level)
{
	return level == RDC_LVL_OK ? "ok" : level == RDC_LVL_WARN ? "warn" : "fail";
}

void rdc_checks_free(struct rdc_checks *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].msg);
		free(c->v[i].fix);
	}
	free(c->v);
	memset(c, 0, sizeof *c);
}

int rdc_doctor_exit(const struct rdc_checks *c)
{
	if (c->no_gpu)
		return 3;
	int worst = 0;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].level > worst)
			worst = c->v[i].level;
	return worst;
}

const char *rdc_card_name(const struct rdc_gpu *g)
{
	return g->card && g->card->name ? g->card->name : "unknown AMD GPU";
}

/* ---- GPUs and KFD ---------------------------------------------------------- */

/* Every GPU is a simulated card: under `rdnacompat sim`, found in the
 * simulator's KFD topology or reported by the runtime, none on the PCI bus. */
bool rdc_doctor_simulated(const struct rdc_sysinfo *si)
{
	const char *sim = getenv("RDNACOMPAT_SIM_GPUS");
	if (!si->n_gpus || !sim || !*sim)
		return false;
	for (size_t i = 0; i < si->n_gpus; i++)
		if (!si->gpus[i].from_runtime)
			return false;
	return true;
}

static void check_gpus(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	if (si->n_gpus == 0) {
		c->no_gpu = true;
		const char *sim = getenv("RDNACOMPAT_SIM_GPUS");
		if (sim && *sim)   /* already inside `rdnacompat sim`: no advice to go there */
			rdc_check_add(c, "gpu", RDC_LVL_FAIL,
			    "running under rdnacompat sim (RDNACOMPAT_SIM_GPUS), yet the runtime reports no "
			    "simulated card: check the --gpu/--card given to `rdnacompat sim`; a ROCm older "
			    "than the simulated target lists no agent for it (5.2 knows no RDNA3)",
			    "no AMD GPU under /sys/bus/pci/devices%s%s", si->runtime_note[0] ? "; " : "",
			    si->runtime_note);
		else
			rdc_check_add(c, "gpu", RDC_LVL_FAIL,
			    "nothing to fix here if this machine has no AMD GPU; to try the tools, use `rdnacompat sim`",
			    "no AMD GPU (vendor 1002, display class) under /sys/bus/pci/devices%s%s",
			    si->runtime_note[0] ? "; " : "", si->runtime_note);
		return;
	}
	bool sim = rdc_doctor_simulated(si);
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		if (g->from_runtime) {
			int st = g->card ? g->card->status : RDC_STATUS_UNSUPPORTED;
			bool kfd = !strcmp(g->source, "kfd");
			const char *where = sim ? (kfd ? "a simulated card (rdnacompat sim), from its KFD topology"
						       : "a simulated card (rdnacompat sim), reported by the ROCm runtime")
						: (kfd ? "from the KFD topology, not seen under /sys/bus/pci/devices"
						       : "reported by the ROCm runtime, not seen under /sys/bus/pci/devices");
			rdc_check_add(c, "gpu", st == RDC_STATUS_OFFICIAL ? RDC_LVL_OK : RDC_LVL_WARN,
			    sim ? "a simulated card: `rdnacompat run --gpu ...` runs programs on it with the shim"
				: "not on ROCm's support list: run programs with `rdnacompat run -- CMD`",
			    "%s [%04x:%04x] at %s: %s, HIP device %d, %s — %s", rdc_card_name(g), g->vendor,
			    g->device, g->pci_addr, g->target[0] ? g->target : "target unknown", g->hip_index,
			    g->card ? rdc_card_status_name(st) : "not in the card table", where);
			continue;
		}
		char rev[16] = "";
		if (g->revision >= 0)
			snprintf(rev, sizeof rev, " rev %02x", (unsigned)g->revision);
		if (!g->card) {
			rdc_check_add(c, "gpu", RDC_LVL_WARN,
			    "run `rdnacompat report` and send it: the card table lacks this PCI id",
			    "%s [%04x:%04x%s] at %s: not in the card table%s%s", rdc_card_name(g), g->vendor,
			    g->device, rev, g->pci_addr, g->target[0] ? "; KFD says " : "", g->target);
			continue;
		}
		int st = g->card->status;
		int lvl = st == RDC_STATUS_OFFICIAL ? RDC_LVL_OK : RDC_LVL_WARN;
		const char *fix = st == RDC_STATUS_UNSUPPORTED
			? "ROCm ships no code for this target: run programs with `rdnacompat run -- CMD` (maps each code object to a compatible one)"
			: "not on ROCm's support list: run programs with `rdnacompat run -- CMD` instead of HSA_OVERRIDE_GFX_VERSION";
		char hip[32] = "";
		if (g->hip_index >= 0)
			snprintf(hip, sizeof hip, ", HIP device %d", g->hip_index);
		rdc_check_add(c, "gpu", lvl, fix, "%s [%04x:%04x%s] at %s: %s (%s%s), %s", rdc_card_name(g), g->vendor,
		    g->device, rev, g->pci_addr, g->target[0] ? g->target : "target unknown",
		    g->card->kind ? g->card->kind : "?", hip, rdc_card_status_name(st));
	}
}

/* The override variable that applies to GPU g: the thunk reads
 * HSA_OVERRIDE_GFX_VERSION_<KFD node> first (ROCm >= 6.3), then the global
 * one.  "NAME=VALUE" into out; false when none is set. */
static bool override_for(const struct rdc_sysinfo *si, const struct rdc_gpu *g, char *out, size_t n)
{
	unsigned vm = 0, vn = 0;
	bool per_node = !si->rocm_version || !rdc_version_mm(si->rocm_version, &vm, &vn) || vm > 6 || (vm == 6 && vn >= 3);
	if (per_node && g->kfd_node >= 0) {
		char name[64];
		snprintf(name, sizeof name, "HSA_OVERRIDE_GFX_VERSION_%d", si->nodes[g->kfd_node].id);
		const char *v = getenv(name);
		if (v) {
			snprintf(out, n, "%s=%s", name, v);
			return true;
		}
	}
	const char *v = getenv("HSA_OVERRIDE_GFX_VERSION");
	if (v)
		snprintf(out, n, "HSA_OVERRIDE_GFX_VERSION=%s", v);
	return v != NULL;
}

/* What the runtime says each card is, against the truth (the PCI id and
 * the KFD topology): asked without the override variables (rt_target) and
 * with this environment (rt_env_target, agents.c). */
static void check_runtime(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	bool asked = false;
	for (size_t i = 0; i < si->n_gpus; i++)
		asked |= si->gpus[i].rt_asked;
	if (si->n_gpus && !asked && si->runtime_note[0])
		rdc_check_add(c, "runtime", RDC_LVL_WARN,
			      "the checks below (access, kfd, versions) say why; `rocminfo` shows the runtime's own error",
			      "the ROCm runtime, asked for its GPU agents without the override variables, failed: %s",
			      si->runtime_note);
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		if (!g->rt_asked || !g->target[0] || !strcmp(g->source, "runtime"))
			continue;
		char ov[160];
		bool have_ov = override_for(si, g, ov, sizeof ov);
		if (g->rt_env_asked && strcmp(g->rt_env_target, g->target)) {
			struct rdc_sbuf fix = { 0 };
			rdc_sb_printf(&fix, "unset %.*s: programs here are told %s; `rdnacompat run -- CMD` keeps the real "
				      "target (%s) and maps only the code that lacks it", (int)strcspn(ov, "="), ov,
				      g->rt_env_target[0] ? g->rt_env_target : "nothing", g->target);
			if (!g->rt_env_target[0])
				rdc_check_add(c, "runtime", RDC_LVL_FAIL, fix.s,
				    "%s (%s): with %s the ROCm runtime lists no agent for it (it reports %s without the override)",
				    rdc_card_name(g), g->target, have_ov ? ov : "this environment",
				    g->rt_target[0] ? g->rt_target : "none either");
			else
				rdc_check_add(c, "runtime", RDC_LVL_WARN, fix.s,
				    "%s: the ROCm runtime reports %s, but the card is %s (KFD gfx_target_version%s): "
				    "%s makes it so; without it the runtime %s%s%s", rdc_card_name(g), g->rt_env_target,
				    g->target, g->kfd_node >= 0 ? "" : ", PCI id", have_ov ? ov : "the environment",
				    g->rt_target[0] ? "reports " : "lists no agent for it (this ROCm release does not know ",
				    g->rt_target[0] ? g->rt_target : g->target, g->rt_target[0] ? "" : ")");
			rdc_sb_free(&fix);
			continue;
		}
		if (!g->rt_target[0]) {
			rdc_check_add(c, "runtime", RDC_LVL_WARN,
			    "this ROCm release does not know the target: use a release that lists it (`rdnacompat cards TARGET`)",
			    "%s (%s): the ROCm runtime lists no agent for it (ROCm %s)", rdc_card_name(g), g->target,
			    si->rocm_version ? si->rocm_version : "of unknown version");
			continue;
		}
		if (strcmp(g->rt_target, g->target)) {
			rdc_check_add(c, "runtime", RDC_LVL_WARN,
			    "send `rdnacompat report`: the runtime and the KFD topology disagree without any override",
			    "%s: the ROCm runtime reports %s without any override, but the KFD topology says %s",
			    rdc_card_name(g), g->rt_target, g->target);
			continue;
		}
		rdc_check_add(c, "runtime", RDC_LVL_OK, NULL, "%s: the ROCm runtime agrees: %s (HIP device %d)%s%s%s",
			      rdc_card_name(g), g->rt_target, g->hip_index, g->rt_env_asked ? "; with " : "",
			      g->rt_env_asked ? (have_ov ? ov : "this environment") : "", g->rt_env_asked ? " as well" : "");
	}
}

static void check_kfd(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	if (rdc_doctor_simulated(si)) {
		rdc_check_add(c, "kfd", RDC_LVL_OK, NULL, "simulated: the runtime reaches the simulator's KFD, not "
		    "this machine's driver (not checked)");
		return;
	}
	if (!si->kfd_present) {
		rdc_check_add(c, "kfd", si->n_gpus ? RDC_LVL_FAIL : RDC_LVL_WARN,
		    "load the amdgpu driver (`sudo modprobe amdgpu`; check `dmesg | grep -i kfd`); a kernel >= 5.x with CONFIG_HSA_AMD is needed",
		    "no KFD topology (/sys/class/kfd/kfd/topology/nodes): ROCm cannot see any GPU%s",
		    si->amdgpu_module ? "" : "; the amdgpu module is not loaded");
		return;
	}
	struct rdc_sbuf b = { 0 };
	size_t gpus = 0;
	for (size_t i = 0; i < si->n_nodes; i++) {
		const struct rdc_kfd_node *n = &si->nodes[i];
		rdc_sb_printf(&b, "%snode %d %s", i ? ", " : "", n->id,
			      n->gfx_target_version ? n->target : "cpu");
		gpus += n->gfx_target_version != 0;
	}
	if (gpus == 0) {
		rdc_check_add(c, "kfd", si->n_gpus ? RDC_LVL_FAIL : RDC_LVL_OK,
		    "KFD lists no GPU node: check `dmesg | grep -i amdgpu` for firmware or init errors",
		    "KFD topology: %s", b.len ? rdc_sb_str(&b) : "no nodes");
		rdc_sb_free(&b);
		return;
	}
	rdc_check_add(c, "kfd", RDC_LVL_OK, NULL, "KFD topology: %s (node ids count CPU nodes)", rdc_sb_str(&b));
	rdc_sb_free(&b);
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		if (g->kfd_node < 0 && g->from_runtime)
			continue;   /* the runtime reached it: it has a node */
		if (g->kfd_node < 0) {
			rdc_check_add(c, "kfd", RDC_LVL_WARN,
			    "the card has no compute node: check `dmesg | grep -i kfd` (disabled by the driver or firmware missing)",
			    "%s at %s has no KFD node", rdc_card_name(g), g->pci_addr);
			continue;
		}
		const struct rdc_kfd_node *n = &si->nodes[g->kfd_node];
		if (g->card && strcmp(g->card->target, n->target))
			rdc_check_add(c, "kfd", RDC_LVL_WARN,
			    "send `rdnacompat report`: the card table or the kernel is wrong about this card",
			    "%s at %s: KFD gfx_target_version %u means %s but the card table says %s",
			    rdc_card_name(g), g->pci_addr, n->gfx_target_version, n->target, g->card->target);
	}
}

/* ---- device access ---------------------------------------------------------- */

struct who {
	bool any;                  /* root: every permission */
	bool named;                /* evaluating a named user, not this process */
	uid_t uid;
	gid_t gids[256];
	int n_gids;
	char name[64];
};

static FILE *rooted_open(const struct rdc_sysinfo *si, const char *path)
{
	char *p = rdc_rooted(si->root, path);
	FILE *f = rdc_fopen_input(p, NULL);   /* under --root: never a FIFO */
	free(p);
	return f;
}

/* Group name of gid from <root>/etc/group (or NSS for the real root). */
static void group_name(const struct rdc_sysinfo *si, gid_t gid, char *out, size_t n)
{
	snprintf(out, n, "%u", (unsigned)gid);
	if (!si->root[0]) {
		struct group *gr = getgrgid(gid);
		if (gr)
			snprintf(out, n, "%s", gr->gr_name);
		return;
	}
	FILE *f = rooted_open(si, "/etc/group");
	if (!f)
		return;
	struct group *gr;
	while ((gr = fgetgrent(f)))
		if (gr->gr_gid == gid) {
			snprintf(out, n, "%s", gr->gr_name);
			break;
		}
	fclose(f);
}

static bool who_init(const struct rdc_sysinfo *si, const char *user, struct who *w)
{
	memset(w, 0, sizeof *w);
	if (!user) {
		w->uid = geteuid();
		w->any = w->uid == 0;
		w->n_gids = getgroups(256, w->gids);
		if (w->n_gids < 0)
			w->n_gids = 0;
		if (w->n_gids < 256)
			w->gids[w->n_gids++] = getegid();
		snprintf(w->name, sizeof w->name, "this user");
		return true;
	}
	w->named = true;
	snprintf(w->name, sizeof w->name, "%s", user);
	FILE *f = rooted_open(si, "/etc/passwd");
	bool found = false;
	if (f) {
		struct passwd *pw;
		while ((pw = fgetpwent(f)))
			if (!strcmp(pw->pw_name, user)) {
				w->uid = pw->pw_uid;
				w->gids[w->n_gids++] = pw->pw_gid;
				found = true;
				break;
			}
		fclose(f);
	}
	if (!found)
		return false;
	w->any = w->uid == 0;
	f = rooted_open(si, "/etc/group");
	if (f) {
		struct group *gr;
		while ((gr = fgetgrent(f)) && w->n_gids < 256)
			for (char **m = gr->gr_mem; m && *m; m++)
				if (!strcmp(*m, user)) {
					w->gids[w->n_gids++] = gr->gr_gid;
					break;
				}
		fclose(f);
	}
	return true;
}

static bool who_in(const struct who *w, gid_t g)
{
	for (int i = 0; i < w->n_gids; i++)
		if (w->gids[i] == g)
			return true;
	return false;
}

/* Can `w` open `path` read-write?  For this process: access(2); for a named
 * user: the mode bits. */
static bool who_rw(const struct who *w, const char *path, const struct stat *st)
{
	if (w->any)
		return true;
	if (!w->named)
		return access(path, R_OK | W_OK) == 0;
	mode_t m = st->st_mode;
	if (st->st_uid == w->uid)
		return (m & S_IRUSR) && (m & S_IWUSR);
	if (who_in(w, st->st_gid))
		return (m & S_IRGRP) && (m & S_IWGRP);
	return (m & S_IROTH) && (m & S_IWOTH);
}

static void check_node_access(const struct rdc_sysinfo *si, const struct who *w, const char *dev,
			      const char *id, struct rdc_checks *c)
{
	char *p = rdc_rooted(si->root, dev);
	struct stat st;
	if (stat(p, &st) != 0) {
		rdc_check_add(c, id, si->n_gpus ? RDC_LVL_FAIL : RDC_LVL_WARN,
		    "the amdgpu driver did not create it: check `dmesg | grep -i amdgpu`; in a container pass --device=/dev/kfd --device=/dev/dri",
		    "%s does not exist", dev);
		free(p);
		return;
	}
	char grp[64];
	group_name(si, st.st_gid, grp, sizeof grp);
	if (who_rw(w, p, &st)) {
		rdc_check_add(c, id, RDC_LVL_OK, NULL, "%s (group %s, mode %03o): %s can open it read-write", dev, grp,
		    (unsigned)(st.st_mode & 0777), w->name);
	} else {
		char fix[256];
		snprintf(fix, sizeof fix, "sudo usermod -a -G %s %s, then log out and in again (or `newgrp %s`)",
			 grp, w->named ? w->name : "$USER", grp);
		rdc_check_add(c, id, RDC_LVL_FAIL, fix, "%s (group %s, mode %03o): %s cannot open it read-write", dev,
		    grp, (unsigned)(st.st_mode & 0777), w->name);
	}
	free(p);
}

static void check_access(const struct rdc_sysinfo *si, const struct rdc_doctor_opts *o,
			 struct rdc_checks *c)
{
	struct who w;
	if (rdc_doctor_simulated(si)) {
		rdc_check_add(c, "access", RDC_LVL_OK, NULL, "simulated: /dev/kfd and /dev/dri are the simulator's "
		    "(not checked)");
		return;
	}
	if (!who_init(si, o ? o->user : NULL, &w)) {
		rdc_check_add(c, "access", RDC_LVL_WARN, "check the name given to --user",
		    "user %s is not in %s/etc/passwd", o->user, si->root);
		return;
	}
	check_node_access(si, &w, "/dev/kfd", "dev-kfd", c);
	bool any = false;
	for (size_t i = 0; i < si->n_gpus; i++) {
		const struct rdc_gpu *g = &si->gpus[i];
		if (g->kfd_node < 0 || si->nodes[g->kfd_node].drm_render_minor < 0)
			continue;
		char dev[64];
		snprintf(dev, sizeof dev, "/dev/dri/renderD%d", si->nodes[g->kfd_node].drm_render_minor);
		check_node_access(si, &w, dev, "dev-dri", c);
		any = true;
	}
	if (!any) {
		/* No topology to name the node: check whichever render nodes exist. */
		char *p = rdc_rooted(si->root, "/dev/dri");
		DIR *d = opendir(p);
		free(p);
		struct dirent *e;
		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, "renderD", 7)) {
				char dev[300];
				snprintf(dev, sizeof dev, "/dev/dri/%s", e->d_name);
				check_node_access(si, &w, dev, "dev-dri", c);
				any = true;
			}
		if (d)
			closedir(d);
		if (!any && si->n_gpus)
			rdc_check_add(c, "dev-dri", RDC_LVL_FAIL,
			    "the amdgpu driver did not create render nodes: check `dmesg | grep -i amdgpu`",
			    "no /dev/dri/renderD* node");
	}
	/* Group membership, the usual fix: render (ROCm >= 5.x packaging) and video. */
	static const char *const groups[] = { "render", "video" };
	struct rdc_sbuf in = { 0 }, out = { 0 };
	for (size_t i = 0; i < 2; i++) {
		gid_t gid = 0;
		bool exists = false;
		FILE *f = rooted_open(si, "/etc/group");
		if (f) {
			struct group *gr;
			while ((gr = fgetgrent(f)))
				if (!strcmp(gr->gr_name, groups[i])) {
					gid = gr->gr_gid;
					exists = true;
					break;
				}
			fclose(f);
		} else if (!si->root[0]) {
			struct group *gr = getgrnam(groups[i]);
			if (gr) {
				gid = gr->gr_gid;
				exists = true;
			}
		}
		if (!exists)
			continue;
		rdc_sb_printf(who_in(&w, gid) ? &in : &out, "%s%s", (who_in(&w, gid) ? in.len : out.len) ? "," : "",
			      groups[i]);
	}
	if (w.any)
		rdc_check_add(c, "groups", RDC_LVL_OK, NULL, "running as root: device permissions do not apply");
	else if (out.len) {
		char fix[256];
		snprintf(fix, sizeof fix, "sudo usermod -a -G %s %s, then log out and in again", out.s,
			 w.named ? w.name : "$USER");
		rdc_check_add(c, "groups", RDC_LVL_WARN, fix, "%s is not in group(s) %s%s%s", w.name, out.s,
		    in.len ? "; member of " : "", in.len ? in.s : "");
	} else
		rdc_check_add(c, "groups", RDC_LVL_OK, NULL, "%s is in group(s) %s", w.name, in.len ? in.s : "(none defined)");
	rdc_sb_free(&in);
	rdc_sb_free(&out);
}

/* ---- versions ------------------------------------------------------------------ */

static void check_versions(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	rdc_check_add(c, "kernel", si->kernel ? RDC_LVL_OK : RDC_LVL_WARN, "cannot read /proc/sys/kernel/osrelease",
	    "kernel %s%s", si->kernel ? si->kernel : "unknown",
	    si->amdgpu_module ? ", amdgpu module loaded" : "");
	if (si->rocm_version)
		rdc_check_add(c, "rocm", RDC_LVL_OK, NULL, "ROCm %s (from %s)%s%s%s", si->rocm_version, si->rocm_source,
		    si->rocm_also ? "; also installed: " : "", si->rocm_also ? si->rocm_also : "",
		    si->rocm_also ? " (programs linked against those sonames load them)" : "");
	else
		rdc_check_add(c, "rocm", RDC_LVL_WARN,
		    "install ROCm (AMD's repository or the distribution's packages); a PyTorch wheel carries its own copy",
		    "no ROCm runtime found (/opt/rocm/.info/version, /opt/rocm-*, dpkg libamdhip64/libhsa-runtime64)");
	if (!si->torch_found) {
		rdc_check_add(c, "pytorch", RDC_LVL_OK, NULL, "no PyTorch found in the usual site-packages");
		return;
	}
	if (!si->torch_hip) {
		rdc_check_add(c, "pytorch", RDC_LVL_WARN,
		    "install a ROCm build: pip install torch --index-url https://download.pytorch.org/whl/rocmX.Y",
		    "PyTorch %s is not a ROCm build (hip = None): torch.cuda.is_available() will be False",
		    si->torch_version ? si->torch_version : "?");
		return;
	}
	unsigned a, b, x, y;
	if (si->rocm_version && rdc_version_mm(si->torch_hip, &a, &b) &&
	    rdc_version_mm(si->rocm_version, &x, &y) && (a != x || b != y)) {
		char fix[200];
		snprintf(fix, sizeof fix,
			 "use a wheel built for ROCm %u.%u (index .../whl/rocm%u.%u), or keep the system ROCm out of LD_LIBRARY_PATH",
			 x, y, x, y);
		rdc_check_add(c, "pytorch", RDC_LVL_WARN, fix,
		    "PyTorch %s was built for HIP %s but the installed ROCm is %s: major.minor differ (%u.%u vs %u.%u)",
		    si->torch_version ? si->torch_version : "?", si->torch_hip, si->rocm_version, a, b, x, y);
	} else {
		rdc_check_add(c, "pytorch", RDC_LVL_OK, NULL, "PyTorch %s built for HIP %s",
		    si->torch_version ? si->torch_version : "?", si->torch_hip);
	}
}

/* ---- environment (the override checks: doctor_override.c) -------------------- */

static void check_visible(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	static const char *const vars[] = { "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
					    "GPU_DEVICE_ORDINAL", NULL };
	size_t ngpu = rdc_sys_gpu_nodes(si);
	if (!ngpu)
		ngpu = si->n_gpus;
	bool any = false;
	for (size_t i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);
		if (!v)
			continue;
		any = true;
		if (!*v || !strcmp(v, "-1")) {
			rdc_check_add(c, "visible-devices", RDC_LVL_WARN, "unset it to see all GPUs",
			    "%s=\"%s\" hides every GPU: torch.cuda.is_available() will be False", vars[i], v);
			continue;
		}
		char *copy = rdc_xstrdup(v), *save = NULL;
		bool bad = false;
		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *end;
			long idx = strtol(tok, &end, 10);
			if (end != tok && *end == '\0' && (idx < 0 || (size_t)idx >= ngpu))
				bad = true;
		}
		free(copy);
		if (bad)
			rdc_check_add(c, "visible-devices", RDC_LVL_WARN, "indices count from 0 over the GPUs ROCm sees (`rdnacompat doctor` lists them)",
			    "%s=%s names a device beyond the %zu GPU(s) here", vars[i], v, ngpu);
		else
			rdc_check_add(c, "visible-devices", RDC_LVL_OK, NULL, "%s=%s", vars[i], v);
	}
	const char *h = getenv("HIP_VISIBLE_DEVICES"), *cu = getenv("CUDA_VISIBLE_DEVICES");
	if (h && cu && strcmp(h, cu))
		rdc_check_add(c, "visible-devices", RDC_LVL_WARN, "set only HIP_VISIBLE_DEVICES (or make both equal)",
		    "HIP_VISIBLE_DEVICES=%s and CUDA_VISIBLE_DEVICES=%s disagree: HIP applies both, one after the other", h, cu);
	if (!any)
		rdc_check_add(c, "visible-devices", RDC_LVL_OK, NULL, "no *_VISIBLE_DEVICES set: all %zu GPU(s) visible", ngpu);

	/* iGPU next to a dGPU: device 0 may be the iGPU. */
	const struct rdc_gpu *igpu = NULL, *dgpu = NULL;
	for (size_t i = 0; i < si->n_gpus; i++) {
		if (si->gpus[i].apu && !igpu)
			igpu = &si->gpus[i];
		else if (!si->gpus[i].apu && !dgpu)
			dgpu = &si->gpus[i];
	}
	if (igpu && dgpu) {
		char fix[160];
		snprintf(fix, sizeof fix, "select the discrete card: export HIP_VISIBLE_DEVICES=%d (or disable the iGPU in the firmware setup)",
			 dgpu->hip_index >= 0 ? dgpu->hip_index : 0);
		bool chosen = h || getenv("ROCR_VISIBLE_DEVICES");
		rdc_check_add(c, "igpu", chosen ? RDC_LVL_OK : RDC_LVL_WARN, fix,
		    "integrated %s (%s, HIP device %d) next to discrete %s (%s, HIP device %d)%s", rdc_card_name(igpu),
		    igpu->target, igpu->hip_index, rdc_card_name(dgpu), dgpu->target, dgpu->hip_index,
		    chosen ? ": a device is selected explicitly" : ": programs that use device 0 may pick the iGPU");
	}
}

static bool path_exists(const struct rdc_sysinfo *si, const char *p)
{
	char *r = rdc_rooted(si->root, p);
	struct stat st;
	bool ok = stat(r, &st) == 0;
	free(r);
	return ok;
}

static void check_paths(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	const char *rp = getenv("ROCM_PATH");
	if (rp) {
		struct rdc_sbuf vf = { 0 };
		rdc_sb_printf(&vf, "%s/.info/version", rp);
		char *r = rdc_rooted(si->root, vf.s);
		char *ver = rdc_read_line_file(r);
		free(r);
		if (!path_exists(si, rp))
			rdc_check_add(c, "rocm-path", RDC_LVL_WARN, "point ROCM_PATH at the installed ROCm (usually /opt/rocm) or unset it",
			    "ROCM_PATH=%s does not exist", rp);
		else if (ver && si->rocm_version && strncmp(ver, si->rocm_version, strlen(si->rocm_version)))
			rdc_check_add(c, "rocm-path", RDC_LVL_WARN, "make ROCM_PATH and /opt/rocm the same release",
			    "ROCM_PATH=%s is ROCm %s but /opt/rocm is %s", rp, ver, si->rocm_version);
		else
			rdc_check_add(c, "rocm-path", RDC_LVL_OK, NULL, "ROCM_PATH=%s", rp);
		free(ver);
		rdc_sb_free(&vf);
	}
	const char *ld = getenv("LD_LIBRARY_PATH");
	if (!ld || !*ld)
		return;
	char *copy = rdc_xstrdup(ld), *save = NULL;
	struct rdc_sbuf missing = { 0 }, rocms = { 0 };
	size_t n_rocm = 0;
	for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (!path_exists(si, tok))
			rdc_sb_printf(&missing, "%s%s", missing.len ? ", " : "", tok);
		if (strstr(tok, "rocm")) {
			/* Distinct ROCm trees: /opt/rocm-6.1.0/lib vs /opt/rocm/lib. */
			const char *s = strstr(tok, "rocm");
			size_t len = strcspn(s, "/");
			bool seen = false;
			if (rocms.len) {
				char key[128];
				snprintf(key, sizeof key, "%.*s", (int)len, s);
				seen = strstr(rocms.s, key) != NULL;
			}
			if (!seen) {
				rdc_sb_printf(&rocms, "%s%.*s", rocms.len ? ", " : "", (int)len, s);
				n_rocm++;
			}
		}
	}
	if (n_rocm > 1)
		rdc_check_add(c, "ld-library-path", RDC_LVL_WARN, "keep one ROCm release in LD_LIBRARY_PATH",
		    "LD_LIBRARY_PATH mixes ROCm trees: %s", rocms.s);
	else if (missing.len)
		rdc_check_add(c, "ld-library-path", RDC_LVL_WARN, "remove entries that do not exist",
		    "LD_LIBRARY_PATH names missing directories: %s", missing.s);
	else
		rdc_check_add(c, "ld-library-path", RDC_LVL_OK, NULL, "LD_LIBRARY_PATH=%s", ld);
	rdc_sb_free(&missing);
	rdc_sb_free(&rocms);
	free(copy);
}

/* ---- MIOpen cache --------------------------------------------------------------------- */

static struct {
	size_t home_len;
	struct rdc_sbuf *bad;
	size_t n_bad, n_files;
} walk;

static bool sqlite_ok(const char *path, char *why, size_t n)
{
	char hdr[16];
	int fd = rdc_open_file(path, O_RDONLY, 0, RDC_OPEN_REG | RDC_OPEN_FOLLOW, NULL);
	if (fd < 0) {
		snprintf(why, n, "unreadable (%s)", strerror(errno));
		return false;
	}
	ssize_t r = read(fd, hdr, sizeof hdr);
	close(fd);
	if (r != (ssize_t)sizeof hdr || memcmp(hdr, "SQLite format 3", 16)) {
		snprintf(why, n, "not an SQLite database");
		return false;
	}
	sqlite3 *db = NULL;
	bool ok = false;
	char *uri = sqlite3_mprintf("file:%s?mode=ro&immutable=1", path);
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW) {
			const char *res = (const char *)sqlite3_column_text(st, 0);
			ok = res && !strcmp(res, "ok");
			if (!ok)
				snprintf(why, n, "corrupt (%s)", res ? res : "?");
		} else {
			snprintf(why, n, "corrupt (%s)", sqlite3_errmsg(db));
		}
		sqlite3_finalize(st);
	} else {
		snprintf(why, n, "cannot open (%s)", db ? sqlite3_errmsg(db) : "?");
	}
	sqlite3_close(db);
	sqlite3_free(uri);
	return ok;
}

static bool ends(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static int walk_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag != FTW_F)
		return 0;
	bool kdb = ends(path, ".kdb") || ends(path, ".ukdb");
	bool txt = ends(path, ".udb") || ends(path, ".fdb.txt") || ends(path, ".db") || ends(path, ".txt");
	if (!kdb && !txt)
		return 0;
	walk.n_files++;
	char why[200] = "";
	if (st->st_size == 0)
		snprintf(why, sizeof why, "empty");
	else if (access(path, R_OK) != 0 && geteuid() != 0)
		snprintf(why, sizeof why, "unreadable");
	else if (kdb && !sqlite_ok(path, why, sizeof why)) {
		/* why set */
	} else
		return 0;
	rdc_sb_printf(walk.bad, "%s~%s %s", walk.n_bad ? "; " : "", path + walk.home_len, why);
	walk.n_bad++;
	return 0;
}

static void check_miopen(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	struct rdc_sbuf bad = { 0 }, stale = { 0 };
	walk.home_len = strlen(si->home);
	walk.bad = &bad;
	walk.n_bad = walk.n_files = 0;
	static const char *const dirs[] = { "/.cache/miopen", "/.config/miopen", NULL };
	bool exists = false;
	size_t n_stale = 0;
	for (size_t i = 0; dirs[i]; i++) {
		struct rdc_sbuf d = { 0 };
		rdc_sb_printf(&d, "%s%s", si->home, dirs[i]);
		struct stat st;
		if (stat(d.s, &st) == 0) {
			exists = true;
			nftw(d.s, walk_cb, 16, FTW_PHYS);
		}
		/* Version directories (~/.cache/miopen/<MIOpen version>[.<hash>]). */
		DIR *dd = i == 0 ? opendir(d.s) : NULL;
		struct dirent *e;
		while (dd && (e = readdir(dd))) {
			unsigned a, b, p;
			if (e->d_name[0] == '.' || sscanf(e->d_name, "%u.%u.%u", &a, &b, &p) != 3)
				continue;
			char ver[48];
			snprintf(ver, sizeof ver, "%u.%u.%u", a, b, p);
			if (si->miopen_version && strcmp(ver, si->miopen_version)) {
				rdc_sb_printf(&stale, "%s~%s/%s", n_stale ? ", " : "", dirs[i], e->d_name);
				n_stale++;
			}
		}
		if (dd)
			closedir(dd);
		rdc_sb_free(&d);
	}
	if (!exists) {
		rdc_check_add(c, "miopen-cache", RDC_LVL_OK, NULL, "no MIOpen cache (~/.cache/miopen)");
	} else if (walk.n_bad) {
		rdc_check_add(c, "miopen-cache", RDC_LVL_WARN,
		    "delete the listed files (MIOpen rebuilds its caches): rm -rf ~/.cache/miopen",
		    "MIOpen cache: %zu bad file(s): %s%s%s", walk.n_bad, bad.s,
		    n_stale ? "; directories of other MIOpen versions: " : "", n_stale ? stale.s : "");
	} else if (n_stale) {
		char fix[160];
		snprintf(fix, sizeof fix, "remove the old directories (installed MIOpen is %s): they are never read again",
			 si->miopen_version);
		rdc_check_add(c, "miopen-cache", RDC_LVL_WARN, fix, "MIOpen cache directories for other MIOpen versions: %s",
		    stale.s);
	} else {
		rdc_check_add(c, "miopen-cache", RDC_LVL_OK, NULL, "MIOpen cache: %zu database file(s), all readable%s%s",
		    walk.n_files, si->miopen_version ? ", MIOpen " : "", si->miopen_version ? si->miopen_version : "");
	}
	rdc_sb_free(&bad);
	rdc_sb_free(&stale);
}

/* ---- the shim -------------------------------------------------------------------------- */

static void check_shim(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	char *shim = rdc_shim_path();
	if (shim)
		rdc_check_add(c, "shim", RDC_LVL_OK, NULL, "librdnacompat.so installed: %s", shim);
	else
		rdc_check_add(c, "shim", RDC_LVL_WARN, "build it (`make`) or install it (`make install`), or set RDNACOMPAT_SHIM",
		    "librdnacompat.so not found next to this tool (../librdnacompat.so, ../lib/librdnacompat.so, ../lib/<triplet>/librdnacompat.so)");
	free(shim);
	const char *pre = getenv("LD_PRELOAD");
	if (!pre || !*pre)
		return;
	char *copy = rdc_xstrdup(pre), *save = NULL;
	struct rdc_sbuf missing = { 0 };
	int shims = 0;
	for (char *tok = strtok_r(copy, ": ", &save); tok; tok = strtok_r(NULL, ": ", &save)) {
		if (strstr(tok, "librdnacompat"))
			shims++;
		if (strchr(tok, '/') && !path_exists(si, tok))
			rdc_sb_printf(&missing, "%s%s", missing.len ? ", " : "", tok);
	}
	free(copy);
	const char *mode = getenv("RDNACOMPAT_MODE");
	if (missing.len)
		rdc_check_add(c, "ld-preload", RDC_LVL_FAIL, "fix or unset LD_PRELOAD: the loader prints an error for each missing entry",
		    "LD_PRELOAD names missing files: %s", missing.s);
	else if (shims > 1)
		rdc_check_add(c, "ld-preload", RDC_LVL_WARN, "preload librdnacompat.so once", "LD_PRELOAD lists librdnacompat.so %d times", shims);
	else if (shims && mode && strcmp(mode, "map") && strcmp(mode, "spoof") && strcmp(mode, "audit") &&
		 strcmp(mode, "off"))
		rdc_check_add(c, "ld-preload", RDC_LVL_WARN, "RDNACOMPAT_MODE is one of map, spoof, audit, off",
		    "RDNACOMPAT_MODE=%s is not a mode the shim knows", mode);
	else
		rdc_check_add(c, "ld-preload", RDC_LVL_OK, NULL, "LD_PRELOAD=%s%s%s", pre, shims ? ", shim mode " : "",
		    shims ? (mode ? mode : "map (default)") : "");
	rdc_sb_free(&missing);
}

void rdc_doctor_run(const struct rdc_doctor_opts *o, const struct rdc_sysinfo *si,
		    const struct rdc_tables *t, struct rdc_checks *out)
{
	memset(out, 0, sizeof *out);
	check_gpus(si, out);
	check_runtime(si, out);
	check_kfd(si, out);
	check_access(si, o, out);
	check_versions(si, out);
	rdc_doctor_override(si, t, out);
	rdc_doctor_build(si, out);
	rdc_doctor_platform(si, out);
	rdc_doctor_peer(si, out);
	check_visible(si, out);
	check_paths(si, out);
	check_miopen(si, out);
	check_shim(si, out);
}
