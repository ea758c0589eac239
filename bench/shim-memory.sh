#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shim-memory.sh [N] [BUILD] — the resident memory the shim adds to the
# librocsparse program (bench/sparse_run.c) on a simulated gfx1031 (the
# simulator does not execute kernels), against the same program under
# HSA_OVERRIDE_GFX_VERSION=10.3.0 without the shim; N rounds of the two,
# alternating, in one run.  Each run writes, right before it returns, its
# /proc/self/status (VmHWM = peak RSS, VmRSS, RssAnon, RssFile), its
# /proc/self/smaps, and where the dynamic loader mapped librocsparse.
# smaps entries are split into:
#   image        librocsparse mapped by the dynamic loader (its PT_LOAD ranges)
#   shim-file    other mappings of the librocsparse file: the shim's rebuilt
#                bundles (original bundle + added entry, MAP_PRIVATE)
#   shim-header  the anonymous header page(s) right before each of those
#   other        everything else (heap, other libraries, simulated VRAM, ...)
# Goal: memory the shim adds <= 5% of the chosen code objects' size (the
# sum of the chosen entries in `rdnacompat inspect --gpu gfx1031 --json`).
# Defaults: N=5, BUILD=build.
set -euo pipefail
n=${1:-5}
B=$(cd "${2:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
lib=$bench_rocsparse
bench_need_build "$B" tool
bench_need_rocsparse
prog=$(bench_sparse_run "$B")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$B/bin/rdnacompat" inspect --gpu gfx1031 --json "$lib" >"$tmp/inspect.json" || [ $? -eq 1 ]
common="LD_PRELOAD=$B/sim/librdnacompat-sim.so HSA_ENABLE_SDMA=0 RDNACOMPAT_SIM_GPUS=gfx1031"
for ((i = 0; i < n; i++)); do
  if ((i % 2)); then order="ovr shim"; else order="shim ovr"; fi
  for w in $order; do
    if [ $w = shim ]; then
      env $common LD_PRELOAD="$B/sim/librdnacompat-sim.so:$B/librdnacompat.so" "$prog" "$tmp/shim.$i" >/dev/null
    else
      env $common HSA_OVERRIDE_GFX_VERSION=10.3.0 "$prog" "$tmp/ovr.$i" >/dev/null
    fi
  done
done
echo "simulated card (kernels dispatched, not executed); $(date -u +%FT%TZ)"
python3 - "$tmp" "$n" <<'PY'
import json, re, statistics as st, sys
d, n = sys.argv[1], int(sys.argv[2])
js = json.load(open(d + "/inspect.json"))
chosen = 0
for f in js["files"]:
    for b in f["bundles"]:
        if b.get("chosen"):
            es = [e for e in b["entries"] if e["target"] == b["chosen"]]
            chosen += es[0]["size"]
MiB = 2 ** 20

def load(path):
    img, status, maps, cur, sec = [], {}, [], None, None
    for line in open(path):
        if line.startswith("image "):
            a, b = line.split()[1:]
            img.append((int(a, 16) // 4096 * 4096, (int(b, 16) + 4095) // 4096 * 4096))
        elif line.startswith("== "):
            sec = line[3:].strip()
        elif sec == "/proc/self/status":
            k, _, v = line.partition(":")
            if v.strip().endswith("kB"):
                status[k] = int(v.split()[0]) * 1024
        elif re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            w = line.split()
            a, b = (int(x, 16) for x in w[0].split("-"))
            cur = {"start": a, "end": b, "path": w[5] if len(w) > 5 else ""}
            maps.append(cur)
        elif cur is not None and line.split(":")[0] in ("Rss", "Private_Dirty", "Private_Clean", "Shared_Clean", "Shared_Dirty"):
            k, v = line.split(":")
            cur[k] = int(v.split()[0]) * 1024
    for m in maps:
        if "librocsparse" in m["path"]:
            m["cat"] = "image" if any(m["start"] < b and a < m["end"] for a, b in img) else "shim-file"
    starts = {m["start"] for m in maps if m.get("cat") == "shim-file"}
    for m in maps:
        if "cat" not in m:
            m["cat"] = "shim-header" if m["path"] == "" and m["end"] in starts else "other"
    return status, maps

cats = ("image", "shim-file", "shim-header", "other")
keys = ("Rss", "Private_Dirty", "Private_Clean", "Shared_Clean")
rows = {"shim": [], "ovr": []}
for i in range(n):
    for w in rows:
        status, maps = load(f"{d}/{w}.{i}")
        r = {k: status.get(k, 0) for k in ("VmHWM", "VmRSS", "RssAnon", "RssFile")}
        for c in cats:
            ms = [m for m in maps if m["cat"] == c]
            r[c + ".n"] = len(ms)
            r[c + ".Size"] = sum(m["end"] - m["start"] for m in ms)
            for k in keys:
                r[c + "." + k] = sum(m.get(k, 0) for m in ms)
        r["Private_Dirty"] = sum(m.get("Private_Dirty", 0) for m in maps)
        rows[w].append(r)

def med(w, k): return st.median(r[k] for r in rows[w])
def rng(w, k): return min(r[k] for r in rows[w]), max(r[k] for r in rows[w])
print(f"chosen gfx1030 code objects (rdnacompat inspect --gpu gfx1031): {chosen / MiB:.1f} MiB; "
      f"5% = {0.05 * chosen / MiB:.2f} MiB; rounds: {n}")
print(f"{'median over rounds, MiB':<34} {'shim':>9} {'override':>9} {'added':>9}  {'% of chosen':>11}  shim min..max")
def line(label, k, pct=True):
    s, o = med("shim", k), med("ovr", k)
    lo, hi = rng("shim", k)
    p = f"{100 * (s - o) / chosen:10.2f}%" if pct else ""
    print(f"{label:<34} {s / MiB:9.2f} {o / MiB:9.2f} {(s - o) / MiB:+9.2f}  {p:>11}  {lo / MiB:.2f}..{hi / MiB:.2f}")
line("peak RSS (VmHWM)", "VmHWM")
line("RSS at exit (VmRSS)", "VmRSS")
line("  RssAnon", "RssAnon")
line("  RssFile", "RssFile")
line("Private_Dirty, whole process", "Private_Dirty")
for c in cats:
    for k in ("Size",) + keys:
        line(f"{c} ({int(med('shim', c + '.n'))} maps) {k}" if k == "Size" else f"  {c} {k}", c + "." + k)
sp = [r["shim-file.Private_Dirty"] + r["shim-header.Private_Dirty"] for r in rows["shim"]]
print(f"shim remap regions, Private_Dirty (file + header): median {st.median(sp) / MiB:.2f} MiB = "
      f"{100 * st.median(sp) / chosen:.2f}% of the chosen code objects (goal <= 5%)")
PY
