#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the cache's file handling does not depend on the release; 49-shim-cache runs on 6.4 and 7.2
# 49-shim-cache-hostile.sh — the decision cache (shim/hooks/dcache.c) against
# files that are whole but wrong, or not files at all, on the simulated
# gfx1031.  Audit 2026-12-02 C1: a record with a valid checksum whose fields
# disagree (verdict "missing" with patches and a wild entry index) crashed
# the program; now every field is checked at load and the record is
# ignored.  H3: a FIFO named like the cache file hung the program; now a
# FIFO, socket, directory, character device or symlink (to any of them or to
# a good cache file) is ignored without blocking.  W3: two processes at
# once keep both their decisions (merged under an flock before the rename).
# Audit 2026-12-03 L2: a symlinked cache directory, or one in a directory
# others can write or own, is not used, and said.
# Every run is under `timeout`, so a regression fails instead of hanging.
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
C=$T/cache49h
rm -rf "$C"
export XDG_CACHE_HOME=$C
run() { # run LOG [VAR=VALUE...]: the program under the shim (30 s at most), rc in $rc
  local log=$1; shift
  rc=0; timeout 30 env "$@" RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$log" LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" \
    LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 \
    "$T/vadd1030" >"$T/h.out" 2>"$T/h.err" || rc=$?
}
fresh_map() { # LOG: a fresh (not cached) mapped decision was logged
  grep -E "info: map: .*target=gfx1031 .*verdict=mapped" "$1" | grep -qv "(cached)"
}

run "$T/h0.log"
[ "$rc" -eq 0 ] || { cat "$T/h.err" >&2; fail "first run rc=$rc"; }
f=$(ls "$C"/rdnacompat/vadd1030-*.dc 2>/dev/null | head -1)
[ -n "$f" ] || fail "no cache file"
cp "$f" "$T/good.dc"

# C1: records whose checksum is right and whose fields are not.  Offsets
# are those of struct rdc_dc_rec on x86-64 (header 72 bytes, record 968;
# the record's refused-kernel triples, then its patches of 80 bytes, follow
# it); a file whose record size differs fails here rather than poisoning
# the wrong bytes.  entry_id takes none (empty), unterminated (128 bytes
# without a NUL) or other (a well-formed id the bundle does not have).
poison() { # poison FILE FIELD=VALUE...: rewrite record 0's fields, fix the FNV
  PYTHONPATH="$S/../lib" $PY - "$@" <<'PYEOF'
import struct, sys
import dcache_file   # tests/integration/lib
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
r = 72
dcache_file.check_layout(b, '49-shim-cache-hostile')
ref_bytes = struct.unpack_from('<I', b, r + 948)[0]
patch0 = r + 968 + ref_bytes
fields = {'verdict': ('<i', 36), 'have_patches': ('<i', 40), 'entry_size': ('<Q', 304),
          'refused_size': ('<Q', 312), 'n_patches': ('<I', 352), 'n_kernels': ('<Q', 360),
          'patch0_offset': ('<Q', patch0 - r), 'patch0_len': ('<I', patch0 + 8 - r),
          'n_held': ('<Q', 952), 'hold': ('<i', 960)}
ids = {'none': b'', 'unterminated': b'x' * 128, 'other': b'hipv4-amdgcn-amd-amdhsa--gfx1100'}
for a in sys.argv[2:]:
    k, v = a.split('=')
    if k == 'entry_id':
        b[r + 44:r + 172] = ids[v].ljust(128, b'\0')
        continue
    fmt, off = fields[k]
    if k.startswith('patch0') and struct.unpack_from('<I', b, r + 352)[0] == 0:
        sys.exit('49-shim-cache-hostile: record 0 has no patch to poison')
    struct.pack_into(fmt, b, r + off, int(v, 0))
dcache_file.write_with_checksum(p, b)
PYEOF
}
i=0
for variant in "verdict=2 have_patches=1 n_patches=1" "entry_size=0x20000000000" "entry_size=4096" \
               "entry_id=none" "entry_id=unterminated" "entry_id=other" "verdict=0 have_patches=1" \
               "verdict=7" "verdict=2" "have_patches=1 n_patches=5" "have_patches=2" \
               "refused_size=5" "n_kernels=0xffffffffffffffff" "patch0_len=65" \
               "patch0_offset=0x7fffffffffffffff" "patch0_offset=0x100000" "n_patches=100000" \
               "n_held=0xffffffff" "n_held=1" "hold=9"; do
  i=$((i+1))
  cp "$T/good.dc" "$f"
  poison "$f" $variant
  run "$T/p$i.log"
  [ "$rc" -eq 0 ] || { cat "$T/h.err" >&2; fail "poisoned record ($variant): rc=$rc"; }
  fresh_map "$T/p$i.log" || { cat "$T/p$i.log" >&2; fail "poisoned record ($variant): not decided afresh"; }
  grep -qE "cache: .*(corrupt|does not fit)" "$T/p$i.log" || fail "poisoned record ($variant): not reported (debug)"
done
# The untouched file is still used: the checks above are not rejecting everything.
cp "$T/good.dc" "$f"
run "$T/pgood.log"
grep -E "info: map: .*verdict=mapped" "$T/pgood.log" | grep -q "(cached)" || fail "good cache file not used"

# H3: not a file.  Each special file stands where the cache file is.
mkfifo "$T/fifo49"
$PY -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$T/sock49"
kinds="fifo socket dir chardev link-fifo link-socket link-chardev link-good"
for kind in $kinds; do
  rm -rf "$f"
  case $kind in
    fifo) mkfifo "$f";;
    socket) $PY -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$f";;
    dir) mkdir "$f";;
    chardev) mknod "$f" c 1 5 2>/dev/null || ln -s /dev/zero "$f";;
    link-fifo) ln -s "$T/fifo49" "$f";;
    link-socket) ln -s "$T/sock49" "$f";;
    link-chardev) ln -s /dev/zero "$f";;
    link-good) ln -s "$T/good.dc" "$f";;
  esac
  run "$T/s-$kind.log"
  [ "$rc" -eq 0 ] || { cat "$T/h.err" >&2; fail "cache file is a $kind: rc=$rc (124 = hung)"; }
  fresh_map "$T/s-$kind.log" || { cat "$T/s-$kind.log" >&2; fail "cache file is a $kind: not decided afresh"; }
  grep -q "cache: .*not a regular file" "$T/s-$kind.log" || fail "cache file is a $kind: not reported"
done
rm -rf "$f"

# N5: a regular file where the cache directory should be is called that.
rm -rf "$C" && mkdir -p "$C" && echo x >"$C/rdnacompat"
run "$T/n5.log"
[ "$rc" -eq 0 ] || fail "cache dir is a file: rc=$rc"
grep -q "warn: cache: $C/rdnacompat is not a directory" "$T/n5.log" || fail "cache dir is a file: not said (N5)"
rm -f "$C/rdnacompat"

# Audit 2026-12-03 L2: the directory check does not follow a symlink (with
# XDG_CACHE_HOME in a shared place, another user's /tmp/rdnacompat ->
# ~victim/somedir passed), and the directory holding it must be ours or
# root's and writable by nobody else unless sticky.
rm -rf "$C" "$T/victim49" && mkdir -p "$C" "$T/victim49" && chmod 700 "$T/victim49"
ln -s "$T/victim49" "$C/rdnacompat"
run "$T/l2a.log"
[ "$rc" -eq 0 ] || fail "cache dir is a symlink: rc=$rc"
grep -q "warn: cache: $C/rdnacompat is a symbolic link; the decision cache is not used (remove it)" "$T/l2a.log" ||
  { grep cache: "$T/l2a.log" >&2; fail "cache dir is a symlink: not said"; }
[ -z "$(ls -A "$T/victim49")" ] || fail "cache dir is a symlink: files written behind it: $(ls "$T/victim49")"
rm -f "$C/rdnacompat"
chmod 777 "$C"
run "$T/l2b.log"
grep -q "warn: cache: $C/rdnacompat is in a directory others can write; the decision cache is not used" "$T/l2b.log" ||
  { grep cache: "$T/l2b.log" >&2; fail "cache dir in a world-writable parent: not said"; }
[ -z "$(ls -A "$C/rdnacompat" 2>/dev/null)" ] || fail "cache written in a world-writable parent"
rm -rf "$C/rdnacompat"; chmod 1777 "$C"
run "$T/l2c.log"
ls "$C"/rdnacompat/vadd1030-*.dc >/dev/null 2>&1 || { grep cache: "$T/l2c.log" >&2; fail "sticky parent (as /tmp): no cache written"; }
rm -rf "$C/rdnacompat"; chmod 755 "$C"
if [ "$(id -u)" = 0 ]; then
  chown 65534 "$C"
  run "$T/l2d.log"
  grep -q "warn: cache: $C/rdnacompat is in a directory another user owns" "$T/l2d.log" ||
    { grep cache: "$T/l2d.log" >&2; fail "cache dir in another user's directory: not said"; }
  chown 0 "$C"
else
  echo "note: not root: the other-owner parent case is not run" >&2
fi
echo "ok: cache directory: a symlink, a parent others can write (not sticky) or own: refused and said; a sticky parent is fine"

# W3: processes at once (one per device target) keep every decision: each
# re-reads and merges under the lock before its rename.  Three rounds of two.
nrecs() { $PY -c 'import struct,sys; print(struct.unpack_from("<I", open(sys.argv[1],"rb").read(), 36)[0])' "$1"; }
for round in 1 2 3; do
  rm -rf "$C"
  for g in gfx1031 gfx1032; do
    timeout 60 env LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS=$g HSA_ENABLE_SDMA=0 \
      "$T/vadd1030" >/dev/null 2>&1 &
  done
  wait
  f=$(ls "$C"/rdnacompat/vadd1030-*.dc 2>/dev/null | head -1)
  [ -n "$f" ] || fail "parallel round $round: no cache file"
  n=$(nrecs "$f")
  [ "$n" -eq 2 ] || fail "parallel round $round: $n decisions kept, want 2 (one per target)"
done
ls "$C"/rdnacompat/*.tmp.* >/dev/null 2>&1 && fail "temp file left behind"
echo "49-shim-cache-hostile: ok"
