#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the site is built from tables/reports only
# 50-tools-html.sh BUILD — the compatibility site `rdnacompat db build`
# writes, loaded in headless Chromium (no network):
#   - index: one row per reported card, a column per ROCm minor version; each
#     cell's worst and best outcome and counts equal what the database says for
#     real cards on Linux; a cell with only simulated runs renders no outcome
#     class (works, partial, fails, untested) and words them "loads on a
#     simulated card"; reports from other platforms are "not counted"; the
#     legend says so;
#     every link resolves to a card page and its #rocm-<version> anchor;
#   - card page: lists every report of the card, each sourced one with a link
#     equal to the report file's source: URL; says what the tables do for the
#     target (its first compat edge from tables/compat.tsv);
#   - search: with JavaScript, search.html?q=73df shows only rows matching
#     73df; without JavaScript every card is listed with target and PCI-id
#     anchors linking the card pages;
#   - nothing on the pages loads from the network.
# Screenshots: BUILD/tools-test/html/{compat,card,search,search-nojs}.png.  Skips (77)
# only when Chromium cannot run.
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/html
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }
rm -rf "$T"; mkdir -p "$T"
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$CHROME" ] || skip "no chromium (tools/deps.sh installs the Debian package)"
chrome() { timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$T/profile" "$@" 2>>"$T/chrome.err"; }
echo '<!DOCTYPE html><p id="x">ok</p>' >"$T/probe.html"
chrome --dump-dom "file://$T/probe.html" >"$T/probe.dom" || true
grep -q '<p id="x">ok</p>' "$T/probe.dom" || skip "chromium cannot run here: $(tail -2 "$T/chrome.err")"

"$R" db build -o "$T/site" >/dev/null || fail "db build"
S=$T/site
chrome --dump-dom "file://$S/index.html" >"$T/index.dom" || fail "dump-dom index"
card=$(python3 - "$T/index.dom" "$S" <<'PY'
import html.parser, os, re, sqlite3, sys
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.intable = False; s.cell = None; s.ina = False
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "table" and a.get("id") == "compat": s.intable = True
        if not s.intable: return
        if tag == "tr": s.rows.append([])
        if tag in ("td", "th"): s.cell = {"text": "", "links": [], "classes": set()}
        if s.cell is not None and a.get("class"): s.cell["classes"].update(a["class"].split())
        if tag == "a" and s.cell is not None: s.cell["links"].append([a["href"], "", a.get("class", "")]); s.ina = True
    def handle_endtag(s, tag):
        if tag == "a": s.ina = False
        if tag == "table": s.intable = False
        if s.intable and tag in ("td", "th"): s.rows[-1].append(s.cell); s.cell = None
    def handle_data(s, d):
        if s.cell is not None:
            s.cell["text"] += d
            if s.ina: s.cell["links"][-1][1] += d
p = P(); p.feed(open(sys.argv[1]).read())
site = sys.argv[2]
db = sqlite3.connect(os.path.join(site, "rdnacompat.db"))
def vkey(v):
    m = re.match(r"(\d+)\.(\d+|x)$", v)
    if m: return (0, int(m.group(1)), 1000 if m.group(2) == "x" else int(m.group(2)))
    return (1 if v == "none" else 2, 0, 0)
vers = sorted((r[0] for r in db.execute("select distinct rocm_minor from reports")), key=vkey)
head, body = [c["text"].strip() for c in p.rows[0]], p.rows[1:]
assert head == ["Card", "PCI id", "Target", "Status"] + ["ROCm " + v for v in vers], head
slugs = [r[0] for r in db.execute("select distinct card_slug from reports")]
assert len(body) == len(slugs), (len(body), len(slugs))
rank = {"fails": 0, "partial": 1, "works": 2}
OUTCOME = {"works", "partial", "fails", "untested"}
simlabel = {"works": "loads on a simulated card", "partial": "loads in part on a simulated card",
            "fails": "fails on a simulated card", "untested": "untested on a simulated card"}
ids = {}
simonly = 0
for row in body:
    href = row[0]["links"][0][0]
    slug = re.match(r"cards/(.+)\.html$", href).group(1)
    assert os.path.exists(os.path.join(site, href)), href
    for v, c in zip(vers, row[4:]):
        got = db.execute("select result, best, simulated, platform from reports where card_slug=? and rocm_minor=?",
                         (slug, v)).fetchall()
        if not got:
            assert c["text"].strip() == "\u2014", (slug, v, c)
            continue
        # Outcomes come from real cards on Linux only (H2, M6).
        real = [(r, b) for r, b, s, p in got if not s and p == "linux"]
        outl = [(h, t.strip(), k) for h, t, k in c["links"] if k in OUTCOME]
        siml = [(h, t.strip(), k) for h, t, k in c["links"] if k == "simrun"]
        assert len(outl) + len(siml) == len(c["links"]), c["links"]
        if real:
            res = [r for r, b in real if r in rank] or [r for r, b in real]
            bst = [b for r, b in real if b in rank] or [b for r, b in real]
            worst = min(res, key=lambda x: rank.get(x, 9)); best = max(bst, key=lambda x: rank.get(x, -1))
            want = [("worst: %s \u00d7%d" % (worst, res.count(worst)), worst),
                    ("best: %s \u00d7%d" % (best, bst.count(best)), best)]
            assert [(t, k) for h, t, k in outl] == want, (slug, v, outl, want)
        else:
            # No real report: no outcome class at all, whatever the simulated runs say.
            assert not outl, (slug, v, outl)
            assert "no report from a real card on Linux" in c["text"], (slug, v, c["text"])
            if all(s for r, b, s, p in got):
                simonly += 1
                assert "works" not in c["classes"] and not (c["classes"] & OUTCOME), (slug, v, c["classes"])
        sims = {}
        for r, b, s, p in got:
            if s: sims[r] = sims.get(r, 0) + 1
        wants = sorted("%s \u00d7%d" % (simlabel[r], n) for r, n in sims.items())
        assert sorted(t for h, t, k in siml) == wants, (slug, v, siml, wants)
        other = sum(1 for r, b, s, p in got if not s and p != "linux")
        assert ("not counted:" in c["text"]) == (other > 0), (slug, v, c["text"])
        for h, t, k in c["links"]:
            page, anchor = h.split("#")
            assert anchor == "rocm-" + v.replace(" ", "-"), h
            assert ('id="%s"' % anchor) in open(os.path.join(site, page)).read(), h
# The shipped database has simulated-only cells (the audit found 22 that read "works").
assert simonly >= 10, simonly
print([r[0]["links"][0][0] for r in body if "RX 6700 XT" == r[0]["text"].strip().replace("AMD Radeon ", "")][0])
PY
) || fail "index structure"

grep -q '<div id="legend">.*never counted as works' "$T/index.dom" || fail "index legend: simulated runs never count as works"

# A card page, as Chromium renders it.
chrome --dump-dom "file://$S/$card" >"$T/card.dom" || fail "dump-dom card page"
python3 - "$T/card.dom" "$S" "$card" "$SRC/tables/compat.tsv" <<'PY' || fail "card page"
import html.parser, os, re, sqlite3, sys
dom, site, card, compat = sys.argv[1:]
slug = re.match(r"cards/(.+)\.html$", card).group(1)
db = sqlite3.connect(os.path.join(site, "rdnacompat.db"))
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.tr = None; s.shim = False; s.shimtext = ""; s.h1 = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "tr" and a.get("class") == "report": s.tr = {"source": None, "report": None, "cls": None}; s.rows.append(s.tr)
        if tag == "td" and s.tr is not None and s.tr["cls"] is None: s.tr["cls"] = a.get("class", "")
        if tag == "a" and s.tr is not None and a.get("class") == "source": s.tr["source"] = a["href"]
        if tag == "a" and s.tr is not None and a.get("class") == "report-link": s.tr["report"] = a["href"]
        if tag == "ul" and a.get("id") == "shim-actions": s.shim = True
        if tag == "h1": s.h1 = ""
    def handle_endtag(s, tag):
        if tag == "tr": s.tr = None
        if tag == "ul": s.shim = False
        if tag == "h1" and s.h1 is not None: s.title = s.h1; s.h1 = None
    def handle_data(s, d):
        if s.shim: s.shimtext += d
        if s.h1 is not None: s.h1 += d
p = P(); p.feed(open(dom).read())
name, tgt = db.execute("select min(card), min(gfx_target) from reports where card_slug=?", (slug,)).fetchone()
assert p.title == name, (p.title, name)
n = db.execute("select count(*) from reports where card_slug=?", (slug,)).fetchone()[0]
assert len(p.rows) == n, (len(p.rows), n)
nsrc = nsim = 0
for r in p.rows:
    rep = os.path.normpath(os.path.join(site, "cards", r["report"]))
    assert os.path.exists(rep), rep
    text = open(rep[:-5] + ".report").read()
    m = re.search(r"^source: (.+)$", text, re.M)
    if "kind: sourced" in text:
        assert r["source"] == m.group(1), (r, m.group(1)); nsrc += 1
    else:
        assert r["source"] is None
    if "\nsimulated: yes" in text:
        assert r["cls"] == "simrun", (rep, r["cls"]); nsim += 1
    else:
        assert r["cls"] in ("works", "partial", "fails", "untested"), (rep, r["cls"])
assert nsrc > 0 and nsim > 0, (nsrc, nsim)
edge = [l.split("\t") for l in open(compat) if l.startswith(tgt + "\t")]
first = min(edge, key=lambda e: int(e[2]))[1]
assert first in p.shimtext, (first, p.shimtext)
PY
# The other cards of the same target are linked and exist.
n=0
for h in $(grep -o '<p id="same-target">.*</p>' "$T/card.dom" | grep -o 'href="[^"]*"' | sed 's/href="//; s/"$//'); do
  [ -f "$S/cards/$h" ] || fail "same-target link $h"; n=$((n + 1))
done
want=$(python3 -c "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); s=sys.argv[2].split('/')[-1][:-5]
t=db.execute('select gfx_target from reports where card_slug=?',(s,)).fetchone()[0]
print(db.execute('select count(distinct card_slug) from reports where gfx_target=? and card_slug!=?',(t,s)).fetchone()[0])" "$S/rdnacompat.db" "$card")
[ "$n" -eq "$want" ] || fail "same-target links: $n, database: $want"

# The first source link is a plain anchor to the thread's URL.
src=$(grep -o 'class="source" href="[^"]*"' "$T/card.dom" | head -1 | sed 's/.*href="//; s/"$//')
case $src in https://*) ;; *) fail "source link '$src'";; esac

# Search with JavaScript: ?q=73df filters the index.
chrome --dump-dom "file://$S/search.html?q=73df" >"$T/search-js.dom" || fail "dump-dom search"
# Without JavaScript: the whole index, with anchors.  (--dump-dom needs
# scripts, so Chromium renders a copy of the page with its script removed.)
sed '/^<script>$/,/^<\/script>$/d' "$S/search.html" >"$S/search-nojs.html"
! grep -q '<script' "$S/search-nojs.html" || fail "script not removed"
chrome --dump-dom "file://$S/search-nojs.html?q=73df" >"$T/search-nojs.dom" || fail "dump-dom search without JS"
python3 - "$T/search-js.dom" "$T/search-nojs.dom" "$S" <<'PY' || fail "search"
import html.parser, os, sqlite3, sys
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.ids = set(); s.tr = None; s.count = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if "id" in a: s.ids.add(a["id"])
        if tag == "tr" and "data-s" in a: s.tr = {"s": a["data-s"], "hidden": "hidden" in a, "links": []}; s.rows.append(s.tr)
        if tag == "a" and s.tr is not None: s.tr["links"].append(a["href"])
        if tag == "span" and a.get("id") == "count": s.count = ""
    def handle_endtag(s, tag):
        if tag == "tr": s.tr = None
        if tag == "span": s.count = None if s.count is None else s.count
    def handle_data(s, d):
        if s.count is not None: s.count += d
js, nojs = P(), P()
js.feed(open(sys.argv[1]).read()); nojs.feed(open(sys.argv[2]).read())
site = sys.argv[3]
db = sqlite3.connect(os.path.join(site, "rdnacompat.db"))
ncards = db.execute("select count(*) from cards").fetchone()[0]
assert len(js.rows) == len(nojs.rows) == ncards, (len(js.rows), len(nojs.rows), ncards)
shown = [r for r in js.rows if not r["hidden"]]
assert shown and all("73df" in r["s"] for r in shown), [r["s"] for r in shown][:5]
assert len(shown) < len(js.rows)
assert ("%d card row(s) match" % len(shown)) in (js.count or ""), js.count
assert not any(r["hidden"] for r in nojs.rows)
assert {"gfx1031", "gfx1103", "pci-1002-73df"} <= nojs.ids, "anchors"
r = [r for r in nojs.rows if "1002:73df" in r["s"]][0]
assert r["links"] and all(os.path.exists(os.path.join(site, h)) for h in r["links"]), r
PY

# Markup is never printed as escaped text (&lt;br&gt;, &amp;mdash;).
! grep -rlE '&lt;/?(br|a|td)|&amp;(mdash|times|middot);' "$S"/*.html "$S"/cards "$S"/reports ||
  fail "escaped markup on a page"

# Nothing loads from the network.
! grep -rhoE '<(script|img|link|iframe)[^>]*(src|href)="https?:' "$S"/*.html "$S"/cards "$S"/reports ||
  fail "a page loads a resource from the network"

chrome --window-size=1400,900 --screenshot="$T/compat.png" "file://$S/index.html" >/dev/null || true
chrome --window-size=1400,900 --screenshot="$T/card.png" "file://$S/$card" >/dev/null || true
chrome --window-size=1100,700 --screenshot="$T/search.png" "file://$S/search.html?q=gfx1103" >/dev/null || true
chrome --window-size=1100,700 --screenshot="$T/search-nojs.png" "file://$S/search-nojs.html#gfx1103" >/dev/null || true
for p in compat card search search-nojs; do [ -s "$T/$p.png" ] || fail "no screenshot $p.png"; done
echo "50-tools-html: ok (screenshots $T/compat.png, $T/card.png, $T/search.png)"
