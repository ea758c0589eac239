#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — the packages are installed into their own clean Debian 12 root (tests/packaging/deb-root.sh)
# 90-deb.sh BUILD — the Debian packages from scratch: `make deb`'s script
# (debian/build-deb.sh: dpkg-buildpackage, lintian without errors) builds
# them into BUILD/deb; they are installed with dpkg into a clean Debian 12
# root (minbase + Debian's HIP 5.2 runtime, cached in
# /var/cache/rdnacompat/roots), seen through an overlay so the cache stays
# clean; inside it, from the installed files only:
#   - the tool is on PATH, finds its shim, simulator and tables
#     (`rdnacompat doctor --json`: shim found under /usr/lib/<triplet>);
#   - the demo program (a gfx1030-only HIP program) runs on a simulated
#     RX 6700 XT (gfx1031) through `rdnacompat sim` + `rdnacompat run`: its
#     kernels computed what the CPU reference says, and the shim says it
#     retargeted gfx1030 code (simulated card (executed), not hardware);
#   - the autopkgtest's commands (debian/tests/control) pass: among them
#     `rdnacompat doctor --selftest` on the simulated card, which must run
#     gfx1030 code retargeted to gfx1031;
# then `dpkg --purge` leaves none of the packages' files, and the overlay's
# upper layer holds nothing but dpkg's own bookkeeping.
set -u
BUILD=${1:?usage: $0 BUILD}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (mount namespace, overlay, chroot)"
for t in dpkg-buildpackage dh lintian mmdebstrap unshare hipcc; do
  command -v "$t" >/dev/null || skip "$t is missing (make deps)"
done
T=${OUT:-$BUILD/tests-out}/deb
rm -rf "$T"; mkdir -p "$T/in"

# The packages, built as `make deb` builds them.
bash "$SRC/debian/build-deb.sh" "$BUILD/deb" >"$T/build.log" 2>&1 ||
  fail "make deb failed: $(tail -15 "$T/build.log")"
grep -q '^E: ' "$T/build.log" && fail "lintian errors: $(grep '^E: ' "$T/build.log")"
cp "$BUILD"/deb/rdnacompat_*.deb "$BUILD"/deb/librdnacompat-dev_*.deb "$T/in/"
cp "$SRC/debian/tests/control" "$T/in/tests-control"

# The demo program (tools/demo.sh's): a gfx1030-only HIP program.
hipcc --offload-arch=gfx1030 -O1 -o "$T/in/iota-gfx1030" "$SRC/tests/integration/progs/sim_iota.hip" \
  >"$T/hipcc.log" 2>&1 || fail "hipcc: $(tail -5 "$T/hipcc.log")"

# The clean root: cached; its packages are the packages' own dependencies
# (from the .debs) and Debian's HIP runtime.
deps=$(for d in "$T"/in/*.deb; do dpkg-deb -f "$d" Depends; echo ,; done | tr ',' '\n' |
  sed -E 's/\(.*\)//; s/\|.*//; s/ //g' | grep -vE '^$|^(lib)?rdnacompat' | sort -u)
root=$(bash "$SRC/tests/packaging/deb-root.sh" $deps libamdhip64-5) || {
  rc=$?; [ $rc -eq 77 ] && skip "the clean Debian root could not be built (tests/packaging/deb-root.sh)"
  fail "deb-root.sh: rc=$rc"; }

mkdir -p "$T/upper" "$T/work" "$T/merged"
cat >"$T/in/inside.sh" <<'IN'
#!/bin/bash
# Runs inside the overlay root: install, use, purge.
set -u
# The user's cache (the shim's decision cache) under /root, not the host's.
for v in $(env | sed -n 's/^\(RDNACOMPAT_[A-Z_0-9]*\|XDG_[A-Z_]*\|HSA_OVERRIDE_GFX_VERSION[_0-9]*\)=.*/\1/p'); do unset "$v"; done
export HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
o=/mnt/in/out
mkdir -p $o
bad() { echo "inside: $*" >&2; exit 1; }
dpkg -i /mnt/in/rdnacompat_*.deb /mnt/in/librdnacompat-dev_*.deb >$o/dpkg-i.log 2>&1 || bad "dpkg -i: $(tail -5 $o/dpkg-i.log)"
dpkg -L rdnacompat librdnacompat-dev >$o/files
command -v rdnacompat | grep -qx /usr/bin/rdnacompat || bad "rdnacompat is not on PATH"
rdnacompat --version >$o/version || bad "rdnacompat --version"
rdnacompat doctor --json >$o/doctor.json 2>$o/doctor.err; echo $? >$o/doctor.rc
cd /tmp
rdnacompat sim --gpu gfx1031 -- rdnacompat run --log-level info -- /mnt/in/iota-gfx1030 >$o/demo.out 2>&1
echo $? >$o/demo.rc
# The autopkgtest's commands (debian/tests/control), as autopkgtest runs
# them: each with sh -c, in a scratch directory.
n=0
sed -n 's/^Test-Command: //p' /mnt/in/tests-control | while IFS= read -r cmd; do
  n=$((n + 1))
  (cd "$(mktemp -d)" && sh -c "$cmd") >$o/autopkgtest-$n.out 2>&1
  echo $? >$o/autopkgtest-$n.rc
done
dpkg --purge rdnacompat librdnacompat-dev >$o/purge.log 2>&1 || bad "dpkg --purge: $(tail -5 $o/purge.log)"
# Every file the packages installed is gone (directories the base system
# has, /usr/bin etc., stay).
while IFS= read -r f; do
  [ -d "$f" ] && [ ! -L "$f" ] && continue
  [ -e "$f" ] || [ -L "$f" ] && echo "$f"
done <$o/files >$o/left
for d in /usr/share/rdnacompat /usr/lib/x86_64-linux-gnu/rdnacompat /usr/libexec/rdnacompat /usr/include/rdnacompat /usr/share/doc/rdnacompat; do
  [ -e "$d" ] && echo "$d" >>$o/left
done
rm -rf /tmp/* /root/.cache
exit 0
IN
chmod +x "$T/in/inside.sh"
unshare --mount --propagation private -- bash -c '
  set -e
  root=$1; T=$2
  mount -t overlay overlay -o "lowerdir=$root,upperdir=$T/upper,workdir=$T/work" "$T/merged"
  for b in /proc /dev /sys; do mount --rbind "$b" "$T/merged$b"; done
  mount -t tmpfs tmpfs "$T/merged/tmp"
  mkdir -p "$T/merged/mnt/in"; mount --bind "$T/in" "$T/merged/mnt/in"
  exec unshare --root="$T/merged" --wd=/ -- /mnt/in/inside.sh
' deb-root "$root" "$T" >"$T/inside.log" 2>&1 || fail "inside the root: $(tail -5 "$T/inside.log")"
o=$T/in/out
grep -q '0.1' "$o/version" || fail "rdnacompat --version: $(cat "$o/version")"
python3 - "$o/doctor.json" <<'PY' || fail "doctor: $(head -c 600 "$o/doctor.err")"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in d["checks"]}
s = c.get("shim") or {}
text = json.dumps(s)
assert "/usr/lib/x86_64-linux-gnu/librdnacompat.so" in text, "shim check: %s" % text
PY
[ "$(cat "$o/demo.rc")" = 0 ] || fail "the demo program under rdnacompat sim+run: rc=$(cat "$o/demo.rc"): $(tail -8 "$o/demo.out")"
grep -q "kernels: .*ok" "$o/demo.out" || fail "the demo's kernels did not check: $(tail -8 "$o/demo.out")"
grep -qi "gfx1030" "$o/demo.out" && grep -q "rdnacompat\[" "$o/demo.out" || fail "the shim said nothing of the gfx1030 code: $(tail -8 "$o/demo.out")"
ntc=$(grep -c '^Test-Command: ' "$SRC/debian/tests/control")
[ "$(ls "$o"/autopkgtest-*.rc 2>/dev/null | wc -l)" -eq "$ntc" ] || fail "ran $(ls "$o"/autopkgtest-*.rc | wc -l) of the $ntc autopkgtest commands"
for rc in "$o"/autopkgtest-*.rc; do
  [ "$(cat "$rc")" = 0 ] || fail "debian/tests/control command ${rc##*-}: rc=$(cat "$rc"): $(tail -12 "${rc%.rc}.out")"
done
# The first is the self-test on the simulated gfx1031.
grep -q "ran from: gfx1030 code retargeted to gfx1031" "$o/autopkgtest-1.out" ||
  fail "the self-test did not run retargeted gfx1030 code: $(tail -12 "$o/autopkgtest-1.out")"
[ -s "$o/left" ] && fail "files left after purge: $(head -5 "$o/left")"
# The overlay's upper layer: only dpkg's bookkeeping, logs and the ld.so cache.
left=$(cd "$T/upper" && find . -mindepth 1 ! -type d | sed 's|^\./||' |
  grep -vE '^(var/lib/dpkg/|var/log/|etc/ld\.so\.cache$|var/cache/ldconfig/|mnt/in$|tmp$|root/)' || true)
[ -z "$left" ] || fail "the purged root keeps: $(echo "$left" | head -5)"
rm -rf "$T/merged" "$T/work" "$T/upper"
echo "90-deb: ok (lintian: $(grep -c '^W: ' "$T/build.log") warnings, no errors; demo and self-test ran on a simulated gfx1031 from the installed files)"
