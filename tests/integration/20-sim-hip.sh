#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 20-sim-hip.sh BUILD — a real HIP 5.2 program built with
# `hipcc --offload-arch=gfx1030` on the simulated GPU:
#   gfx1031: HIP aborts with the real hipErrorNoBinaryForGpu message;
#   gfx1031 + HSA_OVERRIDE_GFX_VERSION=10.3.0: runs; gfx1030: runs natively;
#   hipMemcpy round trip returns the bytes; dispatches are traced with the
#   code object's target and the kernel symbols (also with HSA_ENABLE_SDMA=0,
#   where copies are ROCR blit kernels); two GPUs (mixed with a
#   per-node override; two gfx1030) enumerate and dispatch on the chosen one;
#   a forked child that never touches the GPU exits cleanly; host threads on
#   two GPUs at once (progs/sim_stress.hip); `rdnacompat sim`.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
exe=$(build_hip sim_iota gfx1030) || exit $?
trace="$OUT/hip-trace.jsonl"

# check_trace FILE GPU TARGET: both kernels, with grid/workgroup/kernargs.
check_trace() {
  python3 - "$@" <<'PY' || fail "trace check failed ($1)"
import json, sys
path, gpu, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = [json.loads(l) for l in open(path)]
user = [l for l in lines if not l["kernel"].startswith("rocr-blit:")]
names = [l["kernel"] for l in user]
assert names == ["_Z9fill_iotaPii", "_Z9scale_addPfPKffi"], names
for l in user:
    assert l["gpu"] == gpu and l["node"] == gpu + 1, l
    assert l["target"] == target, l
f, s = user
assert f["grid"] == [65536, 1, 1] and f["workgroup"] == [256, 1, 1], f
assert f["kernarg_size"] == 12 and len(f["kernarg"]) == 24, f
assert f["kernarg"][16:] == "00000100", f          # n = 65536, little endian
assert s["grid"] == [65536, 1, 1] and s["workgroup"] == [128, 1, 1], s
assert s["kernarg_size"] == 24 and s["kernarg"][32:40] == "00002040", s  # a = 2.5f
assert f["kernarg"][:16] != "0" * 16, "device pointer expected"
PY
}

# 1. gfx1031, no code object for it: HIP 5.2 aborts with the real message.
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1031 -- "$exe" 2>&1); rc=$?
[ $rc -eq 134 ] || fail "gfx1031: expected abort (134), got rc=$rc: $out"
echo "$out" | grep -qF 'hipErrorNoBinaryForGpu: Unable to find code object for all current devices!' ||
  fail "gfx1031: real HIP message missing: $out"
echo "ok: gfx1031 aborts with hipErrorNoBinaryForGpu"

# 2. the global lie: gfx1031 claims to be gfx1030 and runs the gfx1030 code.
rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" 2>&1) ||
  fail "gfx1031 with HSA_OVERRIDE_GFX_VERSION=10.3.0: $out"
echo "$out" | grep -q 'device 0: AMD Radeon RX 6700 XT gcnArchName=gfx1030' || fail "override: device line: $out"
echo "$out" | grep -q 'memcpy round trip: ok' || fail "override: memcpy: $out"
check_trace "$trace" 0 gfx1030
echo "ok: HSA_OVERRIDE_GFX_VERSION=10.3.0 on gfx1031 runs, traced"

# 3. natively on gfx1030 (and a forked child that never touches the GPU).
rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" 0 fork 2>&1) || fail "gfx1030: $out"
echo "$out" | grep -q 'memcpy round trip: ok' || fail "gfx1030: memcpy: $out"
echo "$out" | grep -q 'memcpy2D round trip: ok' || fail "gfx1030: memcpy2D (SDMA rect): $out"
echo "$out" | grep -q 'fork: child exited cleanly' || fail "fork: $out"
check_trace "$trace" 0 gfx1030
echo "ok: gfx1030 native, memcpy and memcpy2D round trips, trace, fork"

# 3b. copies through ROCR's blit kernels instead of SDMA (their effect is emulated).
rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 HSA_ENABLE_SDMA=0 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" 0 no2d 2>&1) || fail "HSA_ENABLE_SDMA=0: $out"
echo "$out" | grep -q 'memcpy round trip: ok' || fail "HSA_ENABLE_SDMA=0: memcpy: $out"
grep -q '"kernel":"rocr-blit:copy-' "$trace" || fail "HSA_ENABLE_SDMA=0: no ROCR blit copy in the trace"
check_trace "$trace" 0 gfx1030
echo "ok: HSA_ENABLE_SDMA=0 (blit-kernel copies)"

# 4. two GPUs, mixed: the global override makes both usable (Debian's thunk
# 5.2.3 has no per-node variable).
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1031 -- "$exe" 2>&1); rc=$?
[ $rc -eq 134 ] || fail "gfx1030+gfx1031 without override should abort, rc=$rc"
rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" 1 2>&1) ||
  fail "gfx1030+gfx1031 with HSA_OVERRIDE_GFX_VERSION: $out"
echo "$out" | grep -q 'device 0: AMD Radeon RX 6800 XT gcnArchName=gfx1030' || fail "2 GPUs: device 0: $out"
echo "$out" | grep -q 'device 1: AMD Radeon RX 6700 XT gcnArchName=gfx1030' || fail "2 GPUs: device 1: $out"
check_trace "$trace" 1 gfx1030
echo "ok: gfx1030 + gfx1031 with the override, dispatch on device 1"

# 5. two identical gfx1030.
rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1030 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" 1 2>&1) || fail "2x gfx1030: $out"
[ "$(echo "$out" | grep -c 'gcnArchName=gfx1030')" = 2 ] || fail "2x gfx1030: both devices expected: $out"
# The real thunk's indirect GPU -> CPU -> GPU links (made because the sysfs
# nodes publish no p2p_links_count) make the two GPUs peers.
echo "$out" | grep -q 'peer 0->1: 1, peer copy: ok' || fail "2x gfx1030: peer access/copy: $out"
check_trace "$trace" 1 gfx1030
echo "ok: two gfx1030"

# 5b. several host threads and streams on two GPUs at once: copies stay
# correct, every dispatch is traced on its GPU, no line is torn.
stress=$(build_hip sim_stress gfx1030) || exit $?
rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0 RDNACOMPAT_SIM_TRACE="$trace" -- "$stress" 6 2>&1) ||
  fail "stress: rc=$? $out"
python3 - "$trace" <<'PY' || fail "stress trace"
import json, sys, collections
c = collections.Counter()
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["kernel"] == "_Z5touchPii":
        c[d["gpu"]] += 1
assert c == {0: 60, 1: 60}, c
PY
echo "ok: 6 threads on two GPUs: copies correct, 120 dispatches traced intact"

# 5c. gfx11: Debian's ROCR 5.2.3 cannot create the agent; HIP says no device.
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1100 -- "$exe" 2>&1); rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "gfx1100: expected a clean failure, rc=$rc"
echo "$out" | grep -q 'hipErrorNoDevice' || fail "gfx1100: HIP should report hipErrorNoDevice: $out"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1100 HSA_OVERRIDE_GFX_VERSION=10.3.0 -- "$exe" 2>&1) || fail "gfx1100 as 10.3.0: $out"
echo "$out" | grep -q 'device 0: AMD Radeon RX 7900 XTX gcnArchName=gfx1030' || fail "gfx1100 as 10.3.0: $out"
echo "ok: gfx1100 fails cleanly (hipErrorNoDevice); runs when overridden to 10.3.0"

# 6. the tool.
tool="$BUILD/bin/rdnacompat"
if [ -x "$tool" ]; then
  "$tool" sim --help | grep -q 'KERNELS ARE NOT EXECUTED' || fail "rdnacompat sim --help must say kernels are not executed"
  rm -f "$trace"
  out=$(timeout 120 "$tool" sim --gpu gfx1030 --card 'RX 6950 XT' --trace "$trace" -- "$exe" 2>&1) || fail "rdnacompat sim: $out"
  echo "$out" | grep -q 'device 0: AMD Radeon RX 6950 XT gcnArchName=gfx1030 CUs=40' || fail "rdnacompat sim --card: $out"
  check_trace "$trace" 0 gfx1030
  out=$(timeout 120 "$tool" sim --gpu gfx1031 -- "$exe" 2>&1) && fail "rdnacompat sim --gpu gfx1031 should abort"
  echo "$out" | grep -qF 'hipErrorNoBinaryForGpu' || fail "rdnacompat sim gfx1031: $out"
  env=$("$tool" sim --gpu gfx1030 --gpu gfx1031 --pci 73df --print-env)
  echo "$env" | grep -qx 'RDNACOMPAT_SIM_GPUS=gfx1030,gfx1031@73df' || fail "--print-env: $env"
  echo "ok: rdnacompat sim"
else
  echo "note: $tool not built; rdnacompat sim not tested here"
fi
