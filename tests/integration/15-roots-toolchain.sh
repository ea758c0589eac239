#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 15-roots-toolchain.sh BUILD — on each ROCm release of the matrix: the
# release's own hipcc is the one the test sees (its HIP version matches
# RDC_ROCM), it builds a HIP program for gfx1030, the tool built on this host
# runs unchanged there (no missing library) and inspects that program (one
# gfx1030 entry, mapped for a gfx1031), and the shim built here loads into the
# release's programs without a missing library.  No GPU needed.
# releases: 5.2 6.4 7.2
set -u
BUILD=${1:?usage: $0 BUILD}
fail() { echo "FAIL [ROCm ${RDC_ROCM:-?}]: $*" >&2; exit 1; }
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
hipcc=${RDC_HIPCC:?RDC_HIPCC unset}
tool=$BUILD/bin/rdnacompat
[ -x "$tool" ] || fail "$tool missing"
command -v "$hipcc" >/dev/null || { echo "skip: no hipcc ($hipcc) on ROCm $rel" >&2; exit 77; }

# The release's own hipcc: "HIP version: 6.4.x" for 6.4 and so on.
ver=$("$hipcc" --version 2>/dev/null | sed -n 's/^HIP version: \([0-9]*\.[0-9]*\).*/\1/p')
[ "$ver" = "$rel" ] || fail "hipcc $hipcc reports HIP version '$ver', expected $rel"
echo "ok: hipcc is HIP $ver"

# The tool and the shim from this host: nothing missing here.
for f in "$tool" "$BUILD/libexec/rdnacompat/rdnacompat-tool" "$BUILD/librdnacompat.so"; do
  missing=$(ldd "$f" 2>&1 | grep 'not found')
  [ -z "$missing" ] || fail "$f lacks libraries on ROCm $rel: $missing"
done
"$tool" --help >/dev/null 2>&1 || fail "rdnacompat --help fails on ROCm $rel"
err=$(LD_PRELOAD=$BUILD/librdnacompat.so /bin/true 2>&1) || fail "/bin/true under the shim failed: $err"
[ -z "$err" ] || fail "the shim complained in a non-ROCm process: $err"
echo "ok: tool and shim load"

# A program built by this release's hipcc, inspected by the host's tool.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/k.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void add_one(int *p) { p[threadIdx.x] += 1; }
int main(void) { int n = 0; return hipGetDeviceCount(&n) == hipSuccess ? 0 : 1; }
HIP
"$hipcc" --offload-arch=gfx1030 "$tmp/k.hip" -o "$tmp/k" 2> "$tmp/cc.err" || fail "hipcc failed: $(cat "$tmp/cc.err")"
out=$("$tool" inspect --gpu gfx1031 "$tmp/k" 2>&1) || fail "inspect failed: $out"
echo "$out" | grep -qE 'hipv4-amdgcn-amd-amdhsa--gfx1030 .* 1 kernel' || fail "no gfx1030 entry with 1 kernel: $out"
echo "$out" | grep -q 'gfx1031: mapped from gfx1030' || fail "gfx1031 not mapped from gfx1030: $out"
cov=$(echo "$out" | sed -n 's/.*hipv4-amdgcn-amd-amdhsa--gfx1030 .* \(v[0-9]\)  *1 kernel.*/\1/p')
echo "ok: HIP $rel program for gfx1030 (code object $cov) inspected and mapped for gfx1031"
