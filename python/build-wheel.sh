#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# build-wheel.sh BUILD OUTDIR — `make wheel`: stage python/ with the built
# tool (the front end bin/rdnacompat and libexec/rdnacompat/rdnacompat-tool),
# shim, simulator and tables under rdnacompat/_bundled/ (laid out as an
# installed prefix: bin/, libexec/rdnacompat/, lib/, lib/rdnacompat/sim/,
# share/rdnacompat/tables/, where the tool looks for them relative to itself) in BUILD/wheel-src, and
# build the wheel there with Debian's python3-build, setuptools and wheel:
# --no-isolation, so no index and no network are used.
set -euo pipefail
B=$(cd "${1:?usage: $0 BUILD OUTDIR}" && pwd)
OUT=${2:?usage: $0 BUILD OUTDIR}
SRC=$(cd "$(dirname "$0")/.." && pwd)
for f in bin/rdnacompat libexec/rdnacompat/rdnacompat-tool librdnacompat.so sim/librdnacompat-sim.so; do
  [ -f "$B/$f" ] || { echo "build-wheel: $B/$f not built (make all)" >&2; exit 1; }
done
# Debian's python3 and its build tools (PYTHON= for another), checked from
# a directory without a build/ of its own (which `import build` would find).
PY=${PYTHON:-/usr/bin/python3}
(cd / && "$PY" -c 'import build, setuptools, wheel') 2>/dev/null ||
  { echo "build-wheel: python3-build, python3-setuptools and python3-wheel are needed (make deps)" >&2; exit 1; }
ver=$(sed -n 's/^VERSION *:= *//p' "$SRC/Makefile")
S=$B/wheel-src
rm -rf "$S"
mkdir -p "$S"
cp -r "$SRC/python/pyproject.toml" "$SRC/python/setup.py" "$SRC/python/README.md" "$SRC/python/rdnacompat" "$S/"
cp "$SRC/LICENSE" "$S/"
find "$S" -name __pycache__ -prune -exec rm -rf {} +
printf '# SPDX-License-Identifier: MIT\n# Written by python/build-wheel.sh from the Makefile'"'"'s VERSION.\n__version__ = "%s"\n' "$ver" \
  >"$S/rdnacompat/_version.py"
D=$S/rdnacompat/_bundled
install -d "$D/bin" "$D/libexec/rdnacompat" "$D/lib/rdnacompat/sim" "$D/share/rdnacompat/tables/reports"
install -m 0755 "$B/bin/rdnacompat" "$D/bin/"
install -m 0755 "$B/libexec/rdnacompat/rdnacompat-tool" "$D/libexec/rdnacompat/"
install -m 0755 "$B/librdnacompat.so" "$D/lib/"
install -m 0755 "$B/sim/librdnacompat-sim.so" "$D/lib/rdnacompat/sim/"
install -m 0644 "$SRC"/tables/*.tsv "$SRC/tables/README.md" "$D/share/rdnacompat/tables/"
install -m 0644 "$SRC"/tables/reports/* "$D/share/rdnacompat/tables/reports/"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/rdnacompat-*.whl
(cd "$S" && "$PY" -m build --no-isolation --wheel --outdir "$OUT" . >"$S/build.log" 2>&1) ||
  { tail -30 "$S/build.log" >&2; echo "build-wheel: python3 -m build failed (log: $S/build.log)" >&2; exit 1; }
ls -l "$OUT"/rdnacompat-*.whl
