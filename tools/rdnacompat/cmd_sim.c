/* SPDX-License-Identifier: MIT */
/*
 * cmd_sim.c — `rdnacompat sim --gpu TARGET [--gpu TARGET ...] [--card NAME |
 * --pci ID] -- CMD [ARGS]`: run CMD on simulated AMD GPUs.  Sets
 * RDNACOMPAT_SIM_GPUS (and RDNACOMPAT_SIM_TRACE / _VERBOSE) and puts the
 * simulator (librdnacompat-sim.so, which emulates /dev/kfd, the render nodes
 * and sysfs) first in LD_PRELOAD, then execs CMD.
 * The simulator is docs/SIMGPU.md; kernels are not executed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "commands.h"
#include "inspect_gpu.h"
#include "tool_util.h"

#define MAX_GPUS 8

/* Is q one of the card's names ("; "-separated), with or without "AMD
 * Radeon "?  The simulator's config.c applies the same rule. */
static bool name_is(const char *names, const char *q)
{
	size_t lq = strlen(q);
	for (const char *p = names; p && *p;) {
		const char *end = strstr(p, "; ");
		size_t l = end ? (size_t)(end - p) : strlen(p);
		if ((l == lq && !strncasecmp(p, q, l)) ||
		    (l > lq && p[l - lq - 1] == ' ' && !strncasecmp(p + l - lq, q, lq)))
			return true;
		p = end ? end + 2 : NULL;
	}
	return false;
}

/* --card NAME: a card whose name it is, or the only match; 0 or -1 with
 * the reason on stderr (no match; several and none by that name: refused,
 * never resolved silently). */
static int check_card(const struct rdc_tables *t, const char *q)
{
	const struct rdc_card *hits[16];
	size_t n = rdc_card_search(t, q, hits, 16);
	for (size_t i = 0; i < n; i++)
		if (name_is(hits[i]->name, q))
			return 0;
	if (n == 1)
		return 0;
	if (n == 0) {
		fprintf(stderr, "rdnacompat sim: --card '%s': no card in the card table matches "
				"(rdnacompat cards lists them)\n", q);
		return -1;
	}
	fprintf(stderr, "rdnacompat sim: --card '%s' matches %zu%s cards:", q, n, n == 16 ? "+" : "");
	for (size_t i = 0; i < n && i < 6; i++)
		fprintf(stderr, "%s %s (%s)", i ? ";" : "", hits[i]->name, hits[i]->target);
	fprintf(stderr, "%s; give the full name or --pci\n", n > 6 ? "; ..." : "");
	return -1;
}

/* Every --gpu, --card and --pci, as the card table and the target list
 * know them: 0, or -1 with the reason on stderr. */
static int check_gpus(int n, const char *const *gpus, const char *const *cards, const bool *is_pci)
{
	const struct rdc_tables *t = rdc_tables_builtin();
	for (int k = 0; k < n; k++) {
		struct rdc_target dev;
		char err[512];
		if (gpus[k][0] && rdc_inspect_resolve_gpu(t, gpus[k], NULL, NULL, &dev, err, sizeof err) != 1) {
			fprintf(stderr, "rdnacompat sim: %s\n", err);
			return -1;
		}
		if (!cards[k])
			continue;
		if (is_pci[k]) {
			if (rdc_inspect_resolve_gpu(t, NULL, NULL, cards[k], &dev, err, sizeof err) != 1) {
				fprintf(stderr, "rdnacompat sim: %s\n", err);
				return -1;
			}
		} else if (check_card(t, cards[k])) {
			return -1;
		}
	}
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: rdnacompat sim [--gpu TARGET [--card NAME | --pci ID]]... [OPTIONS] -- CMD [ARGS...]\n"
	      "\n"
	      "Runs CMD with Debian's real ROCm stack (ROCR, HIP, rocminfo, ROCm libraries)\n"
	      "seeing simulated AMD GPUs: a test-only preloaded library that emulates /dev/kfd,\n"
	      "the render nodes and the sysfs topology below the real thunk.\n"
	      "KERNELS ARE NOT EXECUTED: dispatches are retired (and traced), so kernel results are\n"
	      "garbage; memory copies (SDMA) really move bytes.  For testing code-object selection,\n"
	      "HSA_OVERRIDE_GFX_VERSION and the shim without an AMD GPU.  See docs/SIMGPU.md.\n"
	      "\n"
	      "  --gpu TARGET     add a simulated GPU (gfx1030, gfx1031, ...; repeat for more;\n"
	      "                   default: one gfx1031).  ROCR 5.2.3 knows gfx1030-gfx1035, not gfx11.\n"
	      "  --card NAME      card of the last --gpu by name ('RX 6700 XT', tables/cards.tsv):\n"
	      "                   marketing name, PCI id, CU count, VRAM.  Without a --gpu of its own\n"
	      "                   it adds a GPU of the card's own target\n"
	      "  --pci ID         same by PCI id: 73df, 1002:73df, 73df:c1 (with the PCI revision)\n"
	      "  --trace FILE     one JSON line per kernel dispatch (RDNACOMPAT_SIM_TRACE)\n"
	      "  --verbose        log queues and dispatches on stderr (RDNACOMPAT_SIM_VERBOSE=1)\n"
	      "  --print-env      print the environment that would be set, do not run CMD\n"
	      "  (HSA_OVERRIDE_GFX_VERSION[_<node>] in the environment is honoured like the real thunk.)\n"
	      "\n"
	      "The simulator is sim/librdnacompat-sim.so beside the tool's directory (build tree),\n"
	      "../lib/rdnacompat/sim/ when installed, or RDNACOMPAT_SIM_LIB.\n"
	      "\n"
	      "exit: CMD's exit status (exec replaces this process); 2 usage or setup error,\n"
	      "126 CMD cannot be executed, 127 CMD not found\n",
	      f);
}

static char *sim_lib(void)
{
	static const char *const rel[] = { "../sim/librdnacompat-sim.so",
					   "../lib/rdnacompat/sim/librdnacompat-sim.so", NULL };
	return rdc_find_shipped("RDNACOMPAT_SIM_LIB", rel);
}

static int set(const char *k, const char *v, bool print)
{
	if (print) {
		printf("%s=%s\n", k, v);
		return 0;
	}
	if (setenv(k, v, 1)) {
		fprintf(stderr, "rdnacompat sim: setenv %s: %s\n", k, strerror(errno));
		return -1;
	}
	return 0;
}

int rdc_cmd_sim(int argc, char **argv)
{
	const char *gpus[MAX_GPUS], *cards[MAX_GPUS];
	bool is_pci[MAX_GPUS] = { false };
	int n = 0;
	const char *trace = NULL;
	bool verbose = false, print = false;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (rdc_is_help(a)) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		bool takes = !strcmp(a, "--gpu") || !strcmp(a, "--card") || !strcmp(a, "--pci") ||
			     !strcmp(a, "--trace");
		if (takes && i + 1 >= argc) {
			fprintf(stderr, "rdnacompat sim: missing value for '%s'\n", a);
			return 2;
		}
		if (!strcmp(a, "--gpu") || ((!strcmp(a, "--card") || !strcmp(a, "--pci")) &&
					    (n == 0 || cards[n - 1]))) {
			if (n == MAX_GPUS) {
				fprintf(stderr, "rdnacompat sim: at most %d GPUs\n", MAX_GPUS);
				return 2;
			}
			gpus[n] = "";
			cards[n] = NULL;
			n++;
			if (!strcmp(a, "--gpu")) {
				gpus[n - 1] = argv[++i];
				if (strchr(gpus[n - 1], ',')) {
					fprintf(stderr, "rdnacompat sim: one target per --gpu\n");
					return 2;
				}
				continue;
			}
		}
		if (!strcmp(a, "--card") || !strcmp(a, "--pci")) {
			is_pci[n - 1] = !strcmp(a, "--pci");
			cards[n - 1] = argv[++i];
			if (strchr(cards[n - 1], ',')) {
				fprintf(stderr, "rdnacompat sim: ',' is not allowed in a card name\n");
				return 2;
			}
		} else if (!strcmp(a, "--trace")) {
			trace = argv[++i];
		} else if (!strcmp(a, "--verbose")) {
			verbose = true;
		} else if (!strcmp(a, "--print-env")) {
			print = true;
		} else if (a[0] == '-') {
			fprintf(stderr, "rdnacompat sim: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else {
			break; /* CMD without "--" */
		}
	}
	if (i >= argc && !print) {
		fprintf(stderr, "rdnacompat sim: no command given\n");
		usage(stderr);
		return 2;
	}
	if (check_gpus(n, gpus, cards, is_pci))
		return 2;
	struct rdc_sbuf spec = { 0 };
	for (int k = 0; k < n; k++) {
		if (k)
			rdc_sb_add(&spec, ",");
		rdc_sb_add(&spec, gpus[k]);
		if (cards[k]) {
			rdc_sb_add(&spec, "@");
			rdc_sb_add(&spec, cards[k]);
		}
	}
	if (n == 0)
		rdc_sb_add(&spec, "gfx1031");
	char *dir = sim_lib();
	if (!dir) {
		fprintf(stderr, "rdnacompat sim: the simulator (sim/librdnacompat-sim.so) was not found beside "
				"the tool; build it (make) or set RDNACOMPAT_SIM_LIB\n");
		rdc_sb_free(&spec);
		return 2;
	}
	struct rdc_sbuf ld = { 0 };
	/* The simulator first: the shim's real-function lookup may skip an
	 * interposer loaded after it. */
	const char *old = getenv("LD_PRELOAD");
	rdc_sb_printf(&ld, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
	char *abs_trace = NULL;
	if (trace && trace[0] != '/') {
		char cwd[4096];
		if (getcwd(cwd, sizeof cwd)) {
			struct rdc_sbuf t = { 0 };
			rdc_sb_printf(&t, "%s/%s", cwd, trace);
			abs_trace = t.s;
		}
	}
	int rc = set("RDNACOMPAT_SIM_GPUS", rdc_sb_str(&spec), print) ||
		 set("LD_PRELOAD", rdc_sb_str(&ld), print) ||
		 (trace && set("RDNACOMPAT_SIM_TRACE", abs_trace ? abs_trace : trace, print)) ||
		 (verbose && set("RDNACOMPAT_SIM_VERBOSE", "1", print));
	free(abs_trace);
	free(dir);
	rdc_sb_free(&spec);
	rdc_sb_free(&ld);
	if (rc)
		return 2;
	if (print)
		return 0;
	execvp(argv[i], argv + i);
	int e = errno;
	fprintf(stderr, "rdnacompat sim: cannot run '%s': %s\n", argv[i], strerror(e));
	return e == ENOENT ? 127 : 126;
}
