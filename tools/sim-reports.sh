#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/sim-reports.sh [--release REL] [--cards T,T] [--dry-run] BUILD [OUTDIR] — refresh the
# shim's own evidence: `rdnacompat report` files of runs on the SIMULATED GPU
# for the cards of the report database, one per card, marked "simulated: yes".
#
#   REL   host      this machine's ROCm (Debian 12: 5.2.3), the default
#         rocm-6.4  a Debian root of tests/roots/pins (built by `make roots`),
#         rocm-7.2  the program, the shim and the simulator run inside it
#                   through tests/roots/run
# Each card runs the workloads the release has, one report each, under
# `rdnacompat run` in map mode on a simulated card
# (RDNACOMPAT_SIM_GPUS=TARGET@DEVICE[:REV], the card's PCI id):
#   vadd       tests/integration/shim/vadd.hip, built only for the family's
#              base target (gfx1030 for RDNA2, gfx1100 for RDNA3/3.5, gfx1200
#              for RDNA4) — every release
#   rocsparse  tests/integration/progs/sim_rocsparse.c (librocsparse's own
#              code objects) — where librocsparse is installed (host 5.2)
#   rocblas    tests/integration/libs/rocblas_gemm.cpp (sgemm, hgemm,
#              strided batched sgemm; Tensile's per-arch files) — where
#              rocBLAS is installed (the 6.4/7.2 roots)
#   llama      llama-bench on a tiny random model (tests/integration/libs/
#              llama_model.py), pp16 and tg4, flash attention off and on —
#              where ggml's HIP backend is installed (the 6.4/7.2 roots)
# A run whose code sits behind an opt-in edge of the tables (the shim's log
# says "edge is opt-in") is run again with RDNACOMPAT_OPT_IN=1: a second
# report, named ...-WORKLOAD-optin.report, shows what opting in gives.
# --workloads vadd,llama limits them.  The result is read, not assumed:
# "works" when the program exits 0 (its calls and synchronize returned
# success) and the shim found code for every code object; "fails" when it
# did not.  A card the runtime did not bring up, or a
# crash although the code was in place, gets no report (with the reason):
# that would describe the simulator, not the card.  A card whose target
# the release's runtime or compiler cannot handle is skipped with the reason
# (ROCR 5.x knows gfx1030-gfx1035 only).  Kernels are not executed by the
# simulator, so a report says which code the shim chose, not that results
# were right.  The script prints which release and ROCm version it ran, and
# each report's notes say it too.
#
# OUTDIR defaults to BUILD/sim-reports (copy the files you want to keep into
# tables/reports).  --cards gfx1031,gfx1103 limits the run to those targets;
# --dry-run lists the cards and exits.  A card's report is named
# DATE-TARGET-PCI-sim-rocmVERSION-WORKLOAD.report (rocmVERSION-in-rocmRELEASE
# when the workload links another HIP than the release's).
# Exit: 0 at least one report written and all written reports valid; 1 an
# error; 77 the release cannot run here (root not built).
set -euo pipefail
rel=host dry=0 only= wls=
while [ $# -gt 0 ]; do
  case $1 in
    --release) rel=${2:?--release needs a value}; shift 2;;
    --workloads) wls=,${2:?--workloads needs a list},; shift 2;;
    --cards) only=,${2:?--cards needs a list},; shift 2;;
    --dry-run) dry=1; shift;;
    -h|--help) sed -n '3,44p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
    *) break;;
  esac
done
B=$(cd "${1:?usage: tools/sim-reports.sh [--release REL] [--dry-run] BUILD [OUTDIR]}" && pwd)
OUT=${2:-$B/sim-reports}
SRC=$(cd "$(dirname "$0")/.." && pwd)
R="$B/bin/rdnacompat"
T=$B/sim-reports-work/$rel
mkdir -p "$T" "$OUT"
OUT=$(cd "$OUT" && pwd)

# The cards: TARGET PCI(vendor:device:revision) BASE-TARGET NAME
cards=(
  "gfx1031 1002:73df:c1 gfx1030 rx6700xt"
  "gfx1032 1002:73ff:c7 gfx1030 rx6600"
  "gfx1035 1002:1681 gfx1030 680m"
  "gfx1036 1002:164e gfx1030 610m"
  "gfx1101 1002:747e:c8 gfx1100 rx7800xt"
  "gfx1102 1002:7480:cf gfx1100 rx7600"
  "gfx1103 1002:15bf gfx1100 780m"
  "gfx1150 1002:150e gfx1100 890m"
  "gfx1151 1002:1586 gfx1100 8060s"
  "gfx1201 1002:7550:c0 gfx1200 rx9070xt"
)
if [ -n "$only" ]; then
  keep=()
  for c in "${cards[@]}"; do [[ $only == *,${c%% *},* ]] && keep+=("$c"); done
  [ ${#keep[@]} -gt 0 ] || { echo "sim-reports: no card matches --cards ${only//,/ }" >&2; exit 1; }
  cards=("${keep[@]}")
fi
if [ $dry -eq 1 ]; then printf '%s\n' "${cards[@]}"; exit 0; fi

# on_rel CMD...: run CMD on the chosen release.  sim_env: the simulated GPU
# is the preloaded KFD-level simulator (sim/librdnacompat-sim.so: /dev/kfd,
# render nodes and sysfs, below any ROCm's thunk), and the shim comes after
# it.  The card is set with RDNACOMPAT_SIM_GPUS itself rather than
# `run --gpu`, so the PCI revision picks the exact card.
[ -f "$B/sim/librdnacompat-sim.so" ] || { echo "sim-reports: $B/sim/librdnacompat-sim.so missing (make)" >&2; exit 1; }
sim_env=(env "LD_PRELOAD=$B/sim/librdnacompat-sim.so")
case $rel in
  host) on_rel() { "$@"; };;
  rocm-*)
    "$SRC/tests/roots/path" "$rel" >/dev/null || { echo "sim-reports: root $rel is not built (make roots)" >&2; exit 77; }
    on_rel() { "$SRC/tests/roots/run" "$rel" -- "$@"; };;
  *) echo "sim-reports: unknown release '$rel' (host, rocm-6.4, rocm-7.2)" >&2; exit 1;;
esac

distro=$(on_rel sh -c '. /etc/os-release && echo "$PRETTY_NAME"')

# wl_on NAME: the workload was not excluded by --workloads.
wl_on() { [ -z "$wls" ] || [[ $wls == *,$1,* ]]; }

# Build vadd for each base target the release's compiler accepts.
export HSA_ENABLE_SDMA=0
declare -A built=()
for base in gfx1030 gfx1100 gfx1200; do
  if on_rel hipcc --offload-arch=$base "$SRC/tests/integration/shim/vadd.hip" -o "$T/vadd-$base" \
       >"$T/build-$base.log" 2>&1; then
    built[$base]=1
  else
    echo "sim-reports: this release's hipcc cannot build for $base ($(tail -1 "$T/build-$base.log"))"
  fi
done

# Which ROCm this release is: the HIP runtime the built program links, and
# its package version (what `rdnacompat report` reads can differ where a
# root has two HIP runtimes installed: then the report is corrected).
# hip_of FILE: sets hiplib, hippkg, hipver and ver for the HIP runtime FILE
# links (ggml's HIP backend links HIP 6.4 even in the 7.2 root, so each
# workload's report names the runtime that workload really ran on).
# Asked once per file (three processes in the root each time), then kept.
declare -A hip_known=()
hip_of() {
  if [ -n "${hip_known[$1]:-}" ]; then
    IFS='|' read -r hiplib hippkg hipver ver <<<"${hip_known[$1]}"
    return
  fi
  hiplib=$(on_rel sh -c "ldd '$1' | awk '/libamdhip64/ {print \$3; exit}'")
  hippkg=$(on_rel sh -c "dpkg -S \"\$(readlink -f '$hiplib')\" 2>/dev/null | cut -d: -f1 | head -1")
  hipver=$(on_rel dpkg-query -W -f '${Version}' "$hippkg" 2>/dev/null || true)
  ver=$(echo "$hipver" | sed 's/^[0-9]*://; s/[-+~].*//')
  [ -n "$ver" ] || { echo "sim-reports: cannot tell the HIP runtime version of $1 ($hiplib)" >&2; exit 1; }
  hip_known[$1]="$hiplib|$hippkg|$hipver|$ver"
}
prog=$(ls "$T"/vadd-gfx* 2>/dev/null | head -1)
[ -n "$prog" ] || { echo "sim-reports: vadd did not build for any target on $rel" >&2; exit 1; }
hip_of "$prog"
relver=$ver
echo "sim-reports: release $rel: $distro, ROCm $ver (the program links $hiplib, package $hippkg $hipver)"

# The library workloads this release has (each prepared once).
declare -A have=()
wl_on vadd && have[vadd]=1
if wl_on rocsparse && on_rel sh -c 'ls /usr/lib/x86_64-linux-gnu/librocsparse.so* 2>/dev/null | grep -q .' &&
   on_rel cc -O1 -o "$T/sim_rocsparse" "$SRC/tests/integration/progs/sim_rocsparse.c" -lrocsparse -lamdhip64 \
     >"$T/build-rocsparse.log" 2>&1; then
  have[rocsparse]=1
fi
if wl_on rocblas && on_rel sh -c 'ls /usr/lib/x86_64-linux-gnu/librocblas.so* 2>/dev/null | grep -q .' &&
   on_rel hipcc -O1 -o "$T/rocblas_gemm" "$SRC/tests/integration/libs/rocblas_gemm.cpp" -lrocblas \
     >"$T/build-rocblas.log" 2>&1; then
  have[rocblas]=1
fi
if wl_on llama && on_rel sh -c 'command -v llama-bench && ls /usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so && python3 -c "import gguf, numpy"' \
     >/dev/null 2>&1 &&
   on_rel python3 "$SRC/tests/integration/libs/llama_model.py" "$T/tiny.gguf" >"$T/build-llama.log" 2>&1; then
  have[llama]=1
  ggml_hip=/usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so
  hip_of "$ggml_hip"
  [ "$ver" = "$relver" ] || echo "sim-reports: note: ggml's HIP backend links $hippkg $hipver, not the release's HIP: its reports say ROCm $ver"
fi
echo "sim-reports: workloads on $rel: $(for w in vadd rocsparse rocblas llama; do [ -n "${have[$w]:-}" ] && printf "%s " $w; done)"

date=$(date -u +%F)
n=0 bad=0

# workload WL BASE: the program line and the report's workload text.
workload() {
  case $1 in
    vadd) cmd=("$T/vadd-$2"); runs_on=${cmd[0]}; what="vadd.hip (one kernel, built for $2 only)";;
    rocsparse) cmd=("$T/sim_rocsparse"); runs_on=${cmd[0]}; what="librocsparse (tests/integration/progs/sim_rocsparse.c: the library's own code objects)";;
    rocblas) cmd=("$T/rocblas_gemm"); runs_on=${cmd[0]}; what="rocBLAS sgemm, hgemm and strided batched sgemm, n=128 (Tensile's per-arch files and code objects)";;
    llama) cmd=(llama-bench -m "$T/tiny.gguf" -p 16 -n 4 -r 1 -fa 0,1); runs_on=$ggml_hip
           what="llama-bench (ggml HIP backend), tiny random llama model, pp16 and tg4, flash attention off and on";;
  esac
}

# report_one GPU PCI BASE NAME WL [optin]: run WL on the simulated card
# under the shim and write its report (or say why there is none).  With
# "optin" the run sets RDNACOMPAT_OPT_IN=1 (what the shim's log tells the
# owner of an opt-in card to set) and the report says so.
report_one() {
  local gpu=$1 pci=$2 base=$3 name=$4 wl=$5 optin=${6:-}
  local id=$gpu-$name-$wl${optin:+-optin} vd prc=0 nocode=0 result how out status f said
  local envs=("RDNACOMPAT_SIM_GPUS=$gpu@${pci#1002:}")
  workload "$wl" "$base"
  hip_of "$runs_on"
  [ -n "$optin" ] && { envs+=(RDNACOMPAT_OPT_IN=1); what="$what, with RDNACOMPAT_OPT_IN=1"; }
  vd=$(echo "$pci" | cut -d: -f1,2)
  rm -f "$T/$id.log"
  on_rel "${sim_env[@]}" "${envs[@]}" timeout 300 "$R" run --mode map --log-level info --log "$T/$id.log" \
    -- "${cmd[@]}" >"$T/$id.out" 2>&1 || prc=$?
  # Did HIP reach the simulated card?  The shim logs each device it sees.
  if ! grep -q "info: device: device=0 .*target=$gpu " "$T/$id.log" 2>/dev/null; then
    echo "sim-reports: $gpu $wl: no report: the runtime did not bring up the simulated card (last line: $(tail -1 "$T/$id.out"))"
    bad=$((bad + 1)); return
  fi
  # The result: the programs exit 0 only when their calls and synchronize
  # returned success, but a launch without code is not always reported
  # there (HIP 6.x loads lazily), so a code object the shim found no code
  # for, or refused, makes it "fails" too.  A crash with code in place is
  # left out: it would describe the simulator or the runtime, not the card.
  grep -qE 'verdict=(missing|refused)' "$T/$id.log" && nocode=1
  if [ $prc -gt 1 ] && [ $nocode -eq 0 ]; then
    echo "sim-reports: $gpu $wl: no report: the program ended with status $prc although the shim found code for it (last line: $(tail -1 "$T/$id.out"))"
    bad=$((bad + 1)); return
  fi
  result=fails
  [ $prc -eq 0 ] && [ $nocode -eq 0 ] && result=works
  how="exit $prc"
  [ $prc -gt 128 ] && how="killed by signal $((prc - 128))"
  case $wl in
    vadd) out=$(grep -E '^(device0|launch) ' "$T/$id.out" | tr '\n' ';' | sed 's/;$//; s/;/; /g' || true);;
    rocblas) out=$(grep -E '^(device|ok|rocblas error|hip error):' "$T/$id.out" | tr '\n' ';' | sed 's/;$//; s/;/; /g' || true);;
    llama) out=$(grep -cE '^\| llama .*\| +(pp16|tg4) \| ' "$T/$id.out" || true)
           out="$out of 4 llama-bench rows (pp16/tg4 x fa 0/1)$(grep -m1 -E 'ROCm error|GGML_ASSERT' "$T/$id.out" | sed 's/^ */; /' || true)";;
    *) out=$(tail -1 "$T/$id.out");;
  esac
  status="${out:-nothing on stdout} ($how)"
  [ $nocode -eq 1 ] && status="$status; the shim found no usable code for a code object (see missing/refused)"
  # (ggml in the 7.2 root runs on HIP 6.4 over 7.2's ROCR: named for both)
  local tag=rocm$ver; [ "$ver" = "$relver" ] || tag=rocm$ver-in-rocm$relver
  f="$OUT/$date-$gpu-${vd//:/}-sim-$tag-$wl${optin:+-optin}.report"
  if ! on_rel "$R" report --simulated --card "$pci" --mode map --result "$result" --no-doctor --date "$date" \
    --log "$T/$id.log" --workload "$what" \
    --notes "Simulated run (tools/sim-reports.sh --release $rel: $distro, ROCm $ver$([ "$ver" = "$relver" ] || echo " (the HIP runtime this workload links; the release is $relver)"), on a simulated $gpu; kernels are not executed, so this records the shim's code-object decisions, not numerical results)." \
    --notes "Program output: $status." \
    -o "$f" >"$T/$id.report.err" 2>&1; then
    echo "sim-reports: $gpu $wl: no report: $(tail -1 "$T/$id.report.err") (run output: $T/$id.out)"
    bad=$((bad + 1)); return
  fi
  said=$(sed -n 's/^rocm_version: //p' "$f")
  if [ "$said" != "$ver" ]; then
    echo "sim-reports: note: rdnacompat report read ROCm $said, but the program links $hippkg $hipver: the report says $ver"
    sed -i "s/^rocm_version: .*/rocm_version: $ver/; s|^rocm_source: .*|rocm_source: dpkg package $hippkg $hipver (the HIP runtime the program links)|" "$f"
  fi
  echo "sim-reports: $gpu $wl${optin:+ (opt-in)}: $result -> $f"
  n=$((n + 1))
  # A card whose code is behind an opt-in edge: also what opting in gives.
  if [ -z "$optin" ] && grep -q 'edge is opt-in' "$T/$id.log"; then
    report_one "$gpu" "$pci" "$base" "$name" "$wl" optin
  fi
}

for c in "${cards[@]}"; do
  read -r gpu pci base name <<<"$c"
  if [[ $ver == 5.* ]] && [[ $gpu != gfx103[0-5] ]]; then
    echo "sim-reports: $gpu: skipped (ROCR $ver knows gfx1030-gfx1035 only)"; continue
  fi
  for wl in vadd rocsparse rocblas llama; do
    [ -n "${have[$wl]:-}" ] || continue
    if [ $wl = vadd ] && [ -z "${built[$base]:-}" ]; then
      echo "sim-reports: $gpu vadd: skipped (no $base build of vadd on this release)"; continue
    fi
    report_one "$gpu" "$pci" "$base" "$name" "$wl"
  done
done
[ $n -gt 0 ] || { echo "sim-reports: no report written" >&2; exit 1; }
[ $bad -eq 0 ] || echo "sim-reports: $bad run(s) without a report (see above)"
"$R" db check --reports "$OUT"
echo "sim-reports: $n report(s) for release $rel (ROCm $relver) in $OUT"
