#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# build_texture.sh OUTDIR ARCH[,ARCH...] [NAME] — build the texture program
# (tests/integration/progs/sim_texture.hip: a bilinear 2D texture sample, a
# point sample, a surface load/store and a plain kernel, checked against CPU
# values; arrays filled and read back by HIP's copyBufferToImage /
# copyImageToBuffer blit kernels) as one offload bundle with a code object
# for each ARCH (gfx1030, gfx1100, gfx1153, gfx11-generic, ...), with the
# release's own hipcc (RDC_HIPCC, else hipcc on PATH; inside a Debian root
# of tests/roots its hipcc).  Prints the program's path:
# OUTDIR/NAME (default sim_texture-ARCH-ARCH...); rebuilt only when the
# source is newer.  Exit 1 with hipcc's messages when the build fails, 77
# when there is no hipcc.
#
# Run it on a simulated card: LD_PRELOAD=BUILD/sim/librdnacompat-sim.so
# RDNACOMPAT_SIM_GPUS=gfx1100 PROGRAM [all|plain|load|point|linear], or
# through the shim: rdnacompat run --gpu gfx1150 -- PROGRAM.
set -u
out=${1:?usage: build_texture.sh OUTDIR ARCH[,ARCH...] [NAME]}
archs=${2:?usage: build_texture.sh OUTDIR ARCH[,ARCH...] [NAME]}
name=${3:-sim_texture-${archs//,/-}}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/sim_texture.hip
hipcc=${RDC_HIPCC:-hipcc}
command -v "$hipcc" >/dev/null || { echo "build_texture.sh: no hipcc ($hipcc)" >&2; exit 77; }
mkdir -p "$out" || exit 1
exe=$out/$name
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
  flags=()
  IFS=, read -r -a list <<< "$archs"
  for a in "${list[@]}"; do flags+=(--offload-arch="$a"); done
  "$hipcc" "${flags[@]}" -O1 -o "$exe.tmp" "$src" || { echo "build_texture.sh: hipcc for $archs failed" >&2; exit 1; }
  mv "$exe.tmp" "$exe"
fi
echo "$exe"
