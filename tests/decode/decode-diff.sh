#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/decode/decode-diff.sh BUILD — the execution engine's decoder against
# llvm-objdump-19 on every instruction of the code objects the tests
# execute (tests/decode/decode-diff.py says what is compared):
#   our fallback kernels     BUILD/gen/fallback/gfx1030.co, gfx1100.co
#   the test kernels         tests/integration/progs/*.hip, shim/*.hip, built
#                            by the rocm-6.4 root's hipcc for gfx1030 and
#                            gfx1100 (cached in BUILD/decode-diff/kernels)
#   ggml's libggml-hip.so    of the rocm-6.4 root: the gfx1030 and gfx1100
#                            entries of every EVERY-th bundle (default 35:
#                            bundles 0, 35, 70, 105 of 140; DECODE_DIFF_EVERY=1
#                            for all, ~25 min)
# Exit 0 when nothing differs, 1 on a mismatch, 77 when a tool is missing.
set -euo pipefail
BUILD=$(cd "${1:?usage: $0 BUILD}" && pwd -P)
here=$(cd "$(dirname "$0")" && pwd -P)
src=$(cd "$here/../.." && pwd -P)
OBJDUMP=${OBJDUMP:-/usr/lib/llvm-19/bin/llvm-objdump}
DUMP=$BUILD/tests/decode_dump
EVERY=${DECODE_DIFF_EVERY:-35}
skip() { echo "SKIP: $*" >&2; exit 77; }
[ -x "$OBJDUMP" ] || skip "$OBJDUMP not installed (llvm-19)"
[ -x "$DUMP" ] || skip "$DUMP not built (make $DUMP)"
work=$BUILD/decode-diff
mkdir -p "$work/kernels" "$work/ggml"
cos=()

for t in gfx1030 gfx1100; do
  f=$BUILD/gen/fallback/$t.co
  [ -f "$f" ] || skip "$f not built (make)"
  cos+=("$f:$t")
done
echo "fallbacks: $BUILD/gen/fallback/{gfx1030,gfx1100}.co"

# Test kernels: device code objects straight from hipcc (one per source and
# target), rebuilt when a source is newer than the stamp.
kern=("$src"/tests/integration/progs/*.hip "$src"/tests/integration/shim/*.hip)
stamp=$work/kernels/.stamp
if [ ! -f "$stamp" ] || [ -n "$(find "${kern[@]}" -newer "$stamp" 2>/dev/null)" ]; then
  "$src/tests/roots/path" rocm-6.4 >/dev/null 2>&1 || skip "the rocm-6.4 root is not built (make roots)"
  rm -f "$work"/kernels/*.out
  (cd "$work/kernels" && "$src/tests/roots/hipcc" rocm-6.4 --offload-arch=gfx1030 --offload-arch=gfx1100 -O1 \
     --offload-device-only --no-gpu-bundle-output -w -c "${kern[@]}" >/dev/null) ||
    { echo "FAIL: hipcc of the test kernels" >&2; exit 1; }
  touch "$stamp"
fi
n=0
for f in "$work"/kernels/*.out; do
  t=${f##*-}; cos+=("$f:${t%.out}"); n=$((n + 1))
done
echo "test kernels: $n code objects from ${#kern[@]} sources (tests/integration/progs, shim)"

root=$("$src/tests/roots/path" rocm-6.4 2>/dev/null) || root=
ggml=${root:+$root/usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so}
if [ -n "$ggml" ] && [ -f "$ggml" ]; then
  rm -f "$work"/ggml/*.co
  while read -r f p; do cos+=("$f:$p"); done < <("$DUMP" extract "$ggml" "$work/ggml" "$EVERY" gfx1030,gfx1100)
  echo "ggml: $(ls "$work"/ggml | wc -l) code objects of libggml-hip.so (gfx1030, gfx1100 of every ${EVERY}th bundle: $(ls "$work"/ggml | sed 's/-e.*//' | sort -uV | tr '\n' ' '))"
else
  echo "note: the rocm-6.4 root's libggml-hip.so is not there; ggml not compared" >&2
fi

python3 "$here/decode-diff.py" --objdump "$OBJDUMP" --dump "$DUMP" "${cos[@]}"
