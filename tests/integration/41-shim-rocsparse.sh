#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — its library is Debian 12's librocsparse0 5.2 (20-sim-rocsparse runs the roots' rocSPARSE)
# 41-shim-rocsparse.sh — Debian's librocsparse (111 bundles, gfx803..gfx1030,
# no gfx1031) on a simulated gfx1031: a handle and saxpyi work under the
# shim, its result equals the CPU's (simulated card, executed), the kernel
# runs from gfx1031 code.  All 111 bundles get their gfx1031 entry at
# registration (HIP 5.2 aborts otherwise), but only those whose code HIP
# loads are decided, logged and retargeted (docs/SHIM.md, "When the shim
# decides": defer.c); with RDNACOMPAT_LAZY=0 all 111 are, at registration.
# The resident memory the shim adds (against the same run with
# HSA_OVERRIDE_GFX_VERSION=10.3.0 and no shim) is at most 5% of the 111
# chosen code objects' size either way.
. "$(dirname "$0")/shim/common.sh"
[ -e /usr/lib/x86_64-linux-gnu/librocsparse.so.0 ] || skip "no librocsparse"
[ -e /usr/include/rocsparse/rocsparse.h ] || skip "no rocsparse headers"
build sparse "$S/sparse.hip" --offload-arch=gfx1030 -lrocsparse

rc=0; sim gfx1031 "$T/sparse" >"$T/sp.out" 2>"$T/sp.err" || rc=$?
[ "$rc" -ne 0 ] || fail "librocsparse ran on gfx1031 without the shim"

for how in lazy eager; do
  rm -f "$T/sp.trace" "$T/$how.json"
  lazy=1; [ "$how" = lazy ] || lazy=0
  rc=0; RDNACOMPAT_LAZY=$lazy RDNACOMPAT_STATS=1 RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FORMAT=json \
    RDNACOMPAT_LOG_FILE="$T/$how.json" RDNACOMPAT_SIM_TRACE="$T/sp.trace" \
    shim gfx1031 "$T/sparse" >"$T/$how.out" 2>"$T/sp.err" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$T/sp.err" "$T/$how.out" >&2; fail "$how: rocsparse under the shim: rc=$rc"; }
  grep -q "saxpyi 0 sync hipSuccess" "$T/$how.out" || fail "$how: saxpyi: $(cat "$T/$how.out")"
  grep -qx "result ok" "$T/$how.out" ||
    fail "$how: saxpyi's result differs from the CPU's: $(grep result "$T/$how.out")"
  kernels_on "$T/sp.trace" gfx1031 || fail "$how: trace"
  grep -q axpyi_kernel "$T/sp.trace" || fail "$how: axpyi kernel not dispatched"
done

rc=0; sim gfx1031 env HSA_OVERRIDE_GFX_VERSION=10.3.0 "$T/sparse" >"$T/sp.base" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "baseline with HSA_OVERRIDE_GFX_VERSION failed"

$PY - "$T/lazy.json" "$T/eager.json" "$T/lazy.out" "$T/eager.out" "$T/sp.base" <<'PYEOF' || fail "rocsparse mapping/memory"
import json, re, sys
def events(f):
    return [json.loads(l) for l in open(f)]
def of(ev, name):
    return [e for e in ev if e["event"] == name and "librocsparse" in e.get("lib", "")]
lazy, eager = events(sys.argv[1]), events(sys.argv[2])
# eager: every bundle decided and retargeted at registration
maps = of(eager, "map")
assert len({e["bundle"] for e in maps}) == 111, "eager: mapped %d bundles, want 111" % len(maps)
assert all(e["chosen"] == "gfx1030" and e["refused"] == 0 for e in maps), "eager: unexpected choice"
reb = of(eager, "rebuilt")
assert len(reb) == 111 and all(e["how"] == "file-mapping" and "decided" not in e for e in reb), \
    "eager: not all rebuilt by file mapping at registration"
# lazy: every bundle gets its entry, only the loaded ones are decided
lmaps, lreb, lret = of(lazy, "map"), of(lazy, "rebuilt"), of(lazy, "retargeted")
assert len(lreb) == 111 and all(e.get("decided") == "at-load" for e in lreb), \
    "lazy: %d of 111 bundles left to the load" % sum(e.get("decided") == "at-load" for e in lreb)
used = {e["bundle"] for e in lmaps}
assert 1 <= len(used) < 10, "lazy: %d bundles decided, want the used ones only" % len(used)
assert {e["bundle"] for e in lret} == used and all(e["how"] == "patched-at-load" for e in lret), \
    "lazy: the decided bundles are not the ones patched at the load"
assert all(e["chosen"] == "gfx1030" and e["refused"] == 0 for e in lmaps), "lazy: unexpected choice"
st = [e for e in lazy if e["event"] == "stats"][-1]
assert (st["deferred"], st["parsed"], st["retargeted"]) == (111, len(used), len(used)), \
    "lazy: stats %r" % st
# the library file is opened once for its 111 registrations (hook_fatbin.c
# keeps it between them), once more per bundle decided at the load, and
# once for each other file with a bundle (the program, HIP's own)
assert st["files_opened"] <= 111 // 10 + len(used), "lazy: %d library files opened" % st["files_opened"]
chosen = sum(e["bytes"] for e in maps)
rss = lambda f: int(re.search(r"VmRSS (\d+)", open(f).read()).group(1)) * 1024
base = rss(sys.argv[5])
for how, out, rb in (("lazy", sys.argv[3], lreb), ("eager", sys.argv[4], reb)):
    added = rss(out) - base
    private = sum(e["private_bytes"] for e in rb)
    print("%s: chosen code objects %.1f MB; shim made private %.2f MB; RSS added %.2f MB (%.2f%%)"
          % (how, chosen / 1e6, private / 1e6, added / 1e6, 100.0 * added / chosen))
    assert added <= 0.05 * chosen, how + ": added RSS above 5% of the chosen code objects"
    assert private <= 0.05 * chosen
print("lazy: %d of 111 bundles decided (the ones HIP loaded)" % len(used))
PYEOF
echo "41-shim-rocsparse: ok"
