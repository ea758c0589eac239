#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — gfx115x cards and image sampling need ROCm 7.2's HIP and clang (gfx1153 and generic targets)
# 87-shim-point-sample.sh BUILD — the per-kernel instruction condition
# point-sample (tables/compat.tsv, tables/features.tsv, shim/core/policy_isa.c)
# on the texture program of 87-exec-image (progs/sim_texture.hip), simulated
# cards (executed):
#   - built for gfx1153 only, on gfx1150, gfx1151 and gfx1152 (cards with
#     LLVM's FeaturePointSampleAccel, whose waits gfx1153 code lacks): every
#     kernel that samples (image_sample*/gather4) is refused and said — kernel,
#     instruction, offset, feature and LLVM's reason — and the kernels without
#     them are not; the entry is then not mapped (a refusal is per entry
#     today), so the program fails as without code for the card;
#   - the same program on a gfx1153 card: its own code, clean, every check right;
#   - built for gfx11-generic and gfx1153: HIP 7 loads the generic entry on a
#     gfx1150 by itself; the shim says at warn which kernels lack the
#     workaround (generic-unsafe) and the program runs (nothing else to run).
. "$(dirname "$0")/lib/exec_common.bash"
here=$(cd "$(dirname "$0")" && pwd)
TOOL=$BUILD/bin/rdnacompat
[ -x "$TOOL" ] || skip "no $TOOL"
out=$BUILD/sim-tests/$rel/tex
exe=$(RDC_HIPCC=${RDC_HIPCC:-hipcc} "$here/progs/build_texture.sh" "$out" gfx1153) || fail "building the texture program for gfx1153"
gen=$(RDC_HIPCC=${RDC_HIPCC:-hipcc} "$here/progs/build_texture.sh" "$out" gfx11-generic,gfx1153) ||
  fail "building the texture program for gfx11-generic,gfx1153"
samplers="tex_linear tex_point tex_3d tex_layered"
for g in gfx1150 gfx1151 gfx1152; do
  rc=0
  RDNACOMPAT_CACHE=0 timeout 120 "$TOOL" run --gpu "$g" --log-level info -- "$exe" >"$tmp/$g.out" 2>&1 || rc=$?
  for k in $samplers; do
    grep -E "warn: refused: .*target=|warn: refused: .*kernel=_Z[0-9]+${k}P" "$tmp/$g.out" |
      grep -qE "kernel=_Z[0-9]+${k}P.* check=point-sample reason=\"image_(sample|gather4)[a-z0-9_]* at \+0x[0-9a-f]+ .*PointSampleAccel.*#127991" ||
      { cat "$tmp/$g.out" >&2; fail "$g: the sampling kernel $k was not refused with its instruction and reason"; }
  done
  ! grep -qE "warn: refused: .*kernel=_Z[0-9]+(scale|img_copy)" "$tmp/$g.out" ||
    fail "$g: a kernel without image samples was refused"
  grep -q "verdict=missing" "$tmp/$g.out" || fail "$g: the gfx1153 entry was mapped although kernels need PointSampleAccel's waits"
  [ "$rc" -ne 0 ] || fail "$g: the program passed without code for the card"
  ok "$g: $(grep -c 'warn: refused:' "$tmp/$g.out") sampling kernels refused for point-sample, the plain ones not"
done
RDNACOMPAT_CACHE=0 timeout 120 "$TOOL" run --gpu gfx1153 --log-level info -- "$exe" >"$tmp/own.out" 2>&1 ||
  { cat "$tmp/own.out" >&2; fail "gfx1153 with its own code failed"; }
grep -q "^all checks passed" "$tmp/own.out" || fail "gfx1153: not every check passed"
! grep -qE "refused|point-sample" "$tmp/own.out" || fail "gfx1153: its own code was held to point-sample"
ok "gfx1153: its own code, every kernel runs and every check passes"
RDNACOMPAT_CACHE=0 timeout 120 "$TOOL" run --gpu gfx1150 --log-level info -- "$gen" >"$tmp/gen.out" 2>&1 ||
  { cat "$tmp/gen.out" >&2; fail "gfx1150 with gfx11-generic code (loaded by HIP itself) failed"; }
grep -qE "warn: generic-unsafe: .*point-sample" "$tmp/gen.out" ||
  { cat "$tmp/gen.out" >&2; fail "gfx1150: HIP's own gfx11-generic choice was not said to lack PointSampleAccel's waits"; }
ok "gfx1150 with a gfx11-generic entry HIP loads itself: said at warn (generic-unsafe), program runs"
