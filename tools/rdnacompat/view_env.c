/* SPDX-License-Identifier: MIT */
/*
 * view_env.c — `rdnacompat run --view-arch-files` (view_env.h).
 *
 * Some programs decide in code the preload cannot reach whether a library
 * has files for the card: Ollama, in Go (no libc, so no hook sees it),
 * lists <libdir>/rocblas/library/TensileLibrary_lazy_gfx*.dat and drops a
 * ROCm device whose target is not among the names (ollama/ollama@fb307609
 * discover/amd.go:114-130 rocblasGFXTargets, :445-476
 * filterUnsupportedROCmDevices; before 0.12.10, discover/amd_common.go:26-36
 * GetSupportedGFX and amd_linux.go:362-391).  The runner it then starts
 * (llama-server) is an ordinary libc program that inherits LD_PRELOAD and
 * gets the shim.
 *
 * So the program is given a view: this process enters a private mount
 * namespace (sim_env.c rdc_private_mount_ns), and each such directory is
 * covered by a read-only overlay whose upper lower layer, on a private
 * tmpfs, holds TensileLibrary_lazy_<card target>.dat as a symbolic link to
 * a name that does not exist ("(rdnacompat: the shim loads
 * TensileLibrary_lazy_gfx1030.dat)").  A directory listing shows the name;
 * opening it fails exactly as before, and the shim (in the runner) redirects
 * that open to the compatible target's file and logs it at warn — the data
 * still flows only through the shim's logged redirection.  Nothing is
 * written to the real directory; the view ends with the program.
 *
 * Which compatible target: the most preferred compat edge (tables/compat.tsv;
 * opt-in edges only with RDNACOMPAT_OPT_IN) whose .dat is in the directory —
 * the same choice the shim makes when it redirects the name.
 */
#include "view_env.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"
#include "sim_env.h"
#include "tool_util.h"

#define MAX_TARGETS 16
#define MAX_DIRS 16

struct view {
	char targets[MAX_TARGETS][32];
	size_t n_targets;
	char *dirs[MAX_DIRS];
	size_t n_dirs;
};

static bool is_file(const char *dir, const char *proc)
{
	char p[PATH_MAX];
	struct stat st;
	return (size_t)snprintf(p, sizeof p, "%s/TensileLibrary_lazy_%s.dat", dir, proc) < sizeof p &&
	       stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static void add_target(struct view *v, const char *t, size_t len)
{
	if (len == 0 || len >= sizeof v->targets[0] || v->n_targets >= MAX_TARGETS)
		return;
	for (size_t i = 0; i < v->n_targets; i++)
		if (strlen(v->targets[i]) == len && !strncmp(v->targets[i], t, len))
			return;
	memcpy(v->targets[v->n_targets], t, len);
	v->targets[v->n_targets++][len] = '\0';
}

/* The card targets: --gpu's (TARGET or TARGET@CARD items; @CARD alone: the
 * card table's target), else the KFD nodes' gfx_target_version, read as
 * Ollama reads them (discover/amd.go:253-329, :432-443). */
static void card_targets(struct view *v, const char *gpu)
{
	bool numeric = true;
	for (const char *p = gpu ? gpu : ""; *p; p++)
		numeric &= (*p >= '0' && *p <= '9') || *p == ',';
	if (gpu && *gpu && !numeric) {
		for (const char *p = gpu; *p;) {
			size_t len = strcspn(p, ","), tl = strcspn(p, ",@");
			if (tl)
				add_target(v, p, tl);
			else if (len > 1) {
				char card[128];
				const struct rdc_card *hits[2];
				size_t nh = 0;
				snprintf(card, sizeof card, "%.*s", (int)(len - 1), p + 1);
				const struct rdc_card *c = rdc_card_by_name(rdc_tables_builtin(), card, hits, 2, &nh);
				if (c)
					add_target(v, c->target, strlen(c->target));
			}
			p += len + (p[len] == ',');
		}
		return;
	}
	const char *root = "/sys/class/kfd/kfd/topology/nodes";
	DIR *d = opendir(root);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[PATH_MAX], line[256];
		if (e->d_name[0] == '.' || (size_t)snprintf(path, sizeof path, "%s/%s/properties", root,
							    e->d_name) >= sizeof path)
			continue;
		FILE *f = fopen(path, "re");
		unsigned long long ver = 0;
		while (f && fgets(line, sizeof line, f))
			if (sscanf(line, "gfx_target_version %llu", &ver) == 1)
				break;
		if (f)
			fclose(f);
		unsigned mi = (unsigned)(ver / 100 % 100), st = (unsigned)(ver % 100);
		if (ver == 0 || mi > 0xf || st > 0xf)
			continue;
		char t[32];
		int n = snprintf(t, sizeof t, "gfx%llu%x%x", ver / 10000, mi, st);
		add_target(v, t, (size_t)n);
	}
	if (d)
		closedir(d);
}

static void add_dir(struct view *v, const char *dir)
{
	char *r = realpath(dir, NULL);
	if (!r || v->n_dirs >= MAX_DIRS) {
		free(r);
		return;
	}
	for (size_t i = 0; i < v->n_dirs; i++)
		if (!strcmp(v->dirs[i], r)) {
			free(r);
			return;
		}
	v->dirs[v->n_dirs++] = r;
}

/* rocblas/library directories under base, at most `depth` levels down. */
static void find_rocblas(struct view *v, const char *base, int depth)
{
	char p[PATH_MAX];
	struct stat st;
	if ((size_t)snprintf(p, sizeof p, "%s/rocblas/library", base) < sizeof p && stat(p, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		add_dir(v, p);
	if (depth == 0)
		return;
	DIR *d = opendir(base);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "rocblas") ||
		    (size_t)snprintf(p, sizeof p, "%s/%s", base, e->d_name) >= sizeof p)
			continue;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			find_rocblas(v, p, depth - 1);
	}
	if (d)
		closedir(d);
}

/* The program's own library directories, Ollama's layout: the executable
 * in <prefix>/bin with <prefix>/lib/ollama, or beside lib/ollama (the
 * release tarball, a build tree); the rocBLAS directory below them
 * (lib/ollama/rocm/rocblas/library, lib/ollama/rocblas/library). */
static void auto_dirs(struct view *v, const char *prog)
{
	char *exe = NULL;
	if (strchr(prog, '/')) {
		exe = realpath(prog, NULL);
	} else {
		const char *path = getenv("PATH");
		for (const char *p = path ? path : ""; *p && !exe;) {
			size_t len = strcspn(p, ":");
			char cand[PATH_MAX];
			if ((size_t)snprintf(cand, sizeof cand, "%.*s/%s", (int)len, p, prog) < sizeof cand &&
			    access(cand, X_OK) == 0)
				exe = realpath(cand, NULL);
			p += len + (p[len] == ':');
		}
	}
	if (!exe)
		return;
	char *slash = strrchr(exe, '/');
	*slash = '\0';
	static const char *const rel[] = { "../lib/ollama", "lib/ollama", NULL };
	for (int i = 0; rel[i]; i++) {
		char base[PATH_MAX];
		if ((size_t)snprintf(base, sizeof base, "%s/%s", exe, rel[i]) < sizeof base)
			find_rocblas(v, base, 3);
	}
	free(exe);
}

/* The most preferred compatible target of `proc` with a .dat in dir. */
static const char *compat_in(const char *dir, const char *proc, bool opt_in)
{
	const struct rdc_tables *t = rdc_tables_builtin();
	for (unsigned rank = 1; rank < 64; rank++)
		for (size_t k = 0; k < t->n_edges; k++) {
			const struct rdc_compat_edge *e = &t->edges[k];
			if (e->rank != rank || strcmp(e->device, proc) || !strcmp(e->code, proc) ||
			    (!opt_in && e->condition && strstr(e->condition, "opt-in")))
				continue;
			if (is_file(dir, e->code))
				return e->code;
		}
	return NULL;
}

int rdc_view_arch_files(const char *dirs, const char *prog, const char *gpu)
{
	struct view v = { 0 };
	int rc = -1;
	card_targets(&v, gpu);
	if (dirs && *dirs) {
		for (const char *p = dirs; *p;) {
			size_t len = strcspn(p, ":");
			char d[PATH_MAX];
			snprintf(d, sizeof d, "%.*s", (int)(len < sizeof d ? len : sizeof d - 1), p);
			if (len) {
				size_t before = v.n_dirs;
				add_dir(&v, d);
				if (v.n_dirs == before) {
					fprintf(stderr, "rdnacompat: --view-arch-files: %s: not a directory\n", d);
					goto out;
				}
			}
			p += len + (p[len] == ':');
		}
	} else {
		auto_dirs(&v, prog);
	}
	if (!v.n_targets || !v.n_dirs) {
		fprintf(stderr, "rdnacompat: --view-arch-files: %s; the program runs with its directories as they are\n",
			!v.n_targets ? "no GPU target found (no KFD GPU node, no --gpu TARGET)"
				     : "no rocBLAS library directory found beside the program (give them: "
				       "--view-arch-files=DIR[:DIR])");
		rc = 0;
		goto out;
	}
	const char *oi = getenv("RDNACOMPAT_OPT_IN");
	bool opt_in = oi && (!strcmp(oi, "1") || !strcmp(oi, "yes") || !strcmp(oi, "true") || !strcmp(oi, "on"));
	/* What each directory lacks: [dir][target] -> compatible target */
	const char *code[MAX_DIRS][MAX_TARGETS] = { { 0 } };
	size_t need = 0;
	for (size_t i = 0; i < v.n_dirs; i++)
		for (size_t j = 0; j < v.n_targets; j++)
			if (!is_file(v.dirs[i], v.targets[j]) &&
			    (code[i][j] = compat_in(v.dirs[i], v.targets[j], opt_in)))
				need++;
	if (!need) {
		fprintf(stderr, "rdnacompat: --view-arch-files: nothing to list (each directory has files for the "
				"card's target, or none for a compatible one)\n");
		rc = 0;
		goto out;
	}
	char err[256];
	if (rdc_private_mount_ns(err, sizeof err)) {
		fprintf(stderr, "rdnacompat: --view-arch-files: no private mount namespace (%s)\n", err);
		goto out;
	}
	char tmp[] = "/tmp/rdnacompat-view.XXXXXX";
	if (!mkdtemp(tmp) || mount("rdnacompat-view", tmp, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0755")) {
		fprintf(stderr, "rdnacompat: --view-arch-files: tmpfs: %s\n", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < v.n_dirs; i++) {
		char layer[128], link[PATH_MAX], to[256], opts[PATH_MAX + 256];
		if (strpbrk(v.dirs[i], ":,\\")) {
			fprintf(stderr, "rdnacompat: --view-arch-files: %s: a ':', ',' or '\\' in the path; left as it is\n",
				v.dirs[i]);
			continue;
		}
		snprintf(layer, sizeof layer, "%s/%zu", tmp, i);
		bool any = false;
		for (size_t j = 0; j < v.n_targets; j++) {
			if (!code[i][j])
				continue;
			if (!any && mkdir(layer, 0755))
				break;
			any = true;
			snprintf(link, sizeof link, "%s/TensileLibrary_lazy_%s.dat", layer, v.targets[j]);
			snprintf(to, sizeof to, "(rdnacompat: the shim loads TensileLibrary_lazy_%s.dat)", code[i][j]);
			if (symlink(to, link)) {
				fprintf(stderr, "rdnacompat: --view-arch-files: %s: %s\n", link, strerror(errno));
				goto out_tmp;
			}
		}
		if (!any)
			continue;
		snprintf(opts, sizeof opts, "lowerdir=%s:%s", layer, v.dirs[i]);
		if (mount("overlay", v.dirs[i], "overlay", MS_RDONLY, opts)) {
			fprintf(stderr, "rdnacompat: --view-arch-files: overlay on %s: %s\n", v.dirs[i], strerror(errno));
			goto out_tmp;
		}
		for (size_t j = 0; j < v.n_targets; j++)
			if (code[i][j])
				fprintf(stderr, "rdnacompat: view: %s lists TensileLibrary_lazy_%s.dat for the program "
						"(the shim loads %s's; the directory itself is unchanged)\n",
					v.dirs[i], v.targets[j], code[i][j]);
	}
	rc = 0;
out_tmp:
	/* The overlays keep their layers; the mount point goes. */
	umount2(tmp, MNT_DETACH);
	rmdir(tmp);
out:
	for (size_t i = 0; i < v.n_dirs; i++)
		free(v.dirs[i]);
	return rc;
}
