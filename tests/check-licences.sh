#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-licences.sh DOC MAP... — every third-party archive member that the
# linker put into our binaries (their -Wl,-Map files) must be covered by a row
# of DOC's table (docs/LICENSES.md):
#   | `libname.a` | Debian package | licence | members | why we may link it |
# where members is `*` or a space-separated list of the only objects allowed
# (libiberty: cp-demangle.o, the file with the GCC linking exception).  Our own
# archives (librdc_core*.a) are skipped.  Exits 1 naming each uncovered member.
set -euo pipefail
doc=$1; shift
declare -A allowed
while IFS='|' read -r _ arch _ _ members _; do
  arch=$(echo "$arch" | tr -d '` ')
  members=$(echo "$members" | tr -d '`' | xargs)
  case $arch in lib*.a) allowed[$arch]=$members;; esac
done < <(grep -E '^\|[[:space:]]*`lib[^`]*\.a`' "$doc")
[ ${#allowed[@]} -gt 0 ] || { echo "licences: no archive rows in $doc" >&2; exit 1; }

bad=0 seen=0
for map in "$@"; do
  [ -f "$map" ] || { echo "licences: $map: no link map (is the binary built?)" >&2; exit 1; }
  while read -r arch member; do
    seen=$((seen + 1))
    if [ -z "${allowed[$arch]+x}" ]; then
      echo "licences: $map: $arch($member) is linked in but $doc has no row for $arch"; bad=1
    elif [ "${allowed[$arch]}" != "*" ] && ! grep -qw -- "$member" <<<"${allowed[$arch]}"; then
      echo "licences: $map: $arch($member) is linked in but $doc allows only: ${allowed[$arch]}"; bad=1
    fi
  done < <(sed -n '/^Archive member included/,/^\(Discarded input sections\|Allocating common symbols\|Memory Configuration\)/p' "$map" |
           grep -oE '^[^ ]+\.a\([^)]+\)' | grep -v -E '/librdc_core[^/]*\.a\(' |
           sed -E 's|^.*/([^/]+\.a)\((.*)\)$|\1 \2|' | sort -u)
done
[ $bad -eq 0 ] || exit 1
echo "licences: $seen third-party archive members in $# binaries, each covered by $doc"
