#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 50-tools-run.sh BUILD — `rdnacompat run` sets the environment it promises,
# checked with `env` as the command: LD_PRELOAD appended (absolute path of
# the shim beside the tool, not repeated), RDNACOMPAT_* from the options, the
# log path made absolute, --gpu N (HIP_VISIBLE_DEVICES) and --gpu TARGET (the
# simulator); bad options and missing commands give the documented exits.
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/run
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }
mkdir -p "$T"
[ -f "$B/librdnacompat.so" ] || skip "no $B/librdnacompat.so"
shim=$(cd "$B" && pwd -P)/librdnacompat.so
# A harmless library to stand for "what was preloaded before".
pre=$(ls /lib/x86_64-linux-gnu/libm.so.6 2>/dev/null || true)
[ -n "$pre" ] || skip "no libm.so.6 to preload"
val() { grep "^$1=" "$T/env.out" | head -1 | cut -d= -f2-; }

cd "$T"
env -u HSA_OVERRIDE_GFX_VERSION -u RDNACOMPAT_SHIM LD_PRELOAD="$pre" "$R" run --mode audit --log shim.log --log-level debug \
  --json-log --device 1=off --gpu 1 -- env >"$T/env.out" || fail "run env: rc=$?"
[ "$(val LD_PRELOAD)" = "$pre:$shim" ] || fail "LD_PRELOAD=$(val LD_PRELOAD), want $pre:$shim"
[ "$(val RDNACOMPAT_MODE)" = audit ] || fail "mode"
[ "$(val RDNACOMPAT_LOG_FILE)" = "$T/shim.log" ] || fail "log file not absolute: $(val RDNACOMPAT_LOG_FILE)"
[ "$(val RDNACOMPAT_LOG)" = debug ] || fail "log level"
[ "$(val RDNACOMPAT_LOG_FORMAT)" = json ] || fail "log format"
[ "$(val RDNACOMPAT_DEVICE_1)" = off ] || fail "per-device mode"
[ "$(val HIP_VISIBLE_DEVICES)" = 1 ] || fail "--gpu 1"
# Already preloaded: not added twice.
env LD_PRELOAD="$shim" "$R" run -- env >"$T/env.out" || fail "run twice"
[ "$(val LD_PRELOAD)" = "$shim" ] || fail "shim preloaded twice: $(val LD_PRELOAD)"
# The shim's own log shows it was loaded and read the variables.
rm -f "$T/shim2.log"
"$R" run --log-level debug --log shim2.log -- /bin/true || fail "run true"
grep -q "^rdnacompat\[[0-9]*\]: " "$T/shim2.log" || fail "the shim wrote nothing to the --log file"
# --gpu TARGET[@CARD]: simulated GPUs, in every process the program starts
# (as `rdnacompat sim`): the simulator from a private /etc/ld.so.preload,
# LD_PRELOAD left with the shim only; a child that replaces LD_PRELOAD
# keeps the simulated card (rocminfo through the real runtime).
[ -f "$B/sim/librdnacompat-sim.so" ] || fail "no $B/sim/librdnacompat-sim.so (make builds it)"
sim=$(cd "$B/sim" && pwd -P)/librdnacompat-sim.so
# (printf, not env: some env(1)s quote values with spaces)
"$R" run --gpu 'gfx1032@RX 6600' -- sh -c 'for v in RDNACOMPAT_SIM_GPUS LD_PRELOAD; do printf "%s=%s\n" $v "$(printenv $v)"; done
  echo "preload-file: $(tail -n 1 /etc/ld.so.preload)"' >"$T/env.out" ||
  fail "run --gpu gfx1032@RX 6600: rc=$?"
[ "$(val RDNACOMPAT_SIM_GPUS)" = "gfx1032@RX 6600" ] || fail "sim gpus: $(val RDNACOMPAT_SIM_GPUS)"
[ "$(val LD_PRELOAD)" = "$shim" ] || fail "LD_PRELOAD should hold the shim only: $(val LD_PRELOAD)"
grep -qx "preload-file: $sim" "$T/env.out" || fail "the simulator is not in the private /etc/ld.so.preload: $(grep preload-file "$T/env.out")"
[ "$(tail -n 1 /etc/ld.so.preload 2>/dev/null)" != "$sim" ] || fail "the host's /etc/ld.so.preload was changed"
if command -v rocminfo >/dev/null; then
  "$R" run --gpu 'gfx1032@RX 6600' -- env LD_PRELOAD= rocminfo >"$T/rocminfo.out" 2>&1 || fail "rocminfo under run --gpu: $(tail -3 "$T/rocminfo.out")"
  grep -q 'Name: *gfx1032' "$T/rocminfo.out" && grep -q 'Marketing Name: *AMD Radeon RX 6600' "$T/rocminfo.out" ||
    fail "rocminfo under run --gpu does not show the simulated RX 6600: $(grep -E 'Name:' "$T/rocminfo.out" | head -5)"
fi
# Without namespaces (RDNACOMPAT_SIM_NAMESPACE=0): the simulator first in LD_PRELOAD.
RDNACOMPAT_SIM_NAMESPACE=0 "$R" run --gpu gfx1031@73df:c1,gfx1030 -- env >"$T/env.out" || fail "run --gpu, no namespace"
[ "$(val LD_PRELOAD)" = "$sim:$shim" ] || fail "LD_PRELOAD without namespace: $(val LD_PRELOAD)"
[ "$(val RDNACOMPAT_SIM_GPUS)" = gfx1031@73df:c1,gfx1030 ] || fail "two simulated GPUs: $(val RDNACOMPAT_SIM_GPUS)"
# Items the simulator would not take are refused before anything runs.
for bad in gfx9999 gfx1031@nosuchcard 'gfx1031,'; do
  rc=0; "$R" run --gpu "$bad" -- true 2>"$T/bad.err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q -- '--gpu' "$T/bad.err" || fail "--gpu $bad: rc=$rc $(cat "$T/bad.err")"
done
rc=0; RDNACOMPAT_SIM_LIB=/nonexistent.so "$R" run --gpu gfx1031 -- true 2>"$T/bad.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'librdnacompat-sim.so' "$T/bad.err" || fail "missing simulator: rc=$rc $(cat "$T/bad.err")"
# Exit codes.
rc=0; "$R" run --mode bogus -- true 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "bad mode: exit $rc"
rc=0; "$R" run --device x -- true 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "bad --device: exit $rc"
rc=0; "$R" run 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "no command: exit $rc"
rc=0; "$R" run -- /nonexistent/cmd 2>/dev/null || rc=$?; [ "$rc" -eq 127 ] || fail "missing command: exit $rc"
rc=0; "$R" run -- sh -c 'exit 7' || rc=$?; [ "$rc" -eq 7 ] || fail "command's exit status not passed: $rc"
rc=0; RDNACOMPAT_SHIM=/nonexistent.so "$R" run -- true 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "missing shim: exit $rc"
"$R" run --help | grep -q "LD_PRELOAD" || fail "--help"
echo "50-tools-run: ok"
