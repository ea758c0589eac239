#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the ranking reads made-up reports only
# 53-db-ranking.sh BUILD — which sourced reports `cards` and `doctor` show
# for a card (tools/rdnacompat/db_lookup.c): only sourced reports of the
# card's target; the same ROCm major.minor first, then the same major, then
# the same PCI device, then a stated workaround and a quoted message, then
# the newer thread; at most three; the text and the --json output agree.
# Made-up reports in a private tables directory (RDNACOMPAT_TABLES_DIR).
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/ranking
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T"; mkdir -p "$T/tables/reports"
# rep NAME TARGET PCI ROCM REPORTED KIND WORKAROUND(y/n)
rep() {
  { echo "schema: 2"; echo "kind: $6"; echo "date: 2026-12-03"; echo "reported: $5"
    echo "source: https://example.org/$1"; echo "card: test card $1"; echo "pci_id: $3"
    echo "gfx_target: $2"; echo "rocm_version: $4"; echo "result: fails"; echo "symptom: hang: test $1"
    [ "$7" = y ] && { echo "workaround: test workaround"; echo "message: test message $1"; }
  } >"$T/tables/reports/$1.report"
}
rep a gfx1032 1002:73ff 6.4.1 2025-01-01 sourced y   # 16 + 4 + 3
rep b gfx1032 1002:73e3 6.4 2025-02-01 sourced n     # 16
rep c gfx1032 1002:73ff 6.2 2025-06-01 sourced y     # 8 + 4 + 3
rep d gfx1032 1002:73ff 5.7 2026-01-01 sourced y     # 4 + 3 (+16 for --rocm 5.7)
rep e gfx1032 1002:73ff 'not stated' 2026-06-01 sourced y   # 4 + 3
rep f gfx1031 1002:73df 6.4 2026-06-01 sourced y     # another target: never
rep g gfx1032 1002:73ff 6.4 2026-06-01 run y         # a simulated run: never
export RDNACOMPAT_TABLES_DIR=$T/tables

order() { # ROCM: the report names --json gives for the RX 6600 XT (73ff), best first
  "$R" cards --json --rocm "$1" 73ff | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join(r["report"] for r in d["cards"][0]["relevant_reports"]))'
}
got=$(order 6.4) || fail "cards --json --rocm 6.4 73ff"
[ "$got" = "a b c" ] || fail "ROCm 6.4: expected 'a b c' (major.minor, then major, then device), got '$got'"
got=$(order 5.7) || fail "cards --json --rocm 5.7 73ff"
[ "$got" = "d e c" ] || fail "ROCm 5.7: expected 'd e c' (5.7 first; ties by the newer thread), got '$got'"
got=$(order 7.2) || fail "cards --json --rocm 7.2 73ff"
[ "$got" = "e d c" ] || fail "ROCm 7.2: expected 'e d c' (no version match: device, workaround, newer), got '$got'"
# The text lists the same three, in the same order.
"$R" cards --rocm 6.4 73ff >"$T/text.out" || fail "cards --rocm 6.4 73ff"
got=$(grep -o 'https://example.org/[a-z]' "$T/text.out" | sed 's|.*/||' | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "a b c" ] || fail "text order '$got' differs from --json: $(cat "$T/text.out")"
echo "53-db-ranking: ok (ROCm 6.4: a b c; 5.7: d e c; 7.2: e d c; text = json)"
