#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 44-shim-dlopen.sh — MIOpen's per-arch composable-kernel library
# (libMIOpenCKGroupedConv_<target>.so, which MIOpen dlopens by path) is a
# per-arch file the shim redirects: on a simulated gfx1031 whose compatible
# target is gfx1030, a program (dlck.cpp) dlopens
#   - …/libMIOpenCKGroupedConv_gfx1031.so, missing, beside a stand-in
#     …_gfx1030.so: the gfx1030 one is loaded, said once at warn with both
#     paths;
#   - its own …/foo_gfx1031.so, missing, beside foo_gfx1030.so: not
#     redirected (fails as without the shim), nothing logged;
#   - a library whose RUNPATH ($ORIGIN/dep) alone finds the library it
#     dlopens by bare name: still found (the hook keeps the caller the
#     caller; a plain C wrapper would make the shim the caller and lose it).
# RDNACOMPAT_REDIRECT_FILES=0 turns the redirection off.
. "$(dirname "$0")/shim/common.sh"
build dlck "$S/dlck.cpp"
D=$T/dlopen44
rm -rf "$D" && mkdir -p "$D/lib" "$D/app" "$D/dep"
so() { # so OUT WHICH [EXTRA...]: a shared object whose which() returns WHICH
  local out=$1 w=$2; shift 2
  printf 'const char *which(void) { return "%s"; }\n' "$w" >"$D/so.c"
  "$CC_TEST" -shared -fPIC "$D/so.c" "$@" -o "$out" || fail "cc $out"
}
so "$D/lib/libMIOpenCKGroupedConv_gfx1030.so" ck-gfx1030
so "$D/app/foo_gfx1030.so" foo-gfx1030
so "$D/dep/libdep44.so" dep-by-runpath
printf '#include <dlfcn.h>\nconst char *load(void) { void *h = dlopen("libdep44.so", RTLD_NOW);\n'\
'const char *(*w)(void) = h ? (const char *(*)(void))dlsym(h, "which") : 0; return w ? w() : "-"; }\n' >"$D/caller.c"
"$CC_TEST" -shared -fPIC "$D/caller.c" -Wl,-rpath,'$ORIGIN/dep' -Wl,--enable-new-dtags -ldl -o "$D/libcaller44.so" ||
  fail "cc libcaller44.so"
ck=$D/lib/libMIOpenCKGroupedConv_gfx1031.so
foo=$D/app/foo_gfx1031.so
preload="$SHIM:$SIM/librdnacompat-sim.so"
run() { env LD_PRELOAD="$preload" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 timeout 120 "$T/dlck" "$@"; }

rc=0; run "$ck" "$ck" "$foo" "call:$D/libcaller44.so" >"$D/out" 2>"$D/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "dlck: rc=$rc"; }
[ "$(grep -cx "$ck ck-gfx1030" "$D/out")" = 2 ] ||
  { cat "$D/out" "$D/err" >&2; fail "the CK library for gfx1031 was not loaded from the gfx1030 one"; }
n=$(grep -c "warn: redirect: .*from=$ck to=$D/lib/libMIOpenCKGroupedConv_gfx1030.so .*how=dlopen" "$D/err")
[ "$n" = 1 ] || { cat "$D/err" >&2; fail "the CK redirect was said $n times at warn (want once)"; }
echo "ok: dlopen of the missing libMIOpenCKGroupedConv_gfx1031.so loaded the gfx1030 one, said once at warn"
grep -qx "$foo -" "$D/out" || { cat "$D/out" >&2; fail "the program's own foo_gfx1031.so was redirected"; }
grep -qF "from=$foo" "$D/err" && fail "a redirect of the program's own $foo was logged"
echo "ok: the program's own missing foo_gfx1031.so is not redirected"
grep -qx "$D/libcaller44.so dep-by-runpath" "$D/out" ||
  { cat "$D/out" "$D/err" >&2; fail "a bare-name dlopen through the caller's RUNPATH failed under the shim"; }
echo "ok: a library's bare-name dlopen still searches that library's RUNPATH"

rc=0; RDNACOMPAT_REDIRECT_FILES=0 run "$ck" >"$D/out" 2>"$D/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "REDIRECT_FILES=0: rc=$rc"; }
grep -qx "$ck -" "$D/out" || fail "REDIRECT_FILES=0: the CK library was redirected"
grep -q "redirect:" "$D/err" && fail "REDIRECT_FILES=0: a redirect was logged"
echo "ok: RDNACOMPAT_REDIRECT_FILES=0 redirects no dlopen"
