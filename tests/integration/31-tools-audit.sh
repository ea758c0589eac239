#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the tool's fixes of the audit; the release does not change them
# 31-tools-audit.sh — the tool's answers to audit 2026-12-02 W2, W4, W6,
# N9, M2, M3, N7: inspect decides opt-in edges as the shim does
# (RDNACOMPAT_OPT_IN with the shim's spellings, --opt-in) and says how to
# turn them on; report refuses bad --result/--date (exit 2), takes card
# names and short PCI ids, under RDNACOMPAT_SIM_GPUS is a simulated run of
# that card, writes JSON for -o x.json, and says write errors; every
# subcommand fails (exit 1, with a message) when its output cannot be
# written; run refuses a --shim that is not a shared library and a --gpu
# that names nothing; doctor under the simulator says so, and its usage
# errors exit 4 (N3); explain -- CMD without the simulator's and unrelated
# noise (M7).
set -u
B=$1
TOOL=$B/bin/rdnacompat
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$TOOL" ] || { echo "skip: no $TOOL" >&2; exit 77; }
D=$(mktemp -d); trap 'rm -rf "$D"' EXIT
CO=${RDC_FIXTURES:-$B/fixtures}/co/gfx1102.co

# W2: gfx1150 <- gfx1102 is an opt-in edge (tables/compat.tsv).
if [ -f "$CO" ]; then
  summary() { "$@" 2>/dev/null | tail -1; }
  off=$(summary "$TOOL" inspect --gpu gfx1150 "$CO")
  case "$off" in *"0 mapped, 1 missing"*) ;; *) fail "opt-in edge used by default: $off";; esac
  "$TOOL" inspect --gpu gfx1150 "$CO" | grep -q "edge is opt-in .*RDNACOMPAT_OPT_IN=1 tries it" ||
    fail "opt-in reason does not say how to turn it on"
  for v in 1 on yes TRUE; do
    s=$(summary env RDNACOMPAT_OPT_IN=$v "$TOOL" inspect --gpu gfx1150 "$CO")
    case "$s" in *"1 mapped, 0 missing"*) ;; *) fail "RDNACOMPAT_OPT_IN=$v ignored: $s";; esac
  done
  for v in 0 off no false bogus; do
    s=$(summary env RDNACOMPAT_OPT_IN=$v "$TOOL" inspect --gpu gfx1150 "$CO")
    case "$s" in *"0 mapped, 1 missing"*) ;; *) fail "RDNACOMPAT_OPT_IN=$v turned opt-in on: $s";; esac
  done
  RDNACOMPAT_OPT_IN=bogus "$TOOL" inspect --gpu gfx1150 "$CO" 2>&1 >/dev/null | grep -q "RDNACOMPAT_OPT_IN=bogus is not" ||
    fail "bad RDNACOMPAT_OPT_IN not warned"
  s=$(summary "$TOOL" inspect --opt-in --gpu gfx1150 "$CO")
  case "$s" in *"1 mapped, 0 missing"*) ;; *) fail "--opt-in ignored: $s";; esac
fi

# W4: report validates what db check would reject.
rep() { "$TOOL" report --simulated --no-doctor "$@"; }
rc=0; rep --card 1002:73df:c1 --date 2026-13-45 -o "$D/a.report" 2>"$D/err" || rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$D/a.report" ] || fail "bad --date: rc=$rc"
rc=0; rep --card 1002:73df:c1 --date 2026-02-29 >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "2026-02-29 accepted"
rc=0; rep --card 1002:73df:c1 --date 2024-02-29 >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 0 ] || fail "2024-02-29 refused"
rc=0; rep --card 1002:73df:c1 --result bogus >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "bad --result: rc=$rc"
# M3: names and short ids, as the other commands' --card.
rep --card "RX 6700 XT" | grep -q "^pci_id: 1002:73df$" || fail "--card NAME"
rep --card 73df | grep -q "^pci_id: 1002:73df$" || fail "--card DDDD"
rc=0; rep --card RX >/dev/null 2>"$D/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "matches .* cards of different PCI ids" "$D/err" || fail "ambiguous --card: rc=$rc"
# M2: under the simulator the card is the simulated one; -o x.json is JSON.
rc=0; RDNACOMPAT_SIM_GPUS=gfx1031 "$TOOL" report --no-doctor -o "$D/r.json" 2>"$D/err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$D/err" >&2; fail "report under RDNACOMPAT_SIM_GPUS: rc=$rc"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["simulated"]=="yes" and d["gfx_target"]=="gfx1031", d' \
  "$D/r.json" || fail "report under sim: not a simulated gfx1031 JSON report"
# W6, N9: write errors are said, with the command's name.
rc=0; rep --card 1002:73df:c1 -o /dev/full 2>"$D/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "rdnacompat report: /dev/full: No space left on device" "$D/err" || fail "report -o /dev/full: rc=$rc"
rc=0; rep --card 1002:73df:c1 -o "$D" 2>"$D/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q "^rdnacompat report: $D: Is a directory" "$D/err" || fail "report -o DIR"
for cmd in "report --simulated --no-doctor --card 73df" "cards 6700" "explain hipErrorNoBinaryForGpu" "--help" "--version" \
           "inspect --gpu gfx1031 $CO"; do
  rc=0; $TOOL $cmd >/dev/full 2>"$D/err" || rc=$?
  [ "$rc" -ne 0 ] && grep -q "No space left on device" "$D/err" || fail "'$cmd' >/dev/full: rc=$rc, silent"
done
# N7: run refuses what ld.so would ignore.
echo text >"$D/text.txt"
for s in "$D/text.txt" /bin/true "$D"; do
  rc=0; "$TOOL" run --shim "$s" -- true 2>"$D/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "run --shim $s: rc=$rc"
done
rc=0; "$TOOL" run --gpu gfx9999 -- true 2>/dev/null || rc=$?; [ "$rc" -eq 2 ] || fail "run --gpu gfx9999: rc=$rc"
rc=0; "$TOOL" run --gpu 0 -- true || rc=$?; [ "$rc" -eq 0 ] || fail "run --gpu 0: rc=$rc"
# Doctor (M2, N3): under the simulator it says so; usage errors exit 4.
RDNACOMPAT_SIM_GPUS=gfx1031 "$TOOL" doctor 2>/dev/null | grep -q "running under rdnacompat sim" ||
  fail "doctor under sim does not say so"
"$TOOL" doctor 2>/dev/null | grep -q "running under rdnacompat sim" && fail "doctor says sim outside sim"
rc=0; "$TOOL" doctor --root 2>"$D/err" >/dev/null || rc=$?
[ "$rc" -eq 4 ] && grep -q "missing value for '--root'" "$D/err" || fail "doctor --root: rc=$rc"
rc=0; "$TOOL" doctor --root /nonexistent >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 4 ] || fail "doctor --root /nonexistent: rc=$rc"
rc=0; "$TOOL" doctor --user no-such-user-here >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 4 ] || fail "doctor --user: rc=$rc"
"$TOOL" doctor 2>/dev/null | grep -qE "[^0-9]1 (failures|warnings)" && fail "doctor: '1 failures'"
# explain -- CMD (M7): the simulator's own lines are not the program's
# errors, card blocks only for targets the program's devices or the shim
# named, and PyTorch rows only for Python/PyTorch programs.
rc=0; timeout 60 "$TOOL" explain -- sh -c 'echo "rdnacompat-sim: GPU node 1 is gfx1101. Try HSA_OVERRIDE_GFX_VERSION_1=10.3.0." >&2
  echo "hipErrorNoDevice (code objects for gfx1010 gfx1013)" >&2; exit 3' >"$D/out" 2>/dev/null || rc=$?
[ "$rc" -eq 3 ] || fail "explain -- CMD: exit $rc, want CMD's 3"
# (the one entry allowed: HIP's own status the program printed, from tables/status.tsv)
grep "^\[" "$D/out" | grep -qv '^\[hipErrorNoDevice (100)\] HIP status' &&
  { cat "$D/out" >&2; fail "explain -- CMD: rows for a non-PyTorch program or the simulator's advice"; }
grep -q "is the target of" "$D/out" && fail "explain -- CMD: card blocks for targets nobody named"
timeout 60 "$TOOL" explain -- python3 -c 'import sys; sys.stderr.write("hipErrorNoDevice\n"); sys.exit(3)' \
  2>/dev/null | grep -q "^\[cuda-unavailable\]" || fail "explain -- python: PyTorch row missing"
# inspect nits (N4): no summary when nothing was read; procfs is not
# "empty"; the --card message is whole; control characters escaped.
"$TOOL" inspect --gpu gfx1031 /nonexistent 2>/dev/null | grep -q "^summary" && fail "summary after cannot open"
"$TOOL" inspect /proc/self/maps 2>&1 | grep -q "size unknown" || fail "procfs file called empty"
"$TOOL" inspect --card 6700 "$CO" 2>&1 | grep -q "gfx1031 (e.g. .*); gfx1032 (e.g. .*); give --gpu TARGET" || fail "--card 6700 message cut or not naming the targets"
: >"$D/a$(printf '\tb')"
"$TOOL" inspect "$D/a$(printf '\tb')" 2>&1 | grep -q 'a\\x09b' || fail "control character in a file name not escaped"
echo "31-tools-audit: ok"
