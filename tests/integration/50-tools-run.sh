#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
# --gpu TARGET: the simulated GPU.
if [ -f "$B/sim/libhsakmt.so.1" ]; then
  env LD_LIBRARY_PATH=/opt/x "$R" run --gpu gfx1032 -- env >"$T/env.out" || fail "run --gpu gfx1032"
  [ "$(val RDNACOMPAT_SIM_GPUS)" = gfx1032 ] || fail "sim gpus"
  [ "$(val LD_LIBRARY_PATH)" = "$(cd "$B/sim" && pwd -P):/opt/x" ] || fail "LD_LIBRARY_PATH=$(val LD_LIBRARY_PATH)"
fi
# Exit codes.
rc=0; "$R" run --mode bogus -- true 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "bad mode: exit $rc"
rc=0; "$R" run --device x -- true 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "bad --device: exit $rc"
rc=0; "$R" run 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "no command: exit $rc"
rc=0; "$R" run -- /nonexistent/cmd 2>/dev/null || rc=$?; [ "$rc" -eq 127 ] || fail "missing command: exit $rc"
rc=0; "$R" run -- sh -c 'exit 7' || rc=$?; [ "$rc" -eq 7 ] || fail "command's exit status not passed: $rc"
rc=0; RDNACOMPAT_SHIM=/nonexistent.so "$R" run -- true 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "missing shim: exit $rc"
"$R" run --help | grep -q "LD_PRELOAD" || fail "--help"
echo "50-tools-run: ok"
