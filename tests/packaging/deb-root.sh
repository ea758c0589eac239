#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deb-root.sh PACKAGE... — a clean Debian 12 (bookworm) root, minbase plus
# PACKAGE..., for tests/integration/90-deb.sh to install rdnacompat's
# packages into.  Built with mmdebstrap from this machine's Debian mirror
# (tests/roots/lib.sh) once, cached in /var/cache/rdnacompat/roots/
# deb-bookworm-HASH (HASH of the package list), and printed.  Exit 77 with
# the reason when it cannot be built (no mmdebstrap, no root, no mirror).
set -euo pipefail
. "$(dirname "$0")/../roots/lib.sh"
pkgs=$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')
hash=$(printf 'deb-root 1\n%s\n' "$pkgs" | sha256sum | cut -c1-12)
dir=$RDC_ROOTS_CACHE/deb-bookworm-$hash
if [ -f "$dir/.rdc-root-stamp" ] && [ -x "$dir/bin/sh" ]; then echo "$dir"; exit 0; fi
[ "$(id -u)" -eq 0 ] || { echo "deb-root: needs root (mmdebstrap in root mode)" >&2; exit 77; }
command -v mmdebstrap >/dev/null || { echo "deb-root: mmdebstrap is missing (make deps)" >&2; exit 77; }
mirror=$(rdc_debian_mirror) || true
[ -n "$mirror" ] || { echo "deb-root: no Debian mirror in this machine's apt sources" >&2; exit 77; }
mkdir -p "$RDC_ROOTS_CACHE"
tmp=$dir.tmp; log=$dir.log
# Older roots of this kind (other package lists) and partial builds go first.
for s in "$RDC_ROOTS_CACHE"/deb-bookworm-*; do
  [ -e "$s" ] || continue
  echo "deb-root: removing $s (stale or partial)" >&2
  rm -rf --one-file-system "$s"
done
start=$(date +%s)
echo "deb-root: building $dir (bookworm minbase + $pkgs) from $mirror" >&2
if ! mmdebstrap --variant=minbase --include="$(echo $pkgs | tr ' ' ',')" bookworm "$tmp" \
     "deb $mirror bookworm main" >"$log" 2>&1; then
  echo "deb-root: mmdebstrap failed; last lines of $log:" >&2; tail -5 "$log" >&2; rm -rf "$tmp"; exit 77
fi
rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/*_Packages
echo "$pkgs" >"$tmp/.rdc-root-stamp"
rm -rf "$dir"; mv "$tmp" "$dir"
echo "deb-root: built in $(( $(date +%s) - start )) s" >&2
echo "$dir"
