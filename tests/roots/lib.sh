# SPDX-License-Identifier: MIT
# tests/roots/lib.sh — shared by tests/roots/{build,run,hipcc}: reads
# tests/roots/pins, names a root's cache directory after the hash of its pin
# lines, tells whether a root is complete (its stamp, written last), and finds
# the Debian mirror in this machine's apt sources.  Sourced, not run.

RDC_ROOTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RDC_ROOTS_PINS=${RDC_ROOTS_PINS:-$RDC_ROOTS_DIR/pins}
RDC_ROOTS_CACHE=${RDC_ROOTS_CACHE:-/var/cache/rdnacompat/roots}
# Bump when the way a root is built changes in a way the pins do not show.
RDC_ROOTS_FORMAT=1

# rdc_root_lines NAME: the pin lines of NAME, comments dropped, one space.
rdc_root_lines() {
  awk -v n="$1" '!/^[[:space:]]*#/ && $1 == n { $1 = $1; print }' "$RDC_ROOTS_PINS"
}

# rdc_root_names: every root the pins file declares, in order.
rdc_root_names() {
  awk '!/^[[:space:]]*#/ && NF >= 3 && !seen[$1]++ { print $1 }' "$RDC_ROOTS_PINS"
}

# rdc_root_path NAME: the cache directory of NAME's current pins (printed);
# fails with a message when the pins file does not know NAME.
rdc_root_path() {
  local lines hash
  lines=$(rdc_root_lines "$1")
  if [ -z "$lines" ]; then
    echo "roots: no root named '$1' in $RDC_ROOTS_PINS (known: $(rdc_root_names | tr '\n' ' '))" >&2
    return 1
  fi
  hash=$(printf 'format %s\n%s\n' "$RDC_ROOTS_FORMAT" "$lines" | sha256sum | cut -c1-12)
  printf '%s/%s-%s\n' "$RDC_ROOTS_CACHE" "$1" "$hash"
}

# rdc_root_ready DIR: the root at DIR was completed (stamp present and
# matching the pins it was built from) and still has its shell.
rdc_root_ready() {
  [ -f "$1/.rdc-root-stamp" ] && [ -x "$1/bin/sh" ] && [ -d "$1/usr/lib" ]
}

# rdc_root_field NAME KEY: the values of an @KEY line of NAME (suites, prefer).
rdc_root_field() {
  rdc_root_lines "$1" | awk -v k="@$2" '$2 == k { $1 = ""; $2 = ""; sub(/^ +/, ""); print }'
}

# rdc_root_packages NAME: PACKAGE=VERSION for each package line of NAME.
rdc_root_packages() {
  rdc_root_lines "$1" | awk '$2 !~ /^@/ && NF == 3 { print $2 "=" $3 }'
}

# rdc_debian_mirror: the URI of this machine's Debian archive, read from its
# apt sources (deb822 debian.sources, else sources.list), the security
# archive skipped.  Never hard-coded: the machine's mirror is the one that
# answers here.
rdc_debian_mirror() {
  local f uri=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    uri=$(awk '
      BEGIN { RS = ""; FS = "\n" }
      {
        types = ""; uris = ""; suites = ""; enabled = "yes"
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^Types:/)   { types = $i }
          if ($i ~ /^URIs:/)    { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
          if ($i ~ /^Suites:/)  { suites = $i }
          if ($i ~ /^Enabled:[ \t]*no/) { enabled = "no" }
        }
        if (enabled == "yes" && types ~ /(^|[ \t:])deb([ \t]|$)/ && suites !~ /-security/ && uris ~ /debian/ && uris !~ /security/) {
          split(uris, u, /[ \t]+/); print u[1]; exit
        }
      }' "$f")
    [ -n "$uri" ] && break
  done
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1 == "deb" {
        i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
        if ($(i) ~ /debian/ && $(i) !~ /security/ && $(i+1) !~ /-security/) { print $(i); exit }
      }' /etc/apt/sources.list)
  fi
  if [ -z "$uri" ]; then
    echo "roots: no Debian archive found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list" >&2
    return 1
  fi
  printf '%s\n' "${uri%/}"
}
