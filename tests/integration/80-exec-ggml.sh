#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 80-exec-ggml.sh BUILD — ggml's own op test (Debian's test-backend-ops,
# ggml 0.27, mode "test": every case runs on the ROCm backend and on the CPU
# backend and the outputs are compared, NMSE against ggml's own per-op
# threshold) on simulated cards that EXECUTE the kernels
# (tools/simgpu/exec/), inside the ROCm 6.4 and 7.2 roots:
#   gfx1030, gfx1100  natively (ggml's own gfx1030 / gfx1100 code);
#   gfx1031, gfx1032, gfx1035  under the shim (gfx1030 code, retargeted);
#   gfx1101, gfx1102, gfx1103  under the shim (gfx1100-family code: ggml
#                              ships gfx1101/gfx1102 code itself, gfx1103
#                              gets a retargeted gfx1100-family object).
# In the 7.2 root Debian's ggml is the same build (0.27.0-1, linked against
# HIP 6.4's libamdhip64.so.6 and rocBLAS 4), but its libhipblas.so.2 is
# 7.2's and pulls HIP 7.2, rocBLAS 5 and rocSOLVER into the process: under
# the shim each sibling maps ~500 bundles (~60-80 s of CPU per card against
# ~5 s on 6.4).  So 7.2 runs one sibling per family (gfx1031, gfx1103): the
# 7.2-only part (ROCR 7.2, two HIP runtimes in one process) is covered and
# the six-sibling sweep stays on 6.4.
# The cases are a named, small set per op (CASES below) so that each run
# takes seconds: the engine is an interpreter.  Asserted: each native run
# ends normally with every selected case OK and more than 0 of them; every
# case that passes natively passes on each sibling; the sibling sees its own
# name and its dispatches come from code objects for it (RDNACOMPAT_SIM_TRACE).
# A case ggml's HIP backend does not support is neither run nor counted.
# Results are "simulated card (executed)": the numbers are what the
# compiled kernels compute on the engine (docs/SIMGPU.md, "ggml's
# test-backend-ops on the executing simulator").
. "$(dirname "$0")/lib/exec_common.bash"   # BUILD, rel, fail/skip/ok, SIM, SHIM, tmp, clean environment
TBO=/usr/libexec/x86_64-linux-gnu/ggml/test-backend-ops
[ -x "$TBO" ] || skip "ggml's test-backend-ops (llama.cpp-tests / libggml0) not installed in the ROCm $rel root"
ls /usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so >/dev/null 2>&1 || skip "libggml0-backend-hip not installed"
export HSA_ENABLE_SDMA=0

# CASES: "OP PARAMS-REGEX" — the cases of OP whose parameter string the
# regex finds.  Small shapes of the ops ggml runs for a llama model; the big
# shapes (GET_ROWS with 70000 rows, ROPE over 8192 heads, ...) are left out
# for time only.  One test-backend-ops process runs them all (-o with every
# OP, -p with the union of the regexes: a case of one op matching another
# op's regex runs too, and is compared like the others).
CASES=(
  "ADD type=f32,ne=\[10,5,4,3\],nr=\[(1,1,1,1|2,1,1,1|1,2,1,1)\],nf=1,"
  "ADD type=f16,ne=\[10,5,4,3\],nr=\[(1,1,1,1|2,1,1,1)\],nf=1,"
  "MUL type=f32,ne=\[10,5,4,3\],nr=\[(1,1,1,1|2,1,1,1|1,2,1,1)\],nf=1,"
  "SCALE ne=\[10,10,10,10\]"
  "RMS_NORM type=f32,ne=\[64,5,4,3\],v=0"
  "SOFT_MAX type=f32,ne=\[(16|15),(16|15),1,1\],mask=0"
  "ROPE type=f32,ne_a=\[(128,32|64,8|80,32),2,1\],n_dims=(128|64|32),mode=(0|2),.*v=0,inplace=0"
  "GET_ROWS type=(f32|f16|q4_0|q8_0),n=256,m=5,r=4,be1=(1|7),be2=1,v=0,vs0=0"
  "CPY type_src=(f32|f16),type_dst=(f32|f16),ne_src=\[256,4,4,4\],permute_src=\[0,0,0,0\],permute_dst=\[0,0,0,0\]"
  "MUL_MAT type_a=f32,type_b=f32,m=16,n=(1|9|16),k=256,bs=\[1,1\],nr=\[1,1\],per=\[0,1,2,3\],k_v=0"
  "MUL_MAT type_a=(f16|q4_0|q8_0),type_b=f32,m=16,n=(1|8|9),k=256,bs=\[1,1\],nr=\[1,1\],per=\[0,1,2,3\],k_v=0"
  "FLASH_ATTN_EXT hsk=64,hsv=64,nh=4,nr23=\[1,1\],kv=512,nb=(1|3),mask=1,sinks=0,max_bias=0.000000,logit_softcap=0.000000,prec=f32,type_K=(f16|q8_0),type_V=(f16|q8_0),permute=\[0,1,2,3\]"
)
OPS=$(for c in "${CASES[@]}"; do echo "${c%% *}"; done | sort -u | tr '\n' ',' | sed 's/,$//')
PAT=$(for c in "${CASES[@]}"; do echo "(${c#* })"; done | tr '\n' '|' | sed 's/|$//')

# run NAME GPU [SHIM] — the cases on the simulated GPU: output $tmp/NAME.out
# (ANSI colours removed), per-case results $tmp/NAME.res ("OK|FAIL<TAB>case"),
# trace $tmp/NAME.trace, the shim's log $tmp/NAME.log, exit status $tmp/NAME.rc.
run() {
  local name=$1 gpu=$2 pre=$SIM rc=0
  [ "${3:-}" = SHIM ] && pre=$SHIM:$SIM
  env LD_PRELOAD="$pre" RDNACOMPAT_SIM_GPUS="$gpu" RDNACOMPAT_SIM_TRACE="$tmp/$name.trace" \
    RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$tmp/$name.log" \
    timeout 600 "$TBO" test -b ROCm0 -o "$OPS" -p "$PAT" >"$tmp/$name.raw" 2>&1 || rc=$?
  sed 's/\x1b\[[0-9;]*m//g' "$tmp/$name.raw" >"$tmp/$name.out"
  echo "$rc" >"$tmp/$name.rc"
  sed -n 's/^  \([A-Z_]*(.*)\): .*\b\(OK\|FAIL\)$/\2\t\1/p' "$tmp/$name.out" | sort -u >"$tmp/$name.res"
}
passed() { grep -c '^OK' "$tmp/$1.res"; }
total() { wc -l <"$tmp/$1.res"; }
bad_rc() { [ "$(cat "$tmp/$1.rc")" = 0 ] || echo "exit $(cat "$tmp/$1.rc")"; }
targets() { grep '"kernel":"_Z' "$tmp/$1.trace" 2>/dev/null | sed -n 's/.*"target":"\([a-z0-9-]*\)".*/\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
executed() { grep -c '"kernel":"_Z.*"executed":"ok"' "$tmp/$1.trace" 2>/dev/null || echo 0; }
why() { grep -m3 -E 'dispatch failed|NMSE|FAIL|error' "$tmp/$1.out" | cut -c1-300; }

for native in gfx1030 gfx1100; do
  start=$(date +%s)
  run "$native" "$native"
  secs=$(( $(date +%s) - start ))
  [ -z "$(bad_rc "$native")" ] || fail "$native natively: test-backend-ops ended abnormally ($(bad_rc "$native")): $(why "$native")"
  n=$(passed "$native"); t=$(total "$native")
  [ "$n" -gt 0 ] || fail "$native natively: no case passed: $(tail -20 "$tmp/$native.out")"
  [ "$n" = "$t" ] || fail "$native natively: $n/$t cases passed; failing: $(grep '^FAIL' "$tmp/$native.res" | cut -f2 | head -5 | tr '\n' ' ') $(why "$native")"
  grep -q "Device 0: .*, $native (0x${native#gfx})" "$tmp/$native.out" || fail "$native: ggml does not see $native: $(grep -m1 'Device 0' "$tmp/$native.out")"
  ok "$native natively (simulated card, executed): $n/$t cases OK against the CPU backend ($(cut -f2 "$tmp/$native.res" | sed 's/(.*//' | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}' | sed 's/, $//')); $(executed "$native") ggml dispatches executed, code: $(targets "$native"); ${secs}s"
  case $native in gfx1030) sibs="gfx1031 gfx1032 gfx1035";; *) sibs="gfx1101 gfx1102 gfx1103";; esac
  [ "$rel" = 7.2 ] && case $native in gfx1030) sibs=gfx1031;; *) sibs=gfx1103;; esac
  for s in $sibs; do
    start=$(date +%s)
    run "$s" "$s" SHIM
    secs=$(( $(date +%s) - start ))
    [ -z "$(bad_rc "$s")" ] || fail "$s under the shim: test-backend-ops ended abnormally ($(bad_rc "$s")): $(why "$s")"
    # ggml, whose own device code is mapped, is told its code's name (a
    # "name" line; docs/SHIM.md "The name an object is told"); else the truth
    told=$(sed -n "s/.*info: name: lib=[^ ]*libggml-hip[^ ]* device=0 target=$s reported=\([a-z0-9]*\) .*/\1/p" \
      "$tmp/$s.log" | head -1)
    told=${told:-$s}
    grep -q "Device 0: .*, $told (0x${told#gfx})" "$tmp/$s.out" || fail "$s under the shim: ggml is not told $told: $(grep -m1 'Device 0' "$tmp/$s.out")"
    [ "$(targets "$s")" = "$s" ] || fail "$s under the shim: dispatches from code objects for '$(targets "$s")', expected only $s"
    missing=$(grep '^OK' "$tmp/$native.res" | cut -f2 | while IFS= read -r c; do grep -qxF "OK	$c" "$tmp/$s.res" || echo "$c"; done)
    [ -z "$missing" ] || fail "$s under the shim: cases OK on $native but not here: $(echo "$missing" | head -5 | tr '\n' ' ') $(why "$s")"
    chosen=$(sed -n 's/.*map: lib=[^ ]*libggml-hip.so .* chosen=\([a-z0-9]*\) .*/\1/p' "$tmp/$s.log" 2>/dev/null | sort -u | tr '\n' ' ' | sed 's/ $//')
    if [ -n "$chosen" ]; then src="retargeted from ggml's $chosen code"; else src="ggml's own $s code, no bundle remapped"; fi
    ok "$s under the shim (simulated card, executed): $(passed "$s")/$(total "$s") cases OK, every one of $native's; $(executed "$s") ggml dispatches executed from code objects for $s ($src); ${secs}s"
  done
done
