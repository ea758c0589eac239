#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# startup-ccob.sh [N] [BUILD] [OLD_BUILD] — what the shim costs a process whose
# libraries carry compressed bundles (CCOB, zstd): one MUL_MAT case of ggml's
# test-backend-ops inside the Debian root rocm-7.2, where ggml (HIP 6.4,
# rocBLAS 4) and, through the root's hipBLAS, rocBLAS 5, rocSOLVER and HIP 7.2
# load ~500 fat binaries.  Interleaved N rounds (default 5), timed by
# bench/interleave.py:
#   none     no shim, simulated gfx1030 (its own code)
#   off      the shim with RDNACOMPAT_MODE=off, gfx1030
#   native   the shim on gfx1030 (decides every bundle: the card's own entry)
#   sibling  the shim on gfx1031 (maps every bundle from gfx1030)
# and, with OLD_BUILD (another checkout's build directory), old-off,
# old-native and old-sibling with that build's shim.  The comgr cache and the
# shim's decision cache are off in every run (AMD_COMGR_CACHE=0,
# RDNACOMPAT_CACHE=0), so each run is a first run.  Simulated card: the
# engine executes the case's kernels, the same work in each way.
set -euo pipefail
n=${1:-5}
B=$(cd "${2:-build}" && pwd)
old=${3:-}
[ -z "$old" ] || old=$(cd "$old" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
bench_need_build "$B"
[ -z "$old" ] || bench_need_build "$old"
TBO=/usr/libexec/x86_64-linux-gnu/ggml/test-backend-ops
CASE='type_a=f32,type_b=f32,m=16,n=9,k=256,bs=\[1,1\],nr=\[1,1\],per=\[0,1,2,3\],k_v=0'
env=(HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 RDNACOMPAT_CACHE=0 RDNACOMPAT_LOG=warn)
cmd="$TBO test -b ROCm0 -o MUL_MAT -p '$CASE'"
specs=("none=${env[*]} LD_PRELOAD=$B/sim/librdnacompat-sim.so RDNACOMPAT_SIM_GPUS=gfx1030 $cmd")
for b in "$B" ${old:+"$old"}; do
  p=; [ "$b" = "$B" ] || p=old-
  pre="$b/librdnacompat.so:$B/sim/librdnacompat-sim.so"
  specs+=("${p}off=${env[*]} RDNACOMPAT_MODE=off LD_PRELOAD=$pre RDNACOMPAT_SIM_GPUS=gfx1030 $cmd"
          "${p}native=${env[*]} LD_PRELOAD=$pre RDNACOMPAT_SIM_GPUS=gfx1030 $cmd"
          "${p}sibling=${env[*]} LD_PRELOAD=$pre RDNACOMPAT_SIM_GPUS=gfx1031 $cmd")
done
exec "$(dirname "$0")/../tests/roots/run" rocm-7.2 -- \
  python3 "$here/interleave.py" -n "$n" -w 1 --expect "1/1 tests passed" --base none "${specs[@]}"
