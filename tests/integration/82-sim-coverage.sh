#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — reads files only (the host's hipcc and llvm-mc-19 build them)
# 82-sim-coverage.sh BUILD — `rdnacompat sim --coverage`:
#   sim_iota (tests/integration/progs, hipcc for gfx1030): its one code
#   object lists no instruction the engine cannot execute (exit 0, summary
#   "N of N distinct", 0 not executable), text and --json;
#   a code object assembled by llvm-mc-19 with image_sample_d and
#   image_atomic_add (image instructions the engine leaves out) between
#   executable instructions (gfx1030 and gfx1100): both
#   are listed with count and first offset, the rest is executable (exit 1);
#   --target keeps one processor and the generic target it runs (gfx1030,
#   gfx1031: gfx10-3-generic; gfx1100, gfx1151: gfx11-generic), and says so;
#   a missing file is exit 2.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
T="$BUILD/bin/rdnacompat"
[ -x "$T" ] || skip "rdnacompat not built"
command -v llvm-mc-19 >/dev/null || skip "llvm-mc-19 not installed"

exe=$(build_hip sim_iota gfx1030) || exit $?
out=$("$T" sim --coverage "$exe") || fail "coverage of sim_iota: exit $? ($out)"
echo "$out" | grep -q "bundle 0 entry [0-9]* hipv4-amdgcn-amd-amdhsa--gfx1030: [0-9]* instructions" ||
  fail "coverage of sim_iota: no gfx1030 code object listed: $out"
echo "$out" | grep -q "not executable:" && fail "coverage of sim_iota lists an instruction: $out"
echo "$out" | grep -Eq '^summary: ([0-9]+) of \1 distinct instructions executable, [1-9][0-9]* instructions \(0 not executable\) in 1 code objects' ||
  fail "coverage of sim_iota: summary: $out"
json=$("$T" sim --coverage --json "$exe") || fail "coverage --json of sim_iota: exit $?"
echo "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["summary"]
assert s["code_objects"] == 1 and s["not_executable_instructions"] == 0 and s["missing"] == [], s
co = d["files"][0]["code_objects"][0]
assert co["processor"] == "gfx1030" and co["missing"] == [] and co["executable"] == co["distinct"] > 10, co
' || fail "coverage --json of sim_iota: $json"
echo "ok: sim_iota (gfx1030): every instruction executable, text and JSON"

work=$OUT/coverage; mkdir -p "$work"
cat > "$work/img.s" <<'ASM'
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  v_mov_b32 v0, 0
  image_sample_d v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_1D
  v_add_f32 v1, v1, v2
  image_atomic_add v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm
  image_sample_d v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_1D
  s_endpgm
ASM
for t in gfx1030 gfx1100; do
  s=$work/img-$t.s; cp "$work/img.s" "$s"
  [ $t = gfx1100 ] && sed -i 's/s_load_dwordx2/s_load_b64/' "$s"
  llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=$t -filetype=obj "$s" -o "$work/img-$t.o" || fail "llvm-mc-19 for $t"
done
rc=0; out=$("$T" sim --coverage "$work/img-gfx1030.o" "$work/img-gfx1100.o") || rc=$?
[ $rc -eq 1 ] || fail "coverage of the image snippet: exit $rc, expected 1 ($out)"
for t in gfx1030 gfx1100; do
  sect=$(echo "$out" | sed -n "/code object ($t)/,/^[^ ]/p")
  echo "$sect" | grep -Eq 'not executable: image_sample_d +2  first at \.text\+0xc$' || fail "$t: image_sample_d not listed: $out"
  echo "$sect" | grep -Eq 'not executable: image_atomic_add +1  first at \.text\+0x18$' || fail "$t: image_atomic_add not listed: $out"
  echo "$sect" | grep -Eq ': 7 instructions, 4 of 6 distinct executable$' || fail "$t: counts: $out"
done
echo "$out" | grep -Eq '^summary: [0-9]+ of [0-9]+ distinct instructions executable, 14 instructions \(6 not executable\) in 2 code objects' ||
  fail "coverage of the image snippet: summary: $out"
out=$("$T" sim --coverage --target gfx1100 --json "$work/img-gfx1030.o" "$work/img-gfx1100.o") && fail "--target: exit 0"
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["summary"]
assert s["code_objects"] == 1 and s["skipped"] == 1, s
m = {x["mnemonic"]: x["count"] for x in s["missing"]}
assert m == {"image_sample_d": 2, "image_atomic_add": 1}, m
' || fail "--target gfx1100 --json: $out"
rc=0; "$T" sim --coverage "$work/nonexistent.co" >/dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "missing file: exit $rc, expected 2"
echo "ok: image_sample_d/image_atomic_add listed with counts and first offsets (gfx1030, gfx1100), --target, missing file exit 2"

# --target takes in the generic target the card runs (tables/isa.tsv):
# gfx1030 and gfx1031 run gfx10-3-generic code, gfx1100 and gfx1151
# gfx11-generic code (Debian's rocSOLVER 6.4 ships only generic code for RDNA).
printf 's_load_dwordx2 s[0:1], s[4:5], 0x0\nv_mov_b32 v0, 0\nimage_atomic_add v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm\ns_endpgm\n' > "$work/gen.s"
for t in gfx10-3-generic gfx11-generic gfx1030 gfx1100; do
  s=$work/gen-$t.s; cp "$work/gen.s" "$s"
  case $t in gfx11*) sed -i 's/s_load_dwordx2/s_load_b64/' "$s";; esac
  llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=$t -filetype=obj "$s" -o "$work/gen-$t.o" || fail "llvm-mc-19 for $t"
done
gens=("$work/gen-gfx10-3-generic.o" "$work/gen-gfx11-generic.o" "$work/gen-gfx1030.o" "$work/gen-gfx1100.o")
for pair in gfx1030:gfx10-3-generic gfx1031:gfx10-3-generic gfx1100:gfx11-generic gfx1151:gfx11-generic; do
  t=${pair%%:*} g=${pair#*:}
  rc=0; out=$("$T" sim --coverage --target $t "${gens[@]}") || rc=$?
  [ $rc -eq 1 ] || fail "--target $t: exit $rc, expected 1 ($out)"
  echo "$out" | grep -q "^  code object ($g): 4 instructions, 3 of 4 distinct executable" ||
    fail "--target $t: the $g code object is not listed: $out"
  echo "$out" | grep -q "gen-$g.o: 1 code object of the engine's processors (1 for $g, which $t runs)$" ||
    fail "--target $t: the file line does not say the $g code object was taken in: $out"
  echo "$out" | grep -q "^target $t: code objects for $t and for $g (the generic target $t runs: 1)$" ||
    fail "--target $t: no target line: $out"
  native=$(echo "$out" | grep -c "^  code object (gfx1[01][0-9]0)") || true
  case $t in gfx1030|gfx1100) want=1;; *) want=0;; esac
  [ "$native" -eq $want ] || fail "--target $t: $native code objects for a specific processor, expected $want: $out"
  echo "$out" | grep -Eq '^summary: .* in '$((1 + want))' code objects \('$((3 - want))' skipped\)$' ||
    fail "--target $t: summary: $out"
  json=$("$T" sim --coverage --json --target $t "${gens[@]}") && fail "--target $t --json: exit 0"
  echo "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
t, g, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
assert d["target"] == t and d["generic_target"] == g, (d["target"], d["generic_target"])
s = d["summary"]
assert s["generic_code_objects"] == 1 and s["code_objects"] == 1 + want, s
procs = sorted(co["processor"] for f in d["files"] for co in f["code_objects"])
assert procs == sorted([g] + ([t] if want else [])), procs
' $t $g $want || fail "--target $t --json: $json"
done
# The engine's opcode table: per generation, executable of decoded opcodes
# of the compute formats (only the target's generation with --target).
out=$("$T" sim --coverage "$work/img-gfx1030.o" "$work/img-gfx1100.o") ; rc=$?
for g in gfx10.3 gfx11; do
  line=$(echo "$out" | grep -E "^engine $g: [0-9]+ of [0-9]+ opcodes of the compute formats executable \([0-9]+ out of scope") ||
    fail "no opcode table line for $g: $out"
  read -r e n <<<"$(echo "$line" | sed -E 's/^engine [^:]*: ([0-9]+) of ([0-9]+) .*/\1 \2/')"
  [ "$n" -gt 900 ] && [ "$e" -le "$n" ] && [ "$e" -gt 800 ] || fail "$g opcode table: $e of $n: $line"
done
out=$("$T" sim --coverage --target gfx1030 "$work/img-gfx1030.o") ; rc=$?
echo "$out" | grep -q "^engine gfx11:" && fail "--target gfx1030 reports gfx11's opcode table: $out"
echo "$out" | grep -q "^engine gfx10.3: " || fail "--target gfx1030: no gfx10.3 opcode table: $out"
echo "$out" | grep -q "^target gfx1030: code objects for gfx1030 and for gfx10-3-generic (the generic target gfx1030 runs: 0)$" ||
  fail "--target gfx1030 on a file without generic code: $out"
echo "ok: the engine's opcode table per generation (only the target's with --target)"
echo "ok: --target gfx1030/gfx1031 take in gfx10-3-generic code, gfx1100/gfx1151 gfx11-generic code, and say so (text and JSON)"
