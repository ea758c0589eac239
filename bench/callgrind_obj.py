#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# callgrind_obj.py OUT OBJECT — the self instruction count (Ir) of every
# function of OBJECT (a substring of the object path) in a callgrind output
# file written with --compress-strings=no: the instructions executed inside
# that object, whoever called them.
import sys

path, want = sys.argv[1], sys.argv[2]
ob = fn_ob = ""
skip = False
total = 0
for line in open(path, errors="replace"):
    if line.startswith("ob="):
        ob = line[3:].strip()
    elif line.startswith("fn="):
        fn_ob = ob
    elif line.startswith("calls="):
        skip = True               # the next cost line is the call's inclusive cost
    elif line[:1].isdigit() or line[:1] in "+-*":
        if skip:
            skip = False
            continue
        parts = line.split()
        if len(parts) >= 2 and want in fn_ob:
            total += int(parts[1])
print(total)
