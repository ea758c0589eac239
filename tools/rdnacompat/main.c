/* SPDX-License-Identifier: MIT */
/*
 * main.c — `rdnacompat` entry point: dispatches to one subcommand.
 * Exit codes: the subcommand's; 2 for a usage error here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

#ifndef RDC_VERSION
#define RDC_VERSION "0.1.0"
#endif

int rdc_cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("rdnacompat %s\n", RDC_VERSION);
	return 0;
}

static const struct rdc_command commands[] = {
	{ "version", rdc_cmd_version, "print the version" },
	{ "inspect", rdc_cmd_inspect, "list the device code in files; per bundle, native/mapped/missing for a GPU" },
	{ "doctor", rdc_cmd_doctor, "check this machine's GPUs, drivers, permissions, ROCm and environment" },
	{ "explain", rdc_cmd_explain, "explain an error message, a shim log, or a command run in audit mode" },
	{ "run", rdc_cmd_run, "run a program with the shim preloaded and configured" },
	{ "report", rdc_cmd_report, "write a card report (no personal data) for tables/reports/" },
	{ "db", rdc_cmd_db, "check the card reports; build the SQLite database and HTML page" },
	{ "cards", rdc_cmd_cards, "search the card table by name, gfx target or PCI id" },
	{ "kpack", rdc_cmd_kpack, "make or take apart TheRock's split device code (.kpack archives, markers)" },
	{ "sim", rdc_cmd_sim, "run a program on simulated AMD GPUs (kernels executed by an interpreter)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rdnacompat COMMAND [ARGS...]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'rdnacompat COMMAND --help' for details.\n");
}

/* Every subcommand's output reaches its destination or the run fails: a
 * write error on stdout (a full disk, /dev/full, a closed pipe) is said and
 * turns a success into exit 1 (audit W6). */
static int finish(const char *cmd, int rc)
{
	errno = 0;
	bool bad = fflush(stdout) != 0;
	int e = errno;
	bad |= ferror(stdout) != 0;
	if (bad && rc == 0) {
		fprintf(stderr, "rdnacompat%s%s: writing output: %s\n", cmd ? " " : "", cmd ? cmd : "",
			e ? strerror(e) : "write error");
		return 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(NULL, 0);
	}
	if (!strcmp(argv[1], "--version"))
		return finish(NULL, rdc_cmd_version(argc - 1, argv + 1));
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].name, commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "rdnacompat: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
