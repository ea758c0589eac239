#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 61-rules-deny.sh — the built-in `deny` row of tables/kernels.tsv
# (MIOpenCvBwdWrW from libMIOpen.so* on gfx1031, provisional: applied only
# with RDNACOMPAT_OPT_IN=1) on a simulated gfx1031 running gfx1030 code.  A
# stand-in libMIOpen.so.1 loads a code object holding MIOpenCvBwdWrW and
# another solver's kernel, probes MIOpenCvBwdWrW with hipModuleGetFunction
# and takes the other solver when that fails:
#   - without opt-in (provisional row off): MIOpenCvBwdWrW runs;
#   - with opt-in: the probe gets hipErrorNotFound, one log line says why,
#     the other solver runs, MIOpenCvBwdWrW is never dispatched, exit 0;
#   - the same code object loaded by another library: the row does not apply;
#   - a sha256-scoped user row denies it for any library;
#   - an allow row for gfx1032 over a deny for all: gfx1032 runs it, gfx1031 does not;
#   - the <<<>>> path (host stub registered by __hipRegisterFunction): test
#     60's stand-in libggml-hip.so under a user deny row — the occupancy,
#     potential block size queries and the launch answer
#     hipErrorInvalidDeviceFunction (the launch through HIP's own error, so
#     hipGetLastError says it), one log line, nothing dispatched, no crash.
. "$(dirname "$0")/shim/common.sh"
mkdir -p "$T/miopen"
co=$T/miopen/kern1030.hsaco   # a bare code object: its SHA-256 is the file's
if [ ! -s "$co" ] || [ "$S/miopen_kern.hip" -nt "$co" ]; then
  hipcc --genco --offload-arch=gfx1030 -nogpulib --no-gpu-bundle-output "$S/miopen_kern.hip" -o "$co" >"$T/miopen.log" 2>&1 ||
    { cat "$T/miopen.log" >&2; fail "hipcc --genco"; }
fi
build miopen/libMIOpen.so.1 "$S/miopen_stub.cpp" -shared -fPIC
cp "$T/miopen/libMIOpen.so.1" "$T/miopen/libother.so"
build miopen_main "$S/miopen_main.cpp" -L"$T/miopen" -l:libMIOpen.so.1 -Wl,-rpath,"$T/miopen"
build other_main "$S/miopen_main.cpp" -L"$T/miopen" -l:libother.so -Wl,-rpath,"$T/miopen"

ran() { # TRACE -> the non-blit kernels dispatched, one a line
  $PY -c 'import json,sys; [print(json.loads(l)["kernel"]) for l in open(sys.argv[1]) if not json.loads(l)["kernel"].startswith("rocr-blit")]' "$1"
}

# 1. provisional row off by default
rm -f "$T/d.trace"
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/d.trace" shim gfx1031 "$T/miopen_main" "$co" \
  >"$T/d.out" 2>"$T/d.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/d.err" "$T/d.out" >&2; fail "without opt-in: rc=$rc"; }
grep -q "^ran MIOpenCvBwdWrW: 0" "$T/d.out" || fail "without opt-in the preferred kernel did not run"
[ "$(ran "$T/d.trace")" = "MIOpenCvBwdWrW" ] || fail "trace without opt-in: $(ran "$T/d.trace")"
grep -q "rule-deny" "$T/d.err" && fail "provisional row applied without opt-in"

# 2. opt-in: not found, the program takes its own path
rm -f "$T/d.trace"
rc=0; RDNACOMPAT_OPT_IN=1 RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/d.trace" shim gfx1031 \
  "$T/miopen_main" "$co" >"$T/d.out" 2>"$T/d.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/d.err" "$T/d.out" >&2; fail "with opt-in: rc=$rc"; }
nf=$(sed -n 's/^ *hipErrorNotFound = \([0-9]*\),.*/\1/p' /usr/include/hip/hip_runtime_api.h)
grep -q "^probe MIOpenCvBwdWrW: $nf" "$T/d.out" || fail "probe did not get hipErrorNotFound: $(cat "$T/d.out")"
grep -q "^ran other_solver: 0" "$T/d.out" || fail "the other solver did not run"
[ "$(ran "$T/d.trace")" = "other_solver" ] || fail "trace with opt-in: $(ran "$T/d.trace")"
[ "$(grep -c 'rule-deny: kernel=MIOpenCvBwdWrW device=gfx1031 answer=hipErrorNotFound' "$T/d.err")" -eq 1 ] ||
  { cat "$T/d.err" >&2; fail "want one rule-deny line"; }
grep -q "rule: kernel=MIOpenCvBwdWrW lib=$T/miopen/libMIOpen.so.1 device=gfx1031 actions=deny" "$T/d.err" ||
  fail "no rule line naming libMIOpen.so.1"

# 3. another library loading the same code object: out of scope
rm -f "$T/d.trace"
rc=0; RDNACOMPAT_OPT_IN=1 RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/d.trace" shim gfx1031 \
  "$T/other_main" "$co" >"$T/d.out" 2>"$T/d.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/d.err" >&2; fail "other library: rc=$rc"; }
[ "$(ran "$T/d.trace")" = "MIOpenCvBwdWrW" ] || fail "scope: denied for another library"

# 4. a user rule scoped by the code object's hash denies it for any library
sum=$(sha256sum "$co" | cut -c1-64)
printf '[kernels]\nMIOpen*\tsha256:%s\tgfx1031\t*\tdeny\treviewed\ttest\t61-rules-deny\n' "$sum" >"$T/d.tsv"
rm -f "$T/d.trace"
rc=0; RDNACOMPAT_TABLES="$T/d.tsv" RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/d.trace" shim gfx1031 \
  "$T/other_main" "$co" >"$T/d.out" 2>"$T/d.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/d.err" >&2; fail "hash rule: rc=$rc"; }
[ "$(ran "$T/d.trace")" = "other_solver" ] || fail "hash scope: $(ran "$T/d.trace")"
# 5. allow over a broader rule: a deny for every device, an allow for gfx1032
printf '[kernels]\nMIOpen*\t*\t*\t*\tdeny\treviewed\tbroad\t61\nMIOpenCv*\tlibMIOpen.so*\tgfx1032\t*\tallow\treviewed\tnarrow\t61\n' >"$T/a.tsv"
for case in "gfx1032 MIOpenCvBwdWrW" "gfx1031 other_solver"; do
  set -- $case
  rm -f "$T/d.trace"
  rc=0; RDNACOMPAT_TABLES="$T/a.tsv" RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/d.trace" shim "$1" \
    "$T/miopen_main" "$co" >"$T/d.out" 2>"$T/d.err" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$T/d.err" >&2; fail "allow on $1: rc=$rc"; }
  [ "$(ran "$T/d.trace")" = "$2" ] || fail "allow on $1: ran $(ran "$T/d.trace"), want $2"
done

# 6. deny on the <<<>>> path
mkdir -p "$T/ggml"
build ggml/libggml-hip.so "$S/fattn.hip" --offload-arch=gfx1030 -shared -fPIC
build fa_main "$S/fa_main.cpp" -L"$T/ggml" -lggml-hip -Wl,-rpath,"$T/ggml"
for dev in gfx1031 gfx1032; do
  printf '[kernels]\n_ZL15flash_attn_tile*\tlibggml-hip.so*\t%s\t*\tdeny\treviewed\ttest\t61\n' $dev >"$T/g$dev.tsv"
done
idf=$(sed -n 's/^ *hipErrorInvalidDeviceFunction = \([0-9]*\),.*/\1/p' /usr/include/hip/hip_runtime_api.h)
[ -n "$idf" ] || fail "hipErrorInvalidDeviceFunction not in the header"
for dev in gfx1032 gfx1031; do # the row for gfx1032 does not apply on gfx1031: the reference
  rm -f "$T/d.trace"
  rc=0; RDNACOMPAT_TABLES="$T/g$dev.tsv" RDC_FA_NO_ASSERT=1 RDNACOMPAT_LOG=info \
    RDNACOMPAT_SIM_TRACE="$T/d.trace" shim gfx1031 "$T/fa_main" >"$T/d.out" 2>"$T/d.err" || rc=$?
  if [ "$dev" = gfx1032 ]; then
    [ "$rc" -eq 0 ] && grep -q "^launch err=0" "$T/d.out" || { cat "$T/d.err" "$T/d.out" >&2; fail "<<<>>> reference"; }
    ran "$T/d.trace" | grep -q flash_attn_tile || fail "<<<>>> reference: not dispatched"
    continue
  fi
  [ "$rc" -eq 3 ] || [ "$rc" -eq 0 ] || { cat "$T/d.err" "$T/d.out" >&2; fail "<<<>>> deny: rc=$rc"; }
  grep -q "^occupancy=[0-9-]* err=$idf\$" "$T/d.out" || fail "occupancy of a denied stub: $(cat "$T/d.out")"
  grep -q "^potential .* err=$idf " "$T/d.out" || fail "potential block size of a denied stub: $(cat "$T/d.out")"
  grep -q "^launch err=$idf\$" "$T/d.out" || fail "<<<>>> launch of a denied stub: $(cat "$T/d.out")"
  [ -z "$(ran "$T/d.trace")" ] || fail "denied kernel dispatched: $(ran "$T/d.trace")"
  [ "$(grep -c 'rule-deny: kernel=_ZL15flash_attn_tile.* device=gfx1031 answer=hipErrorInvalidDeviceFunction' "$T/d.err")" -eq 1 ] ||
    { cat "$T/d.err" >&2; fail "want one rule-deny line for the stub"; }
  # truthful load-time line: the built-in >= 7.1 rows are armed only under
  # 7.2, and the fallback rows name the checked ggml build's code objects,
  # not this stand-in's (under 7.2 one rule-fallback-unchecked line says so)
  acts="deny runtime=\\* source=61"
  [ "$REL" = 7.2 ] && acts="deny,occupancy runtime=\\* source=61"
  grep -q "rule: kernel=_ZL15flash_attn_tile.* device=gfx1031 actions=$acts" "$T/d.err" ||
    { grep "rule:" "$T/d.err" >&2; fail "load-time rule line: want actions=$acts under HIP $REL"; }
  unchecked=0; [ "$REL" = 7.2 ] && unchecked=1
  [ "$(grep -c 'rule-fallback-unchecked: kernel=_ZL15flash_attn_tile' "$T/d.err")" -eq $unchecked ] ||
    { grep rule-fallback "$T/d.err" >&2; fail "want $unchecked rule-fallback-unchecked line(s) under HIP $REL"; }
  [ "$REL" = 7.2 ] || ! grep -q "rule-fallback-refused" "$T/d.err" ||
    fail "fallback checked for a row of another runtime"
done

echo "61-rules-deny: ok"
