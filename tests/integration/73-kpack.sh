#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 73-kpack.sh — TheRock's split device code end to end on the simulated
# card (executed): a HIP library (tests/integration/shim/kern.hip, gfx1030)
# is split with `rdnacompat kpack split` into .kpack/demo_lib_gfx1030.kpack
# and turned into a kpack'd library (`rdnacompat kpack hipk` + the
# .rocm_kpack_ref marker added by objcopy); a stand-in librocm_kpack.so.0
# (tests/integration/kpack/standin_kpack.c, the real loader's search,
# environment and error codes from its source) and a stand-in host
# (kpack_host.cpp: arch_list from gcnArchName as CLR builds it, then
# hipModuleLoadData, a launch, a CPU reference) run it:
#   1. gfx1030 card, its own archive: loads, result ok, without the shim;
#   2. gfx1031 card, only the gfx1030 archive: error 13 without the shim;
#      with the shim: the map line names gfx1031 and gfx1030, result ok;
#   3. ROCM_KPACK_PATH naming the gfx1030 archive: 14 without, ok with;
#   4. a refused kernel (a [badkernels] row): no map, 13 returned untouched;
#   5. ROCM_KPACK_DISABLE=1: 8 passes through, the shim does nothing;
#   6. `rdnacompat inspect --gpu gfx1031 --json` on the library: mapped.
. "$(dirname "$0")/shim/common.sh"
command -v objcopy >/dev/null || skip "no objcopy"
TOOL=$B/bin/rdnacompat
K=${RDC_SRCDIR:-$(pwd)}/tests/integration/kpack
D=$T/kpack73
rm -rf "$D" && mkdir -p "$D/lib" "$D/.kpack" "$D/loader"

# the stand-in loader (made by `make integration`; else built here, on the
# host: the roots have no libmsgpackc) and host
if [ -s "$B/tests/kpack/librocm_kpack.so.0" ]; then
  cp "$B/tests/kpack/librocm_kpack.so.0" "$D/loader/"
else
  [ -z "$RDC_ROOT" ] || fail "no $B/tests/kpack/librocm_kpack.so.0 (make integration builds it)"
  "$CC_TEST" -std=c11 -D_GNU_SOURCE -Wall -O1 -g -shared -fPIC -I"${RDC_SRCDIR:-$(pwd)}/include" \
    -Wl,-soname,librocm_kpack.so.0 -Wl,--exclude-libs,ALL "$K/standin_kpack.c" "$B/librdc_core.a" \
    -Wl,-Bstatic -lmsgpackc -lzstd -Wl,-Bdynamic -lelf -lz -lm -o "$D/loader/librocm_kpack.so.0" \
    2>"$D/cc.log" || { cat "$D/cc.log" >&2; fail "stand-in loader"; }
fi
build kpack_host "$K/kpack_host.cpp" -L"$D/loader" -l:librocm_kpack.so.0 -Wl,-rpath,"$D/loader"
build libdemo1030.so "$S/kern.hip" -shared -fPIC --offload-arch=gfx1030

# the kpack'd library and its archive, as TheRock lays them out
"$TOOL" kpack split -o "$D/.kpack" --group demo_lib --key-prefix demo/lib/libdemo.so.1 "$T/libdemo1030.so" \
  >"$D/split.out" || fail "kpack split"
[ -s "$D/.kpack/demo_lib_gfx1030.kpack" ] || fail "no gfx1030 archive: $(cat "$D/split.out")"
"$TOOL" kpack ref -o "$D/marker" --kernel-name demo/lib/libdemo.so.1 ../.kpack/demo_lib_@GFXARCH@.kpack ||
  fail "kpack ref"
"$TOOL" kpack hipk -o "$D/hipk.so" "$T/libdemo1030.so" >/dev/null || fail "kpack hipk"
objcopy --add-section .rocm_kpack_ref="$D/marker" --set-section-flags .rocm_kpack_ref=readonly,contents \
  "$D/hipk.so" "$D/lib/libdemo.so.1" || fail "objcopy"
LIB=$D/lib/libdemo.so.1

run() { # NAME SHIM(0/1) GPU [ENV...]: run the host; rc in $rc, output in $D/NAME.{out,err}
  local name=$1 withshim=$2 gpu=$3; shift 3
  rc=0
  (
    for kv in "$@"; do export "$kv"; done
    if [ "$withshim" = 1 ]; then RDNACOMPAT_LOG=info shim "$gpu" "$T/kpack_host" "$LIB"
    else sim "$gpu" "$T/kpack_host" "$LIB"; fi
  ) >"$D/$name.out" 2>"$D/$name.err" || rc=$?
}
ok_result() { [ "$rc" -eq 0 ] && grep -q "^kpack_load_code_object: 0$" "$D/$1.out" && grep -q "^result ok" "$D/$1.out"; }
loader_says() { grep -qx "kpack_load_code_object: $2" "$D/$1.out"; }

# 1. gfx1030 with its own archive, no shim
run own 0 gfx1030 ROCM_KPACK_DEBUG=1
ok_result own || fail "gfx1030: $(cat "$D/own.out" "$D/own.err")"
grep -q "arch_list amdgcn-amd-amdhsa--gfx1030 amdgcn-amd-amdhsa--gfx10-3-generic" "$D/own.out" || fail "gfx1030: arch_list"
grep -q "kpack: expanded pattern: ../.kpack/demo_lib_@GFXARCH@.kpack -> $D/lib/../.kpack/demo_lib_gfx1030.kpack" \
  "$D/own.err" || fail "gfx1030: the loader did not expand the marker's path: $(cat "$D/own.err")"
echo "ok: gfx1030 loads its own archive (no shim), result checked on the simulated card (executed)"

# 2. gfx1031, only the gfx1030 archive
run noshim 0 gfx1031
[ "$rc" -eq 3 ] && loader_says noshim 13 || fail "gfx1031 without the shim: rc=$rc $(cat "$D/noshim.out")"
rm -f "$D/t.trace"
run withshim 1 gfx1031 RDNACOMPAT_SIM_TRACE="$D/t.trace"
ok_result withshim || fail "gfx1031 with the shim: rc=$rc $(cat "$D/withshim.out" "$D/withshim.err")"
grep -q "info: map: lib=libdemo.so.1 bundle=0 source=kpack device=0 target=gfx1031 mode=map verdict=mapped entry=amdgcn-amd-amdhsa--gfx1030 chosen=gfx1030 kernels=1 refused=0" \
  "$D/withshim.err" || fail "gfx1031: no map line naming both targets: $(cat "$D/withshim.err")"
grep -q "loader error 13 (no archive) for amdgcn-amd-amdhsa--gfx1031, amdgcn-amd-amdhsa--gfx10-3-generic" \
  "$D/withshim.err" || fail "gfx1031: the loader's first answer not logged"
kernels_on "$D/t.trace" gfx1031 || fail "gfx1031: the kernel did not run from a gfx1031 code object"
echo "ok: gfx1031 gets 13 without the shim, the gfx1030 archive's code retargeted with it (executed, checked)"

# 3. ROCM_KPACK_PATH naming the other arch's archive: 14, then the shim
run path0 0 gfx1031 ROCM_KPACK_PATH="$D/.kpack/demo_lib_gfx1030.kpack"
[ "$rc" -eq 3 ] && loader_says path0 14 || fail "ROCM_KPACK_PATH without the shim: rc=$rc $(cat "$D/path0.out")"
run path1 1 gfx1031 ROCM_KPACK_PATH="$D/.kpack/demo_lib_gfx1030.kpack"
ok_result path1 && grep -q "loader error 14" "$D/path1.err" && grep -q "info: map: .*source=kpack .*chosen=gfx1030" "$D/path1.err" ||
  fail "ROCM_KPACK_PATH with the shim: rc=$rc $(cat "$D/path1.out" "$D/path1.err")"
echo "ok: ROCM_KPACK_PATH: 14 without the shim, mapped through the same path with it"

# 4. a refused kernel: nothing mapped, the loader's 13 returned
printf '[badkernels]\ngfx1031\tgfx1030\t*fill_iota*\trefuse\ttest rule: pretend it hangs\t73-kpack\n' >"$D/bad.tsv"
run refused 1 gfx1031 RDNACOMPAT_TABLES="$D/bad.tsv"
[ "$rc" -eq 3 ] && loader_says refused 13 || fail "refused: rc=$rc $(cat "$D/refused.out" "$D/refused.err")"
grep -q "warn: refused: lib=libdemo.so.1 bundle=0 device=0 kernel=fill_iota check=badlist" "$D/refused.err" ||
  fail "refusal not logged: $(cat "$D/refused.err")"
grep -q "info: map:" "$D/refused.err" && fail "mapped despite the refusal"
echo "ok: a refused kernel leaves the loader's 13 untouched, the log names kernel and check"

# 5. ROCM_KPACK_DISABLE: 8 passes through
run disabled 1 gfx1031 ROCM_KPACK_DISABLE=1
[ "$rc" -eq 3 ] && loader_says disabled 8 || fail "disabled: rc=$rc $(cat "$D/disabled.out")"
grep -q "kpack" "$D/disabled.err" && fail "the shim acted on a disabled loader: $(grep kpack "$D/disabled.err")"
echo "ok: ROCM_KPACK_DISABLE=1: 8 passed through untouched"

# 6. inspect
"$TOOL" inspect --gpu gfx1031 --json "$LIB" >"$D/inspect.json" || fail "inspect rc=$?"
$PY - "$D/inspect.json" <<'PY' || fail "inspect --json"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"][0]
assert f["kind"] == "kpack host", f["kind"]
assert f["kpack_ref"]["kernel_name"] == "demo/lib/libdemo.so.1"
assert f["kpack_ref"]["hipk_wrappers"] >= 1
a = f["kpack_ref"]["archives"]
assert len(a) == 1 and a[0]["kpack"]["gfx_arches"] == ["gfx1030"], a
b = a[0]["bundles"][0]
assert b["verdict"] == "mapped" and b["chosen"] == "gfx1030", b
assert d["summary"]["mapped"] == 1 and d["summary"]["missing"] == 0, d["summary"]
PY
echo "ok: inspect --gpu gfx1031 names the gfx1030 archive, mapped"
echo "73-kpack: ok"
