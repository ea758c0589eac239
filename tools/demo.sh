#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# demo.sh BUILD — the problem rdnacompat solves, shown on a simulated
# AMD Radeon RX 6700 XT (gfx1031) with Debian's real ROCm 5.2.3 stack.
# No AMD GPU is needed: build/sim/librdnacompat-sim.so (preloaded) emulates /dev/kfd below the real thunk.
# The simulated GPU executes the kernels (an RDNA2/RDNA3 interpreter,
# docs/SIMGPU.md "Execution"): the program compares their results with a
# CPU reference — results of the code as compiled, not of hardware.
#   (1) a program built for gfx1030 only aborts on gfx1031 (hipErrorNoBinaryForGpu);
#   (2) HSA_OVERRIDE_GFX_VERSION=10.3.0 makes it run, by making the whole card
#       lie about what it is (rocminfo then reports gfx1030);
#   (3) the shim: per code object instead of a global lie.
set -u
BUILD=$(cd "${1:-build}" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
DEMO="$BUILD/demo"
mkdir -p "$DEMO/bin"
SIM="$BUILD/sim/librdnacompat-sim.so"
[ -f "$SIM" ] || { echo "demo: $SIM not built (make)" >&2; exit 1; }
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\)=.*/\1/p'); do unset "$v"; done
export RDNACOMPAT_SIM_GPUS=gfx1031

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ %s\n' "$*"; }

# A gfx1030-only HIP program (the kind of binary ROCm libraries ship).
prog="$DEMO/iota-gfx1030"
if [ ! -x "$prog" ] || [ "$SRC/tests/integration/progs/sim_iota.hip" -nt "$prog" ]; then
  hipcc --offload-arch=gfx1030 -O1 -o "$prog" "$SRC/tests/integration/progs/sim_iota.hip" ||
    { echo "demo: hipcc failed" >&2; exit 1; }
fi
# rocminfo's own pre-checks (lsmod | grep amdgpu, open /dev/kfd) are answered by the simulator.
rocminfo_sim() { # [EXTRA_PRELOAD]
  env LD_PRELOAD="$SIM${1:+:$1}" timeout 60 rocminfo 2>&1 |
    grep -E '^  (Name|Marketing Name): ' | grep -A1 -E 'Name: +gfx'
}

say "The card: a simulated RX 6700 XT (gfx1031), as Debian's rocminfo sees it"
show "rocminfo"
rocminfo_sim

say "(1) A program built with hipcc --offload-arch=gfx1030 only"
show "LD_PRELOAD=build/sim/librdnacompat-sim.so $prog"
(LD_PRELOAD="$SIM" timeout 60 "$prog" 2>&1); rc=$?
echo "(exit status $rc: HIP 5.2 found no code object for gfx1031 and called abort())"
[ $rc -eq 134 ] || echo "demo: unexpected exit status $rc" >&2

say "(2) The usual workaround: HSA_OVERRIDE_GFX_VERSION=10.3.0"
show "HSA_OVERRIDE_GFX_VERSION=10.3.0 $prog"
HSA_OVERRIDE_GFX_VERSION=10.3.0 LD_PRELOAD="$SIM" timeout 60 "$prog" 2>&1
echo "(exit status $?)"
show "HSA_OVERRIDE_GFX_VERSION=10.3.0 rocminfo"
HSA_OVERRIDE_GFX_VERSION=10.3.0 rocminfo_sim
echo "The RX 6700 XT now says it is a gfx1030, for every program and every GPU of the"
echo "process: the lie is global. (Simulated card (executed): the kernels ran on the simulator.)"

say "(3) rdnacompat: the same program with the shim, per code object"
# ---- (3) the shim run -----------------------------------------------------
SHIM="$BUILD/librdnacompat.so"
[ -f "$SHIM" ] || { echo "demo: $SHIM not built (make)" >&2; exit 1; }
show "LD_PRELOAD=build/librdnacompat.so RDNACOMPAT_LOG=info $prog"
LD_PRELOAD="$SIM:$SHIM" RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$DEMO/trace.jsonl" \
  timeout 60 "$prog" 2>&1
echo "(exit status $?)"
show "rocminfo   # with the shim loaded: still the truth"
rocminfo_sim "$SHIM"
if [ -s "$DEMO/trace.jsonl" ]; then
  echo "The simulator's trace: which code object each kernel was dispatched from:"
  grep -v '"rocr-blit' "$DEMO/trace.jsonl" | sed -n 's/.*"gpu":\([0-9]*\).*"target":"\([^"]*\)","kernel":"\([^"]*\)".*"executed":"\([a-z-]*\)","insts":\([0-9]*\).*/  gpu \1: \3 from a \2 code object, executed: \4, \5 wave-instructions/p' | sort -u
fi
rm -f "$DEMO/trace.jsonl"
echo "The card keeps saying gfx1031 (rocminfo, HIP itself); only this program's gfx1030"
echo "code object was checked kernel by kernel and retargeted, and the log says which"
echo "and why. The program, whose own device code is gfx1030's, is told gfx1030 (the"
echo "\"name\" line): host code chooses by that name for the code it launches. The"
echo "retargeted kernels computed what the CPU reference says (\"kernels: ... ok\")."
echo "(Simulated card (executed): the ABI and numerics of the code as compiled, not hardware.)"
# ---- end of (3) -------------------------------------------------------------
