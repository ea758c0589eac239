/* SPDX-License-Identifier: MIT */
/*
 * sysfs.c — the files the amdgpu driver would put in sysfs and procfs for
 * the configured GPUs, written once into a directory of the user's
 * ($XDG_RUNTIME_DIR, else $TMPDIR, else /tmp: "rdnacompat-sim-<uid>/<key>",
 * the user's own and mode 0700 or it is not used; key: a hash of everything
 * the files depend on, so processes with the same configuration share one
 * tree, made atomically by rename, and nothing is left per process), and the
 * path rewrite the libc hooks use:
 *
 *   /sys/devices/virtual/kfd/kfd/topology/{system_properties,generation_id,
 *     nodes/N/{gpu_id,name,properties,mem_banks/M/properties,
 *     caches/M/properties,io_links/M/properties}}
 *   /sys/class/kfd/kfd/topology/...       (the same tree)
 *   /sys/module/amdgpu/{initstate,version,refcnt,holders/,parameters/pcie_p2p}
 *   /proc/modules                         (the real one, if any, plus amdgpu)
 *   /sys/devices/pci0000:00/..., /sys/bus/pci/devices/..., /sys/class/pci_bus/...
 *                                         (the cards' PCI functions: pci.c)
 *
 * Node 0 is the CPU (gpu_id 0, the real core count and memory, one cache
 * so Debian's assert-enabled ROCR finds one); GPU i is node i+1 with the
 * keys the thunk's topology.c reads, gfx_target_version the real
 * processor's (HSA_OVERRIDE_GFX_VERSION is the thunk's business),
 * drm_render_minor 128+i, location_id its PCI address (pci.c), a cache of type 9 (data | HSACU: ROCR asserts on
 * one) and a PCIe io link to the CPU.  Peer links as KFD writes them
 * (kfd_topology.c, RDNACOMPAT_SIM_P2P): every node has p2p_links_count; with
 * the kernel's HSA_AMD_P2P and a large BAR (amdgpu_device_is_peer_accessible:
 * the target's VRAM all CPU-visible, the chipset allowing P2P), each GPU's
 * p2p_links/M name every other GPU (kfd_add_peer_prop: type and bandwidths
 * of the GPU's CPU link, weight the sum of both cards' CPU links, flags
 * ENABLED | NON_COHERENT as kfd_set_iolink_non_coherent sets for PCIe
 * GPU-GPU); without them the lists are empty and no GPU reaches another.
 * RDNACOMPAT_SIM_P2P=legacy writes no p2p_links_count (kernels before it):
 * the thunk then makes GPU-CPU-GPU links itself, to large-BAR targets
 * (topology.c get_indirect_iolink_info).  RDNACOMPAT_SIM_BAR=small makes the
 * frame buffer heap private (heap_type 2) with a 256 MiB public window.  rocminfo 5.2
 * checks `lsmod | grep amdgpu` and rocminfo 7 reads
 * /sys/module/amdgpu/initstate: both are answered here, in every process the
 * simulator is loaded into.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdnacompat/target.h"
#include "sim.h"

static pthread_once_t tree_once = PTHREAD_ONCE_INIT;
static char root[4096];      /* "" if the tree could not be made */
static char procs[RDC_SIM_MAX_GPUS + 1][24];

static const struct { const char *from, *to; } maps[] = {
	{ "/sys/devices/virtual/kfd/kfd", "/kfd" },
	{ "/sys/class/kfd/kfd", "/kfd" },
	{ "/sys/class/kfd", "/classkfd" },
	{ "/sys/module/amdgpu", "/amdgpu" },
	{ "/proc/modules", "/modules" },
};

static int put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put(const char *rel, const char *fmt, ...)
{
	char path[4200];
	snprintf(path, sizeof path, "%s%s", root, rel);
	int fd = rdc_sim_real()->open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	int rc = n >= 0 && (size_t)n < sizeof buf && write(fd, buf, (size_t)n) == n ? 0 : -1;
	rdc_sim_real()->close(fd);
	return rc;
}

static int dir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int dir(const char *fmt, ...)
{
	char rel[256], path[4400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rel, sizeof rel, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "%s%s", root, rel);
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

static uint64_t phys_mem(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 8ull << 30;
}

static int write_cpu(unsigned n_gpus)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int rc = dir("/kfd/topology/nodes/0") | dir("/kfd/topology/nodes/0/mem_banks") |
		 dir("/kfd/topology/nodes/0/mem_banks/0") | dir("/kfd/topology/nodes/0/caches") |
		 dir("/kfd/topology/nodes/0/caches/0") | dir("/kfd/topology/nodes/0/io_links");
	rc |= put("/kfd/topology/nodes/0/gpu_id", "0\n");
	rc |= put("/kfd/topology/nodes/0/name", "\n");
	rc |= put("/kfd/topology/nodes/0/properties",
		  "cpu_cores_count %ld\nsimd_count 0\nmem_banks_count 1\ncaches_count 1\n"
		  "io_links_count %u\ncpu_core_id_base 0\nsimd_id_base 0\n"
		  "max_waves_per_simd 0\nlds_size_in_kb 0\ngds_size_in_kb 0\nnum_gws 0\n"
		  "wave_front_size 0\narray_count 0\nsimd_arrays_per_engine 0\ncu_per_simd_array 0\n"
		  "simd_per_cu 0\nmax_slots_scratch_cu 0\ngfx_target_version 0\nvendor_id 0\n"
		  "device_id 0\nlocation_id 0\ndomain 0\ndrm_render_minor 0\nhive_id 0\n"
		  "num_sdma_engines 0\nnum_sdma_xgmi_engines 0\nnum_sdma_queues_per_engine 0\n"
		  "num_cp_queues 0\nmax_engine_clk_ccompute 3000\n%s",
		  cores > 0 ? cores : 1, n_gpus,
		  rdc_sim_config_get()->p2p == RDC_SIM_P2P_LEGACY ? "" : "p2p_links_count 0\n");
	rc |= put("/kfd/topology/nodes/0/mem_banks/0/properties",
		  "heap_type 0\nsize_in_bytes %llu\nflags 0\nwidth 64\nmem_clk_max 3200\n",
		  (unsigned long long)phys_mem());
	rc |= put("/kfd/topology/nodes/0/caches/0/properties",
		  "processor_id_low 0\nlevel 1\nsize 32\ncache_line_size 64\ncache_lines_per_tag 1\n"
		  "association 8\nlatency 1\ntype 5\n");
	for (unsigned i = 0; i < n_gpus; i++) {
		rc |= dir("/kfd/topology/nodes/0/io_links/%u", i);
		char rel[128];
		snprintf(rel, sizeof rel, "/kfd/topology/nodes/0/io_links/%u/properties", i);
		rc |= put(rel, "type 2\nversion_major 0\nversion_minor 0\nnode_from 0\nnode_to %u\n"
			       "weight 20\nmin_latency 0\nmax_latency 0\nmin_bandwidth 312\n"
			       "max_bandwidth 64000\nrecommended_transfer_size 0\nflags 0\n", i + 1);
	}
	return rc;
}

/* CRAT_IOLINK_FLAGS_ENABLED | CRAT_IOLINK_FLAGS_NON_COHERENT (kfd_crat.h). */
#define P2P_LINK_FLAGS 3u

static int write_gpu(unsigned i, const struct rdc_sim_gpu *g, unsigned n_gpus)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	unsigned node = i + 1;
	bool legacy = c->p2p == RDC_SIM_P2P_LEGACY;
	unsigned peers = c->p2p == RDC_SIM_P2P_ON && !c->small_bar ? n_gpus - 1 : 0;
	char p2p_key[40] = "";
	if (!legacy)
		snprintf(p2p_key, sizeof p2p_key, "p2p_links_count %u\n", peers);
	unsigned se = g->cus >= 40 ? 4 : g->cus >= 16 ? 2 : 1, sa = 2;
	char base[96], rel[160];
	snprintf(base, sizeof base, "/kfd/topology/nodes/%u", node);
	int rc = dir("%s", base) | dir("%s/mem_banks", base) | dir("%s/mem_banks/0", base) |
		 dir("%s/caches", base) | dir("%s/caches/0", base) | dir("%s/caches/1", base) |
		 dir("%s/io_links", base) | dir("%s/io_links/0", base);
	snprintf(rel, sizeof rel, "%s/gpu_id", base);
	rc |= put(rel, "%u\n", rdc_sim_gpu_id(i));
	snprintf(rel, sizeof rel, "%s/name", base);
	rc |= put(rel, "%s\n", g->proc);
	/* capability: QueueSizePowerOfTwo (bit 3), QueueSize32bit (4),
	 * DoorbellType 2 (bits 12-13), ASICRevision (bits 22-25). */
	uint32_t cap = 1u << 3 | 1u << 4 | 2u << 12 | (uint32_t)(g->revision & 0xf) << 22;
	snprintf(rel, sizeof rel, "%s/properties", base);
	rc |= put(rel,
		  "cpu_cores_count 0\nsimd_count %u\nmem_banks_count 1\ncaches_count 2\n"
		  "io_links_count 1\ncpu_core_id_base 0\nsimd_id_base %u\n"
		  "max_waves_per_simd 16\nlds_size_in_kb 64\ngds_size_in_kb 0\nnum_gws 0\n"
		  "wave_front_size %u\narray_count %u\nsimd_arrays_per_engine %u\n"
		  "cu_per_simd_array %u\nsimd_per_cu 2\nmax_slots_scratch_cu 32\n"
		  "gfx_target_version %u\nvendor_id 4098\ndevice_id %u\nlocation_id %u\ndomain 0\n"
		  "drm_render_minor %d\nhive_id 0\nnum_sdma_engines 2\nnum_sdma_xgmi_engines 0\n"
		  "num_sdma_queues_per_engine 6\nnum_cp_queues 8\nmax_engine_clk_fcompute 2500\n"
		  "local_mem_size %llu\nfw_version 100\ncapability %u\ndebug_prop 0\n"
		  "sdma_fw_version 50\nunique_id %llu\nnum_xcc 1\nmax_engine_clk_ccompute 3000\n%s",
		  g->cus * 2, 0x80000000u + i * 0x1000, g->wave_size, se * sa, sa,
		  (g->cus + se * sa - 1) / (se * sa), g->major * 10000 + g->minor * 100 + g->step,
		  g->device_id, rdc_sim_pci_location(i), rdc_sim_render_minor(i), (unsigned long long)g->vram,
		  cap, (unsigned long long)(0x53494d0000000000ull | (uint64_t)g->device_id << 16 | node), p2p_key);
	snprintf(rel, sizeof rel, "%s/mem_banks/0/properties", base);
	/* HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC (1) when all VRAM is CPU-visible,
	 * _PRIVATE (2) with a small BAR (kfd_crat.c: by the visible size). */
	rc |= put(rel, "heap_type %u\nsize_in_bytes %llu\nflags 0\nwidth 256\nmem_clk_max 2000\n",
		  c->small_bar ? 2u : 1u, (unsigned long long)g->vram);
	/* type 9: data | HSACU. */
	snprintf(rel, sizeof rel, "%s/caches/0/properties", base);
	rc |= put(rel, "processor_id_low %u\nlevel 1\nsize 16\ncache_line_size 128\n"
		       "cache_lines_per_tag 1\nassociation 4\nlatency 1\ntype 9\n",
		  0x80000000u + i * 0x1000);
	snprintf(rel, sizeof rel, "%s/caches/1/properties", base);
	rc |= put(rel, "processor_id_low %u\nlevel 2\nsize 4096\ncache_line_size 128\n"
		       "cache_lines_per_tag 1\nassociation 16\nlatency 1\ntype 9\n",
		  0x80000000u + i * 0x1000);
	snprintf(rel, sizeof rel, "%s/io_links/0/properties", base);
	rc |= put(rel, "type 2\nversion_major 0\nversion_minor 0\nnode_from %u\nnode_to 0\n"
		       "weight 20\nmin_latency 0\nmax_latency 0\nmin_bandwidth 312\n"
		       "max_bandwidth 64000\nrecommended_transfer_size 0\nflags 0\n", node);
	if (!legacy)
		rc |= dir("%s/p2p_links", base);
	for (unsigned k = 0, m = 0; k < n_gpus && peers; k++) {
		if (k == i)
			continue;
		rc |= dir("%s/p2p_links/%u", base, m);
		snprintf(rel, sizeof rel, "%s/p2p_links/%u/properties", base, m++);
		rc |= put(rel, "type 2\nversion_major 0\nversion_minor 0\nnode_from %u\nnode_to %u\n"
			       "weight 40\nmin_latency 0\nmax_latency 0\nmin_bandwidth 312\n"
			       "max_bandwidth 64000\nrecommended_transfer_size 0\nflags %u\n",
			  node, k + 1, P2P_LINK_FLAGS);
	}
	return rc;
}

static int write_modules(void)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/modules", root);
	int out = rdc_sim_real()->open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return -1;
	int in = rdc_sim_real()->open("/proc/modules", O_RDONLY | O_CLOEXEC);
	char buf[65536];
	ssize_t n;
	int rc = 0;
	while (in >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			rc = -1;
	if (in >= 0)
		rdc_sim_real()->close(in);
	static const char line[] = "amdgpu 15683584 0 - Live 0x0000000000000000\n";
	if (write(out, line, sizeof line - 1) != (ssize_t)sizeof line - 1)
		rc = -1;
	rdc_sim_real()->close(out);
	return rc;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Everything the files depend on: the format, the GPUs, the CPU count and
 * memory, and the real /proc/modules. */
static uint64_t tree_key(const struct rdc_sim_config *c)
{
	static const char format[] = "rdnacompat-sim sysfs 4";
	uint64_t h = fnv(0xcbf29ce484222325ull, format, sizeof format);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t mem = phys_mem();
	h = fnv(h, &cores, sizeof cores);
	h = fnv(h, &mem, sizeof mem);
	h = fnv(h, &c->n_gpus, sizeof c->n_gpus);
	unsigned topo[3] = { (unsigned)c->p2p, c->small_bar, (unsigned)c->pci };
	h = fnv(h, topo, sizeof topo);
	for (unsigned i = 0; i < c->n_gpus; i++) {
		const struct rdc_sim_gpu *g = &c->gpu[i];
		unsigned v[7] = { g->major, g->minor, g->step, g->cus, g->device_id, g->revision,
				  g->wave_size };
		h = fnv(h, g->proc, strlen(g->proc) + 1);
		h = fnv(h, g->name, strlen(g->name) + 1);
		h = fnv(h, v, sizeof v);
		h = fnv(h, &g->vram, sizeof g->vram);
	}
	int in = rdc_sim_real()->open("/proc/modules", O_RDONLY | O_CLOEXEC);
	char buf[65536];
	ssize_t n;
	while (in >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		h = fnv(h, buf, (size_t)n);
	if (in >= 0)
		rdc_sim_real()->close(in);
	return h;
}

/* Our uid as the host sees it (in a user namespace, as under `rdnacompat
 * sim` when not root, getuid() is the namespace's). */
static unsigned host_uid(void)
{
	unsigned uid = (unsigned)getuid(), in, out, cnt;
	FILE *f = fopen("/proc/self/uid_map", "re");
	if (!f)
		return uid;
	unsigned r = uid;
	while (fscanf(f, "%u %u %u", &in, &out, &cnt) == 3)
		if (uid >= in && uid - in < cnt) {
			r = out + (uid - in);
			break;
		}
	fclose(f);
	return r;
}

/* The user's directory for trees: made 0700 if absent; used only if it is a
 * directory (not a link) of ours that nobody else can write. */
static int user_dir(char *out, size_t n)
{
	const char *base = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	if (!base || base[0] != '/' || stat(base, &st) || !S_ISDIR(st.st_mode))
		base = getenv("TMPDIR");
	if (!base || base[0] != '/')
		base = "/tmp";
	if ((size_t)snprintf(out, n, "%s/rdnacompat-sim-%u", base, host_uid()) >= n)
		return -1;
	if (mkdir(out, 0700) && errno != EEXIST)
		return -1;
	if (lstat(out, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) {
		rdc_sim_log("%s is not a private directory of this user's; no simulated sysfs", out);
		return -1;
	}
	return 0;
}

static int write_tree(const struct rdc_sim_config *c)
{
	int rc = dir("/kfd") | dir("/kfd/topology") | dir("/kfd/topology/nodes") | dir("/classkfd") |
		 dir("/amdgpu") | dir("/amdgpu/holders");
	rc |= put("/kfd/topology/system_properties",
		  "platform_oem 4476484\nplatform_id 5458253\nplatform_rev 1\n");
	rc |= put("/kfd/topology/generation_id", "1\n");
	rc |= write_cpu(c->n_gpus);
	for (unsigned i = 0; i < c->n_gpus; i++)
		rc |= write_gpu(i, &c->gpu[i], c->n_gpus);
	char kfdlink[4300];
	snprintf(kfdlink, sizeof kfdlink, "%s/classkfd/kfd", root);
	rc |= symlink("../kfd", kfdlink);
	rc |= put("/amdgpu/initstate", "live\n");
	rc |= put("/amdgpu/version", "6.1.0-rdnacompat-sim\n");
	rc |= put("/amdgpu/refcnt", "0\n");
	/* amdgpu_drv.c: the bool parameter pcie_p2p (default Y) exists only
	 * in a kernel built with CONFIG_HSA_AMD_P2P; Debian's RCCL run-tests
	 * looks for it. */
	if (c->p2p == RDC_SIM_P2P_ON)
		rc |= dir("/amdgpu/parameters") | put("/amdgpu/parameters/pcie_p2p", "Y\n");
	rc |= write_modules();
	rc |= rdc_sim_pci_write(root);
	return rc;
}

static void make_tree(void)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	if (!c)
		return;
	snprintf(procs[0], sizeof procs[0], "cpu");
	for (unsigned i = 0; i < c->n_gpus; i++)
		if (rdc_proc_from_version(c->gpu[i].major, c->gpu[i].minor, c->gpu[i].step, procs[i + 1],
					  sizeof procs[i + 1]))
			snprintf(procs[i + 1], sizeof procs[i + 1], "%s", c->gpu[i].proc);
	char udir[3900], final[4000];
	if (user_dir(udir, sizeof udir))
		return;
	snprintf(final, sizeof final, "%s/%016llx", udir, (unsigned long long)tree_key(c));
	struct stat st;
	if (!lstat(final, &st) && S_ISDIR(st.st_mode)) {
		snprintf(root, sizeof root, "%s", final);
		return;
	}
	snprintf(root, sizeof root, "%s/.new.XXXXXX", udir);
	if (!mkdtemp(root)) {
		rdc_sim_log("cannot make the topology directory %s: %s", root, strerror(errno));
		root[0] = 0;
		return;
	}
	if (write_tree(c)) {
		rdc_sim_log("cannot write the topology under %s", root);
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		root[0] = 0;
		return;
	}
	if (rename(root, final)) {
		/* Another process made the same tree first: use that one. */
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		if (lstat(final, &st) || !S_ISDIR(st.st_mode)) {
			rdc_sim_log("cannot put the topology at %s", final);
			root[0] = 0;
			return;
		}
	}
	snprintf(root, sizeof root, "%s", final);
}

const char *rdc_sim_sysfs_redirect(const char *path, char *buf, size_t n)
{
	if (!path || path[0] != '/' || (strncmp(path, "/sys/", 5) && strncmp(path, "/proc/modules", 13)))
		return path;
	if (rdc_sim_pci_path(path)) {
		pthread_once(&tree_once, make_tree);
		if (!root[0] || (size_t)snprintf(buf, n, "%s%s", root, path) >= n)
			return path;
		return buf;
	}
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		size_t l = strlen(maps[i].from);
		if (strncmp(path, maps[i].from, l) || (path[l] && path[l] != '/'))
			continue;
		pthread_once(&tree_once, make_tree);
		if (!root[0])
			return path;
		if ((size_t)snprintf(buf, n, "%s%s%s", root, maps[i].to, path + l) >= n)
			return path;
		return buf;
	}
	return path;
}

const char *rdc_sim_sysfs_root(void)
{
	pthread_once(&tree_once, make_tree);
	return root;
}

const char *rdc_sim_node_proc(uint32_t node)
{
	return node <= RDC_SIM_MAX_GPUS && procs[node][0] ? procs[node] : "unknown";
}
