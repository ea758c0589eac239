/* SPDX-License-Identifier: MIT */
/*
 * pci.c — the PCI side of the simulated machine's sysfs: where each
 * simulated card sits on the PCI bus, written as Linux shows it, so that a
 * program that follows a GPU's PCI bus id to its place in the PCI tree (RCCL
 * does, to decide whether two GPUs may talk peer to peer) finds the same
 * machine the KFD topology describes.
 *
 *   layout        the functions of one of two machines (RDNACOMPAT_SIM_PCI):
 *                 switch (default): the cards behind one PCIe switch on one
 *                 root port; root: each card on a root port of its own
 *   write         the tree under ROOT/sys: devices/pci0000:00/..., with the
 *                 bus/pci/devices and class/pci_bus links
 *   paths         which /sys paths are the simulated machine's (sysfs.c
 *                 rewrites them into the tree; realpath is hooked so that
 *                 links resolve into /sys paths again: interpose.c)
 *
 * What Linux shows, and where it comes from (Linux v6.12):
 *  - Every PCI function is a directory named DDDD:BB:DD.F under its parent
 *    bridge's, from the host bridge "pci0000:00" down
 *    (drivers/pci/probe.c pci_setup_device: dev_set_name "%04x:%02x:%02x.%d";
 *    pci_register_host_bridge: "pci%04x:%02x"); /sys/bus/pci/devices/
 *    holds a link to each (drivers/base/bus.c bus_add_device).
 *  - A bridge's secondary bus is a "pci_bus" class device named DDDD:BB
 *    under the bridge (probe.c pci_alloc_child_bus: child->dev.parent =
 *    bridge, dev_set_name "%04x:%02x"), linked from /sys/class/pci_bus/.
 *    RCCL finds a GPU's directory as realpath(/sys/class/pci_bus/DDDD:BB/
 *    ../../DDDD:BB:DD.F) (rccl src/graph/xml.cc getPciPath).
 *  - Attributes (drivers/pci/pci-sysfs.c): vendor, device, subsystem_vendor,
 *    subsystem_device "0x%04x"; class "0x%06x"; revision "0x%02x";
 *    numa_node "%d" (-1, NUMA_NO_NODE, when the firmware names no proximity
 *    domain, as on one-socket desktops); max_link_speed / current_link_speed
 *    pci_speed_string() ("8.0 GT/s PCIe", "16.0 GT/s PCIe"),
 *    max_link_width / current_link_width "%u"; secondary_bus_number,
 *    subordinate_bus_number "%u" on bridges.
 *  - Radeon RX 6000 and 7000 boards carry their own switch in front of the
 *    GPU: an upstream port 1002:1478 and a downstream port 1002:1479
 *    ("Navi 10 XL Upstream/Downstream Port of PCI Express Switch" in
 *    pci.ids, as lspci shows on those boards), class 0x060400; the GPU
 *    function is a VGA controller (class 0x030000) on the bus below, at
 *    16.0 GT/s x16 (PCIe 4.0; the x8 and x4 boards are shown as x16 here).
 *
 * The two machines:
 *   switch  an Intel desktop CPU's x16 root port 0000:00:01.0 (8086:1901,
 *           PCIe 3.0) with a PLX PEX 8747 switch (10b5:8747, PCIe 3.0,
 *           upstream 0000:01:00.0, downstream ports 0000:02:08.0, :09.0 ...
 *           one a card; more than four cards is more ports than that part
 *           has) as on workstation boards that fan one x16 root port out to
 *           several slots; card k's switch at bus 3+3k, its GPU at bus 5+3k.
 *           RCCL classes two GPUs here PXB, "through PCIe switches without
 *           the CPU" (rccl src/graph/paths.cc ncclTopoSetPaths: PCI to PCI is
 *           PATH_PXB), which its ncclTopoCheckP2p allows for P2P on every
 *           host CPU, Intel's included (there: p2pLevel = PATH_PXB).
 *   root    each card on its own CPU root port 0000:00:01.k (8086:1901; a
 *           desktop's x16 slot split x8/x8), card k's switch at bus 1+3k,
 *           its GPU at bus 3+3k: the GPUs meet at the CPU (PHB), which RCCL
 *           allows for P2P on AMD CPUs but not on Intel's
 *           (ncclTopoCheckP2p), as on a real desktop.
 * The KFD topology's location_id of GPU i is its bus << 8 (device 0,
 * function 0: KFD's location_id is pci_dev_id(), bus << 8 | devfn,
 * kfd_topology.c kfd_topology_add_device), which is what HIP reports as the
 * PCI bus id (hipDeviceGetPCIBusId: HSA_AMD_AGENT_INFO_BDFID and _DOMAIN).
 * The simulated functions shadow any host function at the same address; the
 * host's own /sys/bus/pci/devices listing is not merged with them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim.h"

struct pci_fn {
	char rel[160];        /* below /sys/devices: "pci0000:00/0000:00:01.0/..." */
	unsigned bus, dev;    /* function 0 always */
	uint16_t vendor, device, svendor, sdevice;
	uint32_t class;
	uint8_t rev;
	const char *speed;    /* max_link_speed, pci_speed_string() */
	unsigned width;
	int secondary;        /* a bridge's secondary bus, else -1 */
	unsigned subordinate; /* a bridge's highest bus below */
};

#define MAX_FNS (1 + 1 + 3 * RDC_SIM_MAX_GPUS + RDC_SIM_MAX_GPUS)
static struct pci_fn fns[MAX_FNS];
static unsigned n_fns;
static unsigned gpu_bus[RDC_SIM_MAX_GPUS];
static pthread_once_t layout_once = PTHREAD_ONCE_INIT;

#define GEN3 "8.0 GT/s PCIe"
#define GEN4 "16.0 GT/s PCIe"
#define PCI_CLASS_BRIDGE_PCI_NORMAL 0x060400u /* include/linux/pci_ids.h */
#define PCI_CLASS_DISPLAY_VGA 0x030000u

/* Appends a function below PARENT (an index into fns, or -1: the host
 * bridge); returns its index. */
static int add(int parent, unsigned bus, unsigned dev, uint16_t vendor, uint16_t device, uint32_t class,
	       uint8_t rev, const char *speed, unsigned width, int secondary)
{
	if (n_fns == MAX_FNS)
		return -1;
	struct pci_fn *f = &fns[n_fns];
	snprintf(f->rel, sizeof f->rel, "%s/0000:%02x:%02x.0", parent < 0 ? "pci0000:00" : fns[parent].rel,
		 bus, dev);
	f->bus = bus;
	f->dev = dev;
	f->vendor = vendor;
	f->device = device;
	/* The board's subsystem ids are its maker's; the part's own stand in. */
	f->svendor = vendor;
	f->sdevice = device;
	f->class = class;
	f->rev = rev;
	f->speed = speed;
	f->width = width;
	f->secondary = secondary;
	return (int)n_fns++;
}

/* A Radeon board below PORT: its switch's two ports and the GPU; returns
 * the GPU's bus. */
static unsigned add_card(int port, unsigned bus, const struct rdc_sim_gpu *g)
{
	int up = add(port, bus, 0, 0x1002, 0x1478, PCI_CLASS_BRIDGE_PCI_NORMAL, 0, GEN4, 16, (int)bus + 1);
	int down = add(up, bus + 1, 0, 0x1002, 0x1479, PCI_CLASS_BRIDGE_PCI_NORMAL, 0, GEN4, 16, (int)bus + 2);
	add(down, bus + 2, 0, 0x1002, g->device_id, PCI_CLASS_DISPLAY_VGA, g->revision, GEN4, 16, -1);
	return bus + 2;
}

static void layout(void)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	if (!c)
		return;
	if (c->pci == RDC_SIM_PCI_SWITCH) {
		int rp = add(-1, 0, 1, 0x8086, 0x1901, PCI_CLASS_BRIDGE_PCI_NORMAL, 0, GEN3, 16, 1);
		int up = add(rp, 1, 0, 0x10b5, 0x8747, PCI_CLASS_BRIDGE_PCI_NORMAL, 0xca, GEN3, 16, 2);
		for (unsigned k = 0; k < c->n_gpus; k++) {
			int down = add(up, 2, 8 + k, 0x10b5, 0x8747, PCI_CLASS_BRIDGE_PCI_NORMAL, 0xca, GEN3,
				       c->n_gpus > 2 ? 8 : 16, (int)(3 + 3 * k));
			gpu_bus[k] = add_card(down, 3 + 3 * k, &c->gpu[k]);
		}
	} else {
		for (unsigned k = 0; k < c->n_gpus; k++) {
			int rp = add(-1, 0, 1, 0x8086, 0x1901, PCI_CLASS_BRIDGE_PCI_NORMAL, 0, GEN3,
				     c->n_gpus > 1 ? 8 : 16, (int)(1 + 3 * k));
			/* Root port k is function k of device 1. */
			snprintf(fns[rp].rel, sizeof fns[rp].rel, "pci0000:00/0000:00:01.%u", k);
			gpu_bus[k] = add_card(rp, 1 + 3 * k, &c->gpu[k]);
		}
	}
	for (unsigned i = 0; i < n_fns; i++) {
		fns[i].subordinate = fns[i].secondary >= 0 ? (unsigned)fns[i].secondary : 0;
		size_t l = strlen(fns[i].rel);
		for (unsigned j = 0; j < n_fns; j++)
			if (!strncmp(fns[j].rel, fns[i].rel, l) && fns[j].rel[l] == '/' && fns[j].secondary > 0 &&
			    (unsigned)fns[j].secondary > fns[i].subordinate)
				fns[i].subordinate = (unsigned)fns[j].secondary;
	}
}

uint32_t rdc_sim_pci_location(unsigned i)
{
	pthread_once(&layout_once, layout);
	return i < RDC_SIM_MAX_GPUS ? gpu_bus[i] << 8 : 0;
}

/* The function's name, "0000:BB:DD.F" (the last part of rel). */
static const char *bdf(const struct pci_fn *f)
{
	return strrchr(f->rel, '/') + 1;
}

/* PATH starts with PREFIX as a whole path component. */
static bool under(const char *path, const char *prefix)
{
	size_t l = strlen(prefix);
	return !strncmp(path, prefix, l) && (path[l] == 0 || path[l] == '/');
}

bool rdc_sim_pci_path(const char *path)
{
	static const char dev[] = "/sys/devices/pci0000:00/", bus[] = "/sys/bus/pci/devices/",
			  cls[] = "/sys/class/pci_bus/";
	bool d = !strncmp(path, dev, sizeof dev - 1), b = !strncmp(path, bus, sizeof bus - 1),
	     k = !strncmp(path, cls, sizeof cls - 1);
	if (!d && !b && !k)
		return false;
	pthread_once(&layout_once, layout);
	char p[200];
	for (unsigned i = 0; i < n_fns; i++) {
		const struct pci_fn *f = &fns[i];
		if (d && !strchr(f->rel + sizeof "pci0000:00", '/')) { /* a root port's subtree */
			snprintf(p, sizeof p, "/sys/devices/%s", f->rel);
			if (under(path, p))
				return true;
		}
		if (b) {
			snprintf(p, sizeof p, "%s%s", bus, bdf(f));
			if (under(path, p))
				return true;
		}
		if (k && f->secondary >= 0) {
			snprintf(p, sizeof p, "%s0000:%02x", cls, (unsigned)f->secondary);
			if (under(path, p))
				return true;
		}
	}
	return false;
}

static int mkdirs(const char *root, const char *rel)
{
	char path[4400];
	int n = snprintf(path, sizeof path, "%s/%s", root, rel);
	if (n < 0 || (size_t)n >= sizeof path)
		return -1;
	for (char *s = path + strlen(root) + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;
		*s = 0;
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		if (!c)
			return 0;
		*s = c;
	}
}

static int attr(const char *root, const char *rel, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int attr(const char *root, const char *rel, const char *name, const char *fmt, ...)
{
	char path[4400], buf[256];
	snprintf(path, sizeof path, "%s/sys/devices/%s/%s", root, rel, name);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	int fd = rdc_sim_real()->open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	int rc = n > 0 && (size_t)n < sizeof buf && write(fd, buf, (size_t)n) == n ? 0 : -1;
	rdc_sim_real()->close(fd);
	return rc;
}

static int link_at(const char *root, const char *target, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int link_at(const char *root, const char *target, const char *fmt, ...)
{
	char rel[200], path[4400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rel, sizeof rel, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "%s/%s", root, rel);
	return symlink(target, path) && errno != EEXIST ? -1 : 0;
}

int rdc_sim_pci_write(const char *root)
{
	pthread_once(&layout_once, layout);
	int rc = mkdirs(root, "sys/bus/pci/devices") | mkdirs(root, "sys/class/pci_bus");
	char rel[400], target[400];
	for (unsigned i = 0; i < n_fns; i++) {
		const struct pci_fn *f = &fns[i];
		snprintf(rel, sizeof rel, "sys/devices/%.160s", f->rel);
		rc |= mkdirs(root, rel);
		rc |= attr(root, f->rel, "vendor", "0x%04x\n", f->vendor);
		rc |= attr(root, f->rel, "device", "0x%04x\n", f->device);
		rc |= attr(root, f->rel, "subsystem_vendor", "0x%04x\n", f->svendor);
		rc |= attr(root, f->rel, "subsystem_device", "0x%04x\n", f->sdevice);
		rc |= attr(root, f->rel, "class", "0x%06x\n", f->class);
		rc |= attr(root, f->rel, "revision", "0x%02x\n", f->rev);
		rc |= attr(root, f->rel, "numa_node", "-1\n");
		rc |= attr(root, f->rel, "enable", "1\n");
		rc |= attr(root, f->rel, "max_link_speed", "%s\n", f->speed);
		rc |= attr(root, f->rel, "current_link_speed", "%s\n", f->speed);
		rc |= attr(root, f->rel, "max_link_width", "%u\n", f->width);
		rc |= attr(root, f->rel, "current_link_width", "%u\n", f->width);
		snprintf(target, sizeof target, "../../../devices/%.160s", f->rel);
		rc |= link_at(root, target, "sys/bus/pci/devices/%s", bdf(f));
		if (f->secondary < 0)
			continue;
		rc |= attr(root, f->rel, "secondary_bus_number", "%u\n", (unsigned)f->secondary);
		rc |= attr(root, f->rel, "subordinate_bus_number", "%u\n", f->subordinate);
		snprintf(rel, sizeof rel, "sys/devices/%.160s/pci_bus/0000:%02x", f->rel, (unsigned)f->secondary);
		rc |= mkdirs(root, rel);
		snprintf(target, sizeof target, "../../devices/%.160s/pci_bus/0000:%02x", f->rel, (unsigned)f->secondary);
		rc |= link_at(root, target, "sys/class/pci_bus/0000:%02x", (unsigned)f->secondary);
	}
	return rc;
}
