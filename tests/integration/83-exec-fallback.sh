#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 83-exec-fallback.sh BUILD — the shim's fallback flash-attention kernels
# (shim/fallback/, embedded in librdnacompat.so) EXECUTED as AMD code and
# checked by ggml's own test: Debian's test-backend-ops, FLASH_ATTN_EXT in
# mode "test" (ROCm backend against ggml's CPU backend, ggml's own NMSE
# threshold), on a simulated gfx1031 under the shim with the fallback rows
# of tables/kernels.tsv armed (a user tables file repeats them for any
# runtime — ggml links HIP 6.4 in both roots, the built-in rows are for
# >= 7.1 — and RDNACOMPAT_OPT_IN=1, as when the rows were provisional; the
# rows name this ggml build's code objects by hash, so routing here also
# shows the hashes are the ones the shim computes).
#   - one case per head size the rows cover that ggml's test has at
#     nh=4, kv=512, 3 query columns, f16 K/V (CASES below): each is OK;
#   - every tile dispatch is rdnacompat_fb_fattn_tile_dv<D> of that head
#     size, none is ggml's flash_attn_tile, and the engine executed each;
#   - the same cases natively on gfx1030 (ggml's own gfx1030 tile kernels)
#     are OK too: ggml's kernels and ours meet the same CPU reference.
# Results are "simulated card (executed)": the fallback's numerics as
# compiled for gfx1030 and run on the engine, not on hardware.
. "$(dirname "$0")/lib/exec_common.bash"   # BUILD, rel, fail/skip/ok, SIM, SHIM, tmp, clean environment
TBO=/usr/libexec/x86_64-linux-gnu/ggml/test-backend-ops
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$TBO" ] || skip "ggml's test-backend-ops not installed in the ROCm $rel root"
[ -f /usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so ] || skip "libggml0-backend-hip not installed"
export HSA_ENABLE_SDMA=0

DVS="40 64 72 80 96 128 256"
PAT="hsk=($(for d in $DVS; do printf '%s,hsv=%s|' "$d" "$d"; done | sed 's/|$//')),nh=4,nr23=\\[1,1\\],kv=512,nb=3,mask=1,sinks=0,max_bias=0.000000,logit_softcap=0.000000,prec=f32,type_K=f16,type_V=f16,permute=\\[0,1,2,3\\]"
{ echo '[kernels]'
  grep -v '^#' "$here/../../tables/kernels.tsv" |
    awk -F'\t' 'BEGIN { OFS = "\t" } $5 ~ /^fallback:/ { $4 = "*"; $8 = "83"; print }'; } >"$tmp/fb.tsv"
[ "$(grep -c fallback: "$tmp/fb.tsv")" -ge 10 ] || fail "no fallback rows in tables/kernels.tsv"

run() { # NAME GPU ENV...
  local name=$1 gpu=$2 rc=0; shift 2
  env "$@" RDNACOMPAT_SIM_GPUS="$gpu" RDNACOMPAT_SIM_TRACE="$tmp/$name.trace" \
    timeout 900 "$TBO" test -b ROCm0 -o FLASH_ATTN_EXT -p "$PAT" >"$tmp/$name.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { tail -5 "$tmp/$name.out" >&2; fail "$name: test-backend-ops rc=$rc"; }
  local n ok
  n=$(grep -c '^  FLASH_ATTN_EXT(' "$tmp/$name.out")
  ok=$(grep -c '^  FLASH_ATTN_EXT(.*OK' "$tmp/$name.out")
  [ "$n" -eq "$(echo $DVS | wc -w)" ] && [ "$ok" -eq "$n" ] ||
    fail "$name: $ok of $n cases OK (want one per head size: $DVS): $(grep FLASH_ATTN_EXT "$tmp/$name.out" | head -3)"
  echo "ok [ROCm $rel]: $name: $ok/$n FLASH_ATTN_EXT cases OK against ggml's CPU backend"
}

run native-gfx1030 gfx1030 LD_PRELOAD="$SIM"
python3 - "$tmp/native-gfx1030.trace" <<'PY' || fail "native: ggml's own tile kernels expected"
import json, sys
tiles = [d for d in map(json.loads, open(sys.argv[1])) if d["kernel"].startswith("_ZL15flash_attn_tile")]
assert tiles and all(d.get("executed") == "ok" for d in tiles), tiles[:1]
PY
run fallback-gfx1031 gfx1031 LD_PRELOAD="$SIM:$SHIM" RDNACOMPAT_TABLES="$tmp/fb.tsv" RDNACOMPAT_OPT_IN=1
python3 - "$tmp/fallback-gfx1031.trace" "$DVS" <<'PY' || fail "fallback: every tile dispatch must be our kernel, executed"
import json, sys
rows = list(map(json.loads, open(sys.argv[1])))
assert not [d for d in rows if d["kernel"].startswith("_ZL15flash_attn_tile")], "ggml's tile kernel ran despite the route"
fb = [d for d in rows if d["kernel"].startswith("rdnacompat_fb_fattn_tile_dv")]
dvs = sorted(int(d["kernel"].rsplit("dv", 1)[1]) for d in fb)
assert dvs == sorted(int(x) for x in sys.argv[2].split()), dvs
assert all(d.get("executed") == "ok" and d["insts"] > 0 for d in fb), fb[:1]
print("fallback dispatches: " + ", ".join("dv%d %d insts" % (int(d["kernel"].rsplit("dv", 1)[1]), d["insts"]) for d in fb))
PY
echo "ok [ROCm $rel]: the fallback tile kernels for head sizes $DVS executed as AMD code and match ggml's CPU backend"
echo "83-exec-fallback: ok"
