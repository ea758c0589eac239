#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 87-sim-ipc.sh BUILD — memory shared between processes and cards as the
# kernel driver shares it (simulated cards (executed)):
#   5.2 (host): progs/sim_dmabuf.c speaks KFD's DMA-buf requests directly —
#     EXPORT_DMABUF, GET_DMABUF_INFO, IMPORT_DMABUF, KFD's answers to an
#     unknown handle or gpu_id (EINVAL), a userptr object (EPERM), a fd that
#     is no dma-buf (EINVAL) or is closed (EBADF), a second import (a handle
#     of its own); the fd passed to a second process over a Unix socket,
#     memory both really share, alive after the exporter freed it.  (HIP 5.2
#     shares memory through ROCm's own IPC ioctls, which upstream KFD lacks;
#     it knows no gfx11.)
#   6.4, 7.2 (roots): progs/sim_ipc.hip, HIP IPC between two processes
#     (hipIpcGetMemHandle in A, hipIpcOpenMemHandle in B, a kernel on each
#     side, data checked both ways) on a native gfx1030 + gfx1100 pair, A on
#     one card and B on the other, and on a mapped gfx1031 + gfx1101 pair
#     under the shim, B forked before either touches HIP and, under the shim,
#     also B exec'ed afresh (torch.multiprocessing's spawn).  On 6.4 under
#     the shim only the spawned B: the shim starts HSA while HIP registers
#     its fat binaries (shim/hooks/devices.c), before main, so a child forked
#     before the first HIP call inherits a started runtime whose thunk
#     refuses a forked child (ROCR's image manager then asserts).  ROCm 6.4 takes IPC through ROCm's own ioctls unless
#     HSA_ENABLE_IPC_MODE_LEGACY=0 (ROCR flag.h: legacy by default), and
#     upstream KFD has none: the test asserts that failure, then runs with
#     the switch.
#   Both cards' queues at once: in one process with peer access, a kernel on
#     device 1 spins on a flag in device 0's memory until a kernel on device
#     0, launched after it, sets it (native and mapped pairs).
#   Without peer access enabled, device 1's kernel reading device 0's memory
#     faults, as on hardware (not in its page tables: MAP_MEMORY_TO_GPU maps
#     per device): our line, then HIP's error (7.2) or ROCR's abort (6.4).
#   7.2: a handle whose exporter has exited: hipIpcOpenMemHandle answers an
#     error (after ROCR's 10 s of connection attempts), no crash, no hang.
#   The peer topology (RDNACOMPAT_SIM_P2P, RDNACOMPAT_SIM_BAR; sysfs.c): the
#     p2p_links KFD writes, and what HIP makes of them — hipDeviceCanAccessPeer
#     1 both ways with the kernel's P2P and a large BAR, and with a kernel
#     older than p2p_links (the thunk's own links through the CPU); 0 with
#     P2P off or a small BAR.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
rel=${RDC_ROCM:-5.2}
SHIM="$BUILD/librdnacompat.so"

if [ "$rel" = 5.2 ]; then
  src="$here/sim_dmabuf.c" exe="$OUT/sim_dmabuf"
  if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$here/sim_check.h" -nt "$exe" ]; then
    cc -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -I"$here/../../../tools/simgpu/include" \
      -o "$exe" "$src" || fail "building sim_dmabuf"
  fi
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- "$exe" 2>&1) || fail "sim_dmabuf: $out"
  echo "$out" | grep '^ok:'
  echo "$out" | grep -qx done || fail "sim_dmabuf did not finish: $out"
  if command -v valgrind >/dev/null; then
    rm -f "$OUT"/vg-dmabuf.*.log
    sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- valgrind --error-exitcode=99 --leak-check=full \
      --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --num-callers=30 \
      --log-file="$OUT/vg-dmabuf.%p.log" "$exe" >/dev/null 2>&1 ||
      fail "memcheck of sim_dmabuf (both processes): $(grep -h -A12 -m1 -E 'Invalid|uninitialised|lost in' "$OUT"/vg-dmabuf.*.log)"
    echo "ok: sim_dmabuf under memcheck, exporter and importer: no errors, no leaks"
  fi
  t=/sys/devices/virtual/kfd/kfd/topology/nodes
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100,gfx1101 -- sh -c "cat $t/0/properties $t/2/properties $t/2/p2p_links/*/properties") ||
    fail "topology: $out"
  [ "$(echo "$out" | grep -c '^p2p_links_count')" = 2 ] && echo "$out" | grep -qx 'p2p_links_count 2' &&
    echo "$out" | grep -qx 'node_to 1' && echo "$out" | grep -qx 'node_to 3' && echo "$out" | grep -qx 'weight 40' ||
    fail "p2p_links of node 2 (P2P on): $out"
  out=$(sim RDNACOMPAT_SIM_P2P=off RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- sh -c "cat $t/1/properties; ls $t/1/p2p_links | wc -l") ||
    fail "topology: $out"
  echo "$out" | grep -qx 'p2p_links_count 0' && [ "$(echo "$out" | tail -1)" = 0 ] || fail "P2P off: $out"
  out=$(sim RDNACOMPAT_SIM_P2P=legacy RDNACOMPAT_SIM_BAR=small RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- cat $t/1/properties $t/1/mem_banks/0/properties)
  echo "$out" | grep -q '^p2p_links_count' && fail "legacy: no p2p_links_count key expected: $out"
  echo "$out" | grep -qx 'heap_type 2' || fail "small BAR: a private frame buffer heap expected: $out"
  echo "ok: sysfs p2p_links as KFD writes them (P2P on: every other GPU, weight 40; off: none; legacy: no key; small BAR: private heap)"
  exit 0
fi

command -v hipcc >/dev/null || skip "hipcc not installed in ${RDC_ROOT:-this root}"
[ -f "$SHIM" ] || skip "shim not built"
exe="$OUT/sim_ipc"
if [ ! -x "$exe" ] || [ "$here/sim_ipc.hip" -nt "$exe" ]; then
  hipcc --offload-arch=gfx1030 --offload-arch=gfx1100 -O1 -o "$exe.tmp" "$here/sim_ipc.hip" ||
    fail "hipcc sim_ipc"
  mv "$exe.tmp" "$exe"
fi
for t in "on large 1" "legacy large 1" "off large 0" "on small 0"; do
  set -- $t
  out=$(sim RDNACOMPAT_SIM_P2P=$1 RDNACOMPAT_SIM_BAR=$2 RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- "$exe" peer 2>&1) ||
    fail "peer query ($t): $out"
  [ "$(echo "$out" | grep -cx "peer [01]->[01]: $3")" = 2 ] || fail "P2P=$1 BAR=$2: hipDeviceCanAccessPeer should be $3 both ways: $out"
done
echo "ok: hipDeviceCanAccessPeer follows the topology: 1 with P2P (or the thunk's links on an older kernel) and a large BAR, 0 with P2P off or a small BAR"
for t in "gfx1030,gfx1100 native" "gfx1031,gfx1101 shim"; do
  set -- $t
  pre=(); [ "$2" = shim ] && pre=(LD_PRELOAD="$SHIM")
  out=$(sim RDNACOMPAT_SIM_GPUS=$1 "${pre[@]}" -- "$exe" poll 2>&1) && echo "$out" | grep -qx 'poll: ok' ||
    fail "$1 ($2): a kernel polling a peer's memory while the peer's queue runs: $out"
  echo "ok: $1 ($2): $(echo "$out" | sed -n 's/^ok: //p') (both queues ran at once)"
done
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- "$exe" nopeer 2>&1)
echo "$out" | grep -q 'GPU 1 touched 0x[0-9a-f]*, in an object mapped only to other GPUs (mask 0x1)' &&
  ! echo "$out" | grep -q '^nopeer: read' || fail "a peer's memory without peer access should fault: $out"
echo "ok: without peer access, device 1's kernel reading device 0's memory faults ($(echo "$out" | grep -o '^nopeer: .*' || echo 'the runtime aborts'))"
if [ "$rel" = 7.2 ]; then
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- "$exe" gone 2>&1) && echo "$out" | grep -q '^gone: error' ||
    fail "opening a handle whose exporter exited should fail cleanly: $out"
  echo "ok: a handle whose exporter exited: $(echo "$out" | grep -o '^gone: .*')"
fi
legacy=()
if [ "$rel" = 6.4 ]; then
  out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100 -- "$exe" 0 1 2>&1); rc=$?
  [ $rc -ne 0 ] && echo "$out" | grep -q 'hipIpcGetMemHandle.*failed: invalid argument' ||
    fail "ROCm 6.4 without HSA_ENABLE_IPC_MODE_LEGACY=0 should fail at hipIpcGetMemHandle (rc=$rc): $out"
  echo "ok: ROCm 6.4 by default asks for ROCm's own IPC ioctl (not in upstream KFD): hipIpcGetMemHandle fails"
  legacy=(HSA_ENABLE_IPC_MODE_LEGACY=0)
fi

# ipc LABEL DEV_A DEV_B HOW ENV...: both processes pass, data checked both
# ways; HOW: fork or spawn.
ipc() {
  local label=$1 a=$2 b=$3 how=$4; shift 4
  local out rc args=("$a" "$b")
  [ "$how" = spawn ] && args+=(spawn)
  out=$(SIM_TIMEOUT=100 sim "${legacy[@]}" "$@" -- "$exe" "${args[@]}" 2>&1); rc=$?
  [ $rc -eq 0 ] && echo "$out" | grep -qx 'ipc: ok' || fail "$label (rc=$rc): $out"
  [ "$(echo "$out" | grep -c '^ok: process')" = 2 ] || fail "$label: two ok lines expected: $out"
  echo "ok: $label: process A on device $a exports, process B ($how) on device $b imports; kernels on both sides (simulated cards (executed))"
}
ipc "gfx1030 + gfx1100 native" 0 1 fork RDNACOMPAT_SIM_GPUS=gfx1030,gfx1100
ipc "gfx1031 + gfx1101 under the shim" 1 0 spawn RDNACOMPAT_SIM_GPUS=gfx1031,gfx1101 LD_PRELOAD="$SHIM"
[ "$rel" = 6.4 ] || ipc "gfx1031 + gfx1101 under the shim" 0 1 fork RDNACOMPAT_SIM_GPUS=gfx1031,gfx1101 LD_PRELOAD="$SHIM"
