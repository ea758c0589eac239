#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/suites/run.sh BUILD [--smoke] [--jobs N] [--cards LIST] [SUITE...] —
# Debian's ROCm library test suites on simulated cards that execute the
# kernels (`make suites`; docs/SUITES.md has the results and what each
# failure is).
#
# Each tests/suites/SUITE.list names its root ("# root: rocm-6.4"), the card
# families its package has code for ("# families: rdna2 rdna3") and one
# selection a line: "BINARY GTEST_FILTER [ARG...]" (paths inside the root; a
# line starting "smoke " belongs to the small set --smoke runs, the one
# tests/integration/86-suites-smoke.sh uses); "# shim-env: VAR=VALUE..." adds
# the shim settings a suite needs on mapped cards, "# env: VAR=VALUE..." settings
# for every card of the suite, and a line may start with VAR=VALUE words of
# its own (its tests are then named "TEST (VAR=VALUE ...)" in the results, so
# one test may run in several lines).  Every line runs as one process on each
# card:
#   natively on gfx1030 (RDNA2) and gfx1100 (RDNA3): the simulator alone;
#   under the shim on gfx1031, gfx1032 (sibling gfx1030) and gfx1101, gfx1103
#   (sibling gfx1100): LD_PRELOAD=librdnacompat.so:librdnacompat-sim.so.
# "# cards: gfx1030,gfx1100 gfx1031,gfx1101 ..." gives a suite its own cards
# instead: a comma-joined entry is one simulated machine with those cards
# (RCCL's pairs; no HIP_VISIBLE_DEVICES), mapped when any of its cards is,
# and its sibling is the entry of its cards' siblings.  --cards LIST then
# keeps the entries whose cards are all in LIST; in --smoke a suite without
# a smoke line is left out.
# gtest writes each test's result (--gtest_output=json); a process that dies
# before writing it has every selected test counted failed.  rocThrust's
# programs use Thrust's own driver (no gtest: the filter is ignored, ARGs such
# as --sizes=tiny are its options); its "Totals:" line and FAILURE/ERROR
# lines give the counts.  For it an ARG --exclude=REGEX (ours, not the
# driver's) runs every test its --list names except those REGEX matches
# (grep -E): the driver selects by name or prefix, never by exclusion, and
# tests over 2^32-element index ranges (TestCountWithBigIndexes ...) run
# for hours on the interpreter.  Results:
#   BUILD/suites/results.tsv   suite release card selected passed failed skipped wall_s
#   BUILD/suites/tests.tsv     suite card test result (passed/failed/skipped) message
# Inside a root (RDC_ROOT set: tests/run-integration.sh) only that root's
# suites run, directly.  Exit 1 when a failure is not explained in tests/suites/known-failures.tsv
# (suite, test pattern, cards, reason) or when a mapped card's set of passed
# tests differs from its native sibling's; 77 when no root is built.
set -u
BUILD=$(cd "${1:?usage: tests/suites/run.sh BUILD [--smoke] [--jobs N] [--cards LIST] [SUITE...]}" && pwd); shift
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
SMOKE=0 JOBS=2 CARDS="gfx1030 gfx1100 gfx1031 gfx1032 gfx1101 gfx1103" SUITES=()
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) SMOKE=1 ;;
    --jobs) JOBS=$2; shift ;;
    --cards) CARDS=$2; shift ;;
    *) SUITES+=("$1") ;;
  esac
  shift
done
[ ${#SUITES[@]} -gt 0 ] || for f in "$HERE"/*.list; do SUITES+=("$(basename "$f" .list)"); done
SIM=$BUILD/sim/librdnacompat-sim.so SHIM=$BUILD/librdnacompat.so
[ -f "$SIM" ] && [ -f "$SHIM" ] || { echo "suites: $SIM or $SHIM not built" >&2; exit 2; }
OUT=$BUILD/suites$([ $SMOKE = 1 ] && echo -smoke)${RDC_ROOT:+-$RDC_ROOT}
rm -rf "$OUT"; mkdir -p "$OUT"
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\|RDNACOMPAT_[A-Z_0-9]*\)=.*/\1/p'); do unset "$v"; done
export XDG_CACHE_HOME=$OUT/cache

family() { case $1 in gfx103*) echo rdna2 ;; gfx11*) echo rdna3 ;; esac; }
sibling() { # CARD[,CARD...]: each card's native sibling
  local c out=
  for c in ${1//,/ }; do
    case $c in gfx1031|gfx1032) c=gfx1030 ;; gfx1101|gfx1103) c=gfx1100 ;; esac
    out=$out${out:+,}$c
  done
  echo "$out"
}
# applies FAMILIES ENTRY: every card of ENTRY is of one of FAMILIES
applies() { local c; for c in ${2//,/ }; do case " $1 " in *" $(family "$c") "*) ;; *) return 1 ;; esac; done; }
# wanted ENTRY: every card of ENTRY is in --cards
wanted() { local c; for c in ${1//,/ }; do case " $CARDS " in *" $c "*) ;; *) return 1 ;; esac; done; }

# The jobs: one per suite and card (its lines run one after another).
jobs=$OUT/jobs; : >"$jobs"; ran_any=0
for s in "${SUITES[@]}"; do
  list=$HERE/$s.list
  [ -f "$list" ] || { echo "suites: no $list" >&2; exit 2; }
  root=$(sed -n 's/^# root: *//p' "$list"); fams=$(sed -n 's/^# families: *//p' "$list")
  if [ -n "${RDC_ROOT:-}" ]; then # already inside a root (an integration test): its suites only
    [ "$RDC_ROOT" = "$root" ] || continue
  else
    "$SRC/tests/roots/path" "$root" >/dev/null 2>&1 || { echo "suites: $s: root $root not built (make roots): skipped"; continue; }
  fi
  ran_any=1
  [ $SMOKE = 1 ] && ! grep -q '^smoke ' "$list" && continue # its smoke test is elsewhere
  own=$(sed -n 's/^# cards: *//p' "$list")
  for c in ${own:-$CARDS}; do
    wanted "$c" || continue
    if applies "$fams" "$c"; then echo "$s $root $c" >>"$jobs"; else echo "$s $root $c n/a" >>"$jobs"; fi
  done
done
[ $ran_any = 1 ] || { echo "suites: no root built: skipped" >&2; exit 77; }

one() { # SUITE ROOT CARD [n/a]
  set -f # the filters are gtest patterns, not file names
  local s=$1 root=$2 card=$3 dir=$OUT/$1/$3 pre n=0 t0 t1 in=("$SRC/tests/roots/run" "$2" --)
  [ "${RDC_ROOT:-}" = "$root" ] && in=()
  mkdir -p "$dir"
  if [ "${4:-}" = n/a ]; then echo na >"$dir/na"; return; fi
  local senv=() # "# shim-env: VAR=VALUE ...": the shim's settings a suite needs on mapped cards
  local aenv=() # "# env: VAR=VALUE ...": settings for every card of the suite
  read -r -a aenv < <(sed -n 's/^# env: *//p' "$HERE/$s.list")
  if [ "$(sibling "$card")" = "$card" ]; then pre=$SIM; else
    pre=$SHIM:$SIM
    read -r -a senv < <(sed -n 's/^# shim-env: *//p' "$HERE/$s.list")
  fi
  local vis=(HIP_VISIBLE_DEVICES=0) # one card of the machine; a card set is the machine's cards
  case $card in *,*) vis=() ;; esac
  t0=$(date +%s.%N)
  while read -r first rest; do
    case $first in ''|'#'*) continue ;; esac
    if [ "$first" = smoke ]; then set -- $rest; else [ $SMOKE = 1 ] && continue; set -- $first $rest; fi
    n=$((n + 1))
    local lenv=() # the line's own VAR=VALUE words
    while [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do lenv+=("$1"); shift; done
    local bin=$1 filt=$2; shift 2
    local args=() a ex=
    for a in "$@"; do case $a in --exclude=*) ex=${a#--exclude=} ;; *) args+=("$a") ;; esac; done
    if [ -n "$ex" ]; then # Thrust's driver: the listed tests but the excluded ones, by name
      local names
      names=$("${in[@]}" env LD_PRELOAD="$SIM" RDNACOMPAT_SIM_GPUS="$(sibling "$card")" RDNACOMPAT_SIM_EXEC=0 \
        "$bin" --list 2>/dev/null | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | grep -vE "$ex")
      args+=($names)
    fi
    set -- "${args[@]}"
    "${in[@]}" env LD_PRELOAD="$pre" RDNACOMPAT_SIM_GPUS="$card" "${vis[@]}" "${aenv[@]}" "${senv[@]}" "${lenv[@]}" \
      timeout "${SUITES_TIMEOUT:-900}" "$bin" --gtest_filter="$filt" --gtest_output="json:$dir/$n.json" "$@" \
      >"$dir/$n.out" 2>&1
    echo $? >"$dir/$n.rc"
    echo "$bin" >"$dir/$n.cmd"
    [ ${#lenv[@]} -eq 0 ] || echo "${lenv[*]}" >"$dir/$n.env"
    # What the filter selects (a process that dies writes no JSON; Thrust's
    # own test driver, which rocThrust's programs use, prints "Totals:").
    [ -s "$dir/$n.json" ] || grep -q '^Totals: ' "$dir/$n.out" && continue
    "${in[@]}" env LD_PRELOAD="$SIM" RDNACOMPAT_SIM_GPUS="$(sibling "$card")" RDNACOMPAT_SIM_EXEC=0 \
      "$bin" --gtest_filter="$filt" --gtest_list_tests "$@" 2>/dev/null >"$dir/$n.list"
  done < <(grep -v '^#' "$HERE/$s.list")
  t1=$(date +%s.%N)
  echo "$t0 $t1" >"$dir/time"
}
export -f one family sibling
export OUT SIM SHIM SRC SMOKE HERE
start=$(date +%s)
xargs -P "$JOBS" -L 1 bash -c 'one "$@"' _ <"$jobs"
python3 "$HERE/summarize.py" "$OUT" "$HERE/known-failures.tsv" "$SMOKE"
rc=$?
echo "suites: $(( $(date +%s) - start )) s in all ($JOBS jobs at once); results in $OUT/results.tsv"
exit $rc
