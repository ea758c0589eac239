#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — its input is Debian 12's librocsparse0 5.2 (72-inspect-dirs reads the 6.4/7.2 libraries)
# 10-inspect-rocsparse.sh BUILD — real data: Debian's librocsparse.so.0
# (111 bundles, gfx803..gfx1030).  gfx1031: 111 mapped from gfx1030;
# gfx1030: 111 native; gfx1101: 111 missing (RDNA2 code on an RDNA3 card),
# with exit codes 0, 0, 1.
set -u
build=${1:?usage: 10-inspect-rocsparse.sh BUILD}
tool="$build/bin/rdnacompat"
lib=${ROCSPARSE:-/usr/lib/x86_64-linux-gnu/librocsparse.so.0}
[ -r "$lib" ] || { echo "skip: $lib not installed (librocsparse0)" >&2; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails+1)); }

# gpu want_rc native mapped missing [extra python checks...]
expect() {
  local gpu=$1 want=$2 nat=$3 map=$4 mis=$5; shift 5
  "$tool" inspect --json --gpu "$gpu" "$lib" >"$tmp/o.json" 2>"$tmp/err"; local rc=$?
  [ $rc -eq "$want" ] || fail "$gpu: exit $rc, want $want ($(head -c 300 "$tmp/err"))"
  python3 - "$tmp/o.json" "$nat" "$map" "$mis" "$@" <<'PY' || fail "$gpu: counts or checks wrong"
import json, sys
j = json.load(open(sys.argv[1]))
s = j["summary"]
b = j["files"][0]["bundles"]
want = {"bundles": 111, "native": int(sys.argv[2]), "mapped": int(sys.argv[3]), "missing": int(sys.argv[4])}
bad = [] if s == want else ["summary %r != %r" % (s, want)]
bad += [e for e in sys.argv[5:] if not eval(e)]
for x in bad: print("  ", x, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
expect gfx1031 0 0 111 0 'all(x["chosen"] == "gfx1030" for x in b)' 'len(b) == 111' \
  'all(len(x["entries"]) == 8 for x in b)' 'all(x["offset"] > 0 for x in b)'
expect gfx1030 0 111 0 0 'all(x["verdict"] == "native" for x in b)'
expect gfx1101 1 0 0 111 'all("RDNA2" in x["reason"] and "RDNA3" in x["reason"] for x in b)' \
  'all(x["chosen"] is None and x["need"] for x in b)'

# --kernels on the mapped case: every kernel listed passed.
"$tool" inspect --json --kernels --gpu gfx1031 "$lib" >"$tmp/k.json" 2>"$tmp/err" || fail "--kernels gfx1031 failed"
python3 - "$tmp/k.json" <<'PY' || fail "--kernels: kernels missing or refused"
import json, sys
j = json.load(open(sys.argv[1]))
b = j["files"][0]["bundles"]
ks = [k for x in b for k in x["kernels"]]
sys.exit(0 if len(ks) >= 111 and all(k["ok"] for k in ks) and all(x["kernels_of"] == "gfx1030" for x in b) else 1)
PY
[ $fails -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "inspect librocsparse: ok"
