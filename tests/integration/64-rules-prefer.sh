#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 64-rules-prefer.sh — the `prefer:<target>` kernel rule (docs/RULES.md) on a
# simulated gfx1031 (executed).  prefer.hip's kernel writes the number of the
# target whose code ran (the __gfx1030__/__gfx1031__ macro of each
# --offload-arch), built for gfx1030 and gfx1031: the program's own fat
# binary, and a two-target code object file loaded with hipModuleLoad.
#   1. without the shim and under the shim with no prefer row, the card's own
#      gfx1031 code runs;
#   2. a user row `prefer:gfx1030` for the kernel: gfx1030's code runs (1030),
#      one `prefer` line at info naming the row, the card's target and the
#      preferred one — and again with the decision cache warm from a run
#      without the row, and without the row afterwards (1031 again);
#   3. a provisional row: off by default, applied with RDNACOMPAT_OPT_IN=1;
#   4. an allow row for the kernel cancels the prefer row;
#   5. hipModuleLoad of the two-target file: prefer applies (row scoped to the
#      program, which calls the loader), not when scoped to another library;
#      a deny row for the kernel still applies to the preferred code;
#   6. a preferred target the bundle lacks (gfx10-3-generic): kept, and a
#      `prefer-kept` line says why; a target the card may not run
#      (prefer:gfx1032 on gfx1031): the user's tables are refused with the
#      reason and the card's own code runs;
#   7. two cards (gfx1030, gfx1031): gfx1031 runs gfx1030's code from a rebuilt
#      bundle that keeps the originals for gfx1030 and leaves gfx1031's out;
#   8. `rdnacompat inspect --gpu gfx1031` says which entry the card gets.
. "$(dirname "$0")/shim/common.sh"
build prefer "$S/prefer.hip" --offload-arch=gfx1030 --offload-arch=gfx1031
co=$T/prefer2.co
if [ ! -s "$co" ] || [ "$S/prefer.hip" -nt "$co" ]; then
  "$HIPCC" --genco --offload-arch=gfx1030 --offload-arch=gfx1031 "$S/prefer.hip" -o "$co" \
    >"$T/prefer2.log" 2>&1 || { cat "$T/prefer2.log" >&2; fail "hipcc --genco"; }
fi
C=$(cd "$T" && pwd)/prefer-cache   # the decision cache of these runs only
rm -rf "$C"
row() { # PATTERN SCOPE ACTION STATUS -> one [kernels] row
  printf '%s\t%s\tgfx1031\t*\t%s\t%s\ttest\t64-rules-prefer\n' "$1" "$2" "$3" "$4"
}
run() { # NAME TABLES ARGS... : the program under the shim; "arch N" -> $T/NAME.arch
  local name=$1 tabs=$2; shift 2
  local rc=0
  RDNACOMPAT_TABLES="$tabs" RDNACOMPAT_LOG=info XDG_CACHE_HOME="$C" shim gfx1031 "$T/prefer" "$@" \
    >"$T/$name.out" 2>"$T/$name.err" || rc=$?
  sed -n 's/^arch //p' "$T/$name.out" >"$T/$name.arch"
  return $rc
}
want() { # NAME N
  [ "$(cat "$T/$1.arch")" = "$2" ] ||
    { cat "$T/$1.out" "$T/$1.err" >&2; fail "$1: arch '$(cat "$T/$1.arch")', want $2"; }
}
no_prefer() { ! grep -q ': prefer: ' "$T/$1.err" || { cat "$T/$1.err" >&2; fail "$1: a prefer line"; }; }

# 1. the card's own code
rc=0; sim gfx1031 "$T/prefer" >"$T/p0.out" 2>"$T/p0.err" || rc=$?
[ $rc -eq 0 ] && [ "$(sed -n 's/^arch //p' "$T/p0.out")" = 1031 ] ||
  { cat "$T/p0.out" "$T/p0.err" >&2; fail "without the shim: rc=$rc"; }
run p1 "" || fail "shim, no rows: rc=$?"
want p1 1031; no_prefer p1

# 2. a user prefer row: gfx1030's code runs, one line says so (the decision
# cache holds p1's native choice for this file: it must not answer)
{ echo '[kernels]'; row rdc_which_arch '*' prefer:gfx1030 reviewed; } >"$T/p.tsv"
run p2 "$T/p.tsv" || fail "prefer row: rc=$?"
want p2 1030
[ "$(grep -c ': prefer: ' "$T/p2.err")" = 1 ] || { cat "$T/p2.err" >&2; fail "want one prefer line"; }
grep ': prefer: ' "$T/p2.err" | grep 'target=gfx1031' | grep 'chosen=gfx1030' |
  grep -q "prefer row 'rdc_which_arch' in \* on gfx1031 (user row)" ||
  { cat "$T/p2.err" >&2; fail "prefer line: row, card's target, preferred target"; }
run p2b "" || fail "no rows after: rc=$?"
want p2b 1031; no_prefer p2b

# 3. provisional: opt-in only
{ echo '[kernels]'; row 'rdc_which*' '*' prefer:gfx1030 provisional; } >"$T/pp.tsv"
run p3 "$T/pp.tsv" || fail "provisional: rc=$?"
want p3 1031; no_prefer p3
RDNACOMPAT_OPT_IN=1 run p3b "$T/pp.tsv" || fail "provisional, opt-in: rc=$?"
want p3b 1030

# 4. allow cancels prefer
{ echo '[kernels]'; row rdc_which_arch '*' prefer:gfx1030 reviewed; row 'rdc_*' '*' allow reviewed; } >"$T/pa.tsv"
run p4 "$T/pa.tsv" || fail "allow: rc=$?"
want p4 1031; no_prefer p4

# 5. hipModuleLoad of a two-target file; the scope is the loader's caller
{ echo '[kernels]'; row '*' 'prefer' prefer:gfx1030 reviewed; } >"$T/pm.tsv"
run p5 "$T/pm.tsv" module "$co" || fail "module: rc=$?"
want p5 1030
grep ': prefer: ' "$T/p5.err" | grep -q 'source=hipModuleLoad' || { cat "$T/p5.err" >&2; fail "module: no prefer line"; }
{ echo '[kernels]'; row '*' 'libother.so*' prefer:gfx1030 reviewed; } >"$T/po.tsv"
run p5b "$T/po.tsv" module "$co" || fail "module, other scope: rc=$?"
want p5b 1031; no_prefer p5b
{ echo '[kernels]'; row rdc_which_arch '*' prefer:gfx1030 reviewed; row rdc_which_arch '*' deny reviewed; } >"$T/pd.tsv"
rc=0; run p5c "$T/pd.tsv" module "$co" || rc=$?
[ $rc -eq 2 ] && grep -q '^hipModuleGetFunction' "$T/p5c.out" && grep -q 'rule-deny' "$T/p5c.err" &&
  grep ': prefer: ' "$T/p5c.err" | grep -q 'source=hipModuleLoad' ||
  { cat "$T/p5c.out" "$T/p5c.err" >&2; fail "deny with prefer: rc=$rc"; }

# 6. a target the bundle lacks; a target the card may not run
{ echo '[kernels]'; row rdc_which_arch '*' prefer:gfx10-3-generic reviewed; } >"$T/pg.tsv"
run p6 "$T/pg.tsv" || fail "absent target: rc=$?"
want p6 1031; no_prefer p6
grep 'prefer-kept' "$T/p6.err" | grep -q 'no gfx10-3-generic entry' ||
  { cat "$T/p6.err" >&2; fail "absent target: no prefer-kept line"; }
{ echo '[kernels]'; row rdc_which_arch '*' prefer:gfx1032 reviewed; } >"$T/pi.tsv"
run p6b "$T/pi.tsv" || fail "incompatible target: rc=$?"
want p6b 1031; no_prefer p6b
grep -q 'no compat edge lets gfx1031 run gfx1032 code' "$T/p6b.err" ||
  { cat "$T/p6b.err" >&2; fail "incompatible target: the tables error is not said"; }

# 7. two cards, gfx1030 and gfx1031: on HIP 5.2 and 6.4 the rebuilt bundle
# keeps the originals gfx1030 needs and leaves gfx1031's own entry out (2 of
# the 3: host and gfx1030); on HIP 7 gfx1031 is answered its retargeted
# object at the runtime's lookup; each card runs gfx1030's code
for dv in 0 1; do
  rc=0; RDC_PREFER_DEVICE=$dv RDNACOMPAT_TABLES="$T/p.tsv" RDNACOMPAT_LOG=debug XDG_CACHE_HOME="$C" \
    shim gfx1030,gfx1031 "$T/prefer" >"$T/p8$dv.out" 2>"$T/p8$dv.err" || rc=$?
  [ $rc -eq 0 ] && [ "$(sed -n 's/^arch //p' "$T/p8$dv.out")" = 1030 ] ||
    { cat "$T/p8$dv.out" "$T/p8$dv.err" >&2; fail "two cards, device $dv: rc=$rc"; }
  # HIP 5.2 and 6.4 get the bundle rebuilt at registration; HIP 7 is
  # answered gfx1031's object at its lookup and finds gfx1030's itself
  if [ "$REL" != 7.2 ]; then handed='rebuilt: .*added=1 originals=2 '
  else handed='retargeted: .*entry=hipv4-amdgcn-amd-amdhsa--gfx1031 '; fi
  grep ': prefer: ' "$T/p8$dv.err" | grep -q 'device=1 target=gfx1031' &&
    grep -q 'native: .*device=0 target=gfx1030' "$T/p8$dv.err" &&
    grep -qE "$handed" "$T/p8$dv.err" ||
    { cat "$T/p8$dv.err" >&2; fail "two cards: decisions"; }
done
RDC_PREFER_DEVICE=1 shim gfx1030,gfx1031 "$T/prefer" >"$T/p8n.out" 2>&1 && grep -qx 'arch 1031' "$T/p8n.out" ||
  { cat "$T/p8n.out" >&2; fail "two cards without the row: gfx1031 runs its own"; }

# 8. inspect
if [ -x "$B/bin/rdnacompat" ]; then
  RDNACOMPAT_TABLES="$T/p.tsv" "$B/bin/rdnacompat" inspect --gpu gfx1031 "$co" >"$T/i.out" ||
    fail "inspect"
  grep -q 'gfx1031: preferred gfx1030 (prefer row' "$T/i.out" || { cat "$T/i.out" >&2; fail "inspect: preferred"; }
  "$B/bin/rdnacompat" inspect --gpu gfx1031 "$co" >"$T/i0.out" || fail "inspect without rows"
  grep -q 'gfx1031: native' "$T/i0.out" || { cat "$T/i0.out" >&2; fail "inspect: native"; }
fi
echo "ok: prefer rows pick gfx1030 code on a simulated gfx1031 (executed), per code object, with the precedence of docs/RULES.md (ROCm $REL)"
