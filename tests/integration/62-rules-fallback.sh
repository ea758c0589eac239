#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — HIP 6.4 and 7.2 fill pointer-valued hidden arguments per process, so its byte-for-byte kernarg comparison holds on 5.2 only; 63-rules-llama-fallback routes on 6.4 and 7.2
# 62-rules-fallback.sh — the `fallback` rows for ggml's
# flash_attn_tile<256,256,...> (fallback:rdnacompat_fb_fattn_tile_dv256) on
# a simulated gfx1031 running gfx1030 code, HIP 5.2 answering as 7.1 through
# the test interposer fake71.so (60-rules-occupancy.sh).  The fallback code
# comes from RDNACOMPAT_FALLBACK_BUNDLE: a test kernel with ggml's parameter
# list built by the same compiler as the stand-in libggml-hip.so.
#   - the built-in rows name the checked ggml build's code objects (sha256),
#     not the stand-in's: even with RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1
#     nothing is routed, one rule-fallback-unchecked line names the kernel,
#     the library, the stand-in's hash and how to opt in, and the occupancy
#     row answers as it does without a fallback row;
#   - the opt-in: user rows naming the stand-in's hash, written by
#     tools/fallback-scope.py --rows (provisional, as it writes rows for a
#     build not yet checked): RDNACOMPAT_FALLBACK=1 alone routes nothing;
#   - RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1: the trace shows the fallback dispatched instead
#     of the original, with kernarg bytes identical (size and every byte,
#     hidden arguments included) to those the original got in the same launch
#     without the fallback;
#   - a decoy fallback whose nb13 is an int instead of int64_t: no routing,
#     the original runs, one log line names the differing .args entry;
#   - a copy of the stand-in with one byte of its gfx1030 code object
#     changed (its .comment): another build, so the user rows do not apply
#     to it: one rule-fallback-unchecked line with the copy's hash, the
#     original runs.
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
LIBDIR=$T/ggml
run71() { # TRACE ERR ENV... : the program on gfx1031 as '7.1', the grid pinned, libggml-hip.so from $LIBDIR
  local trace=$1 err=$2; shift 2
  rm -f "$trace"
  env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM:$T/fake71.so" LD_LIBRARY_PATH="$LIBDIR:$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 \
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

# the stand-in's hash as the shim takes it on gfx1031 (its gfx1030 entry),
# and user rows naming it
[ -x "$B/bin/rdnacompat" ] || fail "no $B/bin/rdnacompat"
sha_of() { # LIB -> kernels_sha256 of its one bundle on gfx1031
  "$B/bin/rdnacompat" inspect --gpu gfx1031 --kernels --json --sha256 "$1" |
    $PY -c 'import json, sys; print(*[b["kernels_sha256"] for f in json.load(sys.stdin)["files"] for b in f["bundles"]])'
}
H=$(sha_of "$T/ggml/libggml-hip.so")
[[ $H =~ ^[0-9a-f]{64}$ ]] || fail "stand-in hash '$H'"
{ echo '[kernels]'
  $PY "$RDC_SRCDIR/tools/fallback-scope.py" --rdnacompat "$B/bin/rdnacompat" --rows \
    "$RDC_SRCDIR/tables/kernels.tsv" "$T/ggml/libggml-hip.so" || fail "fallback-scope.py --rows"; } >"$T/fb/user.tsv"
[ "$(grep -c "+sha256:$H	.*fallback:$FB	provisional	" "$T/fb/user.tsv")" -eq 1 ] ||
  { cat "$T/fb/user.tsv" >&2; fail "fallback-scope.py --rows: want one provisional dv256 row naming $H"; }
USER=RDNACOMPAT_TABLES=$T/fb/user.tsv

# 0. built-in rows only: the stand-in is not a checked build: nothing routed
#    even with both switches on, one line says why, the occupancy row answers
run71 "$T/f0.trace" "$T/f0.err" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1 ||
  { cat "$T/f0.err" >&2; fail "unchecked-build run"; }
dispatch "$T/f0.trace" "$WANT" >/dev/null || fail "unchecked build: the original did not run"
[ "$(grep -c 'rule-fallback-unchecked' "$T/f0.err")" -eq 1 ] || { cat "$T/f0.err" >&2; fail "want one rule-fallback-unchecked line"; }
grep -q "rule-fallback-unchecked: kernel=$WANT kernels=1 lib=$T/ggml/libggml-hip.so device=gfx1031 fallback=$FB sha256=$H .*opt_in=.*scope libggml-hip.so+sha256:$H to RDNACOMPAT_TABLES" "$T/f0.err" ||
  { grep rule-fallback "$T/f0.err" >&2; fail "the unchecked line lacks kernel/lib/hash/opt-in"; }
grep -q "rule-occupancy: kernel=$WANT device=gfx1031 .*runtime_said=0" "$T/f0.err" ||
  { cat "$T/f0.err" >&2; fail "unchecked build: the occupancy row did not answer"; }
grep -q "rule-fallback-refused" "$T/f0.err" && fail "unchecked build: a fallback was considered"
echo "unchecked build: not routed, one rule-fallback-unchecked line, occupancy row applied"

# 1. reference: the occupancy row, the original kernel runs
run71 "$T/f1.trace" "$T/f1.err" "$USER" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" ||
  { cat "$T/f1.err" >&2; fail "reference run"; }
ref=$(dispatch "$T/f1.trace" "$WANT") || fail "reference trace"
grep -q "rule-fallback-refused" "$T/f1.err" && { cat "$T/f1.err" >&2; fail "good fallback refused"; }

# 2a. the fallback rows are provisional: RDNACOMPAT_FALLBACK=1 without
#     RDNACOMPAT_OPT_IN=1 routes nothing, the original runs
run71 "$T/f2a.trace" "$T/f2a.err" "$USER" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" RDNACOMPAT_FALLBACK=1 ||
  { cat "$T/f2a.err" >&2; fail "fallback run without opt-in"; }
dispatch "$T/f2a.trace" "$WANT" >/dev/null || fail "a provisional fallback row routed without RDNACOMPAT_OPT_IN=1"

# 2. RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1: the fallback runs with the very same bytes
run71 "$T/f2.trace" "$T/f2.err" "$USER" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1 ||
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
grep -q "rule-fallback-unchecked" "$T/f2.err" && { cat "$T/f2.err" >&2; fail "a build the user rows name was called unchecked"; }
echo "fallback dispatched with identical kernarg: ${got%% *} bytes"

# 3. the decoy: layouts differ, no routing, the entry named once (nb13 is
#    parameter 27, counting from 0; the metadata carries no argument names)
run71 "$T/f3.trace" "$T/f3.err" "$USER" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/decoy.hsaco" RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1 ||
  { cat "$T/f3.err" >&2; fail "decoy run"; }
dispatch "$T/f3.trace" "$WANT" >/dev/null || fail "decoy: the original did not run"
[ "$(grep -c 'rule-fallback-refused' "$T/f3.err")" -eq 1 ] || { cat "$T/f3.err" >&2; fail "want one refusal line"; }
grep -q "rule-fallback-refused: kernel=$WANT .*fallback=$FB reason=\"argument layouts differ\" entry=\".args entry 27: offset 152 size 8 by_value vs offset 148 size 4 by_value\"" "$T/f3.err" ||
  { grep rule-fallback "$T/f3.err" >&2; fail "refusal does not name the nb13 entry"; }

# 4. one byte of the stand-in's code object changed (a character of its
#    .comment, which nothing reads): another build; the user rows do not apply
mkdir -p "$T/ggml-x"
$PY - "$T/ggml/libggml-hip.so" "$T/ggml-x/libggml-hip.so" "$B/bin/rdnacompat" <<'PYEOF' || fail "one-byte copy"
import json, subprocess, sys
src, dst, tool = sys.argv[1:]
j = json.loads(subprocess.run([tool, "inspect", "--json", src], stdout=subprocess.PIPE, check=True).stdout)
e = [e for f in j["files"] for b in f["bundles"] for e in b["entries"] if e["target"] == "gfx1030"]
assert len(e) == 1 and e[0]["offset"] is not None, e
b = bytearray(open(src, "rb").read())
at = b.find(b"clang version", e[0]["offset"], e[0]["offset"] + e[0]["size"])
assert at > 0, "no .comment in the code object"
b[at] = ord("C")
open(dst, "wb").write(b)
PYEOF
HX=$(sha_of "$T/ggml-x/libggml-hip.so")
[[ $HX =~ ^[0-9a-f]{64}$ ]] && [ "$HX" != "$H" ] || fail "copy's hash '$HX' (stand-in $H)"
LIBDIR=$T/ggml-x run71 "$T/f4.trace" "$T/f4.err" "$USER" RDNACOMPAT_FALLBACK_BUNDLE="$T/fb/good.hsaco" RDNACOMPAT_FALLBACK=1 RDNACOMPAT_OPT_IN=1 ||
  { cat "$T/f4.err" >&2; fail "one-byte copy run"; }
dispatch "$T/f4.trace" "$WANT" >/dev/null || fail "one-byte copy: the original did not run"
[ "$(grep -c 'rule-fallback-unchecked' "$T/f4.err")" -eq 1 ] &&
  grep -q "rule-fallback-unchecked: kernel=$WANT kernels=1 lib=$T/ggml-x/libggml-hip.so device=gfx1031 fallback=$FB sha256=$HX " "$T/f4.err" ||
  { grep rule "$T/f4.err" >&2; fail "one-byte copy: want one rule-fallback-unchecked line with its hash"; }
echo "one byte changed: not routed, one rule-fallback-unchecked line (sha256 $HX)"
echo "62-rules-fallback: ok"
