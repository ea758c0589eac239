#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 89-llama-split.sh BUILD — llama.cpp's layer split over two mixed simulated
# cards (executed): an RX 6700 XT (gfx1031, RDNA2) and an RX 7800 XT
# (gfx1101, RDNA3), Debian's llama-completion with the tiny random model of
# libs/llama_model.py, -ngl 99 -sm layer (layers on both cards, activations
# copied between them with hipMemcpyPeerAsync):
#   under the shim: runs; ggml kernels run on both cards, each from code
#     objects for that card (RDNACOMPAT_SIM_TRACE); the greedy tokens equal
#     the CPU backend's;
#   with HSA_OVERRIDE_GFX_VERSION=10.3.0 instead: one card runs the other
#     family's code and the process dies (the global override cannot serve
#     two families).
set -u
BUILD=${1:?usage: $0 BUILD}
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
fail() { echo "FAIL [ROCm $rel]: $*" >&2; exit 1; }
skip() { echo "SKIP [ROCm $rel]: $*" >&2; exit 77; }
ok() { echo "ok [ROCm $rel]: $*"; }
here=$(cd "$(dirname "$0")" && pwd)
SIM=$BUILD/sim/librdnacompat-sim.so
SHIM=$BUILD/librdnacompat.so
[ -f "$SIM" ] && [ -f "$SHIM" ] || skip "simulator or shim not built in $BUILD"
command -v llama-completion >/dev/null || skip "llama-completion (llama.cpp-tools) not installed"
python3 -c 'import gguf, numpy' 2>/dev/null || skip "python3-gguf not installed"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
model=$tmp/tiny.gguf
python3 "$here/libs/llama_model.py" "$model" || fail "writing the tiny model"
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\|RDNACOMPAT_[A-Z_0-9]*\)=.*/\1/p'); do unset "$v"; done
export XDG_CACHE_HOME=$tmp/cache HSA_ENABLE_SDMA=0
gen=(-m "$model" -p hello -n 8 --temp 0 --seed 1)

timeout 120 llama-completion "${gen[@]}" -ngl 0 -dev none >"$tmp/cpu.txt" 2>"$tmp/cpu.err" ||
  fail "CPU backend: $(tail -5 "$tmp/cpu.err")"
[ -s "$tmp/cpu.txt" ] || fail "CPU backend: no output"

rc=0
env RDNACOMPAT_SIM_GPUS=gfx1031,gfx1101 RDNACOMPAT_SIM_TRACE="$tmp/split.trace" LD_PRELOAD="$SIM:$SHIM" \
  timeout 300 llama-completion "${gen[@]}" -ngl 99 -sm layer >"$tmp/split.txt" 2>"$tmp/split.err" || rc=$?
[ $rc = 0 ] || fail "gfx1031 + gfx1101 under the shim, -sm layer: rc=$rc: $(grep -v 'time stamps' "$tmp/split.err" | tail -8)"
cmp -s "$tmp/cpu.txt" "$tmp/split.txt" || fail "the layer split's tokens differ from the CPU backend's: '$(cat "$tmp/split.txt")' vs '$(cat "$tmp/cpu.txt")'"
per=$(python3 - "$tmp/split.trace" <<'PY'
import collections, json, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["kernel"].startswith("_Z"):
        c[(d["node"], d["target"])] += 1
print(" ".join(f"node{n}:{t}:{k}" for (n, t), k in sorted(c.items())))
PY
) || fail "reading the trace"
echo "$per" | grep -qE '(^| )node1:gfx1031:[1-9]' && echo "$per" | grep -qE '(^| )node2:gfx1101:[1-9]' &&
  [ "$(echo "$per" | wc -w)" = 2 ] || fail "ggml kernels should run on both cards, each from its own code: $per"
ok "gfx1031 + gfx1101 under the shim, -sm layer: greedy tokens equal the CPU backend's; ggml kernels per card: $per (simulated cards (executed))"

rc=0
env RDNACOMPAT_SIM_GPUS=gfx1031,gfx1101 HSA_OVERRIDE_GFX_VERSION=10.3.0 LD_PRELOAD="$SIM" \
  timeout 300 llama-completion "${gen[@]}" -ngl 99 -sm layer >"$tmp/ovr.txt" 2>"$tmp/ovr.err" || rc=$?
[ $rc != 0 ] && grep -q 'rdnacompat-sim: GPU exception on node 2 (gfx1101' "$tmp/ovr.err" ||
  fail "with HSA_OVERRIDE_GFX_VERSION=10.3.0 the gfx1101 should fail on gfx1030 code (rc=$rc): $(grep -v 'time stamps' "$tmp/ovr.err" | tail -5)"
ok "with HSA_OVERRIDE_GFX_VERSION=10.3.0 instead: the gfx1101 runs gfx1030 code and the process dies (rc=$rc)"
