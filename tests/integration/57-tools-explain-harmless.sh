#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 57-tools-explain-harmless.sh BUILD — `rdnacompat explain` knows the lines the
# ROCm stack prints on healthy runs (tables/harmless.tsv, each from the source
# that prints it).  Generated from the table (no hand-picked rows): every row's
# text with its holes filled in and dressed as pasted is, alone, "known and
# harmless" (exit 0, its why and source shown); in a log where they surround a
# real error, the error is still the one explained and no harmless line is
# taken for it; each harmless line is listed as harmless in the line-by-line
# view.  A bad harmless table is refused with file:line.  Each text is in its
# library's binary (harvest.py harmless), and a made-up one is caught.
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/explain-harmless
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T"; mkdir -p "$T"

python3 - "$SRC/tables/harmless.tsv" "$T" <<'PY' || fail "generating the lines"
import json, re, sys
tab, out = sys.argv[1:3]
rows = [l.rstrip("\n").split("\t") for l in open(tab) if not l.startswith("#") and l.strip()]
rows = [r for r in rows if r[0] != "lib"]
assert len(rows) >= 7, f"only {len(rows)} harmless rows"
conv = re.compile(r"%(l?)([sdp])")
dress = [lambda s: s, lambda s: f"2026-12-06T10:11:12.345Z worker[4242]: {s}",
         lambda s: f"\x1b[33m{s}\x1b[0m", lambda s: f"[rank0]: {s}"]
lines, want = [], {}
for i, r in enumerate(rows):
    # a leading %s is a path (libdrm's table), a later one strerror; else a
    # file or solver name; %ld a count, %p a pointer
    holes = iter(["/opt/amdgpu/share/libdrm/" if r[1].startswith("%s") else "gfx1031_40.kdb",
                  "No such file or directory"])
    t = conv.sub(lambda m: next(holes) if m.group(2) == "s" else "620" if m.group(2) == "d" else "0x7f3a0012c0", r[1])
    t = dress[i % len(dress)](t)
    open(f"{out}/one{i}.txt", "w").write(t + "\n")
    lines.append(t); want[len(lines)] = r[1]
    lines.append("loading model weights ... done")
# the decisive error in the middle, as a real log has it
mid = len(lines) // 2
lines.insert(mid, '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"')
want = {str(k + (k > mid)): v for k, v in want.items()}
open(f"{out}/log.txt", "w").write("\n".join(lines) + "\n")
json.dump({"want": want, "error_line": mid + 1, "n": len(rows)}, open(f"{out}/want.json", "w"))
PY

# --- each line alone: known and harmless, exit 0, why and source shown
n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["n"])' "$T/want.json")
for ((i = 0; i < n; i++)); do
  "$R" explain - <"$T/one$i.txt" >"$T/one$i.out"; rc=$?
  [ "$rc" -eq 0 ] || fail "line $i alone: exit $rc: $(cat "$T/one$i.txt")"
  grep -q '^no error: every line recognised is known and harmless' "$T/one$i.out" &&
    grep -q '^\[harmless\] ' "$T/one$i.out" && grep -q '^  why: ' "$T/one$i.out" &&
    grep -q '^  source: https://github.com/.*/blob/[0-9a-f]\{40\}/' "$T/one$i.out" ||
    fail "line $i alone is not said to be harmless: $(cat "$T/one$i.txt") -> $(cat "$T/one$i.out")"
  ! grep -q '^no known error matched' "$T/one$i.out" || fail "line $i: 'no known error matched'"
done
echo "  $n harmless lines, each alone: known and harmless"

# --- the issue's own lines, as users paste them
"$R" explain '/opt/amdgpu/share/libdrm/amdgpu.ids: No such file or directory' | grep -q '^\[harmless\] libdrm' ||
  fail "libdrm's amdgpu.ids line"
"$R" explain 'Warning: Resource leak detected by SharedSignalPool, 2 Signals leaked.' | grep -q '^\[harmless\] rocr' ||
  fail "ROCR's SharedSignalPool line"

# --- in a log: the error is the one explained; the harmless lines are listed as harmless
"$R" explain --json - <"$T/log.txt" >"$T/log.json" || fail "the log: nothing explained"
python3 - "$T/log.json" "$T/want.json" <<'PY' || fail "the log (details above)"
import json, sys
d = json.load(open(sys.argv[1])); w = json.load(open(sys.argv[2]))
err = w["error_line"]
ids = {l["line"]: l["ids"] for l in d["lines"]}
# the decisive error: the curated row and the harvested status, on its own line
assert any(m["id"] == "no-binary" for m in d["matches"]), ("no-binary not explained", [m["id"] for m in d["matches"]])
assert "no-binary" in ids.get(err, []), ("error line", err, ids.get(err))
# every harmless line listed, as harmless only
harm = {}
for h in d["harmless"]:
    assert h["why"] and h["sources"] and h["sources"][0].startswith("https://"), h
    for ln in h["lines"]:
        harm[ln] = h["text"]
bad = []
for ln, text in w["want"].items():
    ln = int(ln)
    if harm.get(ln) != text:
        bad.append(f"line {ln}: want harmless '{text}', got {harm.get(ln)}")
    elif ids.get(ln) != ["harmless"]:
        bad.append(f"line {ln}: line-by-line says {ids.get(ln)}, want only harmless")
# nothing the curated or harvested tables found is on a harmless line
for h in d.get("harvested", []):
    for ln in h["lines"]:
        if str(ln) in w["want"]:
            bad.append(f"line {ln}: taken for an error by {h.get('match')}")
for b in bad:
    print("  " + b)
assert not bad
print(f"  log: error on line {err} explained (no-binary); {len(harm)} harmless lines listed as harmless")
PY
[ $? -eq 0 ] || exit 1
"$R" explain - <"$T/log.txt" >"$T/log.txt.out" || fail "the log, text form"
grep -q '^\[no-binary\]' "$T/log.txt.out" && grep -q '^== known and harmless (not the cause) ==' "$T/log.txt.out" &&
  grep -q '^line [0-9]*: harmless — ' "$T/log.txt.out" || fail "the log, text form: $(head -40 "$T/log.txt.out")"

# --- a bad table: refused with file:line, and explain still answers the error
mkdir -p "$T/tables"
cp "$SRC"/tables/*.tsv "$T/tables/"
printf 'rocr\t%%s\tnothing literal\thttps://example.org/x\n' >>"$T/tables/harmless.tsv"
RDNACOMPAT_TABLES_DIR=$T/tables "$R" explain '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"' \
  >"$T/bad.out" 2>"$T/bad.err"; rc=$?
[ "$rc" -eq 0 ] && grep -q '^\[no-binary\]' "$T/bad.out" || fail "a bad harmless table stopped explain (exit $rc)"
grep -q "harmless.tsv:[0-9]*: " "$T/bad.err" || fail "a bad harmless table: no file:line error: $(cat "$T/bad.err")"
# --- each text is one its library prints: in the library's .rodata of a release that
# ships it (tools/harvest/harvest.py harmless), and a made-up row is caught
python3 "$SRC/tools/harvest/harvest.py" harmless >"$T/harvest.out" 2>&1 ||
  fail "harvest.py harmless: $(cat "$T/harvest.out")"
grep -q ', 0 problem(s)$' "$T/harvest.out" || fail "harvest.py harmless: $(cat "$T/harvest.out")"
if grep -q 'root not built' "$T/harvest.out"; then
  echo "partial: $(grep -m1 'root not built' "$T/harvest.out"): a made-up row cannot be told from a release's" >&2
else
mkdir -p "$T/made-up"
cp "$SRC/tables/harmless.tsv" "$T/made-up/"
printf 'rocr\tWarning: the card is fine, %%s\tmade up\thttps://example.org/x\n' >>"$T/made-up/harmless.tsv"
if python3 "$SRC/tools/harvest/harvest.py" harmless --tables "$T/made-up" >"$T/harvest-bad.out" 2>&1; then
  fail "harvest.py harmless took a text no library prints: $(cat "$T/harvest-bad.out")"
fi
grep -q 'not a text this library prints' "$T/harvest-bad.out" || fail "made-up row: $(cat "$T/harvest-bad.out")"
fi
sed 's/^/  /' "$T/harvest.out"
echo "ok: explain tells harmless lines from the cause"
