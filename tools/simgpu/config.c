/* SPDX-License-Identifier: MIT */
/*
 * config.c — the simulated GPU's configuration, read once from the
 * environment (documented in docs/SIMGPU.md):
 *
 *   RDNACOMPAT_SIM_GPUS   comma-separated GPUs, each TARGET[@CARD] or @CARD:
 *                         "gfx1031", "gfx1031,gfx1030", "gfx1030@73bf",
 *                         "gfx1030@1002:73a5", "gfx1031@RX 6700 XT".
 *                         Default: one gfx1031.
 *   RDNACOMPAT_SIM_TRACE  path of the JSON-lines dispatch trace.
 *   RDNACOMPAT_SIM_VERBOSE=1  log queue/packet activity on stderr.
 *   RDNACOMPAT_SIM_EXEC   1 (default): execute kernels (exec/); 0: retire
 *                         dispatches without running them.
 *   The two booleans take rdc_bool_parse's spellings (0/off/no/false ...);
 *   another value is said once and means on.
 *   RDNACOMPAT_SIM_THREADS  worker threads per dispatch (default: the
 *                         machine's cores, at most 8).
 *   RDNACOMPAT_SIM_BLITS  emulate (default): the runtimes' copy and fill
 *                         kernels are applied directly (blit.c); execute:
 *                         ROCclr's (which are in an ELF) go to the engine
 *                         like any kernel, so their own code moves the bytes.
 *   RDNACOMPAT_SIM_BUDGET  wave-instructions one wave may run before the
 *                         dispatch fails as a hang (default 2^31).
 *   RDNACOMPAT_SIM_P2P    the machine's peer-to-peer topology (sysfs.c):
 *                         on (default): a kernel built with HSA_AMD_P2P on
 *                         a chipset that allows PCIe P2P, each GPU's p2p_links
 *                         naming every other GPU; off: such a kernel without
 *                         HSA_AMD_P2P (or a chipset that refuses P2P): p2p_links
 *                         empty, so no GPU reaches another; legacy: a kernel
 *                         older than p2p_links (no p2p_links_count: the thunk
 *                         makes GPU-CPU-GPU links itself, to large-BAR cards).
 *   RDNACOMPAT_SIM_BAR    large (default): all VRAM CPU-visible (public frame
 *                         buffer heap); small: a 256 MiB window (private heap;
 *                         KFD then makes no peer links to the card).
 *   RDNACOMPAT_SIM_PCI    where the cards sit on the PCI bus (pci.c):
 *                         switch (default): behind one PCIe switch on one
 *                         root port, which RCCL takes for P2P on any host
 *                         CPU; root: each card on its own CPU root port,
 *                         which RCCL takes for P2P on AMD CPUs only.
 *   RDNACOMPAT_SIM_ITRACE  a debugging aid: for kernels whose symbol holds
 *                         this text, every instruction workgroup 0 runs, one
 *                         line on stderr with what it wrote (exec/dispatch.c).
 *
 * CARD is a PCI id ("73df", "1002:73df", "73df:c1" or "1002:73df:c1" with
 * the PCI revision) or a name ("RX 6700 XT"), looked up in the core's card
 * table (tables/cards.tsv via rdc_card_find_pci / rdc_card_search): it gives
 * the marketing name, the PCI id and, without TARGET, the target.  CU count
 * and VRAM come from the built-in per-card shapes below (the core's table has
 * no such columns), else from the target's default card.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>

#include "rdnacompat/boolstr.h"
#include "rdnacompat/tables.h"
#include "rdnacompat/target.h"
#include "sim.h"

/* Built-in defaults: one row per card we know the shape of.  The first row of
 * a target is that target's default card.  CU counts and VRAM sizes are the
 * public specifications of these boards; codename is the thunk's DID table
 * name (ROCT-Thunk-Interface topology.c gfxip_lookup_table), NULL if absent.
 * gfx1152/gfx1153: device id and revision per GPUOpen-Tools/device_info
 * DeviceInfo.cpp (1114 C2 860M, 1902 C0 840M), CU counts 8 and 4 as there. */
struct card_default {
	uint16_t did;
	const char *proc;
	unsigned cus;
	unsigned vram_mb;
	const char *name;
	const char *codename;
	uint8_t rev; /* PCI revision of that name in libdrm's amdgpu.ids */
};

static const struct card_default defaults[] = {
	{ 0x73BF, "gfx1030", 72, 16384, "AMD Radeon RX 6800 XT", "SIENNA_CICHLID", 0xC1 },
	{ 0x73A5, "gfx1030", 80, 16384, "AMD Radeon RX 6950 XT", "SIENNA_CICHLID", 0xC0 },
	{ 0x73DF, "gfx1031", 40, 12288, "AMD Radeon RX 6700 XT", "NAVY_FLOUNDER", 0xC1 },
	{ 0x73FF, "gfx1032", 32, 8192, "AMD Radeon RX 6600 XT", "DIMGREY_CAVEFISH", 0xC1 },
	{ 0x163F, "gfx1033", 8, 1024, "AMD Custom GPU 0405 (Van Gogh)", "VanGogh", 0xAE },
	{ 0x743F, "gfx1034", 16, 4096, "AMD Radeon RX 6500 XT", "BEIGE_GOBY", 0xC1 },
	{ 0x1681, "gfx1035", 12, 2048, "AMD Radeon 680M", "YELLOW_CARP", 0xC8 },
	{ 0x164E, "gfx1036", 2, 512, "AMD Radeon Graphics (Raphael)", NULL, 0xD8 },
	{ 0x744C, "gfx1100", 96, 24576, "AMD Radeon RX 7900 XTX", NULL, 0xC8 },
	{ 0x747E, "gfx1101", 60, 16384, "AMD Radeon RX 7800 XT", NULL, 0xC8 },
	{ 0x7480, "gfx1102", 32, 8192, "AMD Radeon RX 7600", NULL, 0xCF },
	{ 0x15BF, "gfx1103", 12, 2048, "AMD Radeon 780M", NULL, 0xC1 },
	{ 0x150E, "gfx1150", 16, 2048, "AMD Radeon 890M Graphics", NULL, 0xC1 },
	{ 0x1586, "gfx1151", 40, 32768, "AMD Radeon 8060S Graphics", NULL, 0xC1 },
	{ 0x1114, "gfx1152", 8, 2048, "AMD Radeon 860M Graphics", NULL, 0xC2 },
	{ 0x1902, "gfx1153", 4, 2048, "AMD Radeon 840M Graphics", NULL, 0xC0 },
};
#define N_DEFAULTS (sizeof defaults / sizeof defaults[0])

static struct rdc_sim_config config;
static int config_state; /* 0 unread, 1 good, -1 bad */
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

void rdc_sim_log(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	fputs("rdnacompat-sim: ", stderr);
	fwrite(buf, 1, (size_t)n, stderr);
}

void rdc_sim_debug(const char *fmt, ...)
{
	if (!config.verbose)
		return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	rdc_sim_log("%s", buf);
}

static int proc_version(const char *proc, unsigned *ma, unsigned *mi, unsigned *st)
{
	return rdc_proc_to_version(proc, ma, mi, st) == 0 ? 0 : -1;
}

static const struct card_default *default_for_proc(const char *proc)
{
	for (size_t i = 0; i < N_DEFAULTS; i++)
		if (!strcmp(defaults[i].proc, proc))
			return &defaults[i];
	return NULL;
}

static const struct card_default *default_for_did(uint16_t did)
{
	for (size_t i = 0; i < N_DEFAULTS; i++)
		if (defaults[i].did == did)
			return &defaults[i];
	return NULL;
}

static bool hex4(const char *p, size_t n, unsigned *out)
{
	if (n == 0 || n > 4)
		return false;
	unsigned v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return false;
		v = v * 16 + (unsigned)(isdigit((unsigned char)p[i]) ? p[i] - '0'
								   : tolower((unsigned char)p[i]) - 'a' + 10);
	}
	*out = v;
	return true;
}

/* "73df", "0x73df", "1002:73df", "73df:c1", "1002:73df:c1" -> device id and
 * revision (-1: any); false if not a PCI id. */
static bool parse_pci(const char *s, uint16_t *did, int *rev)
{
	const char *f[3];
	size_t len[3], n = 0;
	const char *p = s;
	if (!strncasecmp(p, "0x", 2))
		p += 2;
	while (n < 3) {
		size_t l = strcspn(p, ":");
		f[n] = p;
		len[n++] = l;
		if (!p[l])
			break;
		p += l + 1;
	}
	if (p[strcspn(p, ":")] == ':' && n == 3)
		return false;
	unsigned v[3];
	for (size_t i = 0; i < n; i++)
		if (!hex4(f[i], len[i], &v[i]))
			return false;
	*rev = -1;
	if (n == 1 && len[0] == 4) {
		*did = (uint16_t)v[0];
	} else if (n == 2 && len[0] == 4 && v[0] == 0x1002 && len[1] == 4) {
		*did = (uint16_t)v[1];
	} else if (n == 2 && len[0] == 4 && len[1] <= 2) {
		*did = (uint16_t)v[0];
		*rev = (int)v[1];
	} else if (n == 3 && v[0] == 0x1002 && len[1] == 4 && len[2] <= 2) {
		*did = (uint16_t)v[1];
		*rev = (int)v[2];
	} else {
		return false;
	}
	return true;
}

static void apply_default(struct rdc_sim_gpu *g, const struct card_default *d)
{
	g->cus = d->cus;
	g->vram = (uint64_t)d->vram_mb << 20;
	g->device_id = d->did;
	snprintf(g->name, sizeof g->name, "%s", d->name);
	g->codename = d->codename;
	g->revision = d->rev;
}

/* CARD: a PCI id or a name; fills what it knows.  Returns -1 if unknown,
 * -2 if the name is ambiguous (said on stderr). */
static int apply_card(struct rdc_sim_gpu *g, const char *card, bool have_proc)
{
	uint16_t did = 0;
	int rev = -1;
	const struct rdc_card *tc = NULL;
	const struct rdc_tables *t = rdc_tables_builtin();
	bool pci = parse_pci(card, &did, &rev);

	if (pci) {
		tc = rdc_card_find_pci(t, 0x1002, did, rev);
		/* "6700" is hex too: a PCI id nobody knows is read as a name. */
		if (!tc && !default_for_did(did)) {
			pci = false;
			did = 0;
			rev = -1;
		}
	}
	if (!pci) {
		/* The card a name means (rdc_card_by_name): several hits and
		 * no exact name are refused, as `rdnacompat sim --card` does. */
		const struct rdc_card *hits[16];
		size_t n;
		tc = rdc_card_by_name(t, card, hits, 16, &n);
		if (!tc && n > 1) {
			char list[512];
			size_t len = 0;
			for (size_t i = 0; i < n && i < 6 && len < sizeof list; i++)
				len += (size_t)snprintf(list + len, sizeof list - len, "%s%s (%s)",
							i ? "; " : "", hits[i]->name, hits[i]->target);
			rdc_sim_log("RDNACOMPAT_SIM_GPUS: card '%s' matches %zu%s cards: %s%s; give the full "
				    "name or a PCI id", card, n, n == 16 ? "+" : "", list, n > 6 ? "; ..." : "");
			return -2;
		}
		if (tc) {
			did = tc->device;
			rev = tc->revision;
		}
	}
	const struct card_default *d = NULL;
	if (pci || tc)
		d = default_for_did(did);
	if (!pci && !tc) { /* built-in shapes, by name */
		for (size_t i = 0; i < N_DEFAULTS && !d; i++)
			if (strcasestr(defaults[i].name, card))
				d = &defaults[i];
		if (!d)
			return -1;
		did = d->did;
	}
	if (!tc && !d)
		return -1; /* a PCI id nobody knows */
	const char *proc = tc && tc->target ? tc->target : d ? d->proc : NULL;
	if (!have_proc) {
		if (!proc || strlen(proc) >= sizeof g->proc)
			return -1;
		snprintf(g->proc, sizeof g->proc, "%s", proc);
	} else if (proc && strcmp(proc, g->proc)) {
		rdc_sim_log("card '%s' is a %s; simulating it as %s as asked", card, proc, g->proc);
	}
	const struct card_default *pd = default_for_proc(g->proc);
	if (d && !strcmp(d->proc, g->proc))
		apply_default(g, d);
	else if (pd)
		apply_default(g, pd);
	g->device_id = did;
	/* No revision given: the default card's own (ROCR 6.4+'s addrlib aborts
	 * on revision 0 for Van Gogh and Rembrandt: Gfx10Lib::HwlConvertChipFamily). */
	if (rev >= 0)
		g->revision = (uint8_t)rev;
	else
		g->revision = d && d->did == did ? d->rev : 0;
	if (tc && tc->name) {
		size_t n = strcspn(tc->name, ";");
		if (n >= sizeof g->name)
			n = sizeof g->name - 1;
		memcpy(g->name, tc->name, n);
		g->name[n] = 0;
	} else if (!d || strcmp(d->proc, g->proc)) {
		char p[sizeof g->proc];
		memcpy(p, g->proc, sizeof p);
		snprintf(g->name, sizeof g->name, "AMD Radeon (simulated %s, PCI 1002:%04x)", p, did);
	}
	return 0;
}

static int parse_gpu(struct rdc_sim_gpu *g, const char *spec)
{
	char buf[128];
	if (strlen(spec) >= sizeof buf) {
		rdc_sim_log("GPU spec too long: '%s'", spec);
		return -1;
	}
	snprintf(buf, sizeof buf, "%s", spec);
	char *card = strchr(buf, '@');
	if (card)
		*card++ = 0;
	memset(g, 0, sizeof *g);
	bool have_proc = buf[0] != 0;
	if (have_proc) {
		if (strlen(buf) >= sizeof g->proc || proc_version(buf, &g->major, &g->minor, &g->step)) {
			rdc_sim_log("RDNACOMPAT_SIM_GPUS: '%s' is not a gfx target (e.g. gfx1031)", buf);
			return -1;
		}
		memcpy(g->proc, buf, strlen(buf) + 1); /* fits: checked above */
		const struct card_default *d = default_for_proc(g->proc);
		if (d) {
			apply_default(g, d);
		} else {
			g->cus = 32;
			g->vram = 8ull << 30;
			g->device_id = 0x7fff;
			char p[sizeof g->proc];
			memcpy(p, g->proc, sizeof p);
			snprintf(g->name, sizeof g->name, "AMD Radeon (simulated %s)", p);
		}
	}
	int crc = card ? apply_card(g, card, have_proc) : 0;
	if (crc == -2)
		return -1; /* ambiguous: said */
	if (crc) {
		rdc_sim_log("RDNACOMPAT_SIM_GPUS: unknown card '%s' (give a PCI id like 1002:73df or "
			    "73df:c1, or a name like 'RX 6700 XT'; see tables/cards.tsv)", card);
		return -1;
	}
	if (!have_proc && !card) {
		rdc_sim_log("RDNACOMPAT_SIM_GPUS: empty GPU entry");
		return -1;
	}
	if (proc_version(g->proc, &g->major, &g->minor, &g->step))
		return -1;
	g->wave_size = g->major >= 10 ? 32 : 64;
	/* queues.c:87-103 of the thunk: 0x60000 for gfx1100/gfx1101, else 0x40000. */
	g->vgpr_size_per_cu = (g->major == 11 && g->minor == 0 && g->step <= 1) ? 0x60000 : 0x40000;
	return 0;
}

static void config_read(void)
{
	const char *gpus = getenv("RDNACOMPAT_SIM_GPUS");
	const char *trace = getenv("RDNACOMPAT_SIM_TRACE");
	const char *verbose = getenv("RDNACOMPAT_SIM_VERBOSE");
	int vb = verbose && *verbose ? rdc_bool_parse(verbose) : 0;
	if (vb < 0)
		rdc_sim_log("RDNACOMPAT_SIM_VERBOSE=%.40s is not 0|1|off|on|no|yes|false|true (using 1)",
			    verbose);
	config.verbose = vb != 0;   /* as before: any other non-empty value turns it on */
	const char *ex = getenv("RDNACOMPAT_SIM_EXEC");
	int eb = ex && *ex ? rdc_bool_parse(ex) : 1;
	if (eb < 0)
		rdc_sim_log("RDNACOMPAT_SIM_EXEC=%.40s is not 0|1|off|on|no|yes|false|true (using 1)", ex);
	config.exec = eb != 0;      /* default on; only an off spelling retires without running */
	const char *th = getenv("RDNACOMPAT_SIM_THREADS");
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	config.threads = th && *th ? (unsigned)strtoul(th, NULL, 10) : (unsigned)(nproc > 0 ? nproc : 1);
	if (config.threads < 1)
		config.threads = 1;
	if (config.threads > 8)
		config.threads = 8;
	const char *bl = getenv("RDNACOMPAT_SIM_BLITS");
	config.exec_blits = bl && !strcmp(bl, "execute");
	if (bl && *bl && strcmp(bl, "execute") && strcmp(bl, "emulate"))
		rdc_sim_log("RDNACOMPAT_SIM_BLITS=%.40s is not emulate|execute (using emulate)", bl);
	const char *bu = getenv("RDNACOMPAT_SIM_BUDGET");
	config.budget = bu && *bu ? strtoull(bu, NULL, 10) : 0;
	const char *pp = getenv("RDNACOMPAT_SIM_P2P");
	config.p2p = RDC_SIM_P2P_ON;
	if (pp && !strcmp(pp, "off"))
		config.p2p = RDC_SIM_P2P_OFF;
	else if (pp && !strcmp(pp, "legacy"))
		config.p2p = RDC_SIM_P2P_LEGACY;
	else if (pp && *pp && strcmp(pp, "on"))
		rdc_sim_log("RDNACOMPAT_SIM_P2P=%.40s is not on|off|legacy (using on)", pp);
	const char *bar = getenv("RDNACOMPAT_SIM_BAR");
	config.small_bar = bar && !strcmp(bar, "small");
	if (bar && *bar && strcmp(bar, "small") && strcmp(bar, "large"))
		rdc_sim_log("RDNACOMPAT_SIM_BAR=%.40s is not large|small (using large)", bar);
	const char *pci = getenv("RDNACOMPAT_SIM_PCI");
	config.pci = pci && !strcmp(pci, "root") ? RDC_SIM_PCI_ROOT : RDC_SIM_PCI_SWITCH;
	if (pci && *pci && strcmp(pci, "root") && strcmp(pci, "switch"))
		rdc_sim_log("RDNACOMPAT_SIM_PCI=%.40s is not switch|root (using switch)", pci);
	const char *it = getenv("RDNACOMPAT_SIM_ITRACE");
	snprintf(config.itrace, sizeof config.itrace, "%s", it ? it : "");
	if (trace && *trace) {
		if (strlen(trace) >= sizeof config.trace_path) {
			rdc_sim_log("RDNACOMPAT_SIM_TRACE path too long");
			config_state = -1;
			return;
		}
		snprintf(config.trace_path, sizeof config.trace_path, "%s", trace);
	}
	if (!gpus || !*gpus)
		gpus = "gfx1031";
	char *list = strdup(gpus);
	if (!list) {
		config_state = -1;
		return;
	}
	char *save = NULL;
	config_state = 1;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		for (size_t l = strlen(tok); l > 0 && tok[l - 1] == ' '; l--)
			tok[l - 1] = 0;
		if (config.n_gpus == RDC_SIM_MAX_GPUS) {
			rdc_sim_log("RDNACOMPAT_SIM_GPUS: at most %d GPUs", RDC_SIM_MAX_GPUS);
			config_state = -1;
			break;
		}
		if (parse_gpu(&config.gpu[config.n_gpus], tok)) {
			config_state = -1;
			break;
		}
		config.n_gpus++;
	}
	free(list);
	if (config_state > 0 && config.n_gpus == 0) {
		rdc_sim_log("RDNACOMPAT_SIM_GPUS: no GPU given");
		config_state = -1;
	}
}

const struct rdc_sim_config *rdc_sim_config_get(void)
{
	pthread_once(&config_once, config_read);
	return config_state > 0 ? &config : NULL;
}
