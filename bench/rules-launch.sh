#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rules-launch.sh [BUILD] — what the kernel-rule hooks cost a launch of a
# kernel that has no rule (docs/RULES.md, docs/PERF.md), on a simulated gfx1030:
#  1. instructions: callgrind counts the instructions executed inside
#     librdnacompat.so for N1 and N2 launches; (I(N2) - I(N1)) / (N2 - N1) is
#     the shim's cost per launch, start-up excluded.  For hipLaunchKernel
#     (`<<<>>>`) and hipModuleLaunchKernel.  Budget: <= 30.
#  2. wall time of a launch-bound loop (RUNS interleaved runs each with and
#     without the shim, medians).  Budget: <= 2%.  WALL=0 skips it.
set -euo pipefail
B=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/common.sh"
bench_need_build "$B"
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 2; }
mkdir -p "$B/bench"
prog=$B/bench/launch_loop co=$B/bench/launch_loop.co
if [ ! -x "$prog" ] || [ "$bench_here/launch_loop.hip" -nt "$prog" ]; then
  hipcc -O2 --offload-arch=gfx1030 "$bench_here/launch_loop.hip" -o "$prog" >&2
  hipcc --genco --offload-arch=gfx1030 "$bench_here/launch_loop.hip" -o "$co" >&2
fi
N1=${N1:-200} N2=${N2:-1200} RUNS=${RUNS:-5} NWALL=${NWALL:-20000} WALL=${WALL:-1}
sim_env=(LD_LIBRARY_PATH="$B/sim" RDNACOMPAT_SIM_GPUS=gfx1030 HSA_ENABLE_SDMA=0 XDG_CACHE_HOME="$B/bench/xdg")
mkdir -p "$B/bench/xdg"

ir() { # MODE N -> Ir inside librdnacompat.so
  local out=$B/bench/cg.$1.$2
  env "${sim_env[@]}" LD_PRELOAD="$B/librdnacompat.so" valgrind --tool=callgrind --quiet \
    --compress-strings=no --dump-instr=no --callgrind-out-file="$out" "$prog" "$1" "$2" "$co" >/dev/null
  python3 "$bench_here/callgrind_obj.py" "$out" librdnacompat.so
}
for mode in stub module; do
  a=$(ir $mode "$N1") b=$(ir $mode "$N2")
  echo "instructions in librdnacompat.so per launch ($mode): ($b - $a) / ($N2 - $N1) = $(( (b - a) / (N2 - N1) ))"
done

wall() { # with|without MODE -> seconds
  local pre=; [ "$1" = with ] && pre=$B/librdnacompat.so
  local s e
  s=$(date +%s.%N)
  env "${sim_env[@]}" LD_PRELOAD="$pre" "$prog" "$2" "$NWALL" "$co" >/dev/null
  e=$(date +%s.%N)
  python3 -c "print(f'{$e - $s:.4f}')"
}
[ "$WALL" = 1 ] || exit 0
for mode in stub module; do
  w=() wo=()
  for ((i = 0; i < RUNS; i++)); do
    wo+=("$(wall without $mode)")
    w+=("$(wall with $mode)")
  done
  python3 - "$mode" "$NWALL" "${wo[*]}" "${w[*]}" <<'PYEOF'
import statistics, sys
mode, n = sys.argv[1], int(sys.argv[2])
wo = [float(x) for x in sys.argv[3].split()]
w = [float(x) for x in sys.argv[4].split()]
a, b = statistics.median(wo), statistics.median(w)
print(f"wall, {n} launches ({mode}): without {a:.3f} s (min {min(wo):.3f}), with {b:.3f} s "
      f"(min {min(w):.3f}): {100 * (b - a) / a:+.1f}% (medians)")
PYEOF
done
