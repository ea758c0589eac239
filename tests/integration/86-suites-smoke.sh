#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2 — the 6.4 root holds the rocPRIM, hipCUB, rocThrust and rocSPARSE test packages, the 7.2 root hipBLASLt's, MIOpen's and rocWMMA's
# 86-suites-smoke.sh BUILD — the smoke lines of `make suites` (tests/suites/*.list, one
# family of each Debian library test suite in this release's root) on simulated cards that
# execute the kernels: natively on gfx1030 and gfx1100, under the shim on gfx1031 and
# gfx1101 (a suite whose package has no RDNA2 code runs on the RDNA3 cards only).
# Asserted by tests/suites/run.sh: every selected test passes or has its reason in
# tests/suites/known-failures.tsv, each mapped card passes exactly what its native sibling
# passes, and at least one test ran per suite and card.
. "$(dirname "$0")/lib/exec_common.bash"   # BUILD, rel, fail/skip/ok, SIM, SHIM, tmp, clean environment
SRC=$(cd "$(dirname "$0")/../.." && pwd)
[ -n "${RDC_ROOT:-}" ] || skip "the suites run in the Debian roots only"
out=$("$SRC/tests/suites/run.sh" "$BUILD" --smoke --jobs 2 --cards "gfx1030 gfx1100 gfx1031 gfx1101" 2>&1); rc=$?
echo "$out" | sed 's/^/  /'
[ $rc -eq 77 ] && skip "no suite of the ROCm $rel root"
[ $rc -eq 0 ] || fail "tests/suites/run.sh --smoke: rc=$rc"
res=$BUILD/suites-smoke-$RDC_ROOT/results.tsv
awk -F'\t' 'NR > 1 && $3 != "n/a" && ($4 + 0 < 1) { print; bad = 1 } END { exit bad }' "$res" ||
  fail "a suite ran no test on some card (results.tsv above)"
n=$(awk -F'\t' 'NR > 1 && $3 != "n/a" { s += $4 } END { print s + 0 }' "$res")
ok "suite smoke lines: $n tests passed in all on simulated cards (executed), mapped cards as their native siblings"
