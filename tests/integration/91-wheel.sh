#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the wheel is built and installed with the host's Python (Debian 12's)
# 91-wheel.sh BUILD — the Python wheel from scratch: `make wheel`'s script
# (python/build-wheel.sh: python3 -m build --no-isolation, no index) builds
# it into BUILD/wheel with an honest platform tag (py3-none-linux_x86_64);
# a fresh venv of Debian's /usr/bin/python3 installs it with
# `pip install --no-index`; then, from the venv only:
#   - `rdnacompat --version` is the venv's console entry running the
#     bundled tool, which finds its bundled shim, simulator and tables
#     (`rdnacompat doctor --json`: the shim under site-packages);
#   - `python -m rdnacompat --gpu gfx1031 --log LOG --log-level info --
#     script.py` on a simulated RX 6700 XT: the script loads a gfx1030-only
#     HIP library with ctypes, its kernel computes what the CPU says
#     (simulated card (executed)); rdnacompat.status() says the shim is
#     loaded (the bundled file), not before the script asked, and lists this
#     process's log lines (text or JSON log), which name the gfx1030 code
#     object it mapped; a child process started by the script has the shim
#     too;
#   - status() outside `python -m rdnacompat` says the shim is not loaded;
#   - bad usage (`python -m rdnacompat` alone) exits 2 with the usage.
set -u
BUILD=${1:?usage: $0 BUILD}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }
PY=/usr/bin/python3
[ -x $PY ] || skip "no /usr/bin/python3"
(cd / && $PY -c 'import build, setuptools, wheel, venv, ensurepip') 2>/dev/null ||
  skip "python3-build, python3-setuptools, python3-wheel or python3-venv missing (make deps)"
command -v hipcc >/dev/null || skip "no hipcc (make deps)"
[ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 ] || skip "Debian's HIP runtime (libamdhip64-5) is not installed"
T=${OUT:-$BUILD/tests-out}/wheel
rm -rf "$T"; mkdir -p "$T"

bash "$SRC/python/build-wheel.sh" "$BUILD" "$T/dist" >"$T/build.log" 2>&1 || fail "make wheel: $(tail -10 "$T/build.log")"
whl=$(ls "$T"/dist/rdnacompat-*.whl)
case $(basename "$whl") in
  rdnacompat-*-py3-none-linux_x86_64.whl) ;;
  *) fail "wheel tag: $(basename "$whl") (want py3-none-linux_x86_64)";;
esac
$PY -m zipfile -l "$whl" >"$T/contents"
for f in _bundled/bin/rdnacompat _bundled/libexec/rdnacompat/rdnacompat-tool _bundled/lib/librdnacompat.so _bundled/lib/rdnacompat/sim/librdnacompat-sim.so \
    _bundled/share/rdnacompat/tables/compat.tsv __main__.py; do
  grep -q "rdnacompat/$f" "$T/contents" || fail "the wheel lacks rdnacompat/$f"
done

$PY -m venv "$T/venv" >"$T/venv.log" 2>&1 || fail "python3 -m venv: $(tail -5 "$T/venv.log")"
V=$T/venv/bin
"$V/pip" install --no-index --disable-pip-version-check "$whl" >"$T/pip.log" 2>&1 || fail "pip install --no-index: $(tail -5 "$T/pip.log")"
[ "$(PATH=$V:/usr/bin:/bin command -v rdnacompat)" = "$V/rdnacompat" ] || fail "rdnacompat is not on the venv's PATH"
ver=$(env -u RDNACOMPAT_SHIM -u RDNACOMPAT_TABLES_DIR "$V/rdnacompat" --version) || fail "rdnacompat --version: rc=$?"
[ "$ver" = "rdnacompat $(sed -n 's/^VERSION *:= *//p' "$SRC/Makefile")" ] || fail "rdnacompat --version: $ver"
site=$("$V/python" -c 'import rdnacompat, os; print(os.path.dirname(rdnacompat.__file__))')
case $site in "$T"/venv/*) ;; *) fail "rdnacompat imported from $site, not the venv";; esac
env -u RDNACOMPAT_SHIM -u RDNACOMPAT_SIM_LIB -u RDNACOMPAT_TABLES_DIR "$V/rdnacompat" doctor --json >"$T/doctor.json" 2>/dev/null
grep -q "librdnacompat.so installed: $site/_bundled/lib/librdnacompat.so" "$T/doctor.json" ||
  fail "the bundled tool did not find the bundled shim: $(grep -o '"shim"[^}]*' "$T/doctor.json")"

# A gfx1030-only HIP library for the script to load with ctypes.
hipcc --offload-arch=gfx1030 -O1 -shared -fPIC -o "$T/libaxpy.so" "$SRC/tests/integration/wheel/axpy_lib.hip" \
  >"$T/hipcc.log" 2>&1 || fail "hipcc: $(tail -5 "$T/hipcc.log")"
cd "$T"
for v in $(env | sed -n 's/^\(HSA_OVERRIDE_GFX_VERSION[_0-9]*\|RDNACOMPAT_[A-Z_0-9]*\)=.*/\1/p'); do unset "$v"; done
rc=0
env -u LD_PRELOAD timeout 300 "$V/python" -m rdnacompat --gpu gfx1031 --log "$T/shim.log" --log-level info -- \
  "$SRC/tests/integration/wheel/script.py" "$T/libaxpy.so" "$T/status.json" >"$T/run.out" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "python -m rdnacompat: rc=$rc: $(tail -8 "$T/run.out")"
"$V/python" - "$T/status.json" "$site" <<'PY' || fail "status: $(cat "$T/run.out" | tail -12)"
import json, sys
d = json.load(open(sys.argv[1])); site = sys.argv[2]
a, b = d["after"], d["before"]
assert d["bad"] == 0, "the kernel's results differ from the CPU's in %r elements" % d["bad"]
assert a["loaded"] and a["shim"] == site + "/_bundled/lib/librdnacompat.so", "after: %r" % a
assert b["loaded"], "before: %r" % b
assert a["mode"] == "map", a["mode"]
assert a["decisions"], "no log lines of this process: %r" % a
assert any("gfx1030" in x for x in a["decisions"]), "no gfx1030 decision: %r" % a["decisions"]
assert d["child_loaded"] == "True", "child: %r %r" % (d["child_loaded"], d["child_err"])
PY
grep -q "the shim is loaded: $site/_bundled/lib/librdnacompat.so" "$T/run.out" || fail "str(status()): $(head -3 "$T/run.out")"
# The shim's JSON log reads the same way: the map decision, as the text log writes it.
rc=0
env -u LD_PRELOAD timeout 300 "$V/python" -m rdnacompat --gpu gfx1031 --log "$T/shim.json" --log-level info --log-format json -- \
  "$SRC/tests/integration/wheel/script.py" "$T/libaxpy.so" "$T/status-json.json" >"$T/run-json.out" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "python -m rdnacompat --log-format json: rc=$rc: $(tail -8 "$T/run-json.out")"
grep -qE '^    info: map: lib=[^ ]*/libaxpy.so .*verdict=mapped entry=hipv4-amdgcn-amd-amdhsa--gfx1030 ' "$T/run-json.out" ||
  fail "status() from the JSON log: $(head -6 "$T/run-json.out")"
out=$(env -u LD_PRELOAD "$V/python" -c 'import rdnacompat; s = rdnacompat.status(); print(s.loaded); print(s)')
[ "$(echo "$out" | head -1)" = False ] && echo "$out" | grep -q "not loaded" || fail "status() without the shim: $out"
rc=0; "$V/python" -m rdnacompat >"$T/usage.out" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q "usage:" "$T/usage.out" || fail "python -m rdnacompat without a script: rc=$rc $(cat "$T/usage.out")"
rm -rf "$T/venv"
echo "91-wheel: ok ($(basename "$whl"); python -m rdnacompat ran a gfx1030 kernel on a simulated gfx1031 (executed) with the bundled shim)"
