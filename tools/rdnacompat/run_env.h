/* SPDX-License-Identifier: MIT */
/*
 * run_env.h — the environment `rdnacompat run` and `explain -- CMD` give a
 * program: LD_PRELOAD with librdnacompat.so appended, the shim's variables
 * (RDNACOMPAT_MODE, _LOG, _LOG_FILE, _LOG_FORMAT, _DEVICE_<N>) and, for a
 * `--gpu` that names a target, the simulated GPU (RDNACOMPAT_SIM_GPUS, the
 * simulator loaded into every process: sim_env.h).
 */
#ifndef RDC_TOOL_RUN_ENV_H
#define RDC_TOOL_RUN_ENV_H

#include <stdbool.h>

struct rdc_run_opts {
	const char *gpu;           /* "1" / "0,1": HIP_VISIBLE_DEVICES; "gfx1031[@CARD],...": simulated */
	const char *mode;          /* map|spoof|audit|off or NULL */
	const char *log_file;      /* RDNACOMPAT_LOG_FILE */
	const char *log_level;     /* error|warn|info|debug */
	const char *log_format;    /* text|json */
	const char *shim;          /* explicit librdnacompat.so or NULL: found beside the tool */
	const char *view;          /* --view-arch-files[=DIR:DIR]: "" auto, NULL off (view_env.h) */
	const char *devices[16];   /* "N=MODE" for RDNACOMPAT_DEVICE_N */
	int n_devices;
};

/* Set the variables in this process (for exec).  On error prints a message
 * naming the problem to stderr and returns -1. */
int rdc_run_setup_env(const struct rdc_run_opts *o);

/* Parse one run option at argv[*i] (advancing *i past its value); returns 1
 * when consumed, 0 when not an option of ours, -1 on a missing value. */
int rdc_run_parse_opt(struct rdc_run_opts *o, int argc, char **argv, int *i);

/* execvp, reporting failure; returns 127 (not found) or 126. */
int rdc_run_exec(char **argv);

#endif
