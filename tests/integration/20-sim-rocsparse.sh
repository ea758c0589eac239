#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 20-sim-rocsparse.sh BUILD — Debian's real librocsparse (5.3, code objects for
# gfx1030 among RDNA) on the simulated GPU: a small C program creates a handle
# and runs rocsparse_saxpyi; its kernel dispatch shows up in the trace with
# target gfx1030.  On a simulated gfx1031 the same program aborts in HIP
# (no code object), and runs with HSA_OVERRIDE_GFX_VERSION=10.3.0.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
[ -f /usr/include/rocsparse/rocsparse.h ] || skip "librocsparse-dev not installed"
src="$(dirname "$0")/progs/sim_rocsparse.c"
exe="$OUT/sim_rocsparse"
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
  cc -O1 -o "$exe" "$src" -lrocsparse -lamdhip64 || fail "building sim_rocsparse"
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

out=$(sim RDNACOMPAT_SIM_GPUS=gfx1031 -- "$exe" 2>&1); rc=$?
[ $rc -eq 134 ] && echo "$out" | grep -qF 'hipErrorNoBinaryForGpu' || fail "rocsparse on gfx1031 should abort: rc=$rc $out"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0 -- "$exe" 2>&1) || fail "rocsparse gfx1031 + override: $out"
echo "ok: librocsparse aborts on gfx1031, runs with the override"
