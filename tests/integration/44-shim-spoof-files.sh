#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 44-shim-spoof-files.sh — modes and per-arch data files, with a stand-in
# librocblas.so.0 that picks TensileLibrary_lazy_<gcnArchName>.dat like
# rocBLAS: map mode keeps names true and redirects the missing gfx1031 file
# (open, fopen, access, stat, __xstat) and code-object listing (glob) to
# gfx1030's; spoof tells only librocblas gfx1030; off changes nothing;
# RDNACOMPAT_DEVICE_<N> sets one device's mode.  Built by each release's
# hipcc: HIP >= 6 programs call hipGetDevicePropertiesR0600@hip_6.0 (the
# 6.x headers #define the name), which spoof mode answers too.
. "$(dirname "$0")/shim/common.sh"
build librocblas.so.0 "$S/fakeblas.cpp" -shared -fPIC -Wl,-soname,librocblas.so.0
build spoofmain "$S/spoofmain.cpp" -L"$T" -l:librocblas.so.0 -Wl,-rpath,"$T"
D=$T/tensile
rm -rf "$D" && mkdir -p "$D" && echo "lib-gfx1030" >"$D/TensileLibrary_lazy_gfx1030.dat"
echo "lib-gfx10310" >"$D/TensileLibrary_lazy_gfx10310.dat"   # must never be picked for gfx1031
: >"$D/Kernels.so-000-gfx1030.co"                              # what glob(*gfx1031*co) should find

run() { rc=0; shim "$@" >"$T/s.out" 2>"$T/s.err" || rc=$?; [ "$rc" -eq 0 ] || { cat "$T/s.err" >&2; fail "$*: rc=$rc"; }; }
expect() { grep -qx "$1" "$T/s.out" || { cat "$T/s.out" >&2; fail "$2: want '$1'"; }; }
ok="access=1 stat=1 xstat=1 fopen=lib-gfx1030 open=lib-gfx1030 glob=1"
none="access=0 stat=0 xstat=0 fopen=- open=- glob=0"

RDNACOMPAT_LOG=info run gfx1031,gfx1030 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1031 $ok" "map"
expect "device1 app=gfx1030 rocblas=gfx1030 $ok" "map (native device)"
grep -q "redirect: device=0 target=gfx1031 from=$D/TensileLibrary_lazy_gfx1031.dat to=$D/TensileLibrary_lazy_gfx1030.dat" \
  "$T/s.err" || fail "map: redirect not logged"

RDNACOMPAT_MODE=spoof RDNACOMPAT_LOG=info run gfx1031,gfx1030 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1030 $ok" "spoof"
grep -q "spoof: device=0 target=gfx1031 reported=gfx1030 caller=$T/librocblas.so.0" "$T/s.err" || fail "spoof not logged"

RDNACOMPAT_MODE=spoof RDNACOMPAT_SPOOF_FOR=libMIOpen.so run gfx1031 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1031 $ok" "spoof for another library only"

RDNACOMPAT_MODE=off run gfx1031 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1031 $none" "off"

RDNACOMPAT_REDIRECT_FILES=0 run gfx1031 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1031 $none" "RDNACOMPAT_REDIRECT_FILES=0"

RDNACOMPAT_DEVICE_0=spoof run gfx1031,gfx1032 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1030 $ok" "per-device spoof"
expect "device1 app=gfx1032 rocblas=gfx1032 $ok" "per-device map"

RDNACOMPAT_DEVICE_1=off run gfx1031,gfx1032 "$T/spoofmain" "$D"
expect "device1 app=gfx1032 rocblas=gfx1032 $none" "per-device off"
expect "device0 app=gfx1031 rocblas=gfx1031 $ok" "per-device: the other device still maps"

# HIP_VISIBLE_DEVICES renumbers: HIP's device 0 is the second agent here.
HIP_VISIBLE_DEVICES=1 RDNACOMPAT_MODE=spoof run gfx1030,gfx1031 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1030 $ok" "HIP_VISIBLE_DEVICES=1"
HIP_VISIBLE_DEVICES=1 RDNACOMPAT_DEVICE_0=off run gfx1030,gfx1031 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1031 $none" "HIP_VISIBLE_DEVICES=1, device 0 off"

# An existing file for the real target is never redirected.
echo "lib-gfx1031" >"$D/TensileLibrary_lazy_gfx1031.dat"
run gfx1031 "$T/spoofmain" "$D"
expect "device0 app=gfx1031 rocblas=gfx1031 access=1 stat=1 xstat=1 fopen=lib-gfx1031 open=lib-gfx1031 glob=1" "existing file"
echo "44-shim-spoof-files: ok"
