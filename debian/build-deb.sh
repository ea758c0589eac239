#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# build-deb.sh OUTDIR — `make deb`: the binary packages built by
# dpkg-buildpackage from debian/ in a copy of the source tree under
# OUTDIR/src (the tracked files and the untracked ones git does not ignore),
# so nothing is written outside OUTDIR; then lintian on the result (its
# errors fail the build; warnings are printed).
set -euo pipefail
OUT=$1
SRC=$(cd "$(dirname "$0")/.." && pwd)
ver=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
for t in dpkg-buildpackage dh lintian; do
  command -v "$t" >/dev/null || { echo "build-deb: $t not found (make deps installs it)" >&2; exit 1; }
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
tree=$OUT/src/rdnacompat-$ver
rm -rf "$OUT/src"
mkdir -p "$tree"
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf -) | tar -xf - -C "$tree"
(cd "$tree" && dpkg-buildpackage -b -us -uc -j2)
rm -f "$OUT"/*.deb "$OUT"/*.changes "$OUT"/*.buildinfo
mv "$OUT"/src/*.deb "$OUT"/src/*.changes "$OUT"/src/*.buildinfo "$OUT"/
ls -l "$OUT"/*.deb
lintian --fail-on error "$OUT"/*.changes
