#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 58-runner-skips.sh BUILD — every skip prints its reason, and the runner holds
# tests to it: tests/run-integration.sh, run on three made-up tests, counts a
# skip (exit 77) with a reason on stderr as skipped and shows that reason in
# its closing lines (the "skip: " / "SKIP [ROCm x]: " prefix off), fails a skip
# whose stderr is empty, and under RDC_STRICT_SKIPS=1 fails a skip that
# skips.allow does not list.  tests/run-unit.sh refuses a cmocka skip() without
# a print_message of its reason (checked on a made-up unit source).
set -u
B=$1; T=$B/tools-test/runner-skips
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T"; mkdir -p "$T"
printf '#!/usr/bin/env bash\necho "SKIP [ROCm 5.2]: no widget here" >&2\nexit 77\n' >"$T/t-reason.sh"
printf '#!/usr/bin/env bash\necho "some output, nothing on stderr"\nexit 77\n' >"$T/t-silent.sh"
printf '#!/usr/bin/env bash\nexit 0\n' >"$T/t-pass.sh"
cd "$SRC" || fail "no source tree"
RDC_RELEASES=5.2 RDC_STRICT_SKIPS=0 bash tests/run-integration.sh "$B" "$T/t-reason.sh" "$T/t-pass.sh" >"$T/ok.out" 2>&1 ||
  fail "a skip with a reason failed the run: $(tail -5 "$T/ok.out")"
grep -q "^integration: skipped: $T/t-reason.sh \[5.2\]: no widget here$" "$T/ok.out" ||
  fail "the skip's reason is not in the closing lines: $(grep skipped "$T/ok.out")"
if RDC_RELEASES=5.2 RDC_STRICT_SKIPS=0 bash tests/run-integration.sh "$B" "$T/t-silent.sh" >"$T/silent.out" 2>&1; then
  fail "a skip without a reason passed: $(tail -5 "$T/silent.out")"
fi
grep -q "FAIL: skipped (exit 77) without a reason on stderr" "$T/silent.out" || fail "no clear failure: $(tail -5 "$T/silent.out")"
if RDC_RELEASES=5.2 RDC_STRICT_SKIPS=1 bash tests/run-integration.sh "$B" "$T/t-reason.sh" >"$T/strict.out" 2>&1; then
  fail "a strict run accepted a skip skips.allow does not list"
fi
grep -q "skips.allow does not allow it: no widget here" "$T/strict.out" || fail "strict: $(tail -5 "$T/strict.out")"
# the unit runner's static check, on a copy of the runner beside a made-up unit source
mkdir -p "$T/unit-tree/unit"
cp tests/run-unit.sh "$T/unit-tree/run-unit.sh"
printf 'static void t(void **s)\n{\n\tif (!s)\n\t\tskip();\n}\n' >"$T/unit-tree/unit/test_bare.c"
mkdir -p "$T/emptybuild/tests"
if bash "$T/unit-tree/run-unit.sh" "$T/emptybuild" >"$T/unit.out" 2>&1; then
  fail "run-unit.sh accepted a skip() without a reason"
fi
grep -q "test_bare.c:4:" "$T/unit.out" || fail "run-unit.sh: $(cat "$T/unit.out")"
printf 'static void t(void **s)\n{\n\tif (!s) {\n\t\tprint_message("skipped: no s\\n");\n\t\tskip();\n\t}\n}\n' >"$T/unit-tree/unit/test_bare.c"
bash "$T/unit-tree/run-unit.sh" "$T/emptybuild" >"$T/unit2.out" 2>&1 || fail "run-unit.sh refused a skip with its reason: $(cat "$T/unit2.out")"
echo "ok: skips say why; a silent skip fails; strict runs hold skips to skips.allow; unit skips print their reason"
