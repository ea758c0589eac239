#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — inspect reads fixture files and a user table; no ROCm runtime runs
# 10-inspect-rules-hash.sh BUILD — `rdnacompat inspect --kernels --json` hashes a
# code object (SHA-256) and demangles a kernel name only when a kernel rule that
# could apply needs it (docs/INSPECT.md "Cost"), and the rules it shows are the
# same as if it always did:
#   - without a sha256-scoped row, nothing is hashed (--stats) and no rule shows;
#   - a user row scoped to the code object's hash (the raw code object's bytes, a
#     bundle entry's bytes — taken from the file with sha256sum/hashlib, not from
#     the tool) shows on the kernel its pattern names, on a demangled pattern too;
#   - the same row with another hash: hashed, but the rule does not show;
#   - a hash-scoped row for another card, or whose pattern names no kernel: not hashed;
#   - a pattern starting "_Z" is matched on mangled names without demangling.
set -u
build=${1:?usage: 10-inspect-rules-hash.sh BUILD}
tool="$build/bin/rdnacompat"
fx="$build/fixtures"
[ -x "$tool" ] || { echo "no $tool" >&2; exit 1; }
[ -s "$fx/co/gfx1030.co" ] && [ -s "$fx/bundle/iota.bundle" ] || { echo "skip: fixtures not built ($fx)" >&2; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails+1)); }

# run ROWS FILE: inspect with a user table of kernel ROWS (may be empty) ->
# $tmp/out.json, the --stats line in $tmp/err
run() {
  local rows=$1 file=$2
  if [ -n "$rows" ]; then
    printf '[kernels]\n%b' "$rows" >"$tmp/user.tsv"
    RDNACOMPAT_TABLES="$tmp/user.tsv" "$tool" inspect --gpu gfx1031 --kernels --json --stats "$file" \
      >"$tmp/out.json" 2>"$tmp/err"
  else
    env -u RDNACOMPAT_TABLES "$tool" inspect --gpu gfx1031 --kernels --json --stats "$file" \
      >"$tmp/out.json" 2>"$tmp/err"
  fi
  local rc=$?
  [ "$rc" -eq 0 ] || fail "inspect ($rows) $file exited $rc: $(head -c 300 "$tmp/err")"
}
hashed() { sed -n 's/.*stats: \([0-9]*\) code object.* hashed.*/\1/p' "$tmp/err"; }
demangled() { sed -n 's/.*hashed, \([0-9]*\) kernel name.*/\1/p' "$tmp/err"; }
# rules_of KERNEL: the actions of the rules shown for that kernel, sorted, joined by ","
rules_of() {
  python3 - "$tmp/out.json" "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
ks = [k for f in j["files"] for b in f["bundles"] for k in b.get("kernels", [])]
hit = [k for k in ks if k["name"] == sys.argv[2]]
if not hit:
    print("NO-KERNEL")
else:
    print(",".join(sorted(r["action"] + ":" + r["scope"] for k in hit for r in (k["rules"] or []))))
PY
}

co="$fx/co/gfx1030.co"
sum=$(sha256sum "$co" | cut -c1-64)
other=$(printf '%s' "$sum" | tr '0-9a-f' '1-9a-f0')
[ "$other" != "$sum" ] || fail "could not make a different hash"
row() { printf '%s\tsha256:%s\t%s\t*\tdeny\treviewed\ttest\t10-inspect-rules-hash\\n' "$1" "$2" "$3"; }

# 1. No user table: the built-in rows are scoped to other libraries.
run "" "$co"
[ "$(hashed)" = 0 ] || fail "built-in tables: $(hashed) code objects hashed, want 0 ($(cat "$tmp/err"))"
[ "$(demangled)" = 0 ] || fail "built-in tables: $(demangled) names demangled, want 0"
[ -z "$(rules_of _Z9fill_iotaPii)" ] || fail "built-in tables: a rule on fill_iota: $(rules_of _Z9fill_iotaPii)"

# 2. The code object's own hash: the row shows on fill_iota only, one hash taken.
run "$(row '_Z9fill_iota*' "$sum" gfx1031)" "$co"
[ "$(rules_of _Z9fill_iotaPii)" = "deny:sha256:$sum" ] || fail "own hash: fill_iota rules '$(rules_of _Z9fill_iotaPii)'"
[ -z "$(rules_of _Z9scale_addPfPKffi)" ] || fail "own hash: scale_add rules '$(rules_of _Z9scale_addPfPKffi)'"
[ "$(hashed)" = 1 ] || fail "own hash: $(hashed) code objects hashed, want 1"
[ "$(demangled)" = 0 ] || fail "own hash: '_Z' pattern demangled $(demangled) names, want 0"

# 3. Another hash: computed (the pattern matches), the row does not apply.
run "$(row '_Z9fill_iota*' "$other" gfx1031)" "$co"
[ -z "$(rules_of _Z9fill_iotaPii)" ] || fail "other hash: fill_iota rules '$(rules_of _Z9fill_iotaPii)'"
[ "$(hashed)" = 1 ] || fail "other hash: $(hashed) code objects hashed, want 1"

# 4. A pattern on the demangled name: every name demangled, the row shows.
run "$(row 'fill_iota(int*, int)' "$sum" gfx1031)" "$co"
[ "$(rules_of _Z9fill_iotaPii)" = "deny:sha256:$sum" ] || fail "demangled pattern: fill_iota rules '$(rules_of _Z9fill_iotaPii)'"
[ "$(demangled)" = 2 ] || fail "demangled pattern: $(demangled) names demangled, want 2"
[ "$(hashed)" = 1 ] || fail "demangled pattern: $(hashed) code objects hashed, want 1"

# 5. Rows that cannot apply: another card, or a pattern naming no kernel here.
run "$(row '_Z9fill_iota*' "$sum" gfx1101)$(row '_Z8no_such*' "$sum" gfx1031)" "$co"
[ "$(hashed)" = 0 ] || fail "rows that cannot apply: $(hashed) code objects hashed, want 0"
[ -z "$(rules_of _Z9fill_iotaPii)" ] || fail "rows that cannot apply: fill_iota rules '$(rules_of _Z9fill_iotaPii)'"

# 6. A bundle: the hash is of the entry shown (gfx1030's, mapped for gfx1031),
#    computed here from the entry's offset and size in the file.
bu="$fx/bundle/iota.bundle"
run "" "$bu"
esum=$(python3 - "$tmp/out.json" "$bu" <<'PY'
import hashlib, json, sys
j = json.load(open(sys.argv[1]))
b = j["files"][0]["bundles"][0]
e = [e for e in b["entries"] if e["target"] == b["kernels_of"]][0]
with open(sys.argv[2], "rb") as f:
    f.seek(e["offset"])
    print(hashlib.sha256(f.read(e["size"])).hexdigest())
PY
)
[ ${#esum} -eq 64 ] || fail "bundle: no entry hash ($esum)"
run "$(row '_Z9scale_add*' "$esum" rdna2)" "$bu"
[ "$(rules_of _Z9scale_addPfPKffi)" = "deny:sha256:$esum" ] || fail "bundle: scale_add rules '$(rules_of _Z9scale_addPfPKffi)'"
[ -z "$(rules_of _Z9fill_iotaPii)" ] || fail "bundle: fill_iota rules '$(rules_of _Z9fill_iotaPii)'"
[ "$(hashed)" = 1 ] || fail "bundle: $(hashed) code objects hashed, want 1"

[ "$fails" -eq 0 ] && echo "10-inspect-rules-hash: ok" || { echo "10-inspect-rules-hash: $fails failure(s)" >&2; exit 1; }
