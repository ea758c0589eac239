#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# callgrind_work.py PREFIX NAME:BASE ... — the table of bench/startup-work.sh:
# for each PREFIX.NAME.cg (callgrind output, --compress-strings=no), the
# instructions executed outside libhsa-runtime64 (whose count is its polling,
# see startup-work.sh), those of librdnacompat.so itself, and the ratio of
# the first to that of column BASE.  Self costs only: a call line's cost is
# inclusive and skipped, as in callgrind_obj.py.
import sys
from collections import Counter


def per_object(path):
    ob = fn_ob = ""
    skip = False
    tot = Counter()
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("ob="):
                ob = line[3:].strip()
            elif line.startswith("fn="):
                fn_ob = ob
            elif line.startswith("calls="):
                skip = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if skip:
                    skip = False
                    continue
                parts = line.split()
                if len(parts) >= 2:
                    tot[fn_ob.rsplit("/", 1)[-1]] += int(parts[1])
    return tot


def main():
    prefix = sys.argv[1]
    cols = [a.split(":", 1) for a in sys.argv[2:]]
    work, shim = {}, {}
    for name, _ in cols:
        t = per_object(f"{prefix}.{name}.cg")
        work[name] = sum(v for k, v in t.items() if not k.startswith("libhsa-runtime64"))
        shim[name] = sum(v for k, v in t.items() if k.startswith("librdnacompat.so"))
    print(f"{'column':<10} {'instructions':>14} {'the shim':>12} {'vs':>6} {'ratio':>8} {'delta':>14}")
    for name, base in cols:
        r = work[name] / work[base]
        d = work[name] - work[base]
        print(f"{name:<10} {work[name]:>14,} {shim[name]:>12,} {base:>6} {r:>7.4f}x {d:>+14,}")


main()
