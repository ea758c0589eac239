#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — HIP 6.4 and 7.2 fill pointer-valued hidden arguments per process, so its byte-for-byte kernarg comparison holds on 5.2 only; 63-rules-llama-fallback routes on 6.4 and 7.2
# 62-rules-fallback.sh — the built-in `fallback` row for ggml's
# flash_attn_tile<256,256,...> (fallback:rdnacompat_fb_fattn_tile_dv256) on
# a simulated gfx1031 running gfx1030 code, HIP 5.2 answering as 7.1 through
# the test interposer fake71.so (60-rules-occupancy.sh).  The fallback code
# comes from RDNACOMPAT_FALLBACK_BUNDLE: a test kernel with ggml's parameter
# list built by the same compiler as the stand-in libggml-hip.so.
#   - the row is provisional: RDNACOMPAT_FALLBACK=1 alone routes nothing;
#   - RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1: the trace shows the fallback dispatched instead
#     of the original, with kernarg bytes identical (size and every byte,
#     hidden arguments included) to those the original got in the same launch
#     without the fallback;
#   - a decoy fallback whose nb13 is an int instead of int64_t: no routing,
#     the original runs, one log line names the differing .args entry.
. "$(dirname "$0")/shim/common.sh"
mkdir -p "$T/ggml" "$T/fb"
build ggml/libggml-hip.so "$S/fattn.hip" --offload-arch=gfx1030 -shared -fPIC
build fa_main "$S/fa_main.cpp" -L"$T/ggml" -lggml-hip -Wl,-rpath,"$T/ggml"
if [ ! -s "$T/fake71.so" ] || [ "$S/fake71.c" -nt "$T/fake71.so" ]; then
  gcc -shared -fPIC -Wl,--version-script="$S/fake71.map" "$S/fake71.c" -ldl -o "$T/fake71.so" ||
    fail "build fake71.so"
fi
for v in good decoy; do
  out=$T/fb/$v.hsaco
  if [ ! -s "$out" ] || [ "$S/fb_tile.hip" -nt "$out" ]; then
    def=; [ $v = decoy ] && def=-DRDC_DECOY
    hipcc --genco --offload-arch=gfx1030 --no-gpu-bundle-output $def "$S/fb_tile.hip" -o "$out" \
      >"$T/fb/$v.log" 2>&1 || { cat "$T/fb/$v.log" >&2; fail "hipcc $v fallback"; }
  fi
done
WANT='_ZL15flash_attn_tileILi256ELi256ELi4ELi8ELb0EEvPKcS1_S1_S1_S1_PKiPfP15HIP_vector_typeIfLj2EEffffjfiS5_IjLj3EEiiiiiiiiiiiliiliiiiil'
FB=rdnacompat_fb_fattn_tile_dv256
run71() { # TRACE ERR ENV... : the program on gfx1031 as '7.1', the grid pinned
  local trace=$1 err=$2; shift 2
  rm -f "$trace"
  env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM:$T/fake71.so" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 \
    HSA_ENABLE_SDMA=0 RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$trace" RDC_FA_GRID_Y=2 "$@" \
    timeout 120 "$T/fa_main" >"$T/f.out" 2>"$err"
}
dispatch() { # TRACE NAME -> "kernarg_size kernarg" of the one dispatch of NAME
  $PY - "$1" "$2" <<'PYEOF'
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
d = [x for x in d if not x["kernel"].startswith("rocr-blit")]
k = [x for x in d if x["kernel"] == sys.argv[2]]
if len(k) != 1 or len(d) != 1:
    sys.exit("want exactly one dispatch, of %s; got %s" % (sys.argv[2], [x["kernel"] for x in d]))
print(k[0]["kernarg_size"], k[0]["kernarg"], k[0]["grid"], k[0]["workgroup"])
PYEOF
}

# 1. reference: the occupancy row, the original kernel runs
run71 "$T/f1.trace" "$T/f1.err" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" ||
  { cat "$T/f1.err" >&2; fail "reference run"; }
ref=$(dispatch "$T/f1.trace" "$WANT") || fail "reference trace"
grep -q "rule-fallback-refused" "$T/f1.err" && { cat "$T/f1.err" >&2; fail "good fallback refused"; }

# 2a. the fallback rows are provisional: RDNACOMPAT_FALLBACK=1 without
#     RDNACOMPAT_OPT_IN=1 routes nothing, the original runs
run71 "$T/f2a.trace" "$T/f2a.err" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" RDNACOMPAT_FALLBACK=1 ||
  { cat "$T/f2a.err" >&2; fail "fallback run without opt-in"; }
dispatch "$T/f2a.trace" "$WANT" >/dev/null || fail "a provisional fallback row routed without RDNACOMPAT_OPT_IN=1"

# 2. RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1: the fallback runs with the very same bytes
run71 "$T/f2.trace" "$T/f2.err" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1 ||
  { cat "$T/f2.err" >&2; fail "fallback run"; }
got=$(dispatch "$T/f2.trace" "$FB") || fail "fallback trace: the fallback was not dispatched instead"
# every byte equal but dst (offset 48, a fresh hipMalloc each run), which
# must hold the pointer this run passed
dst=$(sed -n 's/^dst=0x\([0-9a-f]*\)$/\1/p' "$T/f.out")
$PY - "$ref" "$got" "$dst" <<'PYEOF' || fail "kernarg differs: original '$ref' vs fallback '$got'"
import sys
r, g, dst = sys.argv[1].split(), sys.argv[2].split(), int(sys.argv[3], 16)
assert r[0] == g[0] and r[2:] == g[2:], "size/grid/workgroup differ"
rb, gb = bytes.fromhex(r[1]), bytes.fromhex(g[1])
assert len(rb) == len(gb) == int(r[0])
assert rb[:48] == gb[:48] and rb[56:] == gb[56:], "bytes outside dst differ"
assert int.from_bytes(gb[48:56], "little") == dst, "dst in the kernarg is not the pointer passed"
PYEOF
grep -q "^launched err=0" "$T/f.out" || fail "fallback launch failed: $(cat "$T/f.out")"
echo "fallback dispatched with identical kernarg: ${got%% *} bytes"

# 3. the decoy: layouts differ, no routing, the entry named once (nb13 is
#    parameter 27, counting from 0; the metadata carries no argument names)
run71 "$T/f3.trace" "$T/f3.err" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/decoy.hsaco" RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1 ||
  { cat "$T/f3.err" >&2; fail "decoy run"; }
dispatch "$T/f3.trace" "$WANT" >/dev/null || fail "decoy: the original did not run"
[ "$(grep -c 'rule-fallback-refused' "$T/f3.err")" -eq 1 ] || { cat "$T/f3.err" >&2; fail "want one refusal line"; }
grep -q "rule-fallback-refused: kernel=$WANT .*fallback=$FB reason=\"argument layouts differ\" entry=\".args entry 27: offset 152 size 8 by_value vs offset 148 size 4 by_value\"" "$T/f3.err" ||
  { grep rule-fallback "$T/f3.err" >&2; fail "refusal does not name the nb13 entry"; }
echo "62-rules-fallback: ok"
