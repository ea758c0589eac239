#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — hipLibraryLoadData/FromFile (hip_7.2) and hipModuleLoadFatBinary (hip_7.1) exist in HIP 7 only
# 42-shim-library.sh — HIP 7's other code loaders with gfx1030 code (a
# --genco bundle and a bare ELF) on a simulated gfx1031: hipLibraryLoadData,
# hipLibraryLoadFromFile (CLR builds the library lazily, at
# hipLibraryGetKernel, from the image it was given, so the rebuilt image must
# outlive the load call: it is held until hipLibraryUnload) and
# hipModuleLoadFatBinary.  Without the shim each fails as a user sees it;
# with it the kernel is dispatched from code retargeted to gfx1031, the
# decision is logged, and the rebuilt copy is freed at unload (debug log).
# Kernel rules see a library as a module: a user deny row for fill_iota
# makes hipLibraryGetKernel (and, for the fat binary, hipModuleGetFunction)
# answer hipErrorNotFound with one log line, and nothing is dispatched.
. "$(dirname "$0")/shim/common.sh"
build libload "$S/libload.cpp"
kern_genco gfx1030 co
kern_genco gfx1030 hsaco
api() { case $1 in data) echo hipLibraryLoadData;; file) echo hipLibraryLoadFromFile;; fatbin) echo hipModuleLoadFatBinary;; esac; }
for kind in co hsaco; do
  for mode in data file fatbin; do
    rc=0; sim gfx1031 "$T/libload" $mode "$T/kern1030.$kind" >"$T/l.out" 2>&1 || rc=$?
    [ "$rc" -ne 0 ] || fail "$mode $kind: gfx1030 code ran on gfx1031 without the shim"
    grep -qE "^(hipLibraryGetKernel|hipModuleLoadFatBinary|hipModuleGetFunction): " "$T/l.out" ||
      fail "$mode $kind: not HIP's own load failure without the shim: $(cat "$T/l.out")"
    why=$(grep -m1 -E "^hip[A-Za-z]+: " "$T/l.out")
    rm -f "$T/l.trace"
    rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_SIM_TRACE="$T/l.trace" \
      shim gfx1031 "$T/libload" $mode "$T/kern1030.$kind" 3 >"$T/l.out" 2>"$T/l.err" || rc=$?
    [ "$rc" -eq 0 ] || fail "$mode $kind with the shim: rc=$rc $(cat "$T/l.out" "$T/l.err")"
    grep -qx unloaded "$T/l.out" || fail "$mode $kind: not unloaded"
    kernels_on "$T/l.trace" gfx1031 >/dev/null || fail "$mode $kind: trace"
    [ "$(grep -c fill_iota "$T/l.trace")" -eq 3 ] || fail "$mode $kind: want 3 dispatches"
    grep -q "info: map: .*target=gfx1031 .*verdict=mapped .*chosen=gfx1030" "$T/l.err" ||
      fail "$mode $kind: no mapping logged: $(cat "$T/l.err")"
    grep -q "$(api $mode)" "$T/l.err" || fail "$mode $kind: the log does not name $(api $mode)"
    # the rebuilt copy is made once and freed once (at unload)
    [ "$(grep -c "debug: freed: " "$T/l.err")" -eq 1 ] ||
      fail "$mode $kind: rebuilt copy not freed exactly once at unload: $(grep -E "rebuilt|freed" "$T/l.err")"
  done
done
printf '[kernels]\nfill_iota\tlibload\tgfx1031\t*\tdeny\treviewed\ttest\t42-shim-library\n' >"$T/deny.tsv"
for mode in data file fatbin; do
  rm -f "$T/l.trace"
  rc=0; RDNACOMPAT_TABLES="$T/deny.tsv" RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/l.trace" \
    shim gfx1031 "$T/libload" $mode "$T/kern1030.co" 1 >"$T/l.out" 2>"$T/l.err" || rc=$?
  [ "$rc" -ne 0 ] || fail "deny $mode: the kernel was found and ran"
  grep -qE "^(hipLibraryGetKernel|hipModuleGetFunction): " "$T/l.out" ||
    fail "deny $mode: the lookup did not fail: $(cat "$T/l.out")"
  [ "$(grep -c 'rule-deny: kernel=fill_iota device=gfx1031 answer=hipErrorNotFound' "$T/l.err")" -eq 1 ] ||
    fail "deny $mode: want one rule-deny line: $(cat "$T/l.err")"
  if [ -f "$T/l.trace" ] && grep -q fill_iota "$T/l.trace"; then fail "deny $mode: fill_iota dispatched"; fi
done
echo "ok: a user deny row for fill_iota: hipLibraryGetKernel / hipModuleGetFunction answer hipErrorNotFound, one log line each, nothing dispatched"
echo "ok: hipLibraryLoadData, hipLibraryLoadFromFile, hipModuleLoadFatBinary of gfx1030 code (bundle, bare ELF) on gfx1031: without the shim \"$why\"; with it 3 dispatches each from code retargeted to gfx1031, the copy freed at unload"
echo "42-shim-library: ok"
