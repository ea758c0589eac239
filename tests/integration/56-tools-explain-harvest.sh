#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 56-tools-explain-harvest.sh BUILD — `rdnacompat explain` knows every status
# and device message of this release, as users paste them.  Generated from
# tables/status.tsv and tables/lib-messages.tsv (no hand-picked rows): one
# log with every status of the release by its text and by its name (HIP's
# also by its number), every reviewed library message with its printf holes
# filled in, each line dressed as pasted — a program prefix and a time stamp,
# colours (ANSI escapes), a line wrapped in two — must be explained line by
# line, each line by its own row.  Then the harvest tool, re-run on this
# release, reproduces the tables, and fails when the table lacks a status the
# release has (one removed on purpose).
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/explain-harvest
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$T"
rel=${RDC_ROCM:-5.2}

# --- the log and what each of its lines must be explained by
python3 - "$SRC/tables" "$rel" "$T/log.txt" "$T/want.json" <<'PY' || fail "generating the log"
import json, re, sys
tables, rel, logf, wantf = sys.argv[1:5]
def rows(name, n):
    out = []
    for l in open(f"{tables}/{name}"):
        c = l.rstrip("\n").split("\t")
        if l.startswith("#") or len(c) != n or c[0] in ("kind", "lib"):
            continue
        out.append(c)
    return out
unesc = lambda s: s.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
dress = [
    lambda s: s,
    lambda s: f"2026-12-04T10:11:12.345Z worker[4242]: E: {s}",
    lambda s: f"\x1b[1;31mERROR\x1b[0m \x1b[33m{s}\x1b[0m",
    lambda s: f"[rank0]: RuntimeError: {s}",
]
lines, want = [], {}     # want: line number -> [("status", name) | ("message", lib, text)]
def add(text, key, i, wrap=False):
    if wrap and " " in text.strip():
        # wrapped in two at a blank in the middle, as a narrow terminal or a forum does
        sp = [m.start() for m in re.finditer(" ", text)]
        cut = sp[len(sp) // 2]
        text = text[:cut] + "\n" + text[cut + 1:]
    text = dress[i % len(dress)](text)
    first = len(lines) + 1
    lines.extend(text.split("\n"))
    want.setdefault(first, []).append(key)
st = [r for r in rows("status.tsv", 6) if r[3] == rel]
assert st, f"no status rows for {rel}"
for i, (kind, name, value, _, text, cls) in enumerate(st):
    text = unesc(text)
    if text != "-":
        add(text, ("status", name), i, wrap=i % 5 == 4)
    add(f"call returned {name} at main.cpp:{i + 10}", ("status", name), i + 1)
    if kind == "hip" and value != "0":
        add(f"HIP error code {value} in launch", ("value", name), i + 2)
    if kind == "hsa" and int(value, 0) >= 0x1000:
        add(f"hsa_executable_load_code_object failed, code: {value}", ("value", name), i + 2)
fill = {"s": "gfx1031", "d": "3", "i": "3", "u": "3", "x": "1f", "X": "1F", "p": "0x7f3a00", "f": "1.50",
        "g": "1.5", "e": "1.5e+00", "c": "x", "o": "17"}
conv = re.compile(r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?([diouxXeEfgGcsp])|\{[^{}]*\}")
ms = [r for r in rows("lib-messages.tsv", 5) if r[1] == rel and r[4] != "ignore"]
for i, (lib, _, _, text, cls) in enumerate(ms):
    msg = conv.sub(lambda m: fill.get(m.group(5) or "s", "x"), unesc(text).replace("%%", "%")).strip()
    add(msg, ("message", lib, text), i)
open(logf, "w").write("\n".join(lines) + "\n")
json.dump({str(k): v for k, v in want.items()}, open(wantf, "w"))
print(f"log: {len(lines)} lines, {len(st)} statuses and {len(ms)} messages of ROCm {rel}")
PY
t0=$(date +%s%N)
"$R" explain --json - <"$T/log.txt" >"$T/out.json" || fail "explain: no match at all"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
python3 - "$T/out.json" "$T/want.json" <<'PY' || fail "the log is not explained line by line (details above)"
import json, sys
d = json.load(open(sys.argv[1])); want = json.load(open(sys.argv[2]))
unesc = lambda s: s.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
# line -> what explained it
got = {}
for h in d["harvested"]:
    for ln in h["lines"]:
        g = got.setdefault(str(ln), set())
        for r in h["rows"]:
            if "name" in r:
                g.add(("status", r["name"]))
                if h["match"] == "value":
                    g.add(("value", r["name"]))
            else:
                g.add(("message", r["lib"], r["text"]))
ids = {str(l["line"]): l["ids"] for l in d["lines"]}
bad = []
for ln, keys in want.items():
    for k in keys:
        key = tuple(k if k[0] != "message" else [k[0], k[1], unesc(k[2])])
        if key not in got.get(ln, set()):
            bad.append((ln, k, sorted(got.get(ln, set()))[:4]))
        elif k[0] != "message" and k[1] not in ids.get(ln, []):
            bad.append((ln, k, "not in the line-by-line summary", ids.get(ln)))
for b in bad[:15]:
    print("  line %s: want %s, got %s" % (b[0], b[1], b[2:]))
assert not bad, f"{len(bad)} of {sum(len(v) for v in want.values())} expected explanations missing"
print(f"explained: {sum(len(v) for v in want.values())} expected explanations on {len(want)} lines")
PY
echo "  explain took $ms ms"

# --- a real log from this release: rocminfo on a simulated gfx1031 told a target no
# ROCR knows (12.9.9), then a malformed override (10.3): ROCR's own words, in colour.
SIMLIB=$B/sim/librdnacompat-sim.so
if [ -f "$SIMLIB" ] && command -v rocminfo >/dev/null; then
  { env HSA_OVERRIDE_GFX_VERSION=12.9.9 "$R" sim --gpu gfx1031 -- timeout 60 rocminfo
    env HSA_OVERRIDE_GFX_VERSION=10.3 "$R" sim --gpu gfx1031 -- timeout 60 rocminfo; } >"$T/real.log" 2>&1
  "$R" explain --json - <"$T/real.log" >"$T/real.json" || fail "real log: nothing explained: $(grep -i fail "$T/real.log")"
  python3 - "$T/real.json" <<'PY' || fail "real rocminfo log"
import json, sys
d = json.load(open(sys.argv[1]))
lines = {l["line"]: (l["text"], l["ids"]) for l in d["lines"]}
def on(word):
    return [ids for text, ids in lines.values() if word in text]
# ROCR's two-line message, from its first line; the curated invalid-isa row on the second
first, second = on("Agent creation failed"), on("unrecognized id")
assert first and "rocr:isa-unknown" in first[0], ("ROCR's agent creation message", first, lines)
assert second and "invalid-isa" in second[0], ("unrecognized id", second, lines)
oor = on("HSA_STATUS_ERROR_OUT_OF_RESOURCES")
assert oor and "HSA_STATUS_ERROR_OUT_OF_RESOURCES" in oor[0] and "kfd-permission" in oor[0], ("out of resources", oor)
classes = {c["class"] for h in d["harvested"] for c in h["classes"]}
assert {"isa-unknown", "no-device"} <= classes, classes
print("real log: " + "; ".join(f"line {n}: {', '.join(ids)}" for n, (t, ids) in sorted(lines.items())))
PY
else
  echo "partial: no simulator or rocminfo: the real log part is not run" >&2
fi

# --- harvested classes are defined, with sources; the text form says card, check, rdnacompat
printf 'RuntimeError: HIP error: %s\n' "$(awk -F'\t' -v r="$rel" '$1=="hip" && $2=="hipErrorInvalidDeviceFunction" && $4==r {print $5}' "$SRC/tables/status.tsv" | sed 's/\\n/ /g')" |
  "$R" explain - >"$T/one.txt" || fail "hipErrorInvalidDeviceFunction's text not explained"
grep -q '^\[hipErrorInvalidDeviceFunction (98)\]' "$T/one.txt" && grep -q '^  class: kernel-missing' "$T/one.txt" &&
  grep -q '^  card:  yes' "$T/one.txt" && grep -q '^  rdnacompat: ' "$T/one.txt" || fail "text form: $(cat "$T/one.txt")"
for n in 98 209; do "$R" explain --json "$n" | grep -q '"match":"value"' || fail "the number $n alone"; done
rc=0; "$R" explain "no errors were found, everything is fine" >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "'no errors' matched something (word boundaries)"

# --- the harvest tool, re-run on this release, reproduces the tables; a missing status is found
if [ -e /usr/include/hip/hip_runtime_api.h ] && python3 -c 'import ctypes' 2>/dev/null; then
  python3 "$SRC/tools/harvest/harvest.py" check --release "$rel" --here >"$T/check.txt" 2>&1 ||
    fail "the tables are not what this release gives: $(tail -5 "$T/check.txt")"
  mkdir -p "$T/tables"; cp "$SRC"/tables/{status,lib-messages,error-classes}.tsv "$T/tables/"
  gone=$(awk -F'\t' -v r="$rel" '$1=="hsa" && $4==r {print $2}' "$T/tables/status.tsv" | tail -1)
  awk -F'\t' -v g="$gone" '$2!=g' "$SRC/tables/status.tsv" >"$T/tables/status.tsv"
  rc=0; python3 "$SRC/tools/harvest/harvest.py" check --release "$rel" --here --tables "$T/tables" >"$T/check2.txt" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] && grep -q "harvest has, table lacks: hsa | $gone |" "$T/check2.txt" ||
    fail "a status the table lacks ($gone) went unnoticed: rc=$rc $(tail -3 "$T/check2.txt")"
  # and explain refuses a table with an unreviewed row
  sed -i "0,/\thsa\t/s//\thsa\t/" "$T/tables/status.tsv"
  awk -F'\t' 'BEGIN{OFS="\t"} !/^#/ && NF==6 && $1=="hip" && !done {$6="unreviewed"; done=1} {print}' "$SRC/tables/status.tsv" >"$T/tables/status.tsv"
  cp "$SRC"/tables/errors.tsv "$T/tables/"
  rc=0; RDNACOMPAT_TABLES_DIR=$T/tables "$R" explain x >/dev/null 2>"$T/unrev.err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "status.tsv:[0-9]*: row not reviewed" "$T/unrev.err" || fail "unreviewed row accepted: rc=$rc $(cat "$T/unrev.err")"
  echo "harvest: $(tail -1 "$T/check.txt")"
else
  echo "skip: no HIP headers or Python ctypes here" >&2; exit 77
fi
echo "56-tools-explain-harvest: ok (ROCm $rel)"
