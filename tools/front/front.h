/* SPDX-License-Identifier: MIT */
/*
 * front.h — the `rdnacompat` front end: the small program users run as
 * `rdnacompat` (<prefix>/bin/rdnacompat).  It links libc only, so starting
 * it costs little; `run` in the common case is done here (front_run.c), and
 * every other command, help and usage error included, is the full tool's
 * (<prefix>/libexec/rdnacompat/rdnacompat-tool, front_tool.c), exec'd with
 * the same arguments.  Issue 37: `rdnacompat run` adds <= 1 ms over setting
 * LD_PRELOAD by hand (docs/PERF.md).
 */
#ifndef RDC_FRONT_H
#define RDC_FRONT_H

/* rdc_front_run's answer when the full tool must do the work. */
#define RDC_FRONT_TOOL (-1)

/* `run [OPTIONS] [--] CMD [ARGS]` (argv[0] is "run"), when it needs
 * nothing of the full tool: sets the environment as the tool's `run` does
 * and execs CMD; returns 2 on a setup error (said on stderr), 126 or 127
 * when CMD cannot be run.  RDC_FRONT_TOOL, with nothing changed, for help,
 * a usage error, a --gpu that names a target (the simulated GPU) and
 * --view-arch-files. */
int rdc_front_run(int argc, char **argv);

/* Exec the full tool with argv unchanged (argv[0] included).  Returns only
 * on failure: 2, with a message naming the path it tried. */
int rdc_front_exec_tool(char **argv);

#endif
