/* SPDX-License-Identifier: MIT */
/*
 * run_env.h — the environment `rdnacompat run` and `explain -- CMD` give a
 * program: LD_PRELOAD with librdnacompat.so appended, the shim's variables
 * (RDNACOMPAT_MODE, _LOG, _LOG_FILE, _LOG_FORMAT, _DEVICE_<N>) and, for a
 * `--gpu` that names a target, the simulated GPU (RDNACOMPAT_SIM_GPUS, the
 * simulator loaded into every process: sim_env.h).
 *
 * run_env.c holds what needs only libc (and the core's rdc_open_file): the
 * option parser, everything but a simulated --gpu, and the exec; the front
 * end (tools/front/) links it to run a program without the full tool.
 * run_setup.c adds the simulated GPU for the tool.
 */
#ifndef RDC_TOOL_RUN_ENV_H
#define RDC_TOOL_RUN_ENV_H

#include <stdbool.h>
#include <stddef.h>

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
 * naming the problem to stderr and returns -1.  (run_setup.c) */
int rdc_run_setup_env(const struct rdc_run_opts *o);

/* The same without a simulated GPU: LD_PRELOAD, the shim's variables and
 * a --gpu of indices (HIP_VISIBLE_DEVICES); a --gpu that names a target is
 * left to the caller (rdc_run_gpu_simulated).  Prints no override warning
 * (rdc_run_warn_override).  0, or -1 with a message on stderr. */
int rdc_run_setup_base(const struct rdc_run_opts *o);

/* True when --gpu VALUE asks for simulated GPUs (anything but a non-empty
 * list of indices such as "1" or "0,1"). */
bool rdc_run_gpu_simulated(const char *gpu);

/* The warning about HSA_OVERRIDE_GFX_VERSION, when it is set. */
void rdc_run_warn_override(void);

/* Parse one run option at argv[*i] (advancing *i past its value); returns 1
 * when consumed, 0 when not an option of ours, -1 on a missing value. */
int rdc_run_parse_opt(struct rdc_run_opts *o, int argc, char **argv, int *i);

/* `run [OPTIONS] [--] CMD [ARGS]` (argv[0] is "run"): parse the options
 * into *o and return CMD's index in argv; RDC_RUN_HELP for -h/--help
 * before CMD; RDC_RUN_BAD for a usage error, with the sentence that says
 * it in why ("unknown option '--x'", "no command given"). */
enum { RDC_RUN_HELP = -1, RDC_RUN_BAD = -2 };
int rdc_run_parse_args(struct rdc_run_opts *o, int argc, char **argv, char *why, size_t n);

/* execvp, reporting failure; returns 127 (not found) or 126. */
int rdc_run_exec(char **argv);

#endif
