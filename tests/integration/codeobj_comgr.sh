#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — it checks our retargeted objects against comgr 5.2.3's reader (the roots' comgr reads them in every 6.4/7.2 shim test)
# codeobj_comgr.sh BUILD — does the real comgr (Debian libamd-comgr2 5.2.3,
# what CLR reads code objects with) accept our retargeted code objects?
# Same-length (gfx1030 -> gfx1031, gfx1031 -> gfx1032: in-place) and different-length
# (gfx90a:xnack+ -> gfx90a, gfx90a:xnack- -> gfx90a:sramecc-:xnack-: the
# re-encoded note appended, PT_NOTE and .note repointed) retargets are fed
# to amd_comgr_get_data_isa_name and amd_comgr_get_data_metadata; llvm-readelf-15
# must read them without warnings.  Also a code object with two metadata
# notes (comgr merges their kernels).  Skips (77) without comgr headers or
# the fixtures.
set -u
build=${1:?usage: codeobj_comgr.sh BUILD}
fx="$build/fixtures/co"
[ -f /usr/include/amd_comgr.h ] || { echo "skip: no amd_comgr.h (libamd-comgr-dev)" >&2; exit 77; }
[ -s "$fx/gfx1030.co" ] && [ -s "$fx/gfx90a_xnackon.co" ] || { echo "skip: fixtures not built" >&2; exit 77; }
[ -s "$build/librdc_core.a" ] || { echo "skip: $build/librdc_core.a not built" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")/../.." && pwd)
${CC:-cc} -std=c11 -D_GNU_SOURCE -I"$here/include" "$here/tests/integration/codeobj_comgr.c" \
  "$build/librdc_core.a" -lamd_comgr -lelf -lmsgpackc -lzstd -lz -lnettle -lm -o "$tmp/codeobj_comgr" || exit 1
fail=0
run() { # input target
  local out="$tmp/$(basename "$1" .co)-$(echo "$2" | tr ':+' '_p').co"
  if "$tmp/codeobj_comgr" "$1" "$2" "$out"; then
    if command -v llvm-readelf-15 >/dev/null; then
      if llvm-readelf-15 -h -l -S --notes "$out" 2>&1 | grep -qiE 'warning|error'; then
        echo "FAIL: llvm-readelf-15 complains about $out"; fail=1
      fi
    fi
  else
    echo "FAIL: comgr disagrees: $1 -> $2"; fail=1
  fi
}
run "$fx/gfx1030.co" gfx1031
run "$fx/gfx1031.co" gfx1032
# (comgr 5.2.3 knows no gfx11 processor: amd_comgr_get_data_isa_name fails
# even on clang-15's own gfx1100 object, so gfx11 retargets are not checked here.)
run "$fx/gfx90a_xnackon.co" gfx90a
run "$fx/gfx90a_xnackoff.co" gfx90a:sramecc-:xnack-
# Two metadata notes (codeobj.d/multinote.sh, as in rocBLAS's Tensile .co):
# comgr merges the notes' kernels; its count must be ours, and every note
# must carry the new target (one patched in place, one length re-encoded).
mn="$build/fixtures/codeobj/multinote-gfx1030.co"
if [ -s "$mn" ]; then
  run "$mn" gfx1031
  run "$mn" gfx90a:xnack-
fi
[ "$fail" = 0 ] && echo "codeobj_comgr: comgr accepts retargeted code objects"
exit $fail
