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
