#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 64-rules-ggml-scope.sh BUILD — the fallback rows of tables/kernels.tsv name
# exactly the code objects of the ggml build whose launch contract was
# checked: Debian's libggml-hip.so in the root (libggml0-backend-hip, the
# build 62-fallback-abi and 83-exec-fallback check).  tools/fallback-scope.py
# --check computes, per row and per target of the row, the SHA-256 of the
# code object holding the kernels the row's pattern matches (as the shim
# hashes it: `rdnacompat inspect --kernels --json`, kernels_sha256) and
# compares them with the rows' sha256 scopes.  When Debian updates ggml in a
# pinned root this fails on purpose: the new build's launch contract must be
# checked (tests 62-fallback-abi, 83-exec-fallback) before rows name it.
set -u
BUILD=${1:?usage: $0 BUILD}
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
fail() { echo "FAIL [ROCm $rel]: $*" >&2; exit 1; }
skip() { echo "SKIP [ROCm $rel]: $*" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
lib=/usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so
[ -x "$BUILD/bin/rdnacompat" ] || skip "rdnacompat not built in $BUILD"
[ -f "$lib" ] || skip "libggml0-backend-hip not installed in the ROCm $rel root"
ver=$(dpkg-query -W -f '${Version}' libggml0-backend-hip 2>/dev/null || echo unknown)
out=$(python3 "$top/tools/fallback-scope.py" --rdnacompat "$BUILD/bin/rdnacompat" --check \
  "$top/tables/kernels.tsv" "$lib" 2>&1) ||
  fail "the fallback rows do not name the code objects of $lib (libggml0-backend-hip $ver; the rows were checked against 0.27.0-1):
$out"
echo "$out"
# the check can fail: one row's hash changed is found
sed -E '0,/\+sha256:[0-9a-f]{64}/s//+sha256:'"$(printf x | sha256sum | cut -d' ' -f1)"'/' \
  "$top/tables/kernels.tsv" >"/tmp/64-scope.$$.tsv"
if python3 "$top/tools/fallback-scope.py" --rdnacompat "$BUILD/bin/rdnacompat" --check \
  "/tmp/64-scope.$$.tsv" "$lib" >/dev/null 2>&1; then
  rm -f "/tmp/64-scope.$$.tsv"; fail "fallback-scope.py --check accepted a table with one hash changed"
fi
rm -f "/tmp/64-scope.$$.tsv"
echo "64-rules-ggml-scope [ROCm $rel]: ok (libggml0-backend-hip $ver)"
