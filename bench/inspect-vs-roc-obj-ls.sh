#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# inspect-vs-roc-obj-ls.sh [N] [FILE] [BUILD] — time `rdnacompat inspect
# --gpu gfx1031 --kernels --json FILE` against ROCm's `roc-obj-ls FILE`
# (which only lists the entries), N rounds each, interleaved in one run so
# both see the same page cache and machine load.  One warm-up run of each
# first.  Prints per-tool median and mean wall time and the ratio
# roc-obj-ls / inspect (> 1: inspect is faster).
# Defaults: N=10, FILE=Debian's librocsparse.so.0, BUILD=build.
set -euo pipefail
n=${1:-10}
file=${2:-/usr/lib/x86_64-linux-gnu/librocsparse.so.0}
build=${3:-build}
gpu=${GPU:-gfx1031}
tool="$build/bin/rdnacompat"
[ -x "$tool" ] || { echo "no $tool (make BUILD=$build)" >&2; exit 2; }
command -v roc-obj-ls >/dev/null || { echo "no roc-obj-ls (Debian package rocm-llvm? roc-obj-ls)" >&2; exit 2; }
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 2; }

now() { date +%s%N; }
ins=(); rol=()
"$tool" inspect --gpu "$gpu" --kernels --json "$file" >/dev/null || [ $? -eq 1 ]
roc-obj-ls "$file" >/dev/null
for ((i = 0; i < n; i++)); do
  t0=$(now); "$tool" inspect --gpu "$gpu" --kernels --json "$file" >/dev/null || [ $? -eq 1 ]; t1=$(now)
  roc-obj-ls "$file" >/dev/null; t2=$(now)
  ins+=($(( (t1 - t0) / 1000 ))); rol+=($(( (t2 - t1) / 1000 )))
done
python3 - "$n" "$file" "$gpu" "${ins[*]}" "${rol[*]}" <<'PY'
import statistics as st, sys
n, f, gpu = sys.argv[1], sys.argv[2], sys.argv[3]
ins = [int(x) / 1e6 for x in sys.argv[4].split()]
rol = [int(x) / 1e6 for x in sys.argv[5].split()]
print(f"file: {f}  rounds: {n}")
print(f"rdnacompat inspect --gpu {gpu} --kernels --json: median {st.median(ins):.4f} s  mean {st.mean(ins):.4f} s  min {min(ins):.4f} s")
print(f"roc-obj-ls (list only):                       median {st.median(rol):.4f} s  mean {st.mean(rol):.4f} s  min {min(rol):.4f} s")
print(f"ratio roc-obj-ls / inspect (median): {st.median(rol) / st.median(ins):.1f}x")
PY
