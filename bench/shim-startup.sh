#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shim-startup.sh [N] [BUILD] — process start to exit of a librocsparse
# program (bench/sparse_run.c: handle + saxpyi, one kernel launched) on the
# simulated card (BUILD/sim, no kernel is executed), three ways, interleaved
# in one run (bench/interleave.py):
#   shim      simulated gfx1031, LD_PRELOAD=BUILD/librdnacompat.so (map mode)
#   override  simulated gfx1031, HSA_OVERRIDE_GFX_VERSION=10.3.0, no shim
#   native    simulated gfx1030, no shim (reference)
# Before timing, one checked run of each: the shim run must map all of
# librocsparse's bundles and the saxpyi kernel must be dispatched from a
# gfx1031 code object (gfx1030 for the other two), so the timed runs do the
# work being compared.  Goal: shim / override <= 1.10.
# The shim's decision cache (shim/hooks/dcache.c) lives in a temporary
# XDG_CACHE_HOME, written by the checked run: the timed shim runs are
# repeat runs (cached).  First runs and RDNACOMPAT_CACHE=0: bench/shim-cache.sh.
# Defaults: N=20, BUILD=build.
set -euo pipefail
n=${1:-20}
B=$(cd "${2:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
lib=$bench_rocsparse
bench_need_build "$B"
bench_need_rocsparse
prog=$(bench_sparse_run "$B")
common="LD_PRELOAD=$B/sim/librdnacompat-sim.so HSA_ENABLE_SDMA=0"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
shim="$common RDNACOMPAT_SIM_GPUS=gfx1031 LD_PRELOAD=$B/sim/librdnacompat-sim.so:$B/librdnacompat.so XDG_CACHE_HOME=$tmp/cache"
ovr="$common RDNACOMPAT_SIM_GPUS=gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0"
nat="$common RDNACOMPAT_SIM_GPUS=gfx1030"

# Checked runs: what each configuration really does.
env $shim RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FORMAT=json RDNACOMPAT_LOG_FILE="$tmp/log" \
  RDNACOMPAT_SIM_TRACE="$tmp/shim.trace" "$prog" >/dev/null
env $ovr RDNACOMPAT_SIM_TRACE="$tmp/ovr.trace" "$prog" >/dev/null
env $nat RDNACOMPAT_SIM_TRACE="$tmp/nat.trace" "$prog" >/dev/null
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
maps = [e for e in map(json.loads, open(d + "/log")) if e["event"] == "map" and "librocsparse" in e["lib"]]
assert len({e["bundle"] for e in maps}) == 111, "shim mapped %d bundles" % len(maps)
for run, want in (("shim", "gfx1031"), ("ovr", "gfx1030"), ("nat", "gfx1030")):
    k = [t for t in map(json.loads, open(f"{d}/{run}.trace")) if "axpyi_kernel" in t["kernel"]]
    assert len(k) == 1 and k[0]["target"] == want, (run, k)
print("checked: shim mapped 111 librocsparse bundles (%.1f MiB chosen); saxpyi dispatched from "
      "gfx1031 code (shim), gfx1030 code (override, native)" % (sum(e["bytes"] for e in maps) / 2**20))
PY
echo "simulated card (kernels dispatched, not executed); $(nproc) CPUs; $(date -u +%FT%TZ)"
python3 "$here/interleave.py" -n "$n" -w 1 --expect "saxpyi: launched" --base override \
  "shim=$shim $prog" "override=$ovr $prog" "native=$nat $prog"
