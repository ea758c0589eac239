#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 44-shim-own-files.sh — the shim's file redirection touches the per-arch
# data files of rocBLAS/hipBLASLt/MIOpen only, by base name, and says each
# one (audit 2026-12-03 H1).  On a simulated gfx1031 whose compatible target
# is gfx1030, a program (ownfiles.cpp) probes with access, stat, fopen, open
# and openat:
#   - its own files with the target in a directory or in the name
#     (…/gfx1031/settings.txt, cache_gfx1031.bin, gfx1031.dat), whose gfx1030
#     twins exist: each stays missing, nothing is logged;
#   - a Tensile library under a target-named directory: redirected in the base
#     name only (…/gfx1031/TensileLibrary_lazy_gfx1030.dat, never
#     …/gfx1030/…), said once at the default log level (warn), one line with
#     both paths.
. "$(dirname "$0")/shim/common.sh"
build ownfiles "$S/ownfiles.cpp"
D=$T/ownfiles44
rm -rf "$D" && mkdir -p "$D/gfx1030" "$D/gfx1031" "$D/cache"
echo "app-gfx1030" >"$D/gfx1030/settings.txt"
echo "cache-gfx1030" >"$D/cache/cache_gfx1030.bin"
echo "dat-gfx1030" >"$D/gfx1030.dat"
echo "wrong-dir" >"$D/gfx1030/TensileLibrary_lazy_gfx1030.dat"   # must never be taken
echo "tensile-gfx1030" >"$D/gfx1031/TensileLibrary_lazy_gfx1030.dat"
own="$D/gfx1031/settings.txt $D/cache/cache_gfx1031.bin $D/gfx1031.dat"
lib=$D/gfx1031/TensileLibrary_lazy_gfx1031.dat

rc=0; shim gfx1031 "$T/ownfiles" $own "$lib" >"$D/out" 2>"$D/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "ownfiles: rc=$rc"; }
for p in $own; do
  grep -qx "$p access=0 stat=0 fopen=- open=- openat=-" "$D/out" ||
    { cat "$D/out" >&2; fail "the program's own $p was redirected"; }
  grep -qF "from=$p" "$D/err" && fail "a redirect of the program's own $p was logged"
done
grep -qx "$lib access=1 stat=1 fopen=tensile-gfx1030 open=tensile-gfx1030 openat=tensile-gfx1030" "$D/out" ||
  { cat "$D/out" >&2; fail "the Tensile library was not redirected in its base name only"; }
grep -q "wrong-dir" "$D/out" && fail "a directory component was rewritten"
n=$(grep -c "warn: redirect: .*from=$lib to=$D/gfx1031/TensileLibrary_lazy_gfx1030.dat " "$D/err")
[ "$n" = 1 ] || { cat "$D/err" >&2; fail "the redirect was said $n times at the default level (want once)"; }
echo "ok: the program's own gfx1031 files (directory, cache, .dat) left alone; the Tensile library redirected in its base name, said once at warn"

# RDNACOMPAT_REDIRECT_FILES=0: nothing redirected, nothing said.
rc=0; RDNACOMPAT_REDIRECT_FILES=0 shim gfx1031 "$T/ownfiles" "$lib" >"$D/out" 2>"$D/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "REDIRECT_FILES=0: rc=$rc"; }
grep -qx "$lib access=0 stat=0 fopen=- open=- openat=-" "$D/out" || fail "REDIRECT_FILES=0: redirected"
grep -q "redirect:" "$D/err" && fail "REDIRECT_FILES=0: a redirect was logged"
echo "ok: RDNACOMPAT_REDIRECT_FILES=0 redirects nothing"
