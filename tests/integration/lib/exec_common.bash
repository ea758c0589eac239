# SPDX-License-Identifier: MIT
# exec_common.bash — sourced by the tests that run Debian's ROCm libraries
# and their own test programs in the roots (65-rules-ggml-scope,
# 80-exec-ggml, 83-exec-fallback, 84-exec-rocblas; not a test itself): BUILD (the test's $1), rel
# (RDC_ROCM), fail/skip/ok prefixed with the release, SIM and SHIM (skip when
# either is not built), tmp (removed at exit), and an environment without
# the user's HSA_OVERRIDE_GFX_VERSION* and RDNACOMPAT_* settings, with its
# own cache directory.
set -u
BUILD=${1:?usage: $0 BUILD}
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
fail() { echo "FAIL [ROCm $rel]: $*" >&2; exit 1; }
skip() { echo "SKIP [ROCm $rel]: $*" >&2; exit 77; }
ok() { echo "ok [ROCm $rel]: $*"; }
SIM=$BUILD/sim/librdnacompat-sim.so
SHIM=$BUILD/librdnacompat.so
[ -f "$SIM" ] && [ -f "$SHIM" ] || skip "simulator or shim not built in $BUILD"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\|RDNACOMPAT_[A-Z_0-9]*\)=.*/\1/p'); do unset "$v"; done
export XDG_CACHE_HOME=$tmp/cache
