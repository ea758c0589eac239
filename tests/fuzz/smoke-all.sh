#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# smoke-all.sh BUILD [SECONDS] — run the fuzzers of user and cache input
# briefly (default 20 s each): target ids, the tables file, the decision
# cache loader and the __hipRegisterFatBinary wrapper path
# (tests/fuzz/fuzz_{target,tables,dcache,fatbin,kpack}.c), each seeded from real
# inputs: target names and bundle ids, the shipped tables/*.tsv as override
# sections, decision-cache records laid out like the shim writes them, the
# fixture bundles and the host fixtures' .hip_fatbin sections, kpack archives.  Findings go
# to BUILD/fuzz/findings/; each target's final stats to
# BUILD/fuzz/stats-<target>.txt.  Exit 0 when no finding.
set -euo pipefail
build=${1:?usage: smoke-all.sh BUILD [SECONDS]}
secs=${2:-20}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$build/fuzz/findings"
seeds() { local d="$build/fuzz/corpus-$1"; mkdir -p "$d"; echo "$d"; }

d=$(seeds target)
i=0
for s in gfx1031 gfx90a:xnack+ gfx90a:sramecc-:xnack+ amdgcn-amd-amdhsa--gfx1030 \
         amdgcn-amd-amdhsa--gfx1100:xnack- gfx11-generic gfx10-3-generic gfx1151 \
         hipv4-amdgcn-amd-amdhsa--gfx1030 hip-amdgcn-amd-amdhsa--gfx906:xnack- \
         host-x86_64-unknown-linux-gnu hipv4-amdgcn-amd-amdhsa--gfx12-generic; do
  i=$((i+1)); printf '%s' "$s" >"$d/seed-$i"
done

d=$(seeds tables)
for t in "$src"/tables/*.tsv; do
  name=$(basename "$t" .tsv)
  { echo "[$name]"; head -c 16384 "$t"; } >"$d/seed-$name"
done
printf '[compat]\ngfx1031\tgfx1030\t1\topt-in\tseed\n' >"$d/seed-small"

d=$(seeds dcache)
python3 - "$d" <<'PY'
import struct, sys
out = sys.argv[1]
def target(proc, x=0, s=0):
    return proc.encode().ljust(26, b'\0') + bytes([x, s])
def rec(off, verdict, entry, patches=(), refused=()):
    # struct rdc_dc_rec (952 bytes), its refused-kernel triples, its patches;
    # entry: the chosen entry's id (None: no entry) and size
    r = bytearray(952)
    struct.pack_into('<Q', r, 0, off)
    r[8:36] = target('gfx1031')
    struct.pack_into('<ii', r, 36, verdict, 1 if patches else 0)
    if entry:
        r[44:44 + len(entry[0])] = entry[0]
        struct.pack_into('<Q', r, 304, entry[1])
    r[320:348] = target('gfx1030')
    struct.pack_into('<II', r, 348, 1, len(patches))
    struct.pack_into('<QQQ', r, 360, 3, len(refused), 1)
    r[384:384 + 20] = b'no gfx1031 entry ...'
    ref = b''.join(b'%s\0%s\0%s\0' % t for t in refused)
    struct.pack_into('<II', r, 944, len(refused), len(ref))
    pt = bytearray(80 * len(patches))
    for i, (po, pb) in enumerate(patches):
        struct.pack_into('<QI', pt, i * 80, po, len(pb))
        pt[i * 80 + 12:i * 80 + 12 + len(pb)] = pb
    return bytes(r) + ref + bytes(pt)
e1030 = (b'hipv4-amdgcn-amd-amdhsa--gfx1030', 9000)
recs = [rec(0, 0, e1030), rec(4096, 1, e1030, [(48, b'\x31\x00\x00\x00'), (5000, b'gfx1031')]),
        rec(12288, 1, e1030, [(48, b'\x31\x00\x00\x00')] + [(6000 + 200 * i, b'gfx1031') for i in range(8)]),
        rec(8192, 2, None, refused=[(b'fill_iota', b'vgpr', b'needs 256')])]
for i, r in enumerate(recs):
    open(f'{out}/seed-rec{i}', 'wb').write(bytes([0, 1, 0]) + r)
open(f'{out}/seed-all', 'wb').write(bytes([0, len(recs), 0]) + b''.join(recs))
PY

d=$(seeds fatbin)
for b in "$build"/fixtures/bundle/*.bundle "$build"/fixtures/policy/*.bundle "$build"/fixtures/codeobj/*.bundle; do
  [ -s "$b" ] && cp "$b" "$d/seed-$(basename "$b")"
done
for h in "$build"/fixtures/host/*.so; do
  [ -s "$h" ] && objcopy -O binary --only-section=.hip_fatbin "$h" "$d/seed-fatbin-$(basename "$h")" 2>/dev/null || true
done
# Real inputs cut small (tests/fuzz/cut_bundle.py, 16 KiB each): the host's
# librocsparse fat binary and, where the roots are built, two Tensile code
# objects of a root's rocBLAS.  Absent files are skipped.
real=()
for f in /usr/lib/x86_64-linux-gnu/librocsparse.so.0 /opt/rocm/lib/librocsparse.so.0; do
  [ -s "$f" ] && { real+=("$f"); break; }
done
while IFS= read -r f; do real+=("$f"); done < <(ls /var/cache/rdnacompat/roots/*/usr/lib/x86_64-linux-gnu/rocblas/*/library/TensileLibrary_*gfx1030*.co 2>/dev/null | head -2)
[ ${#real[@]} -eq 0 ] || echo "fuzz-smoke (fatbin): $(python3 "$src/tests/fuzz/cut_bundle.py" "$d" seed-cut 16384 "${real[@]}") seeds cut from ${#real[@]} real files"

# kpack archives: rocm-kpack's test assets, archives of the fixture code
# objects in both schemes (rdnacompat kpack pack) and a marker.
d=$(seeds kpack)
cp "$src"/tests/fixtures/kpack/*.kpack "$d/" 2>/dev/null || true
for co in "$build"/fixtures/codeobj/iota-gfx1030-v5.co; do
  [ -s "$co" ] || continue
  for s in none zstd; do
    "$build/bin/rdnacompat" kpack pack -o "$d/seed-$s.kpack" --group demo_lib --compression "$s" \
      "demo/lib/libdemo.so#0=gfx1030=$co" >/dev/null 2>&1 || true
  done
done
"$build/bin/rdnacompat" kpack ref -o "$d/seed-marker" --kernel-name demo/lib/libdemo.so \
  ../.kpack/demo_lib_@GFXARCH@.kpack >/dev/null 2>&1 || true

rc=0
for t in target tables dcache fatbin kpack; do
  c="$build/fuzz/corpus-$t"
  echo "fuzz-smoke ($t): $(ls "$c" | wc -l) seeds, ${secs}s"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
  "$build/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -artifact_prefix="$build/fuzz/findings/$t-" -print_final_stats=1 \
    "$c" >"$build/fuzz/log-$t.txt" 2>&1 || { rc=1; echo "fuzz-smoke ($t): FINDING" >&2; }
  grep -E "^(#[0-9]+.*DONE|stat::)|ERROR|SUMMARY" "$build/fuzz/log-$t.txt" | tail -8 |
    tee "$build/fuzz/stats-$t.txt"
done
exit $rc
