#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 20-sim-rocsparse.sh BUILD — each release's real librocsparse (code objects
# for gfx1030 among RDNA2) on the simulated GPU: a small C program creates a
# handle and runs rocsparse_saxpyi; its kernel dispatch shows up in the trace
# with target gfx1030.  On a simulated gfx1031 the release's own no-code
# behaviour: HIP 5.2 aborts; with HIP 6.4 the launch fails inside rocSPARSE
# and nothing is dispatched; HIP 7.2.4 segfaults (its own bug,
# ROCm/rocm-systems#2484, see docs/SIMGPU.md).  With
# HSA_OVERRIDE_GFX_VERSION=10.3.0 it runs.  In the roots the program is
# compiled as C++ by the root's clang (no cc there; 6.4's rocsparse.h is not C).
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
[ -f /usr/include/rocsparse/rocsparse.h ] || skip "librocsparse-dev not installed"
src="$(dirname "$0")/progs/sim_rocsparse.c"
exe="$OUT/sim_rocsparse"
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
  if [ -z "${RDC_ROOT:-}" ]; then
    cc -O1 -o "$exe" "$src" -lrocsparse -lamdhip64 || fail "building sim_rocsparse"
  else
    cxx=$(ls /usr/lib/llvm-*/bin/clang++ 2>/dev/null | head -n 1)
    [ -n "$cxx" ] || skip "no clang++ in $RDC_ROOT"
    "$cxx" -x c++ -O1 -o "$exe" "$src" -lrocsparse -lamdhip64 || fail "building sim_rocsparse"
  fi
fi
trace="$OUT/rocsparse-trace.jsonl"

rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" 2>&1) || fail "rocsparse on gfx1030: $out"
echo "$out" | grep -q 'rocsparse_saxpyi: launched' || fail "rocsparse: $out"
python3 - "$trace" <<'PY' || fail "rocsparse trace check"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ax = [l for l in lines if "axpyi_kernel" in l["kernel"]]
assert len(ax) == 1, [l["kernel"] for l in lines]
k = ax[0]
assert k["target"] == "gfx1030" and k["gpu"] == 0, k
assert k["kernel"].startswith("_Z") and k["kernarg_size"] > 0 and len(k["kernarg"]) == 2 * k["kernarg_size"], k
assert k["kernarg"][:8] == "40000000", k   # nnz = 64, first argument
PY
echo "ok: librocsparse saxpyi dispatched on simulated gfx1030"

rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1031 AMD_LOG_LEVEL=1 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" 2>&1); rc=$?
case ${RDC_ROCM:-5.2} in
  5.2) [ $rc -eq 134 ] && echo "$out" | grep -qF 'hipErrorNoBinaryForGpu' ||
         fail "rocsparse on gfx1031 should abort on 5.2: rc=$rc $out" ;;
  6.4) [ $rc -eq 0 ] && ! grep -q axpyi_kernel "$trace" 2>/dev/null ||
         fail "rocsparse on gfx1031, 6.4: rc=$rc, an axpyi dispatch or a crash: $out" ;;
  *)   [ $rc -eq 139 ] && echo "$out" | grep -q 'No compatible code objects found for: gfx1031' ||
         fail "rocsparse on gfx1031, 7.2.4: HIP's own SIGSEGV expected: rc=$rc $out" ;;
esac
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0 -- "$exe" 2>&1) || fail "rocsparse gfx1031 + override: $out"
echo "ok: librocsparse on gfx1031 fails as HIP ${RDC_ROCM:-5.2} does (rc=$rc), runs with the override"
