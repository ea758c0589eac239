#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shim-ranks.sh [N] [BUILD] — a job's start-up as torchrun makes it: eight
# ranks of the librocsparse program of shim-startup.sh (bench/sparse_run.c)
# started at once on the simulated gfx1031, timed from the first start to
# the last exit, interleaved (bench/interleave.py):
#   shim-cold  LD_PRELOAD=librdnacompat.so, the cache directory emptied
#              before each job (all eight decide; those that finish last
#              merge and write)
#   shim-warm  the same with the cache the previous job left
#   override   HSA_OVERRIDE_GFX_VERSION=10.3.0, no shim
# Each job must print "saxpyi: launched" eight times (else it fails).  Goal (issue 36):
# shim / override <= 1.10.  Defaults: N=5, BUILD=build.
set -euo pipefail
n=${1:-5}
B=$(cd "${2:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
bench_need_build "$B"
bench_need_rocsparse
prog=$(bench_sparse_run "$B")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# job.sh CACHE-MODE: eight ranks at once; each rank's line, in order.
cat >"$tmp/job.sh" <<EOF
#!/usr/bin/env bash
[ "\$1" = cold ] && rm -rf "$tmp/cache"
for i in 0 1 2 3 4 5 6 7; do "$prog" >"$tmp/out.\$i" & done
wait
cat "$tmp"/out.[0-7]
[ "\$(cat "$tmp"/out.[0-7] | grep -c 'saxpyi: launched')" = 8 ]
EOF
chmod +x "$tmp/job.sh"
sim="LD_PRELOAD=$B/sim/librdnacompat-sim.so HSA_ENABLE_SDMA=0 RDNACOMPAT_SIM_GPUS=gfx1031"
shim="LD_PRELOAD=$B/sim/librdnacompat-sim.so:$B/librdnacompat.so HSA_ENABLE_SDMA=0 RDNACOMPAT_SIM_GPUS=gfx1031 XDG_CACHE_HOME=$tmp/cache"
echo "simulated card (kernels dispatched, not executed); $(nproc) CPUs; 8 ranks a job; $(date -u +%FT%TZ)"
python3 "$here/interleave.py" -n "$n" -w 1 --expect "saxpyi: launched" --base override \
  "shim-cold=$shim $tmp/job.sh cold" "shim-warm=$shim $tmp/job.sh warm" \
  "override=$sim HSA_OVERRIDE_GFX_VERSION=10.3.0 $tmp/job.sh -"
