#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-unit.sh BUILD — run every cmocka unit test binary in BUILD/tests with
# the fixtures of BUILD/fixtures; print one closing line "N passed, N failed".
# A test exits 77 to skip, saying why; a skip() in tests/unit without a
# print_message of its reason just before it fails the run.
set -u
build=$(cd "${1:-build}" && pwd)
export RDC_FIXTURES="$build/fixtures"
export RDC_SRCDIR="$PWD"
export RDC_BUILD="$build"
pass=0; fail=0; skip=0; failed=()
# Every skip says why: each cmocka skip() in tests/unit is preceded (within
# the two lines before it) by a print_message naming the reason.
src=$(dirname "$0")/unit
bare=$(awk 'FNR == 1 { p1 = p2 = "" }
  /(^|[^_[:alnum:]])skip\(\);/ && p1 !~ /print_message/ && p2 !~ /print_message/ { print FILENAME ":" FNR ": " $0 }
  { p2 = p1; p1 = $0 }' "$src"/*.c)
if [ -n "$bare" ]; then
  echo "unit: a skip without a reason (print_message the reason before skip()):"
  echo "$bare"
  fail=$((fail+1)); failed+=("skip-reasons")
fi
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
