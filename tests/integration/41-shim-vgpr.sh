#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 41-shim-vgpr.sh — a gfx1100 kernel that needs more than 128 VGPRs at 1024
# threads (tests/integration/shim/vgprhog.hip, built by the release's own
# hipcc: 192 with clang 21/22), launched with 1024 threads under the shim on
# simulated cards with ROCm 6.4/7.2 (real HIP, ROCR and a comgr that knows
# gfx11): mapped and dispatched from gfx1101 code on gfx1101 (1.5x VGPR
# file, like gfx1100); refused on gfx1102 and gfx1103 (1024-entry file) with
# the kernel, the check and the numbers in the log and the diagnosis block,
# and HIP's own no-code failure, since it is the entry's only kernel.  Next
# to a small kernel (shim/vgprmix.hip) it is held instead and the small one
# runs.  The same for a code object with two metadata notes
# (tests/fixtures/codeobj.d/multinote.sh, made as rocBLAS's Tensile .co files
# are) loaded by hipModuleLoad: the 192-VGPR kernel sits in the second note,
# every note is checked, and on gfx1102/gfx1103 that kernel is held while
# fill_iota runs.  Not on 5.2: its hipcc has no
# gfx1100 device libraries and its comgr knows no gfx11.
. "$(dirname "$0")/shim/common.sh"
build vgprhog1100 "$S/vgprhog.hip" --offload-arch=gfx1100 -O2
K=_Z8vgpr_hogPfPKfi

rm -f "$T/v.trace"
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/v.trace" shim gfx1101 "$T/vgprhog1100" >"$T/v.out" 2>"$T/v.err" || rc=$?
[ "$rc" -eq 0 ] && launch_ok "$T/v.out" || fail "gfx1101: rc=$rc $(cat "$T/v.out" "$T/v.err")"
grep -qx "device0 gfx1100" "$T/v.out" || fail "gfx1101: gcnArchName is not gfx1100 (the name of the code it runs)"
grep -q "info: map: lib=$T/vgprhog1100 .*target=gfx1101 .*verdict=mapped .*chosen=gfx1100 kernels=1 refused=0" "$T/v.err" ||
  fail "gfx1101: no mapping logged: $(cat "$T/v.err")"
kernels_on "$T/v.trace" gfx1101 || fail "gfx1101: trace"
echo "ok: mapped on gfx1101, 1024 threads dispatched from gfx1101 code"

for card in gfx1102 gfx1103; do
  rc=0; RDNACOMPAT_LOG=info shim "$card" "$T/vgprhog1100" >"$T/v.out" 2>"$T/v.err" || rc=$?
  [ "$rc" -ne 0 ] || fail "$card: the kernel ran"
  nocode_failed "$rc" "$T/v.out" "$T/v.err" || fail "$card: not HIP $REL's no-code failure (rc=$rc)"
  line=$(grep "warn: refused: lib=$T/vgprhog1100 bundle=0 device=0 kernel=$K check=vgpr " "$T/v.err") ||
    fail "$card: no refusal with kernel and check: $(cat "$T/v.err")"
  need=$(sed -nE 's/.*reason="([0-9]+) VGPRs x 8 waves\/SIMD \(1024 threads, WGP mode\) needs 1536, '"$card"' has 1024.*/\1/p' <<<"$line")
  [ -n "$need" ] && [ "$need" -gt 128 ] || fail "$card: refusal reason lacks the numbers: $line"
  grep -q "info: map:" "$T/v.err" && fail "$card: mapped despite the refusal"
  grep -q "refused: *$K (vgpr)" "$T/v.err" || fail "$card: the diagnosis block does not name the refused kernel"
  grep -q "$T/vgprhog1100, bundle 0: device 0 ($card) has no usable entry" "$T/v.err" || fail "$card: no diagnosis block"
done
echo "ok: refused on gfx1102 and gfx1103 ($need VGPRs x 8 waves needs 1536, the card has 1024)"

# The same kernel next to a small one in one fat binary: on gfx1102/gfx1103
# the entry is mapped with the hog held (docs/SHIM.md "Held kernels": a
# kernel the card's limits cannot run is kept from running, the rest of its
# entry runs); its launch gets HIP's answer for a function it does not know
# and the process goes on.  Both ways HIP 7 takes the fat binary (read when
# first used, and decided at registration with RDNACOMPAT_LAZY=0).
build vgprmix1100 "$S/vgprmix.hip" --offload-arch=gfx1100 -O2 -I"$S"
rc=0; shim gfx1101 "$T/vgprmix1100" >"$T/x.out" 2>"$T/x.err" || rc=$?
[ "$rc" -eq 0 ] && grep -qx "small ok" "$T/x.out" && grep -qx "hog launch: no error" "$T/x.out" ||
  fail "vgprmix on gfx1101: rc=$rc $(cat "$T/x.out" "$T/x.err")"
lazies=1; [ "$REL" = 7.2 ] && lazies="1 0"
for card in gfx1102 gfx1103; do
  for lazy in $lazies; do
    rc=0; RDNACOMPAT_LAZY=$lazy RDNACOMPAT_LOG=info shim "$card" "$T/vgprmix1100" >"$T/x.out" 2>"$T/x.err" || rc=$?
    [ "$rc" -eq 0 ] && grep -qx "small ok" "$T/x.out" ||
      fail "vgprmix on $card (lazy=$lazy): the small kernel did not run right: rc=$rc $(cat "$T/x.out" "$T/x.err")"
    grep -qx "hog launch: invalid device function" "$T/x.out" ||
      fail "vgprmix on $card (lazy=$lazy): the held kernel's launch was not refused: $(cat "$T/x.out")"
    grep -q "info: map: lib=$T/vgprmix1100 .*target=$card .*verdict=mapped .*chosen=gfx1100 kernels=2 .*held=1 .*1 of 2 kernels pass and 1 is held" "$T/x.err" &&
      grep -q "warn: held: lib=$T/vgprmix1100 .*kernel=$K check=vgpr reason=\"[0-9]* VGPRs x 8 waves/SIMD" "$T/x.err" ||
      fail "vgprmix on $card (lazy=$lazy): not mapped with the hog held and said: $(cat "$T/x.err")"
  done
done
echo "ok: next to a small kernel, the hog is held on gfx1102 and gfx1103 and the small kernel runs (its launch: invalid device function)"

# Two metadata notes: fill_iota and scale_add in the first, vgpr_hog in the second.
mn=$RDC_FIXTURES/codeobj/multinote-gfx1100.co
[ -s "$mn" ] || skip "fixture $mn not built (clang-16)"
build modload "$S/modload.cpp" -lpthread
rm -f "$T/m.trace"
rc=0; MODLOAD_KERNEL=_Z9fill_iotaPii RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/m.trace" \
  shim gfx1101 "$T/modload" file "$mn" >"$T/m.out" 2>"$T/m.err" || rc=$?
[ "$rc" -eq 0 ] || fail "multinote on gfx1101: rc=$rc $(cat "$T/m.out" "$T/m.err")"
grep -q "info: map: .*multinote-gfx1100.co.*target=gfx1101 .*verdict=mapped .*chosen=gfx1100 kernels=3 refused=0" "$T/m.err" ||
  fail "multinote on gfx1101: not mapped with 3 kernels: $(cat "$T/m.err")"
kernels_on "$T/m.trace" gfx1101 || fail "multinote on gfx1101: trace"
for card in gfx1102 gfx1103; do
  rc=0; MODLOAD_KERNEL=_Z9fill_iotaPii RDNACOMPAT_LOG=info shim "$card" "$T/modload" file "$mn" \
    >"$T/m.out" 2>"$T/m.err" || rc=$?
  [ "$rc" -eq 0 ] || fail "multinote on $card: fill_iota did not run right next to the held kernel: rc=$rc $(cat "$T/m.out" "$T/m.err")"
  grep -q "warn: held: .*multinote-gfx1100.co.* kernel=$K check=vgpr " "$T/m.err" ||
    fail "multinote on $card: the second note's kernel is not held: $(cat "$T/m.err")"
  grep -q "info: map: .*multinote-gfx1100.co.*target=$card .*verdict=mapped .*kernels=3 .*held=1" "$T/m.err" ||
    fail "multinote on $card: not mapped with one kernel held: $(cat "$T/m.err")"
  rc=0; MODLOAD_KERNEL=$K shim "$card" "$T/modload" file "$mn" >"$T/m.out" 2>"$T/m.err" || rc=$?
  [ "$rc" -ne 0 ] && grep -q "^launch: " "$T/m.err" || fail "multinote on $card: the held kernel was found or ran: rc=$rc $(cat "$T/m.err")"
done
echo "ok: two metadata notes: 3 kernels mapped on gfx1101; on gfx1102 and gfx1103 $K (second note) held, fill_iota runs"
echo "41-shim-vgpr: ok"
