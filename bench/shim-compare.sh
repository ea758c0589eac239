#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shim-compare.sh N BUILD_A [BUILD_B ...] — the librocsparse start-up run of
# bench/shim-startup.sh (bench/sparse_run.c on the simulated card, gfx1031)
# with the shim of several builds (e.g. before/after a change, each a clean
# `git archive` build) against the same run under
# HSA_OVERRIDE_GFX_VERSION=10.3.0 without the shim, all interleaved in one
# run (bench/interleave.py; the override is the base).  The simulator and
# the program come from BUILD_A.  Extra environment for the shim runs:
# SHIM_ENV (e.g. SHIM_ENV="RDNACOMPAT_CACHE=0").
set -euo pipefail
n=${1:?N}; shift
[ $# -ge 1 ] || { echo "usage: $0 N BUILD_A [BUILD_B ...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
A=$(cd "$1" && pwd)
. "$here/common.sh"
[ -f "$A/sim/librdnacompat-sim.so" ] || { echo "no simulator in $A" >&2; exit 2; }
bench_need_rocsparse
prog=$(bench_sparse_run "$A")
common="LD_PRELOAD=$A/sim/librdnacompat-sim.so HSA_ENABLE_SDMA=0 RDNACOMPAT_SIM_GPUS=gfx1031"
specs=("override=$common HSA_OVERRIDE_GFX_VERSION=10.3.0 $prog")
i=0
for b in "$@"; do
  B=$(cd "$b" && pwd)
  [ -f "$B/librdnacompat.so" ] || { echo "no shim in $B" >&2; exit 2; }
  specs+=("shim$i=$common ${SHIM_ENV:-} LD_PRELOAD=$A/sim/librdnacompat-sim.so:$B/librdnacompat.so $prog")
  echo "shim$i: $B/librdnacompat.so"
  i=$((i + 1))
done
echo "simulated card (kernels dispatched, not executed); $(nproc) CPUs; $(date -u +%FT%TZ)"
python3 "$here/interleave.py" -n "$n" -w 1 --expect "saxpyi: launched" --base override "${specs[@]}"
