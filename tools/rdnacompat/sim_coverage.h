/* SPDX-License-Identifier: MIT */
/*
 * sim_coverage.h — `rdnacompat sim --coverage`: which instructions of the
 * code objects in files the simulated card's execution engine cannot
 * execute (sim_coverage.c).
 */
#ifndef RDC_TOOL_SIM_COVERAGE_H
#define RDC_TOOL_SIM_COVERAGE_H

/* argv: the arguments after --coverage.  Exit status: 0 all executable,
 * 1 some not, 2 usage or unreadable file. */
int rdc_sim_coverage(int argc, char **argv);

#endif
