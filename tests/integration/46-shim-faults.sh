#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 46-shim-faults.sh — the shim under faults, through its real-function seam
# (RDNACOMPAT_TEST_UNRESOLVED) and bad configuration: it never crashes,
# never prints to stdout, and passes through (logging why) when in doubt.
. "$(dirname "$0")/shim/common.sh"
build vadd1030 "$S/vadd.hip" --offload-arch=gfx1030

# No way to enumerate agents: pass through (HIP aborts as it would alone).
rc=0; RDNACOMPAT_TEST_UNRESOLVED=hsa_iterate_agents shim gfx1031 "$T/vadd1030" >"$T/f.out" 2>"$T/f.err" || rc=$?
[ "$rc" -ne 0 ] || fail "mapped without agents?"
grep -q "hsa_iterate_agents not found; passing everything through" "$T/f.err" || fail "no reason logged"
nobin_in "$T/f.err" || fail "expected HIP's own error"
[ "$REL" != 5.2 ] || ! grep -q "^device0" "$T/f.out" || fail "program ran past HIP's abort?"

# No ISA query: hsa_isa_get_info_alt is hooked, so its hook answers
# HSA_STATUS_ERROR_NOT_INITIALIZED to everyone, HIP included, which then sees
# no device: a clean failure, no crash.  (The registry's fallback to the agent
# name is unit-tested with fake real functions: test_shim_hsa.c.)
rc=0; RDNACOMPAT_TEST_UNRESOLVED=hsa_isa_get_info_alt shim gfx1031 "$T/vadd1030" >"$T/f.out" 2>"$T/f.err" || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || { cat "$T/f.err" >&2; fail "unresolved hsa_isa_get_info_alt: rc=$rc"; }
grep -q "real hsa_isa_get_info_alt left unresolved" "$T/f.err" || fail "unresolved ISA query not reported"

# No hsa_init: devices unknown, pass through.
rc=0; RDNACOMPAT_TEST_UNRESOLVED=hsa_init shim gfx1031 "$T/vadd1030" >"$T/f.out" 2>"$T/f.err" || rc=$?
[ "$rc" -ne 0 ] || fail "ran without hsa_init?"

# A tables file with an error: refused with file:line, built-in tables used.
printf '[compat]\ngfx1031\tgfx9999\tx\tnone\tbroken\n' >"$T/broken.tsv"
rc=0; RDNACOMPAT_TABLES="$T/broken.tsv" shim gfx1031 "$T/vadd1030" >"$T/f.out" 2>"$T/f.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/f.err" >&2; fail "bad tables file: rc=$rc"; }
grep -q "tables: $T/broken.tsv refused (.*broken.tsv:2" "$T/f.err" || { cat "$T/f.err" >&2; fail "bad tables: no file:line"; }

# Bad environment values: warned, defaults used.
rc=0; RDNACOMPAT_MODE=mapp RDNACOMPAT_LOG=loud shim gfx1031 "$T/vadd1030" >"$T/f.out" 2>"$T/f.err" || rc=$?
[ "$rc" -eq 0 ] || fail "bad env: rc=$rc"
grep -q "RDNACOMPAT_MODE=mapp is not" "$T/f.err" || fail "bad mode not reported"

# Unwritable log file: stderr instead.
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE=/nonexistent/dir/x.log shim gfx1031 "$T/vadd1030" \
  >"$T/f.out" 2>"$T/f.err" || rc=$?
[ "$rc" -eq 0 ] || fail "bad log file: rc=$rc"
grep -q "cannot open RDNACOMPAT_LOG_FILE /nonexistent/dir/x.log" "$T/f.err" || fail "log file failure not reported"
grep -q "info: map:" "$T/f.err" || fail "log did not fall back to stderr"

# stdout never carries the shim's words in any of these.
grep -q rdnacompat "$T/f.out" && fail "stdout"
echo "46-shim-faults: ok"
