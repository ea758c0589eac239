#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 46-shim-alloc.sh — every allocation the shim makes failing in turn, on
# the simulated gfx1031 (HIP 5.2).  progs/load_failmalloc.c, preloaded after
# the shim, fails the Nth malloc/calloc/realloc/strdup/strndup called from
# librdnacompat.so's code (ENOMEM) and counts them.  Two programs: load_storm
# rss (its own gfx1030 fat binary registered, then hipModuleLoadData +
# unload of a gfx1030 bundle) and the same built for gfx1030 and gfx1031
# (its fat binary native; the module path carries the decisions).  For every
# N up to the count of a clean run: no hang, no signal but HIP's own abort
# on missing code (134, with its hipErrorNoBinaryForGpu message), and either
# the run is the clean run (rc and stdout) or a warn/error line of the shim
# says why it is not.  Found: an allocation failing in
# __hipRegisterFatBinary or in the decision passed the fat binary through
# without a word (HIP then aborted as without the shim).
# releases: 5.2 — the allocation injector (progs/load_failmalloc.c) counts the shim's own allocations under HIP 5.2; the release does not change the shim's paths it fails
. "$(dirname "$0")/shim/common.sh"
P=${RDC_SRCDIR:-$(pwd)}/tests/integration/progs
build load_storm "$P/load_storm.hip" --offload-arch=gfx1030 -lpthread -ldl
build load_storm_native "$P/load_storm.hip" --offload-arch=gfx1030 --offload-arch=gfx1031 -lpthread -ldl
kern_genco gfx1030 co
FM=$T/load_failmalloc.so
if [ ! -f "$FM" ] || [ "$P/load_failmalloc.c" -nt "$FM" ]; then
  "$CC_TEST" -std=c11 -O1 -shared -fPIC "$P/load_failmalloc.c" -o "$FM" || fail "build load_failmalloc.so"
fi
D=$(cd "$T" && pwd)/alloc46
mkdir -p "$D"
# one PROG N: a run with the Nth allocation of the shim failing (0: none).
one() {
  rm -rf "$D/cache"
  local rc
  # (a subshell, so that bash does not report HIP's abort on our stderr)
  rc=$( (timeout 60 env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM:$FM" RDNACOMPAT_SIM_GPUS=gfx1031 \
         HSA_ENABLE_SDMA=0 XDG_CACHE_HOME="$D/cache" RDC_FAILMALLOC_NTH="$2" RDC_FAILMALLOC_COUNT="$D/count" \
         "$T/$1" rss "$T/kern1030.co" 2 >"$D/out" 2>"$D/err"; echo $?) 2>/dev/null)
  sed -i 's/ rss_kb.*//' "$D/out"
  echo "$rc" >>"$D/out"
}
total=0
for prog in load_storm load_storm_native; do
  one "$prog" 0
  [ "$(tail -1 "$D/out")" = 0 ] || { cat "$D/err" >&2; fail "$prog: clean run failed"; }
  mv "$D/out" "$D/ref.out"
  n=$(cat "$D/count")
  [ "$n" -gt 10 ] || fail "$prog: only $n allocations counted in the shim (is the injector working?)"
  same=0 said=0
  for k in $(seq 1 "$n"); do
    one "$prog" "$k"
    rc=$(tail -1 "$D/out")
    grep -q "^failmalloc: call $k from librdnacompat.so" "$D/err" || fail "$prog #$k: the injector did not fail it"
    [ "$rc" -ne 124 ] || fail "$prog #$k: hung"
    where=$(sed -n 's/^failmalloc: call [0-9]* from //p' "$D/err")
    if [ "$rc" -ge 128 ]; then
      [ "$rc" -eq 134 ] && grep -q hipErrorNoBinaryForGpu "$D/err" ||
        { cat "$D/err" >&2; fail "$prog #$k ($where): died (rc=$rc)"; }
    fi
    if cmp -s "$D/ref.out" "$D/out"; then
      same=$((same + 1))
    else
      grep -qE '^rdnacompat\[[0-9]+\]: (warn|error): ' "$D/err" ||
        { cat "$D/err" >&2; fail "$prog #$k ($where): rc=$rc, the clean run's $(tail -1 "$D/ref.out"), and no line says why"; }
      said=$((said + 1))
    fi
  done
  echo "$prog: $n allocations in the shim failed in turn: $same runs as the clean one, $said different with the reason logged"
  total=$((total + n))
done
echo "46-shim-alloc: ok ($total runs)"
