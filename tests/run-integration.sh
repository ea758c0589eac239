#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-integration.sh BUILD [TEST...] — run tests/integration/*.sh (or the
# named tests) in order, each on every ROCm release it declares:
#
#   # releases: 5.2 6.4 7.2      (a header line in the first 20 lines;
#                                 without one a test runs on 5.2 only)
#   # releases: 5.2 — REASON     (after the versions, why the others are
#                                 not run; printed once per test)
#
# 5.2 is Debian 12's ROCm on this host; 6.4 and 7.2 run the whole test inside
# the Debian roots rocm-6.4 and rocm-7.2 (tests/roots/pins) through
# tests/roots/run, where the checkout, BUILD, /tmp, /proc, /dev and /sys sit at
# the same paths.  Each test gets BUILD (absolute) as $1 and the environment
#   RDC_ROCM    the release it runs on (5.2, 6.4, 7.2)
#   RDC_ROOT    the root's name (rocm-6.4, ...), empty on the host
#   RDC_HIPCC   that release's hipcc (inside a root, the root's own)
# and exits 0 (pass), 77 (skip, with a reason on stderr) or anything else
# (fail).  A skip whose stderr is empty (no reason) is counted as a failure,
# always.  A release whose root is not built is skipped with that reason.
# RDC_RELEASES="6.4 7.2" limits the releases run.  Closing lines: every skip
# with its reason (the test's last stderr line), one line per release, then
# "integration: N passed, N failed, N skipped" over all.
#
# RDC_STRICT_SKIPS=1 (make check, CI): a skip is a failure unless
# tests/integration/skips.allow lists it ("TEST RELEASE REASON", TEST the
# file name, RELEASE a version or *), so a test CI expects to run cannot go
# quietly green by skipping; a partial skip (a test that ran without some of
# its parts) exits 77 too and is held to the same list.
set -u
build=$(cd "${1:-build}" && pwd -P)
shift || true
if [ $# -gt 0 ]; then tests=("$@"); else tests=(tests/integration/*.sh); fi
export RDC_FIXTURES="$build/fixtures" RDC_SRCDIR="$PWD" RDC_BUILD="$build"
known=(5.2 6.4 7.2)
only=${RDC_RELEASES:-${known[*]}}
roots=$(dirname "$0")/roots
checkout=$(cd "$(dirname "$0")/.." && pwd -P)
# BUILD outside the checkout (e.g. make BUILD=/tmp/x) is bound into the roots too.
case $build/ in "$checkout"/*) ;; *) export RDC_ROOT_BIND=$build${RDC_ROOT_BIND:+:$RDC_ROOT_BIND};; esac

declare -A pass fail skip
for r in "${known[@]}"; do pass[$r]=0; fail[$r]=0; skip[$r]=0; done
failed=(); bad=0; skipped=(); strict_bad=0
allow=$(dirname "$0")/integration/skips.allow
# allowed TEST REL: whether skips.allow lists this skip.
allowed() {
  [ -f "$allow" ] || return 1
  awk -v t="$(basename "$1")" -v r="$2" '!/^#/ && NF >= 3 && $1 == t && ($2 == r || $2 == "*") { f = 1 } END { exit !f }' "$allow"
}

# releases_of TEST: the releases its header declares (default 5.2): the
# leading words that look like versions (N.N); the rest of the line is the
# reason the other releases are not run (releases_why).
releases_line() {
  head -n 20 "$1" | grep -m1 -E '^#[[:space:]]*releases:' | sed -E 's/^#[[:space:]]*releases:[[:space:]]*//'
}
releases_of() {
  local w out=
  for w in $(releases_line "$1"); do
    [[ $w =~ ^[0-9]+\.[0-9]+$ ]] || break
    out+="$w "
  done
  echo "${out:-5.2}"
}
releases_why() {
  releases_line "$1" | sed -E 's/^([0-9]+\.[0-9]+[[:space:]]*)*//; s/^[^[:alnum:]]*//'
}

# root_skip REL: why release REL cannot run here (empty if it can).
root_skip() {
  local why
  [ "$(id -u)" -eq 0 ] || { echo "needs root (mount namespace, chroot)"; return; }
  why=$("$roots/path" "rocm-$1" 2>&1 >/dev/null) || echo "${why#roots: }"
}

for t in "${tests[@]}"; do
  [ -f "$t" ] || continue
  why_not=$(releases_why "$t")
  [ -z "$why_not" ] || echo "== $t: on $(releases_of "$t")only: $why_not"
  for rel in $(releases_of "$t"); do
    case " ${known[*]} " in *" $rel "*) ;; *)
      echo "== $t [$rel] FAIL: unknown release '$rel' in its releases: line (known: ${known[*]})"
      bad=$((bad + 1)); failed+=("$t[$rel]"); continue;;
    esac
    case " $only " in *" $rel "*) ;; *) continue;; esac
    echo "== $t [$rel]"
    start=$(date +%s)
    # Each run gets an empty cache directory of its own, so the shim's
    # decision cache never carries state between tests or into $HOME.
    cache="$build/test-cache/$(basename "$t" .sh)-$rel"
    rm -rf "$cache" && mkdir -p "$cache"
    errf="$build/test-cache/$(basename "$t" .sh)-$rel.stderr"
    : >"$errf"
    # stderr goes to the terminal and to $errf through a pipeline (not a
    # process substitution), so tee has written every line when the test's
    # status is read: a skip's reason is never lost to a race.
    if [ "$rel" = 5.2 ]; then
      { RDC_ROCM=5.2 RDC_ROOT= RDC_HIPCC=$(command -v hipcc || echo hipcc) \
          XDG_CACHE_HOME="$cache" bash "$t" "$build" 2>&1 1>&3 3>&- | tee "$errf" >&2; } 3>&1
      rc=${PIPESTATUS[0]}
    else
      why=$(root_skip "$rel")
      if [ -n "$why" ]; then
        echo "skip: $why" | tee "$errf" >&2
        rc=77
      else
        { RDC_ROCM=$rel RDC_ROOT=rocm-$rel RDC_HIPCC=/usr/bin/hipcc XDG_CACHE_HOME="$cache" \
            "$roots/run" "rocm-$rel" -- bash "$t" "$build" 2>&1 1>&3 3>&- | tee "$errf" >&2; } 3>&1
        rc=${PIPESTATUS[0]}
      fi
    fi
    if [ "$rc" -eq 77 ]; then
      reason=$(grep -v '^[[:space:]]*$' "$errf" | tail -n 1)
      reason=$(printf '%s' "$reason" | sed -E 's/^(skip|SKIP)( \[[^]]*\])?: //')
      if [ -z "${reason//[[:space:]]/}" ]; then
        # every skip says why: one without a reason on stderr is a failure
        echo "== $t [$rel] FAIL: skipped (exit 77) without a reason on stderr"
        strict_bad=$((strict_bad + 1)); failed+=("$t[$rel](skip without reason)")
      elif [ "${RDC_STRICT_SKIPS:-0}" = 1 ] && ! allowed "$t" "$rel"; then
        echo "== $t [$rel] FAIL: skipped, and tests/integration/skips.allow does not allow it: ${reason:-no reason given}"
        strict_bad=$((strict_bad + 1)); failed+=("$t[$rel](skip)")
      fi
      skipped+=("$t [$rel]: ${reason:-no reason given}")
    fi
    echo "== $t [$rel] rc=$rc ($(( $(date +%s) - start ))s)"
    case $rc in
      0) pass[$rel]=$((pass[$rel] + 1));;
      77) skip[$rel]=$((skip[$rel] + 1));;
      *) fail[$rel]=$((fail[$rel] + 1)); failed+=("$t[$rel]");;
    esac
  done
done
for x in "${skipped[@]}"; do echo "integration: skipped: $x"; done
[ ${#failed[@]} -eq 0 ] || echo "integration: failed: ${failed[*]}"
tp=0; tf=$((bad + strict_bad)); ts=0
for r in "${known[@]}"; do
  echo "integration ROCm $r: ${pass[$r]} passed, ${fail[$r]} failed, ${skip[$r]} skipped"
  tp=$((tp + pass[$r])); tf=$((tf + fail[$r])); ts=$((ts + skip[$r]))
done
echo "integration: $tp passed, $tf failed, $ts skipped"
[ "$tf" -eq 0 ]
