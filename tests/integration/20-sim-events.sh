#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 20-sim-events.sh BUILD — Debian's real thunk 5.2.3 on the simulated KFD: event wake-ups against KFD's
# semantics (progs/sim_events.c, threads asleep in hsaKmtWaitOnEvent): a set
# goes to every thread asleep on the event, not to a wait that starts after
# it (ROCR 5.2's hsa_shut_down hung about once in a hundred runs when it did
# not); manual reset; wait for all / any; hsaKmtDestroyEvent and
# hsaKmtCloseKFD wake sleepers, whose waits fail.  Every wait is bounded: a
# lost wake-up fails in seconds.  Then the same under valgrind memcheck.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
[ -z "${RDC_ROOT:-}" ] || skip "ROCm ${RDC_ROCM:-} links its thunk into libhsa-runtime64 (no libhsakmt.so to drive); its events run under HIP in 20-sim-hip"
[ -f /usr/include/hsakmt.h ] || skip "libhsakmt-dev (hsakmt.h) not installed"
lib="$SIM"
src="$(dirname "$0")/progs/sim_events.c"
exe="$OUT/sim_events"
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$(dirname "$src")/sim_check.h" -nt "$exe" ] || [ "$lib" -nt "$exe" ]; then
  cc -O1 -g -Wall -Wextra -I/usr/include/hsa -o "$exe" "$src" -lhsakmt -lpthread ||
    fail "building sim_events"
fi
out=$(sim -- "$exe" 2>&1) || fail "sim_events: $out"
echo "$out" | grep '^ok:'
echo "$out" | grep -q 'ok: hsaKmtCloseKFD wakes' || fail "sim_events did not finish"

if command -v valgrind >/dev/null; then
  log="$OUT/vg-events.log"
  sim -- valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
    --errors-for-leak-kinds=none --num-callers=30 --log-file="$log" "$exe" >/dev/null 2>"$OUT/vg-events.err" ||
    fail "memcheck of sim_events, see $log: $(cat "$OUT/vg-events.err"; grep -A15 -m1 -E 'Invalid|uninitialised' "$log")"
  # Leaks: the real thunk 5.2.3 keeps some of its own; none may be the simulator's.
  awk '/(definitely|indirectly|possibly) lost in/{r=1} r&&/^==[0-9]+== *$/{r=0} r' "$log" | grep -q 'tools/simgpu\|librdnacompat-sim' &&
    fail "memcheck of sim_events: the simulator leaks, see $log"
  echo "ok: sim_events under memcheck: no errors, no leak of the simulator's"
fi
