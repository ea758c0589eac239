#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# long-run.sh BUILD [RUNS] [CAP_SECONDS] — the long fuzzing runs of issue 11:
# each fuzzer of `make fuzz-smoke` in turn (one core: one at a time, run it
# under `nice`) for RUNS executions (default 10 000 000) or CAP_SECONDS
# (default 1800) per target, whichever comes first, on the corpora the smoke
# runs left in BUILD/fuzz/.  Final stats per target in
# BUILD/fuzz/long-<target>.txt; findings in BUILD/fuzz/findings/.
set -uo pipefail
build=${1:?usage: long-run.sh BUILD [RUNS] [CAP_SECONDS]}
runs=${2:-10000000}
cap=${3:-1800}
declare -A corpus=([bundle]=corpus [codeobj]=corpus-co [target]=corpus-target [tables]=corpus-tables
                   [dcache]=corpus-dcache [fatbin]=corpus-fatbin)
for t in target dcache bundle codeobj fatbin tables; do
  fz="$build/fuzz/fuzz_$t"
  [ -x "$fz" ] || continue
  mkdir -p "$build/fuzz/${corpus[$t]}"
  start=$(date +%s)
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$fz" -runs="$runs" -max_total_time="$cap" \
    -max_len=65536 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
    -artifact_prefix="$build/fuzz/findings/long-$t-" -print_final_stats=1 \
    "$build/fuzz/${corpus[$t]}" >"$build/fuzz/long-$t.log" 2>&1
  rc=$?
  { echo "target $t rc=$rc seconds=$(( $(date +%s) - start ))"
    grep -E "DONE|stat::number_of_executed_units|ERROR|SUMMARY" "$build/fuzz/long-$t.log" | tail -5; } \
    >"$build/fuzz/long-$t.txt"
done
