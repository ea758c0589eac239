#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 20-sim-thunk.sh BUILD — the simulated thunk on its own, through Debian's
# hsakmt.h (progs/sim_thunk.c, no ROCR): exports (exactly the 42 hsaKmt*
# functions ROCR 5.2.3 imports, version HSAKMT_1, soname libhsakmt.so.1),
# topology, memory, event timeouts, SDMA packets, AQL barrier/dispatch,
# unsupported requests, fork; then the same program under valgrind memcheck
# (no errors, nothing leaked after hsaKmtCloseKFD).
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
[ -f /usr/include/hsakmt.h ] || skip "libhsakmt-dev (hsakmt.h) not installed"
lib="$SIMLIB/libhsakmt.so.1"

want=$(nm -D --undefined-only /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1 | grep -o 'hsaKmt[A-Za-z]*@HSAKMT_1' | sort)
have=$(nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' | sed 's/@@/@/' | sort)
[ "$(echo "$want" | wc -l)" = 42 ] || fail "expected ROCR to import 42 hsaKmt functions"
[ "$want" = "$have" ] || fail "exports differ from ROCR's imports: $(diff <(echo "$want") <(echo "$have"))"
readelf -d "$lib" | grep -q 'SONAME.*\[libhsakmt.so.1\]' || fail "soname"
echo "ok: exports = ROCR 5.2.3's 42 imports @HSAKMT_1, soname libhsakmt.so.1"

src="$(dirname "$0")/progs/sim_thunk.c"
exe="$OUT/sim_thunk"
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$(dirname "$src")/sim_check.h" -nt "$exe" ] || [ "$lib" -nt "$exe" ]; then
  cc -O1 -g -Wall -I/usr/include/hsa -o "$exe" "$src" -L"$SIMLIB" -l:libhsakmt.so.1 || fail "building sim_thunk"
fi
# A real code object image (the gfx1030 fixture, else one built here) for the
# trace's ELF walk: intact it names the kernel and target; corrupted it must
# not crash.
co="${RDC_FIXTURES:-$BUILD/fixtures}/co/gfx1030.co"
if [ ! -f "$co" ]; then
  co="$OUT/iota-gfx1030.co"
  clang-15 -x hip --cuda-device-only -nogpulib -nogpuinc -O2 --no-gpu-bundle-output --offload-arch=gfx1030 \
    -c "$(dirname "$0")/../fixtures/kernels/iota.hip" -o "$co" || fail "building a code object"
fi
kd=$(readelf --dyn-syms -W "$co" | awk '$8 == "_Z9fill_iotaPii.kd" {print "0x" $2}')
[ -n "$kd" ] || fail "no _Z9fill_iotaPii.kd in $co"
trace="$OUT/thunk-trace.jsonl"
rm -f "$trace"
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1031 RDNACOMPAT_SIM_TRACE="$trace" -- "$exe" "$co" "$kd" 2>&1) || fail "sim_thunk: $out"
echo "$out" | grep '^ok:'
echo "$out" | grep -q 'ok: close' || fail "sim_thunk did not finish"
echo "$out" | grep -q 'outside every simulated allocation' || fail "no report for the out-of-bounds SDMA access"
python3 - "$trace" <<'PY' || fail "trace of the code-object dispatches"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding="ascii")]
assert len(lines) == 301, len(lines)          # the stray dispatch + 300 code-object ones
first = lines[1]
assert first["kernel"] == "_Z9fill_iotaPii" and first["target"] == "gfx1030", first
assert first["kernarg_size"] == 12 and first["kernarg"] == "ab0000000000000000000000", first
assert first["grid"] == [256, 1, 1] and first["workgroup"] == [64, 1, 1] and first["gpu"] == 0, first
# Corrupted images: every line is still valid JSON (a corrupted .dynstr may
# change the name itself), and nothing crashed.
print("ok: trace names the kernel from the ELF image; of 299 corrupted images %d still resolve, "
      "%d are '?'" % (sum(l["kernel"] == "_Z9fill_iotaPii" for l in lines[2:]),
                     sum(l["kernel"] == "?" for l in lines[2:])))
PY

if command -v valgrind >/dev/null; then
  log="$OUT/vg-thunk.log"
  sim RDNACOMPAT_SIM_GPUS=gfx1031 -- valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
    --errors-for-leak-kinds=definite,indirect,possible --num-callers=30 --log-file="$log" "$exe" "$co" "$kd" >/dev/null 2>&1 ||
    fail "memcheck of sim_thunk, see $log: $(grep -A15 -m1 -E 'Invalid|uninitialised|lost in' "$log")"
  echo "ok: sim_thunk under memcheck: no errors, no leaks"
fi
