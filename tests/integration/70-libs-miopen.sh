#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2
# 70-libs-miopen.sh BUILD — MIOpen (Debian's libmiopen1 7.2.4, ROCm 7.2 root;
# its GEMM convolutions run on rocBLAS 5) on a simulated gfx1031, with
# libs/miopen_conv.cpp: a 3x3 convolution forward (miopenFind..., then
# miopenConvolutionForward) and a spatial batch-norm forward inference.
# Two things on the way are not the card's fault and are shown on a simulated
# gfx1030 (a supported target) too:
#   - Debian's MIOpen 7.2.4 lacks its assembly kernel sources ("Failed to load
#     kernel source: Conv_Winograd_v30_..."): MIOPEN_DEBUG_GCN_ASM_KERNELS=0;
#   - the simulator executes kernels but gives dispatches no profiling time
#     stamps, so MIOpen's benchmarking find rejects every solver ("Invalid
#     elapsed time"): MIOPEN_FIND_MODE=FAST (no benchmarking).
# With both set: without the shim gfx1031 fails in rocBLAS (quoted); with the
# shim conv and batch norm complete and their outputs match plain-loop CPU
# references (small-integer inputs, libs/ref_check.h: conv tolerance 0,
# batch norm 1e-5; the program's "max err:" lines), rocBLAS's Tensile objects
# are mapped to gfx1031, and the kernels MIOpen compiles at run time (comgr)
# for the true target are left alone: each logged "native"
# (RDNACOMPAT_LOG=debug).  On a simulated gfx1032 (libmiopen1-tests' Smoke reduce): MIOpen is
# told gfx1030 (tables/rtc-names.tsv) and its run-time CK reduction builds and passes; told the
# truth (RDNACOMPAT_NAME_FOLLOWS_CODE=0) it does not build.
# Simulated card (executed) for the compared results: the simulator runs the
# kernels as compiled; with RDNACOMPAT_SIM_EXEC=0 the comparisons fail
# (checked by hand, 2026-12-04).
set -u
BUILD=${1:?usage: $0 BUILD}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/libs/libs_common.bash"
[ -f /usr/include/miopen/miopen.h ] || skip "libmiopen-dev not installed"
build miopen_conv MIOpen
export HOME=$tmp/home
MI=(MIOPEN_DEBUG_GCN_ASM_KERNELS=0 MIOPEN_FIND_MODE=FAST)

# --- what is not the card's fault (gfx1030, supported, no shim) -----------------------
go asm-1030 miopen_conv gfx1030
grep -q 'Failed to load kernel source: Conv_Winograd' "$tmp/asm-1030.out" && [ "$(cat "$tmp/asm-1030.rc")" != 0 ] ||
  fail "gfx1030, MIOpen defaults: expected Debian's missing assembly sources: $(tail -3 "$tmp/asm-1030.out")"
ok "gfx1030 (supported) with MIOpen's defaults fails too: \"$(grep -m1 'Failed to load kernel source' "$tmp/asm-1030.out" | sed 's/.*kernel.cpp:[0-9]*: //')\" (Debian's libmiopen1 build)"
go find-1030 miopen_conv gfx1030 MIOPEN_DEBUG_GCN_ASM_KERNELS=0
grep -q 'Invalid elapsed time' "$tmp/find-1030.out" && [ "$(cat "$tmp/find-1030.rc")" != 0 ] ||
  fail "gfx1030, benchmarking find: expected the zero-time rejection: $(tail -3 "$tmp/find-1030.out")"
ok "gfx1030 with MIOpen's benchmarking find: every solver rejected (\"Invalid elapsed time detected in EvaluateInvokers\"): the simulated card gives dispatches no time"

# --- gfx1031 --------------------------------------------------------------------------
go none-1031 miopen_conv gfx1031 "${MI[@]}"
[ "$(cat "$tmp/none-1031.rc")" != 0 ] || fail "gfx1031 without the shim ran: $(tail -3 "$tmp/none-1031.out")"
grep -q "TensileLibrary.dat: No such file or directory for GPU arch : gfx1031" "$tmp/none-1031.out" ||
  fail "gfx1031 without the shim: not rocBLAS's known failure: $(grep -v 'time stamps' "$tmp/none-1031.out" | tail -5)"
ok "gfx1031 without the shim: MIOpen's GEMM convolution aborts in rocBLAS: \"$(grep -m1 'Cannot read' "$tmp/none-1031.out" | sed 's/^ *//')\""
go shim-1031 miopen_conv gfx1031 SHIM "${MI[@]}" RDNACOMPAT_LOG=debug
[ "$(cat "$tmp/shim-1031.rc")" = 0 ] && [ "$(oks shim-1031)" = 2 ] || fail "gfx1031 with the shim: $(grep -v 'time stamps' "$tmp/shim-1031.out" | tail -5)"
grep -qx 'device: gfx1031' "$tmp/shim-1031.out" || fail "gfx1031 with the shim: not told gfx1031"
checked shim-1031 2
[ "$(targets shim-1031)" = gfx1031 ] || fail "gfx1031 with the shim: dispatches from '$(targets shim-1031)'"
mapped=$(grep -c 'map: lib="image@[^ ]*(loaded by librocblas.so.[0-9]*)" .*target=gfx1031 .*verdict=mapped' "$tmp/shim-1031.log")
native=$(grep -c 'native: lib="image@[^ ]*(loaded by libMIOpen.so.[0-9]*)" .*target=gfx1031 .*verdict=native entry=[^ ]*gfx1031 ' "$tmp/shim-1031.log")
[ "$mapped" -gt 0 ] || fail "gfx1031 with the shim: no rocBLAS object mapped"
[ "$native" -gt 0 ] || fail "gfx1031 with the shim: no MIOpen run-time object logged native: $(grep -m3 'libMIOpen' "$tmp/shim-1031.log")"
! grep 'loaded by libMIOpen' "$tmp/shim-1031.log" | grep -q 'verdict=mapped' || fail "gfx1031: a MIOpen run-time object was retargeted"
ok "gfx1031 with the shim: conv (algo $(sed -n 's/^conv algo: //p' "$tmp/shim-1031.out")) and batch norm complete, outputs match the CPU reference (simulated card (executed): $(errs shim-1031)); $mapped rocBLAS objects mapped; $native objects MIOpen compiled for gfx1031 left alone (logged native); $(ndisp shim-1031) dispatches ($(libdisp shim-1031 | sed -n 's/.*"kernel":"\([A-Za-z0-9]*\).*/\1/p' | cut -c1-24 | sort -u | tr '\n' ' ')), all gfx1031 code"
# MIOpen's system find-db is per arch and CU count; the only gfx103x one is
# gfx1030_36.HIP.fdb.txt.  The simulated gfx1031 has 20 CUs: MIOpen asks for
# gfx1031_20, which the shim redirects (target only) to gfx1030_20, absent —
# as under HSA_OVERRIDE_GFX_VERSION=10.3.0, where MIOpen asks for gfx1030_20
# and does not take gfx1030_36 either.  No MIOpen database is redirected
# across CU counts, and SQLite's companion files never.
! redirects shim-1031 | grep -q 'to=/usr/share/miopen/db/gfx1030_36' ||
  fail "gfx1031 with the shim: a find-db of another CU count was taken: $(redirects shim-1031 | grep miopen)"
! redirects shim-1031 | grep -qE 'to=[^ ]*-(journal|wal|shm) ' || fail "a SQLite companion file was redirected"
ok "gfx1031 with the shim: no MIOpen database redirected across CU counts (as under the override)"

# --- gfx1032: the name MIOpen is told (tables/rtc-names.tsv) ---------------------------
# MIOpen builds its CK reduction at run time with -DCK_AMD_GPU_GFX<the name it is told>;
# its CK config knows gfx1030, not gfx1032.  libMIOpen.so carries no device code, so
# "name follows the code" has nothing to follow: the table makes map mode tell it
# gfx1030.  With RDNACOMPAT_NAME_FOLLOWS_CODE=0 (the truth for everyone) the build fails.
gt=/usr/libexec/rocm/libmiopen1-tests/miopen_gtest
if [ ! -x "$gt" ]; then
  echo "ok [ROCm $rel]: (part skipped: $gt not installed: libmiopen1-tests)"
else
  red() { # NAME [VAR=VALUE...]: MIOpen's Smoke reduce on a simulated gfx1032 with the shim
    local name=$1; shift
    env RDNACOMPAT_LOG=info "$@" LD_PRELOAD="$SIM:$SHIM" RDNACOMPAT_SIM_GPUS=gfx1032 HIP_VISIBLE_DEVICES=0 \
      RDNACOMPAT_LOG_FILE="$tmp/$name.log" timeout 120 "$gt" --gtest_filter=Smoke/GPU_Reduce_FP32.TestFloat/0 \
      >"$tmp/$name.out" 2>&1
    echo $? >"$tmp/$name.rc"
  }
  red red-truth RDNACOMPAT_NAME_FOLLOWS_CODE=0
  grep -q 'No CK_AMD_GPU_GFX\* macro defined' "$tmp/red-truth.out" && ! grep -q '^\[  PASSED  \] 1 test' "$tmp/red-truth.out" ||
    fail "gfx1032, MIOpen told the truth: expected CK's refusal: $(tail -3 "$tmp/red-truth.out")"
  ok "gfx1032, MIOpen told gfx1032 (RDNACOMPAT_NAME_FOLLOWS_CODE=0): its reduce does not build (\"No CK_AMD_GPU_GFX* macro defined\")"
  red red-1032
  grep -q '^\[  PASSED  \] 1 test' "$tmp/red-1032.out" || fail "gfx1032 with the shim: MIOpen's reduce: $(tail -3 "$tmp/red-1032.out")"
  grep -q 'name: lib=[^ ]*libMIOpen.so[^ ]* device=0 target=gfx1032 reported=gfx1030 why="[^"]*tables/rtc-names.tsv' "$tmp/red-1032.log" ||
    fail "gfx1032: no name line telling libMIOpen gfx1030: $(grep -m2 'name:' "$tmp/red-1032.log")"
  ok "gfx1032 with the shim: libMIOpen.so told gfx1030 (tables/rtc-names.tsv, one name line), Smoke/GPU_Reduce_FP32.TestFloat/0 passes (simulated card (executed))"
fi
