#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — it drives the 6.4 and 7.2 roots itself, from the host
# 20-sim-roots.sh BUILD — the simulator, built on this host, runs Debian's
# unmodified ROCm 6.4 and 7.2 (thunk linked into libhsa-runtime64) inside
# the Debian roots of tests/roots (skipped where a root is not built):
#   rocminfo lists simulated gfx1030, gfx1031, gfx1101, gfx1103 and gfx1151
#   with their processor names, the cards' marketing names and ROCR's second
#   (generic) ISA, for one card and for two;
#   progs/sim_copies.hip moves the right bytes for hipMemcpy H2D/D2H/D2D
#   (small, 64 MB, pinned), hipMemset/hipMemsetD32 and hipMemcpy2D;
#   progs/sim_iota.hip's kernel dispatches are traced with their code object.
partial_skip() { PARTIAL="${PARTIAL:+$PARTIAL; }$*"; echo "partial skip: $*" >&2; }
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
src=$(cd "$(dirname "$0")/../.." && pwd)
RUN="$src/tests/roots/run"
HIPCC="$src/tests/roots/hipcc"
ldd "$SIM" | grep -vE 'linux-vdso|libc\.so|ld-linux|libm\.so|libz\.so|libelf\.so|libdl|libpthread|librt' | grep -q '=>' &&
  fail "the simulator links a shared library a Debian root may lack: $(ldd "$SIM")"

agents() { grep -E '^  Name: +gfx' | awk '{print $2}' | tr '\n' ' ' | sed 's/ $//'; }
ran=0
for root in rocm-6.4 rocm-7.2; do
  rc=0; "$RUN" "$root" -- true 2>/dev/null || rc=$?
  if [ $rc -eq 77 ]; then partial_skip "root $root not built"; continue; fi
  [ $rc -eq 0 ] || fail "$root: tests/roots/run failed ($rc)"
  ran=$((ran + 1))
  rocminfo_in() { "$RUN" "$root" -- env LD_PRELOAD="$SIM" "$@" timeout 120 rocminfo 2>&1; }

  for t in gfx1030 gfx1031 gfx1101 gfx1103 gfx1151; do
    out=$(rocminfo_in RDNACOMPAT_SIM_GPUS=$t) || fail "$root: rocminfo on $t: $out"
    [ "$(echo "$out" | agents)" = "$t" ] || fail "$root: $t expected, got '$(echo "$out" | agents)'"
    echo "$out" | grep -q "amdgcn-amd-amdhsa--$t *\$" || fail "$root: ISA $t missing"
    case $t in gfx103*) gen=gfx10-3-generic ;; gfx11*) gen=gfx11-generic ;; esac
    echo "$out" | grep -q "amdgcn-amd-amdhsa--$gen *\$" || fail "$root: second ISA $gen of $t missing"
  done
  out=$(rocminfo_in "RDNACOMPAT_SIM_GPUS=gfx1031@RX 6750 XT,gfx1151") || fail "$root: two cards: $out"
  [ "$(echo "$out" | agents)" = "gfx1031 gfx1151" ] || fail "$root: two cards: '$(echo "$out" | agents)'"
  echo "$out" | grep -q 'Marketing Name: *AMD Radeon RX 6750 XT' || fail "$root: marketing name of the 6750 XT"
  echo "$out" | grep -q 'Marketing Name: *AMD Radeon 8060S Graphics' || fail "$root: marketing name of gfx1151"
  echo "ok: $root rocminfo: gfx1030 gfx1031 gfx1101 gfx1103 gfx1151 with generic ISAs; two cards"

  exe="$OUT/sim_copies-$root"
  if [ ! -x "$exe" ] || [ "$here/sim_copies.hip" -nt "$exe" ]; then
    "$HIPCC" "$root" --offload-arch=gfx1030 -O1 -o "$exe" "$here/sim_copies.hip" >"$OUT/hipcc-$root.log" 2>&1 ||
      fail "$root: hipcc sim_copies: $(tail -5 "$OUT/hipcc-$root.log")"
  fi
  out=$("$RUN" "$root" -- env LD_PRELOAD="$SIM" RDNACOMPAT_SIM_GPUS=gfx1030 timeout 120 "$exe" 2>&1) ||
    fail "$root: sim_copies: $out"
  [ "$(echo "$out" | grep -c '^ok: ')" = 8 ] || fail "$root: sim_copies: $out"
  echo "ok: $root copies and fills move the right bytes (8 checks)"

  iota="$OUT/sim_iota-$root"
  if [ ! -x "$iota" ] || [ "$here/sim_iota.hip" -nt "$iota" ]; then
    "$HIPCC" "$root" --offload-arch=gfx1030 -O1 -o "$iota" "$here/sim_iota.hip" >"$OUT/hipcc-$root.log" 2>&1 ||
      fail "$root: hipcc sim_iota"
  fi
  trace="$OUT/trace-$root.jsonl"
  rm -f "$trace"
  out=$("$RUN" "$root" -- env LD_PRELOAD="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0 \
    RDNACOMPAT_SIM_TRACE="$trace" timeout 120 "$iota" 2>&1) || fail "$root: sim_iota: $out"
  echo "$out" | grep -q 'memcpy round trip: ok' || fail "$root: sim_iota: $out"
  grep -q '"gpu":0,"node":1,"target":"gfx1030","kernel":"_Z9fill_iotaPii","grid":\[65536,1,1\]' "$trace" ||
    fail "$root: dispatch of fill_iota not traced: $(cat "$trace")"
[ -z "${PARTIAL:-}" ] || { echo "skip: parts not run: $PARTIAL" >&2; exit 77; }
  echo "ok: $root kernel dispatch traced (gfx1030 code object on gfx1031 with the override)"
done
[ $ran -gt 0 ] || skip "no Debian root built (make roots)"
