#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# smoke.sh BUILD [SECONDS] — run the bundle fuzzer briefly (default 25 s) on a
# seed corpus made from the fixtures: each real bundle as raw input (mode
# byte 0x00) and as "compress me" input (0x80..0x85), plus CCOB v1/v2/v3
# files made with python's zlib and the zstd CLI.  Exit 0 when no finding.
set -euo pipefail
build=${1:?usage: smoke.sh BUILD [SECONDS]}
secs=${2:-25}
fz="$build/fuzz/fuzz_bundle"
corpus="$build/fuzz/corpus"
mkdir -p "$corpus" "$build/fuzz/findings"
n=0
for b in "$build"/fixtures/bundle/*.bundle; do
  [ -s "$b" ] || continue
  n=$((n+1))
  { printf '\000'; cat "$b"; } > "$corpus/raw-$n"
  for m in 80 81 82 83 84 85; do { printf "\\x$m"; cat "$b"; } > "$corpus/wrap-$m-$n"; done
  if command -v python3 >/dev/null; then
    python3 - "$b" "$corpus/ccob-$n" <<'PY'
import hashlib, struct, sys, zlib
src = open(sys.argv[1], 'rb').read()
h = struct.unpack('<Q', hashlib.md5(src).digest()[:8])[0]
z = zlib.compress(src, 6)
v1 = b'CCOB' + struct.pack('<HHIQ', 1, 0, len(src), h) + z
v2 = b'CCOB' + struct.pack('<HHIIQ', 2, 0, 24 + len(z), len(src), h) + z
v3 = b'CCOB' + struct.pack('<HHQQQ', 3, 0, 32 + len(z), len(src), h) + z
for i, v in enumerate((v1, v2, v3)):
    open(f'{sys.argv[2]}-v{i+1}', 'wb').write(b'\0' + v)
PY
  fi
done
[ "$n" -gt 0 ] || { echo "fuzz-smoke: no fixture bundles in $build/fixtures/bundle" >&2; exit 1; }
echo "fuzz-smoke: $(ls "$corpus" | wc -l) seeds, ${secs}s"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
"$fz" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
  -artifact_prefix="$build/fuzz/findings/" -print_final_stats=1 "$corpus" 2>&1 | tail -15
