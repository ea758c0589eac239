#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2 — Debian's HIP 5.2 answers hipMallocArray with hipErrorNotSupported on the simulated card (seen 2026-12-06; AMD_LOG_LEVEL=3 shows the return, not why)
# 87-exec-image.sh BUILD — the simulated card executes image instructions
# (simulated card (executed)): the texture program
# tests/integration/progs/sim_texture.hip (built by build_texture.sh with
# the release's hipcc) checks, against CPU values, a bilinear sample of a
# 2D float texture (clamp, normalized coordinates: image_sample_lz), the same
# over pitched linear memory (hipMallocPitch: a linear-layout image whose
# rows the host wrote, so the layout itself is checked), a point
# sample of a uchar4 texture read as normalized floats, a surface
# image_load/image_store, a bilinear sample inside the layers of a layered
# texture, and a plain kernel; its arrays are filled and read
# back by HIP's own __amd_rocclr_copyBufferToImage / copyImageToBuffer blit
# kernels, which must run on the engine too (the trace says executed);
#   - 6.4: gfx1030 and gfx1100 code on their own cards, and gfx1030 code on a
#     gfx1031 under the shim;
#   - 7.2: one bundle with gfx1030, gfx1100, gfx1153 and gfx11-generic code
#     on gfx1030, gfx1100 and gfx1153 (each its own code); gfx1153-only code
#     on gfx1153; gfx11-generic-only code on gfx1100;
#   - a 3D texture (its layout a pipe-XOR swizzle mode the engine does not
#     lay out) fails loudly: the GPU exception line names the layout;
#   - with RDNACOMPAT_SIM_EXEC=0 the checks fail (nothing computed), so they
#     can fail.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
rel=${RDC_ROCM:-5.2}
SHIM="$BUILD/librdnacompat.so"
trace="$OUT/image-trace.jsonl"
[ "$rel" = 5.2 ] && skip "Debian's HIP 5.2 answers hipMallocArray with hipErrorNotSupported on the simulated card"

texture() { # ARCHS: the program built for them
  local exe rc=0
  exe=$(RDC_HIPCC=${RDC_HIPCC:-hipcc} bash "$here/build_texture.sh" "$OUT/texture" "$1") || rc=$?
  [ $rc -eq 77 ] && skip "no hipcc"
  [ $rc -eq 0 ] || fail "build_texture.sh $1"
  echo "$exe"
}

# run_texture LABEL ENV... -- EXE: the four checks pass; the trace shows the
# blits and the four kernels executed.
run_texture() {
  local label=$1; shift
  rm -f "$trace"
  local out rc=0
  out=$(sim RDNACOMPAT_SIM_TRACE="$trace" "$@" 2>&1) || rc=$?
  [ $rc -eq 0 ] || fail "$label: rc=$rc: $out"
  [ "$(echo "$out" | grep -c '^ok ')" = 6 ] || fail "$label: 6 ok lines expected: $out"
  echo "$out" | grep -qx 'all checks passed' || fail "$label: $out"
  python3 - "$trace" "$label" <<'PY' || fail "$label: trace"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
names = {}
for l in lines:
    names.setdefault(l["kernel"], []).append(l)
for want in ("__amd_rocclr_copyBufferToImage", "__amd_rocclr_copyImageToBuffer"):
    got = [l for k, v in names.items() if want in k for l in v]
    assert got, (want, sorted(names))
    for l in got:
        assert l.get("executed") == "ok" and l["insts"] > 0, l
for k in ("tex_linear", "tex_point", "img_copy", "tex_layered", "scale"):
    got = [l for n, v in names.items() if k in n and n.startswith("_Z") for l in v]
    assert got, (k, sorted(names))
    for l in got:
        assert l.get("executed") == "ok" and l["insts"] > 0, l
PY
  echo "ok: $label: bilinear (tiled and pitched linear), point, layered, image load/store and plain kernels against CPU values; copyBufferToImage/copyImageToBuffer executed (simulated card (executed))"
}

if [ "$rel" = 6.4 ]; then
  e30=$(texture gfx1030) || exit $?
  e11=$(texture gfx1100) || exit $?
  run_texture "gfx1030 code on gfx1030" RDNACOMPAT_SIM_GPUS=gfx1030 -- "$e30"
  run_texture "gfx1100 code on gfx1100" RDNACOMPAT_SIM_GPUS=gfx1100 -- "$e11"
  [ -f "$SHIM" ] || skip "shim not built (the native runs passed)"
  run_texture "gfx1030 code on gfx1031 under the shim" RDNACOMPAT_SIM_GPUS=gfx1031 LD_PRELOAD="$SHIM" -- "$e30"
  neg=$e30 negcard=gfx1030
else
  all=$(texture gfx1030,gfx1100,gfx1153,gfx11-generic) || exit $?
  e53=$(texture gfx1153) || exit $?
  gen=$(texture gfx11-generic) || exit $?
  for g in gfx1030 gfx1100 gfx1153; do
    run_texture "one bundle (gfx1030, gfx1100, gfx1153, gfx11-generic) on $g" RDNACOMPAT_SIM_GPUS=$g -- "$all"
  done
  run_texture "gfx1153 code on gfx1153" RDNACOMPAT_SIM_GPUS=gfx1153 -- "$e53"
  run_texture "gfx11-generic code on gfx1100" RDNACOMPAT_SIM_GPUS=gfx1100 -- "$gen"
  neg=$e53 negcard=gfx1153
fi

out=$(sim RDNACOMPAT_SIM_GPUS=$negcard -- "$neg" 3d 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "dispatch failed (unsupported).*image layout SW_MODE [0-9]* is outside the engine's scope" ||
  fail "3D texture: a loud refusal naming the layout expected (rc=$rc): $out"
echo "ok: a 3D texture fails loudly on $negcard, naming its layout ($(echo "$out" | grep -o 'SW_MODE [0-9]*' | head -1))"

out=$(sim RDNACOMPAT_SIM_GPUS=$negcard RDNACOMPAT_SIM_EXEC=0 -- "$neg" 2>&1); rc=$?
[ $rc -ne 0 ] && ! echo "$out" | grep -qx 'all checks passed' ||
  fail "RDNACOMPAT_SIM_EXEC=0: the checks should fail (rc=$rc): $out"
echo "ok: with RDNACOMPAT_SIM_EXEC=0 the same program fails its checks on $negcard"
