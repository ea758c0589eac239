#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libs-llama.sh [N] [BUILD] [ROOT] — start-up cost of the shim on llama.cpp:
# Debian's llama-bench (ggml 0.27's HIP backend, libggml-hip.so, a 1.27 GB fat
# binary with 140 bundles) with the tiny model of
# tests/integration/libs/llama_model.py (pp16 + tg4, flash attention off) on a
# simulated gfx1031 inside the Debian root ROOT (default rocm-6.4), three ways,
# interleaved, N rounds (default 3): override, first (empty decision cache),
# repeat (warm cache) — bench/libs_run.py says how each is run and measured.
# Simulated card: the engine executes the kernels, the same work in each way.
set -euo pipefail
n=${1:-3}
B=$(cd "${2:-build}" && pwd)
root=${3:-rocm-6.4}
src=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$B/librdnacompat.so" ] && [ -f "$B/sim/librdnacompat-sim.so" ] || { echo "build $B first" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$src/tests/roots/run" "$root" -- python3 "$src/tests/integration/libs/llama_model.py" "$tmp/tiny.gguf"
"$src/tests/roots/run" "$root" -- python3 "$src/bench/libs_run.py" "$B" "$tmp" "$n" \
  "llama-bench pp16+tg4" -- llama-bench -m "$tmp/tiny.gguf" -p 16 -n 4 -r 1 -fa 0
