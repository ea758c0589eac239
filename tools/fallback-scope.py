#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fallback-scope.py — the code-object hashes that scope the `fallback:` rows
of tables/kernels.tsv to the library builds whose launch contract was checked
(docs/RULES.md "Fallback rows name builds").

For each fallback row whose library glob matches a LIB's file name, the code
objects of LIB holding kernels the row's pattern matches (mangled name,
fnmatch) are found with `rdnacompat inspect --gpu T --opt-in --kernels --sha256
--json`, once per target T of the row: the hash is that of the entry the shim
would run on T (`kernels_sha256`, the same bytes the shim hashes).

    fallback-scope.py [--rdnacompat BIN] TABLE LIB...           list: row, target, sha256
    fallback-scope.py [--rdnacompat BIN] --check TABLE LIB...   exit 1 unless the rows' hashes
                                                                are exactly LIBs' hashes
    fallback-scope.py [--rdnacompat BIN] --rows TABLE LIB...    the fallback rows for LIBs'
                                                                hashes: rows already in TABLE
                                                                as they are, others
                                                                `provisional` (their launch
                                                                contract is not checked)
"""
import argparse
import fnmatch
import json
import os
import subprocess
import sys

COLS = ["pattern", "scope", "targets", "runtime", "action", "status", "reason", "source"]


def read_rows(path):
    rows = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#") or line.startswith("pattern\t"):
            continue
        f = line.split("\t")
        if len(f) != len(COLS):
            sys.exit("%s:%d: %d fields, want %d" % (path, n, len(f), len(COLS)))
        r = dict(zip(COLS, f))
        if not r["action"].startswith("fallback:"):
            continue
        lib, _, sha = r["scope"].partition("+sha256:")
        if r["scope"].startswith("sha256:"):
            lib, sha = "*", r["scope"][7:]
        r["lib"], r["sha"], r["line"] = lib, sha or None, n
        rows.append(r)
    return rows


def kernels_by_hash(tool, lib, target, cache):
    """{sha256: [kernel names]} of LIB's code objects as the shim runs them on target."""
    key = (lib, target)
    if key not in cache:
        p = subprocess.run([tool, "inspect", "--gpu", target, "--opt-in", "--kernels", "--json", "--sha256", lib],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode not in (0, 1):  # 1: some bundle missing on this target
            sys.exit("%s inspect %s: %s" % (tool, lib, p.stderr.decode(errors="replace").strip()))
        out = {}
        for f in json.loads(p.stdout)["files"]:
            for b in f.get("bundles", []):
                if b.get("kernels_sha256"):
                    out.setdefault(b["kernels_sha256"], []).extend(k["name"] for k in b["kernels"])
        cache[key] = out
    return cache[key]


def found(tool, rows, libs):
    """{(pattern, lib glob, targets, runtime, action): {sha256: [(LIB, target)]}}"""
    cache, want = {}, {}
    for r in rows:
        g = want.setdefault((r["pattern"], r["lib"], r["targets"], r["runtime"], r["action"]), {})
        for lib in libs:
            if not fnmatch.fnmatchcase(os.path.basename(lib), r["lib"]):
                continue
            for t in r["targets"].split(","):
                if not t.startswith("gfx"):
                    sys.exit("row %d: target '%s' is not a processor (families are not expanded here)"
                             % (r["line"], t))
                for sha, names in kernels_by_hash(tool, lib, t, cache).items():
                    if any(fnmatch.fnmatchcase(k, r["pattern"]) for k in names):
                        g.setdefault(sha, []).append((lib, t))
    return want


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rdnacompat", default=os.environ.get("RDNACOMPAT", "rdnacompat"))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--rows", action="store_true")
    ap.add_argument("table")
    ap.add_argument("libs", nargs="+")
    a = ap.parse_args()
    rows = read_rows(a.table)
    want = found(a.rdnacompat, rows, a.libs)
    if a.check:
        bad = 0
        for key, hashes in want.items():
            have = {r["sha"] for r in rows
                    if (r["pattern"], r["lib"], r["targets"], r["runtime"], r["action"]) == key}
            if not hashes:
                print("%s: row %s: no code object of %s holds a kernel it matches"
                      % (a.table, key[0], " ".join(a.libs)))
                bad += 1
                continue
            for sha in sorted(set(hashes) - have):
                print("%s: row %s names no sha256:%s — the code object of %s holding those kernels "
                      "(on %s); the library is not a build whose launch contract was checked (a new "
                      "package version?): check it (tests 62-fallback-abi, 83-exec-fallback), then "
                      "add its rows (fallback-scope.py --rows)"
                      % (a.table, key[0], sha, hashes[sha][0][0], ",".join(sorted({t for _, t in hashes[sha]}))))
                bad += 1
            for sha in sorted(h for h in have - set(hashes) if h):
                print("%s: row %s names sha256:%s, which no code object of %s has"
                      % (a.table, key[0], sha, " ".join(a.libs)))
                bad += 1
            if None in have:
                print("%s: row %s has no sha256 scope" % (a.table, key[0]))
                bad += 1
        print("fallback-scope: %s (%d row groups, %d libraries)" % ("ok" if not bad else "%d differences" % bad,
                                                                  len(want), len(a.libs)))
        return 1 if bad else 0
    for key, hashes in want.items():
        pattern, lib, targets, runtime, action = key
        old = {r["sha"]: r for r in rows
               if (r["pattern"], r["lib"], r["targets"], r["runtime"], r["action"]) == key}
        for sha in sorted(hashes):
            if a.rows:
                r = old.get(sha)
                if r:
                    print("\t".join(r[c] for c in COLS))
                else:
                    proto = next(iter(old.values()))
                    print("\t".join([pattern, "%s+sha256:%s" % (lib, sha), targets, runtime, action,
                                     "provisional",
                                     "as the other rows of this pattern, for another build (%s); its launch "
                                     "contract is not checked" % os.path.basename(hashes[sha][0][0]),
                                     proto["source"]]))
            else:
                print("%s\t%s\t%s" % (pattern, ",".join(sorted({t for _, t in hashes[sha]})), sha))
    return 0


if __name__ == "__main__":
    sys.exit(main())
