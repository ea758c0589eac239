#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# startup-stack.sh [N] [BUILD] [RELEASE] — what the shim costs a PyTorch-sized
# process: tests/integration/libs/stack_gemm.cpp linked with the ROCm stack
# that `import torch` loads (never called) runs one 64x64 rocBLAS SGEMM,
# checked against the CPU, inside the Debian root rocm-RELEASE (default 7.2):
#   7.2: MIOpen, hipBLASLt, hipBLAS, rocSPARSE, rocFFT, rocRAND, rocSOLVER, RCCL
#   6.4: MIOpen, hipBLAS, rocSPARSE (what Debian sid ships of ROCm 6.4: it has
#        no rocFFT, rocRAND, rocSOLVER, hipBLASLt or RCCL built against HIP 6.4)
# Two groups, each interleaved N rounds (default 10) by bench/interleave.py,
# wall time, CPU time and peak RSS:
#   mapped card, simulated gfx1031 (code from gfx1030), against the override:
#     ovr     HSA_OVERRIDE_GFX_VERSION=10.3.0, no shim
#     first   the shim, its cache directory removed before each run (every
#             run a first run that writes the cache)
#     nocache the shim, RDNACOMPAT_CACHE=0 (nothing read or written)
#     repeat  the shim, its decision cache warm (a directory of its own)
#     scal-*  the same three running rocblas_sscal as well, whose kernel
#             comes from rocBLAS's own compressed fat binary (one bundle
#             decided at the runtime's unbundling)
#   card with its own code, simulated gfx1030, against no shim:
#     none    no shim
#     shim    the shim, its decision cache warm
#     shim-first  the shim, its cache directory removed before each run
#     run     `BUILD/bin/rdnacompat run -- PROG`, cache warm (the launcher a
#             user types, the shim appended to LD_PRELOAD as it does)
# RDC_BENCH_BASE=OTHER_BUILD adds first-base and repeat-base to the mapped
# card's group: OTHER_BUILD's shim (a clean build of a change's parent), its
# caches in directories of their own.
# Every run: HSA_ENABLE_SDMA=0, AMD_COMGR_CACHE=0 (comgr's own cache off in
# each way alike), started through the same `sh -c 'rm -rf DIR; exec PROG'`
# (the other columns remove an unused directory), so the wrapper costs the
# same in every column.  Simulated card: the engine executes the kernels, the same
# work in each way; the figures are host-side costs, not GPU times.
set -euo pipefail
n=${1:-10}
B=$(cd "${2:-build}" && pwd)
rel=${3:-7.2}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
. "$here/common.sh"
bench_need_build "$B"
run() { "$src/tests/roots/run" "rocm-$rel" -- "$@"; }
out=$B/bench/$rel
[ -x "$B/bin/rdnacompat" ] || { echo "no tool in $B (make BUILD=$B)" >&2; exit 2; }
bench_stack_gemm "$B" "$rel" || exit $?
cache=$(mktemp -d); trap 'rm -rf "$cache"' EXIT
S=$B/sim/librdnacompat-sim.so
SH=$B/librdnacompat.so
P=$out/stack_gemm
e="HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 XDG_CACHE_HOME=$cache"
ef="HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 XDG_CACHE_HOME=$cache/first"
wrap() { echo "sh -c 'rm -rf $1; exec $P ${2:-}'"; }   # DIR [ARG]
W=$(wrap "$cache/unused") Ws=$(wrap "$cache/unused" --scal) F=$(wrap "$cache/first") Fs=$(wrap "$cache/first" --scal)
# warm the repeat runs' cache (and check the shim's run once)
run env HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 XDG_CACHE_HOME="$cache" LD_PRELOAD="$SH:$S" \
  RDNACOMPAT_SIM_GPUS=gfx1031 "$P" --scal | grep -q "ok: rocblas_sscal"
base=()
if [ -n "${RDC_BENCH_BASE:-}" ]; then
  SB=$(cd "$RDC_BENCH_BASE" && pwd)/librdnacompat.so
  [ -f "$SB" ] || { echo "RDC_BENCH_BASE: no librdnacompat.so in $RDC_BENCH_BASE" >&2; exit 2; }
  run env HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 XDG_CACHE_HOME="$cache/base" LD_PRELOAD="$SB:$S" \
    RDNACOMPAT_SIM_GPUS=gfx1031 "$P" --scal | grep -q "ok: rocblas_sscal"
  echo "-base: the shim of $SB"
  base=("first-base=HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 XDG_CACHE_HOME=$cache/base-first LD_PRELOAD=$SB:$S RDNACOMPAT_SIM_GPUS=gfx1031 $(wrap "$cache/base-first")"
        "repeat-base=HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 XDG_CACHE_HOME=$cache/base LD_PRELOAD=$SB:$S RDNACOMPAT_SIM_GPUS=gfx1031 $W")
fi
echo "== ROCm $rel stack"
echo "== mapped card: simulated gfx1031, against HSA_OVERRIDE_GFX_VERSION=10.3.0"
run python3 "$here/interleave.py" -n "$n" -w 1 --expect "ok: rocblas_sgemm" --base ovr \
  "ovr=$e HSA_OVERRIDE_GFX_VERSION=10.3.0 LD_PRELOAD=$S RDNACOMPAT_SIM_GPUS=gfx1031 $W" \
  "first=$ef LD_PRELOAD=$SH:$S RDNACOMPAT_SIM_GPUS=gfx1031 $F" \
  "nocache=$e RDNACOMPAT_CACHE=0 LD_PRELOAD=$SH:$S RDNACOMPAT_SIM_GPUS=gfx1031 $W" \
  "repeat=$e LD_PRELOAD=$SH:$S RDNACOMPAT_SIM_GPUS=gfx1031 $W" \
  "scal-ovr=$e HSA_OVERRIDE_GFX_VERSION=10.3.0 LD_PRELOAD=$S RDNACOMPAT_SIM_GPUS=gfx1031 $Ws" \
  "scal-first=$ef LD_PRELOAD=$SH:$S RDNACOMPAT_SIM_GPUS=gfx1031 $Fs" \
  "scal-repeat=$e LD_PRELOAD=$SH:$S RDNACOMPAT_SIM_GPUS=gfx1031 $Ws" "${base[@]}"
echo "== card with its own code: simulated gfx1030, against no shim"
run python3 "$here/interleave.py" -n "$n" -w 1 --expect "ok: rocblas_sgemm" --base none \
  "none=$e LD_PRELOAD=$S RDNACOMPAT_SIM_GPUS=gfx1030 $W" \
  "shim=$e LD_PRELOAD=$SH:$S RDNACOMPAT_SIM_GPUS=gfx1030 $W" \
  "shim-first=$ef LD_PRELOAD=$SH:$S RDNACOMPAT_SIM_GPUS=gfx1030 $F" \
  "run=$e LD_PRELOAD=$S RDNACOMPAT_SIM_GPUS=gfx1030 sh -c 'rm -rf $cache/unused; exec $B/bin/rdnacompat run -- $P'"
