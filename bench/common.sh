# SPDX-License-Identifier: MIT
# common.sh — sourced by the bench/shim-*.sh scripts: checks what a benchmark
# of the librocsparse program on the simulated card needs, and builds that
# program (bench/sparse_run.c) into BUILD/bench once.
#   bench_need_build B [tool]   B has the shim and the simulator (and the tool)
#   bench_need_rocsparse        librocsparse0 and its headers are installed
#   bench_sparse_run B          echo the path of BUILD/bench/sparse_run, built if stale
bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench_rocsparse=/usr/lib/x86_64-linux-gnu/librocsparse.so.0

bench_need_build() {
  local b=$1
  [ -f "$b/librdnacompat.so" ] && [ -f "$b/sim/librdnacompat-sim.so" ] ||
    { echo "no shim or simulator in $b (make BUILD=$b)" >&2; exit 2; }
  [ "${2:-}" != tool ] || [ -x "$b/bin/rdnacompat" ] ||
    { echo "no tool in $b (make BUILD=$b)" >&2; exit 2; }
}

bench_need_rocsparse() {
  [ -e "$bench_rocsparse" ] && [ -e /usr/include/rocsparse/rocsparse.h ] ||
    { echo "needs librocsparse0 and librocsparse-dev" >&2; exit 2; }
}

bench_sparse_run() {
  local prog=$1/bench/sparse_run
  mkdir -p "$1/bench"
  if [ ! -x "$prog" ] || [ "$bench_here/sparse_run.c" -nt "$prog" ]; then
    cc -O2 -Wall -Wextra -Werror -o "$prog" "$bench_here/sparse_run.c" -lrocsparse -lamdhip64 >&2
  fi
  echo "$prog"
}
