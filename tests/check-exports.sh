#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-exports.sh LIB ALLOW — the dynamic symbols LIB defines must be exactly
# the versioned names listed in ALLOW (one "name@VERSION" a line, # comments).
set -euo pipefail
lib=$1 allow=$2
got=$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@@/@/' | grep -v -E '^(ROCR_1|hip_[0-9]+\.[0-9]+|GLIBC_[0-9.]+|RDNACOMPAT_[0-9_.]+)$' | sort)
want=$(grep -v -E '^\s*(#|$)' "$allow" | sort)
if [ "$got" != "$want" ]; then
  echo "exports: $lib differs from $allow:"
  diff <(echo "$want") <(echo "$got") || true
  exit 1
fi
echo "exports: $(echo "$got" | grep -c . ) symbols, as allowed"
