#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 63-rules-llama-fallback.sh BUILD — Debian's llama-bench (ggml 0.27's HIP
# backend) with flash attention on a simulated gfx1031 under the shim, its
# flash-attention tile kernels routed to the embedded v5 fallback bundle.
# The built-in fallback rows are for HIP >= 7.1 and ggml links HIP 6.4 in
# both roots, so a user tables file repeats them for any runtime.  The rows
# name the code objects of this ggml build (sha256) and are reviewed for it
# (docs/RULES.md; the test takes which rows are reviewed from the table).
# Checks:
#   - without RDNACOMPAT_OPT_IN the reviewed rows route (this model's head
#     size is 128): only fallbacks of reviewed rows are dispatched;
#   - the same rows naming another hash (another build): nothing routed,
#     ggml's tile kernels run, one rule-fallback-unchecked line per code
#     object of a reviewed row, naming the library and how to opt in;
#   - with RDNACOMPAT_OPT_IN=1 (every row), the run completes (pp16 and tg4 rows);
#   - every traced tile dispatch is a rdnacompat_fb_fattn_tile_* kernel,
#     none is ggml's; the refusals name hidden_hostcall_buffer (the ggml tile
#     instances whose metadata declares it; docs/FALLBACKS.md);
#   - against an unrouted run (built-in tables: not armed on 6.4), dispatch
#     for dispatch the same grid, workgroup and kernarg size (464), and the
#     first dispatch's kernarg bytes 64..463 (every scalar and hidden
#     argument) identical; bytes 0..63 are ggml's eight pointers, whose
#     values two processes need not share.
# Simulated card (executed): the engine runs every kernel, ours and ggml's;
# llama-bench prints timings, which are not compared.  The fallbacks'
# numerics are checked in 83-exec-fallback and 85-exec-fallback-direct.
BUILD=${1:?usage: $0 BUILD}
. "$(dirname "$0")/libs/libs_common.bash"   # fail/skip, SIM, SHIM, tmp, clean environment
command -v llama-bench >/dev/null || skip "llama-bench (llama.cpp-tools) not installed"
[ -f /usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so ] || skip "libggml0-backend-hip not installed"
python3 -c 'import gguf, numpy' 2>/dev/null || skip "python3-gguf not installed"
python3 "$libs/llama_model.py" "$tmp/tiny.gguf" || fail "writing the tiny model"
{ echo '[kernels]'
  grep -v '^#' "$libs/../../../tables/kernels.tsv" |
    awk -F'\t' 'BEGIN { OFS = "\t" } $5 ~ /^fallback:/ { $4 = "*"; $8 = "63"; print }'; } >"$tmp/fb.tsv"
[ "$(grep -c fallback: "$tmp/fb.tsv")" -ge 10 ] || fail "no fallback rows in tables/kernels.tsv"
# the same rows for another build: every hash replaced by one no code object has
other=$(printf 'not this build' | sha256sum | cut -d' ' -f1)
sed -E "s/\+sha256:[0-9a-f]{64}/+sha256:$other/" "$tmp/fb.tsv" >"$tmp/other.tsv"
reviewed=$(awk -F'\t' '$5 ~ /^fallback:/ && $6 == "reviewed"' "$tmp/fb.tsv")
nrev=$(printf '%s\n' "$reviewed" | sed -n 's/.*+sha256:\([0-9a-f]\{64\}\).*/\1/p' | sort -u | wc -l)
revfb=$(printf '%s\n' "$reviewed" | awk -F'\t' '{ sub(/^fallback:/, "", $5); print $5 }' | sort -u | tr '\n' ' ')
[ "$nrev" -ge 1 ] || fail "no reviewed hash-scoped fallback row in tables/kernels.tsv"
run() { # NAME ENV...
  local name=$1 rc=0; shift
  env "$@" LD_PRELOAD="$SIM:$SHIM" RDNACOMPAT_SIM_GPUS=gfx1031 RDNACOMPAT_SIM_TRACE="$tmp/$name.trace" \
    RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$tmp/$name.log" \
    timeout 300 llama-bench -m "$tmp/tiny.gguf" -p 16 -n 4 -r 1 -fa 1 >"$tmp/$name.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { tail -5 "$tmp/$name.out" >&2; fail "$name: llama-bench rc=$rc"; }
  [ "$(grep -cE '^\| llama .*\| +1 \| +(pp16|tg4) \| +[0-9.]+ ± ' "$tmp/$name.out")" = 2 ] ||
    fail "$name: no pp16/tg4 rows: $(tail -3 "$tmp/$name.out")"
}
run orig
run noopt RDNACOMPAT_TABLES="$tmp/fb.tsv"
python3 - "$tmp/noopt.trace" "$revfb" <<'PYEOF' || fail "noopt: the reviewed rows must route, and only they"
import json, sys
fb = {d["kernel"] for d in map(json.loads, open(sys.argv[1])) if d["kernel"].startswith("rdnacompat_fb_")}
assert fb, "no fallback dispatched by the reviewed rows"
assert fb <= set(sys.argv[2].split()), ("a fallback of no reviewed row", fb - set(sys.argv[2].split()))
print("63: without opt-in the reviewed rows route: %s" % sorted(fb))
PYEOF
run other RDNACOMPAT_TABLES="$tmp/other.tsv"
! grep -q '"kernel": *"rdnacompat_fb_' "$tmp/other.trace" || fail "rows naming another build routed this one"
grep -q '"kernel": *"_ZL15flash_attn_tile' "$tmp/other.trace" || fail "other build: ggml's tile kernels did not run"
unchecked=$(grep -c 'rule-fallback-unchecked: .* lib=/usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so device=gfx1031 .*sha256=[0-9a-f]\{64\} .*opt_in=.*RDNACOMPAT_TABLES' "$tmp/other.log")
[ "$unchecked" -eq "$nrev" ] && [ "$(grep -c rule-fallback-unchecked "$tmp/other.log")" -eq "$nrev" ] ||
  { grep rule-fallback-unchecked "$tmp/other.log" | head -3 >&2; fail "other build: $unchecked rule-fallback-unchecked lines, want one per code object of a reviewed row ($nrev)"; }
echo "63: rows naming another build: nothing routed, $unchecked rule-fallback-unchecked lines (one per code object)"
run routed RDNACOMPAT_TABLES="$tmp/fb.tsv" RDNACOMPAT_OPT_IN=1
refused=$(grep -c 'rule-fallback-refused' "$tmp/routed.log")
hostcall=$(grep -c 'rule-fallback-refused.*hidden_hostcall_buffer' "$tmp/routed.log")
python3 - "$tmp/orig.trace" "$tmp/routed.trace" <<'PYEOF' || fail "traces"
import json, sys
def tiles(path, prefix):
    return [d for d in (json.loads(l) for l in open(path)) if d["kernel"].startswith(prefix)]
o = tiles(sys.argv[1], "_ZL15flash_attn_tile")
r = tiles(sys.argv[2], "rdnacompat_fb_fattn_tile")
assert o, "the unrouted run dispatched no flash_attn_tile"
assert not tiles(sys.argv[2], "_ZL15flash_attn_tile"), "ggml's tile kernel dispatched despite the route"
assert len(r) == len(o), (len(r), len(o))
for a, b in zip(o, r):
    assert (a["grid"], a["workgroup"], a["kernarg_size"]) == (b["grid"], b["workgroup"], b["kernarg_size"]) and \
        a["kernarg_size"] == 464, (a["kernel"], a["grid"], b["grid"], a["kernarg_size"], b["kernarg_size"])
x, y = bytes.fromhex(o[0]["kernarg"]), bytes.fromhex(r[0]["kernarg"])
assert len(x) == len(y) == 464 and x[64:] == y[64:], [i for i in range(64, 464) if x[i] != y[i]]
print("63: %d tile dispatches routed to %s; first kernarg bytes 64..463 identical" %
      (len(r), sorted({d["kernel"] for d in r})))
PYEOF
echo "63-rules-llama-fallback [ROCm $rel]: ok ($refused tile instances refused, $hostcall of them for hidden_hostcall_buffer; simulated gfx1031)"
