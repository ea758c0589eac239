# SPDX-License-Identifier: MIT
# tsan_ours.py LOG — of the ThreadSanitizer reports in LOG, how many are about
# the shim's own code: a data race whose racing accesses (first frame past
# the sanitizer's interceptors) are in librdnacompat.so, or any other kind
# of report naming it.  Prints "MINE ALL".
import re
import sys

text = open(sys.argv[1], errors="replace").read()
reports = text.split("WARNING: ThreadSanitizer: ")[1:]
mine = 0
for r in reports:
    kind = r.split("\n", 1)[0]
    if not kind.startswith("data race"):
        mine += "librdnacompat.so" in r
        continue
    # each access: its stack's first frame outside libtsan
    for block in re.split(r"\n  (?=Previous |Write |Read |Atomic )|\n  Location", r)[:2]:
        for fr in re.findall(r"#\d+ .*\((\S+?)\+0x[0-9a-f]+\)", block):
            if "libtsan" in fr:
                continue
            mine += "librdnacompat.so" in fr
            break
print(mine, len(reports))
