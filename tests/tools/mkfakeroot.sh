#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mkfakeroot.sh DIR SCENARIO — build a fake machine tree for `rdnacompat
# doctor --root DIR` / `report --root DIR`: sysfs PCI devices and KFD topology,
# /proc/sys/kernel/osrelease, /dev nodes (plain files), /etc/{passwd,group,
# os-release}, /opt/rocm, dpkg status, a PyTorch version.py and a MIOpen cache
# under home/tester.
#   none     no AMD GPU (an Intel iGPU only), no ROCm
#   rx6700   CPU node 0 + RX 6700 XT (1002:73df, gfx1031) node 1; ROCm 6.2.4,
#            PyTorch built for HIP 6.1 (mismatch), MIOpen cache with an empty
#            .ukdb, a corrupt .kdb and a stale version directory; tester is
#            not in group render
#   mixed    CPU node 0, Radeon 780M iGPU (1002:15bf, gfx1103) node 1,
#            RX 7900 XTX (1002:744c, gfx1100) node 2; ROCm 6.3.1 from dpkg,
#            matching PyTorch, clean MIOpen cache; tester in render and video
#   strix    CPU node 0, Radeon 8060S (1002:1586, gfx1151) node 1; kernel 6.17.9,
#            amdgpu cwsr_enable=1, MES firmware 0x83 (sysfs fw_version); TheRock
#            layouts for another family (/opt/rocm/core-10.0 with gfx1100 .kpack
#            archives, _rocm_sdk_libraries_gfx110X_all in ~/.venv); a stale
#            HSA_OVERRIDE_GFX_VERSION in ~/.bashrc and /etc/profile.d/rocm.sh
set -euo pipefail
dir=$1; scen=$2
rm -rf "$dir"; mkdir -p "$dir"
cd "$dir"
mkdir -p sys/bus/pci/devices proc/sys/kernel dev/dri etc opt var/lib/dpkg home/tester sys/module

pci() { # addr vendor device class revision
  mkdir -p "sys/bus/pci/devices/$1"
  echo "$2" > "sys/bus/pci/devices/$1/vendor"; echo "$3" > "sys/bus/pci/devices/$1/device"
  echo "$4" > "sys/bus/pci/devices/$1/class"; echo "$5" > "sys/bus/pci/devices/$1/revision"
}
node() { # id gfx_target_version simd vendor device location render_minor
  local d=sys/class/kfd/kfd/topology/nodes/$1; mkdir -p "$d"
  printf 'cpu_cores_count %s\nsimd_count %s\ngfx_target_version %s\nvendor_id %s\ndevice_id %s\nlocation_id %s\ndomain 0\ndrm_render_minor %s\n' \
    "$([ "$3" = 0 ] && echo 16 || echo 0)" "$3" "$2" "$4" "$5" "$6" "$7" > "$d/properties"
}
echo 6.1.0-18-amd64 > proc/sys/kernel/osrelease
printf 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n' > etc/os-release
printf 'root:x:0:0:root:/root:/bin/bash\ntester:x:1000:1000:Tester:/home/tester:/bin/bash\n' > etc/passwd
pci 0000:00:00.0 0x8086 0x4c43 0x060000 0x01      # host bridge
case $scen in
none)
  pci 0000:00:02.0 0x8086 0x4c8a 0x030000 0x04    # Intel iGPU
  printf 'root:x:0:\nvideo:x:44:tester\nrender:x:105:\ntester:x:1000:\n' > etc/group
  ;;
rx6700)
  mkdir -p sys/module/amdgpu
  pci 0000:03:00.0 0x1002 0x73df 0x030000 0xc1
  pci 0000:03:00.1 0x1002 0xab28 0x040300 0x00    # its HDMI audio: not a GPU
  node 0 0 0 0 0 0 0
  node 1 100301 80 4098 29663 768 128             # location 0x300 = 03:00.0
  : > dev/kfd; : > dev/dri/renderD128; : > dev/dri/card0
  printf 'root:x:0:\nvideo:x:44:tester\nrender:x:105:\ntester:x:1000:\n' > etc/group
  mkdir -p opt/rocm/.info opt/rocm/include/miopen
  echo 6.2.4-120 > opt/rocm/.info/version
  printf '#define MIOPEN_VERSION_MAJOR 3\n#define MIOPEN_VERSION_MINOR 2\n#define MIOPEN_VERSION_PATCH 0\n' > opt/rocm/include/miopen/version.h
  sp=home/tester/.local/lib/python3.11/site-packages/torch; mkdir -p "$sp"
  printf "__version__ = '2.4.1+rocm6.1'\ndebug = False\ncuda: Optional[str] = None\nhip: Optional[str] = '6.1.40091-a8dbc0c19'\n" > "$sp/version.py"
  m=home/tester/.cache/miopen; mkdir -p "$m/3.2.0.ae7ff5ab3" "$m/2.19.0.b87fc37bf"
  : > "$m/3.2.0.ae7ff5ab3/gfx1031_40.ukdb"
  printf 'this is not sqlite' > "$m/3.2.0.ae7ff5ab3/gfx1030_40.kdb"
  echo 'x' > "$m/2.19.0.b87fc37bf/gfx1030_40.HIP.2_19_0.udb"
  ;;
mixed)
  mkdir -p sys/module/amdgpu
  pci 0000:03:00.0 0x1002 0x744c 0x030000 0xc8
  pci 0000:c5:00.0 0x1002 0x15bf 0x030000 0xc4
  node 0 0 0 0 0 0 0
  node 1 110003 12 4098 5567 50432 129            # 0xc500 = c5:00.0
  node 2 110000 192 4098 29772 768 128
  : > dev/kfd; : > dev/dri/renderD128; : > dev/dri/renderD129
  printf 'root:x:0:\nvideo:x:44:tester\nrender:x:105:tester\ntester:x:1000:\n' > etc/group
  cat > var/lib/dpkg/status <<'DPKG'
Package: libc6
Status: install ok installed
Version: 2.36-9

Package: hip-runtime-amd
Status: install ok installed
Version: 6.3.1.60301-48~22.04

Package: miopen-hip
Status: install ok installed
Version: 3.3.0.60301-48~22.04
DPKG
  sp=usr/local/lib/python3.11/dist-packages/torch; mkdir -p "$sp"
  printf "__version__ = '2.6.0+rocm6.3'\nhip = '6.3.42131-fa1d09cbd'\n" > "$sp/version.py"
  mkdir -p home/tester/.cache/miopen/3.3.0.abcdef
  ;;
strix)
  mkdir -p sys/module/amdgpu/parameters
  echo 1 > sys/module/amdgpu/parameters/cwsr_enable
  echo 6.17.9-arch1-1 > proc/sys/kernel/osrelease
  pci 0000:c5:00.0 0x1002 0x1586 0x030000 0xc1
  mkdir -p sys/bus/pci/devices/0000:c5:00.0/fw_version
  echo 0x00000083 > sys/bus/pci/devices/0000:c5:00.0/fw_version/mes_fw_version
  node 0 0 0 0 0 0 0
  node 1 110501 80 4098 5510 50432 128            # 0xc500 = c5:00.0
  : > dev/kfd; : > dev/dri/renderD128
  printf 'root:x:0:\nvideo:x:44:tester\nrender:x:105:tester\ntester:x:1000:\n' > etc/group
  mkdir -p opt/rocm/core-10.0/.kpack opt/rocm/core-10.0/.info
  : > opt/rocm/core-10.0/.kpack/blas_lib_gfx1100.kpack; : > opt/rocm/core-10.0/.kpack/fft_lib_gfx1101.kpack
  mkdir -p home/tester/.venv/lib/python3.12/site-packages/_rocm_sdk_libraries_gfx110X_all
  mkdir -p home/tester/.venv/lib/python3.12/site-packages/_rocm_sdk_core
  printf '# ~/.bashrc\nalias ll="ls -l"\n# export HSA_OVERRIDE_GFX_VERSION=9.0.0 (commented out)\nexport HSA_OVERRIDE_GFX_VERSION=11.0.0\n' > home/tester/.bashrc
  mkdir -p etc/profile.d
  printf 'HSA_OVERRIDE_GFX_VERSION_1="11.0.0"\n' > etc/profile.d/rocm.sh
  ;;
*) echo "mkfakeroot: unknown scenario $scen" >&2; exit 2;;
esac
# device files: owned by root:render, 0660 (the udev rule ROCm documents)
for f in dev/kfd dev/dri/renderD*; do
  [ -e "$f" ] || continue
  chmod 0660 "$f"; chgrp 105 "$f" 2>/dev/null || true
done
