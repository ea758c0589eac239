#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — Debian packages RCCL's unit tests for 7.2 only (librccl1-tests, experimental)
# 88-rccl-smoke.sh BUILD — Debian's RCCL unit tests (rccl-UnitTests), one
# AllReduce (float, sum) on two simulated cards (executed), as Debian's
# run-tests runs them (HSA_FORCE_FINE_GRAIN_PCIE=1, RCCL's own transport
# choice): the native gfx1030 + gfx1100 pair and the mapped gfx1031 +
# gfx1101 pair under the shim, one process for both ranks
# (UT_PROCESS_MASK=1) and one process per rank (=2).  The mapped pair must
# pass as the native pair does; the transport RCCL chose (P2P, SHM) is
# printed.  The binary is the root's /usr/libexec/rocm/librccl1-tests/
# (tests/roots/pins: librccl1-tests 7.2.4-1~exp3) or RDC_RCCL_TESTS=DIR;
# without either the test skips.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
SHIM="$BUILD/librdnacompat.so"
dir=${RDC_RCCL_TESTS:-/usr/libexec/rocm/librccl1-tests}
ut=$dir/rccl-UnitTests
[ -x "$ut" ] || skip "no $ut: librccl1-tests is not installed in ${RDC_ROOT:-this root} (tests/roots/pins does not list it; or set RDC_RCCL_TESTS)"
[ -f "$SHIM" ] || skip "shim not built"

# smoke LABEL MASK ENV...: the AllReduce passes; prints the transport.  UT_DATATYPES takes the
# test program's names (ncclFloat32; an unknown name such as "float" falls back to its default list).
smoke() {
  local label=$1 mask=$2; shift 2
  local out rc
  out=$(SIM_TIMEOUT=100 sim HSA_FORCE_FINE_GRAIN_PCIE=1 NCCL_DEBUG=INFO UT_MIN_GPUS=2 UT_MAX_GPUS=2 \
    UT_DATATYPES=ncclFloat32 UT_REDOPS=sum UT_PROCESS_MASK=$mask "$@" -- "$ut" --gtest_filter=AllReduce.OutOfPlace 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -q '^\[  PASSED  \] 1 test' || fail "$label: rc=$rc: $(echo "$out" | tail -25)"
  local via
  via=$(echo "$out" | sed -n 's/.* via \([A-Z]*\)\/.*/\1/p' | sort -u | tr '\n' ' ')
  echo "ok: $label: AllReduce (float, sum) passed; RCCL's transport: ${via:-?}(simulated cards (executed))"
}
for mask in 1 2; do
  how=$([ $mask = 1 ] && echo "one process" || echo "one process per rank")
  smoke "gfx1030 + gfx1100 native, $how" $mask RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100
  smoke "gfx1031 + gfx1101 under the shim, $how" $mask RDNACOMPAT_SIM_GPUS=gfx1031,gfx1101 LD_PRELOAD="$SHIM"
done
