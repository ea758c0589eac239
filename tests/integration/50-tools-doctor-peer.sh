#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 50-tools-doctor-peer.sh BUILD — `rdnacompat doctor`'s "peer" check
# (doctor_peer.c) on a fake two-GPU machine (tests/tools/mkfakeroot.sh
# mixed: a 780M iGPU and an RX 7900 XTX) whose KFD topology says, in turn:
# each GPU reaches the other (p2p_links) — ok; p2p_links_count 0 (a kernel
# without HSA_AMD_P2P) — warn with the fix; no p2p_links_count (an older
# kernel) and one card's VRAM not all CPU-visible — warn; the same with both
# public — ok.  The facts line names pcie_p2p and the IOMMU domain type.
# A one-GPU machine has no peer check.
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/doctor-peer
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T"; mkdir -p "$T"
for s in mixed rx6700; do bash "$SRC/tests/tools/mkfakeroot.sh" "$T/$s" "$s" || fail "mkfakeroot $s"; done
M=$T/mixed
N=$M/sys/class/kfd/kfd/topology/nodes
doc() { env -u HSA_OVERRIDE_GFX_VERSION -u HIP_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES -u LD_PRELOAD HOME=/home/tester \
  "$R" doctor --root "$1" --json > "$T/out.json" || true
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('\n'.join(c['status']+' '+c['message']+' || '+(c.get('fix') or '') for c in d['checks'] if c['id']=='peer'))" "$T/out.json"; }
heap() { mkdir -p "$N/$1/mem_banks/0"; echo "heap_type $2" > "$N/$1/mem_banks/0/properties"; }
link() { mkdir -p "$N/$1/p2p_links/$3"; printf 'type 2\nnode_from %s\nnode_to %s\nweight 40\n' "$1" "$2" > "$N/$1/p2p_links/$3/properties"; }
count() { sed -i '/^p2p_links_count/d' "$N/$1/properties"; [ "$2" = - ] || echo "p2p_links_count $2" >> "$N/$1/properties"; }

mkdir -p "$M/sys/module/amdgpu/parameters" "$M/sys/bus/pci/devices/0000:03:00.0/iommu_group"
echo 1 > "$M/sys/module/amdgpu/parameters/pcie_p2p"
echo identity > "$M/sys/bus/pci/devices/0000:03:00.0/iommu_group/type"
heap 1 1; heap 2 1
count 0 0; count 1 1; count 2 1; link 1 2 0; link 2 1 0
out=$(doc "$M")
echo "$out" | grep -q '^ok 2 GPUs, each reaches every other' || fail "linked: $out"
echo "$out" | grep -q 'amdgpu pcie_p2p=1' && echo "$out" | grep -q '0000:03:00.0 IOMMU domain identity' || fail "facts: $out"
echo "ok: two GPUs with p2p_links both ways: ok, with pcie_p2p and the IOMMU domain named"

rm -rf "$N/1/p2p_links" "$N/2/p2p_links"; count 1 0; count 2 0
out=$(doc "$M")
echo "$out" | grep -q '^warn 2 GPUs, 0 of 2 peer links' && echo "$out" | grep -q 'NCCL_P2P_DISABLE=1' ||
  fail "no links: $out"
echo "ok: p2p_links_count 0 (kernel without HSA_AMD_P2P): warn, with the fix"

count 0 -; count 1 -; count 2 -; heap 2 2
out=$(doc "$M")
echo "$out" | grep -q '^warn 2 GPUs, kernel without p2p_links: ROCm links them through the CPU only to cards whose VRAM' ||
  fail "legacy, small BAR: $out"
heap 2 1
out=$(doc "$M")
echo "$out" | grep -q '^ok 2 GPUs, kernel without p2p_links' || fail "legacy, large BAR: $out"
echo "ok: a kernel older than p2p_links: warn when a card's VRAM is not all CPU-visible, ok when all are"

[ -z "$(doc "$T/rx6700")" ] || fail "one GPU: no peer check expected: $(doc "$T/rx6700")"
echo "ok: one GPU: no peer check"

# Under the simulator (its sysfs, read as the doctor reads the real one): the
# check agrees with what HIP sees there (87-sim-ipc.sh).
SIMLIB=$B/sim/librdnacompat-sim.so
if [ -f "$SIMLIB" ]; then
  for t in "on ok" "off warn"; do
    set -- $t
    out=$(env -u HSA_OVERRIDE_GFX_VERSION RDNACOMPAT_SIM_P2P=$1 RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 LD_PRELOAD="$SIMLIB" \
      timeout 60 "$R" doctor --json 2>/dev/null |
      python3 -c "import json,sys; print(' '.join(c['status'] for c in json.load(sys.stdin)['checks'] if c['id']=='peer'))")
    [ "$out" = "$2" ] || fail "simulated cards, RDNACOMPAT_SIM_P2P=$1: peer check '$out', want $2"
  done
  echo "ok: simulated cards: peer ok with P2P on, warn with it off"
fi
