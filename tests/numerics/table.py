#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# table.py RESULTS.json — render run_numerics.py's results as the Markdown
# tables of docs/FALLBACKS.md (one row per case; timing rows).
import json
import sys

j = json.load(open(sys.argv[1]))
print("Card: %s (torch %s, CUDA %s)\n" % (j["device"], j["torch"], j["cuda"]))
print("| case | B | H/Hkv | L | S | DKQ/DV | mask | softcap | ALiBi | sinks | P | ncols1×ncols2 | threads | KV_max | max rel. err tile | max rel. err combine | |")
print("|---|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---|---:|---:|---|")
for c in j["cases"]:
    print("| %s | %d | %d/%d | %d | %d | %d/%d | %s | %g | %g | %s | %d | %d×%d | %d | %s | %.1e | %s | %s |" % (
        c["case"], c["B"], c["H"], c["Hkv"], c["L"], c["S"], c["DKQ"], c["DV"], c["mask"], c["softcap"],
        c["max_bias"], "yes" if c["sinks"] else "-", c["P"], c["ncols1"], c["ncols2"], c["threads"],
        "per tile" if c["kvmax"] else "-", c["err_tile"],
        "-" if c["err_combine"] is None else "%.1e" % c["err_combine"], "ok" if c["ok"] else "FAIL"))
if j.get("bench"):
    print("\n| shape | fallback (tile+combine) ms | SDPA ms | fallback / SDPA |")
    print("|---|---:|---:|---:|")
    for b in j["bench"]:
        print("| %s | %.3f | %.3f | %.1f× |" % (b["shape"], b["fallback_ms"], b["sdpa_ms"], b["ratio"]))
