#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-integration.sh BUILD [TEST...] — run tests/integration/*.sh (or the
# named tests) in order.  Each script
# gets BUILD (absolute) as $1 and exits 0 (pass), 77 (skip, with a reason on
# stderr) or anything else (fail).  Closing line: "N passed, N failed, N skipped".
set -u
build=$(cd "${1:-build}" && pwd)
shift || true
if [ $# -gt 0 ]; then tests=("$@"); else tests=(tests/integration/*.sh); fi
export RDC_FIXTURES="$build/fixtures" RDC_SRCDIR="$PWD" RDC_BUILD="$build"
pass=0; fail=0; skip=0; failed=()
for t in "${tests[@]}"; do
  [ -f "$t" ] || continue
  echo "== $t"
  start=$(date +%s)
  # Each test gets an empty cache directory of its own, so the shim's
  # decision cache never carries state between tests or into $HOME.
  cache="$build/test-cache/$(basename "$t" .sh)"
  rm -rf "$cache" && mkdir -p "$cache"
  XDG_CACHE_HOME="$cache" bash "$t" "$build"; rc=$?
  echo "== $t rc=$rc ($(( $(date +%s) - start ))s)"
  case $rc in
    0) pass=$((pass+1));;
    77) skip=$((skip+1));;
    *) fail=$((fail+1)); failed+=("$t");;
  esac
done
[ ${#failed[@]} -eq 0 ] || echo "integration: failed: ${failed[*]}"
echo "integration: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
