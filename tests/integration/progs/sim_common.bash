# SPDX-License-Identifier: MIT
# sim_common.bash — sourced by tests/integration/20-sim-*.sh (not a test
# itself).  Needs BUILD (absolute build dir, the tests' $1).  Provides:
#   SIM               the simulator, $BUILD/sim/librdnacompat-sim.so
#   OUT               $BUILD/sim-tests/ROCM-RELEASE, where test programs are
#                     built (one per release: a 6.4 program links
#                     libamdhip64.so.6, which the host does not have)
#   sim  ENV... -- CMD   run CMD on the simulator (preloaded first, before any
#                        LD_PRELOAD=... among ENV; timeout SIM_TIMEOUT, default
#                        120 s, so a hang fails)
#   simrocminfo ENV...   rocminfo on the simulator (no helpers: its lsmod and
#                        /dev/kfd pre-checks are answered by the simulator)
#   build_hip NAME ARCH  hipcc tests/integration/progs/NAME.hip -> $OUT/NAME-ARCH
#   fail MSG / skip MSG
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SIM="$BUILD/sim/librdnacompat-sim.so"
OUT="$BUILD/sim-tests/${RDC_ROCM:-5.2}"
mkdir -p "$OUT"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

[ -f "$SIM" ] || skip "simulator not built ($SIM)"
[ -e /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1 ] || skip "Debian's libhsa-runtime64-1 not installed"

# The thunk-free environment every run starts from: no stray overrides.
clean_env() {
  env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\)=.*/\1/p; s/^\(RDNACOMPAT_SIM_[A-Z_]*\)=.*/\1/p'
}
for v in $(clean_env); do unset "$v"; done

sim() { # ENV... -- CMD ARGS...
  local envs=() pre="$SIM"
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in LD_PRELOAD=*) pre="$SIM:${1#LD_PRELOAD=}" ;; *) envs+=("$1") ;; esac
    shift
  done
  shift
  env "${envs[@]}" LD_PRELOAD="$pre" timeout "${SIM_TIMEOUT:-120}" "$@"
}

simrocminfo() { # ENV...
  command -v rocminfo >/dev/null || skip "rocminfo not installed"
  sim "$@" -- rocminfo
}

build_hip() { # NAME ARCH [w64: built for wave64, -mwavefrontsize64]
  command -v hipcc >/dev/null || skip "hipcc not installed"
  local src="$here/$1.hip" exe="$OUT/$1-$2${3:+-$3}" flags=()
  [ "${3:-}" = w64 ] && flags=(-mwavefrontsize64)
  if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
    hipcc --offload-arch="$2" "${flags[@]}" -O1 -o "$exe.tmp" "$src" || fail "hipcc $1 for $2 ${flags[*]}"
    mv "$exe.tmp" "$exe"
  fi
  echo "$exe"
}
