#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shim-nonrocm.sh [N] [BUILD] — what LD_PRELOAD of the shim costs a process
# that never touches ROCm: `/bin/true` and `python3 -c pass`, each with and
# without LD_PRELOAD=BUILD/librdnacompat.so, N rounds of all four,
# interleaved (bench/interleave.py; the child is spawned straight from the
# harness, without `env`, so the figure is fork+exec+run+exit+reap of the
# command alone, plus the harness's own constant spawn cost on both sides).
# Prints medians, p10-p90, the ratio and the absolute delta per command.
# PY (default /usr/bin/python3, Debian's) is the interpreter started: not a
# wrapper such as a pyenv shim, which is a bash script starting a dozen
# processes (each of which would load the shim).
# Defaults: N=300, BUILD=build.
set -euo pipefail
n=${1:-300}
B=$(cd "${2:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$B/librdnacompat.so" ] || { echo "no $B/librdnacompat.so (make BUILD=$B)" >&2; exit 2; }
py=${PY:-/usr/bin/python3}
[ -x "$py" ] && head -c 4 "$py" | grep -q ELF || { echo "$py is not an ELF interpreter (set PY)" >&2; exit 2; }
echo "$(nproc) CPUs; $(date -u +%FT%TZ)"
echo "== /bin/true"
python3 "$here/interleave.py" -n "$n" -w 5 \
  "plain=/bin/true" "shim=LD_PRELOAD=$B/librdnacompat.so /bin/true"
echo "== python3 -c pass"
python3 "$here/interleave.py" -n "$n" -w 5 \
  "plain=$py -c pass" "shim=LD_PRELOAD=$B/librdnacompat.so $py -c pass"
