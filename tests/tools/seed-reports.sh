#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# seed-reports.sh BUILD [OUTDIR] — regenerate the seed card reports of
# tables/reports/ from real runs on the simulated GPU: small HIP programs
# (tests/integration/shim/*.hip, built for gfx1030 only) and Debian's
# librocsparse run under `rdnacompat run` on a simulated card (RDNACOMPAT_SIM_GPUS), and
# `rdnacompat report --simulated` writes what the shim decided.  The
# simulator executes the kernels and the programs compare their results with
# a CPU reference; a report still describes a simulated card, not the
# hardware: each is marked "simulated: yes".
# These are the first seed reports (host ROCm 5.2.3 only, audit mode and
# rocSPARSE included); tools/sim-reports.sh refreshes one vadd report per
# card of the database on a chosen release (host, rocm-6.4, rocm-7.2).
set -euo pipefail
B=$(cd "${1:?usage: seed-reports.sh BUILD [OUTDIR]}" && pwd)
OUT=${2:-tables/reports}
S=$(pwd)/tests/integration/shim
T=$B/seed; mkdir -p "$T"
R="$B/bin/rdnacompat"
export HSA_ENABLE_SDMA=0
hipcc --offload-arch=gfx1030 "$S/vadd.hip" -o "$T/vadd" >"$T/build.log" 2>&1
hipcc --offload-arch=gfx1030 "$S/sparse.hip" -lrocsparse -o "$T/sparse" >>"$T/build.log" 2>&1
date=$(date -u +%F)

# seed NAME GPU PCI MODE PROGRAM WORKLOAD NOTE: the result is read from the
# program's output (its "hipSuccess" status lines), not assumed.
seed() {
  local name=$1 gpu=$2 pci=$3 mode=$4 prog=$5 work=$6 note=$7 id=$2-$1
  rm -f "$T/$id.log"
  # The simulated card is set directly (RDNACOMPAT_SIM_GPUS, with the PCI
  # revision); the KFD-level simulator is preloaded before the shim.
  env LD_PRELOAD="$B/sim/librdnacompat-sim.so" RDNACOMPAT_SIM_GPUS="$gpu@${pci#1002:}" \
    timeout 120 "$R" run --mode "$mode" --log-level info --log "$T/$id.log" \
    -- "$T/$prog" >"$T/$id.out" 2>&1 || true
  local result=fails status
  grep -q 'hipSuccess' "$T/$id.out" && ! grep -q 'hipError' "$T/$id.out" && result=works
  status=$(grep -Eo '(hipSuccess|hipError[A-Za-z]+)' "$T/$id.out" | sort | uniq -c | awk '{printf "%s%s x%s", (NR>1?", ":""), $2, $1}')
  "$R" report --simulated --card "$pci" --mode "$mode" --result "$result" --no-doctor --date "$date" \
    --log "$T/$id.log" --workload "$work" \
    --notes "Simulated run (rdnacompat sim: Debian ROCm 5.2.3 on a simulated ${gpu}; kernels executed by the simulator's engine and the program's results checked against a CPU reference; this records the shim's code-object decisions on a simulated card, not hardware behaviour)." \
    --notes "HIP status lines in the program's output: ${status:-none}. $note" \
    -o "$OUT/$date-$gpu-${pci//:/}-$name.report"
}
seed vadd gfx1031 1002:73df:c1 map vadd "vadd.hip (one kernel, built for gfx1030 only)" \
  "The gfx1030 code object is mapped to gfx1031."
seed rocsparse gfx1031 1002:73df:c1 map sparse "rocsparse handle + saxpyi (Debian librocsparse0, no gfx1031 code)" \
  "Every librocsparse bundle is mapped from gfx1030."
seed audit gfx1031 1002:73df:c1 audit vadd "vadd.hip in audit mode (nothing changed)" \
  "Audit mode only logs what map mode would do: HIP aborts with hipErrorNoBinaryForGpu, the stock behaviour on this card."
seed vadd gfx1032 1002:73ff:c7 map vadd "vadd.hip (one kernel, built for gfx1030 only)" \
  "gfx1030 code mapped to gfx1032 (same RDNA2 ISA)."
seed vadd gfx1035 1002:1681 map vadd "vadd.hip (one kernel, built for gfx1030 only)" \
  "APU: gfx1030 code mapped to gfx1035."
"$R" db check --reports "$OUT"
