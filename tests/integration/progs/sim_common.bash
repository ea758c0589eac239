# SPDX-License-Identifier: MIT
# sim_common.bash — sourced by tests/integration/20-sim-*.sh (not a test
# itself).  Needs BUILD (absolute build dir, the tests' $1).  Provides:
#   SIMLIB            directory holding the simulated libhsakmt.so.1
#   OUT               $BUILD/sim-tests, where test programs are built
#   sim  ENV... -- CMD   run CMD on the simulator (timeout 120 s, so a hang fails)
#   simrocminfo ENV...   rocminfo on the simulator (lsmod shim on PATH, /dev/kfd
#                        open redirected to /dev/null for rocminfo's pre-check only)
#   build_hip NAME ARCH  hipcc tests/integration/progs/NAME.hip -> $OUT/NAME-ARCH
#   fail MSG / skip MSG
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SIMLIB="$BUILD/sim"
OUT="$BUILD/sim-tests"
mkdir -p "$OUT"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

[ -f "$SIMLIB/libhsakmt.so.1" ] || skip "simulator not built ($SIMLIB/libhsakmt.so.1)"
[ -e /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1 ] || skip "Debian's libhsa-runtime64-1 not installed"

# The thunk-free environment every run starts from: no stray overrides.
clean_env() {
  env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\)=.*/\1/p; s/^\(RDNACOMPAT_SIM_[A-Z_]*\)=.*/\1/p'
}
for v in $(clean_env); do unset "$v"; done

sim() { # ENV... -- CMD ARGS...
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" LD_LIBRARY_PATH="$SIMLIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 120 "$@"
}

build_helpers() {
  if [ ! -x "$OUT/bin/lsmod" ]; then
    mkdir -p "$OUT/bin"
    printf '#!/bin/sh\n# test shim: rocminfo greps lsmod for amdgpu before using HSA\necho "Module                  Size  Used by"\necho "amdgpu               1  0"\n' > "$OUT/bin/lsmod"
    chmod +x "$OUT/bin/lsmod"
  fi
  if [ ! -f "$OUT/kfd_open_shim.so" ] || [ "$here/kfd_open_shim.c" -nt "$OUT/kfd_open_shim.so" ]; then
    cc -shared -fPIC -O2 -o "$OUT/kfd_open_shim.so" "$here/kfd_open_shim.c" -ldl || fail "building kfd_open_shim"
  fi
}

simrocminfo() { # ENV...
  command -v rocminfo >/dev/null || skip "rocminfo not installed"
  build_helpers
  sim "$@" PATH="$OUT/bin:$PATH" LD_PRELOAD="$OUT/kfd_open_shim.so" -- rocminfo
}

build_hip() { # NAME ARCH
  command -v hipcc >/dev/null || skip "hipcc not installed"
  local src="$here/$1.hip" exe="$OUT/$1-$2"
  if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
    hipcc --offload-arch="$2" -O1 -o "$exe.tmp" "$src" || fail "hipcc $1 for $2"
    mv "$exe.tmp" "$exe"
  fi
  echo "$exe"
}
