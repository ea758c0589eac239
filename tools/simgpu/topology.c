/* SPDX-License-Identifier: MIT */
/*
 * topology.c — the simulated system's nodes: node 0 is the CPU, nodes
 * 1..N the configured GPUs (config.c), as hsaKmtAcquireSystemProperties /
 * hsaKmtGetNode*Properties report them.
 *
 * HSA_OVERRIDE_GFX_VERSION is applied here exactly as the real thunk's
 * topology.c (topology_sysfs_get_node_props) does: for a GPU node the
 * per-node HSA_OVERRIDE_GFX_VERSION_<node> wins over the global variable; the
 * value is sscanf("%u.%u.%u%c") with major <= 63, minor and stepping <= 255;
 * anything else prints "HSA_OVERRIDE_GFX_VERSION %s is invalid" and fails the
 * node, so the whole hsaKmtAcquireSystemProperties fails.  As in libhsakmt
 * 5.2.3 (before OverrideEngineId existed) the override replaces EngineId, so
 * the AMDName and everything ROCR derives from it see the overridden version.
 *
 * ROCR 5.2.3 knows gfx1010-1013 and gfx1030-1035 among RDNA, not gfx1036 or
 * gfx11: such a node makes ROCR fail agent creation ("The GPU node has an
 * unrecognized id"), so we say so on stderr before ROCR gets there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rdnacompat/target.h"
#include "sim.h"

#define MAX_NODES (RDC_SIM_MAX_GPUS + 1)
#define LDS_APERTURE     0x1000000000000ull /* non-zero aperture bases, as the */
#define SCRATCH_APERTURE 0x2000000000000ull /* real thunk reports for dGPUs   */

static struct {
	bool valid;
	unsigned n_nodes;
	HsaNodeProperties node[MAX_NODES];
	char proc[MAX_NODES][24]; /* effective processor per node */
} snap;

/* Nodes exist while the KFD is open, whether or not a snapshot is held
 * (ROCR may release it and still create queues, as with the real KFD). */
unsigned rdc_sim_num_nodes(void)
{
	const struct rdc_sim_config *c = rdc_sim_config_get();
	return c && rdc_sim_is_open() ? c->n_gpus + 1 : 0;
}

bool rdc_sim_node_is_gpu(uint32_t node) { return node >= 1 && node < rdc_sim_num_nodes(); }
int rdc_sim_gpu_index(uint32_t node) { return rdc_sim_node_is_gpu(node) ? (int)node - 1 : -1; }

const char *rdc_sim_node_proc(uint32_t node)
{
	return node < MAX_NODES && snap.proc[node][0] ? snap.proc[node] : "unknown";
}

/* Known to Debian's ROCR 5.2.3 (strings libhsa-runtime64.so.1.5.0). */
static bool rocr52_knows(unsigned ma, unsigned mi, unsigned st)
{
	if (ma < 10)
		return true; /* GCN/CDNA: not what we simulate; let ROCR decide */
	if (ma == 10 && mi == 1)
		return st <= 3;
	if (ma == 10 && mi == 3)
		return st <= 5;
	return false;
}

static void set_marketing_name(HsaNodeProperties *p, const char *s)
{
	size_t i = 0;
	for (; s[i] && i < HSA_PUBLIC_NAME_SIZE - 1; i++)
		p->MarketingName[i] = (HSAuint16)(unsigned char)s[i];
	p->MarketingName[i] = 0;
}

static void cpu_name(char *buf, size_t n, unsigned *mhz)
{
	snprintf(buf, n, "Simulated host CPU");
	*mhz = 3000;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	bool got_name = false, got_mhz = false;
	while (fgets(line, sizeof line, f) && !(got_name && got_mhz)) {
		char *c = strchr(line, ':');
		if (!c)
			continue;
		char *v = c + 1;
		while (*v == ' ')
			v++;
		v[strcspn(v, "\n")] = 0;
		if (!got_name && !strncmp(line, "model name", 10)) {
			snprintf(buf, n, "%s", v);
			got_name = true;
		} else if (!got_mhz && !strncmp(line, "cpu MHz", 7)) {
			*mhz = (unsigned)atof(v);
			got_mhz = true;
		}
	}
	fclose(f);
}

static void fill_cpu(HsaNodeProperties *p, unsigned n_gpus)
{
	char name[HSA_PUBLIC_NAME_SIZE];
	unsigned mhz;
	memset(p, 0, sizeof *p);
	cpu_name(name, sizeof name, &mhz);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	p->NumCPUCores = cores > 0 ? (HSAuint32)cores : 1;
	p->NumMemoryBanks = 1;
	p->NumCaches = 1;
	p->NumIOLinks = n_gpus;
	p->CComputeIdLo = 0;
	p->MaxEngineClockMhzCCompute = mhz;
	set_marketing_name(p, name);
	snprintf((char *)p->AMDName, sizeof p->AMDName, "%s", name);
}

/* Returns HSAKMT_STATUS_ERROR for a bad override, like the thunk. */
static HSAKMT_STATUS fill_gpu(HsaNodeProperties *p, uint32_t node, const struct rdc_sim_gpu *g,
			      char proc[24])
{
	memset(p, 0, sizeof *p);
	unsigned se = g->cus >= 40 ? 4 : g->cus >= 16 ? 2 : 1, sa = 2;
	p->NumFComputeCores = g->cus * 2; /* SIMDs: 2 per RDNA CU */
	p->NumMemoryBanks = 3;            /* frame buffer, LDS, scratch */
	p->NumCaches = 2;
	p->NumIOLinks = rdc_sim_config_get()->n_gpus; /* the CPU + every other GPU */
	p->FComputeIdLo = 0x80000000u + (node - 1) * 0x1000;
	p->Capability.ui32.DoorbellType = 2;
	p->Capability.ui32.QueueSizePowerOfTwo = 1;
	p->Capability.ui32.QueueSize32bit = 1;
	p->MaxWavesPerSIMD = 16;
	p->LDSSizeInKB = 64;
	p->GDSSizeInKB = 0;
	p->WaveFrontSize = g->wave_size;
	p->NumShaderBanks = se;
	p->NumArrays = sa;
	p->NumCUPerArray = (g->cus + se * sa - 1) / (se * sa);
	p->NumSIMDPerCU = 2;
	p->MaxSlotsScratchCU = 32;
	p->VendorId = 0x1002;
	p->DeviceId = g->device_id;
	p->LocationId = (HSAuint32)((3 + node) << 8); /* bus 3+node, dev 0, fn 0 */
	p->LocalMemSize = g->vram;
	p->MaxEngineClockMhzFCompute = 2500;
	p->MaxEngineClockMhzCCompute = 3000;
	p->DrmRenderMinor = 127 + (HSAint32)node;
	set_marketing_name(p, g->name);
	p->NumSdmaEngines = 2;
	p->NumSdmaXgmiEngines = 0;
	p->NumSdmaQueuesPerEngine = 8;
	p->NumCpQueues = 24;
	p->NumGws = 0;
	p->UniqueID = 0x53494d0000000000ull | ((uint64_t)g->device_id << 16) | node;
	p->VGPRSizePerCU = g->vgpr_size_per_cu;
	p->SGPRSizePerCU = 0x4000;
	p->Capability.ui32.ASICRevision = g->revision & 0xf;
	p->EngineId.ui32.uCode = 100;

	/* topology_sysfs_get_node_props(): per-node variable first, then global. */
	char per_node[64];
	const char *env;
	unsigned major = g->major, minor = g->minor, step = g->step;
	snprintf(per_node, sizeof per_node, "HSA_OVERRIDE_GFX_VERSION_%d", (int)node);
	if ((env = getenv(per_node)) || (env = getenv("HSA_OVERRIDE_GFX_VERSION"))) {
		/* The thunk's own test decides (it is what we simulate); the core's
		 * parser, which mirrors it, explains a rejection. */
		unsigned a, b, c, ca, cb, cc;
		char dummy;
		struct rdc_diag d = { 0 };
		bool ok = sscanf(env, "%u.%u.%u%c", &a, &b, &c, &dummy) == 3 && a <= 63 && b <= 255 &&
			  c <= 255;
		bool core_ok = rdc_parse_gfx_override(env, &ca, &cb, &cc, &d) == 0;
		if (!ok) {
			fprintf(stderr, "HSA_OVERRIDE_GFX_VERSION %s is invalid\n", env); /* pr_err */
			rdc_sim_debug("node %u: %s", node, core_ok ? "rejected as the thunk does" : d.msg);
			return HSAKMT_STATUS_ERROR;
		}
		if (!core_ok || ca != a || cb != b || cc != c)
			rdc_sim_debug("node %u: the thunk accepts %s=%s (%u.%u.%u); the core's parser: %s",
				      node, getenv(per_node) ? per_node : "HSA_OVERRIDE_GFX_VERSION", env,
				      a, b, c, core_ok ? "differs" : d.msg);
		major = a;
		minor = b;
		step = c;
		rdc_sim_debug("node %u: %s=%s overrides %s", node,
			      getenv(per_node) ? per_node : "HSA_OVERRIDE_GFX_VERSION", env, g->proc);
	}
	p->EngineId.ui32.Major = major & 0x3f;
	p->EngineId.ui32.Minor = minor & 0xff;
	p->EngineId.ui32.Stepping = step & 0xff;
	if (!p->EngineId.ui32.Major) {
		/* Debian's 5.2.3 thunk is built with assertions, and its
		 * topology_sysfs_get_node_props ends with this one: an override
		 * such as "0.0.0" passes the sscanf test and then aborts there. */
		fprintf(stderr, "%s: topology.c (simulated libhsakmt): topology_sysfs_get_node_props: "
				"Assertion `props->EngineId.ui32.Major && \"HSA_OVERRIDE_GFX_VERSION may "
				"be needed\"' failed.\n", program_invocation_short_name);
		abort();
	}
	/* CAL name: DID table name when the thunk has one, else GFX<version>. */
	if (g->codename)
		snprintf((char *)p->AMDName, sizeof p->AMDName, "%s", g->codename);
	else
		snprintf((char *)p->AMDName, sizeof p->AMDName, "GFX%06x",
			 (major & 0x3f) << 16 | (minor & 0xff) << 8 | (step & 0xff));
	if (rdc_proc_from_version(major, minor, step, proc, 24))
		snprintf(proc, 24, "gfx%u%x%x", major, minor & 0xf, step & 0xf);
	if (major >= 10 && (minor > 15 || step > 15))
		snprintf(proc, 24, "gfx%u.%u.%u", major, minor, step);
	if (!rocr52_knows(major, minor, step))
		rdc_sim_log("GPU node %u is %s%s: Debian's ROCR 5.2.3 does not know this ISA (among "
			    "RDNA it knows gfx1010-gfx1013 and gfx1030-gfx1035), so its agent "
			    "creation fails (\"The GPU node has an unrecognized id\") and HSA/HIP "
			    "initialisation fails. Try HSA_OVERRIDE_GFX_VERSION_%u=10.3.0.",
			    node, proc, strcmp(proc, g->proc) ? " (overridden)" : "", node);
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtAcquireSystemProperties(HsaSystemProperties *sp)
{
	if (!sp)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	if (!rdc_sim_is_open())
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	const struct rdc_sim_config *c = rdc_sim_config_get();
	if (!c)
		return HSAKMT_STATUS_ERROR;
	pthread_mutex_lock(&rdc_sim_lock);
	HSAKMT_STATUS st = HSAKMT_STATUS_SUCCESS;
	if (!snap.valid) {
		memset(&snap, 0, sizeof snap);
		fill_cpu(&snap.node[0], c->n_gpus);
		snprintf(snap.proc[0], sizeof snap.proc[0], "cpu");
		for (unsigned i = 0; i < c->n_gpus && st == HSAKMT_STATUS_SUCCESS; i++)
			st = fill_gpu(&snap.node[i + 1], i + 1, &c->gpu[i], snap.proc[i + 1]);
		if (st == HSAKMT_STATUS_SUCCESS) {
			snap.n_nodes = c->n_gpus + 1;
			snap.valid = true;
		}
	}
	if (st == HSAKMT_STATUS_SUCCESS) {
		memset(sp, 0, sizeof *sp);
		sp->NumNodes = snap.n_nodes;
		sp->PlatformOem = 0x414d44; /* "AMD" */
		sp->PlatformId = 0x53494d;  /* "SIM" */
		sp->PlatformRev = 1;
	}
	pthread_mutex_unlock(&rdc_sim_lock);
	return st;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtReleaseSystemProperties(void)
{
	pthread_mutex_lock(&rdc_sim_lock);
	snap.valid = false;
	pthread_mutex_unlock(&rdc_sim_lock);
	return HSAKMT_STATUS_SUCCESS;
}

/* The checks every per-node query starts with, in the thunk's order: the
 * device open, the node in the snapshot, then the caller's output pointer. */
static HSAKMT_STATUS check_node(HSAuint32 node, const void *out)
{
	if (!rdc_sim_is_open())
		return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
	if (!snap.valid || node >= snap.n_nodes)
		return HSAKMT_STATUS_INVALID_NODE_UNIT;
	return out ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_PARAMETER;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetNodeProperties(HSAuint32 node, HsaNodeProperties *p)
{
	HSAKMT_STATUS st = check_node(node, p);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	*p = snap.node[node];
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetNodeMemoryProperties(HSAuint32 node, HSAuint32 n,
							 HsaMemoryProperties *m)
{
	HSAKMT_STATUS st = check_node(node, m);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	HsaMemoryProperties banks[3];
	unsigned nb;
	memset(banks, 0, sizeof banks);
	if (node == 0) {
		long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
		banks[0].HeapType = HSA_HEAPTYPE_SYSTEM;
		banks[0].SizeInBytes = pages > 0 && psz > 0 ? (HSAuint64)pages * (HSAuint64)psz : 8ull << 30;
		banks[0].Width = 64;
		banks[0].MemoryClockMax = 3200;
		nb = 1;
	} else {
		banks[0].HeapType = HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC;
		banks[0].SizeInBytes = snap.node[node].LocalMemSize;
		banks[0].Width = 256;
		banks[0].MemoryClockMax = 2000;
		banks[1].HeapType = HSA_HEAPTYPE_GPU_LDS;
		banks[1].SizeInBytes = 64 * 1024;
		banks[1].VirtualBaseAddress = LDS_APERTURE;
		banks[2].HeapType = HSA_HEAPTYPE_GPU_SCRATCH;
		banks[2].SizeInBytes = 4ull << 30;
		banks[2].VirtualBaseAddress = SCRATCH_APERTURE;
		nb = 3;
	}
	for (unsigned i = 0; i < n && i < nb; i++)
		m[i] = banks[i];
	return n <= nb ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_PARAMETER;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetNodeCacheProperties(HSAuint32 node, HSAuint32 proc_id,
							HSAuint32 n, HsaCacheProperties *c)
{
	HSAKMT_STATUS st = check_node(node, c);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (n > snap.node[node].NumCaches)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	for (unsigned i = 0; i < n; i++) {
		memset(&c[i], 0, sizeof c[i]);
		c[i].ProcessorIdLow = proc_id;
		c[i].CacheLineSize = node == 0 ? 64 : 128;
		c[i].CacheLinesPerTag = 1;
		c[i].CacheAssociativity = 16;
		c[i].CacheLatency = 1;
		if (node == 0) {
			c[i].CacheLevel = 1;
			c[i].CacheSize = 32; /* KB */
			c[i].CacheType.ui32.Data = 1;
			c[i].CacheType.ui32.CPU = 1;
			c[i].SiblingMap[0] = 1;
		} else {
			c[i].CacheLevel = i + 1;
			c[i].CacheSize = i == 0 ? 16 : 4096; /* KB: L1 per CU, L2 */
			c[i].CacheType.ui32.Data = 1;
			c[i].CacheType.ui32.HSACU = 1;
			c[i].SiblingMap[0] = 1;
		}
	}
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetNodeIoLinkProperties(HSAuint32 node, HSAuint32 n,
							 HsaIoLinkProperties *l)
{
	HSAKMT_STATUS st = check_node(node, l);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	if (n > snap.node[node].NumIOLinks)
		return HSAKMT_STATUS_INVALID_PARAMETER;
	/* As the KFD and the thunk build them: CPU <-> GPU direct PCIe links of
	 * weight 20, and for each pair of GPUs the indirect GPU -> CPU -> GPU link
	 * the thunk adds (topology_create_indirect_gpu_links), weight 20 + 20. */
	for (unsigned i = 0; i < n; i++) {
		memset(&l[i], 0, sizeof l[i]);
		l[i].IoLinkType = HSA_IOLINKTYPE_PCIEXPRESS;
		l[i].VersionMajor = 4;
		l[i].NodeFrom = node;
		if (node == 0)
			l[i].NodeTo = i + 1;
		else if (i == 0)
			l[i].NodeTo = 0;
		else
			l[i].NodeTo = i < node ? i : i + 1; /* the other GPUs in order */
		l[i].Weight = node == 0 || i == 0 ? 20 : 40;
		l[i].MinimumBandwidth = 1;
		l[i].MaximumBandwidth = 32000;
		l[i].MinimumLatency = 1;
		l[i].MaximumLatency = 10;
	}
	return HSAKMT_STATUS_SUCCESS;
}

uint64_t rdc_sim_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetClockCounters(HSAuint32 node, HsaClockCounters *c)
{
	HSAKMT_STATUS st = check_node(node, c);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	uint64_t now = rdc_sim_now_ns();
	c->GPUClockCounter = now;
	c->CPUClockCounter = now;
	c->SystemClockCounter = now;
	c->SystemClockFrequencyHz = 1000000000ull;
	return HSAKMT_STATUS_SUCCESS;
}

RDC_SIM_API HSAKMT_STATUS hsaKmtGetTileConfig(HSAuint32 node, HsaGpuTileConfig *cfg)
{
	HSAKMT_STATUS st = check_node(node, cfg);
	if (st != HSAKMT_STATUS_SUCCESS)
		return st;
	/* gfx10+ has no tile mode tables; report the GB_ADDR_CONFIG shape only. */
	cfg->NumTileConfigs = 0;
	cfg->NumMacroTileConfigs = 0;
	cfg->GbAddrConfig = 0x00000044;
	cfg->NumBanks = 16;
	cfg->NumRanks = 1;
	return HSAKMT_STATUS_SUCCESS;
}
