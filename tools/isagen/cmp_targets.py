#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cmp_targets.py — do other gfx11 processors decode as gfx1100 does?

The engine decodes every gfx11 card (gfx1100..gfx1103, gfx1150, gfx1151)
with the one gfx11 table that gen_optab.py harvests for gfx1100.  This
script harvests the same formats, opcode by opcode, for other processors
(default: gfx1150 and gfx1151) with an LLVM that knows them, harvests
gfx1100 with the same LLVM (so that LLVM version changes are not counted
as target differences), and prints every opcode whose mnemonic differs,
per format:

    FORMAT opcode: gfx1100 MNEMONIC | gfx1150 MNEMONIC

("-" where that processor's LLVM decodes nothing).  It also compares that
LLVM's gfx1100 with the committed tables' LLVM (--base-llvm-mc, default
llvm-mc-19), which says what a newer LLVM would change in optab_gen.c.
Exit status 0; the differences are for review (docs/SIMGPU.md, "The
decoder against LLVM").

Usage: cmp_targets.py --llvm-mc CMD [--base-llvm-mc CMD] [--mcpu gfx1150,gfx1151]
CMD may hold spaces (a wrapper: 'tests/roots/run rocm-6.4 -- /usr/lib/llvm-21/bin/llvm-mc').
"""
import argparse
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_optab  # noqa: E402


def harvest_as(cmd, mcpu):
    """gen_optab.harvest for the gfx11 formats, asking LLVM for mcpu."""
    argv = shlex.split(cmd)
    real = subprocess.run

    def run(args, **kw):
        args = [a if not a.startswith('-mcpu=') else '-mcpu=' + mcpu for a in args]
        return real(argv + args[1:], **kw)
    subprocess.run = run
    try:
        return gen_optab.harvest(argv[-1], 'gfx11')
    finally:
        subprocess.run = real


def diff(a, b, na, nb):
    out = []
    for fmt in sorted(set(a) | set(b)):
        ops = sorted(set(a.get(fmt, {})) | set(b.get(fmt, {})))
        for op in ops:
            x, y = a.get(fmt, {}).get(op, '-'), b.get(fmt, {}).get(op, '-')
            if x != y:
                out.append('%-6s 0x%03x: %s %s | %s %s' % (fmt, op, na, x, nb, y))
    return out


def count(t):
    return sum(len(v) for v in t.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--llvm-mc', required=True)
    ap.add_argument('--base-llvm-mc', default='llvm-mc-19')
    ap.add_argument('--mcpu', default='gfx1150,gfx1151')
    a = ap.parse_args()
    ver = subprocess.run(shlex.split(a.llvm_mc) + ['--version'], capture_output=True, text=True).stdout
    ver = next((l.strip() for l in ver.splitlines() if 'LLVM version' in l), '?')
    ref = harvest_as(a.llvm_mc, 'gfx1100')
    print('# %s; gfx1100: %d opcodes decoded' % (ver, count(ref)))
    for mcpu in a.mcpu.split(','):
        t = harvest_as(a.llvm_mc, mcpu)
        d = diff(ref, t, 'gfx1100', mcpu)
        print('## %s: %d opcodes decoded, %d differ from gfx1100' % (mcpu, count(t), len(d)))
        for line in d:
            print(line)
    base = harvest_as(a.base_llvm_mc, 'gfx1100')
    d = diff(base, ref, 'base', 'new')
    print('## gfx1100, %s (the committed tables\' LLVM) -> this LLVM: %d differ' % (a.base_llvm_mc, len(d)))
    for line in d:
        print(line)


if __name__ == '__main__':
    main()
