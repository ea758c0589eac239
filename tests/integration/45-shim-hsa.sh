#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 45-shim-hsa.sh — code objects loaded straight through ROCR
# (hsa_code_object_reader_create_from_memory + hsa_executable_load_agent_code_object),
# whose loader wants the agent's exact ISA: on 5.2 a gfx1030 object on a
# simulated gfx1031, on 6.4/7.2 a gfx1100 object on a simulated gfx1101,
# fails without the shim (HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS = 0x100d)
# and loads with it; audit/off leave it failing; a refused kernel keeps it
# from being mapped; the same through hsa_code_object_reader_create_from_file.
# What the agent says it is (hsa_agent_get_info, hsa_agent_iterate_isas,
# hsa_isa_get_info_alt): the truth — on ROCR >= 6.4 two ISAs, the card's
# and its generic one — except in spoof mode for a caller named in
# RDNACOMPAT_SPOOF_FOR.  On 6.4/7.2 also: a gfx10-3-generic object loads
# on gfx1031 by the runtime itself, with and without the shim; and ROCR
# 6.4.3/7.2.4 load a gfx1030 object on gfx1031 themselves (observed on the
# simulated card; 5.2 refuses it).
. "$(dirname "$0")/shim/common.sh"
[ -e /usr/include/hsa/hsa.h ] || skip "no HSA headers"
# A C compiler: gcc on the host; the roots have only their clang.
CC=$(command -v gcc || command -v cc || ls /usr/bin/clang-[0-9]* 2>/dev/null | grep -E '/clang-[0-9]+$' | head -1)
[ -n "$CC" ] || skip "no C compiler"
if [ "$REL" = 5.2 ]; then
  CODE=gfx1030 CARD=gfx1031 GENERIC= ISA1= NISA=1
else
  CODE=gfx1100 CARD=gfx1101 GENERIC=gfx11-generic ISA1=" isa1 amdgcn-amd-amdhsa--gfx11-generic len 33" NISA=2
fi
if [ ! -x "$T/hsaload" ] || [ "$S/hsaload.c" -nt "$T/hsaload" ]; then
  "$CC" -I/usr/include/hsa "$S/hsaload.c" -lhsa-runtime64 -o "$T/hsaload" || fail "build hsaload"
fi
genco() { # ARCH OUT
  [ -s "$2" ] || "$HIPCC" --genco --offload-arch="$1" --no-gpu-bundle-output \
    "$S/kern.hip" -o "$2" >/dev/null 2>&1 || fail "hipcc --genco $1"
}
genco "$CODE" "$T/kern$CODE.hsaco"

rc=0; sim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" >"$T/h.out" 2>&1 || rc=$?
grep -q "load 0x100d" "$T/h.out" || fail "without the shim: $(cat "$T/h.out")"

rc=0; RDNACOMPAT_LOG=info shim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || { cat "$T/h.err" >&2; fail "with the shim: $(cat "$T/h.out")"; }
grep -q "info: map: source=hsa_executable_load_agent_code_object device=0 target=$CARD code=$CODE verdict=mapped" \
  "$T/h.err" || fail "HSA mapping not logged"

grep -qx "agent $CARD isa0 amdgcn-amd-amdhsa--$CARD len 27$ISA1 isas $NISA" "$T/h.out" || fail "agent query: $(cat "$T/h.out")"

# Reader from the file descriptor: remapped the same way.
rc=0; sim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" file >"$T/h.out" 2>&1 || rc=$?
grep -q "load 0x100d" "$T/h.out" || fail "from_file without the shim: $(cat "$T/h.out")"
rc=0; RDNACOMPAT_LOG=info shim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" file >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || { cat "$T/h.err" >&2; fail "from_file with the shim: $(cat "$T/h.out")"; }
grep -q "info: map: source=hsa_executable_load_agent_code_object device=0 target=$CARD code=$CODE verdict=mapped" \
  "$T/h.err" || fail "from_file: HSA mapping not logged"

# Spoof mode: the listed caller sees $CODE (name and ISA, same length);
# others, and map mode, the truth; the load is still remapped for $CARD.
for run in "spoof hsaload $CODE" "spoof librocblas.so $CARD" "map hsaload $CARD"; do
  set -- $run
  rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_MODE=$1 RDNACOMPAT_SPOOF_FOR=$2 shim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" \
    >"$T/h.out" 2>"$T/h.err" || rc=$?
  grep -qx "agent $3 isa0 amdgcn-amd-amdhsa--$3 len 27$ISA1 isas $NISA" "$T/h.out" || fail "$run: $(cat "$T/h.out")"
  grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || fail "$run: load $(cat "$T/h.out")"
done
RDNACOMPAT_LOG=info RDNACOMPAT_MODE=spoof RDNACOMPAT_SPOOF_FOR=hsaload shim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" \
  >"$T/h.out" 2>"$T/h.err" || true
for via in hsa_agent_get_info hsa_isa_get_info_alt; do
  grep -q "spoof: device=0 target=$CARD reported=.*$CODE caller=$T/hsaload via=$via" "$T/h.err" ||
    { cat "$T/h.err" >&2; fail "HSA spoof via $via not logged"; }
done
# RDNACOMPAT_ISA_FILTER=native: one ISA left (ROCR 5.2 lists one: nothing
# to hide; ROCR >= 6.4 lists the generic second, which is hidden and logged).
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_ISA_FILTER=native shim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -qx "agent $CARD isa0 amdgcn-amd-amdhsa--$CARD len 27 isas 1" "$T/h.out" || fail "filter: $(cat "$T/h.out")"
grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || fail "filter: load $(cat "$T/h.out")"
if [ -n "$GENERIC" ]; then
  grep -q "isa filter: hiding amdgcn-amd-amdhsa--$GENERIC from hsa_agent_iterate_isas" "$T/h.err" ||
    fail "filter: hiding the generic ISA not logged: $(cat "$T/h.err")"
fi
echo "ok: two ISAs per agent where ROCR lists them ($NISA here), the filter leaves one"

for m in audit off; do
  rc=0; RDNACOMPAT_MODE=$m shim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
  grep -q "load 0x100d" "$T/h.out" || fail "mode $m changed the load: $(cat "$T/h.out")"
done

printf '[badkernels]\n%s\t%s\tfill_*\trefuse\ttest rule\t45-shim-hsa\n' "$CARD" "$CODE" >"$T/bad45.tsv"
rc=0; RDNACOMPAT_TABLES="$T/bad45.tsv" shim $CARD "$T/hsaload" "$T/kern$CODE.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -q "load 0x100d" "$T/h.out" || fail "refused kernel was mapped: $(cat "$T/h.out")"
grep -q "refused: kernel=fill_iota check=badlist" "$T/h.err" || fail "refusal not logged"

if [ "$REL" != 5.2 ]; then
  # ROCR >= 6.4 itself: a gfx1030 object loads on gfx1031 (5.2 refuses it,
  # above), and a gfx10-3-generic one too — the shim maps neither.
  genco gfx1030 "$T/kerngfx1030.hsaco"
  genco gfx10-3-generic "$T/kerngeneric.hsaco"
  for k in gfx1030 generic; do
    rc=0; sim gfx1031 "$T/hsaload" "$T/kern$k.hsaco" >"$T/h.out" 2>&1 || rc=$?
    grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" ||
      fail "ROCR $REL no longer loads a $k object on gfx1031 by itself: $(cat "$T/h.out")"
  done
  rc=0; RDNACOMPAT_LOG=debug shim gfx1031 "$T/hsaload" "$T/kerngeneric.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
  grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || fail "generic object with the shim: $(cat "$T/h.out")"
  grep -q "map: source=hsa_executable_load_agent_code_object" "$T/h.err" && fail "the shim rewrote a generic object"
  grep -q "debug: native: source=hsa_executable_load_agent_code_object device=0 target=gfx1031 code=gfx10-3-generic verdict=native" \
    "$T/h.err" || fail "the shim did not log leaving the generic object to the runtime: $(grep -v 'debug: real' "$T/h.err")"
  echo "ok: ROCR $REL loads gfx1030 and gfx10-3-generic objects on gfx1031 itself; the shim leaves the generic one alone"
fi
echo "45-shim-hsa: ok"
