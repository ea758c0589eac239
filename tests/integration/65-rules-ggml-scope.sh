#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 65-rules-ggml-scope.sh BUILD — the fallback rows of tables/kernels.tsv name
# exactly the code objects of the ggml build whose launch contract was
# checked: Debian's libggml-hip.so in the root (libggml0-backend-hip, the
# build 62-fallback-abi and 83-exec-fallback check).  tools/fallback-scope.py
# --check computes, per row and per target of the row, the SHA-256 of the
# code object holding the kernels the row's pattern matches (as the shim
# hashes it: `rdnacompat inspect --kernels --json`, kernels_sha256) and
# compares them with the rows' sha256 scopes.  When Debian updates ggml in a
# pinned root this fails on purpose: the new build's launch contract must be
# checked (tests 62-fallback-abi, 83-exec-fallback) before rows name it.
. "$(dirname "$0")/lib/exec_common.bash"   # BUILD, rel, fail/skip/ok, tmp, clean environment
top=$(cd "$(dirname "$0")/../.." && pwd)
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
  "$top/tables/kernels.tsv" >"$tmp/changed.tsv"
! python3 "$top/tools/fallback-scope.py" --rdnacompat "$BUILD/bin/rdnacompat" --check \
  "$tmp/changed.tsv" "$lib" >"$tmp/changed.out" 2>&1 ||
  fail "fallback-scope.py --check accepted a table with one hash changed"
grep -q "names no sha256:" "$tmp/changed.out" || fail "the changed hash was not named: $(cat "$tmp/changed.out")"
ok "65-rules-ggml-scope: libggml0-backend-hip $ver"
