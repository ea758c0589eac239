#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 — Debian's rocBLAS test suite (librocblas4-tests) is in the rocm-6.4 root only
# 84-exec-rocblas.sh BUILD — rocBLAS's own test suite (Debian's rocblas-test
# from librocblas4-tests, the gtest binary with its reference BLAS) on
# simulated cards that execute the kernels: a named quick subset of level 1
# and 2 (axpy, dot, nrm2, scal, gemv; f32) and small SGEMM/HGEMM through
# Tensile's assembly kernels (the fortran-sized NN cases), on
#   gfx1030 natively, and
#   gfx1031 and gfx1103 under the shim (rocBLAS's gfx1030 and gfx1100/1102
#   code objects retargeted, its per-arch Tensile files redirected).
# rocblas-test reads every record of its data file before it runs anything
# (933 MB, 1.6 M cases: 1.5 minutes on a quiet 2-core machine), so the test
# gives it a data file of the selected functions' quick records only
# (lib/rocblas_data_subset.py, made once per build) and the filter picks the
# cases from it as from the whole file; each card is one run of the filter.
# Asserted: every selected test passes (rocBLAS compares with its CPU BLAS),
# the count is the named subset's, and the trace shows Tensile kernels
# (Cijk_*) and rocBLAS's own kernels executed on the card.
. "$(dirname "$0")/lib/exec_common.bash"   # BUILD, rel, fail/skip/ok, SIM, SHIM, tmp, clean environment
RT=/usr/libexec/rocm/librocblas4-tests/rocblas-test
DATA=/usr/share/librocblas4-tests/data/rocblas_gtest.data
[ -x "$RT" ] || skip "rocblas-test (librocblas4-tests) not installed in the ROCm $rel root"
[ -f "$DATA" ] || fail "$DATA (librocblas4-tests-data) is missing"
SUB=$BUILD/sim-tests/$rel/rocblas_quick_subset.data
mkdir -p "$(dirname "$SUB")"
if [ ! -s "$SUB" ] || [ "$DATA" -nt "$SUB" ] || [ "$(dirname "$0")/lib/rocblas_data_subset.py" -nt "$SUB" ]; then
  python3 "$(dirname "$0")/lib/rocblas_data_subset.py" "$DATA" "$SUB" quick axpy dot nrm2 scal gemv gemm ||
    fail "cannot make the data subset"
fi

# The subset: 306 + 52 + 50 + 72 + 3 + 24 + 24 tests in rocBLAS 6.4.4's data.
FILTER='_/axpy.blas1/quick_blas1_with_alpha_f32_r_*:_/dot.blas1/quick_blas1_f32_r_*:_/nrm2.blas1/quick_blas1_f32_r_*:_/scal.blas1/quick_scal_blas1_with_alpha_f32_r_*:_/gemv.blas2/quick_gemv_fortran_f32_r_*:_/gemm.blas3_tensile/quick_gemm_fortran_f32_r_NN_*:_/gemm.blas3_tensile/quick_gemm_fortran_f16_r_NN_*'
WANT=531

run() { # NAME GPU PRELOAD
  local name=$1 gpu=$2 pre=$3 rc=0
  env LD_PRELOAD="$pre" RDNACOMPAT_SIM_GPUS="$gpu" RDNACOMPAT_SIM_TRACE="$tmp/$name.trace" \
    RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$tmp/$name.log" \
    timeout 1200 "$RT" --data "$SUB" --gtest_filter="$FILTER" >"$tmp/$name.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { grep -E 'FAILED|rdnacompat-sim|Failure' "$tmp/$name.out" | head -10 >&2; tail -5 "$tmp/$name.out" >&2
                       fail "$name: rocblas-test rc=$rc"; }
  grep -q "^\[  PASSED  \] $WANT tests\.$" "$tmp/$name.out" ||
    fail "$name: want $WANT tests passed: $(grep -E '^\[ *(PASSED|FAILED) *\]|tests from .* ran' "$tmp/$name.out" | head -5)"
  # under the shim the program, whose own device code is mapped, is told its
  # code's name (a "name" line; docs/SHIM.md "The name an object is told")
  local told; told=$(sed -n "s/.*info: name: lib=[^ ]*rocblas-test device=0 target=$gpu reported=\([a-z0-9]*\) .*/\1/p" \
    "$tmp/$name.log" 2>/dev/null | head -1)
  told=${told:-$gpu}
  grep -q "Device ID 0 : .* $told" "$tmp/$name.out" || fail "$name: rocblas-test was not told $told: $(grep 'Device ID' "$tmp/$name.out")"
  python3 - "$tmp/$name.trace" "$name" <<'PY' || fail "$name: trace"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
user = [d for d in rows if not d["kernel"].startswith(("rocr-blit", "rocclr-blit", "__amd_rocclr"))]
bad = [d for d in user if d.get("executed") != "ok"]
assert not bad, bad[:1]
tensile = [d for d in user if d["kernel"].startswith("Cijk_")]
assert tensile, "no Tensile kernel dispatched"
print("%s: %d dispatches executed, %d of them Tensile kernels, %d wave-instructions"
      % (sys.argv[2], len(user), len(tensile), sum(d["insts"] for d in user)))
PY
  echo "ok [ROCm $rel]: $name: rocblas-test $WANT/$WANT passed (simulated card (executed))"
}

run gfx1030-native gfx1030 "$SIM"
run gfx1031-shim gfx1031 "$SIM:$SHIM"
run gfx1103-shim gfx1103 "$SIM:$SHIM"
echo "84-exec-rocblas: ok"
