#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — Debian packages RCCL's unit tests for 7.2 only (librccl1-tests, experimental)
# 88-rccl-smoke.sh BUILD — Debian's RCCL unit tests (rccl-UnitTests), one
# AllReduce (float, sum) on two simulated cards (executed), as Debian's
# run-tests runs them (HSA_FORCE_FINE_GRAIN_PCIE=1, RCCL's own transport
# choice): the native gfx1030 + gfx1100 pair and the mapped gfx1031 +
# gfx1101 pair under the shim, one process for both ranks
# (UT_PROCESS_MASK=1) and one process per rank (=2).  The mapped pair must
# pass as the native pair does, over the same transport, and RCCL's choice
# (its "via P2P/..." or "via SHM/..." lines) must be the one a real machine
# of that shape gets:
#   - the simulator's default machine (the cards behind one PCIe switch, KFD
#     peer links, large BAR: RDNACOMPAT_SIM_PCI=switch, RDNACOMPAT_SIM_P2P=on):
#     P2P, through direct pointers in one process and IPC across processes;
#   - a kernel that makes no peer links (RDNACOMPAT_SIM_P2P=off, so
#     hipDeviceCanAccessPeer is 0): SHM;
#   - each card on its own CPU root port (RDNACOMPAT_SIM_PCI=root): the GPUs
#     meet at the CPU (PHB), which RCCL takes for P2P on an AMD host CPU and
#     not on an Intel one (rccl src/graph/paths.cc ncclTopoCheckP2p; the
#     host's own CPUID decides).
# The binary is the root's /usr/libexec/rocm/librccl1-tests/
# (tests/roots/pins: librccl1-tests 7.2.4-1~exp3) or RDC_RCCL_TESTS=DIR;
# without either the test skips.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
SHIM="$BUILD/librdnacompat.so"
dir=${RDC_RCCL_TESTS:-/usr/libexec/rocm/librccl1-tests}
ut=$dir/rccl-UnitTests
[ -x "$ut" ] || skip "no $ut: librccl1-tests is not installed in ${RDC_ROOT:-this root} (tests/roots/pins does not list it; or set RDC_RCCL_TESTS)"
[ -f "$SHIM" ] || skip "shim not built"

# smoke LABEL MASK WANT ENV...: the AllReduce passes and every channel RCCL connected is via WANT
# (P2P, SHM).  UT_DATATYPES takes the test program's names (ncclFloat32; an unknown name such as
# "float" falls back to its default list).
smoke() {
  local label=$1 mask=$2 want=$3; shift 3
  local out rc
  out=$(SIM_TIMEOUT=100 sim HSA_FORCE_FINE_GRAIN_PCIE=1 NCCL_DEBUG=INFO UT_MIN_GPUS=2 UT_MAX_GPUS=2 \
    UT_DATATYPES=ncclFloat32 UT_REDOPS=sum UT_PROCESS_MASK=$mask "$@" -- "$ut" --gtest_filter=AllReduce.OutOfPlace 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -q '^\[  PASSED  \] 1 test' || fail "$label: rc=$rc: $(echo "$out" | tail -25)"
  local via how
  via=$(echo "$out" | sed -n 's/.* via \([A-Z0-9]*\)\/.*/\1/p' | sort -u | tr '\n' ' ')
  how=$(echo "$out" | sed -n 's/.* via \(.*\) comm .*/\1/p' | sort -u | tr '\n' ',')
  [ "$via" = "$want " ] || fail "$label: RCCL connected via '${via:-nothing}', want $want: $(echo "$out" | grep -E ' via |P2P|isAllDirectP2p' | head -8)"
  echo "ok: $label: AllReduce (float, sum) passed; RCCL's transport: ${how%,} (simulated cards (executed))"
}
for mask in 1 2; do
  how=$([ $mask = 1 ] && echo "one process" || echo "one process per rank")
  for p2p in on off; do
    want=$([ $p2p = on ] && echo P2P || echo SHM)
    smoke "gfx1030 + gfx1100 native, $how, RDNACOMPAT_SIM_P2P=$p2p" $mask $want \
      RDNACOMPAT_SIM_P2P=$p2p RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100
    smoke "gfx1031 + gfx1101 under the shim, $how, RDNACOMPAT_SIM_P2P=$p2p" $mask $want \
      RDNACOMPAT_SIM_P2P=$p2p RDNACOMPAT_SIM_GPUS=gfx1031,gfx1101 LD_PRELOAD="$SHIM"
  done
done
# The 780M (gfx1103) next to a gfx1101: Debian's librccl has no gfx1102
# code; its gfx1101 entry is mapped with the kernels gfx1103's smaller VGPR
# file cannot run held (36 msccl LL128 kernels), and RCCL runs on the rest.
for mask in 1 2; do
  how=$([ $mask = 1 ] && echo "one process" || echo "one process per rank")
  smoke "gfx1103 + gfx1101 under the shim (kernels held on gfx1103), $how" $mask P2P \
    RDNACOMPAT_SIM_GPUS=gfx1103,gfx1101 LD_PRELOAD="$SHIM"
done
vendor=$(sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo | head -1)
case $vendor in
  GenuineIntel) want=SHM ;;
  AuthenticAMD) want=P2P ;;
  *) want= ;;
esac
if [ -n "$want" ]; then
  smoke "gfx1030 + gfx1100 native on root ports of their own (PHB), $vendor host, one process" 1 $want \
    RDNACOMPAT_SIM_PCI=root RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100
fi
