#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — the release torchrun jobs run on here; the cache's file format and locking are the same on every release (49-shim-cache.sh)
# 49-shim-cache-ranks.sh — the decision cache (shim/hooks/dcache.c) as a
# multi-GPU job meets it: eight ranks of one program start at once against
# an empty cache directory (torchrun, mpirun), on simulated mapped cards of
# two targets (gfx1031 and gfx1032 alternating, both run gfx1030 code).
# Every rank computes the right result; one cache file results, holding
# exactly one decision per target; no rank read a torn or half-written file
# (every "ignored" line of the debug log would name it) and no temporary
# file is left.  Then eight ranks again on the warm cache: each takes its
# decision from the cache ("(cached)") and none writes.  How many ranks of
# the cold start wrote the file is printed (each rank that decided merges
# what is on disk under the lock and writes; not asserted).
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
C=$T/cache49r
rm -rf "$C"
export XDG_CACHE_HOME=$C
N=8

ranks() { # ranks TAG: N ranks at once; logs $T/r-TAG-I.log, outputs .out
  local i g pids=()
  for i in $(seq 0 $((N - 1))); do
    g=gfx1031; [ $((i % 2)) = 1 ] && g=gfx1032
    env RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$T/r-$1-$i.log" RDNACOMPAT_SIM_GPUS=$g HSA_ENABLE_SDMA=0 \
      LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" LD_LIBRARY_PATH="$SIM" \
      timeout 120 "$T/vadd1030" >"$T/r-$1-$i.out" 2>"$T/r-$1-$i.err" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "$1: rank $i failed: $(cat "$T/r-$1-$i.err")"
    grep -qx 'result ok' "$T/r-$1-$i.out" || fail "$1: rank $i: $(cat "$T/r-$1-$i.out")"
  done
}
nrecs() { $PY -c 'import struct,sys; print(struct.unpack_from("<I", open(sys.argv[1],"rb").read(), 36)[0])' "$1"; }

rm -f "$T"/r-*.log
ranks cold
files=$(ls "$C"/rdnacompat/vadd1030-*.dc 2>/dev/null | wc -l)
[ "$files" = 1 ] || fail "cold start: $files cache files, want 1"
f=$(ls "$C"/rdnacompat/vadd1030-*.dc)
[ "$(nrecs "$f")" = 2 ] || fail "cold start: $(nrecs "$f") decisions in $f, want 2 (gfx1031, gfx1032)"
ls "$C"/rdnacompat/ | grep -q '\.tmp\.' && fail "cold start: temporary file left: $(ls "$C"/rdnacompat/)"
torn=$(grep -h 'cache: .*ignored (deciding afresh)' "$T"/r-cold-*.log | grep -v 'No such file' || true)
[ -z "$torn" ] || fail "cold start: a rank read a cache file it could not use: $torn"
writers=$(grep -l 'cache: wrote ' "$T"/r-cold-*.log | wc -l)
[ "$writers" -ge 1 ] || fail "cold start: no rank wrote the cache"
echo "ok: $N ranks at once, empty cache: all correct, one file with 2 decisions, nothing torn, no temporary left ($writers of $N ranks wrote the file)"

ranks warm
for i in $(seq 0 $((N - 1))); do
  grep -q 'verdict=mapped .*(cached)' "$T/r-warm-$i.log" || fail "warm: rank $i did not take its decision from the cache: $(grep -E 'map:|cache:' "$T/r-warm-$i.log")"
  grep -q 'cache: wrote ' "$T/r-warm-$i.log" && fail "warm: rank $i wrote the cache again"
done
echo "ok: $N ranks at once, warm cache: every rank's decision from the cache, none written"
