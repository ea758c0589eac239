#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the shim's log, tables and cache paths do not depend on the release
# 46-shim-special-files.sh — nothing the shim opens by a user-given name can
# block or redirect it, and its configuration fails safe (audit 2026-12-02
# H1, H2, S1, M5, M6, W1, N6).  On the simulated gfx1031, for
# RDNACOMPAT_LOG_FILE, RDNACOMPAT_TABLES and RDNACOMPAT_FALLBACK_BUNDLE naming a FIFO (with no partner),
# a socket, a directory, a character device and a symlink to each (and to a
# regular file): the program runs (rc 0, its kernel from gfx1031 code), the
# refusal is said on stderr, nothing hangs (every run under `timeout`, so a
# regression fails instead of hanging).  Then: the log is opened at its
# first line (a process that logs nothing creates no file), never on stdout;
# configuration warnings only in processes that reach a HIP/HSA hook, once,
# with control characters escaped; the boolean spellings.
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
D=$T/special46
rm -rf "$D" && mkdir -p "$D"
export XDG_CACHE_HOME=$D/cache
run() { # run [VAR=VALUE...]: the program under the shim (30 s), rc in $rc
  rc=0; timeout 30 env "$@" LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 \
    HSA_ENABLE_SDMA=0 "$T/vadd1030" >"$D/out" 2>"$D/err" || rc=$?
}
mkfifo "$D/fifo"
$PY -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$D/sock"
mkdir "$D/dir"
echo "regular" >"$D/regular"
ln -s "$D/fifo" "$D/l-fifo"; ln -s "$D/sock" "$D/l-sock"; ln -s "$D/dir" "$D/l-dir"
ln -s /dev/zero "$D/l-chr"; ln -s "$D/regular" "$D/l-regular"
# The character device case of the tables: /dev/zero itself (no mknod needed).
special="fifo sock dir l-fifo l-sock l-dir l-chr l-regular"

# RDNACOMPAT_LOG_FILE: refused with a reason, lines on stderr; a symlink is
# never followed (the regular file behind it stays as it was).
for k in $special /dev/zero; do
  p=$D/$k; [ "${k#/}" != "$k" ] && p=$k
  run RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$p"
  case $k in
    /dev/zero) # a character device is a valid log destination
      [ "$rc" -eq 0 ] || fail "log on $k: rc=$rc"
      grep -q "info: map:" "$D/err" && fail "log on $k: lines went to stderr"
      continue;;
  esac
  [ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "log file is $k: rc=$rc (124 = hung)"; }
  grep -q "cannot open RDNACOMPAT_LOG_FILE $p: is a" "$D/err" ||
    { cat "$D/err" >&2; fail "log file is $k: refusal not said"; }
  grep -q "info: map: .*verdict=mapped" "$D/err" || fail "log file is $k: lines not on stderr"
  grep -q rdnacompat "$D/out" && fail "log file is $k: stdout carries the log"
done
[ "$(cat "$D/regular")" = regular ] || fail "the log followed a symlink into a regular file"

# RDNACOMPAT_TABLES: refused, built-in tables used, program maps.
for k in $special /dev/zero; do
  p=$D/$k; [ "${k#/}" != "$k" ] && p=$k
  [ "$k" = l-regular ] && continue   # a symlink to a tables file is followed (a user's input)
  run RDNACOMPAT_LOG=info RDNACOMPAT_TABLES="$p"
  [ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "tables file is $k: rc=$rc (124 = hung)"; }
  grep -q "tables: $p refused (.*is a .*not a regular file); using the built-in tables" "$D/err" ||
    { cat "$D/err" >&2; fail "tables file is $k: refusal not said"; }
  grep -q "info: map: .*verdict=mapped" "$D/err" || fail "tables file is $k: not mapped"
done

# RDNACOMPAT_FALLBACK_BUNDLE (audit 2026-12-03 M1: a FIFO hung the program at
# fat-binary registration): with a user row that routes vadd's kernel to a
# fallback, each special file and a file over the 256 MiB cap is refused at
# the open or by size: the program runs, one warning names the file.  A
# symlink to a regular file is followed (a user's input).
printf '[kernels]\n_Z*\t*\tgfx1031\t*\tfallback:rdnacompat_fb_fattn_combine\treviewed\tx\ty\n' >"$D/fb.tsv"
truncate -s 300M "$D/huge"
for k in $special huge /dev/zero; do
  p=$D/$k; [ "${k#/}" != "$k" ] && p=$k
  [ "$k" = l-regular ] && continue
  run RDNACOMPAT_TABLES="$D/fb.tsv" RDNACOMPAT_FALLBACK_BUNDLE="$p"
  [ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "fallback bundle is $k: rc=$rc (124 = hung)"; }
  n=$(grep -c "warn: fallback-bundle: path=$p " "$D/err")
  [ "$n" = 1 ] || { cat "$D/err" >&2; fail "fallback bundle is $k: $n warnings (want 1)"; }
done
rm -f "$D/huge"
run RDNACOMPAT_TABLES="$D/fb.tsv" RDNACOMPAT_FALLBACK_BUNDLE="$D/l-regular"
[ "$rc" -eq 0 ] || fail "fallback bundle is a symlink to a regular file: rc=$rc"
grep -q "fallback-bundle: path=$D/l-regular .*is a" "$D/err" && fail "a symlink to a regular file was refused by type"
echo "ok: RDNACOMPAT_FALLBACK_BUNDLE as a FIFO, socket, directory, character device, symlink to each, or a 300 MiB file: runs, one warning"

# Audit 2026-12-03 L3: the log is made 0600, and a regular file another user
# owns is refused (its lines go to stderr).
rm -f "$D/new.log"
run RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$D/new.log"
[ "$(stat -c %a "$D/new.log")" = 600 ] || fail "new log file is mode $(stat -c %a "$D/new.log"), want 600"
if [ "$(id -u)" = 0 ]; then
  : >"$D/theirs.log"; chown 65534 "$D/theirs.log"; chmod 666 "$D/theirs.log"
  run RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$D/theirs.log"
  [ "$rc" -eq 0 ] || fail "another user's log file: rc=$rc"
  [ -s "$D/theirs.log" ] && fail "lines written into another user's log file"
  grep -q "cannot open RDNACOMPAT_LOG_FILE $D/theirs.log: is owned by uid 65534, not this user" "$D/err" ||
    { cat "$D/err" >&2; fail "another user's log file: refusal not said"; }
  grep -q "info: map: .*verdict=mapped" "$D/err" || fail "another user's log file: lines not on stderr"
else
  echo "note: not root: the other user's log file case is not run" >&2
fi
echo "ok: the log is made 0600; another user's file is refused"

# A tables file over the 16 MiB cap: refused by size, once, the built-in tables used.
truncate -s 300M "$D/huge-tables"
run RDNACOMPAT_LOG=info RDNACOMPAT_TABLES="$D/huge-tables"
rm -f "$D/huge-tables"
[ "$rc" -eq 0 ] || fail "tables file of 300 MiB: rc=$rc"
[ "$(grep -c "tables: $D/huge-tables refused ($D/huge-tables: larger than 16 MiB); using the built-in tables" "$D/err")" = 1 ] ||
  { cat "$D/err" >&2; fail "tables file of 300 MiB: not refused once by size"; }
grep -q "info: map: .*verdict=mapped" "$D/err" || fail "tables file of 300 MiB: not mapped"

# S1: a refused tables file is described by file:line and reason, never by
# what it holds.
printf '[root:$6$secrethash:19000]\n' >"$D/shadowlike"
run RDNACOMPAT_TABLES="$D/shadowlike"
[ "$rc" -eq 0 ] || fail "secret tables file: rc=$rc"
grep -q "tables: $D/shadowlike refused ($D/shadowlike:1: " "$D/err" || fail "secret tables file: no file:line"
grep -q secrethash "$D/err" && fail "the shim quoted a refused file's content"

# The log is opened at its first line: a process that logs nothing (not HIP)
# creates nothing, a relative name drops no file in its cwd.
mkdir -p "$D/cwd"
(cd "$D/cwd" && timeout 10 env RDNACOMPAT_LOG_FILE=rel.log RDNACOMPAT_MODE=bogus LD_PRELOAD="$SHIM" \
   sh -c 'ls >/dev/null; cat /dev/null') 2>"$D/err"
[ -e "$D/cwd/rel.log" ] && fail "a non-HIP process created the log file"
# Configuration warnings: not in processes that reach no HIP/HSA hook (M5)...
[ -s "$D/err" ] && { cat "$D/err" >&2; fail "non-HIP processes warned"; }
# ... once in one that does, with control characters escaped.
run RDNACOMPAT_MODE=$'x\nrdnacompat[1]: info: map: forged' RDNACOMPAT_DEVICE_-1=map \
  RDNACOMPAT_DEVICE_99999999999999999=spoof RDNACOMPAT_DEVICE_64=off
[ "$rc" -eq 0 ] || fail "bad configuration: rc=$rc"
[ "$(grep -c 'configuration:' "$D/err")" -eq 1 ] || { cat "$D/err" >&2; fail "configuration warned $(grep -c 'configuration:' "$D/err") times"; }
grep -q '^rdnacompat\[1\]: info: map: forged' "$D/err" && fail "a value forged a log line"
grep -q 'RDNACOMPAT_MODE=x\\x0ardnacompat' "$D/err" || fail "control character not escaped"
for n in -1 99999999999999999 64; do
  grep -q "RDNACOMPAT_DEVICE_=$n is not a device number" "$D/err" || fail "RDNACOMPAT_DEVICE_$n not warned (N6)"
done
# Never on the process's stdout (M6).
run RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE=/dev/stdout
grep -q "rdnacompat" "$D/out" && fail "log lines on stdout via /dev/stdout"
grep -q "cannot open RDNACOMPAT_LOG_FILE /dev/stdout" "$D/err" || fail "/dev/stdout not refused"
# The stdout check is by file, not by name: the program's stdout as a path.
rc=0; timeout 30 env RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$D/o2" LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" \
  LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 "$T/vadd1030" >"$D/o2" 2>"$D/err" || rc=$?
grep -q "rdnacompat" "$D/o2" && fail "log lines in the file that is stdout"
grep -q "is the process's standard output" "$D/err" || fail "log file = stdout not refused"

# Booleans (W1): documented spellings, any case; anything else keeps the
# default and is warned about.  RDNACOMPAT_CACHE off-spellings write nothing.
# RDNACOMPAT_FALLBACK goes through the same parser (audit 2026-12-03 L1: it
# compared with "1" and ignored anything else silently).
run RDNACOMPAT_FALLBACK=maybe
[ "$rc" -eq 0 ] || fail "RDNACOMPAT_FALLBACK=maybe: rc=$rc"
grep -q "RDNACOMPAT_FALLBACK=maybe is not 0|1|off|on|no|yes|false|true (using 0)" "$D/err" ||
  { cat "$D/err" >&2; fail "RDNACOMPAT_FALLBACK=maybe not warned"; }
for v in 0 off false no OFF No; do
  rm -rf "$D/cache"
  run RDNACOMPAT_CACHE=$v
  [ "$rc" -eq 0 ] || fail "RDNACOMPAT_CACHE=$v: rc=$rc"
  [ -z "$(find "$D/cache" -type f 2>/dev/null)" ] || fail "RDNACOMPAT_CACHE=$v wrote a cache file"
  grep -q configuration "$D/err" && fail "RDNACOMPAT_CACHE=$v warned"
done
for v in bogus 2 -1; do
  rm -rf "$D/cache"
  run RDNACOMPAT_CACHE=$v
  [ -n "$(find "$D/cache" -type f 2>/dev/null)" ] || fail "RDNACOMPAT_CACHE=$v: default (on) not kept"
  grep -q "RDNACOMPAT_CACHE=$v is not 0|1|off|on|no|yes|false|true (using 1)" "$D/err" ||
    fail "RDNACOMPAT_CACHE=$v not warned"
done
echo "46-shim-special-files: ok"
