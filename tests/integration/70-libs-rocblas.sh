#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 70-libs-rocblas.sh BUILD — rocBLAS and hipBLAS (Debian's librocblas4 /
# libhipblas2 inside the ROCm 6.4 and 7.2 roots) on simulated unsupported
# cards.  libs/rocblas_gemm.cpp (sgemm, hgemm, strided batched sgemm) and
# libs/hipblas_gemm.cpp (sgemm, strided batched sgemm), built once per
# release into $BUILD/sim-tests/REL; each call's result is copied back and
# compared with a plain-loop CPU GEMM on small-integer inputs (tolerance 0,
# libs/ref_check.h), and a run passes only with every "max err:" line within
# it.  rocBLAS picks its Tensile files by the
# device's gcnArchName (TensileLibrary_lazy_<arch>.dat, *_fallback_<arch>
# .hsaco, Kernels.so-000-<arch>.hsaco) and loads the code objects through
# hipModuleLoad; gfx1031/gfx1103 have none of them.  Each card three ways:
#   without the shim: rocBLAS's own abort ("Cannot read .../TensileLibrary
#            .dat ... for GPU arch : gfx1031"), quoted;
#   HSA_OVERRIDE_GFX_VERSION=10.3.0 (gfx1031 only): runs, rocBLAS told gfx1030;
#   with the shim (map mode): runs; rocBLAS, whose own device code is
#            mapped from gfx1030 (gfx1102 for gfx1103), is told that name (a
#            "name" line; docs/SHIM.md "The name an object is told") and opens
#            that target's files itself, nothing redirected; the program,
#            without device code, is told the truth; each Tensile code object
#            is mapped at hipModuleLoadData (one "map:" line each); every
#            traced dispatch comes from a code object retargeted to the card;
#   with RDNACOMPAT_NAME_FOLLOWS_CODE=0 (gfx1031): rocBLAS sees the true
#            name; every per-arch file it asks for is redirected to the mapped
#            target's, logged once per file.
# Spoof mode (the user's choice) is checked once: rocBLAS (RDNACOMPAT_SPOOF_FOR's
# default) is told gfx1030 and opens gfx1030 files itself, so nothing is
# redirected; the program itself still sees gfx1031.
# Simulated card (executed): the simulator runs the kernels (the retargeted
# code as compiled), so the compared results are those of rocBLAS's code on
# the engine, not of hardware; with RDNACOMPAT_SIM_EXEC=0 (kernels retired)
# the comparisons fail (checked by hand, 2026-12-04).
set -u
BUILD=${1:?usage: $0 BUILD}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/libs/libs_common.bash"
ls /usr/lib/x86_64-linux-gnu/librocblas.so.* >/dev/null 2>&1 || skip "librocblas not installed"
[ -f /usr/include/hipblas/hipblas.h ] || skip "libhipblas-dev not installed"
build rocblas_gemm rocblas
build hipblas_gemm hipblas

expect_failure() { # NAME CARD
  [ "$(cat "$tmp/$1.rc")" != 0 ] || fail "$2 without the shim ran: $(tail -5 "$tmp/$1.out")"
  grep -q "Cannot read .*TensileLibrary.dat: No such file or directory for GPU arch : $2" "$tmp/$1.out" ||
    fail "$2 without the shim: not rocBLAS's known failure: $(head -5 "$tmp/$1.out")"
  ok "$2 $3 without the shim aborts as a user sees it: \"$(grep -m1 'Cannot read' "$tmp/$1.out" | sed 's/^ *//')\""
}
expect_run() { # NAME CARD CALLS DEVICE-NAME CODE-TARGET
  [ "$(cat "$tmp/$1.rc")" = 0 ] || fail "$1: exited $(cat "$tmp/$1.rc"): $(tail -10 "$tmp/$1.out")"
  [ "$(oks "$1")" = "$3" ] || fail "$1: expected $3 completed calls: $(cat "$tmp/$1.out")"
  grep -qx "device: $4" "$tmp/$1.out" || fail "$1: the program was expected to be told $4: $(head -1 "$tmp/$1.out")"
  [ "$(targets "$1")" = "$5" ] || fail "$1: dispatches from code objects for '$(targets "$1")', expected $5"
  [ "$(ndisp "$1")" -ge "$3" ] || fail "$1: only $(ndisp "$1") dispatches traced for $3 calls"
  checked "$1" "$3"
}
# expect_redirects NAME CARD CHOSEN-RE WHAT — a run with true names for all
# (RDNACOMPAT_NAME_FOLLOWS_CODE=0): per-arch files redirected, mapped objects
expect_redirects() {
  local n=$1 card=$2 calls
  calls=$(grep -c 'printf("ok: ' "$here/libs/${3%%:*}.cpp"); local chosen=${3#*:}
  expect_run "$n" "$card" "$calls" "$card" "$card"
  local dat; dat=$(redirects "$n" | grep -c "from=[^ ]*/TensileLibrary_lazy_$card\.dat to=[^ ]*/TensileLibrary_lazy_$chosen\.dat ")
  [ "$dat" = 1 ] || fail "$n: TensileLibrary_lazy_$card.dat redirected $dat times in the log (expected once): $(redirects "$n" | head -3)"
  local dup; dup=$(redirects "$n" | sed 's/.* from=\([^ ]*\) .*/\1/' | sort | uniq -d | head -1)
  [ -z "$dup" ] || fail "$n: $dup redirect logged more than once"
  local hsaco maps
  hsaco=$(redirects "$n" | grep -c "from=[^ ]*$card\.hsaco to=[^ ]*$chosen\.hsaco ")
  maps=$(grep -c "map: lib=\"image@[^ ]*(loaded by librocblas.so.[0-9]*)\" .*source=hipModuleLoadData device=0 target=$card .*verdict=mapped .*chosen=$chosen " "$tmp/$n.log")
  [ "$hsaco" -gt 0 ] || fail "$n: no Tensile code object redirected: $(redirects "$n" | head -3)"
  [ "$maps" -ge "$hsaco" ] || fail "$n: $hsaco code objects redirected but $maps hipModuleLoadData objects mapped"
  local bad; bad=$(grep 'map: ' "$tmp/$n.log" | grep -v 'verdict=mapped' | head -1)
  [ -z "$bad" ] || fail "$n: an object not mapped: $bad"
  ok "$card $4 with the shim and RDNACOMPAT_NAME_FOLLOWS_CODE=0: $calls calls complete, results match the CPU reference (simulated card (executed): $(errs "$n")); told $card (true name); $(redirects "$n" | wc -l) per-arch files redirected, each logged once (TensileLibrary_lazy_$card.dat -> $(redirects "$n" | sed -n "s|.*/TensileLibrary_lazy_$card\.dat to=[^ ]*/\(TensileLibrary_lazy_[a-z0-9]*\.dat\) .*|\1|p")); $maps hipModuleLoadData objects mapped; $(ndisp "$n") dispatches, all from code retargeted to $card"
}

# expect_shim NAME CARD CHOSEN-RE WHAT — the shim's run: the library told the
# name of its code, nothing redirected, mapped objects
expect_shim() {
  local n=$1 card=$2 calls
  calls=$(grep -c 'printf("ok: ' "$here/libs/${3%%:*}.cpp"); local chosen=${3#*:}
  expect_run "$n" "$card" "$calls" "$card" "$card"
  local told; told=$(grep -m1 "info: name: lib=[^ ]*librocblas[^ ]* device=0 target=$card reported=$chosen why=" "$tmp/$n.log" |
    sed -n 's/.* reported=\([a-z0-9]*\) .*/\1/p')
  [ -n "$told" ] || fail "$n: rocBLAS not told its code's name: $(grep -m3 'name: ' "$tmp/$n.log")"
  [ -z "$(redirects "$n")" ] || fail "$n: files redirected although rocBLAS was told $told: $(redirects "$n" | head -2)"
  local maps
  maps=$(grep -c "map: lib=\"image@[^ ]*(loaded by librocblas.so.[0-9]*)\" .*source=hipModuleLoadData device=0 target=$card .*verdict=mapped .*chosen=$told " "$tmp/$n.log")
  [ "$maps" -gt 0 ] || fail "$n: no Tensile code object mapped from $told"
  local bad; bad=$(grep 'map: ' "$tmp/$n.log" | grep -v 'verdict=mapped' | head -1)
  [ -z "$bad" ] || fail "$n: an object not mapped: $bad"
  ok "$card $4 with the shim: $calls calls complete, results match the CPU reference (simulated card (executed): $(errs "$n")); rocBLAS told $told (its code's name, logged), the program $card; nothing redirected; $maps hipModuleLoadData objects mapped; $(ndisp "$n") dispatches, all from code retargeted to $card"
}

# --- rocBLAS on gfx1031: three ways, and spoof mode ------------------------------
go none-1031 rocblas_gemm gfx1031
expect_failure none-1031 gfx1031 rocBLAS
go ovr-1031 rocblas_gemm gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0
expect_run ovr-1031 gfx1031 3 gfx1030 gfx1030
ok "gfx1031 rocBLAS with HSA_OVERRIDE_GFX_VERSION=10.3.0 runs, results match the CPU reference (simulated card (executed): $(errs ovr-1031)); told gfx1030 (the lie); $(ndisp ovr-1031) dispatches from gfx1030 code"
go shim-1031 rocblas_gemm gfx1031 SHIM RDNACOMPAT_LOG=debug
expect_shim shim-1031 gfx1031 "rocblas_gemm:gfx1030" rocBLAS
# The work of a first run, a repeat run (the decision cache of the first)
# and a run without the cache: each Tensile object rocBLAS hands
# hipModuleLoadData (one kernel descriptor and note per kernel: hundreds of
# patches) is copied once and patched, its patches taken from the
# decision, never decoded again; a repeat run parses, retargets and
# decodes nothing.
work() { local k; for k in parsed retargeted from_cache notes_decoded bytes_decompressed; do printf '%s=%s ' $k "$(counter "$1" $k)"; done; }
[ "$(counter shim-1031 retargeted)" -ge 1 ] && [ "$(counter shim-1031 notes_decoded)" = 0 ] ||
  fail "shim-1031 (first run): expected code retargeted from the decisions' patches: $(work shim-1031)"
go again-1031 rocblas_gemm gfx1031 SHIM RDNACOMPAT_LOG=debug
expect_shim again-1031 gfx1031 "rocblas_gemm:gfx1030" rocBLAS
for k in parsed retargeted notes_decoded bytes_decompressed; do
  [ "$(counter again-1031 $k)" = 0 ] || fail "again-1031 (repeat run): $k=$(counter again-1031 $k), expected 0: $(work again-1031)"
done
[ "$(counter again-1031 from_cache)" -ge "$(counter shim-1031 retargeted)" ] ||
  fail "again-1031 (repeat run): fewer objects from the cache than the first run retargeted: $(work again-1031)"
go nocache-1031 rocblas_gemm gfx1031 SHIM RDNACOMPAT_LOG=debug RDNACOMPAT_CACHE=0
expect_shim nocache-1031 gfx1031 "rocblas_gemm:gfx1030" rocBLAS
[ "$(counter nocache-1031 notes_decoded)" -ge 1 ] ||
  fail "RDNACOMPAT_CACHE=0: a Tensile object's patches (more than a decision holds) should be decoded from its bytes: $(work nocache-1031)"
ok "gfx1031 rocBLAS, the shim's work: first run $(work shim-1031); repeat run $(work again-1031); RDNACOMPAT_CACHE=0 $(work nocache-1031)"
go true-1031 rocblas_gemm gfx1031 SHIM RDNACOMPAT_NAME_FOLLOWS_CODE=0
expect_redirects true-1031 gfx1031 "rocblas_gemm:gfx1030" rocBLAS
go spoof-1031 rocblas_gemm gfx1031 SHIM RDNACOMPAT_MODE=spoof
expect_run spoof-1031 gfx1031 3 gfx1031 gfx1031
grep -q 'info: spoof: .*reported=gfx1030 caller=[^ ]*librocblas' "$tmp/spoof-1031.log" ||
  fail "spoof mode: rocBLAS was not told gfx1030: $(grep -m2 'spoof' "$tmp/spoof-1031.log")"
[ -z "$(redirects spoof-1031)" ] || fail "spoof mode: files redirected although rocBLAS was told gfx1030: $(redirects spoof-1031 | head -2)"
ok "gfx1031 rocBLAS in spoof mode (the user's choice): results match the CPU reference (simulated card (executed): $(errs spoof-1031)); rocBLAS told gfx1030 (logged), the program still gfx1031; rocBLAS opens gfx1030's files itself, nothing redirected; code retargeted to gfx1031"

# --- rocBLAS on gfx1103 ----------------------------------------------------------
go none-1103 rocblas_gemm gfx1103
expect_failure none-1103 gfx1103 rocBLAS
go shim-1103 rocblas_gemm gfx1103 SHIM
expect_shim shim-1103 gfx1103 "rocblas_gemm:gfx110[0-2]" rocBLAS

# --- hipBLAS (on rocBLAS) ----------------------------------------------------------
go hnone-1031 hipblas_gemm gfx1031
expect_failure hnone-1031 gfx1031 hipBLAS
# gfx1031 only: hipBLAS 3 (7.2) links librocsolver, whose fat binary costs
# ~40 s of wall time per card to decide on the shared machine; gfx1103's
# rocBLAS path is the one above.
go hshim-1031 hipblas_gemm gfx1031 SHIM
expect_shim hshim-1031 gfx1031 "hipblas_gemm:gfx1030" hipBLAS
