#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-unit.sh BUILD — run every cmocka unit test binary in BUILD/tests with
# the fixtures of BUILD/fixtures; print one closing line "N passed, N failed".
set -u
build=$(cd "${1:-build}" && pwd)
export RDC_FIXTURES="$build/fixtures"
export RDC_SRCDIR="$PWD"
export RDC_BUILD="$build"
pass=0; fail=0; skip=0; failed=()
for t in "$build"/tests/test_*; do
  [ -x "$t" ] || continue
  echo "== $t"
  "$t"; rc=$?
  if [ "$rc" -eq 0 ]; then pass=$((pass+1));
  elif [ "$rc" -eq 77 ]; then skip=$((skip+1));  # the test says why it cannot run here
  else fail=$((fail+1)); failed+=("$(basename "$t")"); fi
done
[ ${#failed[@]} -eq 0 ] || echo "unit: failed: ${failed[*]}"
echo "unit: $pass passed, $fail failed${skip:+, $skip skipped}"
[ "$fail" -eq 0 ]
