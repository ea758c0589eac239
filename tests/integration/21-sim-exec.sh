#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 21-sim-exec.sh BUILD — the simulated card executes kernels (simulated card
# (executed)): progs/sim_exec.hip, built by the release's own hipcc, checks
# 3D grids with partial workgroups, an LDS reduction with barriers, wave
# shuffles, dynamic LDS, private memory, global atomics, f32/f64 and integer
# math against CPU references, and the queue pointer and dispatch id a
# kernel gets (they must name the queue and packet it came from)
#   - natively on gfx1030 (and gfx1100 on 6.4/7.2, whose clang emits VOPD and
#     true16 operands), and on 7.2 the same program built for wave64
#     (-mwavefrontsize64) on gfx1100 natively and gfx1101 under the shim;
#   - under the shim on the siblings that run that code: gfx1031, gfx1032,
#     gfx1035 (gfx1030 code); gfx1101, gfx1102, gfx1103 (gfx1100 code);
#   - with RDNACOMPAT_SIM_EXEC=0 the same checks must fail (nothing computed),
#     so the checks can fail;
# and the engine's loud failures: a write outside every allocation (GPU
# memory fault: our line naming kernel, PC and address, then the runtime's
# own report through its KFD memory event), __builtin_trap
# (s_trap), and a kernel whose workgroup 0 waits for workgroup 1 (out of
# scope: workgroups run one after another on one worker thread; the
# instruction budget ends it with a message that says so).
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
SHIM="$BUILD/librdnacompat.so"
[ -f "$SHIM" ] || skip "shim not built"
rel=${RDC_ROCM:-5.2}
trace="$OUT/exec-trace.jsonl"

# run_checks LABEL ENV... -- EXE: all 8 checks pass, the trace says executed.
run_checks() {
  local label=$1; shift
  rm -f "$trace"
  local out rc
  out=$(sim RDNACOMPAT_SIM_TRACE="$trace" "$@" check 2>&1); rc=$?
  [ $rc -eq 0 ] || fail "$label: rc=$rc: $out"
  [ "$(echo "$out" | grep -c '^ok ')" = 8 ] || fail "$label: 8 ok lines expected: $out"
  echo "$out" | grep -qx 'all checks passed' || fail "$label: $out"
  python3 - "$trace" "$label" <<'PY' || fail "$label: trace"
import json, sys
user = [json.loads(l) for l in open(sys.argv[1])]
user = [l for l in user if l["kernel"].startswith("_Z")]
assert len(user) >= 8, len(user)
for l in user:
    assert l.get("executed") == "ok" and l["insts"] > 0, l
PY
  echo "ok: $label: 8 checks against CPU references (simulated card (executed))"
}

exe30=$(build_hip sim_exec gfx1030) || exit $?
run_checks "gfx1030 native" RDNACOMPAT_SIM_GPUS=gfx1030 -- "$exe30"
for g in gfx1031 gfx1032 gfx1035; do
  run_checks "$g under the shim (gfx1030 code)" RDNACOMPAT_SIM_GPUS=$g LD_PRELOAD="$SHIM" -- "$exe30"
done
if [ "$rel" != 5.2 ]; then # ROCR 5.2.3 knows no gfx11
  exe11=$(build_hip sim_exec gfx1100) || exit $?
  run_checks "gfx1100 native" RDNACOMPAT_SIM_GPUS=gfx1100 -- "$exe11"
  for g in gfx1101 gfx1102 gfx1103; do
    run_checks "$g under the shim (gfx1100 code)" RDNACOMPAT_SIM_GPUS=$g LD_PRELOAD="$SHIM" -- "$exe11"
  done
fi
if [ "$rel" = 7.2 ]; then
  # wave64: the same program built with -mwavefrontsize64 for gfx1100:
  # 64-lane EXEC/VCC, shuffles across 64 lanes, the descriptor's wave size
  # honoured.  Only HIP 7.2 builds it: HIP 5.2 refuses wave64 on gfx10 and
  # HIP 6.4's hip_runtime.h on gfx11 ("HIP is not supported on the
  # specified GPU ARCH with wavefront size 64").
  exe64=$(build_hip sim_exec gfx1100 w64) || exit $?
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1100 -- "$exe64" check 2>&1)
  echo "$out" | grep -qx 'wave size: 64' || fail "wave64 build: the kernel should say wave size 64: $out"
  run_checks "gfx1100 native, wave64" RDNACOMPAT_SIM_GPUS=gfx1100 -- "$exe64"
  run_checks "gfx1101 under the shim, wave64" RDNACOMPAT_SIM_GPUS=gfx1101 LD_PRELOAD="$SHIM" -- "$exe64"
fi

# sub_check MODE WHAT LABEL ENV... -- EXE: sim_exec's MODE check must print
# "MODE: ok"; WHAT names it in the messages.
sub_check() {
  local mode=$1 what=$2 label=$3; shift 3
  local out rc
  out=$(sim "$@" "$mode" 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -qx "$mode: ok" || fail "$label: $what (rc=$rc): $out"
  echo "ok: $label: $what (simulated card (executed))"
}
# The queue pointer and dispatch id: the kernel finds its own packet in the
# ring of the hsa_queue_t its queue pointer names (0 before 2026-12-04: the
# kernel then reports it).
qcheck() { sub_check queue "the queue pointer names the hsa_queue_t whose ring holds the dispatch; dispatch id = its index" "$@"; }
qcheck "gfx1030 native" RDNACOMPAT_SIM_GPUS=gfx1030 -- "$exe30"
qcheck "gfx1031 under the shim" RDNACOMPAT_SIM_GPUS=gfx1031 LD_PRELOAD="$SHIM" -- "$exe30"
[ "$rel" != 5.2 ] && qcheck "gfx1100 native" RDNACOMPAT_SIM_GPUS=gfx1100 -- "$exe11"

# Uniform float arithmetic: on gfx1150 (6.4/7.2's clang) it is compiled to
# the scalar float instructions (s_mul_f32, s_fmac_f32, s_cmp_lt_f32,
# s_floor_f32, s_cvt_i32_f32, ...), which gfx1100 lacks.
ucheck() { sub_check uniform "uniform float arithmetic exact" "$@"; }
ucheck "gfx1030 native" RDNACOMPAT_SIM_GPUS=gfx1030 -- "$exe30"
if [ "$rel" != 5.2 ]; then
  exe1150=$(build_hip sim_exec gfx1150) || exit $?
  ucheck "gfx1150 native (scalar float instructions)" RDNACOMPAT_SIM_GPUS=gfx1150 -- "$exe1150"
  qcheck "gfx1150 native" RDNACOMPAT_SIM_GPUS=gfx1150 -- "$exe1150"
fi

# The checks can fail: with kernels retired, not run, nothing is computed.
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 RDNACOMPAT_SIM_EXEC=0 -- "$exe30" check 2>&1); rc=$?
[ $rc -eq 1 ] && [ "$(echo "$out" | grep -c '^FAIL ')" -ge 6 ] ||
  fail "RDNACOMPAT_SIM_EXEC=0: the checks should fail (rc=$rc): $out"
echo "ok: with RDNACOMPAT_SIM_EXEC=0 the same checks fail ($(echo "$out" | grep -c '^FAIL ') of 8)"

# Loud failures.  A memory fault: our line (kernel, PC, instruction,
# address), then the runtime learns of it through its KFD memory event, as
# from a real GPU, and reports it its own way — ROCR 5.2 and 6.4 print
# "Memory access fault by GPU node-1 ... on address A. Reason: Page not
# present or supervisor privilege." and abort; HIP 7.2 handles the event
# itself (HIP_SKIP_ABORT_ON_GPU_ERROR, on by default) and
# hipDeviceSynchronize returns hipErrorIllegalAddress — with that switch off,
# ROCR's message and abort again.  Either way the dispatch never completes.
fault_line='rdnacompat-sim: GPU memory access fault on node 1 (gfx1030, simulated card) at address 0x'
rocr_line='^Memory access fault by GPU node-1 (Agent handle: 0x[0-9a-f]*) on address 0x[0-9a-f]*\. Reason: Page not present or supervisor privilege\.$'
check_ours() { # LABEL OUT
  echo "$2" | grep -q "$fault_line" || fail "$1: fault line: $2"
  echo "$2" | grep -q 'kernel _Z3oobPi: pc 0x.*global_store.*outside every buffer object' || fail "$1: kernel/pc/instruction: $2"
}
# ROCR's address is ours.
same_addr() { # OUT
  local ours theirs
  ours=$(echo "$1" | sed -n "s/^rdnacompat-sim: GPU memory access fault .* at address \(0x[0-9a-f]*\):.*/\1/p")
  theirs=$(echo "$1" | sed -n 's/^Memory access fault by GPU node-1 .* on address \(0x[0-9a-f]*\)\..*/\1/p')
  [ -n "$ours" ] && [ "$ours" = "$theirs" ]
}
if [ "$rel" = 7.2 ]; then
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 -- "$exe30" oob 2>&1); rc=$?
  check_ours oob "$out"
  [ $rc -eq 3 ] && echo "$out" | grep -qx 'oob: returned an illegal memory access was encountered' ||
    fail "oob: HIP 7.2 should report hipErrorIllegalAddress (rc=$rc): $out"
  echo "ok: a write outside every allocation: our line (kernel, PC, address), HIP's hipErrorIllegalAddress"
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 HIP_SKIP_ABORT_ON_GPU_ERROR=0 -- "$exe30" oob 2>&1); rc=$?
else
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 -- "$exe30" oob 2>&1); rc=$?
fi
[ $rc -eq 134 ] || fail "oob: expected abort (134), got $rc: $out"
check_ours oob "$out"
echo "$out" | grep -q "$rocr_line" || fail "oob: ROCR's own fault message missing: $out"
same_addr "$out" || fail "oob: ROCR's address differs from ours: $out"
echo "$out" | grep -q 'oob: returned' && fail "oob: the program went on after the fault: $out"
echo "ok: a write outside every allocation is a GPU memory fault: our line, then ROCR's own message (same address), exit 134"
# Without the runtime's memory event (interrupt waits off: ROCR creates
# none) nobody would learn of the fault: the simulator aborts itself.
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 HSA_ENABLE_INTERRUPT=0 HIP_SKIP_ABORT_ON_GPU_ERROR=0 -- "$exe30" oob 2>&1); rc=$?
[ $rc -eq 134 ] || fail "oob, no memory event: expected abort (134), got $rc: $out"
check_ours "oob, no memory event" "$out"
echo "$out" | grep -q '^Memory access fault by GPU' && fail "oob, no memory event: ROCR cannot have been told: $out"
echo "ok: without a memory event the simulator aborts after its line"

out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 -- "$exe30" trap 2>&1); rc=$?
[ $rc -eq 134 ] || fail "trap: expected abort (134), got $rc: $out"
echo "$out" | grep -q 'dispatch failed (trap): kernel _Z4trapPi: pc 0x.*s_trap' || fail "trap: $out"
echo "ok: __builtin_trap ends the program with the kernel and PC"

out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 RDNACOMPAT_SIM_THREADS=1 RDNACOMPAT_SIM_BUDGET=200000 -- "$exe30" spin 2>&1); rc=$?
[ $rc -eq 134 ] || fail "spin: expected abort (134), got $rc: $out"
echo "$out" | grep -q "dispatch failed (limit): kernel _Z4spinPViPi: .*ran past the engine's budget of 200000 instructions per wave (a hang: .*another workgroup" ||
  fail "spin: $out"
echo "ok: a workgroup waiting on a later one is out of scope and fails clearly (budget)"
echo "21-sim-exec: ok"
