#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 46-shim-faults-fail.sh — every HIP and HSA function of the real-function
# table (shim/hooks/real_list.h) *failing* in turn (46-shim-faults-each.sh
# has them missing): progs/load_failreal.c, built once per function and
# preloaded after the shim, is the "real" function and returns an error
# (hipErrorInvalidValue, HSA_STATUS_ERROR, NULL from __hipRegisterFatBinary).
# The program (load_storm rss, built for gfx1030+gfx1031: its own fat binary
# native, two hipModuleLoadData of a gfx1030 bundle) on the simulated gfx1031
# (HIP 5.2): no hang, nothing on stdout from the shim, no signal but HIP's
# own abort (134, with its message), and the output and status are those of
# the clean run with the shim or those of the same failure without the shim
# on the card the code is for (a simulated gfx1030: without the shim a
# gfx1031 cannot run the gfx1030 module at all; HIP 5.2 aborts).
# The libc file functions are left to 46-shim-faults-each.sh.
# releases: 5.2 — each real function failing in turn against HIP 5.2's calls; 46-shim-faults and 43-shim-exports cover 6.4 and 7.2
. "$(dirname "$0")/shim/common.sh"
P=${RDC_SRCDIR:-$(pwd)}/tests/integration/progs
build load_storm_native "$P/load_storm.hip" --offload-arch=gfx1030 --offload-arch=gfx1031 -lpthread -ldl
[ -s "$T/kern1030.co" ] || "$HIPCC" --genco --offload-arch=gfx1030 "$S/kern.hip" -o "$T/kern1030.co" >/dev/null 2>&1 ||
  fail "hipcc --genco"
D=$(cd "$T" && pwd)/failreal46
rm -rf "$D" && mkdir -p "$D"
# run NAME GPU PRELOAD: the program; "rc + stdout without the RSS figures" in $D/NAME.
run() {
  local rc
  rc=$( (timeout 60 env LD_PRELOAD="$3" RDNACOMPAT_SIM_GPUS="$2" HSA_ENABLE_SDMA=0 XDG_CACHE_HOME="$D/cache" \
         "$T/load_storm_native" rss "$T/kern1030.co" 2 >"$D/$1.out" 2>"$D/$1.err"; echo $?) 2>/dev/null)
  { sed 's/ rss_kb.*//' "$D/$1.out"; echo "rc $rc"; } >"$D/$1"
}
run clean gfx1031 "$SIM/librdnacompat-sim.so:$SHIM"
grep -qx "rc 0" "$D/clean" || { cat "$D/clean.err" >&2; fail "clean run failed"; }
fns=$(sed -n 's/^RDC_REAL_FN(\([A-Za-z_0-9]*\), "[^"]*", RDC_LIB_\(HIP\|HSA\)).*/\1 \2/p' \
      "${RDC_SRCDIR:-.}/shim/hooks/real_list.h")
[ -n "$fns" ] || fail "no HIP/HSA real functions listed"
n=0 failed_seen=0
while read -r fn lib; do
  case $fn in __hipUnregisterFatBinary|__hipRegisterFunction) continue;; esac   # void: nothing to fail
  ret=1; [ "$lib" = HSA ] && ret=4096; [ "$fn" = __hipRegisterFatBinary ] && ret=0
  so=$D/fail-$fn.so
  "$CC_TEST" -std=c11 -shared -fPIC -DRDC_FN="$fn" -DRDC_RET="$ret" "$P/load_failreal.c" -o "$so" ||
    fail "build load_failreal for $fn"
  run with gfx1031 "$SIM/librdnacompat-sim.so:$SHIM:$so"
  run without gfx1030 "$SIM/librdnacompat-sim.so:$so"
  rc=$(sed -n 's/^rc //p' "$D/with")
  [ "$rc" -ne 124 ] || fail "$fn failing: hung"
  if [ "$rc" -ge 128 ]; then
    [ "$rc" -eq 134 ] && grep -q '"hipError' "$D/with.err" || { cat "$D/with.err" >&2; fail "$fn failing: died (rc=$rc)"; }
  fi
  grep -q rdnacompat "$D/with.out" && fail "$fn failing: the shim wrote to stdout"
  cmp -s "$D/with" "$D/clean" || cmp -s "$D/with" "$D/without" ||
    { cat "$D/with.err" >&2; fail "$fn failing: with the shim '$(tr '\n' ' ' <"$D/with")', clean '$(tr '\n' ' ' <"$D/clean")', without the shim on gfx1030 '$(tr '\n' ' ' <"$D/without")'"; }
  grep -q "^failreal: failed a call" "$D/with.err" && failed_seen=$((failed_seen + 1))
  n=$((n + 1))
done <<<"$fns"
[ "$failed_seen" -gt 5 ] || fail "only $failed_seen of $n functions were called at all (is the seam working?)"
echo "46-shim-faults-fail: ok ($n functions failing in turn, $failed_seen of them called)"
