#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 42-shim-modules.sh — hipModuleLoad / hipModuleLoadData / hipModuleLoadDataEx
# of gfx1030 code (a --genco bundle and a bare ELF) on a simulated gfx1031:
# fails without the shim, works with it, kernels run from gfx1031 code, every
# rebuilt copy is freed with its module; then 16 threads loading and
# unloading modules at once; compressed bundles (CCOB) as modules and as a
# program's fat binary.  On 6.4/7.2 also the release's own hipcc
# --offload-compress output: read natively by HIP 6.4.3 and 7.2.4 (one with
# the device's own code loads without the shim, which maps nothing), a
# gfx1030 one mapped by copy as a module and as a program's fat binary.
. "$(dirname "$0")/shim/common.sh"
build modload "$S/modload.cpp" -lpthread
kern_genco gfx1030 co
kern_genco gfx1030 hsaco
# Compressed bundles (CCOB, what clang-offload-bundler --compress makes for
# HIP >= 6.x), zstd and zlib: HIP 5.2 cannot read them at all; with the shim
# a CCOB lacking the device's target reaches HIP as an uncompressed rebuilt
# bundle with the added entry (the copy path).
"$CC_TEST" -Iinclude "$S/ccob.c" "$B/librdc_core.a" -l:libzstd.so.1 -l:libz.so.1 -l:libnettle.so.8 -o "$T/ccob" || fail "build ccob"
for method in zstd zlib; do
  "$T/ccob" "$T/kern1030.co" "$T/kern1030.$method.ccob" $method 2 || fail "ccob $method"
  head -c 4 "$T/kern1030.$method.ccob" | grep -q CCOB || fail "ccob $method: no CCOB magic"
done
kinds="co hsaco zstd.ccob zlib.ccob"
if [ "$REL" != 5.2 ]; then
  for a in gfx1030 gfx1031; do
    out=$T/kern${a#gfx}.hipcc.ccob
    [ -s "$out" ] && [ "$out" -nt "$S/kern.hip" ] ||
      "$HIPCC" --genco --offload-arch=$a --offload-compress "$S/kern.hip" -o "$out" >"$T/kern.log" 2>&1 ||
      { cat "$T/kern.log" >&2; fail "hipcc --offload-compress $a"; }
    head -c 4 "$out" | grep -q CCOB || fail "hipcc --offload-compress $a: no CCOB magic"
  done
  kinds="$kinds hipcc.ccob"
  # ROCm 6.4.3's comgr cache (on by default, under XDG_CACHE_HOME) answers a
  # compressed bundle with the code object of an earlier, different one:
  # without any shim, after the gfx1031 CCOB of kern.hip was loaded once, the
  # gfx1030-only CCOB "loads" on gfx1031 and dispatches gfx1031 code (and a
  # stale entry made a native CCOB fail).  Off here, so each load is HIP's own
  # answer for its input; 7.2.4 does not do this.
  [ "$REL" != 6.4 ] || export AMD_COMGR_CACHE=0
  # The device's own code, compressed: HIP >= 6 loads it itself, with or
  # without the shim, which maps nothing.
  for mode in file data; do
    rc=0; sim gfx1031 "$T/modload" $mode "$T/kern1031.hipcc.ccob" 1 1 >"$T/m.out" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || fail "HIP $REL does not read a compressed gfx1031 module ($mode): $(cat "$T/m.out")"
    rc=0; RDNACOMPAT_LOG=info shim gfx1031 "$T/modload" $mode "$T/kern1031.hipcc.ccob" 1 1 >"$T/m.out" 2>"$T/m.err" || rc=$?
    [ "$rc" -eq 0 ] || fail "compressed gfx1031 module ($mode) with the shim: rc=$rc $(cat "$T/m.out" "$T/m.err")"
    grep -q "info: map:" "$T/m.err" && fail "compressed gfx1031 module ($mode): the shim mapped native code"
  done
fi

for kind in $kinds; do
  for mode in file data dataex; do
    rc=0; sim gfx1031 "$T/modload" $mode "$T/kern1030.$kind" >"$T/m.out" 2>&1 || rc=$?
    [ "$rc" -ne 0 ] || fail "$mode $kind: gfx1030 module loaded on gfx1031 without the shim"
    rm -f "$T/m.trace" "$T/m.json"
    rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FORMAT=json RDNACOMPAT_LOG_FILE="$T/m.json" \
      RDNACOMPAT_SIM_TRACE="$T/m.trace" shim gfx1031 "$T/modload" $mode "$T/kern1030.$kind" 1 3 \
      >"$T/m.out" 2>"$T/m.err" || rc=$?
    [ "$rc" -eq 0 ] || { cat "$T/m.err" "$T/m.out" >&2; fail "$mode $kind with the shim: rc=$rc"; }
    kernels_on "$T/m.trace" gfx1031 >/dev/null || fail "$mode $kind: trace"
    [ "$(grep -c fill_iota "$T/m.trace")" -eq 3 ] || fail "$mode $kind: want 3 dispatches"
    $PY - "$T/m.json" "$mode" "$kind" "$REL" <<'PYEOF' || fail "$mode $kind: log"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
src = {"file": "hipModuleLoad", "data": "hipModuleLoadData", "dataex": "hipModuleLoadDataEx"}[sys.argv[2]]
maps = [e for e in ev if e["event"] == "map"]
assert maps and all(e["source"] == src and e["chosen"] == "gfx1030" for e in maps), maps
built = sum(1 for e in ev if e["event"] == "rebuilt")
freed = sum(1 for e in ev if e["event"] == "freed")
if sys.argv[3].endswith("ccob") and sys.argv[4] != "5.2":
    # HIP >= 6 unbundles a compressed module through comgr: the retargeted
    # object is added to the unbundler's result (the runtime copies it), no
    # copy of the shim's is rebuilt or kept
    rt = [e for e in ev if e["event"] == "retargeted"]
    assert built == 0 and rt and all(e["how"] == "unbundle" and e["source"] == src for e in rt), (built, rt)
else:
    if sys.argv[3].endswith("ccob"):
        assert all(e["how"] == "copy" for e in ev if e["event"] == "rebuilt")
    assert built >= 1 and built == freed, "rebuilt %d copies, freed %d" % (built, freed)
PYEOF
  done
done

# The same CCOB as a program's own fat binary (__hipRegisterFatBinary): HIP
# 5.2 alone crashes on it, so under 5.2 the shim hands it the uncompressed
# copy with the added entry (the file-mapping path refuses compressed
# bundles); HIP >= 6 unbundles it through comgr when it reads the module,
# and the retargeted object is added to the unbundler's result then.
"$CC_TEST" -DCCOB_FILE="\"$T/kern1030.zstd.ccob\"" "$S/ccobfat.c" -lamdhip64 -o "$T/ccobfat" || fail "build ccobfat"
rc=0; sim gfx1031 "$T/ccobfat" >"$T/m.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "CCOB fat binary ran with HIP 5.2 alone"
rm -f "$T/m.trace"
rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_SIM_TRACE="$T/m.trace" shim gfx1031 "$T/ccobfat" >"$T/m.out" 2>"$T/m.err" || rc=$?
[ "$rc" -eq 0 ] && grep -qxE "ran (hipSuccess|no error)" "$T/m.out" || { cat "$T/m.err" "$T/m.out" >&2; fail "CCOB fat binary with the shim: rc=$rc"; }
kernels_on "$T/m.trace" gfx1031 >/dev/null || fail "CCOB fat binary: trace"
grep -q "info: map: lib=$T/ccobfat bundle=0 source=fatbin device=0 target=gfx1031 mode=map verdict=mapped" "$T/m.err" ||
  fail "CCOB fat binary: no map line"
if [ "$REL" = 5.2 ]; then
  grep -q "rebuilt: lib=$T/ccobfat bundle=0 added=1 .* how=copy" "$T/m.err" || fail "CCOB fat binary: not rebuilt by copy"
else
  grep -q "retargeted: lib=$T/ccobfat bundle=0 source=fatbin .* how=unbundle" "$T/m.err" ||
    fail "CCOB fat binary: not retargeted at HIP's unbundling"
fi
grep -q "file mapping failed" "$T/m.err" && fail "CCOB fat binary: tried to file-map a compressed bundle"

# The release's own compressed fat binary (hipcc --offload-compress), gfx1030 only.
if [ "$REL" != 5.2 ]; then
  build vaddc1030 "$S/vadd.hip" --offload-arch=gfx1030 --offload-compress
  grep -q CCOB "$T/vaddc1030" || fail "vaddc1030: no CCOB in the program"
  rc=0; sim gfx1031 "$T/vaddc1030" >"$T/m.out" 2>&1 || rc=$?
  [ "$rc" -ne 0 ] || fail "compressed gfx1030 fat binary ran on gfx1031 with HIP $REL alone"
  rm -f "$T/m.trace"
  rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_SIM_TRACE="$T/m.trace" shim gfx1031 "$T/vaddc1030" >"$T/m.out" 2>"$T/m.err" || rc=$?
  [ "$rc" -eq 0 ] && grep -qx "launch no error" "$T/m.out" || { cat "$T/m.err" "$T/m.out" >&2; fail "vaddc1030 with the shim: rc=$rc"; }
  kernels_on "$T/m.trace" gfx1031 >/dev/null || fail "vaddc1030: trace"
  grep -q "retargeted: lib=$T/vaddc1030 bundle=0 source=fatbin .* how=unbundle" "$T/m.err" ||
    fail "vaddc1030: not retargeted at HIP's unbundling"
  echo "ok: HIP $REL's own compressed bundles (modules, fat binary)"
fi

# A module with no compatible code: the diagnosis block before HIP gives up.
if [ ! -s "$T/kern900.co" ] || [ "$S/kern.hip" -nt "$T/kern900.co" ]; then
  "$HIPCC" --genco --offload-arch=gfx900 "$S/kern.hip" -o "$T/kern900.co" >"$T/kern.log" 2>&1 || fail "hipcc gfx900"
fi
rc=0; shim gfx1031 "$T/modload" file "$T/kern900.co" >"$T/m.out" 2>"$T/m.err" || rc=$?
[ "$rc" -ne 0 ] || fail "gfx900 module loaded on gfx1031"
grep -q "$T/kern900.co, bundle 0: device 0 (gfx1031) has no usable entry" "$T/m.err" || fail "no diagnosis for the module"

# 16 threads loading, launching and unloading at once.
for mode in data file; do
  rm -f "$T/m.trace"
  rc=0; RDNACOMPAT_SIM_TRACE="$T/m.trace" shim gfx1031 "$T/modload" $mode "$T/kern1030.hsaco" 16 4 \
    >"$T/m.out" 2>"$T/m.err" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$T/m.err" >&2; fail "16 threads ($mode): rc=$rc"; }
  grep -q "threads 16 rounds 4 failed 0" "$T/m.out" || fail "16 threads ($mode): $(cat "$T/m.out")"
  [ "$(grep -c fill_iota "$T/m.trace")" -eq 64 ] || fail "16 threads ($mode): want 64 dispatches"
  kernels_on "$T/m.trace" gfx1031 >/dev/null || fail "16 threads ($mode): trace"
done
echo "42-shim-modules: ok"
