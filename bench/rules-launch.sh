#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rules-launch.sh [BUILD] — what the kernel-rule hooks cost a launch of a
# kernel that has no rule (docs/RULES.md, docs/PERF.md), on a simulated gfx1030:
#  1. instructions: callgrind counts the instructions executed inside
#     librdnacompat.so for N1 and N2 launches; (I(N2) - I(N1)) / (N2 - N1) is
#     the shim's cost per launch, start-up excluded.  For hipLaunchKernel
#     (`<<<>>>`) and hipModuleLaunchKernel.  Budget: <= 30.  Also the share of
#     all instructions the process executes per launch (the deterministic
#     stand-in for "nothing measurable on a launch-bound benchmark").
#  2. time of a launch-bound loop, start-up excluded (RUNS interleaved runs each with and
#     without the shim, medians).  Budget: <= 2%; on the simulated card the loop's
#     time varies several-fold between runs, so this part shows noise, not the shim.  WALL=0 / IR=0 skip a part.
set -euo pipefail
B=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/common.sh"
bench_need_build "$B"
[ -f "$B/sim/librdnacompat-sim.so" ] || { echo "no simulator preload in $B/sim" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 2; }
mkdir -p "$B/bench"
prog=$B/bench/launch_loop co=$B/bench/launch_loop.co
if [ ! -x "$prog" ] || [ "$bench_here/launch_loop.hip" -nt "$prog" ]; then
  hipcc -O2 --offload-arch=gfx1030 "$bench_here/launch_loop.hip" -o "$prog" >&2
  hipcc --genco --offload-arch=gfx1030 "$bench_here/launch_loop.hip" -o "$co" >&2
fi
N1=${N1:-200} N2=${N2:-1200} RUNS=${RUNS:-5} NWALL=${NWALL:-20000} WALL=${WALL:-1} IR=${IR:-1}
# no decision cache: the start-up work must be the same in both callgrind runs
sim_env=(RDNACOMPAT_SIM_GPUS=gfx1030 HSA_ENABLE_SDMA=0 RDNACOMPAT_CACHE=0)
simpre=$B/sim/librdnacompat-sim.so   # the simulator goes first in LD_PRELOAD


ir() { # MODE N -> Ir inside librdnacompat.so
  local out=$B/bench/cg.$1.$2
  env "${sim_env[@]}" LD_PRELOAD="$simpre:$B/librdnacompat.so" valgrind --tool=callgrind --quiet \
    --compress-strings=no --dump-instr=no --callgrind-out-file="$out" "$prog" "$1" "$2" "$co" >/dev/null
  python3 "$bench_here/callgrind_obj.py" "$out" librdnacompat.so
}
for mode in stub module; do
  [ "$IR" = 1 ] || break
  a=$(ir $mode "$N1") b=$(ir $mode "$N2")
  ta=$(grep -E "^(summary|totals):" "$B/bench/cg.$mode.$N1" | head -1 | awk '{print $2}')
  tb=$(grep -E "^(summary|totals):" "$B/bench/cg.$mode.$N2" | head -1 | awk '{print $2}')
  echo "instructions in librdnacompat.so per launch ($mode): ($b - $a) / ($N2 - $N1) = $(( (b - a) / (N2 - N1) ))," \
    "of $(( (tb - ta) / (N2 - N1) )) per launch in the whole process (HIP, ROCR, simulator):" \
    "$(python3 -c "print(f'{100 * ($b - $a) / ($tb - $ta):.2f}')")%"
done

wall() { # with|without MODE -> seconds of the launch loop (the program's own clock)
  local pre=$simpre; [ "$1" = with ] && pre=$simpre:$B/librdnacompat.so
  env "${sim_env[@]}" LD_PRELOAD="$pre" "$prog" "$2" "$NWALL" "$co" | awk '{print $3}'
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
