#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — inspect's input checks; no ROCm runtime runs
# 10-inspect-unreadable.sh BUILD — unreadable input makes `rdnacompat inspect`
# exit 2 with a message naming the file and the byte offset (text and JSON),
# never crash; other files given on the same command line are still reported.
set -u
build=${1:?usage: 10-inspect-unreadable.sh BUILD}
tool="$build/bin/rdnacompat"
fx="$build/fixtures"
[ -s "$fx/bundle/iota.bundle" ] || { echo "skip: fixtures not built" >&2; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails+1)); }

size=$(stat -c %s "$fx/bundle/iota.bundle")
# Cut inside the last entry: the bundle header declares more than is there.
head -c $((size - 100)) "$fx/bundle/iota.bundle" >"$tmp/trunc.bundle"
# Cut inside the header's entry table.
head -c 60 "$fx/bundle/iota.bundle" >"$tmp/short.bundle"
printf 'definitely not a binary\n' >"$tmp/garbage.txt"

for f in trunc.bundle short.bundle; do
  "$tool" inspect --gpu gfx1031 "$tmp/$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "$f: exit $rc, want 2"
  grep -q "$tmp/$f: at byte [0-9]" "$tmp/err" || fail "$f: message lacks file and offset: $(cat "$tmp/err")"
  "$tool" inspect --json --gpu gfx1031 "$tmp/$f" "$fx/bundle/iota.bundle" >"$tmp/out.json" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "$f --json: exit $rc, want 2"
  python3 - "$tmp/out.json" "$tmp/$f" <<'PY' || fail "$f --json: bad error object"
import json, sys
j = json.load(open(sys.argv[1]))
f0, f1 = j["files"]
ok = (sys.argv[2] in f0["error"] and isinstance(f0["error_offset"], int)
      and f0["error_offset"] <= __import__("os").path.getsize(sys.argv[2])
      and "error" not in f1 and f1["bundles"][0]["verdict"] == "mapped")
sys.exit(0 if ok else 1)
PY
done

# The offset is the real one: the truncated entry's end lies past the file.
"$tool" inspect --json "$tmp/trunc.bundle" >"$tmp/out.json" 2>/dev/null
python3 - "$tmp/out.json" "$((size - 100))" <<'PY' || fail "trunc.bundle: error offset not within the bundle header"
import json, sys
j = json.load(open(sys.argv[1]))
off = j["files"][0]["error_offset"]
sys.exit(0 if off is not None and 24 <= off < int(sys.argv[2]) else 1)
PY

# A compressed bundle whose hash does not match its contents.
python3 - "$fx/bundle/iota.bundle" "$tmp/badhash.ccob" <<'PY' || fail "could not write a CCOB"
import hashlib, struct, sys, zlib
plain = open(sys.argv[1], "rb").read()
data = zlib.compress(plain, 9)
h = int.from_bytes(hashlib.md5(plain + b"x").digest()[:8], "little")
open(sys.argv[2], "wb").write(b"CCOB" + struct.pack("<HHIIQ", 2, 0, 24 + len(data), len(plain), h) + data)
PY
"$tool" inspect --gpu gfx1031 "$tmp/badhash.ccob" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "CCOB with a wrong hash: exit $rc, want 2"
grep -q "badhash.ccob: at byte 16: " "$tmp/err" || fail "CCOB with a wrong hash: message lacks file/offset 16: $(cat "$tmp/err")"

"$tool" inspect --gpu gfx1031 "$tmp/garbage.txt" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "garbage: exit $rc, want 2"
grep -q "garbage.txt" "$tmp/err" || fail "garbage: message lacks the file: $(cat "$tmp/err")"
"$tool" inspect "$tmp/does-not-exist" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "missing file: exit $rc, want 2"
grep -q "does-not-exist" "$tmp/err" || fail "missing file: message lacks the file"

# A host library whose .hip_fatbin runs past the end of the file.
if [ -s "$fx/host/libiota-1030.so" ]; then
  # Patch sh_size of .hip_fatbin to four times the file size.
  python3 - "$fx/host/libiota-1030.so" "$tmp/hbig.so" <<'PY' || fail "could not patch the host library"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
def sh(i): return shoff + i * shentsize
stroff, = struct.unpack_from("<Q", b, sh(shstrndx) + 0x18)
for i in range(shnum):
    name, = struct.unpack_from("<I", b, sh(i))
    if b[stroff + name:].split(b"\0", 1)[0] == b".hip_fatbin":
        struct.pack_into("<Q", b, sh(i) + 0x20, len(b) * 4)
        open(sys.argv[2], "wb").write(b)
        sys.exit(0)
sys.exit(1)
PY
  "$tool" inspect --gpu gfx1030 "$tmp/hbig.so" >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "host library with oversized .hip_fatbin: exit $rc, want 2"
  grep -q "hbig.so: at byte [0-9]" "$tmp/err" || fail "oversized .hip_fatbin: message lacks file/offset: $(cat "$tmp/err")"
  # A bundle inside .hip_fatbin whose entry table is cut: zero the bytes after
  # the first bundle's header so the scan finds a bad entry.
  off=$("$tool" inspect --json "$fx/host/libiota-1030.so" | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["bundles"][0]["offset"])')
  cp "$fx/host/libiota-1030.so" "$tmp/hbad.so"
  printf '\xff\xff\xff\xff\xff\xff\xff\x7f' | dd of="$tmp/hbad.so" bs=1 seek=$((off + 24 + 8 + 8)) conv=notrunc status=none
  "$tool" inspect --gpu gfx1030 "$tmp/hbad.so" >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] || fail "host library with a corrupt bundle: exit $rc, want 2"
  at=$(sed -n 's/.*hbad.so: at byte \([0-9]*\).*/\1/p' "$tmp/err")
  [ -n "$at" ] && [ "$at" -ge "$off" ] || fail "corrupt bundle in .hip_fatbin: offset not in file terms ($(cat "$tmp/err"), bundle at $off)"
fi

[ $fails -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "inspect unreadable: ok"
