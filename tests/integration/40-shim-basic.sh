#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 40-shim-basic.sh — a gfx1030-only HIP program (and a gfx1100-only one),
# built by the release's own hipcc, on a simulated gfx1031 (gfx1101) with
# Debian's real HIP + ROCR 5.2, 6.4 or 7.2: without the shim it fails as that
# release fails (5.2 aborts with hipErrorNoBinaryForGpu, 6.4 returns
# "invalid device function" at the launch, 7.2 crashes with SIGSEGV in
# hipLaunchKernel after "No compatible code objects found"); under
# HSA_OVERRIDE_GFX_VERSION it runs under the borrowed name; with the shim it
# runs, every kernel is dispatched from a code object loaded as the card's
# own target, and the log names the mapping (text and JSON); the program,
# whose own device code is the sibling's, is told the sibling's name (its
# host code chooses for that code; codename.c), HIP keeps the truth, and
# RDNACOMPAT_NAME_FOLLOWS_CODE=0 tells the program the truth too.  Modes off and audit leave the runtime's behaviour alone; a
# program with no compatible code gets the diagnosis block, worded for the
# release's failure.
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
# Debian's 5.2 hipcc cannot build for gfx1100 (its device libraries have no
# gfx1100 bitcode), so the gfx1100 program exists from 6.4 on.
pairs=1030:gfx1031:10.3.0
if [ "$REL" != 5.2 ]; then
  build vadd1100 "$S/vadd.hip" --offload-arch=gfx1100
  pairs="$pairs 1100:gfx1101:11.0.0"
else
  echo "note: no gfx1100 program on 5.2 (its device libraries have no gfx1100)" >&2
fi
build vadd900 "$S/vadd.hip" --offload-arch=gfx900

# 1. Without the shim: the release's failure, for gfx1030 code on gfx1031
#    and gfx1100 code on gfx1101; under HSA_OVERRIDE_GFX_VERSION both run
#    under the borrowed name.
for pair in $pairs; do
  IFS=: read -r code card ver <<<"$pair"
  rc=0; sim "$card" "$T/vadd$code" >"$T/b.out" 2>"$T/b.err" || rc=$?
  nocode_failed "$rc" "$T/b.out" "$T/b.err" ||
    fail "gfx$code-only program on $card without the shim: not HIP $REL's failure (rc=$rc): $(cat "$T/b.out" "$T/b.err")"
  rc=0; HSA_OVERRIDE_GFX_VERSION=$ver sim "$card" "$T/vadd$code" >"$T/b.out" 2>"$T/b.err" || rc=$?
  [ "$rc" -eq 0 ] && launch_ok "$T/b.out" || fail "override $ver on $card: rc=$rc $(cat "$T/b.out" "$T/b.err")"
  grep -qx "device0 gfx$code" "$T/b.out" || fail "override $ver: gcnArchName is not the borrowed gfx$code"
done
echo "ok: no-code failure of HIP $REL and HSA_OVERRIDE_GFX_VERSION under the borrowed name ($pairs)"

# 2. With it: runs, kernels from gfx1031 code, mapping logged, the program
#    told the name of the code it runs (and why).
rm -f "$T/b.trace"
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/b.trace" shim gfx1031 "$T/vadd1030" \
  >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/b.err" >&2; fail "with the shim: rc=$rc"; }
grep -qx "device0 gfx1030" "$T/b.out" || fail "gcnArchName is not gfx1030 (the code's): $(cat "$T/b.out")"
grep -qE "info: name: lib=\"?$T/vadd1030\"? device=0 target=gfx1031 reported=gfx1030 why=\"its device code is mapped from that target's entry\"" \
  "$T/b.err" || { cat "$T/b.err" >&2; fail "no name line for the program"; }
launch_ok "$T/b.out" || fail "launch failed: $(cat "$T/b.out")"
kernels_on "$T/b.trace" gfx1031 || fail "trace"
grep -E "info: map: lib=$T/vadd1030 bundle=0 .*device=0 target=gfx1031 .*chosen=gfx1030 kernels=1 refused=0" \
  "$T/b.err" >/dev/null || { cat "$T/b.err" >&2; fail "log does not name the mapping"; }
grep -q "^device0" "$T/b.err" && fail "program output on stderr?"
grep -q rdnacompat "$T/b.out" && fail "the shim wrote to stdout"
if [ "$REL" != 5.2 ]; then
  rm -f "$T/c.trace"
  rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/c.trace" shim gfx1101 "$T/vadd1100" \
    >"$T/b.out" 2>"$T/b.err" || rc=$?
  [ "$rc" -eq 0 ] && launch_ok "$T/b.out" || fail "gfx1100 code on gfx1101 with the shim: rc=$rc $(cat "$T/b.out" "$T/b.err")"
  grep -qx "device0 gfx1100" "$T/b.out" || fail "gcnArchName is not gfx1100 (the code's): $(cat "$T/b.out")"
  kernels_on "$T/c.trace" gfx1101 || fail "trace gfx1101"
  grep -q "info: map: lib=$T/vadd1100 .*target=gfx1101 .*chosen=gfx1100" "$T/b.err" || fail "no gfx1100->gfx1101 mapping logged"
fi
echo "ok: with the shim, each program on its card: told its code's name, every kernel from a retargeted code object"
rc=0; RDNACOMPAT_NAME_FOLLOWS_CODE=0 shim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -eq 0 ] && launch_ok "$T/b.out" || fail "RDNACOMPAT_NAME_FOLLOWS_CODE=0: rc=$rc $(cat "$T/b.out" "$T/b.err")"
grep -qx "device0 gfx1031" "$T/b.out" || fail "RDNACOMPAT_NAME_FOLLOWS_CODE=0: gcnArchName is not gfx1031: $(cat "$T/b.out")"
echo "ok: RDNACOMPAT_NAME_FOLLOWS_CODE=0: the true name"

# 3. JSON lines.
rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FORMAT=json RDNACOMPAT_LOG_FILE="$T/b.json" \
  shim gfx1031 "$T/vadd1030" >/dev/null 2>"$T/b.err" || rc=$?
[ "$rc" -eq 0 ] || fail "json run rc=$rc"
$PY - "$T/b.json" "$REL" <<'PYEOF' || fail "json log"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
maps = [e for e in ev if e["event"] == "map"]
assert maps, "no map event"
m = maps[-1]
assert m["target"] == "gfx1031" and m["chosen"] == "gfx1030" and m["kernels"] == 1, m
rb = [e for e in ev if e["event"] == "rebuilt"]
if sys.argv[2] != "7.2":
    # HIP 5.2 keeps the bundle handed over at registration, 6.4 reads every
    # plain bundle at hipInit: rebuilt at registration
    assert any(e["how"] == "file-mapping" for e in rb), "no file-mapped rebuild"
    # one card, mapped: the runtime gets the header (in the arena, below every
    # mapping HIP scans past) and the added entry alone, no original entries
    assert all(e["originals"] == 0 and e["header"] == "arena" for e in rb), rb
else:
    # HIP 7 looks the device's code up through comgr when it first uses the
    # module: the object is answered then, a private file mapping, nothing rebuilt
    assert not rb, rb
    rt = [e for e in ev if e["event"] == "retargeted"]
    assert rt and all(e["how"] == "file-mapping" for e in rt), rt
    st = [e for e in ev if e["event"] == "stats"]
    assert st and any(e["deferred"] == 1 and e["parsed"] + e["cached"] >= 1 for e in st), st
PYEOF
rm -f "$T/b.json"

# 4. off: exactly the runtime's behaviour, no log.
rc=0; RDNACOMPAT_MODE=off RDNACOMPAT_LOG=debug shim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "mode off still mapped"
grep -q "map:" "$T/b.err" && fail "mode off logged a mapping"

# 5. audit: logs what map would do, changes nothing.
rc=0; RDNACOMPAT_MODE=audit RDNACOMPAT_LOG=info shim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "mode audit changed the outcome"
grep -q "info: audit: lib=$T/vadd1030 .*chosen=gfx1030" "$T/b.err" || fail "audit line missing"

# 6. No compatible code: the diagnosis block before HIP fails, worded for
#    the release's failure; the failure itself is HIP's own.
rc=0; shim gfx1031 "$T/vadd900" >"$T/b.out" 2>"$T/b.err" || rc=$?
nocode_failed "$rc" "$T/b.out" "$T/b.err" || fail "gfx900 code on gfx1031 with the shim: not HIP $REL's failure (rc=$rc)"
grep -q "no compatible GPU code" "$T/b.err" || fail "no diagnosis block"
grep -q "$T/vadd900, bundle 0: device 0 (gfx1031)" "$T/b.err" || fail "block does not name the program"
grep -q "it has: *gfx900" "$T/b.err" || fail "block does not say what it has"
grep -q "card needs:" "$T/b.err" || fail "block does not say what is needed"
case $REL in
  5.2) says='HIP will report hipErrorNoBinaryForGpu'; hipsays='hipErrorNoBinaryForGpu';;
  6.*) says='HIP 6 returns hipErrorInvalidDeviceFunction'; hipsays='vadd: hipLaunchKernel: invalid device function';;
  *) says='HIP 7 fails the kernel.s launch'; hipsays=;;
esac
grep -q "no compatible GPU code: $says" "$T/b.err" || fail "block does not say what HIP $REL does: $(grep 'no compatible' "$T/b.err")"
if [ -n "$hipsays" ]; then
  blk=$(grep -n "no compatible GPU code" "$T/b.err" | head -1 | cut -d: -f1)
  hip=$(grep -n "$hipsays" "$T/b.err" | tail -1 | cut -d: -f1)
  [ -n "$hip" ] && [ "$blk" -lt "$hip" ] || fail "block not printed before HIP's failure"
fi
echo "ok: diagnosis block on HIP $REL's failure path"

# 7. A refused kernel: the entry is not mapped; the log names kernel, check, numbers.
printf '[badkernels]\ngfx1031\tgfx1030\t*fill_iota*\trefuse\ttest rule: pretend it hangs\t40-shim-basic\n' \
  >"$T/bad.tsv"
rc=0; RDNACOMPAT_TABLES="$T/bad.tsv" RDNACOMPAT_LOG=info shim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "refused kernel still mapped"
grep -q "warn: refused: lib=$T/vadd1030 bundle=0 device=0 kernel=_Z9fill_iotaPii check=badlist reason=" "$T/b.err" ||
  fail "refusal not logged with kernel and check"
grep -q "refused: *_Z9fill_iotaPii (badlist)" "$T/b.err" || fail "diagnosis does not name the refused kernel"
grep -q "info: map:" "$T/b.err" && fail "mapped despite the refusal"
echo "40-shim-basic: ok"
