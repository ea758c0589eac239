#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 43-shim-process.sh — the shim in the life of a process: a mixed
# gfx1030+gfx1031 machine (each device its own choice); a library with GPU
# code dlopen'ed after HIP is initialised; another library's constructor
# calling HIP before the shim's constructor ran; fork while another thread
# holds the shim's locks; non-ROCm programs give identical output.
. "$(dirname "$0")/shim/common.sh"
build multi "$S/multi.hip" --offload-arch=gfx1030
build libkern.so "$S/libkern.hip" --offload-arch=gfx1030 -shared -fPIC
build dlmain "$S/dlmain.cpp" -ldl
build libearly.so "$S/early.cpp" -shared -fPIC
build ctorprog "$S/vadd.hip" --offload-arch=gfx1030 -L"$T" -learly -Wl,-rpath,"$T"
build forker "$S/forker.cpp" -lpthread
kern_genco gfx1030 hsaco

# Mixed machine.
rm -f "$T/p.trace"
rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_SIM_TRACE="$T/p.trace" shim gfx1030,gfx1031 "$T/multi" \
  >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/p.err" >&2; fail "mixed: rc=$rc"; }
grep -qxE "device0 gfx1030 (hipSuccess|no error)" "$T/p.out" || fail "mixed: device 0: $(cat "$T/p.out")"
# device 1 runs the program's gfx1030 code: the program is told gfx1030 for it
# (codename.c), with a name line; device 0 is a gfx1030
grep -qxE "device1 gfx1030 (hipSuccess|no error)" "$T/p.out" || fail "mixed: device 1: $(cat "$T/p.out")"
grep -q "info: name: lib=\"\?$T/multi\"\? device=1 target=gfx1031 reported=gfx1030 " "$T/p.err" || fail "mixed: no name line for device 1"
grep -q "info: name: .* device=0 .*reported=" "$T/p.err" && fail "mixed: device 0 (native) was told another name"
$PY - "$T/p.trace" <<'PYEOF' || fail "mixed: trace"
import json, sys
k = [json.loads(l) for l in open(sys.argv[1]) if "fill_iota" in l]
got = sorted((d["gpu"], d["target"]) for d in k)
assert got == [(0, "gfx1030"), (1, "gfx1031")], got
PYEOF
grep -q "map: lib=$T/multi .*device=1 target=gfx1031 .*chosen=gfx1030" "$T/p.err" || fail "mixed: no map line for device 1"
grep -q "map: .*device=0" "$T/p.err" && fail "mixed: device 0 (native) was mapped"
# device 0 loads the original gfx1030 entry: the bundle rebuilt at
# registration (HIP 5.2, 6.4) keeps them; HIP 7 finds them itself and asks
# the shim only for device 1's
if [ "$REL" != 7.2 ]; then
  grep -qE "rebuilt: lib=$T/multi .*originals=[1-9]" "$T/p.err" ||
    fail "mixed: the rebuilt bundle lost the original entries device 0 needs"
else
  grep -q "retargeted: lib=$T/multi .*entry=hipv4-amdgcn-amd-amdhsa--gfx1031 " "$T/p.err" ||
    fail "mixed: device 1's object was not handed over at HIP's lookup"
fi

# Two unsupported targets: two added entries, each device its own.
rm -f "$T/p.trace"
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/p.trace" shim gfx1031,gfx1032 "$T/multi" \
  >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/p.err" >&2; fail "gfx1031+gfx1032: rc=$rc"; }
$PY - "$T/p.trace" <<'PYEOF' || fail "gfx1031+gfx1032: trace"
import json, sys
k = [json.loads(l) for l in open(sys.argv[1]) if "fill_iota" in l]
got = sorted((d["gpu"], d["target"]) for d in k)
assert got == [(0, "gfx1031"), (1, "gfx1032")], got
PYEOF
# A kernel refused on one device only: that device gets no entry (and HIP 5.2
# stops), the other is still mapped; the diagnosis names only the refused one.
printf '[badkernels]\ngfx1032\tgfx1030\t*fill_iota*\trefuse\ttest rule\t43-shim-process\n' >"$T/bad43.tsv"
rc=0; RDNACOMPAT_TABLES="$T/bad43.tsv" RDNACOMPAT_LOG=info shim gfx1031,gfx1032 "$T/multi" \
  >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -ne 0 ] || fail "per-device refusal: gfx1032 still got code"
grep -q "info: map: lib=$T/multi .*device=0 target=gfx1031 .*chosen=gfx1030" "$T/p.err" || fail "per-device refusal: device 0 not mapped"
grep -q "warn: missing: lib=$T/multi .*device=1 target=gfx1032" "$T/p.err" || fail "per-device refusal: device 1 not missing"
grep -q "device 1 (gfx1032) has no usable entry" "$T/p.err" || fail "per-device refusal: diagnosis"
grep -q "device 0 (gfx1031) has no usable entry" "$T/p.err" && fail "per-device refusal: device 0 in the diagnosis"

# dlopen after HIP init.
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/p.trace" shim gfx1031 "$T/dlmain" "$T/libkern.so" \
  >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/p.err" >&2; fail "dlopen: rc=$rc"; }
grep -qx "devices 1 run_kernel 0" "$T/p.out" || fail "dlopen: $(cat "$T/p.out")"
grep -q "map: lib=$T/libkern.so bundle=0" "$T/p.err" || fail "dlopen: no map line"
grep -q '"target":"gfx1031","kernel":"_Z8lib_fillPii"' "$T/p.trace" || fail "dlopen: kernel not from gfx1031 code"

# The PyTorch way: Python loads a library with GPU code (and so HIP and ROCR)
# RTLD_LOCAL; the shim's real functions come from the soname lookup.
rm -f "$T/p.trace"
rc=0; RDNACOMPAT_LOG=info RDNACOMPAT_SIM_TRACE="$T/p.trace" shim gfx1031 $PY -c \
  "import ctypes; print('run_kernel', ctypes.CDLL('$T/libkern.so').run_kernel())" >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/p.err" >&2; fail "python ctypes: rc=$rc"; }
grep -qx "run_kernel 0" "$T/p.out" || fail "python ctypes: $(cat "$T/p.out")"
grep -q '"target":"gfx1031","kernel":"_Z8lib_fillPii"' "$T/p.trace" || fail "python ctypes: kernel not from gfx1031 code"

# A constructor calls HIP first.
rc=0; RDNACOMPAT_LOG=info shim gfx1031 "$T/ctorprog" >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/p.err" >&2; fail "constructor: rc=$rc"; }
grep -qxE "early: devices 1 (hipSuccess|no error)" "$T/p.out" || fail "constructor: $(cat "$T/p.out")"
launch_ok "$T/p.out" || fail "constructor: launch"

# A library whose constructor, between two of its registrations, closes the
# descriptor of its own file the shim keeps for the library's next bundle
# and puts /dev/null in its number (two_close.cpp): the shim must notice
# (the bytes differ), open the file again and still map the bundle from it,
# and never close the program's /dev/null.
build libtwo.so "$S/two_b.hip" "$S/two_a.hip" "$S/two_close.cpp" --offload-arch=gfx1030 -shared -fPIC
build twomain "$S/twomain.cpp" -L"$T" -ltwo -Wl,-rpath,"$T"
rc=0; RDNACOMPAT_LOG=debug RDNACOMPAT_STATS=1 shim gfx1031 "$T/twomain" >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/p.err" "$T/p.out" >&2; fail "closed descriptor: rc=$rc"; }
grep -qx "result ok" "$T/p.out" || fail "closed descriptor: $(cat "$T/p.out")"
if [ "$REL" != 7.2 ]; then   # HIP 7 leaves every bundle to its reading: nothing kept
  grep -qx "closed [0-9]* now /dev/null" "$T/p.out" ||
    fail "closed descriptor: the shim's descriptor was not there, or the program's was closed: $(head -1 "$T/p.out")"
  n=$(grep -c "rebuilt: lib=\"\?$T/libtwo.so\"\? .*how=file-mapping" "$T/p.err" || true)
  [ "$n" -ge 2 ] || fail "closed descriptor: $n of libtwo.so's bundles mapped from its file, want both"
  grep -q "stats: .*files_opened=[2-9]" "$T/p.err" || fail "closed descriptor: the library was not opened again"
fi

# fork with the shim's locks busy in another thread.
# (a name the shim redirects: a Tensile library file of the device's target)
mkdir -p "$T/files" && echo one >"$T/files/TensileLibrary_lazy_gfx1030.dat" &&
  rm -f "$T/files/TensileLibrary_lazy_gfx1031.dat"
rc=0; shim gfx1031 "$T/forker" "$T/kern1030.hsaco" "$T/files/TensileLibrary_lazy_gfx1031.dat" >"$T/p.out" 2>"$T/p.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/p.err" "$T/p.out" >&2; fail "fork: rc=$rc"; }
grep -qxE "children ok 20/20 parent load (hipSuccess|no error)" "$T/p.out" || fail "fork: $(cat "$T/p.out")"

# Non-ROCm processes: identical output and status, nothing logged.
for cmd in "/usr/bin/python3 -c 'print(sum(range(100)))'" "ls -la /usr/lib" "sort -r /etc/passwd" \
           "sh -c 'echo gfx1031 | tr a-z A-Z; cat /nonexistent_gfx1031.dat'"; do
  a=$(eval "$cmd" 2>&1; echo "rc=$?")
  b=$(eval "LD_PRELOAD=$SHIM RDNACOMPAT_LOG=debug $cmd" 2>&1; echo "rc=$?")
  # debug logs "init" lines from each process; nothing else may differ.
  b=$(printf '%s\n' "$b" | grep -v '^rdnacompat\[[0-9]*\]: debug: init:')
  [ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") >&2; fail "output differs under the shim: $cmd"; }
done
echo "43-shim-process: ok"
