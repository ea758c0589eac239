#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the Go toolchain (golang-go) is on the host only
# 55-tools-run-view.sh — `rdnacompat run --view-arch-files` for programs
# that decide in code the preload cannot reach whether rocBLAS has files
# for the card.  A stand-in for Ollama written in Go (ollama/standin.go:
# it lists rocblas/library/TensileLibrary_lazy_gfx*.dat with filepath.Glob,
# as ollama/ollama@fb307609 discover/amd.go:114-130 and :445-476 do, and
# reads the target from its runner's "Device N: ..., gfxNNNN" line) starts
# a runner (ollama/runner.cpp, HIP), on a simulated gfx1031, with a rocBLAS
# directory holding gfx1030's and gfx1100's .dat only:
#   - `rdnacompat run --gpu gfx1031`: the runner has the shim, but the
#     stand-in drops the GPU (what Ollama does today);
#   - with --view-arch-files (directory found beside the program, Ollama's
#     bin/ + lib/ollama layout): the GPU is kept, the runner has the shim
#     (mapped, LD_PRELOAD inherited through the Go parent) and reads
#     gfx1030's .dat through the shim's redirection, said once at warn;
#   - the real directory is unchanged afterwards; an explicit
#     --view-arch-files=DIR works the same.
. "$(dirname "$0")/shim/common.sh"
command -v go >/dev/null || skip "no Go toolchain (golang-go, tools/deps.sh)"
tool=$B/bin/rdnacompat
[ -x "$tool" ] || skip "no $tool"
O=$(cd "$(dirname "$0")" && pwd)/ollama
D=$T/runview55
rm -rf "$D" && mkdir -p "$D/bin" "$D/lib/ollama/rocm/rocblas/library"
L=$D/lib/ollama/rocm
R=$L/rocblas/library
echo tensile-gfx1030 >"$R/TensileLibrary_lazy_gfx1030.dat"
echo tensile-gfx1100 >"$R/TensileLibrary_lazy_gfx1100.dat"
build runner55 "$O/runner.cpp"
cp "$T/runner55" "$D/bin/runner"
# Built here, offline, standard library only, caches in the build tree.
GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS= GO111MODULE=off CGO_ENABLED=0 \
  go build -o "$D/bin/standin" "$O/standin.go" >"$D/go.log" 2>&1 || { cat "$D/go.log" >&2; fail "go build"; }

run() { timeout 180 "$tool" run --gpu gfx1031 "$@"; }

rc=0; run -- "$D/bin/standin" "$L" "$D/bin/runner" >"$D/out0" 2>"$D/err0" || rc=$?
[ "$rc" -eq 0 ] || { cat "$D/out0" "$D/err0" >&2; fail "without the view: rc=$rc"; }
grep -qx "runner: shim: mapped=yes ld_preload=yes" "$D/out0" || { cat "$D/out0" >&2; fail "the runner lacks the shim"; }
grep -qx "dropping ROCm device — no rocblas support for gfx target gfx1031" "$D/out0" ||
  { cat "$D/out0" "$D/err0" >&2; fail "without the view the stand-in did not drop the gfx1031 device"; }
echo "ok: rdnacompat run without the view: the runner has the shim, the Go stand-in drops the gfx1031 GPU"

rc=0; run --view-arch-files -- "$D/bin/standin" "$L" "$D/bin/runner" >"$D/out1" 2>"$D/err1" || rc=$?
[ "$rc" -eq 0 ] || { cat "$D/out1" "$D/err1" >&2; fail "with the view: rc=$rc"; }
grep -qx "keep gfx1031" "$D/out1" || { cat "$D/out1" "$D/err1" >&2; fail "with the view the GPU was not kept"; }
grep -qx "runner: shim: mapped=yes ld_preload=yes" "$D/out1" || { cat "$D/out1" >&2; fail "with the view the runner lacks the shim"; }
grep -qx "runner: dat gfx1031: tensile-gfx1030" "$D/out1" ||
  { cat "$D/out1" "$D/err1" >&2; fail "the runner did not read gfx1030's .dat through the shim"; }
# (the runner's stderr reaches the stand-in's output, as Ollama collects it)
n=$(grep -c "^runner: .*warn: redirect: .*from=$R/TensileLibrary_lazy_gfx1031.dat to=$R/TensileLibrary_lazy_gfx1030.dat " "$D/out1")
[ "$n" = 1 ] || { cat "$D/out1" >&2; fail "the runner's redirect was said $n times at warn (want once)"; }
grep -q "rdnacompat: view: $R lists TensileLibrary_lazy_gfx1031.dat" "$D/err1" || { cat "$D/err1" >&2; fail "the view was not said"; }
echo "ok: --view-arch-files: the stand-in keeps gfx1031, the runner has the shim and reads gfx1030's .dat via the logged redirection"

[ ! -e "$R/TensileLibrary_lazy_gfx1031.dat" ] && [ ! -L "$R/TensileLibrary_lazy_gfx1031.dat" ] &&
  [ "$(ls "$R" | wc -l)" = 2 ] || fail "the real directory was changed: $(ls -la "$R")"
echo "ok: the real directory is unchanged"

rc=0; run --view-arch-files="$R" -- "$D/bin/standin" "$L" "$D/bin/runner" >"$D/out2" 2>"$D/err2" || rc=$?
[ "$rc" -eq 0 ] && grep -qx "keep gfx1031" "$D/out2" || { cat "$D/out2" "$D/err2" >&2; fail "--view-arch-files=DIR: not kept"; }
echo "ok: --view-arch-files=DIR keeps it too"
