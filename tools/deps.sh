#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deps.sh — install the Debian 12 packages rdnacompat needs, only those missing.
# Idempotent: runs `apt-get update` once and `apt-get install` only when
# something is absent.  Used by `make deps`, `make check` and `make demo`.
set -euo pipefail

PKGS=(
  build-essential pkg-config
  libelf-dev libcmocka-dev libmsgpack-dev libzstd-dev zlib1g-dev libsqlite3-dev nettle-dev libiberty-dev
  libhsa-runtime-dev libamdhip64-dev rocminfo hipcc libhsakmt-dev libdrm-dev
  clang-15 clang-16 lld-15 lld-16 llvm-15 clang-tools-15
  llvm-19
  librocsparse0 librocsparse-dev
  valgrind python3 python3-yaml file zstd
  golang-go   # tests: the Go stand-in for Ollama (55-tools-run-view)
  mmdebstrap
  chromium
  debhelper lintian dpkg-dev                                 # make deb (debian/)
  python3-build python3-setuptools python3-wheel python3-venv python3-pip   # make wheel (python/)
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PKGS[@]} packages present"
  exit 0
fi

echo "deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
