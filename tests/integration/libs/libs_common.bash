# SPDX-License-Identifier: MIT
# libs_common.bash — sourced by tests/integration/70-libs-*.sh (not a test).
# Needs BUILD (the tests' $1) and RDC_ROCM.  Provides fail/skip/ok (prefixed
# with the release), SIM, SHIM, OUT ($BUILD/sim-tests/REL: programs built
# once per release), tmp (removed at exit) and:
#   build NAME LIB        libs/NAME.cpp -> $OUT/NAME (-lLIB), rebuilt when newer
#   go NAME PROG GPU [SHIM] [ENV...]
#                         PROG on the simulated GPU; $tmp/NAME.{out,trace,log,rc}
#                         (shim log at info unless ENV sets RDNACOMPAT_LOG)
#   oks NAME              the "ok: " lines PROG printed
#   checked NAME CALLS    PROG printed CALLS "max err:" lines (its device
#                         results against its CPU reference, libs/ref_check.h)
#                         and each is within its stated tolerance
#   errs NAME             "call err (tol T), ..." from those lines
#   targets NAME / ndisp NAME
#                         code-object targets / count of traced library
#                         dispatches (ROCr's rocr-blit:* and ROCclr's
#                         __amd_rocclr_* kernels are the node's own code)
#   redirects NAME        the shim's "redirect:" log lines
#   counter NAME KEY      a work counter from the shim's stats line (the
#                         run needs RDNACOMPAT_LOG=debug)
set -u
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
fail() { echo "FAIL [ROCm $rel]: $*" >&2; exit 1; }
skip() { echo "SKIP [ROCm $rel]: $*" >&2; exit 77; }
ok() { echo "ok [ROCm $rel]: $*"; }
libs=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SIM=$BUILD/sim/librdnacompat-sim.so
SHIM=$BUILD/librdnacompat.so
[ -f "$SIM" ] && [ -f "$SHIM" ] || skip "simulator or shim not built in $BUILD"
command -v "${RDC_HIPCC:-hipcc}" >/dev/null || skip "hipcc not installed"
OUT=$BUILD/sim-tests/$rel; mkdir -p "$OUT"
build() {
  local exe=$OUT/$1
  if [ ! -x "$exe" ] || [ "$libs/$1.cpp" -nt "$exe" ] || [ "$libs/ref_check.h" -nt "$exe" ]; then
    "${RDC_HIPCC:-hipcc}" -O1 -I"$libs" -o "$exe.tmp" "$libs/$1.cpp" "-l$2" >"$OUT/$1.build.log" 2>&1 ||
      fail "hipcc $1: $(tail -5 "$OUT/$1.build.log")"
    mv "$exe.tmp" "$exe"
  fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\|RDNACOMPAT_[A-Z_0-9]*\)=.*/\1/p'); do unset "$v"; done
export XDG_CACHE_HOME=$tmp/cache HSA_ENABLE_SDMA=0

go() {
  local name=$1 prog=$2 gpu=$3; shift 3
  local pre=$SIM rc=0
  [ "${1:-}" = SHIM ] && { pre=$SIM:$SHIM; shift; }
  { env RDNACOMPAT_LOG=info "$@" LD_PRELOAD="$pre" RDNACOMPAT_SIM_GPUS="$gpu" RDNACOMPAT_SIM_TRACE="$tmp/$name.trace" \
    RDNACOMPAT_LOG_FILE="$tmp/$name.log" \
    timeout 120 "$OUT/$prog" >"$tmp/$name.out" 2>&1; } 2>/dev/null || rc=$?
  echo $rc >"$tmp/$name.rc"
}
oks() { grep -c '^ok: ' "$tmp/$1.out"; }
checked() {
  local n; n=$(grep -c '^max err: ' "$tmp/$1.out")
  [ "$n" = "$2" ] || fail "$1: $n results compared with the CPU reference, expected $2: $(grep -E '^(max err|mismatch)' "$tmp/$1.out" | head -5)"
  # "max err: CALL ERR (tol TOL, N values)"; ERR must be a finite number <= TOL
  awk '/^max err: / { t = $6; sub(/,$/, "", t)
         if ($4 !~ /^[0-9][0-9.e+-]*$/ || $4 + 0 > t + 0) { print; bad = 1 } } END { exit bad }' "$tmp/$1.out" >"$tmp/$1.bad" ||
    fail "$1: a result beyond its tolerance: $(cat "$tmp/$1.bad") $(grep -m1 '^mismatch' "$tmp/$1.out")"
}
errs() {
  sed -n 's/^max err: \([^ ]*\) \([^ ]*\) (tol \([^,]*\),.*/\1 \2 (tol \3)/p' "$tmp/$1.out" | paste -sd, | sed 's/,/, /g'
}
libdisp() { grep -v '"kernel":"\(rocr-blit:\|__amd_rocclr\)' "$tmp/$1.trace" 2>/dev/null; }
targets() { libdisp "$1" | sed -n 's/.*"target":"\([a-z0-9-]*\)".*/\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
ndisp() { libdisp "$1" | grep -c '"kernel":'; }
redirects() { grep 'warn: redirect: ' "$tmp/$1.log" 2>/dev/null; }   # said at warn since H1 (audit 2026-12-03)
counter() {
  local v; v=$(grep -m1 "debug: stats: " "$tmp/$1.log" 2>/dev/null | sed -n "s/.* $2=\([0-9]*\).*/\1/p")
  [ -n "$v" ] || fail "$1: no '$2' in the shim's stats line: $(grep -m1 'stats:' "$tmp/$1.log")"
  echo "$v"
}
