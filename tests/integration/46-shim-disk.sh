#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 46-shim-disk.sh — a full disk under the log and under the decision cache,
# on the simulated gfx1031 (HIP 5.2).  The program's output and exit status
# are those of the same run with a working log and cache, and one line says
# why: RDNACOMPAT_LOG_FILE=/dev/full gives "cannot write RDNACOMPAT_LOG_FILE
# /dev/full: No space left on device (logging to stderr)" once, then the
# lines on stderr (before the fix, every line was dropped without a word);
# a cache directory on a full 16 KiB tmpfs gives "cache: writing ... failed:
# No space left on device" (one warning per process) and leaves no partial file behind.  The
# tmpfs part skips (77) where mount is not allowed.
# releases: 5.2 — a full disk for the shim's log and cache; the release does not change how the shim writes them
. "$(dirname "$0")/shim/common.sh"
P=${RDC_SRCDIR:-$(pwd)}/tests/integration/progs
build load_storm "$P/load_storm.hip" --offload-arch=gfx1030 -lpthread -ldl
[ -s "$T/kern1030.co" ] || "$HIPCC" --genco --offload-arch=gfx1030 "$S/kern.hip" -o "$T/kern1030.co" >/dev/null 2>&1 ||
  fail "hipcc --genco"
D=$(cd "$T" && pwd)/disk46   # XDG_CACHE_HOME must be absolute
rm -rf "$D" && mkdir -p "$D/cache"
run() { local rc=0; shim gfx1031 "$T/load_storm" rss "$T/kern1030.co" 20 >"$D/$1.out" 2>"$D/$1.err" || rc=$?; echo "$rc" >"$D/$1.rc"; }
same() {
  cmp -s "$D/ref.rc" "$D/$1.rc" || fail "$1: rc $(cat "$D/$1.rc"), with a working log and cache $(cat "$D/ref.rc")"
  # the resident set differs from run to run: compare all but the figures
  diff <(sed 's/rss_kb.*//' "$D/ref.out") <(sed 's/rss_kb.*//' "$D/$1.out") >&2 || fail "$1: stdout differs"
}
RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$D/ref.log" XDG_CACHE_HOME="$D/cache" run ref
grep -q "info: map:" "$D/ref.log" || fail "reference run logged no map line"

RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE=/dev/full RDNACOMPAT_CACHE=0 run full-log
same full-log
n=$(grep -c "warn: cannot write RDNACOMPAT_LOG_FILE /dev/full: No space left on device (logging to stderr)" "$D/full-log.err")
[ "$n" -eq 1 ] || { cat "$D/full-log.err" >&2; fail "log on /dev/full: $n lines saying why, want 1"; }
grep -q "info: map:" "$D/full-log.err" || fail "log on /dev/full: the lines did not go to stderr"
echo "log on /dev/full: program unchanged, one line says why, the log went on on stderr"

mnt=$D/tiny
mkdir -p "$mnt"
mount -t tmpfs -o size=16k tmpfs "$mnt" 2>/dev/null || skip "cannot mount a tmpfs here (the /dev/full part passed)"
trap 'umount "$mnt" 2>/dev/null' EXIT
mkdir -p "$mnt/c"
dd if=/dev/zero of="$mnt/fill" bs=1k count=64 2>/dev/null
[ "$(df --output=avail "$mnt" | tail -1)" -eq 0 ] || fail "tmpfs not full"
RDNACOMPAT_LOG=debug XDG_CACHE_HOME="$mnt/c" run full-cache
same full-cache
grep -q "warn: cache: writing $mnt/c/rdnacompat/load_storm[.a-z]*-[0-9a-f]*\.dc failed: No space left on device; decisions not kept" "$D/full-cache.err" ||
  { cat "$D/full-cache.err" >&2; fail "cache on a full disk: no warning says why"; }
[ "$(grep -c 'warn: cache:' "$D/full-cache.err")" -eq 1 ] || fail "cache on a full disk: more than one warning"
left=$(find "$mnt/c" -type f ! -name '*.lock' -size +0 | wc -l)
[ "$left" -eq 0 ] || fail "cache on a full disk: $left partial files left"
echo "cache on a full tmpfs: program unchanged, the reason logged, nothing partial left"
echo "46-shim-disk: ok"
