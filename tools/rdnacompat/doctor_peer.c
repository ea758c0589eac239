/* SPDX-License-Identifier: MIT */
/*
 * doctor_peer.c — with two or more GPUs, whether they can reach each other
 * as RCCL's P2P transport and hipDeviceCanAccessPeer need (docs/MULTIGPU.md),
 * read from the kernel's own verdict: the KFD topology's p2p_links (Linux
 * kfd_topology.c kfd_dev_create_p2p_links writes a GPU-GPU link only when
 * amdgpu_device_is_peer_accessible holds: CONFIG_HSA_AMD_P2P, the chipset,
 * a large BAR).  Kernels older than p2p_links write no p2p_links_count; the
 * thunk then links two GPUs through the CPU itself when the target's frame
 * buffer heap is public (ROCR-Runtime libhsakmt topology.c
 * get_indirect_iolink_info), so the public heap is what counts there.
 * Also said: the amdgpu pcie_p2p parameter and each card's IOMMU group
 * type, when sysfs has them.  One check, "peer"; nothing with fewer than two
 * GPUs; "not checked" without a KFD topology.  Files are read through libc's
 * open, as sysinfo.c reads the topology (so `rdnacompat sim` shows the
 * simulated one).  Everything is read
 * under --root.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor.h"
#include "tool_util.h"

#define NODES "/sys/class/kfd/kfd/topology/nodes"

/* A sysfs file's text (at most 64 KiB), through libc's open as sysinfo.c
 * reads the topology, or NULL. */
static char *slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *buf = NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		buf = rdc_xmalloc((1 << 16) + 1);
		size_t len = 0;
		ssize_t r;
		while (len < (1 << 16) && (r = read(fd, buf + len, (1 << 16) - len)) > 0)
			len += (size_t)r;
		buf[len] = 0;
	}
	close(fd);
	return buf;
}

/* Value of `key` in a KFD properties file ("key value" lines); -1 absent. */
static long long prop(const char *root, const char *rel, const char *key)
{
	char *p = rdc_rooted(root, rel);
	char *s = slurp(p);
	free(p);
	long long v = -1;
	size_t kl = strlen(key);
	for (const char *l = s; l && *l;) {
		if (!strncmp(l, key, kl) && l[kl] == ' ')
			v = strtoll(l + kl + 1, NULL, 10);
		const char *nl = strchr(l, '\n');
		l = nl ? nl + 1 : NULL;
	}
	free(s);
	return v;
}

void rdc_doctor_peer(const struct rdc_sysinfo *si, struct rdc_checks *c)
{
	int gpu[RDC_SYS_MAX_NODES];
	size_t n = 0;
	for (size_t i = 0; i < si->n_nodes && n < RDC_SYS_MAX_NODES; i++)
		if (si->nodes[i].gfx_target_version)
			gpu[n++] = si->nodes[i].id;
	if (n < 2)
		return;
	if (!si->kfd_present) {
		rdc_check_add(c, "peer", RDC_LVL_OK, NULL, "%zu GPUs; the KFD topology (p2p_links) is not readable here: "
			      "peer access not checked", n);
		return;
	}
	struct rdc_sbuf facts = { 0 };
	char rel[512];
	size_t pairs = 0, linked = 0, legacy = 0, public_heap = 0;
	for (size_t i = 0; i < n; i++) {
		snprintf(rel, sizeof rel, NODES "/%d/properties", gpu[i]);
		long long count = prop(si->root, rel, "p2p_links_count");
		snprintf(rel, sizeof rel, NODES "/%d/mem_banks/0/properties", gpu[i]);
		bool pub = prop(si->root, rel, "heap_type") == 1; /* HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC */
		public_heap += pub;
		unsigned reach = 0;
		if (count < 0) {
			legacy++;
		} else {
			for (long long k = 0; k < count; k++) {
				snprintf(rel, sizeof rel, NODES "/%d/p2p_links/%lld/properties", gpu[i], k);
				long long to = prop(si->root, rel, "node_to");
				for (size_t j = 0; j < n; j++)
					reach += j != i && to == gpu[j];
			}
		}
		pairs += n - 1;
		linked += reach;
		rdc_sb_printf(&facts, "%snode %d: ", i ? "; " : "", gpu[i]);
		if (count < 0)
			rdc_sb_add(&facts, "no p2p_links_count");
		else
			rdc_sb_printf(&facts, "reaches %u of %zu GPUs", reach, n - 1);
		rdc_sb_printf(&facts, ", VRAM %s", pub ? "all CPU-visible (large BAR)" : "not all CPU-visible");
	}
	char *pp = rdc_rooted(si->root, "/sys/module/amdgpu/parameters/pcie_p2p");
	char *pv = rdc_read_line_file(pp);
	free(pp);
	rdc_sb_printf(&facts, "; amdgpu pcie_p2p=%s", pv ? pv : "(absent)");
	free(pv);
	for (size_t i = 0; i < si->n_gpus; i++) {
		if (si->gpus[i].from_runtime)
			continue;
		snprintf(rel, sizeof rel, "/sys/bus/pci/devices/%s/iommu_group/type", si->gpus[i].pci_addr);
		char *tp = rdc_rooted(si->root, rel);
		char *t = rdc_read_line_file(tp);
		free(tp);
		if (t)
			rdc_sb_printf(&facts, "; %s IOMMU domain %s", si->gpus[i].pci_addr, t);
		free(t);
	}
	const char *fix = "RCCL: NCCL_P2P_DISABLE=1 uses shared memory instead. For peer access: enable Resizable BAR / "
			  "Above 4G decoding in the firmware, a kernel built with CONFIG_HSA_AMD_P2P, amdgpu.pcie_p2p=1, "
			  "iommu=pt; see docs/MULTIGPU.md";
	bool sim = rdc_doctor_simulated(si);
	if (legacy == n) {
		bool all = public_heap == n;
		rdc_check_add(c, "peer", all ? RDC_LVL_OK : RDC_LVL_WARN, fix,
			      "%s%zu GPUs, kernel without p2p_links: ROCm links them through the CPU %s (%s)",
			      sim ? "simulated cards: " : "", n,
			      all ? "(every card's VRAM is CPU-visible)" : "only to cards whose VRAM is all CPU-visible",
			      rdc_sb_str(&facts));
	} else if (linked == pairs) {
		rdc_check_add(c, "peer", RDC_LVL_OK, NULL, "%s%zu GPUs, each reaches every other (KFD p2p_links: %s)",
			      sim ? "simulated cards: " : "", n, rdc_sb_str(&facts));
	} else {
		rdc_check_add(c, "peer", RDC_LVL_WARN, fix,
			      "%s%zu GPUs, %zu of %zu peer links (KFD p2p_links: %s): hipDeviceCanAccessPeer is 0 "
			      "without one, and RCCL cannot use its P2P transport",
			      sim ? "simulated cards: " : "", n, linked, pairs, rdc_sb_str(&facts));
	}
	rdc_sb_free(&facts);
}
