#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 71-libs-llama.sh BUILD — llama.cpp (Debian's llama-bench, ggml 0.27's HIP
# backend: libggml-hip.so, a 1.27 GB fat binary with gfx1010/1030/1100/1101/
# 1102 and CDNA code) on simulated unsupported cards, inside the ROCm 6.4 and
# 7.2 roots, with a tiny random llama model the test writes
# (libs/llama_model.py, python3-gguf).  Prompt processing (pp16) and
# generation (tg4), flash attention off and on, each shown three ways:
#   gfx1031  without the shim: the user's real failure ("ROCm error: invalid
#            device function"), quoted; with HSA_OVERRIDE_GFX_VERSION=10.3.0:
#            runs, every ggml kernel from the gfx1030 code object and ggml
#            told gfx1030; with the shim: runs, ggml, whose own device code
#            is mapped from gfx1030, is told gfx1030 (the name of the code it
#            runs, with a "name" line; HIP keeps the truth), every dispatched
#            kernel comes from a code object the
#            shim retargeted to gfx1031 (RDNACOMPAT_SIM_TRACE), and every ggml
#            bundle has a "map:" decision line.
#   gfx1103  without the shim the same failure; with it, runs (gfx1102 code).
#   gfx1151  an opt-in edge: with the shim alone it still fails (no usable
#            entry, the log says what to set); with RDNACOMPAT_OPT_IN=1 runs.
# The kernel rules (tables/kernels.tsv) name ggml's flash-attention tile
# kernels for the occupancy query (ROCm >= 7.1); the test says whether the
# simulated card reproduces ggml's GGML_ASSERT(max_blocks_per_sm > 0) under
# the override by itself, and checks the shim answers the query only then
# (Debian's ggml links HIP 6.4 even in the 7.2 root: it does not reproduce).
# Simulated card (executed): the engine runs ggml's kernels; llama-bench
# prints timings, which are not compared (ggml's numerics on the simulated
# cards: 80-exec-ggml).
set -u
BUILD=${1:?usage: $0 BUILD}
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
fail() { echo "FAIL [ROCm $rel]: $*" >&2; exit 1; }
skip() { echo "SKIP [ROCm $rel]: $*" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
SIM=$BUILD/sim/librdnacompat-sim.so
SHIM=$BUILD/librdnacompat.so
[ -f "$SIM" ] && [ -f "$SHIM" ] || skip "simulator or shim not built in $BUILD"
command -v llama-bench >/dev/null || skip "llama-bench (llama.cpp-tools) not installed"
ggml=$(ls /usr/lib/x86_64-linux-gnu/ggml/backends0/libggml-hip.so 2>/dev/null) || skip "libggml0-backend-hip not installed"
python3 -c 'import gguf, numpy' 2>/dev/null || skip "python3-gguf not installed"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
model=$tmp/tiny.gguf
python3 "$here/libs/llama_model.py" "$model" || fail "writing the tiny model"
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\|RDNACOMPAT_[A-Z_0-9]*\)=.*/\1/p'); do unset "$v"; done
export XDG_CACHE_HOME=$tmp/cache HSA_ENABLE_SDMA=0

# bench NAME GPU ENV... — llama-bench on the simulated GPU; output in $tmp/NAME.out,
# trace $tmp/NAME.trace, shim log $tmp/NAME.log; exit status in $tmp/NAME.rc.
bench() {
  local name=$1 gpu=$2; shift 2
  local pre=$SIM rc=0
  case " $* " in *" SHIM "*) pre=$SIM:$SHIM ;; esac
  local envs=(); for e in "$@"; do [ "$e" = SHIM ] || envs+=("$e"); done
  (env "${envs[@]}" LD_PRELOAD="$pre" RDNACOMPAT_SIM_GPUS="$gpu" RDNACOMPAT_SIM_TRACE="$tmp/$name.trace" \
    RDNACOMPAT_LOG=info RDNACOMPAT_LOG_FILE="$tmp/$name.log" \
    timeout 300 llama-bench -m "$model" -p 16 -n 4 -r 1 -fa 0,1 >"$tmp/$name.out" 2>&1) 2>/dev/null || rc=$?
  echo $rc >"$tmp/$name.rc"
}
rows() { grep -cE '^\| llama .*\| +[01] \| +(pp16|tg4) \| +[0-9.]+ ± ' "$tmp/$1.out"; }
# targets NAME: the distinct code-object targets of the traced ggml dispatches
# (ROCclr's own blit kernels, __amd_rocclr_*, are the node's own code)
targets() { grep '"kernel":"_Z' "$tmp/$1.trace" 2>/dev/null | sed -n 's/.*"target":"\([a-z0-9-]*\)".*/\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
ndisp() { grep -c '"kernel":"_Z' "$tmp/$1.trace" 2>/dev/null || echo 0; }
quote() { grep -m1 -E "$2" "$tmp/$1.out" | sed 's/^ *//'; }
ok() { echo "ok [ROCm $rel]: $*"; }

expect_failure() { # NAME CARD
  [ "$(cat "$tmp/$1.rc")" != 0 ] || fail "$2 without the shim ran (expected the real failure): $(tail -5 "$tmp/$1.out")"
  grep -q 'ROCm error: invalid device function' "$tmp/$1.out" || fail "$2 without the shim: not the known failure: $(tail -20 "$tmp/$1.out")"
  ok "$2 without the shim fails as a user sees it: \"$(quote "$1" 'ROCm error')\" ($(quote "$1" 'ggml-cuda.cu:[0-9]+: ROCm error' | sed 's|.*/src/|src/|'))"
}
expect_shim_run() { # NAME CARD CHOSEN
  local n=$1 card=$2
  [ "$(cat "$tmp/$n.rc")" = 0 ] || fail "$card with the shim exited $(cat "$tmp/$n.rc"): $(grep -v 'time stamps' "$tmp/$n.out" | tail -20)"
  [ "$(rows "$n")" = 4 ] || fail "$card with the shim: expected pp16/tg4 rows with fa 0 and 1: $(cat "$tmp/$n.out")"
  local told; told=$(sed -n "s/.*info: name: lib=[^ ]*libggml-hip[^ ]* device=0 target=$card reported=\($3\) .*/\1/p" "$tmp/$n.log" | head -1)
  # an opt-in edge (gfx1151): the entry ids do not tell the code (its kernels
  # are checked first), so ggml keeps the true name
  if [ -z "$told" ]; then
    [ "$card" = gfx1151 ] || fail "$card with the shim: ggml not told its code's name: $(grep -m3 'name: ' "$tmp/$n.log")"
    told=$card
  fi
  grep -q "Device 0: .*, $told (0x${told#gfx})" "$tmp/$n.out" || fail "$card with the shim: ggml does not see $told: $(grep 'Device 0' "$tmp/$n.out")"
  [ "$(targets "$n")" = "$card" ] || fail "$card with the shim: dispatches from code objects for '$(targets "$n")', expected only retargeted $card"
  local d; d=$(ndisp "$n"); [ "$d" -gt 100 ] || fail "$card with the shim: only $d ggml dispatches traced"
  local maps; maps=$(grep -c "map: lib=$ggml .*device=0 target=$card .*verdict=mapped .*chosen=$3" "$tmp/$n.log")
  # HIP 6.4 decides a fat binary when it loads its code (docs/SHIM.md): the
  # bundles of the kernels llama-bench runs, not all of ggml's
  [ "$maps" -ge 5 ] || fail "$card with the shim: $maps mapped ggml bundles logged: $(grep -m3 "lib=$ggml" "$tmp/$n.log")"
  local other; other=$(grep "map: lib=$ggml " "$tmp/$n.log" | grep -vc 'verdict=mapped')
  [ "$other" = 0 ] || fail "$card with the shim: ggml bundles not mapped: $(grep "map: lib=$ggml " "$tmp/$n.log" | grep -v 'verdict=mapped' | head -3)"
  ok "$card with the shim: pp16/tg4, fa 0 and 1 complete; ggml told $told (its code's name, logged); $d ggml dispatches, all from code objects retargeted to $card; $maps ggml bundles mapped (chosen: $(grep "map: lib=$ggml " "$tmp/$n.log" | sed -n "s/.* chosen=\([a-z0-9]*\) .*/\1/p" | sort -u | tr "\n" " "| sed "s/ $//")), each logged"
}

# --- gfx1031: the three ways ---------------------------------------------------
bench none-1031 gfx1031
expect_failure none-1031 gfx1031
bench ovr-1031 gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0
[ "$(cat "$tmp/ovr-1031.rc")" = 0 ] && [ "$(rows ovr-1031)" = 4 ] || fail "gfx1031 with the override: $(tail -20 "$tmp/ovr-1031.out")"
grep -q 'Device 0: .*, gfx1030 (0x1030)' "$tmp/ovr-1031.out" || fail "the override: ggml was expected to be told gfx1030"
[ "$(targets ovr-1031)" = gfx1030 ] || fail "the override: dispatches from '$(targets ovr-1031)'"
ok "gfx1031 with HSA_OVERRIDE_GFX_VERSION=10.3.0 runs; ggml is told gfx1030 (the lie); $(ndisp ovr-1031) dispatches from gfx1030 code"
if grep -q 'max_blocks_per_sm > 0' "$tmp/ovr-1031.out"; then
  echo "note [ROCm $rel]: the override run hit GGML_ASSERT(max_blocks_per_sm > 0) on the simulated card"
else
  echo "note [ROCm $rel]: the simulated card does not reproduce GGML_ASSERT(max_blocks_per_sm > 0) under the override (flash attention ran)"
fi
bench shim-1031 gfx1031 SHIM
expect_shim_run shim-1031 gfx1031 gfx1030
fa=$(grep -c '"kernel":"_ZL15flash_attn_tile' "$tmp/shim-1031.trace")
[ "$fa" -gt 0 ] || fail "gfx1031 with the shim: no flash_attn_tile dispatch traced (fa 1)"
armed=$(grep -c "rule: kernel=_ZL15flash_attn_tile.* lib=$ggml device=gfx1031 actions=occupancy" "$tmp/shim-1031.log")
# The rows are for runtime >= 7.1: when the shim knows from libamdhip64's file
# name that ggml's HIP is older, it arms none of them (and parses nothing).
rt=$(grep -m1 -o 'rule-runtime: runtime=[0-9]*' "$tmp/shim-1031.log" | grep -o '[0-9]*$' || true)
if [ -n "$rt" ] && [ "$rt" -lt 70100000 ]; then
  [ "$armed" -eq 0 ] || fail "gfx1031: >=7.1 occupancy rules armed under HIP runtime $rt"
else
  [ "$armed" -gt 0 ] || fail "gfx1031: no occupancy rule noted for ggml's flash-attention tile kernels: $(grep -m3 'rule' "$tmp/shim-1031.log")"
fi
# The rule rewrites the runtime's occupancy answer only when it is 0 (and the
# runtime is >= 7.1): ggml's HIP backend links HIP 6 (libamdhip64.so.6) in
# both roots, and on the simulated card that answer is >= 1, so the shim must
# pass it through unchanged.
if grep -q 'max_blocks_per_sm > 0' "$tmp/ovr-1031.out"; then
  grep -q 'rule-occupancy' "$tmp/shim-1031.log" || fail "the override hit the 0 answer but the shim did not answer it"
  ok "gfx1031: the shim answered ggml's occupancy query: $(grep -m1 'rule-occupancy' "$tmp/shim-1031.log")"
else
  ! grep -q 'rule-occupancy' "$tmp/shim-1031.log" || fail "the shim rewrote an occupancy answer the runtime did not get wrong: $(grep -m1 'rule-occupancy' "$tmp/shim-1031.log")"
  ok "gfx1031: $fa flash_attn_tile dispatches; occupancy rules noted for $armed tile kernels, and left the runtime's (nonzero) answer alone (ggml links $(ldd "$ggml" | grep -o 'libamdhip64.so.[0-9]*' | sort -u | head -1))"
fi

# --- gfx1103 ----------------------------------------------------------------------
bench none-1103 gfx1103
expect_failure none-1103 gfx1103
bench shim-1103 gfx1103 SHIM
expect_shim_run shim-1103 gfx1103 "gfx110[0-2]"

# --- gfx1151: an opt-in edge ------------------------------------------------------
bench shim-1151 gfx1151 SHIM
[ "$(cat "$tmp/shim-1151.rc")" != 0 ] || fail "gfx1151 ran with the shim without RDNACOMPAT_OPT_IN"
grep -q 'ROCm error: invalid device function' "$tmp/shim-1151.out" || fail "gfx1151 without opt-in: $(tail -10 "$tmp/shim-1151.out")"
grep -q 'RDNACOMPAT_OPT_IN' "$tmp/shim-1151.out" "$tmp/shim-1151.log" ||
  fail "gfx1151 without opt-in: the shim does not say what to set: $(grep -v 'time stamps' "$tmp/shim-1151.log" | head -10)"
ok "gfx1151 with the shim but without opt-in fails as before and says: $(grep -h -m1 'RDNACOMPAT_OPT_IN' "$tmp/shim-1151.out" "$tmp/shim-1151.log" | head -1 | sed 's/.*reason=//; s/^ *//' | cut -c1-240)"
bench shim-1151o gfx1151 SHIM RDNACOMPAT_OPT_IN=1
expect_shim_run shim-1151o gfx1151 "gfx110[0-2]"
