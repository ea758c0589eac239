#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 50-tools-front.sh BUILD — the `rdnacompat` front end (tools/front/,
# BUILD/bin/rdnacompat) against the full tool it stands for
# (BUILD/libexec/rdnacompat/rdnacompat-tool):
#   - it needs no library but libc (what makes `run` cheap, issue 37);
#   - `run` gives the program the same environment, stderr and exit status
#     as the tool's own `run`, for the options it handles itself and for
#     the errors (compared with `env` as the command);
#   - `run` execs nothing but the program: a copy of the front end with no
#     tool beside it still runs programs (and strace, where there is one,
#     sees two execve: the front end's and the program's);
#   - every other command reaches the tool with its arguments and exit
#     status unchanged, and a missing tool is a clear error (exit 2).
set -u
B=$1; R=$B/bin/rdnacompat; X=$B/libexec/rdnacompat/rdnacompat-tool; T=$B/tools-test/front
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }
[ -x "$R" ] || fail "no front end $R (make builds it)"
[ -x "$X" ] || fail "no tool $X (make builds it)"
[ -f "$B/librdnacompat.so" ] || skip "no $B/librdnacompat.so"
shim=$(cd "$B" && pwd -P)/librdnacompat.so
rm -rf "$T"; mkdir -p "$T"; cd "$T"

# Libraries: libc only (a sanitizer build adds its runtime).
if command -v readelf >/dev/null; then
  extra=$(readelf -d "$R" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -vE '^(libc\.so\.6|lib[at]san\.so.*|libubsan\.so.*)$')
  [ -z "$extra" ] || fail "the front end needs more than libc: $extra"
  echo "ok: front end needs libc only"
fi

# The same environment, stderr and status as the tool's `run`.  `_` is the
# shell's (the path of the command it ran) and differs by construction.
same() { # DESC ENV-ASSIGNMENTS... -- RUN-ARGS...
  local desc=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local rf=0 rt=0
  env -u HSA_OVERRIDE_GFX_VERSION -u RDNACOMPAT_SHIM "${envs[@]}" "$R" run "$@" >"$T/f.out" 2>"$T/f.err" || rf=$?
  env -u HSA_OVERRIDE_GFX_VERSION -u RDNACOMPAT_SHIM "${envs[@]}" "$X" run "$@" >"$T/t.out" 2>"$T/t.err" || rt=$?
  [ "$rf" -eq "$rt" ] || fail "$desc: exit $rf from the front end, $rt from the tool: $(cat "$T/f.err" "$T/t.err")"
  grep -v '^_=' "$T/f.out" | sort >"$T/f.env"; grep -v '^_=' "$T/t.out" | sort >"$T/t.env"
  cmp -s "$T/f.env" "$T/t.env" || fail "$desc: the program's environment differs: $(diff "$T/t.env" "$T/f.env" | head -8)"
  cmp -s "$T/f.err" "$T/t.err" || fail "$desc: stderr differs: $(diff "$T/t.err" "$T/f.err" | head -8)"
}
pre=$(ls /lib/x86_64-linux-gnu/libm.so.6 2>/dev/null || true)
same "plain" -- -- env
grep -qx "LD_PRELOAD=$shim" "$T/f.env" || fail "plain run: LD_PRELOAD is not the shim: $(grep LD_PRELOAD "$T/f.env")"
same "all options" ${pre:+LD_PRELOAD=$pre} -- --mode audit --log shim.log --log-level debug --json-log \
  --device 1=off --device 0=spoof --gpu 0,1 -- env
grep -q '^RDNACOMPAT_DEVICE_0=spoof$' "$T/f.env" && grep -q "^RDNACOMPAT_LOG_FILE=$T/shim.log\$" "$T/f.env" ||
  fail "all options: $(grep RDNACOMPAT "$T/f.env")"
same "options with =" -- --mode=spoof --log-format=text --log-level=info --shim="$B/librdnacompat.so" env
same "already preloaded" LD_PRELOAD="$shim" -- -- env
same "override warning" HSA_OVERRIDE_GFX_VERSION=10.3.0 -- -- env
grep -q HSA_OVERRIDE_GFX_VERSION "$T/f.err" || fail "no override warning: $(cat "$T/f.err")"
same "bad mode" -- --mode bogus -- env
same "bad device" -- --device x -- env
same "bad log level" -- --log-level loud -- env
same "unknown option" -- --bogus -- env
same "missing value" -- --mode
same "no command" -- --
same "missing command" -- -- /nonexistent/cmd
same "not a library" -- --shim /bin/sh -- env
same "missing shim" RDNACOMPAT_SHIM=/nonexistent.so -- -- env
same "exit status" -- -- sh -c 'exit 7'
rc=0; "$R" run -- sh -c 'exit 7' || rc=$?; [ "$rc" -eq 7 ] || fail "the program's exit status is not passed through: $rc"
same "help" -- --help
echo "ok: run gives the tool's environment, messages and exit status"

# `run` execs nothing but the program: a front end with no tool beside it
# (its shim found through a link) still runs it.
mkdir -p "$T/alone/bin"
cp "$R" "$T/alone/bin/rdnacompat"
ln -s "$shim" "$T/alone/librdnacompat.so"
"$T/alone/bin/rdnacompat" run --log-level info -- env >"$T/alone.out" 2>"$T/alone.err" ||
  fail "run without the tool: $(cat "$T/alone.err")"
grep -qx "LD_PRELOAD=$shim" "$T/alone.out" && grep -qx "RDNACOMPAT_LOG=info" "$T/alone.out" ||
  fail "run without the tool: $(grep -E 'LD_PRELOAD|RDNACOMPAT' "$T/alone.out")"
if command -v strace >/dev/null; then
  strace -f -qq -e trace=execve -o "$T/strace.out" "$R" run -- /bin/true || fail "run under strace"
  n=$(grep -c 'execve(' "$T/strace.out")
  [ "$n" -eq 2 ] && ! grep -q rdnacompat-tool "$T/strace.out" || fail "run made $n execve: $(cat "$T/strace.out")"
  echo "ok: run execs the program only (strace: 2 execve)"
fi
echo "ok: run needs no tool"

# Everything else goes to the tool: arguments and exit status unchanged.
[ "$("$R" version)" = "$("$X" version)" ] || fail "version through the front end"
"$R" --help | grep -q '^  run ' || fail "--help through the front end"
"$R" run --help | grep -q 'LD_PRELOAD' || fail "run --help through the front end"
rc=0; "$R" >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "no command: exit $rc"
rf=0; "$R" inspect /nonexistent/file >/dev/null 2>"$T/f.err" || rf=$?
rt=0; "$X" inspect /nonexistent/file >/dev/null 2>"$T/t.err" || rt=$?
[ "$rf" -eq "$rt" ] && [ "$rf" -ne 0 ] && cmp -s "$T/f.err" "$T/t.err" ||
  fail "inspect of a missing file: exit $rf/$rt: $(cat "$T/f.err")"
"$R" cards gfx1031 | grep -qi "6700" || fail "cards through the front end"
rc=0; "$T/alone/bin/rdnacompat" version >/dev/null 2>"$T/alone.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "libexec/rdnacompat/rdnacompat-tool" "$T/alone.err" ||
  fail "missing tool: exit $rc: $(cat "$T/alone.err")"
rc=0; "$T/alone/bin/rdnacompat" run --gpu gfx1031 -- true 2>"$T/alone.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "rdnacompat-tool" "$T/alone.err" || fail "run --gpu TARGET without the tool: exit $rc"
echo "ok: other commands reach the tool unchanged"
echo "50-tools-front: ok"
