#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""decode-diff.py — the execution engine's decoder against LLVM's disassembler.

For each code object given, every instruction llvm-objdump prints in .text
is held against what the engine decodes at the same address
(build/tests/decode_dump decode CO, one line per 4-byte offset with the
fields rdc_disasm prints):

  * length (bytes, from the words objdump shows),
  * mnemonic (the generation's own spelling, objdump's without the _e32/
    _e64/_dpp/_sdwa suffix) and the canonical operation (objdump's name put
    through gen_optab.py's canonical()/dual_canonical(), the rename list the
    opcode tables were generated with),
  * the operands objdump prints, mapped to the decoder's roles (dst, sdst,
    src0..2, addr, data0/1, saddr, srsrc, soffset, imm, the literal) and
    normalised (v[2:3] -> v2: the first register, vcc -> vcc_lo, off ->
    null, 0.15915494... -> inv2pi, hex and decimal numbers by value),
  * the modifiers objdump prints (abs/neg as -x, |x|, neg_lo/neg_hi,
    op_sel, op_sel_hi, clamp, omod, DPP controls, SDWA selects, memory
    flags glc/slc/dlc/offen/idxen/lds/gds and offsets),
  * image (MIMG) instructions: vdata, the address VGPR (a range's first, or
    the NSA list), the T# and S# SGPRs, dmask, dim and the flags unorm,
    a16, d16, tfe, lwe, r128, glc, slc, dlc.

Symbolic operands (s_waitcnt's counters, hwreg(...), sendmsg(...),
swizzle(...)) are not compared: their bits are the imm the engine decodes
as a number.  An instruction the decoder does not know is "not covered"
(counted per mnemonic, not a failure); anything else that differs is a
mismatch, printed with the word and both readings, and makes the exit
status 1.

Usage: decode-diff.py --objdump PATH --dump PATH [--max-print N] CO[:PROC]...
"""
import argparse
import os
import re
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools', 'isagen'))
from gen_optab import canonical, dual_canonical  # noqa: E402  (the generator's rename list)

SUFFIX = re.compile(r'_(e32|e64|sdwa|dpp|dpp8|e64_dpp)$')
LINE = re.compile(r'^\s+(\S.*?)\s*// ([0-9A-Fa-f]+): ((?:[0-9A-Fa-f]{8} ?)+)(.*)$')
FLOATS = {'0.5': '0.5', '-0.5': '-0.5', '1.0': '1.0', '-1.0': '-1.0', '2.0': '2.0', '-2.0': '-2.0',
          '4.0': '4.0', '-4.0': '-4.0'}
SEL = {'BYTE_0': 0, 'BYTE_1': 1, 'BYTE_2': 2, 'BYTE_3': 3, 'WORD_0': 4, 'WORD_1': 5, 'DWORD': 6}
UNUSED = {'UNUSED_PAD': 0, 'UNUSED_SEXT': 1, 'UNUSED_PRESERVE': 2}
FLAGS = ('glc', 'slc', 'dlc', 'offen', 'idxen', 'lds', 'gds')


def split_top(s, sep):
    """Split s at sep outside () and []."""
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    out.append(cur)
    return out


def parse_ops(text):
    """'v0, -v1, |v2| clamp mul:2' -> (['v0', '-v1', '|v2|'], ['clamp', 'mul:2'])."""
    text = re.sub(r'/\*.*?\*/', '', text).strip()
    if not text:
        return [], []
    parts = [p.strip() for p in split_top(text, ',')]
    last = [w for w in split_top(parts[-1], ' ') if w]
    ops = parts[:-1] + last[:1]
    return [o for o in ops if o], last[1:]


def num(tok):
    try:
        return int(tok, 0)
    except ValueError:
        return None


def norm(tok):
    """An LLVM operand token -> (value text, abs, neg, sext) in rdc_disasm's spelling."""
    a = n = sx = False
    t = tok
    while True:
        if t.startswith('-') and not re.match(r'^-\d', t) and not re.match(r'^-[0-9.]', t):
            n = True
            t = t[1:]
            continue
        if t.startswith('|') and t.endswith('|'):
            a = True
            t = t[1:-1]
            continue
        m = re.match(r'^(neg|abs|sext)\((.*)\)$', t)
        if m:
            if m.group(1) == 'neg':
                n = True
            elif m.group(1) == 'abs':
                a = True
            else:
                sx = True
            t = m.group(2)
            continue
        break
    m = re.match(r'^(v|s|ttmp)\[(\d+):\d+\]$', t)
    if m:
        t = m.group(1) + m.group(2)
    m = re.match(r'^(v|s|ttmp)(\d+)\.(l|h)$', t)
    if m:
        t = '%s%d' % (m.group(1), int(m.group(2)) + (128 if m.group(3) == 'h' else 0))
    t = {'vcc': 'vcc_lo', 'exec': 'exec_lo', 'off': 'null'}.get(t, t)
    if t in FLOATS:
        t = FLOATS[t]
    elif re.match(r'^0\.1591549', t):
        t = 'inv2pi'
    elif re.match(r'^-?0x[0-9a-fA-F]+$', t) or re.match(r'^-?\d+$', t):
        v = int(t, 0)
        if t.startswith('0x') or t.startswith('-0x'):
            if v >= 1 << 32 and v & 0xffffffff == 0:
                v >>= 32  # a 64-bit operand's literal: its high half is encoded
            t = '0x%x' % (v & 0xffffffff)
        else:
            t = str(v)
    return t, a, n, sx


def decoded(line):
    """'MN op=OP fmt=F k=v ...' -> (mnemonic, dict)."""
    words = line.split()
    d = {}
    for w in words[1:]:
        if '=' in w:
            k, v = w.split('=', 1)
            d[k] = v
    return words[0], d


def same_value(llvm, ours):
    """An LLVM operand value against ours: equal, or the same number (a
    literal objdump prints in decimal, an inline constant by value)."""
    if llvm == ours:
        return True
    a, b = num(llvm), num(ours)
    if a is not None and b is not None:
        return (a & 0xffffffff) == (b & 0xffffffff)
    return False


class Diff:
    def __init__(self, max_print):
        self.max_print = max_print
        self.insts = 0
        self.compared = 0
        self.mismatches = 0
        self.notcov = Counter()
        self.notcov_first = {}
        self.llvm_unknown = 0
        self.by_kind = Counter()
        self.printed = 0
        self.seen_key = Counter()
        self.opsel_unprinted = 0

    def mismatch(self, co, addr, words, llvm, ours, why):
        self.mismatches += 1
        kind = why.split(':')[0]
        self.by_kind[kind] += 1
        # the first few of each field and mnemonic, up to max_print in all
        key = (kind, llvm.split()[0] if llvm.split() else '')
        self.seen_key[key] += 1
        if self.printed < self.max_print and self.seen_key[key] <= 3:
            self.printed += 1
            print('MISMATCH %s @0x%x [%s]: %s\n    llvm:   %s\n    engine: %s' % (co, addr, words, why, llvm, ours))


def expect_roles(fmt_name, mn, ops, mods, d, gen):
    """objdump's positional operands -> [(role, token)] for this format."""
    out = []

    def take(*roles):
        for r, t in zip(roles, ops):
            out.append((r, t))

    base = SUFFIX.sub('', mn)
    if fmt_name == 'SOP1':
        if len(ops) == 2:
            take('dst', 'src0')
        elif len(ops) == 1:
            take('dst' if base in ('s_getpc_b64',) else 'src0')
    elif fmt_name == 'SOP2':
        take('dst', 'src0', 'src1')
    elif fmt_name == 'SOPC':
        take('src0', 'src1')
    elif fmt_name == 'SOPK':
        if base.startswith('s_setreg_imm32'):
            take('imm', 'lit')
        elif base.startswith('s_setreg'):
            take('imm', 'dst')
        elif base == 's_version':
            take('imm')
        else:
            take('dst', 'imm')
    elif fmt_name == 'SOPP':
        take('imm')
    elif fmt_name == 'SMEM':
        if base.startswith('s_atc_probe'):
            take('probe', 'addr', 'off')
        elif base.startswith('s_dcache_discard'):
            take('addr', 'off')
        else:
            take('dst', 'addr', 'off')
    elif fmt_name == 'DS':
        rtn = re.search(r'(read|load|_rtn|permute|swizzle|append|consume|ordered_count|bvh)', base)
        rest = ops
        if rtn:
            out.append(('dst', ops[0]) if ops else None)
            rest = ops[1:]
        if re.search(r'(append|consume|addtid)', base) and not re.search(r'(write|store)', base):
            rest = []
        if re.search(r'gws', base):
            out.extend(zip(('addr',), rest))  # LLVM encodes the gws operand in the addr field
        elif re.search(r'(write|store)_addtid', base):
            out.extend(zip(('data0',), rest))
        else:
            out.extend(zip(('addr', 'data0', 'data1'), rest))
        out = [o for o in out if o]
    elif fmt_name in ('FLAT', 'SCRATCH', 'GLOBAL'):
        rest = ops
        if 'load' in base or ('atomic' in base and 'glc' in mods):
            out.append(('dst', ops[0]))
            rest = ops[1:]
        roles = ['addr']
        if 'load' not in base:
            roles.append('data0')
        if fmt_name != 'FLAT':
            roles.append('saddr')
        out.extend(zip(roles, rest))
    elif fmt_name == 'MUBUF':
        take('data0', 'addr', 'srsrc', 'soffset')
    elif fmt_name in ('VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P'):
        if fmt_name == 'VOPC' or (fmt_name == 'VOP3' and base.startswith('v_cmp')):
            if base.startswith('v_cmpx') and (len(ops) == 2 or gen == 'gfx11'):
                take('src0', 'src1')
            else:
                take('sdst', 'src0', 'src1')
        elif fmt_name == 'VOP2' and re.search(r'mk_f(16|32)$', base):
            take('dst', 'src0', 'lit', 'src1')
        elif fmt_name == 'VOP2' and re.search(r'ak_f(16|32)$', base):
            take('dst', 'src0', 'src1', 'lit')
        elif re.search(r'_co_|div_scale|mad_[iu]64_[iu]32', base) and len(ops) >= 4:
            take('dst', 'sdst', 'src0', 'src1', 'src2')
        else:
            take('dst', 'src0', 'src1', 'src2')
    return out


MIMG_DIMS = ['1D', '2D', '3D', 'CUBE', '1D_ARRAY', '2D_ARRAY', '2D_MSAA', '2D_MSAA_ARRAY']


def compare_mimg(ops, mods, d):
    """An image instruction: vdata, the address VGPRs (a range's first, or
    NSA's list), T# and S# SGPRs, dmask, dim and the flags."""
    errs = []
    roles = ['dst', 'addr', 'srsrc', 'ssamp']
    for r, t in zip(roles, ops):
        if r == 'addr' and t.startswith('['):
            want = [norm(x.strip())[0] for x in t[1:-1].split(',')]
            have = d.get('addrs', '').split(',')
            if have[:len(want)] != want:
                errs.append('addrs: %s vs %s' % (','.join(want), d.get('addrs')))
            continue
        v = norm(t)[0]
        if v != d.get(r):
            errs.append('%s: %s vs %s' % (r, v, d.get(r)))
    if len(ops) < 4 and d.get('ssamp') not in (None, 's0'):
        pass  # no sampler operand: the field is unused
    flags = {'dmask': '0', 'dim': '0'}
    for m in mods:
        if m.startswith('dmask:'):
            flags['dmask'] = str(int(m[6:], 0))
        elif m.startswith('dim:'):
            name = m[4:].replace('SQ_RSRC_IMG_', '')
            flags['dim'] = str(MIMG_DIMS.index(name)) if name in MIMG_DIMS else name
        elif m in ('unorm', 'a16', 'd16', 'tfe', 'lwe', 'r128', 'glc', 'slc', 'dlc'):
            flags[m] = '1'
    for k in ('dmask', 'dim', 'unorm', 'a16', 'd16', 'tfe', 'lwe', 'r128', 'glc', 'slc', 'dlc'):
        if flags.get(k, '0') != d.get(k):
            errs.append('%s: %s vs %s' % (k, flags.get(k, '0'), d.get(k)))
    return errs


def compare_one(df, co, gen, addr, words, llvm_text, line):
    mn_llvm = llvm_text.split()[0]
    ops_text = llvm_text[len(mn_llvm):]
    mn, d = decoded(line)
    fmt = d.get('fmt')
    errs = []
    if '::' in llvm_text:  # VOPD
        x, y = llvm_text.split('::')
        xm, ym = x.split()[0], y.split()[0]
        if mn != xm:
            errs.append('mnemonic: %s vs %s' % (xm, mn))
        if d.get('op') != dual_canonical(xm):
            errs.append('op: %s vs %s' % (dual_canonical(xm), d.get('op')))
        if d.get('op_y') != dual_canonical(ym):
            errs.append('op_y: %s vs %s' % (dual_canonical(ym), d.get('op_y')))
        for half, roles in ((x, ('dst', 'src0', 'src1')), (y, ('dst_y', 'src_y0', 'src_y1'))):
            ops, _ = parse_ops(half[len(half.split()[0]) + 1:].strip() if half.strip() else '')
            hm = half.split()[0]
            if re.search(r'fmamk', hm):
                roles = (roles[0], roles[1], 'lit', roles[2])
            elif re.search(r'fmaak', hm):
                roles = (roles[0], roles[1], roles[2], 'lit')
            for r, t in zip(roles, ops):
                v = norm(t)[0]
                if r == 'lit':
                    if not same_value(v, d.get('lit', '?')):
                        errs.append('lit: %s vs %s' % (v, d.get('lit')))
                elif not same_value(v, d.get(r, '?')):
                    errs.append('%s: %s vs %s' % (r, v, d.get(r)))
        return errs
    base = SUFFIX.sub('', mn_llvm)
    if mn != base:
        errs.append('mnemonic: %s vs %s' % (base, mn))
        return errs
    if d.get('op') != canonical(base, gen):
        errs.append('op: %s vs %s' % (canonical(base, gen), d.get('op')))
    fmt_name = fmt or '?'
    ops, mods = parse_ops(ops_text)
    if fmt_name in ('MIMG', 'MIMGHI'):
        return errs + compare_mimg(ops, mods, d)
    absm = negm = sextm = 0
    for role, tok in expect_roles(fmt_name, mn_llvm, ops, mods, d, gen):
        if re.match(r'^[a-z_]+\(', tok) and not re.match(r'^(neg|abs|sext)\(', tok):
            continue  # symbolic: hwreg(...), sendmsg(...), vmcnt(...)
        v, a, n, sx = norm(tok)
        if role.startswith('src') and role[3:].isdigit():
            k = int(role[3:])
            absm |= a << k
            negm |= n << k
            sextm |= sx << k
        if role == 'off':  # SMEM: the immediate offset, or soffset
            if num(v) is not None or v.startswith('0x'):
                if not same_value(v, d.get('imm')):
                    errs.append('imm: %s vs %s' % (v, d.get('imm')))
                if d.get('soffset') != 'null':
                    errs.append('soffset: none vs %s' % d.get('soffset'))
            elif v != d.get('soffset'):
                errs.append('soffset: %s vs %s' % (v, d.get('soffset')))
            continue
        if role == 'probe':
            continue
        if role == 'addr' and v == 'null' and fmt_name in ('SCRATCH', 'MUBUF', 'GLOBAL', 'FLAT'):
            if fmt_name == 'SCRATCH' and d.get('sve') != '0':
                errs.append('addr: off vs %s (sve=%s)' % (d.get('addr'), d.get('sve')))
            if fmt_name == 'MUBUF' and (d.get('offen') != '0' or d.get('idxen') != '0'):
                errs.append('addr: off vs offen/idxen')
            continue
        if fmt_name == 'SCRATCH' and role == 'addr' and v != 'null' and gen == 'gfx11' and d.get('sve') != '1':
            errs.append('sve: vaddr %s used vs sve=%s' % (v, d.get('sve')))
        ours = d.get(role)
        if role == 'imm' and fmt_name in ('SOPK',):
            a, b = num(v), num(ours or '')
            if a is None or b is None or (a & 0xffff) != (b & 0xffff):
                errs.append('imm: %s vs %s' % (v, ours))
            continue
        if role == 'imm' and fmt_name == 'SOPP':
            a, b = num(v), num(ours or '')
            if a is not None and (b is None or (a & 0xffff) != (b & 0xffff)):
                errs.append('imm: %s vs %s' % (v, ours))
            continue
        if ours is None or not same_value(v, ours):
            errs.append('%s: %s vs %s' % (role, v, ours))
    # modifiers
    if fmt_name in ('VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P') and 'abs' in d:
        if fmt_name == 'VOP3P' and re.match(r'v_(fma|mad)_mix', base):
            # mix ops: neg_lo prints as -x, neg_hi as |x| (the abs of the f32 operand)
            if int(d['neg']) != negm:
                errs.append('neg: %d vs %s' % (negm, d['neg']))
            if int(d['neg_hi']) != absm:
                errs.append('neg_hi (abs): %d vs %s' % (absm, d['neg_hi']))
        if fmt_name == 'VOP3P':
            for mname, key in (('neg_lo', 'neg'), ('neg_hi', 'neg_hi'), ('op_sel', 'opsel'),
                               ('op_sel_hi', 'opsel_hi')):
                bits = None
                for m in mods:
                    if m.startswith(mname + ':['):
                        bits = sum(int(b) << i for i, b in enumerate(m[len(mname) + 2:-1].split(',')))
                if bits is None:
                    if mname == 'op_sel_hi' or (mname.startswith('neg') and re.match(r'v_(fma|mad)_mix', base)):
                        continue
                    bits = 0
                width = len(ops) - 1
                mask = (1 << width) - 1
                if (int(d.get(key, 0)) & mask) != bits & mask:
                    errs.append('%s: %d vs %s' % (mname, bits, d.get(key)))
        else:
            if int(d['abs']) != absm:
                errs.append('abs: %d vs %s' % (absm, d['abs']))
            if int(d['neg']) != negm:
                errs.append('neg: %d vs %s' % (negm, d['neg']))
            if 'opsel' in d and d.get('enc') == 'e64':
                bits = 0
                for m in mods:
                    if m.startswith('op_sel:['):
                        lst = [int(b) for b in m[8:-1].split(',')]
                        nsrc = len(ops) - (0 if base.startswith('v_cmpx') else 1)
                        for i, b in enumerate(lst):
                            pos = i if (i < nsrc or len(lst) == 4) else 3
                            bits |= b << pos
                if not any(m.startswith('op_sel:[') for m in mods) and bits == 0 and int(d['opsel']):
                    # LLVM 19 prints no op_sel for gfx11's fake16 forms (v_and_b16,
                    # v_cmp_*_f16_e64, ...) although the bits select the high half
                    # (LLVM 21 prints v8.h op_sel:[1,0,0]): not comparable here.
                    df.opsel_unprinted += 1
                elif int(d['opsel']) != bits:
                    errs.append('op_sel: %d vs %s' % (bits, d['opsel']))
        clamp = int('clamp' in mods)
        if int(d.get('clamp', 0)) != clamp:
            errs.append('clamp: %d vs %s' % (clamp, d.get('clamp')))
        omod = 0
        for m in mods:
            omod = {'mul:2': 1, 'mul:4': 2, 'div:2': 3}.get(m, omod)
        if int(d.get('omod', 0)) != omod and fmt_name != 'VOP3P':
            errs.append('omod: %d vs %s' % (omod, d.get('omod')))
        dpp = None
        for m in mods:
            mm = re.match(r'^(quad_perm|row_shl|row_shr|row_ror|row_share|row_xmask|dpp8):?(.*)$', m)
            if m in ('row_mirror', 'row_half_mirror'):
                dpp = 0x140 if m == 'row_mirror' else 0x141
            elif mm and mm.group(1) == 'quad_perm':
                q = [int(b) for b in mm.group(2)[1:-1].split(',')]
                dpp = q[0] | q[1] << 2 | q[2] << 4 | q[3] << 6
            elif mm and mm.group(1) == 'dpp8':
                q = [int(b) for b in mm.group(2)[1:-1].split(',')]
                v = sum(s << (3 * i) for i, s in enumerate(q))
                if int(d.get('dpp8', '-1'), 0) != v:
                    errs.append('dpp8: 0x%x vs %s' % (v, d.get('dpp8')))
            elif mm:
                dpp = {'row_shl': 0x100, 'row_shr': 0x110, 'row_ror': 0x120, 'row_share': 0x150,
                       'row_xmask': 0x160}[mm.group(1)] + int(mm.group(2), 0)
            for key in ('row_mask', 'bank_mask', 'bound_ctrl', 'fi'):
                if m.startswith(key + ':'):
                    want = int(m.split(':')[1], 0)
                    if key == 'bound_ctrl':
                        want = 1
                    if int(d.get(key, '-1'), 0) != want:
                        errs.append('%s: %d vs %s' % (key, want, d.get(key)))
            for key, table in (('dst_sel', SEL), ('src0_sel', SEL), ('src1_sel', SEL), ('dst_unused', UNUSED)):
                if m.startswith(key + ':'):
                    want = table[m.split(':')[1]]
                    if int(d.get(key, '-1')) != want:
                        errs.append('%s: %d vs %s' % (key, want, d.get(key)))
        if dpp is not None and int(d.get('dpp_ctrl', '-1'), 0) != dpp:
            errs.append('dpp_ctrl: 0x%x vs %s' % (dpp, d.get('dpp_ctrl')))
        if d.get('enc') == 'sdwa' and int(d.get('sext', 0)) != sextm:
            errs.append('sext: %d vs %s' % (sextm, d.get('sext')))
    if fmt_name in ('DS', 'FLAT', 'SCRATCH', 'GLOBAL', 'MUBUF', 'SMEM'):
        for f in FLAGS:
            if f in d and int(d[f]) != int(f in mods):
                errs.append('%s: %d vs %s' % (f, int(f in mods), d[f]))
        off = off1 = 0
        for m in mods:
            if m.startswith('offset:') and fmt_name != 'SMEM':
                off = int(m[7:], 0)
            elif m.startswith('offset:'):
                off = int(m[7:], 0)
            elif m.startswith('offset0:'):
                off = int(m[8:], 0)
            elif m.startswith('offset1:'):
                off1 = int(m[8:], 0)
        if fmt_name == 'SMEM':
            if any(m.startswith('offset:') for m in mods) and int(d['imm']) != off:
                errs.append('offset: %d vs %s' % (off, d['imm']))
        elif fmt_name == 'DS' and not any(m.startswith('offset0:') or m.startswith('offset1:') for m in mods):
            # one address: offset0 and offset1 are the low and high byte of a 16-bit offset
            if not any(m.startswith('offset:swizzle') for m in mods) and \
                    int(d['imm']) | int(d['offset1']) << 8 != off:
                errs.append('offset: %d vs %s | %s << 8' % (off, d['imm'], d['offset1']))
        elif not any(m.startswith('offset:swizzle') for m in mods):
            if int(d['imm']) != off:
                errs.append('offset: %d vs %s' % (off, d['imm']))
            if fmt_name == 'DS' and int(d['offset1']) != off1:
                errs.append('offset1: %d vs %s' % (off1, d['offset1']))
    return errs


def run_co(df, co, proc, a):
    gen = 'gfx11' if proc.startswith('gfx11') else 'gfx10'
    od = subprocess.run([a.objdump, '-d', '--mcpu=' + proc, co], capture_output=True, text=True)
    if od.returncode:
        sys.exit('decode-diff: %s failed on %s: %s' % (a.objdump, co, od.stderr.strip()))
    dd = subprocess.run([a.dump, 'decode', co], capture_output=True, text=True)
    if dd.returncode:
        sys.exit('decode-diff: decode_dump failed on %s: %s' % (co, dd.stderr.strip()))
    ours = {}
    for ln in dd.stdout.splitlines():
        addr, ok, ln_len, rest = ln.split(' ', 3)
        ours[int(addr, 16)] = (ok == '1', int(ln_len), rest)
    in_text = False
    for ln in od.stdout.splitlines():
        if ln.startswith('Disassembly of section'):
            in_text = ln.strip().endswith('.text:')
            continue
        if not in_text:
            continue
        m = LINE.match(ln)
        if not m:
            continue
        text, addr, words = m.group(1).strip(), int(m.group(2), 16), m.group(3).split()
        if text.startswith('<unknown>') or text.startswith('.long') or text.startswith(';'):
            df.llvm_unknown += 1
            continue
        df.insts += 1
        mine = ours.get(addr)
        wtext = ' '.join(words)
        if mine is None:
            df.mismatch(co, addr, wtext, text, '-', 'address: outside the decoded .text')
            continue
        ok, length, line = mine
        if not ok:
            key = SUFFIX.sub('', text.split()[0])
            df.notcov[key] += 1
            df.notcov_first.setdefault(key, '%s @0x%x [%s]' % (os.path.basename(co), addr, wtext))
            # a word named and measured but not decoded (an opcode the tables lack): those must agree
            name = line.split()[1] if len(line.split()) > 1 else '<'
            if not name.startswith('<') and (name != key or length != 4 * len(words)):
                df.mismatch(co, addr, wtext, text, line, 'name/length: %s %d vs %s %d'
                            % (key, 4 * len(words), name, length))
            continue
        df.compared += 1
        if length != 4 * len(words):
            df.mismatch(co, addr, wtext, text, line, 'length: %d vs %d' % (4 * len(words), length))
            continue
        errs = compare_one(df, co, gen, addr, wtext, text, line)
        if errs:
            df.mismatch(co, addr, wtext, text, line, '; '.join(errs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--objdump', default='/usr/lib/llvm-19/bin/llvm-objdump')
    ap.add_argument('--dump', required=True)
    ap.add_argument('--max-print', type=int, default=40)
    ap.add_argument('cos', nargs='+', help='CO:PROC')
    a = ap.parse_args()
    df = Diff(a.max_print)
    for spec in a.cos:
        co, proc = spec.rsplit(':', 1)
        run_co(df, co, proc, a)
    print('decode-diff: %d code objects, %d instructions: %d compared, %d mismatches, '
          '%d not covered (%d mnemonics), %d LLVM cannot decode'
          % (len(a.cos), df.insts, df.compared, df.mismatches, sum(df.notcov.values()), len(df.notcov),
             df.llvm_unknown))
    if df.opsel_unprinted:
        print('op_sel not compared: %d instructions with op_sel bits LLVM 19 does not print' % df.opsel_unprinted)
    if df.by_kind:
        print('mismatches by field: ' + ', '.join('%s %d' % kv for kv in df.by_kind.most_common()))
    for mn, n in df.notcov.most_common():
        print('not covered: %-40s %6d  first %s' % (mn, n, df.notcov_first[mn]))
    return 1 if df.mismatches else 0


if __name__ == '__main__':
    sys.exit(main())
