#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — its stand-in HIP 7.1 (fake71.so) is built with the host's gcc and read with llvm-nm-15, which the roots lack; 61-rules-deny and 63-rules-llama-fallback run the rules on 6.4 and 7.2
# 60-rules-occupancy.sh — the built-in `occupancy` row of tables/kernels.tsv
# (ggml flash attention on RDNA2 with HIP >= 7.1) on a simulated gfx1031
# running gfx1030 code.  A stand-in libggml-hip.so holds a kernel with ggml's
# exact mangled name and 37888 bytes of static LDS and does what
# launch_fattn does (occupancy query, GGML_ASSERT, launch).  A test
# interposer (fake71.so, preloaded after the shim) makes HIP 5.2 answer as
# 7.1 does: version 7.1.52802 and occupancy 0 for > 32 KiB of LDS.
#   - without the shim the assert trips (the reported abort);
#   - with the shim the program gets the descriptor-derived count (>= 1, and
#     equal to what HIP 5.2's own LDS-per-workgroup arithmetic answers), one
#     log line says so, and the trace shows the kernel dispatched;
#   - the fallback row (scoped to Debian ggml's code object) does not apply
#     to the stand-in: one rule-fallback-unchecked line says so;
#   - with the real HIP 5.2 version (no fake) the >= 7.1 row does not apply,
#     not even as a load-time `rule:` line (version from the file name).
. "$(dirname "$0")/shim/common.sh"
WANT='_ZL15flash_attn_tileILi256ELi256ELi4ELi8ELb0EEvPKcS1_S1_S1_S1_PKiPfP15HIP_vector_typeIfLj2EEffffjfiS5_IjLj3EEiiiiiiiiiiiliiliiiiil'
mkdir -p "$T/ggml"
build ggml/libggml-hip.so "$S/fattn.hip" --offload-arch=gfx1030 -shared -fPIC
build fa_main "$S/fa_main.cpp" -L"$T/ggml" -lggml-hip -Wl,-rpath,"$T/ggml"
if [ ! -s "$T/fake71.so" ] || [ "$S/fake71.c" -nt "$T/fake71.so" ]; then
  gcc -shared -fPIC -I/usr/include -Wl,--version-script="$S/fake71.map" "$S/fake71.c" -ldl \
    -o "$T/fake71.so" || fail "build fake71.so"
fi
# The stand-in's kernel has ggml's mangled name (the host stub carries it too).
command -v llvm-nm-15 >/dev/null || skip "no llvm-nm-15"
llvm-nm-15 "$T/ggml/libggml-hip.so" | grep -q " $WANT\$" || fail "libggml-hip.so lacks $WANT"

# 0. inspect shows the kernel's kernarg layout and the rules on the card.
if [ -x "$B/bin/rdnacompat" ]; then
  "$B/bin/rdnacompat" inspect --gpu gfx1031 --kernels --json "$T/ggml/libggml-hip.so" >"$T/o.json" ||
    fail "inspect"
  $PY - "$T/o.json" "$WANT" <<'PYEOF' || fail "inspect json"
import json, sys
def walk(o):
    if isinstance(o, dict):
        if "kernarg_size" in o:
            yield o
        for v in o.values():
            yield from walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v)
k = [x for x in walk(json.load(open(sys.argv[1]))) if x["name"] == sys.argv[2]]
assert len(k) == 1, k
k = k[0]
a = k["args"]
assert len(a) >= 37 and k["kernarg_align"] == 8 and k["kernarg_size"] >= 208, k
assert (a[27]["offset"], a[27]["size"], a[27]["value_kind"]) == (152, 8, "by_value"), a[27]
assert (a[15]["offset"], a[15]["size"]) == (92, 12), a[15]       # uint3 ne01
# the fallback row names Debian ggml's code object, not this stand-in's: listed as unchecked
assert sorted((r["action"], r["runtime"], r["unchecked"]) for r in k["rules"]) == \
    [("fallback", ">=7.1", True), ("occupancy", ">=7.1", False)], k["rules"]
PYEOF
fi

# 1. HIP 5.2 alone answers >= 1 (its LDS budget is per workgroup): the reference.
rc=0; RDNACOMPAT_LOG=info shim gfx1031 "$T/fa_main" >"$T/o.out" 2>"$T/o.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/o.err" >&2; fail "HIP 5.2 run: rc=$rc"; }
# the load-time rule line is truthful: libamdhip64.so.5.2.* is not >= 7.1
grep -q "rule: kernel=$WANT" "$T/o.err" && fail "load-time rule line for a >= 7.1 row under HIP 5.2"
ref=$(sed -n 's/^occupancy=\([0-9-]*\) err=0$/\1/p' "$T/o.out")
[ -n "$ref" ] && [ "$ref" -ge 1 ] || fail "HIP 5.2 occupancy '$ref'"
grep -q "rule-occupancy" "$T/o.err" && fail "occupancy row applied under HIP 5.2 (runtime >= 7.1)"

# 2. '7.1' without the shim: occupancy 0, the assert aborts before any launch.
rc=0; env LD_PRELOAD="$SIM/librdnacompat-sim.so:$T/fake71.so" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 \
  HSA_OVERRIDE_GFX_VERSION=10.3.0 HSA_ENABLE_SDMA=0 timeout 120 "$T/fa_main" >"$T/o.out" 2>"$T/o.err" || rc=$?
[ "$rc" -ne 0 ] || fail "the assert did not trip without the shim"
grep -q "^occupancy=0 err=0" "$T/o.out" || fail "fake71 did not answer 0: $(cat "$T/o.out")"
grep -q "^potential grid=0 block=0 err=0" "$T/o.out" || fail "fake71 potential: $(cat "$T/o.out")"
grep -q "GGML_ASSERT" "$T/o.err" || fail "no GGML_ASSERT without the shim"

# 3. '7.1' with the shim: the descriptor-derived answer, one line, the kernel runs.
rm -f "$T/o.trace"
rc=0; env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM:$T/fake71.so" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 \
  HSA_ENABLE_SDMA=0 RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/o.trace" timeout 120 "$T/fa_main" \
  >"$T/o.out" 2>"$T/o.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/o.err" "$T/o.out" >&2; fail "with the shim: rc=$rc"; }
got=$(sed -n 's/^occupancy=\([0-9-]*\) err=0$/\1/p' "$T/o.out")
[ "$got" = "$ref" ] || fail "shim answered '$got', HIP 5.2's arithmetic says $ref"
# hipOccupancyMaxPotentialBlockSize: fake71 says 0/0; the shim: the kernel's
# 256 threads and that count on every multiprocessor
mps=$(sed -n 's/^potential .* mps=\([0-9]*\)$/\1/p' "$T/o.out")
grep -q "^potential grid=$((got * mps)) block=256 err=0 mps=$mps\$" "$T/o.out" ||
  fail "potential block size: $(grep potential "$T/o.out") (want grid $((got * mps)))"
[ "$(grep -c 'rule-occupancy' "$T/o.err")" -eq 1 ] || { cat "$T/o.err" >&2; fail "want one rule-occupancy line"; }
grep -q "rule-occupancy: kernel=$WANT device=gfx1031 .*runtime_said=0 .*answer=$got" "$T/o.err" ||
  { grep rule-occupancy "$T/o.err" >&2; fail "occupancy line lacks kernel/device/answer"; }
# (the fallback row names the checked ggml build's code object, not this
# stand-in's: it is not among the actions, and one line says why, with the
# stand-in's hash for a user row)
grep -q "rule: kernel=$WANT lib=$T/ggml/libggml-hip.so device=gfx1031 actions=occupancy runtime=\">=7.1\"" "$T/o.err" ||
  { grep "rule" "$T/o.err" >&2; fail "no rule line naming the library"; }
[ "$(grep -c 'rule-fallback-unchecked' "$T/o.err")" -eq 1 ] || { cat "$T/o.err" >&2; fail "want one rule-fallback-unchecked line"; }
grep -q "rule-fallback-unchecked: kernel=$WANT kernels=1 lib=$T/ggml/libggml-hip.so device=gfx1031 fallback=rdnacompat_fb_fattn_tile_dv256 sha256=[0-9a-f]\{64\} .*RDNACOMPAT_TABLES" "$T/o.err" ||
  { grep rule-fallback "$T/o.err" >&2; fail "the unchecked line lacks kernel/lib/fallback/hash/opt-in"; }
$PY - "$T/o.trace" "$WANT" "$got" <<'PYEOF' || fail "trace"
import json, sys
path, want, blocks = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = [json.loads(l) for l in open(path)]
k = [x for x in d if x["kernel"] == want]
assert len(k) == 1, "want one dispatch of %s, got %s" % (want, [x["kernel"] for x in d])
assert k[0]["target"] == "gfx1031", k[0]
assert k[0]["grid"] == [2 * 32, blocks * 8, 1], k[0]["grid"]
print("dispatched", want[:40], "grid", k[0]["grid"])
PYEOF

# 5. the hipFunction_t forms: hipModuleOccupancyMaxPotentialBlockSize[WithFlags]
#    of the same kernel loaded by hipModuleLoad (a user row: the built-in one
#    is scoped to libggml-hip.so); fake71 answers 0/0, the shim the same
#    descriptor-derived block and grid as in step 3.
co=$T/fattn1030.hsaco
if [ ! -s "$co" ] || [ "$S/fattn.hip" -nt "$co" ]; then
  "$HIPCC" --genco --offload-arch=gfx1030 "$S/fattn.hip" -o "$co" >"$T/fattn.log" 2>&1 ||
    { cat "$T/fattn.log" >&2; fail "hipcc --genco fattn.hip"; }
fi
build modpot "$S/modpot.cpp"
printf '[kernels]\n_ZL15flash_attn_tile*\t*\tgfx1031\t*\toccupancy\treviewed\ttest\t60\n' >"$T/m.tsv"
for pre in "$T/fake71.so" "$SHIM:$T/fake71.so"; do
  ovr=HSA_OVERRIDE_GFX_VERSION=10.3.0 # without the shim gfx1030 code loads only as gfx1030
  [ "$pre" = "$T/fake71.so" ] || ovr=RDC_UNUSED=1
  rc=0; env LD_PRELOAD="$SIM/librdnacompat-sim.so:$pre" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 \
    HSA_ENABLE_SDMA=0 "$ovr" RDNACOMPAT_TABLES="$T/m.tsv" RDNACOMPAT_LOG=info \
    timeout 120 "$T/modpot" "$co" "$WANT" >"$T/m.out" 2>"$T/m.err" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$T/m.err" "$T/m.out" >&2; fail "modpot ($pre): rc=$rc"; }
  for api in potential potentialwf; do
    if [ "$pre" = "$T/fake71.so" ]; then want="grid=0 block=0 err=0"; else want="grid=$((got * mps)) block=256 err=0"; fi
    grep -q "^$api $want mps=$mps\$" "$T/m.out" || { cat "$T/m.err" >&2; fail "$api ($pre): $(cat "$T/m.out"), want $want"; }
  done
done
[ "$(grep -c 'rule-occupancy: .*api=hipModuleOccupancyMaxPotentialBlockSize ' "$T/m.err")" -eq 1 ] ||
  { cat "$T/m.err" >&2; fail "want one rule-occupancy line for the module query"; }

# 4. RDNACOMPAT_MODE=off: the shim does nothing, the assert trips again.
rc=0; env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM:$T/fake71.so" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1030 \
  RDNACOMPAT_MODE=off HSA_ENABLE_SDMA=0 timeout 120 "$T/fa_main" >"$T/o.out" 2>"$T/o.err" || rc=$?
[ "$rc" -ne 0 ] || fail "mode off still answered the occupancy query"
echo "60-rules-occupancy: ok"
