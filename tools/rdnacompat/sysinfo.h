/* SPDX-License-Identifier: MIT */
/*
 * sysinfo.h — the facts `doctor` and `report` read about this machine, all
 * from files (never by loading a GPU runtime): AMD GPUs on the PCI bus and
 * their KFD topology nodes, kernel, distribution, the installed ROCm and
 * MIOpen versions, and the HIP version an installed PyTorch was built for.
 * Every absolute path is read under `root` (empty for the real system), so
 * tests can point it at a fake tree.
 */
#ifndef RDC_TOOL_SYSINFO_H
#define RDC_TOOL_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"

#define RDC_SYS_MAX_GPUS 16
#define RDC_SYS_MAX_NODES 64

struct rdc_kfd_node {
	int id;                    /* topology node id (CPU nodes count) */
	uint32_t gfx_target_version; /* 0 for CPU nodes */
	uint32_t simd_count;
	uint32_t vendor_id, device_id;
	uint32_t location_id, domain;
	int drm_render_minor;      /* -1 unknown */
	char target[RDC_PROC_MAX]; /* decoded gfx_target_version, "" for CPU */
};

struct rdc_gpu {
	char pci_addr[256];        /* "0000:03:00.0" */
	uint16_t vendor, device;
	int revision;
	uint32_t pci_class;
	const struct rdc_card *card; /* NULL when the card table does not know it */
	char target[RDC_PROC_MAX]; /* from the card table, else KFD, else "" */
	int kfd_node;              /* index into nodes[], -1 when unmatched */
	int hip_index;             /* HIP/ROCr enumeration order, -1 unknown */
	bool apu;                  /* integrated (card kind "apu") */
	bool from_runtime;         /* not seen on /sys's PCI bus: a KFD node no PCI device matched,
				      or reported by the ROCm runtime (a simulated card, or PCI
				      sysfs hidden) — see source */
	char source[8];            /* where the card was found: "pci", "kfd" or "runtime" */
	char product[64];          /* the runtime's product name, "" when not asked */
	/* The runtime's own name for the card (agents.c, rdc_sys_ask_runtime):
	 * asked with HSA_OVERRIDE_GFX_VERSION[_N] removed, and asked with this
	 * environment (only when an override variable is set); "" when not
	 * asked or not listed. */
	char rt_target[RDC_PROC_MAX];
	char rt_env_target[RDC_PROC_MAX];
	bool rt_asked, rt_env_asked;
};

struct rdc_sysinfo {
	char *root;                /* "" or the re-rooted prefix */
	char *home;                /* home directory, rooted */
	size_t n_gpus;
	struct rdc_gpu gpus[RDC_SYS_MAX_GPUS];
	char runtime_note[200];    /* why the runtime, asked for GPUs (agents.c), gave none */
	bool kfd_present;          /* /sys/class/kfd/kfd/topology/nodes exists */
	size_t n_nodes;
	struct rdc_kfd_node nodes[RDC_SYS_MAX_NODES];
	char *kernel;              /* /proc/sys/kernel/osrelease */
	char *distro;              /* /etc/os-release PRETTY_NAME */
	char *rocm_version;        /* "6.2.4", "5.2.3" or NULL */
	char *rocm_source;         /* where rocm_version came from */
	char *rocm_also;           /* other HIP runtimes installed beside it ("libamdhip64.so.6.4.43484"), or NULL */
	char *miopen_version;      /* "3.2.0" or NULL */
	char *torch_version;       /* torch/version.py __version__ */
	char *torch_hip;           /* `hip = '...'`, NULL when None or absent */
	char *torch_file;          /* the version.py read (rooted path) */
	bool torch_found;
	bool amdgpu_module;        /* /sys/module/amdgpu exists */
};

/* Fill `si` from the files under `root` ("" or NULL: the real system).
 * `home` is the home directory to inspect (NULL: root + $HOME). */
void rdc_sys_scan(struct rdc_sysinfo *si, const char *root, const char *home,
		  const struct rdc_tables *t);
void rdc_sys_free(struct rdc_sysinfo *si);

/* Leading "major.minor" of a version string (maj, min); false if none. */
bool rdc_version_mm(const char *v, unsigned *maj, unsigned *min);

/* The card-table row of a PCI id whose revision is unknown (a card found
 * in the KFD topology only): the row for any revision, else the id's only
 * row, else its first row with `target` (may be NULL); NULL when none. */
const struct rdc_card *rdc_card_by_id(const struct rdc_tables *t, uint16_t vendor, uint16_t device,
				     const char *target);

/* Number of GPU (non-CPU) KFD nodes. */
size_t rdc_sys_gpu_nodes(const struct rdc_sysinfo *si);

#endif
