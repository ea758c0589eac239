#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 54-tools-selftest.sh BUILD — `rdnacompat doctor --selftest --json` under
# `rdnacompat sim` (simulated card (executed)), through the shim:
#   - gfx1031 (gfx1030 code retargeted by the shim) with every check: each
#     passes with its max error within tolerance and "gfx1030 code
#     retargeted to gfx1031" as the code object (saxpy, intops, f16, reduce,
#     the fallback flash-attention tile and combine, SGEMM through rocBLAS,
#     ggml's own FLASH_ATTN_EXT case); on 5.2 the fallback check is skipped
#     (HIP 5 loads no code object v5) and rocBLAS and ggml as not installed;
#   - on 6.4/7.2 the same on gfx1101 (gfx1100 code retargeted; the
#     fallback bundle's own gfx1101 code);
#   - gfx1030 and gfx1100 natively ("native gfx1030 code"), with the kernel
#     and fallback checks (RDNACOMPAT_SELFTEST_ONLY).
#     An engine gap (the engine's loud "dispatch failed (unsupported)") is
#     a failed check and fails the test like any other; the exit status is
#     1 exactly when a check failed;
#   - a deliberately wrong code object (RDNACOMPAT_SELFTEST_BUNDLE=
#     BUILD/gen/selftest-wrong.bundle: saxpy computes a*x - y, intops spins
#     forever, reduce traps): saxpy fails with its max error, intops is
#     killed after RDNACOMPAT_SELFTEST_TIMEOUT and fails saying so, reduce
#     fails naming the trap; exit 1; the text output says FAIL with the
#     error and the tolerance;
#   - HIP sees no GPU (HIP_VISIBLE_DEVICES=5) though the runtime lists the
#     simulated card: exit 2, every check listed as not run;
#   - no AMD GPU (no simulated card, an empty PCI bus): exit 3.
set -u
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
R=$BUILD/bin/rdnacompat
[ -x "$R" ] && [ -f "$BUILD/librdnacompat.so" ] || fail "build incomplete ($BUILD)"
rel=${RDC_ROCM:-5.2}
T=$OUT/selftest
mkdir -p "$T"
unset RDNACOMPAT_SELFTEST_ONLY RDNACOMPAT_SELFTEST_BUNDLE RDNACOMPAT_SELFTEST_TIMEOUT LD_PRELOAD

# st GPU OUT [ENV...]: the self-test on a simulated GPU; exit status in OUT.rc
st() {
  local gpu=$1 out=$2; shift 2
  local rc=0
  env "$@" timeout 1200 "$R" sim --gpu "$gpu" -- "$R" doctor --selftest --json >"$out" 2>"$out.err" || rc=$?
  echo "$rc" >"$out.rc"
}

# judge FILE CARD BASE FULL: the JSON's checks, as the header says.
judge() {
  python3 - "$@" "$rel" <<'PY'
import json, sys
f, card, base, full, rel = sys.argv[1:6]
d = json.load(open(f))
rc = int(open(f + ".rc").read())
c = {x["id"]: x for x in d["checks"]}
bad = []
def need(cond, msg):
    if not cond:
        bad.append(msg)
need(d["device"].startswith(card) and d["simulated"] is True, "device %r simulated %r" % (d["device"], d["simulated"]))
want_code = "native %s code" % card if card == base else "%s code retargeted to %s" % (base, card)
def passes(i, code=want_code):
    x = c.get(i)
    need(x is not None, "%s missing" % i)
    if x is None:
        return
    need(x["status"] == "pass", "%s: %s: %s" % (i, x["status"], x["detail"]))
    if i != "ggml-fattn": # ggml prints no error for a passing case
        need(x["max_error"] is not None and x["max_error"] <= x["tolerance"], "%s: error %r tol %r" % (i, x["max_error"], x["tolerance"]))
    if code:
        need(x["code_object"] == code, "%s ran from %r, want %r" % (i, x["code_object"], code))
# Every check must pass: an engine gap (the engine's loud "dispatch failed
# (unsupported)") fails the test like any other failure.
passes("saxpy"); passes("intops"); passes("f16"); passes("reduce")
# the fallback bundle has gfx1030, gfx1100, gfx1101, gfx1102 code
fb = "native %s code" % card if card in ("gfx1030", "gfx1100", "gfx1101", "gfx1102") else want_code
if rel == "5.2" and "fattn" in c:
    need(c["fattn"]["status"] == "skip" and "code object v5" in c["fattn"]["detail"], "fattn on 5.2: %r" % c["fattn"])
elif "fattn" in c:
    passes("fattn", fb) # a record "fattn" is a skip or a failure
elif "fattn-tile" in c:
    passes("fattn-tile", fb); passes("fattn-combine", fb)
if full == "1":
    need("fattn" in c or "fattn-tile" in c, "no fallback check")
    if rel == "5.2":
        need(c["sgemm"]["status"] == "skip" and "not installed" in c["sgemm"]["detail"], "sgemm on 5.2: %r" % c["sgemm"])
        need(c["ggml-fattn"]["status"] == "skip" and "not installed" in c["ggml-fattn"]["detail"], "ggml on 5.2: %r" % c["ggml-fattn"])
    else:
        passes("sgemm", None)
        # rocBLAS's own code for the card (7.2 ships gfx1101) or the sibling's retargeted
        need(c["sgemm"]["code_object"].startswith((want_code, "native %s code" % card)), "sgemm ran from %r" % c["sgemm"]["code_object"])
        passes("ggml-fattn", None)
failed = any(x["status"] == "fail" for x in d["checks"])
need(rc == d["exit"] == (1 if failed else 0), "exit %d / json %d, a check failed: %s" % (rc, d["exit"], failed))
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY
}

KERNELS=saxpy,intops,f16,reduce,fattn
case $rel in
  5.2) runs="gfx1031:gfx1030:1 gfx1030:gfx1030:0" ;;
  *)   runs="gfx1031:gfx1030:1 gfx1030:gfx1030:0 gfx1100:gfx1100:0 gfx1101:gfx1100:1" ;;
esac
for r in $runs; do
  IFS=: read -r card base full <<<"$r"
  out=$T/$card.json
  if [ "$full" = 1 ]; then st "$card" "$out"; else st "$card" "$out" RDNACOMPAT_SELFTEST_ONLY=$KERNELS; fi
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out" 2>/dev/null ||
    fail "$card: not JSON (exit $(cat "$out.rc")): $(head -c 600 "$out") $(tail -5 "$out.err")"
  judge "$out" "$card" "$base" "$full" || fail "$card: $(head -c 3000 "$out")"
  echo "ok: $card ($([ "$full" = 1 ] && echo 'every check' || echo 'kernel checks')), exit $(cat "$out.rc"): $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(", ".join("%s %s" % (x["id"], x["status"]) for x in d["checks"]))' "$out")"
done

# A deliberately wrong code object: wrong result, hang, crash -> failed checks, exit 1.
wrong=$BUILD/gen/selftest-wrong.bundle
[ -s "$wrong" ] || fail "$wrong missing (make builds it)"
out=$T/wrong.json
st gfx1031 "$out" RDNACOMPAT_SELFTEST_BUNDLE="$wrong" RDNACOMPAT_SELFTEST_ONLY=saxpy,intops,reduce RDNACOMPAT_SELFTEST_TIMEOUT=15
[ "$(cat "$out.rc")" = 1 ] || fail "wrong bundle: exit $(cat "$out.rc"), want 1: $(cat "$out")"
python3 - "$out" <<'PY' || fail "wrong bundle: $(cat "$out")"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in d["checks"]}
assert d["exit"] == 1, d["exit"]
s = c["saxpy"]
assert s["status"] == "fail" and s["max_error"] is not None and s["max_error"] > 0.1 and s["max_error"] > s["tolerance"], s
assert s["code_object"] == "gfx1030 code retargeted to gfx1031", s
i = c["intops"]
assert i["status"] == "fail" and "did not finish in 15 s (killed)" in i["detail"], i
r = c["reduce"]
assert r["status"] == "fail" and "signal" in r["detail"] and "trap" in r["detail"], r
print("ok: wrong code object: saxpy fails (max rel error %.3g > %g), intops killed after 15 s, reduce: %s" %
      (s["max_error"], s["tolerance"], r["detail"][:90]))
PY
# the text form says the same
rc=0
RDNACOMPAT_SELFTEST_BUNDLE="$wrong" RDNACOMPAT_SELFTEST_ONLY=saxpy timeout 600 "$R" sim --gpu gfx1031 -- "$R" doctor --selftest \
  >"$T/wrong.txt" 2>&1 || rc=$?
[ $rc = 1 ] || fail "wrong bundle, text: exit $rc: $(cat "$T/wrong.txt")"
grep -q '^FAIL  saxpy  *rel [0-9.e+-]* (tol 1e-06)' "$T/wrong.txt" || fail "text: no FAIL line with the error: $(cat "$T/wrong.txt")"
grep -q 'ran from: gfx1030 code retargeted to gfx1031' "$T/wrong.txt" || fail "text: no code object: $(cat "$T/wrong.txt")"
grep -q 'simulated card (executed)' "$T/wrong.txt" || fail "text: simulated card not said"
echo "ok: text output: $(grep '^FAIL  saxpy' "$T/wrong.txt" | tr -s ' ' | cut -c1-80)"

# HIP sees no GPU (HIP_VISIBLE_DEVICES names none) while the runtime lists
# the simulated card: the checks cannot run -> exit 2, each listed as not run.
st gfx1031 "$T/nohip.json" HIP_VISIBLE_DEVICES=5
[ "$(cat "$T/nohip.json.rc")" = 2 ] || fail "HIP without a GPU: exit $(cat "$T/nohip.json.rc"), want 2: $(cat "$T/nohip.json")"
python3 - "$T/nohip.json" <<'PY' || fail "HIP without a GPU: $(cat "$T/nohip.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit"] == 2 and "no usable GPU" in d["could_not_run"], d
assert [x["id"] for x in d["checks"]] == ["saxpy", "intops", "f16", "reduce", "fattn", "sgemm", "ggml-fattn"], d
assert all(x["status"] == "not-run" for x in d["checks"]), d
PY
echo "ok: HIP without a usable GPU: exit 2, every check listed as not run"

# No AMD GPU: no simulated card and no PCI GPU -> exit 3.  (Only where
# /sys shows no AMD GPU, as on this machine.)
if ! grep -qs 0x1002 /sys/bus/pci/devices/*/vendor; then
  rc=0; env -u RDNACOMPAT_SIM_GPUS -u LD_PRELOAD "$R" doctor --selftest --json >"$T/none.json" 2>&1 || rc=$?
  [ $rc = 3 ] || fail "no GPU: exit $rc, want 3: $(cat "$T/none.json")"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["no_amd_gpu"] and d["exit"] == 3' "$T/none.json" ||
    fail "no GPU JSON: $(cat "$T/none.json")"
  echo "ok: no AMD GPU: exit 3"
fi
echo "54-tools-selftest: ok (ROCm $rel)"
