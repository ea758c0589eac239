#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 6.4 7.2
# 72-inspect-dirs.sh BUILD — `rdnacompat inspect DIR` on the release's real
# directories inside the Debian roots: rocBLAS's library directory (Tensile
# .dat MessagePack libraries and per-arch code objects, ~1,350-1,900 files),
# MIOpen's database directory and the whole library directory (librocblas,
# librocsparse, ggml's libggml-hip.so inspected as libraries).  Checked
# against the files themselves (find/ls counts, not hard-coded numbers):
# every file counted once, per-target counts, what the shim's redirection
# would do for gfx1031 (gfx1030's files), gfx1100 (its own), gfx1151 (its own
# where rocBLAS ships it, else only with --opt-in), --json agreeing with the
# text; a made-up directory with a good and a bad .dat, a SQLite .kdb, a
# symlink to the good .dat (the same file: counted once) and a text file;
# a MIOpen .model beside a Tensile .dat: per-arch, but not redirected.
set -u
BUILD=${1:?usage: $0 BUILD}
rel=${RDC_ROCM:?RDC_ROCM unset: run through tests/run-integration.sh}
fail() { echo "FAIL [ROCm $rel]: $*" >&2; exit 1; }
ok() { echo "ok [ROCm $rel]: $*"; }
tool=$BUILD/bin/rdnacompat
[ -x "$tool" ] || { echo "skip: no $tool" >&2; exit 77; }
lib=/usr/lib/x86_64-linux-gnu
blas=$(ls -d $lib/rocblas/*/library 2>/dev/null | sort -V | tail -1)   # the newest (7.2 keeps 4.4.1 for ggml)
[ -n "$blas" ] || { echo "skip: rocBLAS not installed" >&2; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# --- rocBLAS's library directory ---------------------------------------------
nfiles=$(find "$blas" -type f | wc -l)
n1030=$(ls "$blas" | grep -c 'gfx1030[^0-9]')
d1030=$(ls "$blas" | grep -c 'gfx1030\.dat$')
start=$(date +%s%N)
"$tool" inspect --gpu gfx1031 "$blas" >"$tmp/t" 2>"$tmp/e" || fail "inspect --gpu gfx1031 $blas: rc $?: $(cat "$tmp/e")"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q "^$blas: directory: $nfiles files: " "$tmp/t" || fail "summary line does not count $nfiles files: $(tail -3 "$tmp/t")"
grep -q " gfx1030 ($n1030)" "$tmp/t" || fail "gfx1030 files: expected $n1030: $(grep 'by target' "$tmp/t")"
grep -q "gfx1031: no per-arch files of its own; the shim redirects gfx1031 names to gfx1030 (compat rank 1): $n1030 files" "$tmp/t" ||
  fail "redirection for gfx1031: $(grep gfx1031 "$tmp/t")"
[ ! -s "$tmp/e" ] || fail "stderr on a real rocBLAS directory: $(head -3 "$tmp/e")"
ok "rocBLAS $blas: $nfiles files counted, gfx1030's $n1030 named, gfx1031 redirected to them ($ms ms)"

"$tool" inspect --gpu gfx1031 --json "$blas" >"$tmp/j" || fail "--json rc $?"
python3 - "$tmp/j" "$blas" "$nfiles" "$d1030" <<'PY' || fail "--json disagrees"
import json, sys
d = json.load(open(sys.argv[1]))
o = [f for f in d["files"] if f.get("kind") == "directory"]
assert len(o) == 1 and o[0]["path"] == sys.argv[2], o
o = o[0]
assert o["files"] == int(sys.argv[3]), (o["files"], sys.argv[3])
assert o["per_arch"]["gfx1030"]["tensile-dat"] == int(sys.argv[4]), o["per_arch"]["gfx1030"]
assert o["data_files"] == {"verdict": "redirected", "target": "gfx1030", "rank": 1,
                           "files": sum(o["per_arch"]["gfx1030"].values())}, o["data_files"]
assert "gfx1031" not in o["per_arch"]
PY
ok "--json: the directory object agrees (files, gfx1030's Tensile .dat count, redirected to gfx1030)"

"$tool" inspect --gpu gfx1100 "$blas" | grep -q "gfx1100: [0-9]* per-arch files of its own (native)" || fail "gfx1100 not native"
if ls "$blas" | grep -q 'gfx1151[^0-9]'; then
  "$tool" inspect --gpu gfx1151 "$blas" | grep -q "gfx1151: [0-9]* per-arch files of its own (native)" || fail "gfx1151 not native"
  ok "gfx1100 and gfx1151 have files of their own in this rocBLAS"
else
  RDNACOMPAT_OPT_IN=0 "$tool" inspect --gpu gfx1151 "$blas" | grep -q "gfx1151: no per-arch files for it or a compatible target (missing; opt-in edges not used)" ||
    fail "gfx1151 without opt-in: $("$tool" inspect --gpu gfx1151 "$blas" | grep gfx1151)"
  "$tool" inspect --gpu gfx1151 --opt-in "$blas" | grep -q "the shim redirects gfx1151 names to gfx11" ||
    fail "gfx1151 with --opt-in: $("$tool" inspect --gpu gfx1151 --opt-in "$blas" | grep gfx1151)"
  ok "gfx1100 native; gfx1151 has no rocBLAS files: missing, redirected with --opt-in"
fi

# --- MIOpen's databases ------------------------------------------------------
if [ -d /usr/share/miopen/db ]; then
  m=/usr/share/miopen/db
  nm=$(find "$m" -type f | wc -l)
  "$tool" inspect --gpu gfx1031 "$m" >"$tmp/m" 2>&1 || fail "inspect $m: $(cat "$tmp/m")"
  grep -q "^$m: directory: $nm files: 0 libraries with device code, $nm per-arch data files" "$tmp/m" ||
    fail "MIOpen db: $(tail -2 "$tmp/m")"
  ok "MIOpen $m: all $nm files recognised as per-arch databases/models"
fi

# --- the library directory: libraries with device code -----------------------
"$tool" inspect --gpu gfx1031 "$lib" >"$tmp/l" 2>"$tmp/le"; rc=$?
[ $rc -le 1 ] || fail "inspect $lib: rc $rc: $(head -3 "$tmp/le")"
real=$(readlink -f $lib/librocblas.so.[0-9])
grep -qE "^  ${real#$lib/}: [0-9]+ bundles: 0 native, [0-9]+ mapped, 0 missing$" "$tmp/l" ||
  fail "librocblas line: $(grep librocblas "$tmp/l")"
if [ -f $lib/ggml/backends0/libggml-hip.so ]; then
  grep -qE "^  ggml/backends0/libggml-hip.so: 140 bundles: 0 native, 140 mapped, 0 missing$" "$tmp/l" ||
    fail "libggml-hip line: $(grep ggml "$tmp/l")"
fi
n=$(grep -cE '^  [^ ]+: [0-9]+ bundles?' "$tmp/l")
grep -qE "^$lib: directory: [0-9]+ files: $n librar(y|ies) with device code" "$tmp/l" || fail "lib summary: $(tail -2 "$tmp/l")"
ok "$lib: $n libraries with device code, one line each (librocblas, libggml-hip: all bundles mapped for gfx1031)"

# --- a made-up directory ------------------------------------------------------
d=$tmp/dir; mkdir -p "$d/sub"
printf '\x82\xa1a\x01\xa1b\x92\x01\x02' >"$d/TensileLibrary_lazy_gfx1030.dat"
printf 'not msgpack\n' >"$d/TensileLibrary_lazy_gfx1100.dat"
printf 'SQLite format 3\0rest' >"$d/sub/gfx1030_36.kdb"
printf 'key=value\n' >"$d/gfx1102_30.HIP.fdb.txt"
echo hello >"$d/README"
ln -s TensileLibrary_lazy_gfx1030.dat "$d/link_gfx1030.dat"
"$tool" inspect --gpu gfx1031 "$d" >"$tmp/d" 2>"$tmp/de" || fail "made-up dir: rc $?"
grep -q "^$d: directory: 5 files: 0 libraries with device code, 3 per-arch data files for 2 targets, 1 other file (some unrecognised: see stderr)" "$tmp/d" ||
  fail "made-up dir summary: $(cat "$tmp/d")"
grep -q "TensileLibrary_lazy_gfx1100.dat: .dat but not a MessagePack map" "$tmp/de" || fail "bad .dat not named: $(cat "$tmp/de")"
grep -q "per-arch files by kind: tensile-dat 1 miopen-text-db 1 miopen-db 1" "$tmp/d" || fail "kinds: $(cat "$tmp/d")"
grep -q "redirects gfx1031 names to gfx1030 (compat rank 1): 2 files" "$tmp/d" || fail "made-up redirect: $(cat "$tmp/d")"
ok "made-up directory: MessagePack .dat, SQLite .kdb and text db recognised, a bad .dat named on stderr, the symlink to a counted file counted once"

# What the shim's redirection would take is counted by the names it takes
# (shim/core/datafile.c, audit 2026-12-03 H1): a MIOpen model is a per-arch
# file, but not one the shim redirects.
d2=$tmp/dir2; mkdir -p "$d2"
printf '\x82\xa1a\x01\xa1b\x92\x01\x02' >"$d2/TensileLibrary_lazy_gfx1030.dat"
echo model >"$d2/gfx1030.tn.model"
"$tool" inspect --gpu gfx1031 "$d2" >"$tmp/d2" 2>"$tmp/d2e" || fail "model dir: rc $?"
grep -q "redirects gfx1031 names to gfx1030 (compat rank 1): 1 files (1 other per-arch files are not library data files the shim redirects)" "$tmp/d2" ||
  fail "model dir: $(cat "$tmp/d2")"
"$tool" inspect --json --gpu gfx1031 "$d2" | python3 -c 'import json,sys; d=[f for f in json.load(sys.stdin)["files"] if f.get("kind")=="directory"][0]; assert d["data_files"]["files"] == 1, d["data_files"]' ||
  fail "model dir --json: data_files.files is not 1"
ok "a MIOpen .model among gfx1030's files: counted as per-arch, not as redirected"

# MIOpen's per-arch CK libraries (libMIOpenCKGroupedConv_<target>.so, which
# the shim's dlopen hook redirects): a kind of their own, counted per target
# and as redirected; a file so named that is not ELF is unrecognised.
d3=$tmp/dir3; mkdir -p "$d3"
cp /bin/true "$d3/libMIOpenCKGroupedConv_gfx1030.so"
cp /bin/true "$d3/libMIOpenCKGroupedConv_gfx1100.so"
echo text >"$d3/libMIOpenCKGroupedConv_gfx1101.so"
"$tool" inspect --gpu gfx1031 "$d3" >"$tmp/d3" 2>"$tmp/d3e" || true
grep -q "per-arch files by kind: miopen-ck-so 2" "$tmp/d3" || fail "CK dir kinds: $(cat "$tmp/d3")"
grep -q "redirects gfx1031 names to gfx1030 (compat rank 1): 1 files" "$tmp/d3" || fail "CK dir redirect: $(cat "$tmp/d3")"
grep -q "libMIOpenCKGroupedConv_gfx1101.so: named like MIOpen's CK library but not an ELF file" "$tmp/d3e" ||
  fail "CK dir: the non-ELF one not named: $(cat "$tmp/d3e")"
"$tool" inspect --json --gpu gfx1031 "$d3" 2>/dev/null | python3 -c '
import json,sys
d=[f for f in json.load(sys.stdin)["files"] if f.get("kind")=="directory"][0]
assert d["per_arch"]["gfx1030"] == {"miopen-ck-so": 1} and d["per_arch"]["gfx1100"] == {"miopen-ck-so": 1}, d["per_arch"]
assert d["data_files"]["files"] == 1, d["data_files"]' || fail "CK dir --json"
ok "MIOpen CK libraries: kind miopen-ck-so per target, gfx1031 redirected to gfx1030's, a non-ELF one named"
