#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2
# 70-libs-hipblaslt.sh BUILD — what a gfx1031 or gfx1103 user gets from
# hipBLASLt (Debian's libhipblaslt1 7.2.4 in the ROCm 7.2 root: lazy Tensile
# libraries for gfx908, gfx90a, gfx1100-1102, gfx1151, gfx1200/1201 only), on
# simulated cards, with libs/hipblaslt_gemm.cpp (one fp32 matmul), and that
# `rdnacompat explain` names the failure (tables/errors.tsv hipblaslt-library):
#   gfx1031 without and with the shim: "rocblaslt error: Could not load
#           .../TensileLibrary_lazy_gfx1031.dat", then the heuristic query
#           fails: hipBLASLt has no RDNA2 code at all, nothing to redirect to.
#   gfx1103 without the shim: the same failure; with the shim (map mode) the
#           .dat is redirected to gfx1102's (logged) but hipBLASLt keeps only
#           solutions whose predicate names the reported arch: 0 algorithms;
#           in spoof mode with libhipblaslt.so in RDNACOMPAT_SPOOF_FOR it is
#           told gfx1102, the matmul completes, its kernel comes from code
#           retargeted to gfx1103 (trace) and D matches a plain-loop CPU GEMM
#           on small-integer inputs (tolerance 0, libs/ref_check.h: the
#           program's "max err:" line).
# Simulated card (executed) for that result: the simulator runs the kernel as
# compiled; with RDNACOMPAT_SIM_EXEC=0 the comparison fails (checked by hand,
# 2026-12-04).
set -u
BUILD=${1:?usage: $0 BUILD}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/libs/libs_common.bash"
[ -f /usr/include/hipblaslt/hipblaslt.h ] || skip "libhipblaslt-dev not installed"
RDC=$BUILD/bin/rdnacompat
[ -x "$RDC" ] || skip "rdnacompat not built"
build hipblaslt_gemm hipblaslt

expect_no_library() { # NAME CARD WHAT
  [ "$(cat "$tmp/$1.rc")" != 0 ] || fail "$2 $3 ran: $(cat "$tmp/$1.out")"
  grep -q "rocblaslt error: Could not load .*TensileLibrary_lazy_$2.dat" "$tmp/$1.out" ||
    fail "$2 $3: not hipBLASLt's missing-library failure: $(head -5 "$tmp/$1.out")"
  grep -q '^hipblaslt error: hipblasLtMatmulAlgoGetHeuristic' "$tmp/$1.out" || fail "$2 $3: the heuristic query did not fail: $(cat "$tmp/$1.out")"
  "$RDC" explain - <"$tmp/$1.out" >"$tmp/$1.explain" 2>&1 || fail "$2 $3: explain matched nothing: $(cat "$tmp/$1.explain")"
  grep -q '^\[hipblaslt-library\]' "$tmp/$1.explain" || fail "$2 $3: explain does not name hipblaslt-library: $(head -3 "$tmp/$1.explain")"
  ok "$2 $3 fails: \"$(grep -m1 'rocblaslt error' "$tmp/$1.out")\"; explain: $(grep -m1 '^\[hipblaslt-library\]' "$tmp/$1.explain")"
}

go none-1031 hipblaslt_gemm gfx1031
expect_no_library none-1031 gfx1031 "without the shim"
go shim-1031 hipblaslt_gemm gfx1031 SHIM
expect_no_library shim-1031 gfx1031 "with the shim"
[ -z "$(redirects shim-1031)" ] || fail "gfx1031: a hipBLASLt file was redirected although no RDNA2 library exists: $(redirects shim-1031 | head -1)"
ok "gfx1031 with the shim: nothing redirected (hipBLASLt 7.2 has no gfx103x library to map to)"

go none-1103 hipblaslt_gemm gfx1103
expect_no_library none-1103 gfx1103 "without the shim"
go shim-1103 hipblaslt_gemm gfx1103 SHIM
[ "$(cat "$tmp/shim-1103.rc")" != 0 ] || fail "gfx1103 map mode: hipBLASLt ran (the test expects 0 algorithms; update it and errors.tsv): $(cat "$tmp/shim-1103.out")"
redirects shim-1103 | grep -q "from=[^ ]*/hipblaslt/library/TensileLibrary_lazy_gfx1103\.dat to=[^ ]*/TensileLibrary_lazy_gfx1102\.dat " ||
  fail "gfx1103 map mode: the hipBLASLt .dat was not redirected to gfx1102's: $(redirects shim-1103 | head -2)"
grep -qx 'heuristics: 0' "$tmp/shim-1103.out" || fail "gfx1103 map mode: $(cat "$tmp/shim-1103.out")"
ok "gfx1103 with the shim (map mode): TensileLibrary_lazy_gfx1103.dat redirected to gfx1102's, but hipBLASLt offers 0 algorithms to a device named gfx1103"
go spoof-1103 hipblaslt_gemm gfx1103 SHIM RDNACOMPAT_MODE=spoof RDNACOMPAT_SPOOF_FOR=libhipblaslt.so
[ "$(cat "$tmp/spoof-1103.rc")" = 0 ] && [ "$(oks spoof-1103)" = 1 ] || fail "gfx1103 spoof mode: $(tail -5 "$tmp/spoof-1103.out")"
checked spoof-1103 1
grep -q 'info: spoof: .*reported=gfx1102 caller=[^ ]*libhipblaslt' "$tmp/spoof-1103.log" || fail "gfx1103 spoof mode: hipBLASLt not told gfx1102"
grep -qx 'device: gfx1103' "$tmp/spoof-1103.out" || fail "gfx1103 spoof mode: the program itself was lied to: $(head -1 "$tmp/spoof-1103.out")"
[ "$(targets spoof-1103)" = gfx1103 ] && [ "$(ndisp spoof-1103)" -ge 1 ] ||
  fail "gfx1103 spoof mode: dispatches from '$(targets spoof-1103)' ($(ndisp spoof-1103))"
ok "gfx1103 spoof mode for libhipblaslt.so: hipBLASLt told gfx1102 (logged), $(grep -m1 '^heuristics' "$tmp/spoof-1103.out"), matmul complete, D matches the CPU reference (simulated card (executed): $(errs spoof-1103)); $(ndisp spoof-1103) dispatches, all from code retargeted to gfx1103"
