#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 7.2 — gfx115x cards and image sampling need ROCm 7.2's HIP and clang (gfx1153 and generic targets)
# 87-shim-point-sample.sh BUILD — the per-kernel instruction condition
# point-sample (tables/compat.tsv, tables/features.tsv, shim/core/policy_isa.c)
# and held kernels (docs/SHIM.md "Held kernels") on the texture program of
# 87-exec-image (progs/sim_texture.hip), simulated cards (executed):
#   - built for gfx1153 only, on gfx1150, gfx1151 and gfx1152 (cards with
#     LLVM's FeaturePointSampleAccel, whose waits gfx1153 code lacks): the
#     entry is mapped and every kernel that samples (image_sample*/gather4)
#     is held and said — kernel, instruction, offset, feature and LLVM's
#     reason; the kernels without samples run and check right against the
#     CPU; launching a held kernel answers hipErrorInvalidDeviceFunction
#     (said at warn), never runs it and never stops the process.  Both ways
#     HIP 7 takes a fat binary: read when first used (the default: the launch
#     hooks decide the library's bundle before the launch, hold.c) and decided
#     at registration (RDNACOMPAT_LAZY=0: deny routes, route.c); a second run
#     from the decision cache holds the same kernels;
#   - the same code as a module (hipModuleLoad of a gfx1153 code object,
#     progs/sim_modhold.hip): the held kernel is renamed in the object the
#     card gets, hipModuleGetFunction answers hipErrorNotFound for it, the
#     plain kernel is found and runs;
#   - without the per-kernel holds (a card, a path or a code object where a
#     kernel cannot be held alone) the entry is refused as a whole: tested in
#     tests/unit/test_isa_class.c;
#   - `rdnacompat explain -- CMD` on gfx1150 sums the log up per kernel: the
#     held kernels with their instruction and reason, and what fixes them;
#   - the same program on a gfx1153 card: its own code, clean, every check right;
#   - every way HIP takes a host stub ("apis": <<<>>>, _spt, cooperative, ext,
#     the multi-device lists, hipGetFuncBySymbol, graph kernel nodes, stream
#     capture, the attribute and occupancy calls; hook_stubs.c): each runs the
#     sampling kernel right on gfx1153 and is refused for the held kernel on
#     gfx1150 without stopping the process, with HIP reading fat binaries
#     lazily, at registration, and with HIP_ENABLE_DEFERRED_LOADING=0;
#   - built for gfx11-generic and gfx1153: HIP 7 would load the generic entry
#     on a gfx1150 by itself; the shim hands over the generic code with its
#     sampling kernels held instead (generic-replaced), the others run; the
#     same built compressed (HIP 7 unbundles it when a kernel is first used:
#     the launch hooks decide it before that launch) holds the same kernels.
. "$(dirname "$0")/lib/exec_common.bash"
here=$(cd "$(dirname "$0")" && pwd)
TOOL=$BUILD/bin/rdnacompat
[ -x "$TOOL" ] || skip "no $TOOL"
out=$BUILD/sim-tests/$rel/tex
exe=$(RDC_HIPCC=${RDC_HIPCC:-hipcc} "$here/progs/build_texture.sh" "$out" gfx1153) || fail "building the texture program for gfx1153"
gen=$(RDC_HIPCC=${RDC_HIPCC:-hipcc} "$here/progs/build_texture.sh" "$out" gfx11-generic,gfx1153) ||
  fail "building the texture program for gfx11-generic,gfx1153"
hipcc=${RDC_HIPCC:-hipcc}
co=$out/tex-gfx1153.co
modhold=$out/sim_modhold
if [ ! -f "$co" ] || [ "$here/progs/sim_texture.hip" -nt "$co" ]; then
  "$hipcc" --genco --offload-arch=gfx1153 -O1 -o "$co.tmp" "$here/progs/sim_texture.hip" && mv "$co.tmp" "$co" ||
    fail "building the texture kernels as a gfx1153 code object"
fi
if [ ! -x "$modhold" ] || [ "$here/progs/sim_modhold.hip" -nt "$modhold" ]; then
  "$hipcc" -O1 -o "$modhold.tmp" "$here/progs/sim_modhold.hip" && mv "$modhold.tmp" "$modhold" ||
    fail "building progs/sim_modhold.hip"
fi
samplers="tex_linear tex_point tex_3d tex_layered"
# held: each sampling kernel said with its instruction and reason, no other
held_said() {
  local f=$1 g=$2 k
  for k in $samplers; do
    grep -E "warn: held: .*kernel=_Z[0-9]+${k}P" "$f" |
      grep -qE "check=point-sample reason=\"image_(sample|gather4)[a-z0-9_]* at \+0x[0-9a-f]+ .*PointSampleAccel.*#127991" ||
      { cat "$f" >&2; fail "$g: the sampling kernel $k was not held with its instruction and reason"; }
  done
  ! grep -qE "warn: (held|refused): .*kernel=_Z[0-9]+(scale|img_copy)" "$f" ||
    fail "$g: a kernel without image samples was held or refused"
  grep -qE "verdict=mapped .*held=4 .*2 of 6 kernels pass and 4 are held" "$f" ||
    { cat "$f" >&2; fail "$g: the gfx1153 entry was not mapped with its 4 sampling kernels held"; }
}
for g in gfx1150 gfx1151 gfx1152; do
  for lazy in 1 0; do
    for run in first cached; do
      rc=0
      RDNACOMPAT_LAZY=$lazy XDG_CACHE_HOME=$tmp/cache-$g-$lazy timeout 120 "$TOOL" run --gpu "$g" --log-level info \
        -- "$exe" plain >"$tmp/$g.out" 2>&1 || rc=$?
      [ "$rc" -eq 0 ] && grep -q "^all checks passed" "$tmp/$g.out" ||
        { cat "$tmp/$g.out" >&2; fail "$g (lazy=$lazy, $run run): the plain kernel did not run right next to held ones"; }
      held_said "$tmp/$g.out" "$g (lazy=$lazy, $run run)"
      [ "$run" = first ] || grep -q "(cached)" "$tmp/$g.out" || fail "$g (lazy=$lazy): the second run was not from the cache"
      # a held kernel launched: refused at the launch, said, the process goes on to report it
      rc=0
      RDNACOMPAT_LAZY=$lazy XDG_CACHE_HOME=$tmp/cache-$g-$lazy timeout 120 "$TOOL" run --gpu "$g" --log-level info \
        -- "$exe" all >"$tmp/$g.all" 2>&1 || rc=$?
      [ "$rc" -eq 1 ] || { cat "$tmp/$g.all" >&2; fail "$g (lazy=$lazy, $run run): launching a held kernel gave exit $rc, not the program's own 1"; }
      grep -qE "warn: held-launch: kernel=_Z[0-9]+tex_pointP.* answer=hipErrorInvalidDeviceFunction" "$tmp/$g.all" &&
        grep -q "FAIL hipGetLastError(): invalid device function" "$tmp/$g.all" &&
        grep -q "^ok plain" "$tmp/$g.all" && grep -q "^ok load" "$tmp/$g.all" ||
        { cat "$tmp/$g.all" >&2; fail "$g (lazy=$lazy, $run run): the held kernel's launch was not refused as a function the card has no code for"; }
    done
  done
  ok "$g: gfx1153 code mapped, its 4 sampling kernels held and said, the plain kernels run and check right; a held kernel's launch answers invalid device function (lazy and at registration, first run and cached)"
  rc=0
  RDNACOMPAT_CACHE=0 timeout 120 "$TOOL" run --gpu "$g" --log-level info -- "$modhold" "$co" _Z5scalePffi \
    _Z10tex_linearP13__hip_texturePK15HIP_vector_typeIfLj2EEPfi >"$tmp/$g.mod" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] && grep -q "^get _Z5scalePffi: hipSuccess" "$tmp/$g.mod" && grep -q "^scaled ok" "$tmp/$g.mod" &&
    grep -q "^get _Z10tex_linear.*: hipErrorNotFound" "$tmp/$g.mod" ||
    { cat "$tmp/$g.mod" >&2; fail "$g: as a module, the held kernel was found or the plain one did not run"; }
  held_said "$tmp/$g.mod" "$g (module)"
  ok "$g: as a module the held kernel is not found (hipErrorNotFound), the plain one runs right"
done
# explain -- CMD: the per-kernel reasoning from the shim's log (audit mode)
rc=0
timeout 120 "$TOOL" explain --gpu gfx1150 -- "$exe" plain >"$tmp/explain.out" 2>&1 || rc=$?
for k in $samplers; do
  grep -qE "refused +.*kernel=_Z[0-9]+${k}P.* check=point-sample reason=\"image_(sample|gather4)" "$tmp/explain.out" ||
    { cat "$tmp/explain.out" >&2; fail "explain -- CMD: the held kernel $k is not in the summary with its reason"; }
done
grep -q "verdict=mapped .*held=4" "$tmp/explain.out" && grep -q "fix: .*(held: kept from running" "$tmp/explain.out" ||
  { cat "$tmp/explain.out" >&2; fail "explain -- CMD: the mapping with held kernels is not summed up"; }
ok "explain -- CMD on gfx1150: the would-be mapping, its 4 held kernels with instruction and reason, and what fixes them"
RDNACOMPAT_CACHE=0 timeout 120 "$TOOL" run --gpu gfx1153 --log-level info -- "$exe" >"$tmp/own.out" 2>&1 ||
  { cat "$tmp/own.out" >&2; fail "gfx1153 with its own code failed"; }
grep -q "^all checks passed" "$tmp/own.out" || fail "gfx1153: not every check passed"
! grep -qE "refused|point-sample" "$tmp/own.out" || fail "gfx1153: its own code was held to point-sample"
ok "gfx1153: its own code, every kernel runs and every check passes"
# every way HIP takes a host stub (hook_stubs.c): on gfx1153 each runs the
# sampling kernel right (the cooperative ones excepted: the simulated KFD has
# no GWS, so HIP fails them with or without the shim); on gfx1150 each is
# refused with HIP's answer for an unknown function and the process goes on —
# lazily read (default), decided at registration, and with HIP reading every
# kernel at registration (HIP_ENABLE_DEFERRED_LOADING=0: the held stubs are
# not registered, said as held-unregistered)
ways=15
RDNACOMPAT_CACHE=0 timeout 300 "$TOOL" run --gpu gfx1153 -- "$exe" apis >"$tmp/apis-own.out" 2>&1 ||
  { cat "$tmp/apis-own.out" >&2; fail "gfx1153: the apis mode failed on its own code"; }
n=$(grep -c "^api .*: ran, 64 samples right" "$tmp/apis-own.out")
[ "$n" -eq $((ways - 2)) ] && [ "$(grep -c '^api hipLaunchCooperative.*: refused: hipErrorLaunchFailure' "$tmp/apis-own.out")" -eq 2 ] ||
  { cat "$tmp/apis-own.out" >&2; fail "gfx1153: not every way of launching ran the sampling kernel right ($n of $((ways - 2)))"; }
for how in "RDNACOMPAT_LAZY=1" "RDNACOMPAT_LAZY=0" "HIP_ENABLE_DEFERRED_LOADING=0"; do
  rc=0
  env RDNACOMPAT_CACHE=0 "$how" timeout 300 "$TOOL" run --gpu gfx1150 --log-level warn -- "$exe" apis \
    >"$tmp/apis.out" 2>&1 || rc=$?
  n=$(grep -cE "^api .*: refused: hipErrorInvalid(DeviceFunction|Symbol|Value)$" "$tmp/apis.out")
  [ "$rc" -eq 0 ] && [ "$n" -eq $ways ] && grep -q "^ok plain" "$tmp/apis.out" &&
    ! grep -q "samples right" "$tmp/apis.out" ||
    { cat "$tmp/apis.out" >&2; fail "gfx1150 ($how): a way of launching the held kernel ran it or stopped the process (rc=$rc, $n of $ways refused)"; }
  [ "$how" != HIP_ENABLE_DEFERRED_LOADING=0 ] ||
    grep -qE "warn: held-unregistered: kernel=_Z[0-9]+tex_pointP" "$tmp/apis.out" ||
    { cat "$tmp/apis.out" >&2; fail "gfx1150 ($how): the held stub's registration was not said"; }
done
ok "every way HIP takes a host stub ($ways: <<<>>>, _spt, cooperative, ext, multi-device, hipGetFuncBySymbol, graph nodes, capture, attributes, occupancy): gfx1153 runs the sampling kernel right; gfx1150 refuses each for the held kernel and goes on (lazy, at registration, HIP_ENABLE_DEFERRED_LOADING=0)"
# gfx11-generic + gfx1153 code: HIP 7 would load the generic entry on a
# gfx1150 by itself, sampling kernels and all; the shim hands over the
# generic code with those kernels held instead (generic-replaced)
rc=0
RDNACOMPAT_CACHE=0 timeout 120 "$TOOL" run --gpu gfx1150 --log-level info -- "$gen" plain >"$tmp/gen.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && grep -q "^all checks passed" "$tmp/gen.out" ||
  { cat "$tmp/gen.out" >&2; fail "gfx1150 with gfx11-generic code: the plain kernel did not run"; }
grep -qE "info: generic-replaced: .*entry=gfx11-generic .*lack a workaround" "$tmp/gen.out" &&
  grep -qE "verdict=mapped entry=hipv4-amdgcn-amd-amdhsa--gfx11-generic .*held=4" "$tmp/gen.out" ||
  { cat "$tmp/gen.out" >&2; fail "gfx1150: HIP's own gfx11-generic choice was not replaced by the generic code with its sampling kernels held"; }
ok "gfx1150 with a gfx11-generic entry HIP would load itself: the generic code handed over with its 4 sampling kernels held, the plain kernel runs"
# the same built compressed: HIP 7 unbundles it itself when a kernel of it is
# first launched; the launch hooks decide the bundle, whole, before that
# first launch (lazy.c decide_ccob), and the unbundle hands over from that
# decision: the same generic code with the same kernels held
genz=$out/sim_texture-gfx11-generic-gfx1153-z
if [ ! -x "$genz" ] || [ "$here/progs/sim_texture.hip" -nt "$genz" ]; then
  "$hipcc" --offload-compress --offload-arch=gfx11-generic --offload-arch=gfx1153 -O1 -o "$genz.tmp" \
    "$here/progs/sim_texture.hip" && mv "$genz.tmp" "$genz" || fail "building the compressed texture program"
fi
"$TOOL" inspect "$genz" | grep -q "compressed" || fail "the compressed texture program's bundle is not compressed"
for c in plain all; do
  rc=0
  RDNACOMPAT_CACHE=0 timeout 120 "$TOOL" run --gpu gfx1150 --log-level info -- "$genz" $c >"$tmp/genz.$c" 2>&1 || rc=$?
  case $c in
  plain) [ "$rc" -eq 0 ] && grep -q "^all checks passed" "$tmp/genz.$c" ;;
  all) [ "$rc" -eq 1 ] && grep -qE "warn: held-launch: kernel=_Z[0-9]+tex_pointP" "$tmp/genz.$c" &&
       grep -q "^ok load" "$tmp/genz.$c" ;;
  esac || { cat "$tmp/genz.$c" >&2; fail "gfx1150 with compressed gfx11-generic code ($c): rc=$rc"; }
  grep -qE "verdict=mapped entry=hipv4-amdgcn-amd-amdhsa--gfx11-generic .*held=4" "$tmp/genz.$c" ||
    { cat "$tmp/genz.$c" >&2; fail "gfx1150, compressed ($c): the generic code was not handed over with its sampling kernels held"; }
done
ok "gfx1150 with a compressed gfx11-generic entry: decided before the first launch, the sampling kernels held, the plain kernel runs"
# the watch's work is per distinct host stub, not per launch: sim_texture's
# plain check launches one stub three times (hold_stubs 1, hold_asked 3);
# on a card no conditioned edge leads to (gfx1153) nothing is asked at all
RDNACOMPAT_CACHE=0 RDNACOMPAT_STATS=1 timeout 120 "$TOOL" run --gpu gfx1150 --log-level info -- "$exe" plain \
  >"$tmp/stats.out" 2>&1 || { cat "$tmp/stats.out" >&2; fail "gfx1150 stats run failed"; }
st=$(grep -m1 "info: stats: " "$tmp/stats.out") || fail "no stats line"
asked=$(echo "$st" | sed -n 's/.* hold_asked=\([0-9]*\).*/\1/p') stubs=$(echo "$st" | sed -n 's/.* hold_stubs=\([0-9]*\).*/\1/p')
[ -n "$asked" ] && [ -n "$stubs" ] && [ "$stubs" -ge 1 ] && [ "$stubs" -lt "$asked" ] ||
  fail "gfx1150: the watch answered $stubs stubs for $asked launches: $st"
RDNACOMPAT_CACHE=0 RDNACOMPAT_STATS=1 timeout 120 "$TOOL" run --gpu gfx1153 --log-level info -- "$exe" plain \
  >"$tmp/stats0.out" 2>&1 || true
grep -m1 "info: stats: " "$tmp/stats0.out" | grep -q " hold_asked=0 hold_stubs=0" ||
  { cat "$tmp/stats0.out" >&2; fail "gfx1153 (no conditioned edge into it): the watch asked"; }
ok "the watch answers once per host stub ($stubs for $asked launches on gfx1150) and not at all on a gfx1153"
