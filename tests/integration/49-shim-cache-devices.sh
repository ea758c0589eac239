#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 49-shim-cache-devices.sh — a cached decision never hands a card another
# target's code, whatever set of devices the process that wrote it saw.
# Found 2026-12-06 on RCCL under HIP 7.2: the cache stored the chosen entry
# as an index into HIP 7's unbundle request, whose items depend on the
# devices in the process, so a record written by a process that saw only
# the gfx1031 handed the gfx1031 the gfx1101 entry in a process that saw
# both.  Records now name the entry by id and size (dcache_file.h), and the
# shim checks every object it hands over against the compat table by the
# object's own ELF header (rdc_policy_handover_check).
# devices.hip built for gfx1030, gfx1100 and gfx1101 (compressed where the
# release's clang offers it), on simulated cards (executed), one cache
# directory through the whole sequence as torchrun's ranks share one:
#   1. both cards, HIP_VISIBLE_DEVICES=0 (rank 0: the gfx1031), then =1;
#   2. a process that sees only the gfx1031;
#   3. both cards; 4. both, in the other order; 5. the gfx1031 alone again.
# Each run: every device's result equals the CPU's, and every decision for
# the gfx1031 names the gfx1030 entry with that entry's size (the log line
# names the entry handed over); no handover is refused.  Then a record
# rewritten to name the gfx1101 entry (checksum fixed: what a wrong index
# did), in a process that has that entry, is caught by the entry's own ELF
# header before it is used: said at warn and decided afresh, and the
# program's results stay right (5.2: a gfx1030 card and a gfx906 entry
# instead).  The last check at hand-over itself (rdc_add_handover, for
# whatever gets past this) is tests/unit/test_policy.c's (test_handover_check).
. "$(dirname "$0")/shim/common.sh"
# OTHER: the second card; FOREIGN: an entry of the bundle the gfx1031 may
# never run (HIP 5.2's clang has no gfx11 device libraries: a gfx1030 card
# and a gfx906 entry there).
if [ "$REL" = 5.2 ]; then
  OTHER=gfx1030 FOREIGN=gfx906 comp=plain
  flags="--offload-arch=gfx1030 --offload-arch=gfx906"
else
  OTHER=gfx1101 FOREIGN=gfx1101 comp=compressed
  flags="--offload-arch=gfx1030 --offload-arch=gfx1100 --offload-arch=gfx1101 --offload-compress"
fi
build devs "$S/devices.hip" $flags
C=$T/cache49d
rm -rf "$C"
export XDG_CACHE_HOME=$C
# The bundle's entries: id and size, read from the program's offload bundle
# (decompressed when compressed) by the tool the user has.
TOOL=$B/bin/rdnacompat
sizes=$("$TOOL" inspect "$T/devs" 2>/dev/null | $PY -c '
import re, sys
for l in sys.stdin:
    m = re.search(r"(hipv4-amdgcn-amd-amdhsa--gfx[0-9a-z]+)\S*\s.*?(\d+) bytes", l)
    if m: print(m.group(1), m.group(2))
' | sort -u)
size_of() { echo "$sizes" | awk -v id="hipv4-amdgcn-amd-amdhsa--$1" '$1 == id { print $2; exit }'; }
s1030=$(size_of gfx1030); sfor=$(size_of $FOREIGN)
[ -n "$s1030" ] && [ -n "$sfor" ] || { "$TOOL" inspect "$T/devs" >&2; fail "cannot read the entry sizes of $T/devs"; }

run() { # run NAME GPUS SEES [VAR=VALUE...]: the program under the shim; its checks must
        # pass; SEES 1: the process uses the gfx1031 (then its decisions are checked), 0: not
  local name=$1 gpus=$2 sees=$3; shift 3
  local rc=0
  rm -f "$T/$name.log"
  env "$@" RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FILE="$T/$name.log" \
    LD_PRELOAD="$SIM/librdnacompat-sim.so:$SHIM" LD_LIBRARY_PATH="$SIM" RDNACOMPAT_SIM_GPUS="$gpus" \
    HSA_ENABLE_SDMA=0 timeout 120 "$T/devs" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$T/$name.out" "$T/$name.err" >&2; fail "$name ($gpus $*): rc=$rc"; }
  grep -q "result ok" "$T/$name.out" || fail "$name: no device ran"
  ! grep -q "handover-refused" "$T/$name.log" || { grep handover "$T/$name.log" >&2; fail "$name: a handover was refused"; }
  # every decision for the gfx1031: the gfx1030 entry, by id and size
  local n=0 line
  while IFS= read -r line; do
    n=$((n + 1))
    case $line in
      *" entry=hipv4-amdgcn-amd-amdhsa--gfx1030 "*" bytes=$s1030 "*) ;;
      *) fail "$name: the gfx1031 was given another entry than gfx1030 ($s1030 bytes): $line";;
    esac
  done < <(grep -E "(map|audit): lib=$T/devs .*target=gfx1031 " "$T/$name.log")
  [ "$sees" = 0 ] || [ "$n" -ge 1 ] || { cat "$T/$name.log" >&2; fail "$name: no decision for the gfx1031 logged"; }
  [ "$sees" = 1 ] || [ "$n" -eq 0 ] || fail "$name: decisions for a gfx1031 the process does not use"
  echo "$name: $n decision(s) for the gfx1031, each the gfx1030 entry; $(grep -c 'result ok' "$T/$name.out") device(s) right"
}
run r0 gfx1031,$OTHER 1 HIP_VISIBLE_DEVICES=0
run r1 gfx1031,$OTHER 0 HIP_VISIBLE_DEVICES=1
run one gfx1031 1
run both gfx1031,$OTHER 1
grep -q "target=gfx1031 .*(cached)" "$T/both.log" || fail "both: the gfx1031's decision did not come from the cache"
run swapped $OTHER,gfx1031 1
run one-again gfx1031 1
grep -q "target=gfx1031 .*(cached)" "$T/one-again.log" || fail "one-again: not from the cache"

# A record that names another target's entry (checksum made right) is caught
# at hand-over, whatever fits by id and size.
f=$(ls "$C"/rdnacompat/devs-*.dc 2>/dev/null | head -1)
[ -n "$f" ] || fail "no cache file for devs"
PYTHONPATH="$S/../lib" $PY - "$f" "$sfor" "$FOREIGN" <<'PYEOF' || fail "could not rewrite the record"
import struct, sys
import dcache_file   # tests/integration/lib
p, size, foreign = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b = bytearray(open(p, 'rb').read())
# struct rdc_dc_rec on x86-64: 968 bytes after a 72-byte header; entry_id at
# 44 (128 bytes), entry_size at 304, target.proc at 8, n_ref/ref_bytes at
# 944/948; n_patches at 352 (80-byte patches follow the refused triples)
dcache_file.check_layout(b, '49-shim-cache-devices')
n = struct.unpack_from('<I', b, 36)[0]
off, done = 72, 0
for _ in range(n):
    proc = bytes(b[off + 8:off + 34]).split(b'\0')[0]
    ref_bytes, = struct.unpack_from('<I', b, off + 948)
    n_patches, = struct.unpack_from('<I', b, off + 352)
    eid = bytes(b[off + 44:off + 172]).split(b'\0')[0]
    if proc == b'gfx1031' and eid.endswith(b'gfx1030'):
        new = b'hipv4-amdgcn-amd-amdhsa--' + foreign.encode()
        b[off + 44:off + 172] = new + b'\0' * (128 - len(new))
        struct.pack_into('<Q', b, off + 304, size)
        done += 1
    off += 968 + ref_bytes + 80 * n_patches
if not done:
    sys.exit('no record of the gfx1031 naming the gfx1030 entry')
dcache_file.write_with_checksum(p, b)
PYEOF
run poison gfx1031,$OTHER 1
grep -q "warn: cache: the decision at offset .* for gfx1031 names entry hipv4-amdgcn-amd-amdhsa--$FOREIGN, which it may not run (.*no edge gfx1031 <- $FOREIGN); deciding afresh" "$T/poison.log" ||
  { grep -E "handover|map:|cache" "$T/poison.log" >&2; fail "a record naming the $FOREIGN entry was not caught"; }
grep -E "map: lib=$T/devs .*target=gfx1031 " "$T/poison.log" | grep -qv "(cached)" || fail "poison: not decided afresh"
echo "ok: $comp bundle, every process gave the gfx1031 the gfx1030 entry; a record naming other code is decided afresh"
