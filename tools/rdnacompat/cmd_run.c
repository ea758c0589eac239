/* SPDX-License-Identifier: MIT */
/*
 * cmd_run.c — `rdnacompat run [OPTIONS] -- CMD [ARGS]`: exec CMD with
 * librdnacompat.so preloaded and the shim configured (run_env.c).  The
 * front end (tools/front/) runs the common case itself and execs the tool
 * for the rest: help, usage errors, a simulated --gpu, --view-arch-files.
 */
#include <stdio.h>

#include "commands.h"
#include "run_env.h"
#include "view_env.h"

static void usage(FILE *f)
{
	fputs("usage: rdnacompat run [OPTIONS] -- CMD [ARGS...]\n"
	      "\n"
	      "Runs CMD with librdnacompat.so appended to LD_PRELOAD and the shim configured.\n"
	      "\n"
	      "  --gpu N[,N]          select real GPUs (HIP_VISIBLE_DEVICES=N)\n"
	      "  --gpu TARGET[@CARD][,...]  run on simulated GPUs, as `rdnacompat sim` does\n"
	      "                       (RDNACOMPAT_SIM_GPUS; CARD a name or PCI id; the simulator\n"
	      "                       sim/librdnacompat-sim.so beside the tool or RDNACOMPAT_SIM_LIB)\n"
	      "  --mode MODE          map (default), spoof, audit or off (RDNACOMPAT_MODE)\n"
	      "  --device N=MODE      mode for HIP device N only (RDNACOMPAT_DEVICE_N)\n"
	      "  --log FILE           shim log file (RDNACOMPAT_LOG_FILE, made absolute)\n"
	      "  --log-level LEVEL    error, warn (default), info or debug (RDNACOMPAT_LOG)\n"
	      "  --log-format FMT     text or json (RDNACOMPAT_LOG_FORMAT); --json-log = json\n"
	      "  --shim PATH          use this librdnacompat.so (default: beside the tool,\n"
	      "                       ../librdnacompat.so, ../lib/librdnacompat.so or\n"
	      "                       ../lib/<triplet>/librdnacompat.so; RDNACOMPAT_SHIM)\n"
	      "  --view-arch-files[=DIR[:DIR]]  for programs that check in code the preload cannot\n"
	      "                       reach whether rocBLAS has files for the card (Ollama): in a\n"
	      "                       private mount namespace, list TensileLibrary_lazy_<card>.dat in\n"
	      "                       each rocBLAS library DIR (default: found beside CMD, Ollama's\n"
	      "                       lib/ollama) when a compatible target's file is there; opening it\n"
	      "                       still goes through the shim's logged redirection; the real\n"
	      "                       directory is not changed\n"
	      "\n"
	      "exit: CMD's exit status (exec replaces this process); 2 usage or setup error,\n"
	      "126 CMD cannot be executed, 127 CMD not found\n",
	      f);
}

int rdc_cmd_run(int argc, char **argv)
{
	struct rdc_run_opts o = { 0 };
	char why[512];
	int i = rdc_run_parse_args(&o, argc, argv, why, sizeof why);
	if (i == RDC_RUN_HELP) {
		usage(stdout);
		return 0;
	}
	if (i < 0) {
		fprintf(stderr, "rdnacompat run: %s\n", why);
		usage(stderr);
		return 2;
	}
	if (rdc_run_setup_env(&o) != 0)
		return 2;
	if (o.view && rdc_view_arch_files(o.view, argv[i], o.gpu) != 0)
		return 2;
	return rdc_run_exec(argv + i);
}
