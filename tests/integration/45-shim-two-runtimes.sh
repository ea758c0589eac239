#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — the only root whose Debian packages put two HIP runtimes in one process
# 45-shim-two-runtimes.sh BUILD — a process with two HIP runtimes outside the
# global scope: ggml's test-backend-ops dlopens libggml-hip.so, which links
# libamdhip64.so.6 (HIP 6.4) and, through the 7.2 root's libhipblas.so.2,
# rocBLAS 5 and rocSOLVER with libamdhip64.so.7.  Without the shim each
# library registers its fat binaries with the runtime it links; the shim
# must forward each caller to that same runtime (shim/hooks/real_caller.c).
# Checks, on one small MUL_MAT case of ggml's op test:
#   - LD_DEBUG=bindings without the shim: rocBLAS 5 binds
#     __hipRegisterFatBinary to libamdhip64.so.7, ggml to .so.6 (the premise);
#   - RDNACOMPAT_MODE=off: the same run costs what it costs without the shim:
#     as many comgr cache files (HIP 6.4 handed rocBLAS 5's fat binaries
#     digests each at once, hundreds of files), and the case passes;
#   - a native gfx1030 under the shim: compressed bundles are left to the
#     runtime's unbundling, none read by the shim (stats line), nothing mapped;
#   - map mode on a simulated gfx1031: the log's runtime lines say rocBLAS 5
#     and rocSOLVER call libamdhip64.so.7 (not .so.6), and the case passes
#     against ggml's CPU backend (simulated card, executed);
#   - kernel rules are armed per library for the runtime it calls: rows of
#     both ranges (<7.0, >=7.0) for ggml and for rocBLAS 5; ggml's kernels
#     get only the <7.0 row, rocBLAS's only the >=7.0 one.
. "$(dirname "$0")/lib/exec_common.bash"   # BUILD, rel, fail/skip/ok, SIM, SHIM, tmp, clean environment
TBO=/usr/libexec/x86_64-linux-gnu/ggml/test-backend-ops
[ -x "$TBO" ] || fail "ggml's test-backend-ops is not installed in the ROCm $rel root"
[ -e /usr/lib/x86_64-linux-gnu/librocblas.so.5 ] && [ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.6 ] ||
  fail "the ROCm $rel root lacks rocBLAS 5 or HIP 6.4's libamdhip64.so.6: the premise of this test"
export HSA_ENABLE_SDMA=0
CASE='type_a=f32,type_b=f32,m=16,n=9,k=256,bs=\[1,1\],nr=\[1,1\],per=\[0,1,2,3\],k_v=0'

# run NAME GPU PRELOAD [ENV...]: the case; $tmp/NAME.{out,log}, its own cache dir
run() {
  local name=$1 gpu=$2 pre=$3 rc=0; shift 3
  mkdir -p "$tmp/$name.cache"
  env XDG_CACHE_HOME="$tmp/$name.cache" LD_PRELOAD="$pre" RDNACOMPAT_SIM_GPUS="$gpu" \
    RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$tmp/$name.log" "$@" \
    timeout 300 "$TBO" test -b ROCm0 -o MUL_MAT -p "$CASE" >"$tmp/$name.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || fail "$name: test-backend-ops exit $rc: $(tail -3 "$tmp/$name.out")"
  grep -q 'MUL_MAT(type_a=f32.*OK' "$tmp/$name.out" || fail "$name: the case did not pass: $(grep -m2 MUL_MAT "$tmp/$name.out")"
}
comgr_files() { find "$tmp/$1.cache" -path '*comgr*' -type f | wc -l; }

run plain gfx1030 "$SIM" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$tmp/bind"
b=$(cat "$tmp"/bind.* | grep "__hipRegisterFatBinary'")
echo "$b" | grep -q 'librocblas.so.5 .* to /usr/lib/x86_64-linux-gnu/libamdhip64.so.7 ' ||
  fail "premise: without the shim rocBLAS 5 should bind to libamdhip64.so.7: $b"
echo "$b" | grep -q 'libggml-hip.so .* to /usr/lib/x86_64-linux-gnu/libamdhip64.so.6 ' ||
  fail "premise: without the shim ggml should bind to libamdhip64.so.6: $b"
ok "without the shim: ggml registers with HIP 6.4, rocBLAS 5 with HIP 7.2 (LD_DEBUG=bindings)"

run bare gfx1030 "$SIM"
run off gfx1030 "$SHIM:$SIM" RDNACOMPAT_MODE=off
nb=$(comgr_files bare) no=$(comgr_files off)
[ "$no" -eq "$nb" ] ||
  fail "RDNACOMPAT_MODE=off: $no comgr cache files against $nb without the shim (fat binaries sent to the wrong runtime are digested at once)"
ok "RDNACOMPAT_MODE=off: $no comgr cache files, as without the shim; the case passes"

# gfx1030 has its own entry in every bundle and no rule concerns it: the
# shim leaves each compressed bundle to the runtime's own unbundling (the
# stats line's counters: bundles deferred, no table read, nothing
# decompressed by the shim), and maps nothing.
run native gfx1030 "$SHIM:$SIM" RDNACOMPAT_LOG=debug
st=$(grep -m1 "debug: stats: " "$tmp/native.log") || fail "native: no stats line in the log"
stat() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$st"; }
[ "$(stat deferred)" -ge 10 ] || fail "native: the bundles should be left to the runtime: $st"
[ "$(stat tables_read)" = 0 ] && [ "$(stat bytes_decompressed)" = 0 ] && [ "$(stat retargeted)" = 0 ] ||
  fail "native: the shim read compressed bundles on a card with its own code: $st"
! grep -q "map: " "$tmp/native.log" || fail "native: something was mapped on the card's own target"
ok "native gfx1030 under the shim: $(stat deferred) bundles left to the runtime, no table read, nothing decompressed or retargeted; the case passes"

run map gfx1031 "$SHIM:$SIM"
for lib in librocblas.so.5 librocsolver.so.0; do
  grep -q "info: runtime: lib=$lib calls=libamdhip64.so.7 not=libamdhip64.so.6 " "$tmp/map.log" ||
    fail "map: no runtime line sending $lib to libamdhip64.so.7: $(grep -m3 'runtime:' "$tmp/map.log")"
done
! grep -q "runtime: lib=libggml-hip.so " "$tmp/map.log" ||
  fail "map: ggml was sent away from its own runtime: $(grep 'runtime: lib=libggml' "$tmp/map.log")"
ok "map on gfx1031: rocBLAS 5 and rocSOLVER reach libamdhip64.so.7, ggml keeps .so.6; the case passes (simulated card, executed)"
# Kernel rules are armed per library for the runtime that library calls: two
# rows of each runtime range for ggml's kernels (HIP 6.4 here) and for rocBLAS
# 5's (HIP 7.2); only the matching range's row may be armed for each.
row() { printf '%s\t%s\tgfx1031\t%s\toccupancy\treviewed\ttest\t%s\n' "$@"; }
{ echo '[kernels]'
  row '*mul_mat*' 'libggml-hip.so*' '>=7.0' 45-ggml-7
  row '*mul_mat*' 'libggml-hip.so*' '<7.0' 45-ggml-6
  row '*rocblas_sscal*' 'librocblas.so.5*' '>=7.0' 45-rocblas-7
  row '*rocblas_sscal*' 'librocblas.so.5*' '<7.0' 45-rocblas-6; } >"$tmp/rt.tsv"
run rules gfx1031 "$SHIM:$SIM" RDNACOMPAT_TABLES="$tmp/rt.tsv"
armed() { grep -c "info: rule: kernel=.* source=$1\$" "$tmp/rules.log"; }
for lib in 6.4.43484 7.2.53211; do
  grep -q "info: rule-runtime: runtime=[0-9]* lib=/usr/lib/x86_64-linux-gnu/libamdhip64.so.$lib " "$tmp/rules.log" ||
    fail "rules: no rule-runtime line for libamdhip64.so.$lib: $(grep -m3 'rule-runtime' "$tmp/rules.log")"
done
[ "$(armed 45-ggml-6)" -gt 0 ] && [ "$(armed 45-ggml-7)" = 0 ] ||
  fail "rules: ggml (HIP 6.4) armed $(armed 45-ggml-6) kernels by its <7.0 row, $(armed 45-ggml-7) by its >=7.0 row"
[ "$(armed 45-rocblas-7)" -gt 0 ] && [ "$(armed 45-rocblas-6)" = 0 ] ||
  fail "rules: rocBLAS 5 (HIP 7.2) armed $(armed 45-rocblas-7) kernels by its >=7.0 row, $(armed 45-rocblas-6) by its <7.0 row"
ok "kernel rules armed per library for its runtime: ggml's <7.0 row ($(armed 45-ggml-6) kernels), rocBLAS 5's >=7.0 row ($(armed 45-rocblas-7)); the other ranges none; the case passes"
echo "45-shim-two-runtimes: ok"
