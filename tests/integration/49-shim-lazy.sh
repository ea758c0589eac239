#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — the only runtime that reads a module's code when its first kernel is used (HIP 6.4 reads every module at hipInit, 5.2 parses every bundle then)
# 49-shim-lazy.sh BUILD — the shim's work follows the code a program uses,
# not the code its libraries ship (docs/SHIM.md "When the shim decides").
# libs/stack_gemm.cpp built twice in the 7.2 root: alone (rocBLAS 5) and
# linked with the ROCm 7.2 stack a PyTorch process loads (MIOpen, hipBLASLt,
# hipBLAS, rocSPARSE, rocFFT, rocRAND, rocSOLVER, RCCL; never called).  Both
# run the same SGEMM (Tensile code objects, hipModuleLoadData) and
# rocblas_sscal (a kernel of rocBLAS's own compressed fat binary), each
# compared with the CPU (simulated card, executed).  From the shim's stats
# line (work counters, not clocks):
#   - mapped gfx1031, first run: the stack registers many times the fat
#     binaries, yet entry tables read, bytes decompressed, code objects
#     parsed and retargeted are the same as alone; every bundle is left to
#     the runtime at registration, and one compressed bundle is decided at
#     the runtime's unbundling;
#     the Tensile module's patches (one per kernel: hundreds) come from the
#     policy's parse, no notes decoded a second time;
#   - the same, repeat run (the decision cache warm): nothing parsed,
#     retargeted or decompressed, no notes decoded; the objects and their
#     patches come from the cache;
#   - RDNACOMPAT_CACHE=0: the Tensile module's patches computed from its
#     bytes (the counter that stays 0 above counts);
#   - native gfx1030: nothing read, parsed or retargeted;
#   - RDNACOMPAT_LAZY=0 (the eager path): the stack's registrations are
#     decided at once — far more work — and the run still passes.
. "$(dirname "$0")/lib/exec_common.bash"   # BUILD, rel, fail/skip/ok, SIM, SHIM, tmp, clean environment
here=$(cd "$(dirname "$0")" && pwd)
L=/usr/lib/x86_64-linux-gnu
for l in libMIOpen.so.1 libhipblaslt.so.1 libhipblas.so.3 librocsparse.so.1 librocfft.so.0 librocrand.so.1 \
         librocsolver.so.0 librccl.so.1 librocblas.so.5; do
  [ -e "$L/$l" ] || fail "the ROCm $rel root lacks $l (tests/roots/pins)"
done
OUT=$BUILD/sim-tests/$rel; mkdir -p "$OUT"
src=$here/libs/stack_gemm.cpp
mk() { # NAME LIBS...
  local exe=$OUT/$1; shift
  if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$here/libs/ref_check.h" -nt "$exe" ]; then
    "${RDC_HIPCC:-hipcc}" -O1 -I"$here/libs" -o "$exe.tmp" "$src" "$@" >"$exe.build.log" 2>&1 ||
      fail "hipcc $(basename "$exe"): $(tail -5 "$exe.build.log")"
    mv "$exe.tmp" "$exe"
  fi
}
mk gemm_alone -lrocblas
mk stack_gemm -Wl,--no-as-needed -l:libMIOpen.so.1 -l:libhipblaslt.so.1 -l:libhipblas.so.3 -l:librocsparse.so.1 \
  -l:librocfft.so.0 -l:librocrand.so.1 -l:librocsolver.so.0 -l:librccl.so.1 -lrocblas
export HSA_ENABLE_SDMA=0

# run NAME PROG GPU CACHEDIR [ENV...]: $tmp/NAME.{out,log}; the program's checks must pass
run() {
  local name=$1 prog=$2 gpu=$3 cache=$4; shift 4
  env "$@" XDG_CACHE_HOME="$tmp/$cache" RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$tmp/$name.log" \
    LD_PRELOAD="$SHIM:$SIM" RDNACOMPAT_SIM_GPUS="$gpu" timeout 300 "$OUT/$prog" --scal >"$tmp/$name.out" 2>&1 ||
    fail "$name: exited $?: $(tail -5 "$tmp/$name.out")"
  grep -q "^ok: rocblas_sgemm" "$tmp/$name.out" && grep -q "^ok: rocblas_sscal" "$tmp/$name.out" ||
    fail "$name: a result differs from the CPU's: $(cat "$tmp/$name.out")"
  grep -q "^device: $gpu" "$tmp/$name.out" || fail "$name: not told $gpu: $(head -1 "$tmp/$name.out")"
}
# stat NAME KEY: a counter of NAME's stats line
stat() {
  local v; v=$(grep -m1 "debug: stats: " "$tmp/$1.log" | sed -n "s/.* $2=\([0-9]*\).*/\1/p")
  [ -n "$v" ] || fail "$1: no '$2' in the stats line: $(grep -m1 'stats:' "$tmp/$1.log")"
  echo "$v"
}
work() { local k; for k in tables_read bytes_decompressed parsed retargeted notes_decoded unbundles; do printf '%s=%s ' $k "$(stat "$1" $k)"; done; }

run alone gemm_alone gfx1031 c-alone
run stack stack_gemm gfx1031 c-stack
fa=$(stat alone fatbins) fs=$(stat stack fatbins)
[ "$fs" -ge $((5 * fa)) ] || fail "the stack should register several times rocBLAS's fat binaries: $fs against $fa"
# deferred counts fat binaries and compressed modules left to the runtime
# (rocBLAS, told its code's name, loads a compressed gfx1030 module itself):
# every fat binary, and no module beyond those the runtime unbundled
fd=$(stat stack deferred)
[ "$fd" -ge "$fs" ] && [ $((fd - fs)) -le "$(stat stack unbundles)" ] ||
  fail "stack: $fd left to the runtime at registration for $fs fat binaries ($(stat stack unbundles) unbundles)"
[ "$(work alone)" = "$(work stack)" ] || fail "the work differs with the code shipped: alone $(work alone), stack $(work stack)"
# the unbundles: rocBLAS's fat binary and the Tensile module it loads for
# the GEMM (the same count alone, above)
[ "$(stat stack unbundles)" -ge 1 ] && [ "$(stat stack unbundles)" -le 2 ] && [ "$(stat stack retargeted)" -ge 1 ] ||
  fail "stack: expected rocBLAS's unbundle actions decided and code retargeted: $(work stack)"
grep -q "info: map: lib=$L/librocblas.so.5 bundle=[0-9]* source=fatbin device=0 target=gfx1031 .*verdict=mapped" "$tmp/stack.log" ||
  fail "stack: no map line for rocBLAS's fat binary: $(grep -m3 'map:' "$tmp/stack.log")"
# no copy of a retargeted object: the item comgr extracted is handed over
# renamed and patched in the runtime's read (hook_comgr.c); the GEMM's
# results above prove the patched code loaded and ran
h=$(grep -c "debug: unbundle: hipv4-amdgcn-amd-amdhsa--gfx1030 handed over as hipv4-amdgcn-amd-amdhsa--gfx1031, [1-9][0-9]* patches" "$tmp/stack.log")
a=$(grep -c "debug: unbundle: [1-9][0-9]* patches applied to the runtime's read" "$tmp/stack.log")
[ "$h" -ge 1 ] && [ "$a" -ge "$h" ] || fail "stack: $h items handed over renamed, $a reads patched: $(grep -m3 'unbundle:' "$tmp/stack.log")"
# the Tensile module: more patches than a decision holds, from the parse
grep -q "debug: unbundle: hipv4-amdgcn-amd-amdhsa--gfx1030 handed over as hipv4-amdgcn-amd-amdhsa--gfx1031, [1-9][0-9][0-9]* patches" "$tmp/stack.log" ||
  fail "stack: no object with dozens of patches (the Tensile module): $(grep -m3 'handed over' "$tmp/stack.log")"
[ "$(stat stack notes_decoded)" = 0 ] || fail "stack: notes decoded again for patches: $(work stack)"
ok "mapped gfx1031, first run: $fs fat binaries registered (alone: $fa), all left to the runtime; the same work: $(work stack); both results match the CPU (simulated card, executed)"

run again stack_gemm gfx1031 c-stack
for k in parsed retargeted bytes_decompressed tables_read notes_decoded; do
  [ "$(stat again $k)" = 0 ] || fail "repeat run: $k=$(stat again $k), expected 0: $(work again)"
done
[ "$(stat again from_cache)" = "$(stat stack retargeted)" ] ||
  fail "repeat run: $(stat again from_cache) objects from the cache, the first run retargeted $(stat stack retargeted)"
ok "mapped gfx1031, repeat run: nothing parsed, retargeted, decompressed or decoded; $(stat again from_cache) objects from the decision cache"

run nocache stack_gemm gfx1031 c-nocache RDNACOMPAT_CACHE=0
[ "$(stat nocache notes_decoded)" -ge 1 ] || fail "RDNACOMPAT_CACHE=0: the Tensile module's patches should be decoded from its bytes: $(work nocache)"
ok "RDNACOMPAT_CACHE=0: $(work nocache)— without the cache the many patches are decoded from the bytes"

run native stack_gemm gfx1030 c-native
for k in parsed retargeted bytes_decompressed tables_read; do
  [ "$(stat native $k)" = 0 ] || fail "native gfx1030: $k=$(stat native $k), expected 0: $(work native)"
done
! grep -q "map: " "$tmp/native.log" || fail "native: something was mapped on the card's own target"
ok "native gfx1030 (its own code): nothing read, parsed or retargeted"

# Peak RSS (wait4's ru_maxrss, KiB) of the stack's run: the shim against
# no shim on the card with its own code, against the override on the mapped
# card; a bundle the runtime never reads is not even touched (a page faulted
# in brings its neighbours: 64 KiB per bundle would be ~40 MiB here).
rss() { # GPU PRELOAD [ENV...]
  local gpu=$1 pre=$2; shift 2
  python3 -c 'import os, resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -1)' \
    env "$@" XDG_CACHE_HOME="$tmp/c-rss" AMD_COMGR_CACHE=0 LD_PRELOAD="$pre" RDNACOMPAT_SIM_GPUS="$gpu" "$OUT/stack_gemm"
}
r_none=$(rss gfx1030 "$SIM") r_shim=$(rss gfx1030 "$SHIM:$SIM")
r_ovr=$(rss gfx1031 "$SIM" HSA_OVERRIDE_GFX_VERSION=10.3.0) r_map=$(rss gfx1031 "$SHIM:$SIM")
for v in "$r_none" "$r_shim" "$r_ovr" "$r_map"; do [ "$v" -gt 0 ] || fail "peak RSS: a run failed"; done
[ $((r_shim * 100)) -le $((r_none * 105)) ] || fail "native gfx1030: peak RSS $r_shim KiB with the shim, $r_none without (> 1.05x)"
[ $((r_map * 100)) -le $((r_ovr * 105)) ] || fail "mapped gfx1031: peak RSS $r_map KiB with the shim, $r_ovr with the override (> 1.05x)"
ok "peak RSS of the stack's run: native $r_shim KiB with the shim, $r_none without; mapped $r_map KiB with the shim, $r_ovr with the override"

run eager stack_gemm gfx1031 c-eager RDNACOMPAT_LAZY=0
[ "$(stat eager deferred)" = 0 ] && [ "$(stat eager parsed)" -gt $((4 * $(stat stack parsed))) ] ||
  fail "RDNACOMPAT_LAZY=0 should decide at registration: $(work eager) deferred=$(stat eager deferred)"
ok "RDNACOMPAT_LAZY=0 (eager): $(work eager)— the counters tell the two apart; the run passes"
echo "49-shim-lazy: ok"
