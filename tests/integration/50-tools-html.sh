#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 50-tools-html.sh BUILD — the compatibility page `rdnacompat db build`
# writes, loaded in headless Chromium: the table has one row per reported
# card and a column per ROCm version, every cell link resolves to a report
# page that names its card, and a screenshot is saved to
# BUILD/tools-test/html/compat.png.  Skips (77) only when Chromium cannot run.
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/html
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }
rm -rf "$T"; mkdir -p "$T"
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$CHROME" ] || skip "no chromium (tools/deps.sh installs the Debian package)"
chrome() { timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
  --user-data-dir="$T/profile" "$@" 2>>"$T/chrome.err"; }
echo '<!DOCTYPE html><p id="x">ok</p>' >"$T/probe.html"
chrome --dump-dom "file://$T/probe.html" >"$T/probe.dom" || true
grep -q '<p id="x">ok</p>' "$T/probe.dom" || skip "chromium cannot run here: $(tail -2 "$T/chrome.err")"

"$R" db build -o "$T/site" >/dev/null || fail "db build"
chrome --dump-dom "file://$T/site/index.html" >"$T/index.dom" || fail "dump-dom index"
python3 - "$T/index.dom" "$T/site" <<'PY' || fail "page structure"
import html.parser, os, sqlite3, sys
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.links = []; s.intable = False; s.cell = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "table" and a.get("id") == "compat": s.intable = True
        if s.intable and tag == "tr": s.rows.append([])
        if s.intable and tag in ("td", "th"): s.cell = ""
        if s.intable and tag == "a": s.links.append(a["href"])
    def handle_endtag(s, tag):
        if tag == "table": s.intable = False
        if s.intable and tag in ("td", "th"): s.rows[-1].append(s.cell.strip()); s.cell = None
    def handle_data(s, d):
        if s.cell is not None: s.cell += d
p = P(); p.feed(open(sys.argv[1]).read())
db = sqlite3.connect(os.path.join(sys.argv[2], "rdnacompat.db"))
cards = db.execute("select count(*) from (select distinct card, pci_id, gfx_target from reports)").fetchone()[0]
vers = db.execute("select count(distinct rocm_version) from reports").fetchone()[0]
nrep = db.execute("select count(*) from reports").fetchone()[0]
head, body = p.rows[0], p.rows[1:]
assert head[:4] == ["Card", "PCI id", "Target", "Status"], head
assert len(head) == 4 + vers and all(h.startswith("ROCm ") for h in head[4:]), head
assert len(body) == cards, (len(body), cards)
for r in body:
    t = db.execute("select count(*) from reports where pci_id=? and gfx_target=?", (r[1], r[2])).fetchone()[0]
    assert t > 0, r
assert len(p.links) == nrep, (len(p.links), nrep)
for l in p.links:
    assert os.path.exists(os.path.join(sys.argv[2], l)), l
open(os.path.join(os.path.dirname(sys.argv[1]), "first-link"), "w").write(p.links[0])
PY
link=$(cat "$T/first-link")
chrome --dump-dom "file://$T/site/$link" >"$T/report.dom" || fail "dump-dom report page"
name=$(basename "$link" .html)
card=$(grep '^card: ' "$T/site/reports/$name.report" | cut -d' ' -f2-)
grep -q '<table id="report">' "$T/report.dom" || fail "report page has no table"
grep -qF "$card" "$T/report.dom" || fail "report page does not name $card"
grep -q 'href="../index.html"' "$T/report.dom" || fail "no link back"
chrome --window-size=1100,700 --screenshot="$T/compat.png" "file://$T/site/index.html" >/dev/null || true
[ -s "$T/compat.png" ] || fail "no screenshot"
echo "50-tools-html: ok (screenshot $T/compat.png)"
