#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — every real function missing in turn; 46-shim-faults and 46-shim-faults-fail cover the failure paths, 43-shim-exports each release's symbols
# 46-shim-faults-each.sh — every entry of the real-function table missing in
# turn (the seam: RDNACOMPAT_TEST_UNRESOLVED, shim/hooks/real.c), on the
# simulated gfx1031, with the fat-binary program and, for the libc file
# functions, one that reads per-arch files (the stand-in rocBLAS).  A libc
# file function the shim cannot resolve is done by the kernel directly
# (hook_files.c); before that, `open` unresolved made it fail with ENOSYS
# and the program crashed (SIGSEGV in the runtime).  For each: no crash (no signal exit), no hang
# (`timeout`), nothing on stdout from the shim, and the shim says which
# function it left unresolved.  Whether the program itself succeeds depends
# on the function (without hsa_init HIP cannot start either); a run that
# fails must fail the way HIP alone would, not by a crash.
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
build librocblas.so.0 "$S/fakeblas.cpp" -shared -fPIC -Wl,-soname,librocblas.so.0
build spoofmain "$S/spoofmain.cpp" -L"$T" -l:librocblas.so.0 -Wl,-rpath,"$T"
D=$T/faults46
rm -rf "$D" && mkdir -p "$D/data"
echo "lib-gfx1030" >"$D/data/TensileLibrary_lazy_gfx1030.dat"
fns=$(sed -n 's/^RDC_REAL_FN(\([A-Za-z_0-9]*\),.*/\1/p' "$RDC_SRCDIR/shim/hooks/real_list.h" 2>/dev/null ||
      sed -n 's/^RDC_REAL_FN(\([A-Za-z_0-9]*\),.*/\1/p' shim/hooks/real_list.h)
[ -n "$fns" ] || fail "no real functions listed"
n=0 ran=0
for fn in $fns; do
  progs=vadd1030
  case $fn in open*|fopen*|access|stat*|__xstat*|glob*) progs="vadd1030 spoofmain";; esac
  for prog in $progs; do
    args=(); [ "$prog" = spoofmain ] && args=("$D/data")
    rc=0
    timeout 60 env RDNACOMPAT_TEST_UNRESOLVED="$fn" LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" \
      RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 "$T/$prog" "${args[@]}" >"$D/out" 2>"$D/err" || rc=$?
    [ "$rc" -ne 124 ] || fail "$fn unresolved: $prog hung"
    # 134 is HIP's own abort(): on hipErrorNoBinaryForGpu (as without the
    # shim), or on the NULL handle a registration hook must return when the
    # real function cannot be found (the shim then says so first).
    if [ "$rc" -ge 128 ] && [ "$rc" -ne 134 ]; then cat "$D/err" >&2; fail "$fn unresolved: $prog died (rc=$rc)"; fi
    if [ "$rc" -eq 134 ]; then
      grep -qE "hipErrorNoBinaryForGpu|error: $fn: real function not found" "$D/err" ||
        { cat "$D/err" >&2; fail "$fn unresolved: $prog aborted without a reason"; }
    fi
    grep -q "rdnacompat" "$D/out" && fail "$fn unresolved: the shim wrote to stdout"
    grep -q "test: real $fn left unresolved" "$D/err" || fail "$fn: the seam did not take"
    [ "$prog" = vadd1030 ] && launch_ok "$D/out" && ran=$((ran+1))
    n=$((n+1))
  done
done
# Most entries are not needed to run vadd on the simulated card (the
# simulator is preloaded first): some runs must have succeeded.
[ "$ran" -gt 0 ] || fail "no run got vadd's kernel launched: not on the simulated card?"
echo "46-shim-faults-each: ok ($n runs, $ran launched vadd's kernel)"
