# SPDX-License-Identifier: MIT
# common.sh — sourced by the bench/shim-*.sh scripts: checks what a benchmark
# of the librocsparse program on the simulated card needs, and builds that
# program (bench/sparse_run.c) into BUILD/bench once.
#   bench_need_build B [tool]   B has the shim and the simulator (and the tool)
#   bench_need_rocsparse        librocsparse0 and its headers are installed
#   bench_sparse_run B          echo the path of BUILD/bench/sparse_run, built if stale
#   bench_stack_gemm B REL      build BUILD/bench/REL/stack_gemm in the root rocm-REL,
#                               linked with that release's stack (startup-stack.sh)
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

# tests/integration/libs/stack_gemm.cpp linked with the libraries `import
# torch` loads, as far as Debian ships them for the release (never called):
#   7.2: MIOpen, hipBLASLt, hipBLAS, rocSPARSE, rocFFT, rocRAND, rocSOLVER, RCCL
#   6.4: MIOpen, hipBLAS, rocSPARSE (sid has no rocFFT, rocRAND, rocSOLVER,
#        hipBLASLt or RCCL built against HIP 6.4)
bench_stack_gemm() {
  local b=$1 rel=$2 src libs
  src=$(cd "$bench_here/.." && pwd)
  case $rel in
    7.2) libs=(-Wl,--no-as-needed -l:libMIOpen.so.1 -l:libhipblaslt.so.1 -l:libhipblas.so.3 -l:librocsparse.so.1
               -l:librocfft.so.0 -l:librocrand.so.1 -l:librocsolver.so.0 -l:librccl.so.1 -lrocblas);;
    6.4) libs=(-Wl,--no-as-needed -l:libMIOpen.so.1 -l:libhipblas.so.2 -l:librocsparse.so.1 -lrocblas);;
    *) echo "bench: RELEASE is 7.2 or 6.4, not $rel" >&2; return 2;;
  esac
  mkdir -p "$b/bench/$rel"
  "$src/tests/roots/run" "rocm-$rel" -- hipcc -O1 -I"$src/tests/integration/libs" -o "$b/bench/$rel/stack_gemm" \
    "$src/tests/integration/libs/stack_gemm.cpp" "${libs[@]}" 2>"$b/bench/$rel/stack_gemm.build.log" ||
    { tail -5 "$b/bench/$rel/stack_gemm.build.log" >&2; return 1; }
}
