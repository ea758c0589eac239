#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the roots have no valgrind
# 47-shim-valgrind.sh — the shim under memcheck with the real HIP 5.2 + ROCR
# on the simulator: a static fat binary mapped, modules loaded and unloaded
# from two threads, a direct ROCR load, spoof with file redirection.  No
# memcheck error anywhere, and no leak whose stack passes through the shim.
# (ASan cannot be used: it fails in HIP on the simulator without the shim.)
. "$(dirname "$0")/shim/common.sh"
command -v valgrind >/dev/null || skip "valgrind not installed"
supp=${RDC_SRCDIR:-$(pwd)}/tests/integration/progs/sim_valgrind.supp
[ -f "$supp" ] || supp=/dev/null
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
build modload "$S/modload.cpp" -lpthread
build librocblas.so.0 "$S/fakeblas.cpp" -shared -fPIC -Wl,-soname,librocblas.so.0
build spoofmain "$S/spoofmain.cpp" -L"$T" -l:librocblas.so.0 -Wl,-rpath,"$T"
if [ ! -x "$T/hsaload" ] || [ "$S/hsaload.c" -nt "$T/hsaload" ]; then
  gcc -I/usr/include/hsa "$S/hsaload.c" -lhsa-runtime64 -o "$T/hsaload" || fail "build hsaload"
fi
[ -s "$T/kern1030.hsaco" ] || "$HIPCC" --genco --offload-arch=gfx1030 --no-gpu-bundle-output \
  "$S/kern.hip" -o "$T/kern1030.hsaco" >/dev/null 2>&1 || fail "hipcc --genco"
mkdir -p "$T/tensile" && echo "lib-gfx1030" >"$T/tensile/TensileLibrary_lazy_gfx1030.dat"
rm -f "$T/tensile/TensileLibrary_lazy_gfx1031.dat"
n=0
for args in "vadd1030" "modload data $T/kern1030.hsaco 2 2" "hsaload $T/kern1030.hsaco" \
            "hsaload $T/kern1030.hsaco file" "spoofmain $T/tensile"; do
  n=$((n + 1))
  rm -f "$T"/vg$n.*.log
  rc=0
  env LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 timeout 500 \
    valgrind --error-exitcode=99 --num-callers=40 --suppressions="$supp" --leak-check=full \
    --show-leak-kinds=definite,indirect --errors-for-leak-kinds=none --trace-children=yes \
    --log-file="$T/vg$n.%p.log" env RDNACOMPAT_MODE=spoof LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" $T/$args \
    >"$T/vg.out" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ] && grep -q "debuginfo reader: ensure_valid failed" "$T"/vg$n.*.log; then
    skip "valgrind $(valgrind --version) cannot read this build's debug info (clang-15 DWARF 5): $T/vg$n.*.log"
  fi
  [ "$rc" -eq 0 ] || fail "memcheck of '$args': rc=$rc, see $T/vg$n.*.log"
  log=$(grep -l "Command: .*shimtest" "$T"/vg$n.*.log | head -1)
  [ -n "$log" ] || fail "no memcheck log for '$args'"
  grep -q "ERROR SUMMARY: 0 errors" "$log" || fail "memcheck errors in '$args': $log"
  if grep -nE 'rdc_|librdnacompat' "$log" >/dev/null; then
    fail "memcheck findings involve the shim ('$args'): $(grep -nE 'rdc_|librdnacompat' "$log" | head -5)"
  fi
  echo "ok: $args"
done
echo "47-shim-valgrind: ok"
