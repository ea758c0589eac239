/* SPDX-License-Identifier: MIT */
/*
 * commands.h — the subcommands of the `rdnacompat` tool.  Each lives in its
 * own cmd_<name>.c and has the signature below: argv[0] is the subcommand
 * name; returns the process exit code (documented per command in --help and
 * docs/man/rdnacompat.1).
 */
#ifndef RDC_TOOL_COMMANDS_H
#define RDC_TOOL_COMMANDS_H

typedef int (*rdc_cmd_fn)(int argc, char **argv);

struct rdc_command {
	const char *name;
	rdc_cmd_fn fn;
	const char *summary;
};

/* One line per command: add yours here and in main.c's table. */
int rdc_cmd_version(int argc, char **argv);
int rdc_cmd_doctor(int argc, char **argv);   /* cmd_doctor.c */
int rdc_cmd_explain(int argc, char **argv);  /* cmd_explain.c */
int rdc_cmd_run(int argc, char **argv);      /* cmd_run.c */
int rdc_cmd_sim(int argc, char **argv);      /* cmd_sim.c */
int rdc_cmd_report(int argc, char **argv);   /* cmd_report.c */
int rdc_cmd_db(int argc, char **argv);       /* cmd_db.c */
int rdc_cmd_cards(int argc, char **argv);    /* cmd_cards.c */
int rdc_cmd_inspect(int argc, char **argv);  /* cmd_inspect.c */
int rdc_cmd_kpack(int argc, char **argv);    /* cmd_kpack.c */

#endif
