#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — it drives the 6.4 and 7.2 roots itself, with one cache directory across both
# 49-shim-cache-releases.sh — one decision cache shared by two runtimes: a
# code-object file (kern.hip for gfx1030, gfx1100 and gfx1101, built by
# ROCm 6.4's hipcc) loaded by hipModuleLoad under HIP 6.4 and then under
# HIP 7.2 with the same cache directory, on the simulated gfx1031 alone and
# next to a gfx1101 (executed).  HIP 6.4 decides the whole bundle at the
# load; HIP 7.2 decides the items it asks comgr for, whose list depends on
# the devices: whichever process wrote a record, the gfx1031 is given the
# gfx1030 entry, no hand-over is refused and every result is the CPU's.
. "$(dirname "$0")/shim/common.sh"
roots=$(cd "$(dirname "$0")/../roots" && pwd)
[ "$(id -u)" -eq 0 ] || skip "needs root to enter the ROCm 6.4 and 7.2 roots (mount namespace, chroot)"
for r in 6.4 7.2; do
  why=$("$roots/path" "rocm-$r" 2>&1 >/dev/null) || skip "the ROCm $r root is not built (${why#roots: }); make roots"
done
B=$(cd "$B" && pwd)
D=$B/shimtest/releases
mkdir -p "$D"
inroot() { local r=$1; shift; "$roots/run" "rocm-$r" -- "$@"; }
# the module file (6.4's clang, plain bundle: both runtimes read it) and
# modload built by each release's hipcc
if [ ! -s "$D/kern3.co" ] || [ "$S/kern.hip" -nt "$D/kern3.co" ]; then
  inroot 6.4 /usr/bin/hipcc --genco --offload-arch=gfx1030 --offload-arch=gfx1100 --offload-arch=gfx1101 \
    "$S/kern.hip" -o "$D/kern3.co" >"$D/kern3.log" 2>&1 || { cat "$D/kern3.log" >&2; fail "hipcc --genco (6.4)"; }
fi
for r in 6.4 7.2; do
  if [ ! -x "$D/modload-$r" ] || [ "$S/modload.cpp" -nt "$D/modload-$r" ]; then
    inroot "$r" /usr/bin/hipcc -O1 "$S/modload.cpp" -o "$D/modload-$r" -lpthread >"$D/modload-$r.log" 2>&1 ||
      { cat "$D/modload-$r.log" >&2; fail "hipcc modload ($r)"; }
  fi
done
C=$D/cache
rm -rf "$C"
run() { # run NAME RELEASE GPUS: modload under the shim in that root; checks as the header says
  local name=$1 r=$2 gpus=$3 rc=0
  rm -f "$D/$name.log"
  inroot "$r" env XDG_CACHE_HOME="$C" RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$D/$name.log" \
    LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" RDNACOMPAT_SIM_GPUS="$gpus" HSA_ENABLE_SDMA=0 \
    timeout 120 "$D/modload-$r" file "$D/kern3.co" >"$D/$name.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { tail -5 "$D/$name.out" >&2; fail "$name (ROCm $r, $gpus): rc=$rc"; }
  ! grep -q "handover-refused" "$D/$name.log" || fail "$name: a handover was refused"
  local n=0 line
  while IFS= read -r line; do
    n=$((n + 1))
    case $line in *" entry=hipv4-amdgcn-amd-amdhsa--gfx1030 "*) ;;
      *) fail "$name: the gfx1031 was given another entry than gfx1030: $line";; esac
  done < <(grep -E "map: lib=.*kern3.co .*target=gfx1031 " "$D/$name.log")
  [ "$n" -ge 1 ] || { grep -E "map:|native:|cache" "$D/$name.log" >&2; fail "$name: no decision for the gfx1031"; }
  echo "$name (ROCm $r, $gpus): $n decision(s) for the gfx1031, each the gfx1030 entry$(grep -q '(cached)' "$D/$name.log" && echo ', from the cache')"
}
run a64 6.4 gfx1031
run a72 7.2 gfx1031,gfx1101
run b64 6.4 gfx1101,gfx1031
run b72 7.2 gfx1031
run c72 7.2 gfx1101,gfx1031
grep -q "(cached)" "$D/c72.log" || fail "c72: nothing came from the cache"
echo "ok: one cache across HIP 6.4 and 7.2 and three sets of devices; the gfx1031 always got the gfx1030 entry"
