#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shim-cache.sh [N] [BUILD] — start-up of the librocsparse program of
# bench/shim-startup.sh on the simulated card (gfx1031), the shim's decision
# cache (shim/hooks/dcache.c) cold and warm, interleaved in one run
# (bench/interleave.py), against the same run under
# HSA_OVERRIDE_GFX_VERSION=10.3.0 without the shim:
#   first     the cache directory is removed before each run: every run
#             decides the bundles HIP loads and writes the cache (a first run)
#   cached    the cache is warm (written by the checked run before timing)
#   nocache   RDNACOMPAT_CACHE=0: decides, reads and writes nothing cached
#   eager     RDNACOMPAT_LAZY=0 RDNACOMPAT_CACHE=0: all 111 bundles decided
#             at registration, as before HIP 5.2's bundles were decided at
#             the load (docs/SHIM.md, "When the shim decides")
# Every command is started through the same `sh -c 'rm -rf DIR; exec PROG'`
# (the override and the other runs remove an unused directory), so the
# wrapper's cost is the same in every column.  Defaults: N=20, BUILD=build.
set -euo pipefail
n=${1:-20}
B=$(cd "${2:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
bench_need_build "$B"
bench_need_rocsparse
prog=$(bench_sparse_run "$B")
D=$(mktemp -d); trap 'rm -rf "$D"' EXIT
common="LD_PRELOAD=$B/sim/librdnacompat-sim.so HSA_ENABLE_SDMA=0 RDNACOMPAT_SIM_GPUS=gfx1031"
shim="$common LD_PRELOAD=$B/sim/librdnacompat-sim.so:$B/librdnacompat.so"
wrap() { echo "sh -c 'rm -rf $1; exec $prog'"; }
# Checked: a cached run takes every decision it makes from the cache and
# parses nothing; an eager run decides all 111 bundles.
env $shim XDG_CACHE_HOME="$D/warm" "$prog" >/dev/null
env $shim XDG_CACHE_HOME="$D/warm" RDNACOMPAT_LOG=info RDNACOMPAT_STATS=1 RDNACOMPAT_LOG_FILE="$D/log" "$prog" >/dev/null
m=$(grep -c "info: map: lib=.*librocsparse" "$D/log" || true)
c=$(grep -c "info: map: lib=.*librocsparse.*(cached)\"$" "$D/log" || true)
[ "$m" -ge 1 ] && [ "$c" = "$m" ] && grep -q "stats: .* parsed=0 " "$D/log" ||
  { echo "cached run: $c of $m librocsparse decisions from the cache" >&2; exit 1; }
env $shim RDNACOMPAT_LAZY=0 RDNACOMPAT_CACHE=0 RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$D/elog" "$prog" >/dev/null
e=$(grep -c "info: map: lib=.*librocsparse" "$D/elog" || true)
[ "$e" = 111 ] || { echo "eager run: $e of 111 librocsparse bundles decided" >&2; exit 1; }
echo "checked: the cached run took its $m librocsparse decisions from the cache; the eager run made 111"
echo "simulated card (kernels dispatched, not executed); $(nproc) CPUs; $(date -u +%FT%TZ)"
python3 "$here/interleave.py" -n "$n" -w 1 --expect "saxpyi: launched" --base override \
  "override=$common HSA_OVERRIDE_GFX_VERSION=10.3.0 $(wrap "$D/none")" \
  "first=$shim XDG_CACHE_HOME=$D/first $(wrap "$D/first")" \
  "cached=$shim XDG_CACHE_HOME=$D/warm $(wrap "$D/none")" \
  "nocache=$shim RDNACOMPAT_CACHE=0 $(wrap "$D/none")" \
  "eager=$shim RDNACOMPAT_LAZY=0 RDNACOMPAT_CACHE=0 $(wrap "$D/none")"
