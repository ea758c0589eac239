#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# startup-work.sh [BUILD] [RELEASE...] — the work the shim adds to a
# PyTorch-sized process, counted in instructions rather than timed: the
# program of bench/startup-stack.sh (one SGEMM with the release's stack
# loaded) run once per column under valgrind's callgrind inside the Debian
# root rocm-RELEASE (default: 7.2 and 6.4).  Counts do not depend on the
# host's load, so the ratios hold on a busy 2-CPU machine where wall times
# spread by 0.85-1.25x round to round (docs/PERF.md).
#   mapped card, simulated gfx1031, against the override:
#     ovr      HSA_OVERRIDE_GFX_VERSION=10.3.0, no shim
#     first    the shim, empty decision cache (the run writes it)
#     repeat   the shim, the cache the first run wrote
#   card with its own code, simulated gfx1030, against no shim:
#     none     no shim
#     own-first  the shim, empty cache
#     own      the shim, warm cache
# Printed per column: instructions executed outside libhsa-runtime64 (its
# count is dominated by polling: its waits spin while the simulated card
# executes, and under valgrind the card is ~50x slower, so the same run gives
# 1.4 G or 10.7 G there), the shim's own, and the ratio to the column's base.
# The engine executes the same kernels in every column.  Needs the host's
# valgrind (bound into the root read-only); about 2 minutes per run.
set -euo pipefail
B=$(cd "${1:-build}" && pwd)
shift || true
rels=("$@")
[ ${#rels[@]} -gt 0 ] || rels=(7.2 6.4)
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
. "$here/common.sh"
bench_need_build "$B"
command -v valgrind >/dev/null && [ -x /usr/bin/valgrind.bin ] && [ -d /usr/libexec/valgrind ] ||
  { echo "startup-work.sh: needs the host's valgrind (apt-get install valgrind)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp /usr/bin/valgrind.bin "$tmp/valgrind"   # the launcher itself; /usr/bin/valgrind is a wrapper script
S=$B/sim/librdnacompat-sim.so
SH=$B/librdnacompat.so
for rel in "${rels[@]}"; do
  bench_stack_gemm "$B" "$rel"
  P=$B/bench/$rel/stack_gemm
  # cg NAME ENV...: one callgrind run, the program's answer checked
  cg() {
    local name=$1; shift
    RDC_ROOT_BIND=/usr/libexec/valgrind "$src/tests/roots/run" "rocm-$rel" -- env VALGRIND_LIB=/usr/libexec/valgrind \
      HSA_ENABLE_SDMA=0 AMD_COMGR_CACHE=0 "$@" "$tmp/valgrind" --tool=callgrind --compress-strings=no \
      --callgrind-out-file="$tmp/$rel.$name.cg" "$P" >"$tmp/$rel.$name.out" 2>"$tmp/$rel.$name.err" &&
      grep -q "^ok: rocblas_sgemm" "$tmp/$rel.$name.out" ||
      { tail -5 "$tmp/$rel.$name.err" >&2; echo "startup-work.sh: $rel $name: the run failed" >&2; exit 1; }
  }
  mkdir -p "$tmp/c-first" "$tmp/c-own"
  cg ovr XDG_CACHE_HOME="$tmp/c-none" HSA_OVERRIDE_GFX_VERSION=10.3.0 LD_PRELOAD="$S" RDNACOMPAT_SIM_GPUS=gfx1031
  cg first XDG_CACHE_HOME="$tmp/c-first" LD_PRELOAD="$SH:$S" RDNACOMPAT_SIM_GPUS=gfx1031
  cg repeat XDG_CACHE_HOME="$tmp/c-first" LD_PRELOAD="$SH:$S" RDNACOMPAT_SIM_GPUS=gfx1031
  cg none XDG_CACHE_HOME="$tmp/c-none" LD_PRELOAD="$S" RDNACOMPAT_SIM_GPUS=gfx1030
  cg own-first XDG_CACHE_HOME="$tmp/c-own" LD_PRELOAD="$SH:$S" RDNACOMPAT_SIM_GPUS=gfx1030
  cg own XDG_CACHE_HOME="$tmp/c-own" LD_PRELOAD="$SH:$S" RDNACOMPAT_SIM_GPUS=gfx1030
  rm -rf "$tmp/c-first" "$tmp/c-own" "$tmp/c-none"
  echo "== ROCm $rel stack + one SGEMM (simulated cards; instructions executed, callgrind)"
  python3 "$here/callgrind_work.py" "$tmp/$rel" ovr:ovr first:ovr repeat:ovr none:none own-first:none own:none
done
