#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 85-exec-fallback-direct.sh BUILD — rdnacompat's fallback flash-attention
# kernels (shim/fallback/, embedded in librdnacompat.so) against ggml's OWN
# flash_attn_tile kernels on identical inputs, both EXECUTED as AMD code by
# the simulator, and both against ggml's CPU backend.
#
# fallback/fa_direct.c drives Debian's ggml (libggml0 0.27.0, the HIP
# backend built against HIP 6.4 — the same build in both roots): one
# FLASH_ATTN_EXT graph per case (Q f32, K/V f16, f16 mask, precision F32, as
# test-backend-ops builds them), inputs from a fixed seed, on ROCm0 and on
# the CPU backend; it writes both outputs.  Three runs:
#   native   simulated gfx1030, no shim: ggml's own gfx1030 flash_attn_tile
#            kernels run (the trace names flash_attn_tile<DK,DV,...> per case);
#   fb1030   the same simulated gfx1030 under the shim, fallback rows armed;
#   fb1031   a simulated gfx1031 under the shim (the fallback's gfx1030 code
#            retargeted), fallback rows armed
# (armed: a user tables file repeating tables/kernels.tsv's fallback rows for
# any runtime — ggml links HIP 6.4, the built-in rows are for >= 7.1 — and
# RDNACOMPAT_OPT_IN=1 RDNACOMPAT_FALLBACK=1).  In the fallback runs every
# tile dispatch is rdnacompat_fb_fattn_tile_dv<DV>, none is ggml's.
#
# Asserted per case (CASES: every head size the rows cover, 40 ... 256,
# 512/512 and the MLA shape 576/512, plus the DKQ != DV pairs 192/128 and
# 320/256 the dv128/dv256 rows also take):
#   - the three runs had identical inputs (same digest) and their CPU
#     outputs are bit for bit the same;
#   - ggml's tile kernel and ours each meet the CPU backend within ggml's own
#     threshold for FLASH_ATTN_EXT, NMSE <= 5e-4 (test-backend-ops,
#     test_flash_attn_ext::max_nmse_err), and so do both (and the CPU) against
#     the same attention computed in double from the same inputs;
#   - ours against ggml's tile kernel directly: NMSE <= 5e-4 as well.  Why
#     that bound: the two are not expected to agree bit for bit (ggml's tile
#     kernel on AMD keeps Q.K products, KQ and the V accumulators in f16,
#     ours in f32: docs/FALLBACKS.md), so the bar is the one ggml itself sets
#     for any backend's FA against its reference — the fallback may differ
#     from ggml's kernel by no more than ggml lets a backend differ from the
#     CPU.  Measured values are printed (about 1e-5 and below is expected:
#     f16 rounding of a few 1e-3 relative);
#   - ours against the double-precision result: NMSE <= 1e-10.  The fallback
#     computes in f32 (docs/FALLBACKS.md: more accurate than ggml's, not
#     bit-identical); f32 rounding over dot products of at most 576 terms and
#     512 keys is ~1e-6 relative at worst, NMSE ~1e-12, so 1e-10 has margin,
#     while any f16 step in the arithmetic (ggml's tile kernel sits at
#     ~1e-6) or a wrong mask/scale/head mapping would exceed it;
#   - our kernel gives the same bytes on gfx1031 as on gfx1030 is reported,
#     not asserted (ggml may split the KV range differently per card).
# Results are "simulated card (executed)": the code as compiled, run by the
# engine, not hardware.
set -u
BUILD=${1:?usage: $0 BUILD}
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
fail() { echo "FAIL [ROCm $rel]: $*" >&2; exit 1; }
skip() { echo "SKIP [ROCm $rel]: $*" >&2; exit 77; }
SIM=$BUILD/sim/librdnacompat-sim.so
SHIM=$BUILD/librdnacompat.so
LIB=/usr/lib/x86_64-linux-gnu
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$SIM" ] && [ -f "$SHIM" ] || skip "simulator or shim not built in $BUILD"
[ -f $LIB/libggml.so.0 ] && [ -f $LIB/libggml-base.so.0 ] || skip "libggml0 not installed in the ROCm $rel root"
[ -f $LIB/ggml/backends0/libggml-hip.so ] || skip "libggml0-backend-hip not installed"
CC=
for c in /usr/bin/clang-[0-9] /usr/bin/clang-[0-9][0-9]; do [ -x "$c" ] && CC=$c; done   # the newest
[ -n "$CC" ] || skip "no clang in the ROCm $rel root"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\|RDNACOMPAT_[A-Z_0-9]*\)=.*/\1/p'); do unset "$v"; done
export XDG_CACHE_HOME=$tmp/cache HSA_ENABLE_SDMA=0

# ggml's kernel choice (src/ggml-cuda/fattn.cu, ggml_cuda_get_best_fattn_kernel,
# read at ggml-org/ggml@d99724f2 = v0.21.0; the traces below check what 0.27
# chose): gfx1030 has no MMA/WMMA, so flash_attn_tile runs unless the vector
# kernel is preferred (head size % 64 == 0 and a single query column) —
# hence 3 query columns.  512/512, 576/512, 192/128 and 320/256 exist only
# with the GQA optimisation (mask, no ALiBi, kv % 256 == 0, GQA ratio >= 2;
# 576: ratio % 4, 192: % 8, 320: % 32), hence their head counts.
#         DK:DV:heads:kv-heads:kv:columns[:mla]
CASES="40:40:4:4:512:3 64:64:4:4:512:3 72:72:4:4:512:3 80:80:4:4:512:3 96:96:4:4:512:3
       112:112:4:4:512:3 128:128:4:4:512:3 256:256:4:4:512:3 512:512:8:1:512:3
       576:512:16:1:512:2:mla 192:128:8:1:512:3 320:256:32:1:512:1"
"$CC" -std=c11 -O1 -Wall -Wextra -Werror -o "$tmp/fa_direct" "$here/fallback/fa_direct.c" \
  $LIB/libggml.so.0 $LIB/libggml-base.so.0 -lm 2>"$tmp/cc.log" ||
  fail "building fa_direct with $CC: $(tail -5 "$tmp/cc.log")"

{ echo '[kernels]'
  grep -v '^#' "$here/../../tables/kernels.tsv" |
    awk -F'\t' 'BEGIN { OFS = "\t" } $5 ~ /^fallback:/ { $4 = "*"; $8 = "85"; print }'; } >"$tmp/fb.tsv"
[ "$(grep -c fallback: "$tmp/fb.tsv")" -ge 10 ] || fail "no fallback rows in tables/kernels.tsv"

run() { # NAME GPU ENV...
  local name=$1 gpu=$2 rc=0 t0=$SECONDS; shift 2
  mkdir -p "$tmp/$name"
  # shellcheck disable=SC2086 # CASES is a word list
  env "$@" RDNACOMPAT_SIM_GPUS="$gpu" RDNACOMPAT_SIM_TRACE="$tmp/$name.trace" \
    timeout 900 "$tmp/fa_direct" "$tmp/$name" $CASES >"$tmp/$name.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { tail -5 "$tmp/$name.out" >&2; fail "$name: fa_direct rc=$rc"; }
  echo "ok [ROCm $rel]: $name ($gpu): $(grep -c '^case ' "$tmp/$name.out") cases computed on ROCm0 and CPU ($((SECONDS - t0)) s)"
}

run native gfx1030 LD_PRELOAD="$SIM"
FB_ENV=(LD_PRELOAD="$SIM:$SHIM" RDNACOMPAT_TABLES="$tmp/fb.tsv" RDNACOMPAT_OPT_IN=1 RDNACOMPAT_FALLBACK=1)
run fb1030 gfx1030 "${FB_ENV[@]}"
run fb1031 gfx1031 "${FB_ENV[@]}"

# shellcheck disable=SC2086 # CASES is a word list
python3 - "$tmp" "$rel" $CASES <<'PY' || fail "see above"
import json, struct, sys
tmp, rel, cases = sys.argv[1], sys.argv[2], [c.split(":") for c in sys.argv[3:]]
shapes = [(int(c[0]), int(c[1])) for c in cases]
bad = []

def tiles(run):
    rows = [json.loads(l) for l in open("%s/%s.trace" % (tmp, run))]
    ggml = [d for d in rows if d["kernel"].startswith("_ZL15flash_attn_tile")]
    ours = [d for d in rows if d["kernel"].startswith("rdnacompat_fb_fattn_tile_dv")]
    notrun = [d["kernel"][:60] for d in ggml + ours if d.get("executed") != "ok" or not d.get("insts")]
    if notrun:
        bad.append("%s: tile dispatches not executed: %s" % (run, notrun[:2]))
    return ggml, ours

ggml, ours = tiles("native")
got = []  # (DK, DV) of _ZL15flash_attn_tileILi<DK>ELi<DV>E...
for d in ggml:
    s = d["kernel"][len("_ZL15flash_attn_tileILi"):]
    dk, rest = s.split("ELi", 1)
    got.append((int(dk), int(rest.split("E", 1)[0])))
if ours or got != shapes:
    bad.append("native: want one ggml flash_attn_tile<DK,DV> per case %s, got %s (+%d fallback)" % (shapes, got, len(ours)))
for run in ("fb1030", "fb1031"):
    g, o = tiles(run)
    dvs = [int(d["kernel"].rsplit("dv", 1)[1]) for d in o]
    if g or dvs != [dv for _, dv in shapes]:
        bad.append("%s: want one rdnacompat_fb_fattn_tile_dv<DV> per case %s and no ggml tile, got %s (+%d ggml)"
                   % (run, [dv for _, dv in shapes], dvs, len(g)))

def digests(run):
    return [l.split("inputs=")[1].split()[0] for l in open("%s/%s.out" % (tmp, run)) if l.startswith("case ")]
if not (digests("native") == digests("fb1030") == digests("fb1031")) or len(digests("native")) != len(cases):
    bad.append("input digests differ between the runs")

def load(run, dk, dv, ext):
    b = open("%s/%s/d%d_v%d.%s" % (tmp, run, dk, dv, ext), "rb").read()
    w = 8 if ext == "ref" else 4
    return b, struct.unpack("<%d%s" % (len(b) // w, "d" if w == 8 else "f"), b)

def cmp(ref, x):
    e = sum((a - b) * (a - b) for a, b in zip(ref, x))
    r = sum(a * a for a in ref)
    mabs = max(abs(a - b) for a, b in zip(ref, x))
    return e / r, mabs, mabs / max(abs(a) for a in ref)

LIM = 5e-4
F32LIM = 1e-10
print("ROCm %s, simulated card (executed). NMSE as test-backend-ops' nmse(); f64: the same attention in double"
      " from the same inputs (fa_direct.c); rel = max|a-b| / max|ggml tile|" % rel)
print("| DK/DV | heads/kv | NMSE vs f64: ggml tile | ours | CPU | NMSE vs CPU: ggml tile | ours "
      "| ours vs ggml tile: NMSE | max abs | rel | ours gfx1031 = gfx1030 |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for (dk, dv), c in zip(shapes, cases):
    cb = [load(r, dk, dv, "cpu")[0] for r in ("native", "fb1030", "fb1031")]
    rb = [load(r, dk, dv, "ref")[0] for r in ("native", "fb1030", "fb1031")]
    if not (cb[0] == cb[1] == cb[2] and rb[0] == rb[1] == rb[2]):
        bad.append("%d/%d: the CPU or f64 outputs differ between runs" % (dk, dv))
    _, ref = load("native", dk, dv, "ref")
    _, cpu = load("native", dk, dv, "cpu")
    _, tile = load("native", dk, dv, "gpu")
    b30, fb30 = load("fb1030", dk, dv, "gpu")
    b31, fb31 = load("fb1031", dk, dv, "gpu")
    vals = {"tile-cpu": cmp(cpu, tile), "ours-cpu": cmp(cpu, fb30), "ours31-cpu": cmp(cpu, fb31),
            "tile-f64": cmp(ref, tile), "ours-f64": cmp(ref, fb30), "cpu-f64": cmp(ref, cpu),
            "ours-tile": cmp(tile, fb30), "ours31-tile": cmp(tile, fb31)}
    for k, (n, _, _) in vals.items():
        if not n <= LIM:  # also catches NaN
            bad.append("%d/%d: NMSE %s = %.3e > %g" % (dk, dv, k, n, LIM))
    if not vals["ours-f64"][0] <= F32LIM:
        bad.append("%d/%d: NMSE ours vs f64 = %.3e > %g (not f32 accuracy)" % (dk, dv, vals["ours-f64"][0], F32LIM))
    n, ma, mr = vals["ours-tile"]
    print("| %d/%d%s | %s/%s | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e | %s |" % (
        dk, dv, " (MLA)" if c[6:] == ["mla"] else "", c[2], c[3], vals["tile-f64"][0], vals["ours-f64"][0],
        vals["cpu-f64"][0], vals["tile-cpu"][0], vals["ours-cpu"][0], n, ma, mr,
        "yes" if b30 == b31 else "no (NMSE vs tile %.2e)" % vals["ours31-tile"][0]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
echo "ok [ROCm $rel]: the fallback tile kernels (DK/DV $(for c in $CASES; do printf '%s ' "${c%%:*}/$(echo "$c" | cut -d: -f2)"; done| sed 's/ $//')) executed as AMD code match ggml's own gfx1030 flash_attn_tile on identical inputs and ggml's CPU backend"
echo "85-exec-fallback-direct: ok"
