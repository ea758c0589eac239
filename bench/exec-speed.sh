#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# exec-speed.sh [BUILD] [RUNS] [BASE] — how fast the simulator's execution engine
# runs RDNA2 code: bench/exec_speed.hip (ALU-, LDS- and memory-bound
# kernels, each checked against a CPU reference) built for gfx1030 by the
# host's hipcc and run on a simulated gfx1030, RUNS times (default 3) with
# one worker thread and with two.  From the simulator's trace: "insts"
# (wave-instructions executed), "exec_ns" (wall time in the engine) and
# "cpu_ns" (CPU time of its worker threads), so HIP's launch and wait are not
# counted.  Prints per kernel and thread count the medians of the wall rate
# and of the per-core rate (insts / cpu_ns, which other load on the machine
# changes much less than the wall rate), and the two-thread/one-thread ratio
# of the wall rates.
#
# With BASE (another build directory, e.g. of the commit before a change):
# an A/B comparison instead — one worker thread, the two simulators' runs
# interleaved (base, new, base, new, ...) so that the machine's load falls on
# both alike; prints per kernel the median per-core and wall rates of each
# and the ratios new/base, and the load average before and after.
set -euo pipefail
B=$(cd "${1:-build}" && pwd)
RUNS=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
SIM="$B/sim/librdnacompat-sim.so"
[ -f "$SIM" ] || { echo "no simulator in $B (make)" >&2; exit 2; }
command -v hipcc >/dev/null || { echo "needs hipcc" >&2; exit 2; }
mkdir -p "$B/bench"
prog="$B/bench/exec_speed"
if [ ! -x "$prog" ] || [ "$here/exec_speed.hip" -nt "$prog" ]; then
  hipcc --offload-arch=gfx1030 -O2 -o "$prog" "$here/exec_speed.hip" >&2
fi
trace="$B/bench/exec-speed.jsonl"
rm -f "$trace.all"
if [ -n "${3:-}" ]; then
  BASE=$(cd "$3" && pwd)
  [ -f "$BASE/sim/librdnacompat-sim.so" ] || { echo "no simulator in $BASE" >&2; exit 2; }
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  for r in $(seq "$RUNS"); do
    for side in base new; do
      lib=$SIM; [ $side = base ] && lib="$BASE/sim/librdnacompat-sim.so"
      rm -f "$trace"
      out=$(RDNACOMPAT_SIM_GPUS=gfx1030 RDNACOMPAT_SIM_THREADS=1 RDNACOMPAT_SIM_TRACE="$trace" \
            LD_PRELOAD="$lib" timeout 600 "$prog")
      if echo "$out" | grep -q WRONG; then echo "exec-speed: $side: a kernel computed a wrong result: $out" >&2; exit 1; fi
      sed "s/^{/{\"side\":\"$side\",/" "$trace" >> "$trace.all"
    done
  done
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  python3 - "$trace.all" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    k = d["kernel"]
    if not k.startswith("_Z") or d.get("insts", 0) < 100000:
        continue
    name = {"_Z3aluPfi": "alu", "_Z3ldsPfi": "lds", "_Z3memPfPKfi": "mem"}.get(k, k)
    rows.setdefault((name, d["side"]), []).append((d["insts"], d["exec_ns"], d["cpu_ns"]))
print("%-5s %6s %22s %22s" % ("kernel", "runs", "per-core M/s base new", "wall M/s base new"))
for name in ("alu", "lds", "mem"):
    b, n = rows.get((name, "base"), []), rows.get((name, "new"), [])
    if not b or not n:
        continue
    pc = [statistics.median(i / c * 1e3 for i, _, c in v) for v in (b, n)]
    wl = [statistics.median(i / ns * 1e3 for i, ns, _ in v) for v in (b, n)]
    print("%-5s %6d %10.1f %10.1f  %10.1f %10.1f   per-core x%.2f, wall x%.2f" %
          (name, len(n), pc[0], pc[1], wl[0], wl[1], pc[1] / pc[0], wl[1] / wl[0]))
PY
  exit 0
fi
for th in 1 2; do
  for r in $(seq "$RUNS"); do
    rm -f "$trace"
    out=$(RDNACOMPAT_SIM_GPUS=gfx1030 RDNACOMPAT_SIM_THREADS=$th RDNACOMPAT_SIM_TRACE="$trace" \
          LD_PRELOAD="$SIM" timeout 600 "$prog")
    if echo "$out" | grep -q WRONG; then echo "exec-speed: a kernel computed a wrong result: $out" >&2; exit 1; fi
    sed "s/^{/{\"threads\":$th,/" "$trace" >> "$trace.all"
  done
done
python3 - "$trace.all" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    k = d["kernel"]
    if not k.startswith("_Z") or d.get("insts", 0) < 100000:
        continue
    name = {"_Z3aluPfi": "alu", "_Z3ldsPfi": "lds", "_Z3memPfPKfi": "mem"}.get(k, k)
    rows.setdefault((name, d["threads"]), []).append((d["insts"], d["exec_ns"], d["cpu_ns"]))
print("%-5s %8s %12s %18s %20s %10s" % ("kernel", "threads", "wave-insts", "wall M w-insts/s", "per-core M w-insts/s", "wall ms"))
for name in ("alu", "lds", "mem"):
    rate = {}
    for th in (1, 2):
        v = rows.get((name, th), [])
        if not v:
            continue
        r = statistics.median(i / ns * 1e3 for i, ns, _ in v)
        pc = statistics.median(i / c * 1e3 for i, _, c in v)
        rate[th] = r
        print("%-5s %8d %12d %18.1f %20.1f %10.1f" % (name, th, v[0][0], r, pc,
                                                     statistics.median(ns for _, ns, _ in v) / 1e6))
    if 1 in rate and 2 in rate:
        print("%-5s two threads / one: x%.2f" % (name, rate[2] / rate[1]))
PY
