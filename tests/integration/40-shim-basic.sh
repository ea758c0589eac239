#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 40-shim-basic.sh — a gfx1030-only HIP program on a simulated gfx1031 with
# Debian's real HIP 5.2 + ROCR: aborts without the shim; with it, runs, every
# kernel is dispatched from a code object loaded as gfx1031, gcnArchName
# stays gfx1031, and the log names the mapping (text and JSON).  Modes off
# and audit leave the runtime's behaviour alone; a program with no
# compatible code gets the diagnosis block.
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030
build vadd900 "$S/vadd.hip" --offload-arch=gfx900

# 1. Without the shim HIP 5.2 aborts.
rc=0; sim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "gfx1030-only program ran on gfx1031 without the shim"
grep -q hipErrorNoBinaryForGpu "$T/b.err" || fail "expected hipErrorNoBinaryForGpu without the shim"

# 2. With it: runs, truthful name, kernels from gfx1031 code, mapping logged.
rm -f "$T/b.trace"
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/b.trace" shim gfx1031 "$T/vadd1030" \
  >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/b.err" >&2; fail "with the shim: rc=$rc"; }
grep -qx "device0 gfx1031" "$T/b.out" || fail "gcnArchName is not gfx1031: $(cat "$T/b.out")"
grep -qx "launch hipSuccess" "$T/b.out" || fail "launch failed: $(cat "$T/b.out")"
kernels_on "$T/b.trace" gfx1031 || fail "trace"
grep -E "info: map: lib=$T/vadd1030 bundle=0 .*device=0 target=gfx1031 .*chosen=gfx1030 kernels=1 refused=0" \
  "$T/b.err" >/dev/null || { cat "$T/b.err" >&2; fail "log does not name the mapping"; }
grep -q "^device0" "$T/b.err" && fail "program output on stderr?"
grep -q rdnacompat "$T/b.out" && fail "the shim wrote to stdout"

# 3. JSON lines.
rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_LOG_FORMAT=json RDNACOMPAT_LOG_FILE="$T/b.json" \
  shim gfx1031 "$T/vadd1030" >/dev/null 2>"$T/b.err" || rc=$?
[ "$rc" -eq 0 ] || fail "json run rc=$rc"
$PY - "$T/b.json" <<'PYEOF' || fail "json log"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
maps = [e for e in ev if e["event"] == "map"]
assert maps, "no map event"
m = maps[-1]
assert m["target"] == "gfx1031" and m["chosen"] == "gfx1030" and m["kernels"] == 1, m
assert any(e["event"] == "rebuilt" and e["how"] == "file-mapping" for e in ev), "no file-mapped rebuild"
PYEOF
rm -f "$T/b.json"

# 4. off: exactly the runtime's behaviour, no log.
rc=0; RDNACOMPAT_MODE=off RDNACOMPAT_LOG=debug shim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "mode off still mapped"
grep -q "map:" "$T/b.err" && fail "mode off logged a mapping"

# 5. audit: logs what map would do, changes nothing.
rc=0; RDNACOMPAT_MODE=audit RDNACOMPAT_LOG=info shim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "mode audit changed the outcome"
grep -q "info: audit: lib=$T/vadd1030 .*chosen=gfx1030" "$T/b.err" || fail "audit line missing"

# 6. No compatible code: the diagnosis block before HIP aborts.
rc=0; shim gfx1031 "$T/vadd900" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "gfx900 code ran on gfx1031"
grep -q "no compatible GPU code" "$T/b.err" || fail "no diagnosis block"
grep -q "$T/vadd900, bundle 0: device 0 (gfx1031)" "$T/b.err" || fail "block does not name the program"
grep -q "it has: *gfx900" "$T/b.err" || fail "block does not say what it has"
grep -q "card needs:" "$T/b.err" || fail "block does not say what is needed"
blk=$(grep -n "no compatible GPU code" "$T/b.err" | head -1 | cut -d: -f1)
hip=$(grep -n "hipErrorNoBinaryForGpu" "$T/b.err" | tail -1 | cut -d: -f1)
[ -n "$hip" ] && [ "$blk" -lt "$hip" ] || fail "block not printed before HIP's abort"

# 7. A refused kernel: the entry is not mapped; the log names kernel, check, numbers.
printf '[badkernels]\ngfx1031\tgfx1030\t*fill_iota*\trefuse\ttest rule: pretend it hangs\t40-shim-basic\n' \
  >"$T/bad.tsv"
rc=0; RDNACOMPAT_TABLES="$T/bad.tsv" RDNACOMPAT_LOG=info shim gfx1031 "$T/vadd1030" >"$T/b.out" 2>"$T/b.err" || rc=$?
[ "$rc" -ne 0 ] || fail "refused kernel still mapped"
grep -q "warn: refused: lib=$T/vadd1030 bundle=0 device=0 kernel=_Z9fill_iotaPii check=badlist reason=" "$T/b.err" ||
  fail "refusal not logged with kernel and check"
grep -q "refused: *_Z9fill_iotaPii (badlist)" "$T/b.err" || fail "diagnosis does not name the refused kernel"
grep -q "info: map:" "$T/b.err" && fail "mapped despite the refusal"
echo "40-shim-basic: ok"
