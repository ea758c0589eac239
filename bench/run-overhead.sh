#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-overhead.sh [N] [BUILD] — what `rdnacompat run` adds over setting
# LD_PRELOAD by hand: `/bin/true` four ways, N rounds interleaved
# (bench/interleave.py, no `env` in between):
#   preload  LD_PRELOAD=BUILD/librdnacompat.so /bin/true (the reference)
#   run      BUILD/bin/rdnacompat run -- /bin/true
#   wrapper  a 3-line C program that sets LD_PRELOAD and execs (built here):
#            the floor of any launcher that execs, so the rest of run's cost
#            is the tool's own start-up
#   wrapper-libm  the same linked with libm, as the tool was before the
#            front end (BUILD/bin/rdnacompat is tools/front/, libc only)
#   old      with OLD=PATH: PATH run -- /bin/true (another build's
#            rdnacompat, e.g. one from before the front end)
# Goal (issue 37): run - preload <= 1 ms.  Prints medians, p10-p90, ratios
# and the paired deltas of wall and CPU (user+sys) time.
# Defaults: N=300, BUILD=build.
set -euo pipefail
n=${1:-300}
B=$(cd "${2:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$B/librdnacompat.so" ] && [ -x "$B/bin/rdnacompat" ] || { echo "no shim or tool in $B (make BUILD=$B)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/w.c" <<C
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
int main(int c, char **v)
{
	setenv("LD_PRELOAD", "$B/librdnacompat.so", 1);
#ifdef LIBM
	if (c > 999)
		return (int)sqrt((double)c);
#endif
	execv(v[1], v + 1);
	return 127;
}
C
cc -O2 -o "$tmp/w" "$tmp/w.c"
cc -O2 -DLIBM -o "$tmp/wm" "$tmp/w.c" -Wl,--no-as-needed -lm
echo "$(nproc) CPUs; $(date -u +%FT%TZ)"
python3 "$here/interleave.py" -n "$n" -w 5 --base preload \
  "preload=LD_PRELOAD=$B/librdnacompat.so /bin/true" "run=$B/bin/rdnacompat run -- /bin/true" \
  "wrapper=$tmp/w /bin/true" "wrapper-libm=$tmp/wm /bin/true" ${OLD:+"old=$OLD run -- /bin/true"}
