#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 20-sim-kfd.sh BUILD — the simulated /dev/kfd through the kernel's uapi
# (progs/sim_kfd.c, no ROCm library): version, an unknown request (EINVAL,
# and logged), ACQUIRE_VM, VRAM through the render node with
# AVAILABLE_MEMORY and ENOMEM, WAIT_EVENTS timing out after roughly its
# timeout and completed by SET_EVENT, event ages (KFD 1.14), XNACK, fork (a child's own KFD
# process); the sysfs topology; then the same under valgrind memcheck.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"
[ -z "${RDC_ROOT:-}" ] || skip "no C compiler with libdrm headers in the Debian root ${RDC_ROOT:-} (the uapi test is release-independent; it runs on the host)"
src="$here/sim_kfd.c"
exe="$OUT/sim_kfd"
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$here/sim_check.h" -nt "$exe" ]; then
  cc -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -I"$here/../../../tools/simgpu/include" \
    -o "$exe" "$src" || fail "building sim_kfd"
fi
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030 -- "$exe" 2>&1) || fail "sim_kfd: $out"
echo "$out" | grep '^ok:'
echo "$out" | grep -q '^done' || fail "sim_kfd did not finish: $out"
echo "$out" | grep -q 'AMDKFD_IOC_? (nr 0x7e) is not emulated: EINVAL' || fail "the unknown request was not logged: $out"
echo "ok: the unknown request is logged"

# The topology the thunk reads (sysfs.c), as a program sees it.
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1101 -- sh -c '
  cat /sys/devices/virtual/kfd/kfd/topology/nodes/2/properties /sys/module/amdgpu/initstate
  ls /sys/class/kfd/kfd/topology/nodes; grep amdgpu /proc/modules') || fail "topology: $out"
echo "$out" | grep -qx 'gfx_target_version 110001' || fail "node 2 gfx_target_version: $out"
echo "$out" | grep -qx 'drm_render_minor 129' || fail "node 2 render minor: $out"
echo "$out" | grep -qx 'live' || fail "/sys/module/amdgpu/initstate: $out"
[ "$(echo "$out" | grep -cxE '[0-9]')" = 3 ] || fail "three nodes under /sys/class/kfd: $out"
echo "$out" | grep -q '^amdgpu .* Live' || fail "/proc/modules: $out"
echo "ok: sysfs topology, /sys/module/amdgpu and /proc/modules"
# The cards' PCI functions (pci.c), found as RCCL finds them: realpath of
# /sys/class/pci_bus/BUS/../../BDF, BDF from KFD's location_id (bus << 8).
rp="$OUT/sim_realpath"
if [ ! -x "$rp" ] || [ "$here/sim_realpath.c" -nt "$rp" ]; then
  cc -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -Werror -o "$rp" "$here/sim_realpath.c" || fail "building sim_realpath"
fi
out=$(sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1101 -- sh -c "
  grep -h location_id /sys/class/kfd/kfd/topology/nodes/1/properties /sys/class/kfd/kfd/topology/nodes/2/properties
  $rp /sys/class/pci_bus/0000:05/../../0000:05:00.0 /sys/bus/pci/devices/0000:08:00.0
  d=/sys/bus/pci/devices/0000:08:00.0
  cat \$d/class \$d/vendor \$d/device \$d/numa_node \$d/max_link_speed \$d/max_link_width \$d/../max_link_speed
  cat /sys/bus/pci/devices/0000:02:09.0/device") || fail "PCI functions: $out"
want="location_id 1280
location_id 2048
/sys/class/pci_bus/0000:05/../../0000:05:00.0 -> /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0/0000:04:00.0/0000:05:00.0
/sys/bus/pci/devices/0000:08:00.0 -> /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:09.0/0000:06:00.0/0000:07:00.0/0000:08:00.0
0x030000
0x1002
0x747e
-1
16.0 GT/s PCIe
16
16.0 GT/s PCIe
0x8747"
[ "$out" = "$want" ] || fail "PCI functions, one switch: got
$out
want
$want"
out=$(sim RDNACOMPAT_SIM_PCI=root RDNACOMPAT_SIM_GPUS=gfx1030,gfx1101 -- sh -c "
  grep -h location_id /sys/class/kfd/kfd/topology/nodes/2/properties
  $rp /sys/class/pci_bus/0000:06/../../0000:06:00.0 /sys/class/pci_bus/0000:00/../../0000:00:01.0") || fail "root ports: $out"
want="location_id 1536
/sys/class/pci_bus/0000:06/../../0000:06:00.0 -> /sys/devices/pci0000:00/0000:00:01.1/0000:04:00.0/0000:05:00.0/0000:06:00.0"
[ "$(echo "$out" | head -2)" = "$want" ] || fail "PCI functions, root ports: got
$out"
echo "ok: the cards' PCI functions, behind one switch (default) and on root ports of their own (RDNACOMPAT_SIM_PCI=root)"
# One tree per configuration, shared: a second process adds nothing.
trees=${XDG_RUNTIME_DIR:-${TMPDIR:-/tmp}}/rdnacompat-sim-$(id -u)
n1=$(ls -A "$trees" | wc -l)
sim RDNACOMPAT_SIM_GPUS=gfx1030,gfx1101 -- cat /sys/module/amdgpu/initstate >/dev/null || fail "second reader"
[ "$(ls -A "$trees" | wc -l)" = "$n1" ] || fail "a second process made another tree: $(ls -A "$trees")"
ls -A "$trees" | grep -q '^\.new\.' && fail "a half-made tree was left in $trees"
echo "ok: one topology tree per configuration, shared by processes"

if command -v valgrind >/dev/null; then
  log="$OUT/vg-kfd.log"
  sim RDNACOMPAT_SIM_GPUS=gfx1030 -- valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
    --errors-for-leak-kinds=definite,indirect,possible --trace-children=no --num-callers=30 \
    --log-file="$log" "$exe" >/dev/null 2>"$OUT/vg-kfd.err" ||
    fail "memcheck of sim_kfd, see $log: $(grep -A15 -m1 -E 'Invalid|uninitialised|lost in' "$log")"
  echo "ok: sim_kfd under memcheck: no errors, no leaks"
fi
