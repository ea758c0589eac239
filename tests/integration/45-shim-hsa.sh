#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 45-shim-hsa.sh — code objects loaded straight through ROCR 5.2
# (hsa_code_object_reader_create_from_memory + hsa_executable_load_agent_code_object),
# whose loader wants the agent's exact ISA: a gfx1030 object on a simulated
# gfx1031 fails without the shim (HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS =
# 0x100d) and loads with it; audit/off leave it failing; a refused kernel
# keeps it from being mapped; the same through
# hsa_code_object_reader_create_from_file.  What the agent says it is
# (hsa_agent_get_info, hsa_agent_iterate_isas, hsa_isa_get_info_alt): the
# truth, except in spoof mode for a caller named in RDNACOMPAT_SPOOF_FOR.
. "$(dirname "$0")/shim/common.sh"
[ -e /usr/include/hsa/hsa.h ] || skip "no HSA headers"
if [ ! -x "$T/hsaload" ] || [ "$S/hsaload.c" -nt "$T/hsaload" ]; then
  gcc -I/usr/include/hsa "$S/hsaload.c" -lhsa-runtime64 -o "$T/hsaload" || fail "build hsaload"
fi
[ -s "$T/kern1030.hsaco" ] || hipcc --genco --offload-arch=gfx1030 --no-gpu-bundle-output \
  "$S/kern.hip" -o "$T/kern1030.hsaco" >/dev/null 2>&1 || fail "hipcc --genco"

rc=0; sim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" >"$T/h.out" 2>&1 || rc=$?
grep -q "load 0x100d" "$T/h.out" || fail "without the shim: $(cat "$T/h.out")"

rc=0; RDNACOMPAT_LOG=info shim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || { cat "$T/h.err" >&2; fail "with the shim: $(cat "$T/h.out")"; }
grep -q "info: map: source=hsa_executable_load_agent_code_object device=0 target=gfx1031 code=gfx1030 verdict=mapped" \
  "$T/h.err" || fail "HSA mapping not logged"

grep -qx "agent gfx1031 isa0 amdgcn-amd-amdhsa--gfx1031 len 27 isas 1" "$T/h.out" || fail "agent query: $(cat "$T/h.out")"

# Reader from the file descriptor: remapped the same way.
rc=0; sim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" file >"$T/h.out" 2>&1 || rc=$?
grep -q "load 0x100d" "$T/h.out" || fail "from_file without the shim: $(cat "$T/h.out")"
rc=0; RDNACOMPAT_LOG=info shim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" file >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || { cat "$T/h.err" >&2; fail "from_file with the shim: $(cat "$T/h.out")"; }
grep -q "info: map: source=hsa_executable_load_agent_code_object device=0 target=gfx1031 code=gfx1030 verdict=mapped" \
  "$T/h.err" || fail "from_file: HSA mapping not logged"

# Spoof mode: the listed caller sees gfx1030 (name and ISA, same length);
# others, and map mode, the truth; the load is still remapped for gfx1031.
for run in "spoof hsaload gfx1030" "spoof librocblas.so gfx1031" "map hsaload gfx1031"; do
  set -- $run
  rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_MODE=$1 RDNACOMPAT_SPOOF_FOR=$2 shim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" \
    >"$T/h.out" 2>"$T/h.err" || rc=$?
  grep -qx "agent $3 isa0 amdgcn-amd-amdhsa--$3 len 27 isas 1" "$T/h.out" || fail "$run: $(cat "$T/h.out")"
  grep -qx "reader 0x0 load 0x0 freeze 0x0 symbol 0x0" "$T/h.out" || fail "$run: load $(cat "$T/h.out")"
done
RDNACOMPAT_LOG=info RDNACOMPAT_MODE=spoof RDNACOMPAT_SPOOF_FOR=hsaload shim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" \
  >"$T/h.out" 2>"$T/h.err" || true
for via in hsa_agent_get_info hsa_isa_get_info_alt; do
  grep -q "spoof: device=0 target=gfx1031 reported=.*gfx1030 caller=$T/hsaload via=$via" "$T/h.err" ||
    { cat "$T/h.err" >&2; fail "HSA spoof via $via not logged"; }
done
# One ISA under ROCR 5.2: the filter has nothing to hide.
rc=0; RDNACOMPAT_ISA_FILTER=native shim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -qx "agent gfx1031 isa0 amdgcn-amd-amdhsa--gfx1031 len 27 isas 1" "$T/h.out" || fail "filter: $(cat "$T/h.out")"

for m in audit off; do
  rc=0; RDNACOMPAT_MODE=$m shim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
  grep -q "load 0x100d" "$T/h.out" || fail "mode $m changed the load: $(cat "$T/h.out")"
done

printf '[badkernels]\ngfx1031\tgfx1030\tfill_*\trefuse\ttest rule\t45-shim-hsa\n' >"$T/bad45.tsv"
rc=0; RDNACOMPAT_TABLES="$T/bad45.tsv" shim gfx1031 "$T/hsaload" "$T/kern1030.hsaco" >"$T/h.out" 2>"$T/h.err" || rc=$?
grep -q "load 0x100d" "$T/h.out" || fail "refused kernel was mapped: $(cat "$T/h.out")"
grep -q "refused: kernel=fill_iota check=badlist" "$T/h.err" || fail "refusal not logged"
echo "45-shim-hsa: ok"
