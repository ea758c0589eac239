#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libs-rocblas.sh [N] [BUILD] [ROOT] — start-up cost of the shim on rocBLAS:
# tests/integration/libs/rocblas_gemm.cpp (sgemm, hgemm, strided batched
# sgemm; rocBLAS loads its Tensile objects itself, by hipModuleLoadData) built
# with the root's hipcc, on a simulated gfx1031 inside the Debian root ROOT
# (default rocm-6.4), interleaved N rounds (default 10): override, first
# (empty decision cache), repeat (warm cache) — bench/libs_run.py says how
# each is run and measured.  Simulated card: the engine executes the kernels,
# the same work in each way.
set -euo pipefail
n=${1:-10}
B=$(cd "${2:-build}" && pwd)
root=${3:-rocm-6.4}
src=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$B/librdnacompat.so" ] && [ -f "$B/sim/librdnacompat-sim.so" ] || { echo "build $B first" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prog=$B/bench/rocblas_gemm-${root#rocm-}
mkdir -p "$B/bench"
if [ ! -x "$prog" ] || [ "$src/tests/integration/libs/rocblas_gemm.cpp" -nt "$prog" ]; then
  "$src/tests/roots/run" "$root" -- hipcc -O1 "$src/tests/integration/libs/rocblas_gemm.cpp" \
    -lrocblas -o "$prog"
fi
"$src/tests/roots/run" "$root" -- python3 "$src/bench/libs_run.py" "$B" "$tmp" "$n" \
  "rocBLAS sgemm+hgemm+strided batched (rocblas_gemm.cpp, $root)" -- "$prog"
