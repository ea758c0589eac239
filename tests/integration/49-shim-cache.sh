#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 49-shim-cache.sh — the persistent decision cache (shim/hooks/dcache.c) on
# the simulated gfx1031: the first run decides and writes the cache (0600,
# directory 0700); the second reuses it ("(cached)" in the log, same
# decision, kernels still from gfx1031 code); touching the program (mtime)
# or changing RDNACOMPAT_TABLES decides afresh; a refused kernel is refused
# again from the cache, with its log line and the diagnosis; a garbage or
# truncated cache file is ignored (debug log) and replaced; a cache directory
# others can write is not used; RDNACOMPAT_CACHE=0 writes nothing;
# hipModuleLoad's and hipModuleLoadData's decisions (rocBLAS's Tensile
# objects) are cached too, and a module file changed on disk is decided
# afresh.
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
C=$T/cache49
rm -rf "$C"
export XDG_CACHE_HOME=$C
run() { # run LOGFILE [VAR=VALUE...]: the program under the shim, rc in $rc
  local log=$1; shift
  rm -f "$T/c.trace"
  rc=0; env "$@" RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$log" RDNACOMPAT_SIM_TRACE="$T/c.trace" \
    LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 \
    timeout 120 "$T/vadd1030" >"$T/c.out" 2>"$T/c.err" || rc=$?
}
mapline="info: map: lib=$T/vadd1030 bundle=0 .*target=gfx1031 .*verdict=mapped .*chosen=gfx1030 kernels=1 refused=0"

# 1. First run: decided, written.
rm -f "$T"/c*.log
run "$T/c1.log"
[ "$rc" -eq 0 ] || { cat "$T/c.err" "$T/c1.log" >&2; fail "first run rc=$rc"; }
grep -E "$mapline" "$T/c1.log" | grep -qv "(cached)" || fail "first run: no fresh map line"
f=$(ls "$C"/rdnacompat/vadd1030-*.dc 2>/dev/null | head -1)
[ -n "$f" ] || fail "no cache file written under $C/rdnacompat"
[ "$(stat -c %a "$f")" = 600 ] || fail "cache file mode $(stat -c %a "$f")"
[ "$(stat -c %a "$C/rdnacompat")" = 700 ] || fail "cache dir mode $(stat -c %a "$C/rdnacompat")"
ls "$C"/rdnacompat/*.tmp.* >/dev/null 2>&1 && fail "temp file left behind"

# 2. Second run: the same decision, from the cache; kernels from gfx1031 code.
run "$T/c2.log"
[ "$rc" -eq 0 ] || fail "second run rc=$rc"
grep -E "$mapline" "$T/c2.log" | grep -q '(cached)"$' || { cat "$T/c2.log" >&2; fail "second run not cached"; }
if [ "$REL" != 7.2 ]; then   # HIP 5.2 and 6.4: rebuilt at registration
  grep -q "rebuilt: .*how=file-mapping" "$T/c2.log" || fail "cached run did not rebuild by file mapping"
else                         # HIP 7: the object handed over at its lookup
  grep -q "retargeted: .*how=file-mapping patches=cached" "$T/c2.log" ||
    fail "cached run did not map the object with the cached patches"
fi
kernels_on "$T/c.trace" gfx1031 >/dev/null || fail "cached run: kernels not from gfx1031 code"
sum=$(md5sum <"$f")

# 3. Touching the program (mtime) invalidates; the next run is cached again.
touch -m -d "@$(( $(date +%s) + 5 ))" "$T/vadd1030"
run "$T/c3.log"
[ "$rc" -eq 0 ] || fail "after touch rc=$rc"
grep -q "(cached)" "$T/c3.log" && fail "stale cache used after touching the program"
grep -q "cache: .*stale" "$T/c3.log" || fail "stale cache not logged"
run "$T/c3b.log"
grep -E "$mapline" "$T/c3b.log" | grep -q "(cached)" || fail "not cached again after re-deciding"

# 4. Other tables: decided afresh (here a rule refuses the kernel); then the
# refusal itself comes from the cache, with its refused line and diagnosis.
# The program then fails as the runtime fails a launch without code: HIP 5.2
# aborts and HIP 7.2.4 crashes (SIGSEGV) in its own launch path, with or
# without the shim; bash reports both ("Aborted", "Segmentation fault").
printf '[badkernels]\ngfx1031\tgfx1030\t*fill_iota*\trefuse\ttest rule: pretend it hangs\t49-shim-cache\n' \
  >"$T/bad49.tsv"
for i in 1 2; do
  run "$T/c4$i.log" RDNACOMPAT_TABLES="$T/bad49.tsv"
  [ "$rc" -ne 0 ] || fail "tables run $i: refused kernel still mapped"
  grep -q "info: map:" "$T/c4$i.log" && fail "tables run $i: mapped despite the refusal"
  grep -q "warn: refused: lib=$T/vadd1030 bundle=0 device=0 kernel=_Z9fill_iotaPii check=badlist" \
    "$T/c4$i.log" || fail "tables run $i: refusal not logged"
  grep -q "refused: *_Z9fill_iotaPii (badlist)" "$T/c4$i.log" || fail "tables run $i: diagnosis"
done
grep -q "(cached)" "$T/c41.log" && { grep "(cached)" "$T/c41.log" >&2; fail "cache used across a tables change"; }
grep -q "warn: missing: .*(cached)" "$T/c42.log" || fail "refusal not taken from the cache"
grep -q "warn: refused: .*(cached)" "$T/c42.log" || fail "refused line does not say cached"
# ... and back to the built-in tables: the mapping is decided afresh.
run "$T/c4b.log"
grep -E "$mapline" "$T/c4b.log" | grep -qv "(cached)" || fail "built-in tables: cache of other tables used"

# 5. Garbage and truncated cache files are ignored and replaced.
for how in garbage truncated; do
  f=$(ls "$C"/rdnacompat/vadd1030-*.dc | head -1)
  if [ $how = garbage ]; then head -c 5000 /dev/urandom >"$f"; else truncate -s -9 "$f"; fi
  run "$T/c5$how.log"
  [ "$rc" -eq 0 ] || fail "$how cache: rc=$rc"
  grep -E "$mapline" "$T/c5$how.log" | grep -qv "(cached)" || fail "$how cache: not decided afresh"
  grep -q "cache: .*ignored" "$T/c5$how.log" || fail "$how cache: not logged"
  run "$T/c5$how-b.log"
  grep -E "$mapline" "$T/c5$how-b.log" | grep -q "(cached)" || fail "$how cache: not replaced"
done

# 6. A cache directory others can write is neither read nor written, and
# that is said once, at warn (a umask 002 system would otherwise lose the
# cache silently).
chmod 0770 "$C/rdnacompat"
f=$(ls "$C"/rdnacompat/vadd1030-*.dc | head -1); sum=$(md5sum <"$f")
touch -m -d "@$(( $(date +%s) + 10 ))" "$T/vadd1030"
run "$T/c7.log"
[ "$rc" -eq 0 ] || fail "shared dir: rc=$rc"
grep -E "$mapline" "$T/c7.log" | grep -qv "(cached)" || fail "shared dir: cache used"
grep -q "warn: cache: $C/rdnacompat is writable by group or others; the decision cache is not used (chmod go-w it)" \
  "$T/c7.log" || fail "shared dir: not warned (audit N10)"
[ "$(grep -c 'warn: cache:' "$T/c7.log")" -eq 1 ] || fail "shared dir: warned more than once"
[ "$(md5sum <"$f")" = "$sum" ] || fail "shared dir: cache file written"
chmod 0700 "$C/rdnacompat"

# 7. RDNACOMPAT_CACHE=0: nothing read, nothing written.
rm -rf "$C"
run "$T/c6.log" RDNACOMPAT_CACHE=0
[ "$rc" -eq 0 ] || fail "cache off: rc=$rc"
grep -qE "$mapline" "$T/c6.log" || fail "cache off: no map line"
# (comgr >= 6.4 keeps its own cache in $XDG_CACHE_HOME/comgr: not ours)
[ -e "$C/rdnacompat" ] && fail "RDNACOMPAT_CACHE=0 wrote $(find "$C/rdnacompat")"
grep -q "cache:" "$T/c6.log" && fail "RDNACOMPAT_CACHE=0 still used the cache"

# 8. hipModuleLoad: a code-object file's decision is cached per file like a
# fat binary's; the second process takes it from the cache and still loads
# gfx1031 code; rewriting the file (new inode, new mtime) decides afresh.
build modload "$S/modload.cpp" -lpthread
K=$T/kern49.co
"$HIPCC" --genco --offload-arch=gfx1030 "$S/kern.hip" -o "$K" >"$T/kern49.log" 2>&1 ||
  { cat "$T/kern49.log" >&2; fail "hipcc --genco"; }
mrun() { # mrun LOGFILE [MODE]: modload of $K under the shim, rc in $rc
  rm -f "$T/c.trace"
  rc=0; env RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$1" RDNACOMPAT_SIM_TRACE="$T/c.trace" \
    LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 \
    timeout 120 "$T/modload" "${2:-file}" "$K" >"$T/c.out" 2>"$T/c.err" || rc=$?
}
mline="info: map: lib=$K bundle=0 .*target=gfx1031 .*verdict=mapped .*chosen=gfx1030"
for i in 1 2; do
  mrun "$T/c8$i.log"
  [ "$rc" -eq 0 ] || { cat "$T/c.err" "$T/c8$i.log" >&2; fail "module run $i rc=$rc"; }
  grep -qE "$mline" "$T/c8$i.log" || { cat "$T/c8$i.log" >&2; fail "module run $i: no map line"; }
  kernels_on "$T/c.trace" gfx1031 >/dev/null || fail "module run $i: kernels not from gfx1031 code"
done
grep -E "$mline" "$T/c81.log" | grep -q "(cached)" && fail "module run 1 cached with an empty cache"
ls "$C"/rdnacompat/kern49.co-*.dc >/dev/null 2>&1 || fail "no cache file for the module file"
grep -E "$mline" "$T/c82.log" | grep -q "(cached)" || { cat "$T/c82.log" >&2; fail "hipModuleLoad decision not cached"; }
cp "$K" "$K.new" && touch -m -d "@$(( $(date +%s) + 20 ))" "$K.new" && mv "$K.new" "$K"
mrun "$T/c83.log"
[ "$rc" -eq 0 ] || fail "module run after rewrite rc=$rc"
grep -E "$mline" "$T/c83.log" | grep -q "(cached)" && fail "stale module decision used after rewrite"
# hipModuleLoadData of a heap copy (what rocBLAS 6.4 does with its Tensile
# objects): cached under the loading program, keyed by the image's bytes.
dline="info: map: lib=\"?image@.*loaded by modload.* source=hipModuleLoadData .*target=gfx1031 .*verdict=mapped"
for i in 1 2; do
  mrun "$T/c9$i.log" data
  [ "$rc" -eq 0 ] || { cat "$T/c.err" "$T/c9$i.log" >&2; fail "data run $i rc=$rc"; }
  kernels_on "$T/c.trace" gfx1031 >/dev/null || fail "data run $i: kernels not from gfx1031 code"
done
grep -E "$dline" "$T/c91.log" | grep -qv "(cached)" || { cat "$T/c91.log" >&2; fail "data run 1: no fresh map line"; }
grep -E "$dline" "$T/c92.log" | grep -q "(cached)" || { cat "$T/c92.log" >&2; fail "hipModuleLoadData decision not cached"; }
ls "$C"/rdnacompat/modload.modules-*.dc >/dev/null 2>&1 || fail "no cache file for the loading program"
echo "49-shim-cache: ok"
