#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# smoke-codeobj.sh BUILD [SECONDS] — run the code-object fuzzer briefly
# (default 25 s) seeded with the real clang-built code objects of
# BUILD/fixtures/co and BUILD/fixtures/codeobj (v3, v5, 192 VGPRs, and
# multinote-*: two metadata notes, as in rocBLAS's Tensile .co files).  A finding includes any allocation over 4 GiB
# (-malloc_limit_mb): msgpack-c allocates declared entry counts up front, and
# the reader must refuse such declarations first (codeobj_msgpack_bounds.c).
# Exit 0 when no finding.
set -euo pipefail
build=${1:?usage: smoke-codeobj.sh BUILD [SECONDS]}
secs=${2:-25}
fz="$build/fuzz/fuzz_codeobj"
corpus="$build/fuzz/corpus-co"
mkdir -p "$corpus" "$build/fuzz/findings"
cp "$build"/fixtures/co/*.co "$corpus"/ 2>/dev/null ||
  { echo "fuzz-smoke: no fixture code objects in $build/fixtures/co" >&2; exit 1; }
cp "$build"/fixtures/codeobj/*.co "$corpus"/ 2>/dev/null || true
echo "fuzz-smoke (codeobj): $(ls "$corpus" | wc -l) seeds, ${secs}s"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
"$fz" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
  -artifact_prefix="$build/fuzz/findings/" -print_final_stats=1 "$corpus" 2>&1 | tail -15
