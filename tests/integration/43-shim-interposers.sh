#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 43-shim-interposers.sh — the shim never bypasses another interposer
# (issue 8).  An unrelated interposer (shim/countcalls.c: unversioned open,
# open64, openat, fopen, fopen64, access, stat, __xstat, glob, as faketime
# or a tracer define them) is preloaded after the shim and before it; the
# stand-in librocblas.so.0 (shim/fakeblas.cpp) reads its gfx1031 data file
# on a simulated gfx1031, which the shim redirects to gfx1030's.  Both must
# see the calls: after the shim, the interposer sees the redirected
# (gfx1030) names — the shim's real functions lead to it, not around it —
# and before it, the program's (gfx1031) names, and the shim still
# redirects.  Before this fix the shim looked its libc functions up with
# dlvsym(RTLD_NEXT, name, "GLIBC_2.2.5"), which skips an unversioned
# definition, so an interposer loaded after it saw nothing.
. "$(dirname "$0")/shim/common.sh"
build librocblas.so.0 "$S/fakeblas.cpp" -shared -fPIC -Wl,-soname,librocblas.so.0
build spoofmain "$S/spoofmain.cpp" -L"$T" -l:librocblas.so.0 -Wl,-rpath,"$T"
CC=${CC:-$CC_TEST}
[ -n "$CC" ] || skip "no C compiler"
if [ ! -f "$T/libcountcalls.so" ] || [ "$S/countcalls.c" -nt "$T/libcountcalls.so" ]; then
  "$CC" -shared -fPIC -O1 -o "$T/libcountcalls.so" "$S/countcalls.c" -ldl || fail "build countcalls"
fi
D=$T/interpose43
rm -rf "$D" && mkdir -p "$D/data"
echo "lib-gfx1030" >"$D/data/TensileLibrary_lazy_gfx1030.dat"
: >"$D/data/Kernels.so-000-gfx1030.co"
ok="access=1 stat=1 xstat=1 fopen=lib-gfx1030 open=lib-gfx1030 glob=1"

for order in "after" "before"; do
  if [ "$order" = after ]; then pre="$SHIM:$T/libcountcalls.so"; else pre="$T/libcountcalls.so:$SHIM"; fi
  rm -f "$D/counts"
  rc=0; timeout 60 env LD_PRELOAD="$SIM/librdnacompat-sim.so:$pre" COUNTCALLS_OUT="$D/counts" RDNACOMPAT_LOG=info \
    RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 \
    "$T/spoofmain" "$D/data" >"$D/out" 2>"$D/err" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "interposer $order the shim: rc=$rc"; }
  grep -qx "device0 app=gfx1031 rocblas=gfx1031 $ok" "$D/out" ||
    { cat "$D/out" >&2; fail "interposer $order the shim: the shim did not redirect"; }
  grep -q "redirect: device=0 target=gfx1031 " "$D/err" || fail "interposer $order: no redirect logged"
  [ -s "$D/counts" ] || fail "interposer $order: it wrote no counts"
  # The interposer saw each kind of call, with the name it was given.
  want=gfx1030; [ "$order" = before ] && want=gfx1031
  for fn in access stat __xstat fopen open glob; do
    line=$(grep "^$fn " "$D/counts" | tail -1)
    set -- $line
    [ "${2:-0}" -gt 0 ] || { cat "$D/counts" >&2; fail "interposer $order the shim saw no $fn call"; }
    [ "${3:-}" = "$want" ] || fail "interposer $order the shim: last $fn named $3, want $want"
  done
done
echo "43-shim-interposers: ok"
