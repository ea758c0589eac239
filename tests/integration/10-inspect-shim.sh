#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — inspect reads the built shim and tool; no ROCm runtime runs
# 10-inspect-shim.sh BUILD — `rdnacompat inspect` on librdnacompat.so (and on the
# full tool, libexec/rdnacompat/rdnacompat-tool, which embeds the same bundle) lists the fallback kernels the
# shim carries, from its section .rdc_fallback, instead of "no device code":
#   - the section's bytes are the bundle build-bundle.sh wrote (objcopy + cmp);
#   - text and JSON name the section; one bundle whose device entries are the
#     targets build-bundle.sh builds (read from the script);
#   - each entry's kernels (--kernels, with and without --gpu) are the ".kd"
#     symbols of that target's code object (llvm-nm), rdnacompat_fb_fattn_tile_dv64
#     and rdnacompat_fb_fattn_combine among them;
#   - gfx1031 is served mapped from gfx1030; a file without the section still
#     says "no device code".
set -u
build=${1:?usage: 10-inspect-shim.sh BUILD}
tool="$build/bin/rdnacompat"
full="$build/libexec/rdnacompat/rdnacompat-tool"
shim="$build/librdnacompat.so"
here=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$tool" ] && [ -x "$full" ] && [ -f "$shim" ] || { echo "no $tool, $full or $shim" >&2; exit 1; }
[ -s "$build/gen/fallback.bundle" ] || { echo "no $build/gen/fallback.bundle" >&2; exit 1; }
for t in objcopy llvm-nm-15 python3; do command -v "$t" >/dev/null || { echo "no $t" >&2; exit 1; }; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails+1)); }

# The targets build-bundle.sh builds, and each one's kernels by its symbol table.
targets=$(sed -n 's/^TARGETS=(\(.*\))$/\1/p' "$here/shim/fallback/build-bundle.sh")
[ -n "$targets" ] || fail "no TARGETS=(...) line in build-bundle.sh"
for t in $targets; do
  [ -s "$build/gen/fallback/$t.co" ] || { fail "no $build/gen/fallback/$t.co"; continue; }
  llvm-nm-15 "$build/gen/fallback/$t.co" | sed -n 's/.* \(.*\)\.kd$/\1/p' | sort >"$tmp/kd.$t"
  [ -s "$tmp/kd.$t" ] || fail "$t.co: no .kd symbols"
done
grep -qx rdnacompat_fb_fattn_tile_dv64 "$tmp/kd.gfx1030" || fail "gfx1030.co has no rdnacompat_fb_fattn_tile_dv64.kd"

for bin in "$shim" "$full"; do
  name=$(basename "$bin")
  objcopy -O binary --only-section=.rdc_fallback "$bin" "$tmp/section.bin" ||
    fail "$name: objcopy .rdc_fallback"
  cmp -s "$tmp/section.bin" "$build/gen/fallback.bundle" ||
    fail "$name: section .rdc_fallback is not build/gen/fallback.bundle"

  # Text, listing only.
  "$tool" inspect "$bin" >"$tmp/out.txt" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 0 ] || fail "$name: inspect exited $rc: $(head -c 300 "$tmp/err")"
  grep -q "fallback kernels (section .rdc_fallback)" "$tmp/out.txt" || fail "$name: text does not name the section: $(head -2 "$tmp/out.txt")"
  grep -q "no device code" "$tmp/out.txt" && fail "$name: still says no device code"
  grep -q "^summary: 1 bundles" "$tmp/out.txt" || fail "$name: summary: $(tail -1 "$tmp/out.txt")"

  # Text with --kernels: each target's kernels in order of the listing.
  "$tool" inspect --kernels "$bin" >"$tmp/k.txt" 2>"$tmp/err" || fail "$name: inspect --kernels exited $?"
  for t in $targets; do
    sed -n "/kernels of \[[0-9]*\] $t:/,/kernels of/p" "$tmp/k.txt" |
      sed -n 's/^ *kernel \([^:]*\):.*/\1/p' | sort >"$tmp/got.$t"
    cmp -s "$tmp/got.$t" "$tmp/kd.$t" || fail "$name: $t kernels listed differ from $t.co's: $(diff "$tmp/got.$t" "$tmp/kd.$t" | head -5 | tr '\n' ' ')"
  done

  # JSON: the section, the entries' targets and kernel counts; gfx1031 mapped
  # from gfx1030 with the kernels of gfx1030.co.
  "$tool" inspect --gpu gfx1031 --kernels --json "$bin" >"$tmp/out.json" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 0 ] || fail "$name: inspect --gpu gfx1031 exited $rc: $(head -c 300 "$tmp/err")"
  python3 - "$tmp/out.json" "$tmp" "$targets" <<'PY' || fail "$name: json"
import json, sys
j = json.load(open(sys.argv[1]))
tmp, targets = sys.argv[2], sys.argv[3].split()
kd = {t: open(f"{tmp}/kd.{t}").read().split() for t in targets}
f = j["files"][0]
b = f["bundles"]
checks = {
    "section": f["section"] == ".rdc_fallback",
    "one bundle": len(b) == 1,
    "targets": len(b) == 1 and sorted(e["target"] for e in b[0]["entries"] if e["target"]) == sorted(targets),
    "mapped": len(b) == 1 and b[0]["verdict"] == "mapped" and b[0]["chosen"] == "gfx1030",
    "kernels": len(b) == 1 and sorted(k["name"] for k in b[0]["kernels"]) == sorted(kd["gfx1030"]),
    "counts": len(b) == 1 and [e["kernels"] for e in b[0]["entries"] if e["target"] == "gfx1030"] == [len(kd["gfx1030"])],
    "all ok": len(b) == 1 and all(k["ok"] for k in b[0]["kernels"]),
    "summary": j["summary"] == {"bundles": 1, "native": 0, "mapped": 1, "missing": 0},
}
bad = [k for k, v in checks.items() if not v]
if bad:
    print("  false:", bad, json.dumps(j)[:1200], file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done

# A host ELF without either section: unchanged.
"$tool" inspect /bin/sh >"$tmp/sh.txt" 2>&1 || fail "inspect /bin/sh exited $?"
grep -q "without .hip_fatbin (no device code)" "$tmp/sh.txt" || fail "/bin/sh: $(head -1 "$tmp/sh.txt")"
"$tool" inspect --json /bin/sh >"$tmp/sh.json" 2>&1 || fail "inspect --json /bin/sh exited $?"
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"][0]; sys.exit(0 if f["section"] is None and f["bundles"] == [] else 1)' \
  "$tmp/sh.json" || fail "/bin/sh json: $(head -c 300 "$tmp/sh.json")"

[ "$fails" -eq 0 ] && echo "10-inspect-shim: ok" || { echo "10-inspect-shim: $fails failure(s)" >&2; exit 1; }
