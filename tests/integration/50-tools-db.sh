#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the database tools read tables/reports only
# 50-tools-db.sh BUILD — `rdnacompat db check` accepts the shipped reports
# (schema 1 runs and schema 2 sourced reports) and rejects broken ones with
# file:line; `db build` writes an SQLite database whose rows match the report
# files; `cards` finds cards by name, target and PCI id and counts their
# reports.  Sourced reports: 51-db-sourced.sh.
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/db
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T"; mkdir -p "$T/bad"
"$R" db check >"$T/check.out" || fail "shipped reports invalid: $(cat "$T/check.out")"
n=$(ls "$SRC"/tables/reports/*.report | wc -l)
[ "$n" -ge 3 ] || fail "fewer than 3 seed reports"
grep -q "$n report(s) valid" "$T/check.out" || fail "count: $(cat "$T/check.out")"
# Runs say whether they were simulated; sourced reports name their thread.
for f in "$SRC"/tables/reports/*.report; do
  if grep -q '^kind: sourced$' "$f"; then
    grep -q '^source: https\?://' "$f" || fail "$f: sourced without a URL"
  else
    grep -q "^simulated: \(yes\|no\)$" "$f" || fail "$f: simulated not marked"
  fi
done

# Broken copies of a run report: each problem reported at its line.
good=$(grep -L '^kind: sourced$' "$SRC"/tables/reports/*.report | head -1)
line_of() { grep -n "^$1:" "$2" | head -1 | cut -d: -f1; }
sed 's/^gfx_target: .*/gfx_target: gfx1100/' "$good" >"$T/bad/target.report"
sed 's/^pci_id: .*/pci_id: 1002:0001/' "$good" >"$T/bad/card.report"
sed 's/^result: .*/reslt: works/' "$good" >"$T/bad/key.report"
sed 's|^notes: \(.*\)|notes: see /home/bob/log.txt|' "$good" >"$T/bad/home.report"
rc=0; "$R" db check --reports "$T/bad" >"$T/bad.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "broken reports accepted (exit $rc)"
grep -q "target.report:$(line_of gfx_target "$T/bad/target.report"): gfx_target gfx1100, but tables/cards.tsv gives" "$T/bad.out" || fail "target: $(cat "$T/bad.out")"
grep -q "card.report:$(line_of pci_id "$T/bad/card.report"): card 1002:0001 is not in tables/cards.tsv" "$T/bad.out" || fail "unknown card"
grep -q "key.report:$(line_of reslt "$T/bad/key.report"): unknown key 'reslt'" "$T/bad.out" || fail "unknown key"
grep -q "key.report:[0-9]*: missing required key 'result'" "$T/bad.out" || fail "missing key"
grep -q "home.report:$(line_of notes "$T/bad/home.report"): 'notes' contains a home-directory path" "$T/bad.out" || fail "home path"
rc=0; "$R" db build -o "$T/out" --reports "$T/bad" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] && [ ! -e "$T/out/index.html" ] || fail "db build built from invalid reports"

# Build: the database holds every report, line by line, and the card table.
"$R" db build -o "$T/out" >"$T/build.out" || fail "db build: $(cat "$T/build.out")"
python3 - "$T/out/rdnacompat.db" "$SRC/tables/reports" <<'PY' || fail "database contents"
import glob, os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
files = sorted(glob.glob(os.path.join(sys.argv[2], "*.report")), key=lambda f: os.path.basename(f)[:-7])
assert db.execute("select count(*) from reports where kind='sourced' and source like 'http%'").fetchone()[0] == \
    sum(1 for f in files if "kind: sourced\n" in open(f).read())
names = [os.path.basename(f)[:-7] for f in files]
assert [r[0] for r in db.execute("select name from reports order by name")] == names
for f, n in zip(files, names):
    lines = [l.rstrip("\n") for l in open(f) if l.strip() and not l.startswith("#")]
    rows = db.execute("select key, value from report_lines where report=? order by line", (n,)).fetchall()
    assert [k + ": " + v for k, v in rows] == lines, n
    tgt = dict(rows)["gfx_target"]
    assert db.execute("select gfx_target from reports where name=?", (n,)).fetchone()[0] == tgt
assert db.execute("select count(*) from cards").fetchone()[0] > 50
PY
for f in "$SRC"/tables/reports/*.report; do
  b=$(basename "$f" .report)
  [ -s "$T/out/reports/$b.html" ] && cmp -s "$f" "$T/out/reports/$b.report" || fail "page or copy of $b missing"
done

# cards: name, target, PCI id; report counts.
"$R" cards --json 6700 >"$T/c1.json" || fail "cards 6700"
"$R" cards --json gfx1102 >"$T/c2.json" || fail "cards gfx1102"
"$R" cards --json 1002:73df >"$T/c3.json" || fail "cards 1002:73df"
python3 - "$T" "$SRC/tables/reports" <<'PY' || fail "cards results"
import glob, json, sys
t = sys.argv[1]
c1 = json.load(open(t + "/c1.json"))["cards"]
assert c1 and all("6700" in c["name"] for c in c1), c1
c2 = json.load(open(t + "/c2.json"))["cards"]
assert c2 and all(c["target"] == "gfx1102" for c in c2)
c3 = json.load(open(t + "/c3.json"))["cards"]
assert c3 and all(c["pci_id"] == "1002:73df" for c in c3)
rep = [dict(l.split(": ", 1) for l in open(f).read().splitlines() if ": " in l and not l.startswith("#"))
       for f in glob.glob(sys.argv[2] + "/*.report")]
for c in c3:
    want = sum(1 for r in rep if r["pci_id"] == c["pci_id"] and
               (c["revision"] is None or r["pci_revision"] == "unknown" or
                int(r["pci_revision"], 16) == int(c["revision"], 16)))
    assert c["reports"] == want, (c, want)
PY
"$R" cards 73df | grep -q "gfx1031" || fail "bare device id"
rc=0; "$R" cards zzzz-no-such-card >/dev/null || rc=$?; [ "$rc" -eq 1 ] || fail "no match: exit $rc"
rc=0; "$R" cards >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "usage: exit $rc"
rc=0; "$R" db frobnicate >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "db usage: exit $rc"
echo "50-tools-db: ok"
