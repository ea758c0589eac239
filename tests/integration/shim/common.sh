# SPDX-License-Identifier: MIT
# common.sh — sourced by tests/integration/40-shim-*.sh: locate the build,
# skip (77) when the simulator, the shim or hipcc is missing, and build the
# small HIP programs of tests/integration/shim/ into $B/shimtest/RELEASE once,
# with that release's hipcc (RDC_HIPCC; a 6.4 program links libamdhip64.so.6,
# which the host does not have).  REL is the release (5.2, 6.4, 7.2).
set -u
B=$1
S=${RDC_SRCDIR:-$(pwd)}/tests/integration/shim
REL=${RDC_ROCM:-5.2}
HIPCC=${RDC_HIPCC:-hipcc}
T=$B/shimtest/$REL
SHIM=$B/librdnacompat.so
SIM=$B/sim
mkdir -p "$T"
skip() { echo "skip: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -f "$SHIM" ] || skip "no $SHIM"
[ -f "$SIM/librdnacompat-sim.so" ] || skip "no simulator at $SIM"
command -v "$HIPCC" >/dev/null || skip "no hipcc ($HIPCC) for ROCm $REL"
case $REL in 5.2) HIPSO=5;; 6.*) HIPSO=6;; 7.*) HIPSO=7;; *) skip "unknown ROCm release $REL";; esac
[ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.$HIPSO ] || skip "no libamdhip64.so.$HIPSO for ROCm $REL"
PY=/usr/bin/python3
# A C compiler for the small C helpers: the host's cc, else (inside a root,
# which has no gcc) the clang that the root's hipcc uses.
CC_TEST=$(command -v cc || command -v gcc || ls /usr/lib/llvm-*/bin/clang 2>/dev/null | tail -n 1)
# What the release's HIP says when a program has no code for the device:
# 5.2 aborts at start (hipErrorNoBinaryForGpu), 6.4 fails the launch
# ("invalid device function"); 7.2.4 crashes with SIGSEGV inside
# hipLaunchKernel right after logging "No compatible code objects found"
# (HIP's own bug, ROCm/rocm-systems#2484; not the simulator): empty, so
# nobin_in checks nothing there — nocode_failed checks the signal.
case $REL in 5.2) nobin=hipErrorNoBinaryForGpu;; 6.*) nobin='invalid device function';; *) nobin=;; esac
# nobin_in FILE: the release's no-code failure is in FILE (true where unknown).
nobin_in() { [ -z "$nobin" ] || grep -qF "$nobin" "$1"; }
# nocode_failed RC OUT ERR: a vadd-like program failed as the release fails
# without code for the device (5.2: the abort's message on stderr; 6.x: the
# "launch invalid device function" line; 7.x: SIGSEGV, exit 139).
nocode_failed() {
  [ "$1" -ne 0 ] || return 1
  case $REL in
    5.2) grep -q hipErrorNoBinaryForGpu "$3";;
    6.*) grep -qx "launch invalid device function" "$2";;
    *) [ "$1" -eq 139 ];;
  esac
}
# kern_genco ARCH KIND: $T/kern<ARCH without "gfx">.KIND from kern.hip with
# hipcc --genco (KIND co: an offload bundle; hsaco: the bare code object),
# unless up to date.
kern_genco() {
  local out=$T/kern${1#gfx}.$2 extra=
  [ "$2" = hsaco ] && extra=--no-gpu-bundle-output
  if [ ! -s "$out" ] || [ "$S/kern.hip" -nt "$out" ]; then
    "$HIPCC" --genco --offload-arch="$1" $extra "$S/kern.hip" -o "$out" >"$T/kern.log" 2>&1 ||
      { cat "$T/kern.log" >&2; fail "hipcc --genco $1 ($2)"; }
  fi
}
# launch_ok FILE: vadd's "launch" line says success (HIP 5.2 spells it
# hipSuccess, HIP >= 6 "no error").
launch_ok() { grep -qxE 'launch (hipSuccess|no error)' "$1"; }

# build NAME SRC ARGS... : hipcc SRC into $T/NAME unless up to date.
build() {
  local name=$1 src=$2; shift 2
  if [ ! -x "$T/$name" ] || [ "$src" -nt "$T/$name" ]; then
    "$HIPCC" "$@" "$src" -o "$T/$name.tmp" >"$T/$name.build.log" 2>&1 ||
      { cat "$T/$name.build.log" >&2; fail "hipcc $name"; }
    mv "$T/$name.tmp" "$T/$name"
  fi
}

# sim GPUS CMD... : run on the simulated GPUs without the shim.
sim() {
  local gpus=$1; shift
  env LD_PRELOAD="$SIM/librdnacompat-sim.so" RDNACOMPAT_SIM_GPUS="$gpus" HSA_ENABLE_SDMA=0 timeout 120 "$@"
}
# shim GPUS CMD... : the same under LD_PRELOAD of the shim.
shim() {
  local gpus=$1; shift
  env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" RDNACOMPAT_SIM_GPUS="$gpus" HSA_ENABLE_SDMA=0 \
    timeout 120 "$@"
}
# kernels_on TRACE TARGET: every non-blit dispatch ran code loaded as TARGET,
# and there was at least one.
kernels_on() {
  $PY - "$1" "$2" <<'PYEOF'
import json, sys
path, want = sys.argv[1], sys.argv[2]
n = 0
for line in open(path):
    d = json.loads(line)
    if d["kernel"].startswith("rocr-blit"):
        continue
    n += 1
    if d["target"] != want:
        sys.exit("kernel %s ran from a %s code object, want %s" % (d["kernel"], d["target"], want))
if n == 0:
    sys.exit("no kernel dispatched")
print("%d dispatches from %s code objects" % (n, want))
PYEOF
}
