#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the sourced reports are text; no ROCm runtime runs
# 51-db-sourced.sh BUILD — schema 2 sourced reports (written from public
# threads): the shipped set covers the targets and ROCm 5.x-7.x; `db check`
# refuses a sourced report without a URL and other bad fields with
# file:line; an empty directory warns; `cards` joins its words, states its
# status baseline, prints the revision as hex (or null) in JSON and lists the
# most relevant sourced reports for the ROCm version; `doctor` lists them for
# the detected card of a fake machine; a failed write to stdout is an error.
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/db-sourced
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T"; mkdir -p "$T/bad" "$T/empty"

# The shipped sourced reports: at least 40, every target of the brief,
# ROCm 5.x, 6.x and 7.x, each with a URL and facts only where stated.
python3 - "$SRC/tables/reports" <<'PY' || fail "coverage of the sourced reports"
import glob, re, sys
reps = []
for f in glob.glob(sys.argv[1] + "/*.report"):
    kv = [l.split(": ", 1) for l in open(f).read().splitlines() if ": " in l and not l.startswith("#")]
    d = {}
    for k, v in kv:
        d.setdefault(k, []).append(v)
    if d.get("kind") == ["sourced"]:
        reps.append((f, d))
assert len(reps) >= 40, len(reps)
targets = {d["gfx_target"][0] for f, d in reps}
want = {"gfx1031", "gfx1032", "gfx1035", "gfx1036", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1201"}
assert want <= targets, want - targets
majors = {d["rocm_version"][0].split(".")[0] for f, d in reps if d["rocm_version"][0] != "not stated"}
assert {"5", "6", "7"} <= majors, majors
urls = [d["source"][0] for f, d in reps]
assert all(re.match(r"https?://[^ ]+$", u) for u in urls)
assert len(set(urls)) >= 40, "fewer than 40 distinct threads"
for f, d in reps:
    assert len(d.get("message", [""])[0]) <= 200, f
    assert d["symptom"], f
    assert d["platform"][0] in ("linux", "windows", "wsl", "not stated"), f
    assert d["reported"], f
# The threads about Windows (HIP SDK, ZLUDA, Ollama for Windows) say so.
assert sum(d["platform"] == ["windows"] for f, d in reps) >= 14
PY

# Broken sourced reports: each problem at its line.
good=$(grep -l '^kind: sourced$' "$SRC"/tables/reports/*.report | head -1)
line_of() { grep -n "^$1:" "$2" | head -1 | cut -d: -f1; }
grep -v '^source:' "$good" >"$T/bad/nourl.report"
sed 's|^source: .*|source: see the forum|' "$good" >"$T/bad/badurl.report"
sed '0,/^symptom: .*/s//symptom: crashed somehow/' "$good" >"$T/bad/symptom.report"
sed 's/^schema: 2/schema: 1/' "$good" >"$T/bad/schema1.report"
sed 's/^rocm_version: .*/rocm_version: latest/' "$good" >"$T/bad/rocm.report"
sed 's/^kind: sourced/kind: sourced\nsimulated: yes/' "$good" >"$T/bad/sim.report"
sed 's/^gfx_target: .*/gfx_target: gfx9999/; s/^pci_id: .*/pci_id: not stated/' "$good" >"$T/bad/target.report"
{ cat "$good"; printf 'message: %0300d\n' 0; } | grep -v '^message: [^0]' >"$T/bad/long.report"
grep -v '^workaround:' "$good" | { cat; echo 'result_with_workaround: works'; } >"$T/bad/rww.report"
# Audit 2026-12-03 M6: platform checked, reported: required, rocm_version a runtime's version only.
sed 's/^platform: .*/platform: macos/' "$good" >"$T/bad/platform.report"
grep -v '^reported:' "$good" >"$T/bad/noreported.report"
grep -v '^rocm_stated:' "$good" | sed 's/^rocm_version: .*/rocm_version: 6.2.4\nrocm_stated: rocBLAS library v6.2.4 (swapped in by the user)/' >"$T/bad/rocmlib.report"
rc=0; "$R" db check --reports "$T/bad" >"$T/bad.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "broken sourced reports accepted (exit $rc): $(cat "$T/bad.out")"
expect() { grep -q "$1" "$T/bad.out" || fail "$2: $(grep "$3" "$T/bad.out")"; }
expect "nourl.report:$(line_of kind "$T/bad/nourl.report"): a sourced report needs 'source: URL'" "no URL" nourl
expect "badurl.report:$(line_of source "$T/bad/badurl.report"): source 'see the forum' is not an http(s):// URL" "bad URL" badurl
expect "symptom.report:$(line_of symptom "$T/bad/symptom.report"): symptom must start with a class" "symptom class" symptom
expect "schema1.report:$(line_of kind "$T/bad/schema1.report"): 'kind' needs schema 2" "schema 1 with kind" schema1
expect "rocm.report:$(line_of rocm_version "$T/bad/rocm.report"): rocm_version 'latest' is not" "rocm version" rocm.report
expect "sim.report:$(line_of simulated "$T/bad/sim.report"): a sourced report describes a real card" "simulated" sim.report
expect "target.report:$(line_of gfx_target "$T/bad/target.report"): gfx_target gfx9999: no card" "unknown target" target.report
expect "long.report:$(line_of message "$T/bad/long.report"): message is 300 characters" "long message" long.report
expect "rww.report:$(line_of result_with_workaround "$T/bad/rww.report"): result_with_workaround without a workaround" "rww" rww.report
expect "platform.report:$(line_of platform "$T/bad/platform.report"): platform must be linux, windows or wsl (or 'not stated'), not 'macos'" "platform" platform.report
expect "noreported.report:[0-9]*: missing required key 'reported' (sourced report)" "reported required" noreported
expect "rocmlib.report:$(line_of rocm_version "$T/bad/rocmlib.report"): rocm_version 6.2.4, but rocm_stated names rocBLAS" "library version as rocm_version" rocmlib
[ "$(grep -c "^$T/bad/nourl.report:" "$T/bad.out")" -eq 1 ] || fail "nourl: more than the one problem: $(grep nourl "$T/bad.out")"

# Audit N8: a directory without reports warns (and is not an error).
rc=0; "$R" db check --reports "$T/empty" >"$T/empty.out" 2>"$T/empty.err" || rc=$?
[ "$rc" -eq 0 ] || fail "empty dir: exit $rc"
grep -q "warning: no \*.report files in $T/empty" "$T/empty.err" || fail "empty dir: no warning: $(cat "$T/empty.err")"
"$R" db check >/dev/null 2>"$T/full.err" || fail "db check"
! grep -q warning "$T/full.err" || fail "warning on the shipped reports"

# Audit N1, N2, M8: unquoted words, hex revision, the baseline.
"$R" cards RX 6700 XT --rocm 6.2 >"$T/c.txt" || fail "cards RX 6700 XT: $(cat "$T/c.txt")"
grep -q '^status: as of the ROCm 7.0 Linux support matrix' "$T/c.txt" || fail "no baseline line"
awk '/^1002:/' "$T/c.txt" | grep -qv '6700 XT' && fail "a hit without 6700 XT"
grep -q '^1002:73df  c1 ' "$T/c.txt" || fail "RX 6700 XT row missing"
"$R" cards --json RX 6700 XT >"$T/c.json" || fail "cards --json"
"$R" cards --json 73df >"$T/c2.json" || fail "cards --json 73df"
python3 - "$T" <<'PY' || fail "cards --json fields"
import json, re, sys
j = json.load(open(sys.argv[1] + "/c.json"))
assert j["query"] == "RX 6700 XT" and "ROCm 7.0" in j["status_baseline"], j
assert j["cards"] and all(re.fullmatch(r"[0-9a-f]{2}", c["revision"]) for c in j["cards"]), j["cards"]
any_rev = [c for c in json.load(open(sys.argv[1] + "/c2.json"))["cards"] if c["revision"] is None]
assert any_rev and any_rev[0]["name"].startswith("AMD Radeon RX 6700 / 6750"), any_rev
PY

# Audit W6 (cards, db): a failed write to stdout is an error with a message.
for cmd in "cards 6700" "db check"; do
  rc=0; "$R" $cmd >/dev/full 2>"$T/full.err" || rc=$?
  [ "$rc" -eq 1 ] && grep -q 'writing output: No space left on device' "$T/full.err" ||
    fail "$cmd >/dev/full: rc=$rc $(cat "$T/full.err")"
done

# The relevant sourced reports: three lines with URLs; the first has the
# same ROCm minor version when one exists.
check_top() { # FILE TARGET ROCM
  python3 - "$SRC/tables/reports" "$1" "$2" "$3" <<'PY'
import glob, re, sys
rep = {}
for f in glob.glob(sys.argv[1] + "/*.report"):
    d = dict(l.split(": ", 1) for l in open(f).read().splitlines() if ": " in l and not l.startswith("#"))
    if d.get("kind") == "sourced":
        rep.setdefault(d["source"], []).append(d)
out = open(sys.argv[2]).read().splitlines()
i = [k for k, l in enumerate(out) if l.startswith("Reports from public threads for %s on ROCm %s" % (sys.argv[3], sys.argv[4]))]
assert i, out
lines = []
for l in out[i[0] + 1:]:
    if not l.startswith("  ["):
        break
    lines.append(l)
assert 1 <= len(lines) <= 3, lines
urls = [l.rsplit(" ", 1)[1] for l in lines]
assert all(u in rep for u in urls), urls
assert all(any(d["gfx_target"] == sys.argv[3] for d in rep[u]) for u in urls)
mm = ".".join(sys.argv[4].split(".")[:2])
same = [u for u, ds in rep.items() for d in ds
        if d["gfx_target"] == sys.argv[3] and ".".join(d["rocm_version"].split(".")[:2]) == mm]
if same:
    assert urls[0] in same, (urls[0], same)
PY
}
check_top "$T/c.txt" gfx1031 6.2 || fail "cards: relevant reports: $(cat "$T/c.txt")"
"$R" cards 780M --rocm 7.0 >"$T/c3.txt" || fail "cards 780M"
check_top "$T/c3.txt" gfx1103 7.0 || fail "cards 780M: $(cat "$T/c3.txt")"

# doctor on a fake RX 6700 XT machine with ROCm 6.2.4.
bash "$SRC/tests/tools/mkfakeroot.sh" "$T/root" rx6700 >/dev/null || fail "mkfakeroot"
"$R" doctor --root "$T/root" >"$T/doctor.txt" 2>&1
check_top "$T/doctor.txt" gfx1031 6.2.4 || fail "doctor: relevant reports: $(tail -6 "$T/doctor.txt")"
"$R" doctor --root "$T/root" --json >"$T/doctor.json" 2>/dev/null
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/doctor.json" || fail "doctor --json is no longer JSON"
echo "51-db-sourced: ok"
