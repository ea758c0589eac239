#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 48-shim-load-tsan.sh — the load of 48-shim-load.sh (64 threads on two
# simulated cards, gfx1031 and gfx1032: dlopen/dlclose of a HIP library,
# hipModuleLoadData of fresh images, hipModuleLoad, launches) against the
# shim built with -fsanitize=thread (BUILD/tsan, as 48-shim-tsan.sh) for
# RDC_LOAD_SECONDS (default 5): no hang, no failed call, no TSan report in
# the shim's own code (shim/tsan_ours.py; HIP, ROCR and the simulator are
# not instrumented and their reports are counted, not judged).  Skips (77)
# when TSan cannot run here.
# releases: 5.2 — the TSan-built shim runs under HIP 5.2; 48-shim-load runs the load on 6.4 and 7.2
. "$(dirname "$0")/shim/common.sh"
TSAN_RT=$(gcc -print-file-name=libtsan.so.2)
[ -f "$TSAN_RT" ] || skip "no libtsan.so.2 (gcc's TSan runtime)"
echo 'int main(void){return 0;}' >"$T/tsan-probe.c"
gcc -fsanitize=thread "$T/tsan-probe.c" -o "$T/tsan-probe" 2>/dev/null && "$T/tsan-probe" 2>/dev/null ||
  skip "TSan binaries do not run here (address-space layout)"
TB=$B/tsan
make -s -C "${RDC_SRCDIR:-.}" BUILD="$TB" CC=gcc SAN=-fsanitize=thread OPT="-O1 -g" "$TB/librdnacompat.so" \
  >"$T/tsan-build.log" 2>&1 || { cat "$T/tsan-build.log" >&2; fail "TSan build"; }
P=${RDC_SRCDIR:-$(pwd)}/tests/integration/progs
build load_storm "$P/load_storm.hip" --offload-arch=gfx1030 -lpthread -ldl
build libkern.so "$S/libkern.hip" --offload-arch=gfx1030 -shared -fPIC
[ -s "$T/kern1030.co" ] || "$HIPCC" --genco --offload-arch=gfx1030 "$S/kern.hip" -o "$T/kern1030.co" >/dev/null 2>&1 ||
  fail "hipcc --genco"
secs=${RDC_LOAD_SECONDS:-5}
rc=0
out=$(RDNACOMPAT_CACHE=0 timeout $((secs + 120)) env LD_PRELOAD="$TSAN_RT $SIM/librdnacompat-sim.so $TB/librdnacompat.so" \
      LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031,gfx1032 HSA_ENABLE_SDMA=0 \
      TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 history_size=4" \
      "$T/load_storm" storm "$T/kern1030.co" "$secs" 64 "$T/libkern.so" 2>"$T/load-tsan.err") || rc=$?
[ "$rc" -ne 124 ] || fail "storm under TSan: hung"
# TSan exits 66 after reports (HIP's, the simulator's); the counts decide.
[ "$rc" -eq 0 ] || [ "$rc" -eq 66 ] || { tail -20 "$T/load-tsan.err" >&2; fail "storm under TSan: rc=$rc: $out"; }
echo "$out" | grep -qx "devices 2 threads 64" || fail "storm under TSan: $out"
for role in register loaddata loadfile launch; do
  echo "$out" | grep -qE "^$role done [1-9][0-9]* failed 0$" || fail "storm under TSan: $role: $out"
done
read -r mine all < <($PY "$S/tsan_ours.py" "$T/load-tsan.err")
[ "$mine" -eq 0 ] || { grep -A30 "WARNING: ThreadSanitizer" "$T/load-tsan.err" | head -80 >&2;
                       fail "storm under TSan: $mine of $all reports in the shim ($T/load-tsan.err)"; }
echo "48-shim-load-tsan: ok (${secs} s, $(echo "$out" | tr '\n' ' '); $all TSan reports, none in the shim)"
