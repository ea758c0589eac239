/* SPDX-License-Identifier: MIT */
/*
 * sysinfo.c — reads the machine facts described in sysinfo.h from sysfs,
 * procfs, /etc, /opt/rocm, the dpkg status file and python site-packages,
 * all under a possibly re-rooted prefix.  Nothing here loads a GPU runtime
 * or imports Python: a broken ROCm install must not break the doctor.
 */
#include "sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tool_util.h"

static char *rooted_read_line(const struct rdc_sysinfo *si, const char *path)
{
	char *p = rdc_rooted(si->root, path);
	char *s = rdc_read_line_file(p);
	free(p);
	return s;
}

static bool parse_hex(const char *s, unsigned long *out)
{
	if (!s)
		return false;
	char *end;
	unsigned long v = strtoul(s, &end, 16);
	if (end == s)
		return false;
	*out = v;
	return true;
}

bool rdc_version_mm(const char *v, unsigned *maj, unsigned *min)
{
	if (!v)
		return false;
	while (*v && !isdigit((unsigned char)*v))
		v++;
	return *v && sscanf(v, "%u.%u", maj, min) == 2;
}

/* ---- KFD topology ------------------------------------------------------- */

/* A sysfs file read through libc's open(): under `rdnacompat sim` the
 * simulator answers the KFD topology's paths there (rdc_read_file's raw
 * system calls would miss it).  Regular files only; at most max bytes. */
static char *read_sysfs(const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	char *buf = rdc_xmalloc(max + 1);
	size_t len = 0;
	while (len < max) {
		ssize_t n = read(fd, buf + len, max - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

static int cmp_node(const void *a, const void *b)
{
	const struct rdc_kfd_node *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static void scan_kfd(struct rdc_sysinfo *si)
{
	char *dir = rdc_rooted(si->root, "/sys/class/kfd/kfd/topology/nodes");
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return;
	}
	si->kfd_present = true;
	struct dirent *e;
	while ((e = readdir(d)) && si->n_nodes < RDC_SYS_MAX_NODES) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		struct rdc_sbuf p = { 0 };
		rdc_sb_printf(&p, "%s/%s/properties", dir, e->d_name);
		char *props = read_sysfs(p.s, 1 << 16);
		rdc_sb_free(&p);
		if (!props)
			continue;
		struct rdc_kfd_node *n = &si->nodes[si->n_nodes++];
		memset(n, 0, sizeof *n);
		n->id = atoi(e->d_name);
		n->drm_render_minor = -1;
		char *save = NULL;
		for (char *line = strtok_r(props, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char key[64];
			unsigned long long v;
			if (sscanf(line, "%63s %llu", key, &v) != 2)
				continue;
			if (!strcmp(key, "gfx_target_version"))
				n->gfx_target_version = (uint32_t)v;
			else if (!strcmp(key, "simd_count"))
				n->simd_count = (uint32_t)v;
			else if (!strcmp(key, "vendor_id"))
				n->vendor_id = (uint32_t)v;
			else if (!strcmp(key, "device_id"))
				n->device_id = (uint32_t)v;
			else if (!strcmp(key, "location_id"))
				n->location_id = (uint32_t)v;
			else if (!strcmp(key, "domain"))
				n->domain = (uint32_t)v;
			else if (!strcmp(key, "drm_render_minor"))
				n->drm_render_minor = (int)v;
		}
		free(props);
		if (n->gfx_target_version &&
		    rdc_proc_from_kfd_version(n->gfx_target_version, n->target, sizeof n->target) != 0)
			snprintf(n->target, sizeof n->target, "gfx?%u", n->gfx_target_version);
	}
	closedir(d);
	free(dir);
	qsort(si->nodes, si->n_nodes, sizeof si->nodes[0], cmp_node);
}

size_t rdc_sys_gpu_nodes(const struct rdc_sysinfo *si)
{
	size_t n = 0;
	for (size_t i = 0; i < si->n_nodes; i++)
		n += si->nodes[i].gfx_target_version != 0;
	return n;
}

/* ---- PCI ------------------------------------------------------------------ */

static int cmp_gpu(const void *a, const void *b)
{
	const struct rdc_gpu *x = a, *y = b;
	return strcmp(x->pci_addr, y->pci_addr);
}

static void scan_pci(struct rdc_sysinfo *si, const struct rdc_tables *t)
{
	char *dir = rdc_rooted(si->root, "/sys/bus/pci/devices");
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) && si->n_gpus < RDC_SYS_MAX_GPUS) {
		if (e->d_name[0] == '.')
			continue;
		unsigned long vendor, device, cls, rev = 0;
		char *v[4];
		static const char *const names[4] = { "vendor", "device", "class", "revision" };
		for (int i = 0; i < 4; i++) {
			struct rdc_sbuf p = { 0 };
			rdc_sb_printf(&p, "%s/%s/%s", dir, e->d_name, names[i]);
			v[i] = rdc_read_line_file(p.s);
			rdc_sb_free(&p);
		}
		bool ok = parse_hex(v[0], &vendor) && parse_hex(v[1], &device) && parse_hex(v[2], &cls);
		bool have_rev = parse_hex(v[3], &rev);
		for (int i = 0; i < 4; i++)
			free(v[i]);
		/* AMD (0x1002), display controller class 0x03xxxx. */
		if (!ok || vendor != 0x1002 || (cls >> 16) != 0x03)
			continue;
		struct rdc_gpu *g = &si->gpus[si->n_gpus++];
		memset(g, 0, sizeof *g);
		snprintf(g->pci_addr, sizeof g->pci_addr, "%s", e->d_name);
		g->vendor = (uint16_t)vendor;
		g->device = (uint16_t)device;
		g->revision = have_rev ? (int)rev : -1;
		g->pci_class = (uint32_t)cls;
		g->kfd_node = -1;
		g->hip_index = -1;
		snprintf(g->source, sizeof g->source, "pci");
		g->card = t ? rdc_card_find_pci(t, g->vendor, g->device, g->revision) : NULL;
		if (g->card) {
			snprintf(g->target, sizeof g->target, "%s", g->card->target);
			g->apu = g->card->kind && !strcmp(g->card->kind, "apu");
		}
	}
	closedir(d);
	free(dir);
	qsort(si->gpus, si->n_gpus, sizeof si->gpus[0], cmp_gpu);
}

/* KFD location_id is (bus << 8) | (device << 3) | function. */
static void match_nodes(struct rdc_sysinfo *si)
{
	int hip = 0;
	for (size_t i = 0; i < si->n_nodes; i++) {
		struct rdc_kfd_node *n = &si->nodes[i];
		if (!n->gfx_target_version)
			continue;
		int this_hip = hip++;
		for (size_t k = 0; k < si->n_gpus; k++) {
			struct rdc_gpu *g = &si->gpus[k];
			unsigned dom, bus, dev, fn;
			if (g->kfd_node >= 0)
				continue;
			bool loc = sscanf(g->pci_addr, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4 &&
				   n->location_id == ((bus << 8) | (dev << 3) | fn) && n->domain == dom;
			bool idm = !n->location_id && n->device_id == g->device;
			if (loc || idm) {
				g->kfd_node = (int)i;
				g->hip_index = this_hip;
				if (!g->target[0])
					snprintf(g->target, sizeof g->target, "%s", n->target);
				break;
			}
		}
	}
}

const struct rdc_card *rdc_card_by_id(const struct rdc_tables *t, uint16_t vendor, uint16_t device,
				     const char *target)
{
	if (!t)
		return NULL;
	const struct rdc_card *c = rdc_card_find_pci(t, vendor, device, -1), *only = NULL, *same = NULL;
	if (c)
		return c;
	size_t n = 0;
	for (size_t i = 0; i < t->n_cards; i++) {
		const struct rdc_card *k = &t->cards[i];
		if (k->vendor != vendor || k->device != device)
			continue;
		n++;
		only = k;
		if (!same && target && k->target && !strcmp(k->target, target))
			same = k;
	}
	return n == 1 ? only : same;
}

/* GPU nodes of the KFD topology that no PCI device matched (a simulated
 * card, whose topology the simulator writes, or PCI sysfs hidden in a
 * container) become GPUs of their own: target from gfx_target_version,
 * card from the node's device id — both untouched by
 * HSA_OVERRIDE_GFX_VERSION, which only changes what the thunk reports. */
static void add_kfd_gpus(struct rdc_sysinfo *si, const struct rdc_tables *t)
{
	int hip = 0;
	for (size_t i = 0; i < si->n_nodes && si->n_gpus < RDC_SYS_MAX_GPUS; i++) {
		const struct rdc_kfd_node *n = &si->nodes[i];
		if (!n->gfx_target_version)
			continue;
		int this_hip = hip++;
		/* matched to a PCI device, or plausibly one that match_nodes could not
		 * place (same device id, no node): not a card of its own */
		bool taken = false;
		for (size_t k = 0; k < si->n_gpus && !taken; k++)
			taken = si->gpus[k].kfd_node == (int)i ||
				(si->gpus[k].kfd_node < 0 && si->gpus[k].device == n->device_id);
		if (taken)
			continue;
		struct rdc_gpu *g = &si->gpus[si->n_gpus++];
		memset(g, 0, sizeof *g);
		snprintf(g->pci_addr, sizeof g->pci_addr, "%04x:%02x:%02x.%x", n->domain, (n->location_id >> 8) & 0xff,
			 (n->location_id >> 3) & 0x1f, n->location_id & 7);
		g->vendor = n->vendor_id ? (uint16_t)n->vendor_id : 0x1002;
		g->device = (uint16_t)n->device_id;
		g->revision = -1;
		g->kfd_node = (int)i;
		g->hip_index = this_hip;
		g->from_runtime = true;
		snprintf(g->source, sizeof g->source, "kfd");
		snprintf(g->target, sizeof g->target, "%s", n->target);
		g->card = rdc_card_by_id(t, g->vendor, g->device, g->target);
		g->apu = g->card && g->card->kind && !strcmp(g->card->kind, "apu");
	}
}

/* ---- versions ------------------------------------------------------------ */

/* "5.2.3-8" / "6.2.4.60204-139~22.04" / "6.2.4-120" -> "5.2.3" / "6.2.4". */
static char *clean_version(const char *v)
{
	unsigned a, b, c;
	char buf[48];
	while (*v && !isdigit((unsigned char)*v))
		v++;
	if (sscanf(v, "%u.%u.%u", &a, &b, &c) == 3)
		snprintf(buf, sizeof buf, "%u.%u.%u", a, b, c);
	else if (sscanf(v, "%u.%u", &a, &b) == 2)
		snprintf(buf, sizeof buf, "%u.%u", a, b);
	else
		return NULL;
	return rdc_xstrdup(buf);
}

/* Version of the first installed package among `pkgs` in dpkg's status file. */
static char *dpkg_version(const struct rdc_sysinfo *si, const char *const *pkgs, char **which)
{
	char *p = rdc_rooted(si->root, "/var/lib/dpkg/status");
	char *s = rdc_read_file(p, 64u << 20, NULL);
	free(p);
	if (!s)
		return NULL;
	char *best = NULL;
	size_t best_rank = (size_t)-1;
	char *para = s;
	while (para && *para) {
		char *next = strstr(para, "\n\n");
		if (next)
			*next = '\0';
		char pkg[128] = "", ver[128] = "";
		bool installed = false;
		char *save = NULL;
		for (char *l = strtok_r(para, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (!strncmp(l, "Package: ", 9))
				snprintf(pkg, sizeof pkg, "%s", rdc_trim(l + 9));
			else if (!strncmp(l, "Version: ", 9))
				snprintf(ver, sizeof ver, "%s", rdc_trim(l + 9));
			else if (!strncmp(l, "Status: ", 8))
				installed = strstr(l, " installed") != NULL && !strstr(l, "not-installed");
		}
		for (size_t i = 0; pkgs[i] && installed && ver[0]; i++) {
			if (strcmp(pkg, pkgs[i]) || i >= best_rank)
				continue;
			free(best);
			best = rdc_xstrdup(ver);
			best_rank = i;
			if (which) {
				free(*which);
				*which = rdc_xstrdup(pkg);
			}
		}
		para = next ? next + 2 : NULL;
	}
	free(s);
	return best;
}

/* The HIP runtime the dynamic linker gives a program built here: the first
 * library directory (ld.so's default order on Debian) holding libamdhip64.so
 * (the link a build links against), else the highest libamdhip64.so.N.
 * *real gets its real file's name (links resolved inside the root); every
 * other libamdhip64.so.N.* real file there goes to *also, each once (by
 * inode: /lib is /usr/lib on a merged-/usr system). */
static const char *const lib_dirs[] = { "/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
					"/usr/lib64", "/usr/lib", NULL };

static char *resolve_in_root(const struct rdc_sysinfo *si, const char *dir, const char *name)
{
	struct rdc_sbuf cur = { 0 };
	rdc_sb_printf(&cur, "%s/%s", dir, name);
	for (int hop = 0; hop < 8; hop++) {
		char *p = rdc_rooted(si->root, cur.s), tgt[1024];
		struct stat st;
		ssize_t n = lstat(p, &st) == 0 && S_ISLNK(st.st_mode) ? readlink(p, tgt, sizeof tgt - 1) : -1;
		bool reg = n < 0 && stat(p, &st) == 0 && S_ISREG(st.st_mode);
		free(p);
		if (reg)
			return cur.s;
		if (n <= 0)
			break;
		tgt[n] = '\0';
		struct rdc_sbuf next = { 0 };
		if (tgt[0] == '/')
			rdc_sb_printf(&next, "%s", tgt);
		else {
			*strrchr(cur.s, '/') = '\0';
			rdc_sb_printf(&next, "%s/%s", cur.s, tgt);
		}
		free(cur.s);
		cur = next;
	}
	free(cur.s);
	return NULL;
}

/* The real libamdhip64.so.N.* files of lib_dirs[d] (rooted glob; sorted). */
static bool hip_files(const struct rdc_sysinfo *si, size_t d, glob_t *gl)
{
	char *dir = rdc_rooted(si->root, lib_dirs[d]);
	struct rdc_sbuf g = { 0 };
	rdc_sb_printf(&g, "%s/libamdhip64.so.*", dir);
	free(dir);
	memset(gl, 0, sizeof *gl);
	bool ok = glob(g.s, 0, NULL, gl) == 0;
	free(g.s);
	return ok;
}

static char *hip_runtime_in_use(const struct rdc_sysinfo *si, char **also)
{
	char *real = NULL;
	for (size_t d = 0; lib_dirs[d] && !real; d++)
		real = resolve_in_root(si, lib_dirs[d], "libamdhip64.so");
	for (size_t d = 0; lib_dirs[d] && !real; d++) {
		glob_t gl;
		/* No libamdhip64.so: the highest soname link (libamdhip64.so.N). */
		if (hip_files(si, d, &gl))
			for (size_t i = gl.gl_pathc; !real && i-- > 0;) {
				const char *b = strrchr(gl.gl_pathv[i], '/') + 1;
				if (!strchr(b + strlen("libamdhip64.so."), '.'))
					real = resolve_in_root(si, lib_dirs[d], b);
			}
		globfree(&gl);
	}
	struct rdc_sbuf others = { 0 };
	struct stat seen[16];
	size_t nseen = 0;
	if (real) {
		char *p = rdc_rooted(si->root, real);
		nseen = stat(p, &seen[0]) == 0;
		free(p);
	}
	for (size_t d = 0; lib_dirs[d] && real; d++) {
		glob_t gl;
		if (hip_files(si, d, &gl))
			for (size_t i = 0; i < gl.gl_pathc; i++) {
				struct stat st;
				const char *b = strrchr(gl.gl_pathv[i], '/') + 1;
				struct rdc_sbuf p = { 0 };
				rdc_sb_printf(&p, "%s/%s", lib_dirs[d], b);
				bool dup = false;
				if (lstat(gl.gl_pathv[i], &st) == 0)
					for (size_t k = 0; k < nseen; k++)
						dup |= seen[k].st_dev == st.st_dev && seen[k].st_ino == st.st_ino;
				if (!dup && S_ISREG(st.st_mode) && strchr(b + strlen("libamdhip64.so."), '.') &&
				    nseen < 16) {
					seen[nseen++] = st;
					rdc_sb_printf(&others, "%s%s", others.s ? ", " : "", p.s);
				}
				free(p.s);
			}
		globfree(&gl);
	}
	*also = others.s;
	return real;
}

static void scan_rocm(struct rdc_sysinfo *si)
{
	char *v = rooted_read_line(si, "/opt/rocm/.info/version");
	if (v && (si->rocm_version = clean_version(v)))
		si->rocm_source = rdc_xstrdup("/opt/rocm/.info/version");
	free(v);
	if (!si->rocm_version) {
		char *pat = rdc_rooted(si->root, "/opt/rocm-*/.info/version");
		glob_t g;
		memset(&g, 0, sizeof g);
		if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc) {
			/* glob sorts: the last is the newest by name. */
			char *s = rdc_read_line_file(g.gl_pathv[g.gl_pathc - 1]);
			if (s && (si->rocm_version = clean_version(s)))
				si->rocm_source = rdc_xstrdup(g.gl_pathv[g.gl_pathc - 1] + strlen(si->root));
			free(s);
		}
		globfree(&g);
		free(pat);
	}
	if (!si->rocm_version) {
		/* TheRock's native packages: /opt/rocm/core-<major.minor> (ROCm 7.14 on). */
		char *pat = rdc_rooted(si->root, "/opt/rocm/core-*");
		glob_t g;
		memset(&g, 0, sizeof g);
		if (glob(pat, GLOB_ONLYDIR, NULL, &g) == 0 && g.gl_pathc) {
			const char *dir = g.gl_pathv[g.gl_pathc - 1];
			struct rdc_sbuf vf = { 0 };
			rdc_sb_printf(&vf, "%s/.info/version", dir);
			char *s = rdc_read_line_file(vf.s);
			const char *name = strrchr(dir, '/') + 1 + strlen("core-");
			if ((si->rocm_version = clean_version(s ? s : name))) {
				struct rdc_sbuf src = { 0 };
				rdc_sb_printf(&src, "%s%s (TheRock native packages)", dir + strlen(si->root),
					      s ? "/.info/version" : "");
				si->rocm_source = src.s;
			}
			free(s);
			rdc_sb_free(&vf);
		}
		globfree(&g);
		free(pat);
	}
	char *hip = si->rocm_version ? NULL : hip_runtime_in_use(si, &si->rocm_also);
	if (hip) {
		/* libamdhip64.so.7.2.53211: Debian names its package libamdhip64-7. */
		const char *v = strrchr(hip, '/') + 1 + strlen("libamdhip64.so.");
		unsigned ma = 0, mi = 0;
		char pkg[32];
		snprintf(pkg, sizeof pkg, "libamdhip64-%u", (unsigned)atoi(v));
		const char *const pkgs[] = { pkg, NULL };
		char *dv = dpkg_version(si, pkgs, NULL);
		unsigned a, b;
		bool same = dv && rdc_version_mm(dv, &a, &b) && sscanf(v, "%u.%u", &ma, &mi) == 2 && a == ma &&
			    b == mi;
		struct rdc_sbuf src = { 0 };
		rdc_sb_printf(&src, "the HIP runtime a program built here loads: %s", hip);
		if (same) {
			si->rocm_version = clean_version(dv);
			rdc_sb_printf(&src, ", dpkg package %s %s", pkg, dv);
		} else
			si->rocm_version = clean_version(v);
		if (si->rocm_version)
			si->rocm_source = src.s;
		else
			free(src.s);
		free(dv);
		free(hip);
	}
	if (!si->rocm_version) {
		static const char *const pkgs[] = { "rocm-core", "hip-runtime-amd", "libamdhip64-6",
						    "libamdhip64-5", "libhsa-runtime64-1", NULL };
		char *which = NULL;
		char *dv = dpkg_version(si, pkgs, &which);
		if (dv && (si->rocm_version = clean_version(dv))) {
			struct rdc_sbuf b = { 0 };
			rdc_sb_printf(&b, "dpkg package %s %s", which, dv);
			si->rocm_source = b.s;
		}
		free(dv);
		free(which);
	}
	/* MIOpen: the header of a ROCm install, else the package. */
	char *h = rdc_rooted(si->root, "/opt/rocm/include/miopen/version.h");
	char *txt = rdc_read_file(h, 1 << 16, NULL);
	free(h);
	if (txt) {
		unsigned maj = 0, min = 0, pat = 0;
		const char *a = strstr(txt, "MIOPEN_VERSION_MAJOR");
		const char *b = strstr(txt, "MIOPEN_VERSION_MINOR");
		const char *c = strstr(txt, "MIOPEN_VERSION_PATCH");
		if (a && b && c && sscanf(a, "MIOPEN_VERSION_MAJOR %u", &maj) == 1 &&
		    sscanf(b, "MIOPEN_VERSION_MINOR %u", &min) == 1 &&
		    sscanf(c, "MIOPEN_VERSION_PATCH %u", &pat) == 1) {
			char buf[48];
			snprintf(buf, sizeof buf, "%u.%u.%u", maj, min, pat);
			si->miopen_version = rdc_xstrdup(buf);
		}
		free(txt);
	}
	if (!si->miopen_version) {
		static const char *const pkgs[] = { "miopen-hip", "libmiopen1", NULL };
		char *dv = dpkg_version(si, pkgs, NULL);
		if (dv)
			si->miopen_version = clean_version(dv);
		free(dv);
	}
}

/* ---- PyTorch --------------------------------------------------------------- */

/* `name = 'value'` or `name: Optional[str] = 'value'`; *out NULL for None. */
static bool py_assign(const char *line, const char *name, char **out)
{
	size_t n = strlen(name);
	if (strncmp(line, name, n) || (line[n] != ' ' && line[n] != '=' && line[n] != ':'))
		return false;
	const char *eq = strchr(line + n, '=');
	if (!eq)
		return false;
	const char *v = eq + 1;
	while (*v == ' ')
		v++;
	if (*v != '\'' && *v != '"') {
		*out = NULL;
		return true;
	}
	char q = *v++;
	const char *end = strchr(v, q);
	if (!end)
		return false;
	*out = rdc_xmalloc((size_t)(end - v) + 1);
	memcpy(*out, v, (size_t)(end - v));
	(*out)[end - v] = '\0';
	return true;
}

static bool read_torch(struct rdc_sysinfo *si, const char *file)
{
	char *s = rdc_read_file(file, 1 << 16, NULL);
	if (!s)
		return false;
	char *save = NULL;
	for (char *l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *v;
		if (py_assign(l, "__version__", &v)) {
			free(si->torch_version);
			si->torch_version = v;
		} else if (py_assign(l, "hip", &v)) {
			free(si->torch_hip);
			si->torch_hip = v;
		}
	}
	free(s);
	si->torch_found = true;
	si->torch_file = rdc_xstrdup(file);
	return true;
}

static void scan_torch(struct rdc_sysinfo *si)
{
	struct rdc_sbuf pats = { 0 };
	const char *venv = getenv("VIRTUAL_ENV"), *conda = getenv("CONDA_PREFIX");
	/* Most specific first: an active environment, the user, then the system. */
	if (venv && *venv)
		rdc_sb_printf(&pats, "%s%s/lib/python3*/site-packages\n", si->root, venv);
	if (conda && *conda)
		rdc_sb_printf(&pats, "%s%s/lib/python3*/site-packages\n", si->root, conda);
	rdc_sb_printf(&pats, "%s/.local/lib/python3*/site-packages\n", si->home);
	static const char *const sys[] = {
		"/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
		"/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages",
		"/opt/conda/lib/python3*/site-packages", NULL,
	};
	for (size_t i = 0; sys[i]; i++)
		rdc_sb_printf(&pats, "%s%s\n", si->root, sys[i]);
	char *save = NULL;
	for (char *pat = strtok_r(pats.s, "\n", &save); pat && !si->torch_found;
	     pat = strtok_r(NULL, "\n", &save)) {
		struct rdc_sbuf full = { 0 };
		rdc_sb_printf(&full, "%s/torch/version.py", pat);
		glob_t g;
		if (glob(full.s, 0, NULL, &g) == 0) {
			for (size_t i = g.gl_pathc; i-- > 0 && !si->torch_found;)
				read_torch(si, g.gl_pathv[i]);
			globfree(&g);
		}
		rdc_sb_free(&full);
	}
	rdc_sb_free(&pats);
}

/* ---- everything ------------------------------------------------------------ */

void rdc_sys_scan(struct rdc_sysinfo *si, const char *root, const char *home,
		  const struct rdc_tables *t)
{
	memset(si, 0, sizeof *si);
	si->root = rdc_xstrdup(root ? root : "");
	size_t rl = strlen(si->root);
	while (rl > 1 && si->root[rl - 1] == '/')
		si->root[--rl] = '\0';
	if (home) {
		si->home = rdc_xstrdup(home);
	} else {
		const char *h = getenv("HOME");
		si->home = rdc_rooted(si->root, h && *h ? h : "/root");
	}
	scan_kfd(si);
	scan_pci(si, t);
	match_nodes(si);
	add_kfd_gpus(si, t);

	si->kernel = rooted_read_line(si, "/proc/sys/kernel/osrelease");
	if (!si->kernel && !si->root[0]) {
		struct utsname u;
		if (uname(&u) == 0)
			si->kernel = rdc_xstrdup(u.release);
	}
	char *osr = rdc_rooted(si->root, "/etc/os-release");
	char *os = rdc_read_file(osr, 1 << 16, NULL);
	free(osr);
	if (os) {
		char *save = NULL;
		for (char *l = strtok_r(os, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *v;
			if (!strncmp(l, "PRETTY_NAME=", 12)) {
				v = l + 12;
				size_t n = strlen(v);
				if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
					v[n - 1] = '\0';
					v++;
				}
				si->distro = rdc_xstrdup(v);
			}
		}
		free(os);
	}
	char *mod = rdc_rooted(si->root, "/sys/module/amdgpu");
	struct stat st;
	si->amdgpu_module = stat(mod, &st) == 0;
	free(mod);
	scan_rocm(si);
	scan_torch(si);
}

void rdc_sys_free(struct rdc_sysinfo *si)
{
	free(si->root);
	free(si->home);
	free(si->kernel);
	free(si->distro);
	free(si->rocm_version);
	free(si->rocm_source);
	free(si->rocm_also);
	free(si->miopen_version);
	free(si->torch_version);
	free(si->torch_hip);
	free(si->torch_file);
	memset(si, 0, sizeof *si);
}
