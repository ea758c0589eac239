#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — inspect reads the fixture files only; no ROCm runtime runs (72-inspect-dirs reads the 6.4/7.2 libraries)
# 10-inspect-fixtures.sh BUILD — `rdnacompat inspect` on the built fixtures:
# verdicts, chosen entries, reasons and exit codes in --json and text, raw
# bundles, raw code objects, a host object with .hip_fatbin, the clang-16
# VGPR-heavy gfx1100 kernel (mapped for gfx1101, refused for gfx1102/1103),
# --card/--pci through the card table, and JSON escaping of odd paths.
partial_skip() { PARTIAL="${PARTIAL:+$PARTIAL; }$*"; echo "partial skip: $*" >&2; }
set -u
build=${1:?usage: 10-inspect-fixtures.sh BUILD}
tool="$build/bin/rdnacompat"
fx="$build/fixtures"
[ -x "$tool" ] || { echo "no $tool" >&2; exit 1; }
[ -s "$fx/bundle/iota.bundle" ] || { echo "skip: fixtures not built ($fx)" >&2; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails+1)); }

# run EXPECTED_RC ARGS... -> JSON in $tmp/out.json, stderr in $tmp/err
run() {
  local want=$1; shift
  "$tool" inspect --json "$@" >"$tmp/out.json" 2>"$tmp/err"; local rc=$?
  [ "$rc" -eq "$want" ] || fail "inspect $* exited $rc, want $want ($(head -c 300 "$tmp/err"))"
}
# check PYTHON-EXPR-ON-j ... : every expression must be true for $tmp/out.json
check() {
  python3 - "$tmp/out.json" "$@" <<'PY' || fail "json check: ${*}"
import json, sys
j = json.load(open(sys.argv[1]))
b = [x for f in j["files"] for x in f.get("bundles", [])]
bad = [e for e in sys.argv[2:] if not eval(e)]
for e in bad:
    print("  false:", e, file=sys.stderr)
if bad:
    print("  json:", json.dumps(j)[:1500], file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# Native, mapped, missing on the multi-target bundle.
run 0 --gpu gfx1030 "$fx/bundle/iota.bundle"
check 'j["gpu"] == "gfx1030"' 'len(b) == 1' 'b[0]["verdict"] == "native"' 'b[0]["chosen"] == "gfx1030"' \
      'b[0]["compressed"] is False' 'b[0]["index"] == 0' 'b[0]["offset"] == 0' \
      'len(b[0]["entries"]) == 5' 'b[0]["entries"][0]["target"] is None' \
      'sorted(e["target"] for e in b[0]["entries"][1:]) == ["gfx1030", "gfx1100", "gfx906", "gfx90a:xnack+"]' \
      'j["summary"] == {"bundles": 1, "native": 1, "mapped": 0, "missing": 0}' \
      'j["files"][0]["kind"] == "offload bundle"'
run 0 --gpu gfx1031 --kernels "$fx/bundle/iota.bundle"
check 'b[0]["verdict"] == "mapped"' 'b[0]["chosen"] == "gfx1030"' '"gfx1030" in b[0]["reason"]' \
      'sorted(k["name"] for k in b[0]["kernels"]) == ["_Z9fill_iotaPii", "_Z9scale_addPfPKffi"]' \
      'all(k["ok"] for k in b[0]["kernels"])' \
      '[e["kernels"] for e in b[0]["entries"] if e["target"] == "gfx1030"] == [2]' \
      '[e["kernels"] for e in b[0]["entries"] if e["target"] == "gfx906"] == [None]' \
      'j["summary"]["mapped"] == 1'
run 0 --gpu gfx1101 "$fx/bundle/iota.bundle"
check 'b[0]["verdict"] == "mapped"' 'b[0]["chosen"] == "gfx1100"'
run 1 --gpu gfx1101 "$fx/bundle/iota-1030.bundle"
check 'b[0]["verdict"] == "missing"' 'b[0]["chosen"] is None' '"RDNA2" in b[0]["reason"]' \
      '"RDNA3" in b[0]["reason"]' '"gfx11" in b[0]["need"]' 'j["summary"]["missing"] == 1'
run 1 --gpu gfx1031 "$fx/bundle/iota-1030.bundle" "$fx/bundle/iota-1030.bundle" "$fx/bundle/iota.bundle" "$fx/co/gfx906.co"
check 'len(j["files"]) == 4' 'j["summary"] == {"bundles": 4, "native": 0, "mapped": 3, "missing": 1}'

# Listing only: no verdicts, kernel counts for every device entry.
run 0 "$fx/bundle/iota.bundle"
check 'j["gpu"] is None' '"verdict" not in b[0]' 'j["summary"]["native"] is None' \
      'all(e["kernels"] == 2 for e in b[0]["entries"][1:])' 'all(e["cov"] >= 4 for e in b[0]["entries"][1:])'

# Raw code objects.
run 0 --gpu gfx1030 "$fx/co/gfx1030.co"
check 'j["files"][0]["kind"] == "AMDGPU code object"' 'b[0]["verdict"] == "native"' \
      'b[0]["entries"][0]["id"] is None' 'b[0]["entries"][0]["target"] == "gfx1030"'
run 0 --gpu gfx1032 "$fx/co/gfx1030.co"
check 'b[0]["verdict"] == "mapped"' 'b[0]["chosen"] == "gfx1030"'
run 1 --gpu gfx1102 "$fx/co/gfx1030.co"
check 'b[0]["verdict"] == "missing"'

# Host shared libraries with .hip_fatbin (tests/fixtures/bundles.d/hostlibs.sh).
if [ -s "$fx/host/libiota-2tu.so" ]; then
  run 0 --gpu gfx1031 "$fx/host/libiota-2tu.so"
  check 'j["files"][0]["kind"] == "host ELF"' 'len(b) == 2' 'all(x["verdict"] == "mapped" for x in b)' \
        'b[0]["offset"] > 0' 'b[1]["offset"] >= b[0]["offset"] + b[0]["size"]' \
        'all(x["chosen"] == "gfx1030" for x in b)' '[x["index"] for x in b] == [0, 1]'
  run 0 --gpu gfx1100 "$fx/host/libiota-2tu.so"
  check 'all(x["verdict"] == "native" for x in b)' 'j["summary"]["native"] == 2'
  run 1 --gpu gfx1102 "$fx/host/libiota-1030.so"
  check 'b[0]["verdict"] == "missing"'
else
  fail "no host library fixtures in $fx/host"
fi

# The clang-16 VGPR-heavy gfx1100 kernel (tests/fixtures/policy.d/vgpr.sh).
if [ -s "$fx/policy/vgpr-gfx1100.bundle" ]; then
  run 0 --gpu gfx1101 --kernels "$fx/policy/vgpr-gfx1100.bundle"
  check 'b[0]["verdict"] == "mapped"' 'b[0]["chosen"] == "gfx1100"' 'b[0]["kernels"][0]["ok"]' \
        'b[0]["kernels"][0]["vgprs_needed"] <= b[0]["kernels"][0]["vgprs_device"]' \
        'b[0]["kernels"][0]["max_flat_workgroup_size"] == 1024'
  for g in gfx1102 gfx1103; do
    run 1 --gpu $g --kernels "$fx/policy/vgpr-gfx1100.bundle"
    check 'b[0]["verdict"] == "missing"' 'b[0]["chosen"] is None' '"vgpr_heavy: vgpr: " in b[0]["reason"]' \
          '"needs 1536" in b[0]["reason"]' "\"$g has 1024\" in b[0][\"reason\"]" \
          'b[0]["kernels"][0]["ok"] is False' 'b[0]["kernels"][0]["check"] == "vgpr"' \
          'b[0]["kernels"][0]["vgprs_needed"] > b[0]["kernels"][0]["vgprs_device"]' \
          'b[0]["refused_kernels"] == 1'
  done
  "$tool" inspect --gpu gfx1102 "$fx/policy/vgpr-gfx1100.bundle" >"$tmp/out.txt" 2>&1
  grep -q 'missing: needs .*vgpr_heavy: vgpr: ' "$tmp/out.txt" || fail "text output lacks the refusal: $(cat "$tmp/out.txt")"
else
  partial_skip "no clang-16 fixture: the VGPR-heavy checks"
fi

# --card / --pci: pick a gfx1031 card from the card table and expect the same verdict.
cards="$RDC_SRCDIR/tables/cards.tsv"
if [ -s "$cards" ]; then
  row=$(awk -F'\t' '!/^#/ && $5 == "gfx1031" { print; exit }' "$cards")
  if [ -n "$row" ]; then
    dev=$(printf '%s' "$row" | cut -f2); name=$(printf '%s' "$row" | cut -f4 | sed 's/; .*//')
    run 0 --pci "1002:${dev#0x}" "$fx/bundle/iota.bundle"
    check 'j["gpu"] == "gfx1031"' 'b[0]["verdict"] == "mapped"'
    run 0 --card "$name" "$fx/bundle/iota.bundle"
    check 'j["gpu"] == "gfx1031"'
  fi
fi
"$tool" inspect --card "no such card zzz" "$fx/bundle/iota.bundle" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "unknown card exited $rc, want 2"
"$tool" inspect --gpu gfx9999 "$fx/bundle/iota.bundle" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "unknown gpu exited $rc, want 2"

# A compressed bundle (CCOB v2, zlib; hash = MD5 low 8 bytes LE, as LLVM
# writes it) followed by zero padding and a plain bundle, in one raw file.
python3 - "$fx/bundle/iota.bundle" "$fx/bundle/iota-1030.bundle" "$tmp/two.bundle" <<'PY' || fail "could not write a CCOB"
import hashlib, struct, sys, zlib
plain = open(sys.argv[1], "rb").read()
data = zlib.compress(plain, 9)
h = int.from_bytes(hashlib.md5(plain).digest()[:8], "little")
ccob = b"CCOB" + struct.pack("<HHIIQ", 2, 0, 24 + len(data), len(plain), h) + data
pad = b"\0" * ((-len(ccob)) % 4096)
open(sys.argv[3], "wb").write(ccob + pad + open(sys.argv[2], "rb").read())
PY
run 0 --gpu gfx1031 --kernels "$tmp/two.bundle"
check 'len(b) == 2' 'b[0]["compressed"] is True' 'b[1]["compressed"] is False' \
      'all(e["offset"] is None for e in b[0]["entries"])' 'b[1]["offset"] % 4096 == 0 and b[1]["offset"] > 0' \
      'b[0]["verdict"] == "mapped" and b[1]["verdict"] == "mapped"' 'len(b[0]["kernels"]) == 2' \
      'b[1]["entries"][1]["offset"] > b[1]["offset"]'

# Options may follow the files.
"$tool" inspect "$fx/bundle/iota.bundle" --json --gpu gfx1030 >"$tmp/out.json" 2>"$tmp/err" || fail "options after files: $(cat "$tmp/err")"
check 'b[0]["verdict"] == "native"'

# JSON escaping of an odd path.
odd="$tmp/we\"ird\\name	tab.bundle"
cp "$fx/bundle/iota.bundle" "$odd"
run 0 --gpu gfx1030 "$odd"
python3 - "$tmp/out.json" "$odd" <<'PY' || fail "odd path not round-tripped through JSON"
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j["files"][0]["path"] == sys.argv[2] else 1)
PY

[ $fails -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
[ -z "${PARTIAL:-}" ] || { echo "skip: parts not run: $PARTIAL" >&2; exit 77; }
echo "inspect fixtures: ok"
