#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 — HIP 7 reads no bundle at registration (49-shim-lazy)
# 41-shim-load-refused.sh — a plain fat binary whose gfx1030 entry has a
# sound ELF header but section headers pointing past its end, on a
# simulated gfx1031.  The entry ids tell the choice, so the gfx1031 entry
# is added at registration and the decision waits for HIP's load
# (shim/hooks/defer.c).  HIP's own build of that module fails first (comgr
# cannot read the object), exactly as under HSA_OVERRIDE_GFX_VERSION: same
# launch error, same exit (HIP 5.2 and 6.4 then crash in their own
# __hipUnregisterFatBinary at exit, with or without the shim).  With
# RDNACOMPAT_LAZY=0 the entry is refused at registration, as before: the
# release's no-code failure.  The sound program is decided at the load.
. "$(dirname "$0")/shim/common.sh"
build vadd30 "$S/vadd.hip" --offload-arch=gfx1030
cp "$T/vadd30" "$T/vbad"
$PY - "$T/vbad" <<'PYEOF' || fail "corrupting the gfx1030 entry"
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
magic = b"__CLANG_OFFLOAD_BUNDLE__"
at = data.find(magic)
assert at >= 0, "no offload bundle"
n = struct.unpack_from("<Q", data, at + 24)[0]
p, hit = at + 32, 0
for _ in range(n):
    off, size, idlen = struct.unpack_from("<QQQ", data, p)
    eid = bytes(data[p + 24:p + 24 + idlen]).decode()
    p += 24 + idlen
    if not eid.endswith("gfx1030"):
        continue
    co = at + off
    assert data[co:co + 4] == b"\x7fELF"
    shoff, = struct.unpack_from("<Q", data, co + 0x28)
    shnum, = struct.unpack_from("<H", data, co + 0x3c)
    for i in range(1, shnum):   # every section but the null one: past the end
        struct.pack_into("<Q", data, co + shoff + i * 64 + 0x18, size + 4096 * i)
    hit += 1
assert hit == 1, "gfx1030 entries: %d" % hit
open(path, "wb").write(data)
PYEOF

rc_o=0; sim gfx1031 env HSA_OVERRIDE_GFX_VERSION=10.3.0 "$T/vbad" >"$T/lo.out" 2>"$T/lo.err" || rc_o=$?
# stdout is lost in the crash at exit; vadd says the launch's error on stderr
grep "^vadd: hipLaunchKernel: " "$T/lo.err" >"$T/lo.msg" || fail "override: the launch did not fail: $(cat "$T/lo.err")"
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$T/lr.log" shim gfx1031 "$T/vbad" >"$T/lr.out" 2>"$T/lr.err" || rc=$?
[ "$rc" -eq "$rc_o" ] || { cat "$T/lr.err" "$T/lr.out" >&2; fail "lazy: exit $rc, the override's $rc_o"; }
grep "^vadd: hipLaunchKernel: " "$T/lr.err" | cmp -s - "$T/lo.msg" ||
  fail "lazy: $(grep "^vadd:" "$T/lr.err") — override: $(cat "$T/lo.msg")"
! grep -q "map: lib=$T/vbad" "$T/lr.log" || fail "lazy: decided at registration"

rc=0; RDNACOMPAT_LAZY=0 RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$T/le.log" shim gfx1031 "$T/vbad" \
  >"$T/le.out" 2>"$T/le.err" || rc=$?
nocode_failed "$rc" "$T/le.out" "$T/le.err" || fail "eager: exit $rc, not the release's no-code failure"
grep -q "missing: lib=$T/vbad .*unreadable" "$T/le.log" || fail "eager: the refusal is not logged"

# the sound program still runs, decided at the load
rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$T/ok.log" shim gfx1031 "$T/vadd30" >"$T/ok.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && grep -qx "result ok" "$T/ok.out" || fail "vadd30: rc=$rc $(cat "$T/ok.out")"
grep -q "retargeted: lib=$T/vadd30 .*how=patched-at-load" "$T/ok.log" || fail "vadd30: not decided at the load"
echo "41-shim-load-refused: ok"
