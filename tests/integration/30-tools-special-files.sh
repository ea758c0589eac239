#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the tool's own file handling; no ROCm runtime runs
# 30-tools-special-files.sh — every input the rdnacompat tool opens by a
# name the user gives (inspect FILE, RDNACOMPAT_TABLES, explain --log,
# explain --table, report --log) refuses a FIFO, socket, directory,
# character device and a symlink to each with a clear message and the
# documented exit status, and never waits (audit 2026-12-02 H2, H4, W5);
# inspect walks a directory and waits on nothing inside it either.
# Symlinks to regular files are followed (command line and inside a
# directory, each real file counted once).
# Every run is under `timeout`: a regression fails (124) instead of hanging.
set -u
B=$1
TOOL=$B/bin/rdnacompat
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TOOL" ] || { echo "skip: no $TOOL" >&2; exit 77; }
D=$(mktemp -d); trap 'rm -rf "$D"' EXIT
mkfifo "$D/fifo"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$D/sock"
mkdir "$D/dir"
ln -s "$D/fifo" "$D/l-fifo"; ln -s "$D/sock" "$D/l-sock"; ln -s "$D/dir" "$D/l-dir"; ln -s /dev/zero "$D/l-chr"
LIB=${RDC_FIXTURES:-$B/fixtures}/host/libiota-1030.so
# check NAME WANT_RC CMD...: CMD exits WANT_RC within 15 s and says "not a regular file".
check() {
  local name=$1 want=$2; shift 2
  local rc=0
  timeout 15 "$@" >"$D/out" 2>"$D/err" </dev/null || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$D/err" >&2; fail "$name: rc=$rc, want $want (124 = hung)"; }
  grep -q "not a regular file" "$D/err" || { cat "$D/err" >&2; fail "$name: no clear refusal"; }
}
for k in fifo sock dir /dev/zero l-fifo l-sock l-dir l-chr; do
  p=$D/$k; [ "${k#/}" != "$k" ] && p=$k
  # inspect takes a directory as input (inspect_dir.c): checked below.
  case $k in dir|l-dir) ;; *) check "inspect $k" 2 "$TOOL" inspect --gpu gfx1031 "$p";; esac
  check "explain --log $k" 1 "$TOOL" explain --log "$p"
  check "explain --table $k" 2 "$TOOL" explain --table "$p" hipErrorNoBinaryForGpu
  if [ -f "$LIB" ]; then
    check "RDNACOMPAT_TABLES=$k inspect" 2 env RDNACOMPAT_TABLES="$p" "$TOOL" inspect --gpu gfx1031 "$LIB"
  fi
  check "report --log $k" 1 "$TOOL" report --simulated --card 1002:73df:c1 --no-doctor --log "$p" -o "$D/r.report"
done
# A directory given to inspect is walked; special files inside it are
# skipped or refused, never waited on.
mkdir -p "$D/walk"
mkfifo "$D/walk/libfifo.so"; ln -s "$D/fifo" "$D/walk/libl.so"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$D/walk/libsock.so"
rc=0; timeout 15 "$TOOL" inspect --gpu gfx1031 "$D/walk" >/dev/null 2>&1 </dev/null || rc=$?
[ "$rc" -ne 124 ] || fail "inspect DIR with a FIFO inside: hung"
# Symlinks to regular files are followed: a name on the command line (a
# user types the .so.1 link) and, inside a directory, each real file counted
# once (by inode: the file, a hard link and two symlinks to it are one
# library; a directory holding only links counts the file they point to).
if [ -f "$LIB" ]; then
  mkdir -p "$D/tree/real" "$D/tree/links" "$D/onlylinks"
  cp "$LIB" "$D/tree/real/libiota.so.1.0"; ln "$D/tree/real/libiota.so.1.0" "$D/tree/real/libhard.so"
  ln -s ../real/libiota.so.1.0 "$D/tree/links/libiota.so.1"; ln -s libiota.so.1 "$D/tree/links/libiota.so"
  ln -s "$D/tree/real/libiota.so.1.0" "$D/onlylinks/libiota.so.1"; ln -s libiota.so.1 "$D/onlylinks/libiota.so"
  want=$(timeout 15 "$TOOL" inspect --gpu gfx1031 "$D/tree/real/libiota.so.1.0" | grep -c '^  bundle ')
  [ "$want" -ge 1 ] || fail "inspect of the library itself: no bundle"
  got=$(timeout 15 "$TOOL" inspect --gpu gfx1031 "$D/tree/links/libiota.so" | grep -c '^  bundle ')
  [ "$got" = "$want" ] || fail "inspect SYMLINK: $got bundles, the file has $want"
  timeout 15 "$TOOL" inspect --gpu gfx1031 "$D/tree" >"$D/out" 2>"$D/err" </dev/null || { cat "$D/err" >&2; fail "inspect tree: rc $?"; }
  grep -q "^$D/tree: directory: 1 files: 1 library with device code" "$D/out" || fail "tree not counted once: $(cat "$D/out")"
  grep -q "^  real/libhard.so: $want bundle" "$D/out" || fail "tree: the real file not named by its own name: $(cat "$D/out")"
  timeout 15 "$TOOL" inspect --gpu gfx1031 "$D/onlylinks" >"$D/out" 2>"$D/err" </dev/null || { cat "$D/err" >&2; fail "inspect onlylinks: rc $?"; }
  grep -q "^$D/onlylinks: directory: 1 files: 1 library with device code" "$D/out" || fail "links-only directory: $(cat "$D/out")"
fi
echo "30-tools-special-files: ok"
