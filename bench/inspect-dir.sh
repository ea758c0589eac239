#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# inspect-dir.sh [N] [DIR] [BUILD] — `rdnacompat inspect --gpu gfx1031 DIR`
# (the whole directory, text) against listing the same files with ROCm's
# roc-obj-ls, one process per file as a user would (`for f in DIR/*;
# roc-obj-ls $f`), N rounds interleaved (default 3), after one warm-up of
# each so both read from the page cache.  Prints the medians and the ratio
# roc-obj-ls / inspect (> 1: inspect is faster).
# Default DIR: rocBLAS's library directory in the rocm-6.4 root (1,349 files).
set -euo pipefail
n=${1:-3}
dir=${2:-}
B=${3:-build}
tool=$B/bin/rdnacompat
[ -x "$tool" ] || { echo "no $tool (make BUILD=$B)" >&2; exit 2; }
command -v roc-obj-ls >/dev/null || { echo "no roc-obj-ls" >&2; exit 2; }
if [ -z "$dir" ]; then
  src=$(cd "$(dirname "$0")/.." && pwd)
  root=$("$src/tests/roots/path" rocm-6.4) || exit 2
  dir=$(ls -d "$root"/usr/lib/x86_64-linux-gnu/rocblas/*/library | head -1)
fi
[ -d "$dir" ] || { echo "no directory $dir" >&2; exit 2; }
now() { date +%s%N; }
ins() { "$tool" inspect --gpu gfx1031 "$dir" >/dev/null; }
rol() { for f in "$dir"/*; do roc-obj-ls "$f" >/dev/null 2>&1 || true; done; }
ins; rol
a=(); b=()
for ((i = 0; i < n; i++)); do
  t0=$(now); ins; t1=$(now); rol; t2=$(now)
  a+=($(( (t1 - t0) / 1000 ))); b+=($(( (t2 - t1) / 1000 )))
done
python3 - "$dir" "$(ls "$dir" | wc -l)" "${a[*]}" "${b[*]}" <<'PY'
import statistics as st, sys
d, nf, a, b = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split()], [int(x) for x in sys.argv[4].split()]
ma, mb = st.median(a) / 1e6, st.median(b) / 1e6
print(f"{d} ({nf} files), {len(a)} rounds, medians:")
print(f"  rdnacompat inspect --gpu gfx1031 DIR  {ma:9.3f} s")
print(f"  roc-obj-ls, one per file              {mb:9.3f} s")
print(f"  roc-obj-ls / inspect: {mb / ma:.0f}x")
PY
