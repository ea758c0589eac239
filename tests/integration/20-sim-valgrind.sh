#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 20-sim-valgrind.sh BUILD — valgrind memcheck on the simulator:
#   rocminfo on two simulated GPUs (ROCR calls hsa_shut_down, so every queue,
#   event and allocation of the simulator is torn down): no errors, and no
#   heap block left that the simulator allocated (Debian's real thunk 5.2.3,
#   now in the stack, keeps its event page's records: its own);
#   a full HIP program (copies over SDMA, kernels executed by the engine on
#   4096 elements and checked, trace): no memory
#   error, and no definite/indirect leak record that has the simulator in its
#   stack.  HIP 5.2 never shuts HSA down, so the simulator's queue threads are
#   still running at exit (their TLS shows up as "possibly lost", their queues
#   as still reachable) and HIP's own leaks are not ours to judge; the suppressions (progs/sim_valgrind.supp) cover only
#   findings inside ROCR/HIP.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
[ -z "${RDC_ROOT:-}" ] || skip "no valgrind in the Debian root ${RDC_ROOT:-}"
command -v valgrind >/dev/null || skip "valgrind not installed"
supp="$(dirname "$0")/progs/sim_valgrind.supp"
vg=(valgrind --error-exitcode=99 --num-callers=40 --suppressions="$supp")
ours() { grep -nE 'librdnacompat-sim\.so|tools/simgpu/|rdc_sim_|kfd_(dev|mem|events|queues)\.c|interpose\.c|sysfs\.c' "$1"; }

log="$OUT/vg-rocminfo.log"
simrocminfo RDNACOMPAT_SIM_GPUS=gfx1030,gfx1031 >/dev/null 2>&1 || fail "rocminfo on the simulator"
sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1031 -- \
  "${vg[@]}" --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=none --log-file="$log" \
  rocminfo >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] || fail "memcheck of rocminfo: rc=$rc, see $log: $(grep -A12 -m1 -E 'Invalid|uninitialised' "$log")"
grep -q 'ERROR SUMMARY: 0 errors' "$log" || fail "memcheck of rocminfo: errors, see $log"
if ours "$log" >/dev/null; then
  fail "rocminfo: heap blocks of the simulator left: $(ours "$log" | head -5) (see $log)"
fi
echo "ok: rocminfo under memcheck: no errors, no heap block of the simulator left"

exe=$(build_hip sim_iota gfx1030) || exit $?
log="$OUT/vg-hip.log"
# memcheck runs the engine's kernels tens of times slower: the outer limit is
# the inner one's.
out=$(SIM_TIMEOUT=400 sim RDNACOMPAT_SIM_GPUS=gfx1030 RDNACOMPAT_SIM_TRACE="$OUT/vg-trace.jsonl" -- timeout 400 \
  "${vg[@]}" --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=none \
  --log-file="$log" "$exe" 0 small 2>&1); rc=$?
[ $rc -eq 0 ] || fail "memcheck of the HIP program: rc=$rc ($out), see $log: $(grep -A20 -m1 -E 'Invalid|uninitialised|Mismatched' "$log")"
echo "$out" | grep -q 'memcpy round trip: ok' || fail "HIP program under valgrind: $out"
echo "$out" | grep -q 'kernels: fill_iota ok, scale_add ok (4096 elements' || fail "HIP program under valgrind: kernel results: $out"
if ours "$log" >/dev/null; then
  fail "valgrind findings involve the simulator: $(ours "$log" | head -5) (see $log)"
fi
echo "ok: HIP program under memcheck: no errors, no leak from the simulator"
