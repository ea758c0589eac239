#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the TSan-built shim against HIP 5.2; 48-shim-load runs the load on 6.4 and 7.2
# 48-shim-tsan.sh — thread-safety evidence: the shim built with
# -fsanitize=thread (its own build dir, BUILD/tsan) preloaded after the TSan
# runtime into 16 threads loading, launching and unloading modules at once
# (hipModuleLoadData and hipModuleLoad) and into a direct ROCR load, on the
# simulated gfx1031.  HIP, ROCR and the simulator are not instrumented, and
# memory the "GPU" (simulator threads) shares with the host is synchronised
# through HSA signals TSan cannot see, so TSan reports races there; this
# test fails on any report whose racing accesses (first frame past the
# sanitizer's interceptors) are in librdnacompat.so, and on any other kind
# of report (lock-order inversion, ...) naming it.  Skips (77) when TSan
# cannot run here.
. "$(dirname "$0")/shim/common.sh"
TSAN_RT=$(gcc -print-file-name=libtsan.so.2)
[ -f "$TSAN_RT" ] || skip "no libtsan.so.2 (gcc's TSan runtime)"
TB=$B/tsan
make -s -C "${RDC_SRCDIR:-.}" BUILD="$TB" CC=gcc SAN=-fsanitize=thread OPT="-O1 -g" "$TB/librdnacompat.so" \
  >"$T/tsan-build.log" 2>&1 || { cat "$T/tsan-build.log" >&2; fail "TSan build"; }
echo 'int main(void){return 0;}' >"$T/tsan-probe.c"
gcc -fsanitize=thread "$T/tsan-probe.c" -o "$T/tsan-probe" 2>/dev/null && "$T/tsan-probe" 2>/dev/null ||
  skip "TSan binaries do not run here (address-space layout)"
build modload "$S/modload.cpp" -lpthread
[ -s "$T/kern1030.hsaco" ] || "$HIPCC" --genco --offload-arch=gfx1030 --no-gpu-bundle-output \
  "$S/kern.hip" -o "$T/kern1030.hsaco" >/dev/null 2>&1 || fail "hipcc --genco"
[ -x "$T/hsaload" ] || gcc -I/usr/include/hsa "$S/hsaload.c" -lhsa-runtime64 -o "$T/hsaload" || fail "build hsaload"

tsan() {
  env LD_PRELOAD="$TSAN_RT $SIM/librdnacompat-sim.so $TB/librdnacompat.so" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 \
    HSA_ENABLE_SDMA=0 TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 history_size=4" timeout 300 "$@"
}
# ours LOG: how many reports are about the shim's own code (shim/tsan_ours.py).
ours() { $PY "$S/tsan_ours.py" "$1"; }
total=0
for run in "modload data $T/kern1030.hsaco 16 4" "modload file $T/kern1030.hsaco 16 4" \
           "hsaload $T/kern1030.hsaco file"; do
  set -- $run
  prog=$1; shift
  rc=0; tsan "$T/$prog" "$@" >"$T/tsan.out" 2>"$T/tsan.err" || rc=$?
  grep -q "ThreadSanitizer: reported\|^devices\|^reader" "$T/tsan.out" "$T/tsan.err" ||
    { head -20 "$T/tsan.err" >&2; fail "$run: did not run under TSan"; }
  case $prog in
    modload) grep -q "threads 16 rounds 4 failed 0" "$T/tsan.out" || fail "$run: $(cat "$T/tsan.out")";;
    hsaload) grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/tsan.out" || fail "$run: $(cat "$T/tsan.out")";;
  esac
  read -r mine all < <(ours "$T/tsan.err")
  echo "tsan: $run: $all reports, $mine in the shim"
  [ "$mine" -eq 0 ] || { cp "$T/tsan.err" "$T/tsan-fail.err"; grep -A30 "WARNING: ThreadSanitizer" "$T/tsan.err" | head -80 >&2;
                         fail "$run: TSan reports in the shim (full log: $T/tsan-fail.err)"; }
  total=$((total + all))
done
echo "48-shim-tsan: ok ($total reports, all in HIP/ROCR/simulator memory shared with the simulated GPU)"
