#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — it drives the 6.4 and 7.2 roots itself, from the host
# 52-db-sim-reports.sh BUILD — tools/sim-reports.sh refreshes the shim's own
# evidence on the simulated GPU: on this machine's ROCm (host release) it
# writes valid "simulated: yes" reports for the RDNA2 cards ROCR 5.2.3 knows,
# each saying which release and ROCm version it ran; it skips the others
# with a reason.  On a root release (tests/roots, where built) the version
# is the HIP runtime the program links, and a card whose code object the
# shim found no code for is "fails" even when the program exits 0.  The
# library workloads: librocsparse on the host, rocBLAS in the 6.4 root
# (llama-bench is left to 71-libs-llama.sh: same code path, slower).
partial_skip() { PARTIAL="${PARTIAL:+$PARTIAL; }$*"; echo "partial skip: $*" >&2; }
set -u
B=$1; T=$B/tools-test/sim-reports
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }
rm -rf "$T"; mkdir -p "$T"
command -v hipcc >/dev/null || skip "no hipcc"
S="$SRC/tools/sim-reports.sh"

rc=0; bash "$S" --release nosuch "$B" "$T/x" >"$T/bad.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "unknown release 'nosuch'" "$T/bad.out" || fail "unknown release: rc=$rc $(cat "$T/bad.out")"

bash "$S" --cards gfx1031,gfx1103 "$B" "$T/host" >"$T/host.out" 2>&1 || fail "host run: $(tail -5 "$T/host.out")"
ver=$(sed -n 's/^sim-reports: release host: .*, ROCm \([0-9.]*\) (the program links .*$/\1/p' "$T/host.out")
[ -n "$ver" ] || fail "does not say which release/ROCm it ran: $(head -3 "$T/host.out")"
grep -q '^sim-reports: gfx1103: skipped (' "$T/host.out" || fail "gfx1103 not skipped with a reason on $ver"
n=$(ls "$T/host"/*.report 2>/dev/null | wc -l)
[ "$n" -eq 2 ] || fail "expected two reports (gfx1031: vadd, rocsparse), got $n: $(ls "$T/host")"
f=$(ls "$T/host"/*-gfx1031-*-vadd.report) || fail "no gfx1031 vadd report"
fs=$(ls "$T/host"/*-gfx1031-*-rocsparse.report) || fail "no gfx1031 rocsparse report"
grep -q '^result: works$' "$fs" && grep -q '^mapped: librocsparse.so.0: gfx1030 -> gfx1031' "$fs" &&
  grep -q '^workload: librocsparse' "$fs" || fail "gfx1031 rocsparse report: $(grep -E '^(result|mapped|workload)' "$fs")"
grep -q '^simulated: yes$' "$f" || fail "not marked simulated"
grep -q "^rocm_version: $ver$" "$f" || fail "rocm_version is not $ver"
grep -q "^notes: Simulated run (tools/sim-reports.sh --release host: .*, ROCm $ver, on a simulated gfx1031" "$f" ||
  fail "notes do not name the release"
grep -q '^result: works$' "$f" && grep -q '^mapped: vadd' "$f" || fail "gfx1031 run: $(grep -E '^(result|mapped|notes)' "$f")"
"$B/bin/rdnacompat" db check --reports "$T/host" >/dev/null || fail "db check"

# A root release, where built: the release named by the HIP runtime the
# program links; each card either has a report or says why not; a card with
# no usable code is "fails" (HIP 6.x loads lazily, so the exit status alone
# would say "works").
if "$SRC/tests/roots/path" rocm-6.4 >/dev/null 2>&1; then
  bash "$S" --release rocm-6.4 --workloads vadd,rocblas --cards gfx1031,gfx1151 "$B" "$T/r64" >"$T/r64.out" 2>&1 || true
  grep -q '^sim-reports: release rocm-6.4: .*, ROCm 6\.4\.[0-9]* (the program links .*libamdhip64' "$T/r64.out" ||
    fail "root release not named: $(head -3 "$T/r64.out")"
  for g in gfx1031 gfx1151; do
    f=$(ls "$T/r64"/*-$g-*-vadd.report 2>/dev/null)
    if [ -z "$f" ]; then
      grep -q "^sim-reports: $g: no report: " "$T/r64.out" || fail "rocm-6.4 $g: neither a report nor a reason"
      continue
    fi
    grep -q '^rocm_version: 6\.4' "$f" && grep -q '^simulated: yes$' "$f" || fail "rocm-6.4 $g report: $(head -12 "$f")"
    if grep -q '^missing: ' "$f"; then
      grep -q '^result: fails$' "$f" || fail "rocm-6.4 $g: missing code but $(grep '^result' "$f")"
    fi
  done
  f=$(ls "$T/r64"/*-gfx1031-*-vadd.report 2>/dev/null) && { grep -q '^mapped: vadd' "$f" && grep -q '^result: works$' "$f" ||
    fail "rocm-6.4 gfx1031: $(grep -E '^(result|mapped|missing)' "$f")"; }
  # rocBLAS on gfx1031: works, the code objects it loads mapped (its own fat
  # binaries are decided when HIP loads one: the GEMMs load only Tensile's
  # modules); rocBLAS, whose own code is gfx1030's, is told gfx1030 and opens
  # Tensile's gfx1030 files itself (no redirect; docs/SHIM.md "The name an
  # object is told"), while the program, without device code, is told the
  # truth (its output: "device: gfx1031"); on
  # gfx1151 (an opt-in edge; rocBLAS 6.4 has no gfx1151 code) it fails with
  # missing code.
  f=$(ls "$T/r64"/*-gfx1031-*-rocblas.report 2>/dev/null) || fail "rocm-6.4 gfx1031: no rocblas report: $(grep gfx1031 "$T/r64.out")"
  grep -q '^result: works$' "$f" &&
    grep -qE '^mapped: (librocblas.so.4|image@[^ ]*\(loaded by librocblas.so.4\)): gfx1030 -> gfx1031' "$f" &&
    ! grep -q '^redirected: .*TensileLibrary_lazy_gfx1031.dat' "$f" &&
    grep -q '^notes: Program output: device: gfx1031; ok: rocblas_sgemm; ok: rocblas_hgemm; ok: rocblas_sgemm_strided_batched' "$f" ||
    fail "rocm-6.4 gfx1031 rocblas: $(grep -E '^(result|mapped|redirected|notes)' "$f" | cut -c1-200)"
  if f=$(ls "$T/r64"/*-gfx1151-*-rocblas.report 2>/dev/null); then
    grep -q '^result: fails$' "$f" && grep -q '^missing: librocblas' "$f" ||
      fail "rocm-6.4 gfx1151 rocblas: $(grep -E '^(result|mapped|missing)' "$f")"
  else
    grep -q "^sim-reports: gfx1151: no report: " "$T/r64.out" || fail "rocm-6.4 gfx1151 rocblas: neither a report nor a reason"
  fi
else
  partial_skip "root rocm-6.4 not built: the root-release half (make roots)"
fi
[ -z "${PARTIAL:-}" ] || { echo "skip: parts not run: $PARTIAL" >&2; exit 77; }
echo "52-db-sim-reports: ok (host ROCm $ver)"
