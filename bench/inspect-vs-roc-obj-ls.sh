#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# inspect-vs-roc-obj-ls.sh [N] [FILE|all] [BUILD] — time `rdnacompat inspect
# --gpu gfx1031 --kernels --json FILE` against ROCm's `roc-obj-ls FILE` (which
# only lists the entries), N rounds (default 10) interleaved in one run by
# bench/interleave.py (order rotated each round, one warm-up round, output to
# /dev/null), so both see the same page cache and machine load.  Prints per
# tool the median and spread of wall and CPU (user+sys) time, the load
# average before/after, and the ratio inspect / roc-obj-ls (< 1: inspect is
# faster; docs/PERF.md's goal is <= 0.5).
# FILE "all" (the default) runs, one after the other: Debian's librocsparse.so.0
# (host, ROCm 5.2 packaging) and libggml-hip.so of the rocm-6.4 root (make roots).
set -euo pipefail
n=${1:-10}
which=${2:-all}
build=${3:-build}
gpu=${GPU:-gfx1031}
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/bin/rdnacompat"
[ -x "$tool" ] || { echo "no $tool (make BUILD=$build)" >&2; exit 2; }
command -v roc-obj-ls >/dev/null || { echo "no roc-obj-ls (Debian package rocm-llvm? roc-obj-ls)" >&2; exit 2; }
files=()
if [ "$which" = all ]; then
  files+=(/usr/lib/x86_64-linux-gnu/librocsparse.so.0)
  root=$("$here/../tests/roots/path" rocm-6.4) || { echo "no rocm-6.4 root (make roots)" >&2; exit 2; }
  files+=("$root/usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so")
else
  files+=("$which")
fi
for f in "${files[@]}"; do
  [ -r "$f" ] || { echo "cannot read $f" >&2; exit 2; }
  "$tool" inspect --gpu "$gpu" --kernels --json "$f" >/dev/null || [ $? -eq 1 ] ||
    { echo "inspect $f failed" >&2; exit 2; }
  echo "== $f ($(stat -L -c %s "$f") bytes; $(nproc) CPUs)"
  python3 "$here/interleave.py" -n "$n" -w 1 --base roc-obj-ls \
    "inspect=$tool inspect --gpu $gpu --kernels --json $f" "roc-obj-ls=roc-obj-ls $f"
done
