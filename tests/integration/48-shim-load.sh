#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 48-shim-load.sh — load on two simulated cards (gfx1031, gfx1032; HIP 5.2, 6.4, 7.2):
# 64 threads for RDC_LOAD_SECONDS (default 8 on 5.2, 4 on 6.4/7.2) dlopen/dlclose
# a HIP library (fat binary registered and unregistered), hipModuleLoadData a fresh image,
# hipModuleLoad a file, launch kernels (progs/load_storm.hip).  Checks: no
# hang (timeout), no failed call, every log line whole (one per write, no
# interleaving) and none lost: each hipModuleLoadData of a new image is
# decided and logged once per device, so the "map" lines for the heap
# images must equal loads x devices.  Then 10 000 hipModuleLoadData +
# hipModuleUnload of one image:
# resident memory at the end within 1 MiB of that after 1 000
# (RDC_LOAD_RSS_N to change the count).
# releases: 5.2 6.4 7.2
. "$(dirname "$0")/shim/common.sh"
P=${RDC_SRCDIR:-$(pwd)}/tests/integration/progs
build load_storm "$P/load_storm.hip" --offload-arch=gfx1030 -lpthread -ldl
build libkern.so "$S/libkern.hip" --offload-arch=gfx1030 -shared -fPIC
[ -s "$T/kern1030.co" ] || "$HIPCC" --genco --offload-arch=gfx1030 "$S/kern.hip" -o "$T/kern1030.co" >/dev/null 2>&1 ||
  fail "hipcc --genco"
if [ "$REL" = 5.2 ]; then secs=${RDC_LOAD_SECONDS:-8} n=${RDC_LOAD_RSS_N:-10000}
else secs=${RDC_LOAD_SECONDS:-4} n=${RDC_LOAD_RSS_N:-10000}; fi
log=$T/load48.log
rm -f "$log"
rc=0
out=$(RDNACOMPAT_LOG=info RDNACOMPAT_CACHE=0 RDNACOMPAT_LOG_FILE="$log" \
      timeout $((secs + 60)) env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" RDNACOMPAT_SIM_GPUS=gfx1031,gfx1032 \
      HSA_ENABLE_SDMA=0 "$T/load_storm" storm "$T/kern1030.co" "$secs" 64 "$T/libkern.so" 2>"$T/load48.err") || rc=$?
[ "$rc" -ne 124 ] || fail "storm: hung (no exit $((secs + 60)) s after a ${secs} s run)"
[ "$rc" -eq 0 ] || { cat "$T/load48.err" >&2; fail "storm: rc=$rc: $out"; }
echo "$out" | grep -qx "devices 2 threads 64" || fail "storm: not two devices, 64 threads: $out"
for role in register loaddata loadfile launch; do
  echo "$out" | grep -qE "^$role done [1-9][0-9]* failed 0$" || fail "storm: $role did nothing or failed: $out"
done
loads=$(echo "$out" | sed -n 's/^loaddata done \([0-9]*\) failed 0$/\1/p')
[ -s "$log" ] || fail "storm: no log file"
bad=$(grep -cvE '^rdnacompat\[[0-9]+\]: (error|warn|info|debug): [^[:cntrl:]]*$' "$log")
[ "$bad" -eq 0 ] || { grep -vE '^rdnacompat\[[0-9]+\]: (error|warn|info|debug): ' "$log" | head -5 >&2;
                      fail "storm: $bad log lines not whole"; }
for dev in 0 1; do
  got=$(grep -c "info: map: lib=\"image@0x[0-9a-f]*(loaded by load_storm)\" .* device=$dev " "$log")
  [ "$got" -eq "$loads" ] || fail "storm: $got map lines for heap images on device $dev, $loads loads"
done
echo "storm: ${secs} s, $(echo "$out" | tr '\n' ' '), $(wc -l <"$log") log lines, none lost"

out=$(RDNACOMPAT_CACHE=0 shim gfx1031 "$T/load_storm" rss "$T/kern1030.co" "$n" 2>&1) || fail "rss: $out"
read -r a b < <(echo "$out" | sed -n "s/^loads $n failed 0 rss_kb_1000 \([0-9]*\) rss_kb_$n \([0-9]*\)$/\1 \2/p")
[ -n "${b:-}" ] || fail "rss: $out"
[ $((b - a)) -le 1024 ] || fail "rss: resident set grew $((b - a)) kB from 1000 to $n loads ($a -> $b kB)"
echo "rss: $n loads and unloads of one image: $a kB after 1000, $b kB after $n (simulated gfx1031, HIP $REL)"
echo "48-shim-load: ok"
