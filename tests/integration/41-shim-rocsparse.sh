#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — its library is Debian 12's librocsparse0 5.2 (20-sim-rocsparse runs the roots' rocSPARSE)
# 41-shim-rocsparse.sh — Debian's librocsparse (111 bundles, gfx803..gfx1030,
# no gfx1031) on a simulated gfx1031: a handle and saxpyi work under the
# shim, its result equals the CPU's (simulated card, executed), all 111
# bundles are mapped, the kernel runs from gfx1031 code, and the
# resident memory the shim adds (against the same run with
# HSA_OVERRIDE_GFX_VERSION=10.3.0 and no shim) is at most 5% of the chosen
# code objects' size.
. "$(dirname "$0")/shim/common.sh"
[ -e /usr/lib/x86_64-linux-gnu/librocsparse.so.0 ] || skip "no librocsparse"
[ -e /usr/include/rocsparse/rocsparse.h ] || skip "no rocsparse headers"
build sparse "$S/sparse.hip" --offload-arch=gfx1030 -lrocsparse

rc=0; sim gfx1031 "$T/sparse" >"$T/sp.out" 2>"$T/sp.err" || rc=$?
[ "$rc" -ne 0 ] || fail "librocsparse ran on gfx1031 without the shim"

rm -f "$T/sp.trace" "$T/sp.json"
rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FORMAT=json RDNACOMPAT_LOG_FILE="$T/sp.json" \
  RDNACOMPAT_SIM_TRACE="$T/sp.trace" shim gfx1031 "$T/sparse" >"$T/sp.out" 2>"$T/sp.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/sp.err" "$T/sp.out" >&2; fail "rocsparse under the shim: rc=$rc"; }
grep -q "saxpyi 0 sync hipSuccess" "$T/sp.out" || fail "saxpyi: $(cat "$T/sp.out")"
grep -qx "result ok" "$T/sp.out" || fail "saxpyi's result differs from the CPU's: $(grep result "$T/sp.out")"
kernels_on "$T/sp.trace" gfx1031 || fail "trace"
grep -q axpyi_kernel "$T/sp.trace" || fail "axpyi kernel not dispatched"

rc=0; sim gfx1031 env HSA_OVERRIDE_GFX_VERSION=10.3.0 "$T/sparse" >"$T/sp.base" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "baseline with HSA_OVERRIDE_GFX_VERSION failed"

$PY - "$T/sp.json" "$T/sp.out" "$T/sp.base" <<'PYEOF' || fail "rocsparse mapping/memory"
import json, re, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
maps = [e for e in ev if e["event"] == "map" and "librocsparse" in e["lib"]]
bundles = {e["bundle"] for e in maps}
assert len(bundles) == 111, "mapped %d librocsparse bundles, want 111" % len(bundles)
assert all(e["chosen"] == "gfx1030" and e["refused"] == 0 for e in maps), "unexpected choice"
reb = [e for e in ev if e["event"] == "rebuilt" and "librocsparse" in e["lib"]]
assert len(reb) == 111 and all(e["how"] == "file-mapping" for e in reb), "not all file-mapped"
chosen = sum(e["bytes"] for e in maps)
rss = lambda f: int(re.search(r"VmRSS (\d+)", open(f).read()).group(1)) * 1024
added = rss(sys.argv[2]) - rss(sys.argv[3])
private = sum(e["private_bytes"] for e in reb)
print("chosen code objects %.1f MB; shim made private %.2f MB; RSS added %.2f MB (%.2f%%)"
      % (chosen / 1e6, private / 1e6, added / 1e6, 100.0 * added / chosen))
assert added <= 0.05 * chosen, "added RSS above 5% of the chosen code objects"
assert private <= 0.05 * chosen
PYEOF
echo "41-shim-rocsparse: ok"
