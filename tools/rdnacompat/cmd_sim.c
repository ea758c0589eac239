/* SPDX-License-Identifier: MIT */
/*
 * cmd_sim.c — `rdnacompat sim --gpu TARGET [--gpu TARGET ...] [--card NAME |
 * --pci ID] -- CMD [ARGS]`: run CMD on simulated AMD GPUs.  Sets
 * RDNACOMPAT_SIM_GPUS (and RDNACOMPAT_SIM_TRACE / _VERBOSE) and puts the
 * simulator (librdnacompat-sim.so, which emulates /dev/kfd, the render nodes
 * and sysfs) into every process CMD starts, then execs CMD.
 *
 * How the simulator reaches every process under CMD (a private
 * /etc/ld.so.preload, or LD_PRELOAD where namespaces cannot be made or
 * RDNACOMPAT_SIM_NAMESPACE=0): sim_env.c.
 * The simulator is docs/SIMGPU.md; it executes gfx10.3/gfx11 kernels.
 * `sim --coverage FILE...` runs nothing: it lists the instructions the
 * execution engine cannot execute (sim_coverage.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "sim_coverage.h"
#include "sim_env.h"
#include "tool_util.h"

#define MAX_GPUS 8

static void usage(FILE *f)
{
	fputs("usage: rdnacompat sim [--gpu TARGET [--card NAME | --pci ID]]... [OPTIONS] -- CMD [ARGS...]\n"
	      "       rdnacompat sim --coverage [--json] [--target PROC] FILE...\n"
	      "\n"
	      "Runs CMD with Debian's real ROCm stack (ROCR, HIP, rocminfo, ROCm libraries)\n"
	      "seeing simulated AMD GPUs: a test-only preloaded library that emulates /dev/kfd,\n"
	      "the render nodes and the sysfs topology below the real thunk.\n"
	      "Kernels of gfx10.3 (RDNA2) and gfx11 (RDNA3) cards are EXECUTED by an instruction-level\n"
	      "interpreter: results are those of the code as compiled (\"simulated card (executed)\"),\n"
	      "not of hardware — no timing, hangs or speed.  An instruction the engine lacks, a trap\n"
	      "or a memory fault ends the program with one line naming the kernel and PC\n"
	      "(--coverage lists the instructions the engine lacks beforehand).\n"
	      "RDNACOMPAT_SIM_EXEC=0 retires dispatches without running them.  Memory copies (SDMA)\n"
	      "really move bytes.  See docs/SIMGPU.md.\n"
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
	      "  --coverage FILE...  run nothing: list per code object in FILEs (programs, libraries,\n"
	      "                   bundles, code objects) the instructions the execution engine cannot\n"
	      "                   execute yet, and a summary (--json, --target PROC; see --coverage --help)\n"
	      "  (HSA_OVERRIDE_GFX_VERSION[_<node>] in the environment is honoured like the real thunk.)\n"
	      "\n"
	      "The simulator is sim/librdnacompat-sim.so beside the tool's directory (build tree),\n"
	      "../lib/rdnacompat/sim/ or ../lib/<triplet>/rdnacompat/sim/ when installed, or\n"
	      "RDNACOMPAT_SIM_LIB.\n"
	      "\n"
	      "exit: CMD's exit status (exec replaces this process); 2 usage or setup error,\n"
	      "126 CMD cannot be executed, 127 CMD not found\n",
	      f);
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
		if (!strcmp(a, "--coverage"))
			return rdc_sim_coverage(argc - i - 1, argv + i + 1);
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
	/* Each GPU as the simulator will read it (TARGET[@CARD]), checked
	 * here first: a typo is exit 2 with the reason, not a default card. */
	struct rdc_sbuf spec = { 0 };
	for (int k = 0; k < n; k++) {
		struct rdc_sbuf item = { 0 };
		rdc_sb_add(&item, gpus[k]);
		if (cards[k]) {
			rdc_sb_add(&item, "@");
			rdc_sb_add(&item, cards[k]);
		}
		char err[512];
		int bad = rdc_sim_check_item(rdc_sb_str(&item), err, sizeof err);
		if (bad)
			fprintf(stderr, "rdnacompat sim: %s%s\n", cards[k] ? (is_pci[k] ? "--pci: " : "--card: ") : "",
				err);
		rdc_sb_printf(&spec, "%s%s", k ? "," : "", rdc_sb_str(&item));
		rdc_sb_free(&item);
		if (bad) {
			rdc_sb_free(&spec);
			return 2;
		}
	}
	if (n == 0)
		rdc_sb_add(&spec, "gfx1031");
	char *dir = rdc_sim_lib();
	if (!dir) {
		fprintf(stderr, "rdnacompat sim: the simulator (sim/librdnacompat-sim.so) was not found beside "
				"the tool; build it (make) or set RDNACOMPAT_SIM_LIB\n");
		rdc_sb_free(&spec);
		return 2;
	}
	const char *nsenv = getenv("RDNACOMPAT_SIM_NAMESPACE");
	bool use_ns = !(nsenv && !strcmp(nsenv, "0"));
	if (print) {
		if (use_ns)
			printf("# /etc/ld.so.preload (private mount namespace) adds %s\n", dir);
		else
			printf("LD_PRELOAD=%s%s%s\n", dir, getenv("LD_PRELOAD") && *getenv("LD_PRELOAD") ? ":" : "",
			       getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "");
	} else if (rdc_sim_attach(dir, use_ns, "rdnacompat sim", &use_ns)) {
		free(dir);
		rdc_sb_free(&spec);
		return 2;
	}
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
		 (trace && set("RDNACOMPAT_SIM_TRACE", abs_trace ? abs_trace : trace, print)) ||
		 (verbose && set("RDNACOMPAT_SIM_VERBOSE", "1", print));
	free(abs_trace);
	free(dir);
	rdc_sb_free(&spec);
	if (rc)
		return 2;
	if (print)
		return 0;
	execvp(argv[i], argv + i);
	int e = errno;
	fprintf(stderr, "rdnacompat sim: cannot run '%s': %s\n", argv[i], strerror(e));
	return e == ENOENT ? 127 : 126;
}
