#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen_optab.py — the instruction decoder's opcode tables, generated from LLVM.

For each generation (gfx10.3: gfx1030, gfx11: gfx1100) and each encoding
format the engine decodes, every value of the format's opcode field is put
into an instruction word with neutral operands and handed to Debian's LLVM
disassembler (`llvm-mc --disassemble -show-encoding`); the mnemonic LLVM
prints for it is that opcode's name.  Nothing is typed by hand but the
field positions of the opcode (FORMATS below, from the ISA manuals' format
tables and checked here: a word LLVM decodes to another length or refuses
is left out).

Mnemonics are then put in one spelling for both generations (the gfx11
names: ds_read_b32 -> ds_load_b32, global_load_dword -> global_load_b32,
s_andn2_b32 -> s_and_not1_b32, ...), so one semantic core serves both:
canonical() below is the whole rename list.  Encoding suffixes (_e32,
_e64) are dropped.

Output (committed; regenerate with `make optab` after an LLVM bump and
review the diff).  The tables belong to the one instruction decoder of the
pure library (shim/core/isa_decode.c), which the shim, `rdnacompat
inspect` and the simulator's engine share:
  include/rdnacompat/isa_optab_gen.h  enum rdc_op (one value per canonical
               mnemonic), format ids
  shim/core/isa_optab_gen.c  per generation and format: opcode -> enum rdc_op, and the
               generation's own mnemonic (for messages and the coverage
               list); rdc_op_name[]; the buffer data formats by value
               (rdc_buf_fmt_name, from LLVM's tbuffer format names).

Usage: gen_optab.py [--llvm-mc PATH] [--out DIR]
"""
import argparse
import os
import re
import subprocess
import sys

NOP = 0xBF800000  # s_nop 0, the same word on both generations
VOP3_SRC3 = 0x101 | (0x102 << 9) | (0x103 << 18)   # v1, v2, v3
VOP3_SRC2 = 0x101 | (0x102 << 9) | (0x80 << 18)    # v1, v2, 0
# Two- and one-source VOP3/VOP3P ops want their unused source fields zero.
VOP3_ALT = [VOP3_SRC3, VOP3_SRC2, 0x101 | (0x102 << 9), 0x101]
VOP3P_ALT = [0x18000000 | w for w in VOP3_ALT]
DS_ALT = [0x00020101, 0x00000101, 0x00000001, 0x00010101, 0]
# global_load/store_addtid_b32: no VGPR address (vaddr 0), an SGPR base s[2:3]
ADDTID = [0x00020100, 0x01020000]
MTBUF_ALT = [0x80010200]  # vdata v2, s[4:7], soffset 0, no address VGPR
MUBUF_ALT = [0x80000201, 0x80000200, 0x80000000, 0x00000200, 0x00000000]  # last: no operands (buffer_gl0_inv)

# (format, opcode bits (lo, width), base word, second dwords tried in turn, opcodes)
# The base word holds the format's fixed bits and neutral operands (v1/v2/s2
# sources, v0/s0 destinations).  seg: FLAT's segment field, one table each.
FORMATS = {
    'gfx10': [
        ('SOP2', (23, 7), 0x80000402, [], range(0, 0x60)),
        ('SOPK', (23, 5), 0xB0000000, [], range(0, 0x1D)),
        ('SOP1', (8, 8), 0xBE800002, [], range(0, 256)),
        ('SOP1', (8, 8), 0xBE800000, [], range(0, 256)),  # no source (s_getpc_b64)
        ('SOPC', (16, 7), 0xBF000402, [], range(0, 128)),
        ('SOPP', (16, 7), 0xBF800000, [], range(0, 128)),
        ('SMEM', (18, 8), 0xF4000000, [0xFA000000, 0x00000000], range(0, 256)),
        ('VOP2', (25, 6), 0x00000501, [], range(0, 0x3E)),
        ('VOP1', (9, 8), 0x7E000101, [], range(0, 256)),
        ('VOP1', (9, 8), 0x7E000000, [], range(0, 256)),  # no operands (v_nop)
        ('VOPC', (17, 8), 0x7C000501, [], range(0, 256)),
        ('VOP3', (16, 10), 0xD4000000, VOP3_ALT, range(0, 1024)),
        ('VOP3P', (16, 7), 0xCC000000, VOP3P_ALT, range(0, 128)),
        ('VOP3P', (16, 7), 0xCC004000, VOP3P_ALT, range(0, 128)),  # op_sel_hi[2] set
        ('DS', (18, 8), 0xD8000000, DS_ALT, range(0, 256)),
        ('DS', (18, 8), 0xD8020000, DS_ALT, range(0, 256)),  # gds set (ds_gws_*, ds_ordered_count)
        ('FLAT', (18, 7), 0xDC000000, [0x007D0201, 0x007D0001], range(0, 128)),
        ('SCRATCH', (18, 7), 0xDC004000, [0x007D0201, 0x00000201, 0x007D0001, 0x00000001], range(0, 128)),
        ('GLOBAL', (18, 7), 0xDC008000, [0x007D0201, 0x007D0001, 0x00000201, 0x00000001] + ADDTID, range(0, 128)),
        ('MUBUF', (18, 8), 0xE0000000, MUBUF_ALT, range(0, 256)),
        # MTBUF: op[2:0] in [18:16], op[3] in bit 21 of the second dword
        # (MTBUFHI: the d16 ops 8-15); format 1 (BUF_FMT_8_UNORM, LLVM's
        # default, so it prints none) in [25:19].
        ('MTBUF', (16, 3), 0xE8080000, MTBUF_ALT, range(0, 8)),
        ('MTBUFHI', (16, 3), 0xE8080000, [w | 0x00200000 for w in MTBUF_ALT], range(0, 8)),
        # MIMG: names only (the engine executes no image instruction; the
        # coverage listing names them).  gfx10's opcode is 8 bits: op[6:0]
        # in [24:18], op[7] in bit 0 (MIMGHI: the ops with bit 0 set).
        ('MIMG', (18, 7), 0xF0000F00, [0x00000000], range(0, 128)),
        ('MIMGHI', (18, 7), 0xF0000F01, [0x00000000, 0x00000004], range(0, 128)),
    ],
    'gfx11': [
        ('SOP2', (23, 7), 0x80000402, [], range(0, 0x60)),
        ('SOPK', (23, 5), 0xB0000000, [], range(0, 0x1D)),
        ('SOP1', (8, 8), 0xBE800002, [], range(0, 256)),
        ('SOP1', (8, 8), 0xBE800000, [], range(0, 256)),  # no source (s_getpc_b64)
        ('SOPC', (16, 7), 0xBF000402, [], range(0, 128)),
        ('SOPP', (16, 7), 0xBF800000, [], range(0, 128)),
        ('SMEM', (18, 8), 0xF4000000, [0xF8000000, 0x00000000], range(0, 256)),
        ('VOP2', (25, 6), 0x00000501, [], range(0, 0x3E)),
        ('VOP1', (9, 8), 0x7E000101, [], range(0, 256)),
        ('VOP1', (9, 8), 0x7E000000, [], range(0, 256)),  # no operands (v_nop)
        ('VOPC', (17, 8), 0x7C000501, [], range(0, 256)),
        ('VOP3', (16, 10), 0xD4000000, VOP3_ALT, range(0, 1024)),
        ('VOP3P', (16, 7), 0xCC000000, VOP3P_ALT, range(0, 128)),
        ('VOP3P', (16, 7), 0xCC004000, VOP3P_ALT, range(0, 128)),  # op_sel_hi[2] set
        ('VOPD', (22, 4), 0xC8000000, [0x00000101], range(0, 16)),
        ('VOPDY', (17, 5), 0xC8000000, [0x00000101], range(0, 32)),
        ('DS', (18, 8), 0xD8000000, DS_ALT, range(0, 256)),
        ('DS', (18, 8), 0xD8020000, DS_ALT, range(0, 256)),  # gds set (ds_gws_*, ds_ordered_count)
        ('FLAT', (18, 7), 0xDC000000, [0x007C0201, 0x007C0001], range(0, 128)),
        ('SCRATCH', (18, 7), 0xDC010000, [0x007C0201, 0x00FC0201, 0x00FC0001, 0x007C0001, 0x00000201, 0x00000001], range(0, 128)),
        ('GLOBAL', (18, 7), 0xDC020000, [0x007C0201, 0x007C0001, 0x00000201, 0x00000001] + ADDTID, range(0, 128)),
        ('MUBUF', (18, 8), 0xE0000000, MUBUF_ALT, range(0, 256)),
        # MTBUF: op in [18:15], format 1 in [25:19]
        ('MTBUF', (15, 4), 0xE8080000, MTBUF_ALT, range(0, 16)),
        ('MIMG', (18, 8), 0xF0000F00, [0x00000000], range(0, 256)),
    ],
}
MCPU = {'gfx10': 'gfx1030', 'gfx11': 'gfx1100'}
# gfx1150/gfx1151 add the scalar float instructions (SOP1 0x60-0x6e, SOP2
# 0x40-0x4e, SOPC 0x41-0x5e: s_add_f32, s_cmp_lt_f16, s_cvt_f32_i32, ...) in
# opcodes gfx1100 leaves free (tools/isagen/cmp_targets.py with LLVM 21
# finds no other difference): LLVM's feature salu-float puts them into the
# one gfx11 table.
MATTR = {'gfx10': [], 'gfx11': ['-mattr=+salu-float']}


# gfx10 spelling -> gfx11 spelling (the canonical one).  Applied in order.
RENAMES = [
    (r'^ds_read2st64_', 'ds_load_2addr_stride64_'),
    (r'^ds_write2st64_', 'ds_store_2addr_stride64_'),
    (r'^ds_read2_', 'ds_load_2addr_'),
    (r'^ds_write2_', 'ds_store_2addr_'),
    (r'^ds_wrxchg2st64_rtn_', 'ds_storexchg_2addr_stride64_rtn_'),
    (r'^ds_wrxchg2_rtn_', 'ds_storexchg_2addr_rtn_'),
    (r'^ds_wrxchg_rtn_', 'ds_storexchg_rtn_'),
    (r'^ds_read_addtid_', 'ds_load_addtid_'),
    (r'^ds_write_addtid_', 'ds_store_addtid_'),
    (r'^ds_read_', 'ds_load_'),
    (r'^ds_write_', 'ds_store_'),
    (r'^ds_load_b32$', 'ds_load_b32'),
    (r'^global_(load|store)_dword_addtid$', r'global_\1_addtid_b32'),
    (r'_format_d16_hi_x$', '_d16_hi_format_x'), (r'_format_d16_(x|xy|xyz|xyzw)$', r'_d16_format_\1'),
    (r'_dwordx4$', '_b128'), (r'_dwordx3$', '_b96'), (r'_dwordx2$', '_b64'),
    (r'_dwordx8$', '_b256'), (r'_dwordx16$', '_b512'), (r'_dword$', '_b32'),
    (r'_ubyte_d16_hi$', '_d16_hi_u8'), (r'_sbyte_d16_hi$', '_d16_hi_i8'),
    (r'_ubyte_d16$', '_d16_u8'), (r'_sbyte_d16$', '_d16_i8'),
    (r'_short_d16_hi$', '_d16_hi_b16'), (r'_short_d16$', '_d16_b16'),
    (r'_byte_d16_hi$', '_d16_hi_b8'),
    (r'load_ubyte$', 'load_u8'), (r'load_sbyte$', 'load_i8'),
    (r'load_ushort$', 'load_u16'), (r'load_sshort$', 'load_i16'),
    (r'store_byte$', 'store_b8'), (r'store_short$', 'store_b16'),
    (r'^(s_\w+?)andn2', r'\1and_not1'), (r'^(s_\w+?)orn2', r'\1or_not1'),
    (r'^(s_\w+?)andn1', r'\1and_not0'), (r'^(s_\w+?)orn1', r'\1or_not0'),
    (r'^s_andn2', 's_and_not1'), (r'^s_orn2', 's_or_not1'),
    (r'^s_andn1', 's_and_not0'), (r'^s_orn1', 's_or_not0'),
    (r'^v_ffbh_u32$', 'v_clz_i32_u32'), (r'^v_ffbl_b32$', 'v_ctz_i32_b32'),
    (r'^v_ffbh_i32$', 'v_cls_i32'),
    (r'^v_cmp_tru_', 'v_cmp_t_'), (r'^v_cmpx_tru_', 'v_cmpx_t_'),
    (r'^v_cvt_pkrtz_f16_f32$', 'v_cvt_pk_rtz_f16_f32'),
    (r'^v_cvt_pknorm_', 'v_cvt_pk_norm_'),
    (r'^v_mul_legacy_f32$', 'v_mul_dx9_zero_f32'),
    (r'^v_fmac_legacy_f32$', 'v_fmac_dx9_zero_f32'),
    (r'^v_fma_legacy_f32$', 'v_fma_dx9_zero_f32'),
    (r'^s_load_b32$', 's_load_b32'),
    (r'^v_cvt_rpi_i32_f32$', 'v_cvt_nearest_i32_f32'),
    (r'^v_cvt_flr_i32_f32$', 'v_cvt_floor_i32_f32'),
    (r'^v_dot2c_f32_f16$', 'v_dot2acc_f32_f16'),
    (r'^s_ff1_i32_b32$', 's_ctz_i32_b32'), (r'^s_ff1_i32_b64$', 's_ctz_i32_b64'),
    (r'^s_flbit_i32_b32$', 's_clz_i32_u32'), (r'^s_flbit_i32_b64$', 's_clz_i32_u64'),
    (r'^s_flbit_i32$', 's_cls_i32'), (r'^s_flbit_i32_i64$', 's_cls_i32_i64'),
    (r'^s_bcnt0_i32_', 's_bcnt0_i32_'),
    # memory atomics (buffer_, flat_, global_): gfx11 names carry the type
    (r'_atomic_fcmpswap_x2$', '_atomic_cmpswap_f64'), (r'_atomic_fcmpswap$', '_atomic_cmpswap_f32'),
    (r'_atomic_fmin_x2$', '_atomic_min_f64'), (r'_atomic_fmin$', '_atomic_min_f32'),
    (r'_atomic_fmax_x2$', '_atomic_max_f64'), (r'_atomic_fmax$', '_atomic_max_f32'),
    (r'_atomic_swap_x2$', '_atomic_swap_b64'), (r'_atomic_swap$', '_atomic_swap_b32'),
    (r'_atomic_cmpswap_x2$', '_atomic_cmpswap_b64'), (r'_atomic_cmpswap$', '_atomic_cmpswap_b32'),
    (r'_atomic_add_x2$', '_atomic_add_u64'), (r'_atomic_add$', '_atomic_add_u32'),
    (r'_atomic_sub_x2$', '_atomic_sub_u64'), (r'_atomic_sub$', '_atomic_sub_u32'),
    (r'_atomic_smin_x2$', '_atomic_min_i64'), (r'_atomic_smin$', '_atomic_min_i32'),
    (r'_atomic_umin_x2$', '_atomic_min_u64'), (r'_atomic_umin$', '_atomic_min_u32'),
    (r'_atomic_smax_x2$', '_atomic_max_i64'), (r'_atomic_smax$', '_atomic_max_i32'),
    (r'_atomic_umax_x2$', '_atomic_max_u64'), (r'_atomic_umax$', '_atomic_max_u32'),
    (r'_atomic_and_x2$', '_atomic_and_b64'), (r'_atomic_and$', '_atomic_and_b32'),
    (r'_atomic_or_x2$', '_atomic_or_b64'), (r'_atomic_or$', '_atomic_or_b32'),
    (r'_atomic_xor_x2$', '_atomic_xor_b64'), (r'_atomic_xor$', '_atomic_xor_b32'),
    (r'_atomic_inc_x2$', '_atomic_inc_u64'), (r'_atomic_inc$', '_atomic_inc_u32'),
    (r'_atomic_dec_x2$', '_atomic_dec_u64'), (r'_atomic_dec$', '_atomic_dec_u32'),
    (r'_atomic_csub$', '_atomic_csub_u32'),
]
SUFFIX = re.compile(r'_(e32|e64|sdwa|dpp|dpp8)$')

# Opcodes Debian's LLVM 19 does not decode but ROCm's compilers emit, each
# checked with a newer LLVM (the rocm-6.4 root's llvm-mc 21): (generation,
# format, opcode) -> mnemonic.  `rdnacompat sim --coverage` of libggml-hip.so
# found 38,407 of the first in 31 gfx1100 code objects:
#   D59C0080 00000120 -> v_mov_b16_e64 v128.l, v32.l   (LLVM 21)
#   7F16CD10 -> v_swap_b16 v11.h, v16.l   (LLVM 21; 72 words in 4 gfx1100 code
#               objects of rocPRIM 6.4's test_device_segmented_radix_sort)
LLVM19_LACKS = {
    ('gfx11', 'VOP3', 0x19C): 'v_mov_b16_e64',
    ('gfx11', 'VOP1', 0x66): 'v_swap_b16',
}


def canonical(mn, gen):
    mn = SUFFIX.sub('', mn)
    if gen == 'gfx10':
        for pat, rep in RENAMES:
            mn = re.sub(pat, rep, mn)
    return mn


def le_bytes(words):
    out = []
    for w in words:
        out += [(w >> s) & 0xFF for s in (0, 8, 16, 24)]
    return out


def harvest(llvm_mc, gen):
    """(format -> {opcode: mnemonic}) as LLVM decodes them."""
    # loose: LLVM prints some encodings with a field it fixes (v_cmpx_*_e64
    # writes EXEC: vdst printed as 0x7e); match those without byte 0.
    lines, want, loose = [], {}, {}
    for fmt, (lo, width), base, extra, ops in FORMATS[gen]:
        mask = ((1 << width) - 1) << lo
        for op in ops:
            w0 = (base & ~mask) | (op << lo)
            for alt in (extra or [None]):
                words = [w0] + ([alt] if alt is not None else [])
                key = tuple(le_bytes(words))
                want[key] = (fmt, op)
                loose.setdefault(key[1:], (fmt, op))
                lines.append(','.join('0x%02x' % b for b in le_bytes(words + [NOP, NOP])))
    res = subprocess.run([llvm_mc, '--disassemble', '-triple=amdgcn-amd-amdhsa', '-mcpu=' + MCPU[gen]] +
                         MATTR[gen] + ['-show-encoding'], input='\n'.join(lines) + '\n', capture_output=True,
                         text=True)
    table = {f[0]: {} for f in FORMATS[gen]}
    enc = re.compile(r'^\s*(\S+).*; encoding: \[([^\]]*)\]')
    for line in res.stdout.splitlines():
        m = enc.match(line)
        if not m:
            continue
        bs = tuple(int(x, 16) for x in m.group(2).split(','))
        for n in (len(bs), 4, 8):
            hit = want.get(bs[:n])
            if hit and len(bs) >= n:
                break
        else:
            hit = loose.get(bs[1:8]) if len(bs) >= 8 else None
            if not hit:
                continue
        fmt, op = hit
        mn = m.group(1)
        if mn in ('v_illegal', 's_nop') and not (fmt == 'SOPP' and op == 0):
            continue
        table[fmt][op] = mn
    return table


def vopd_names(table):
    """VOPD's X and Y ops are printed as one 'v_dual_x :: v_dual_y' line; the
    harvest keeps the first token only, which is the X op.  Y ops are
    harvested from the VOPDY table with X = v_dual_fmac (0) — their names are
    read from the second half of the line instead (see harvest_vopd)."""
    return table


def harvest_vopd(llvm_mc):
    """gfx11 VOPD: opx in [25:22], opy in [21:17]; LLVM prints both halves."""
    lines, keys = [], []
    for x in range(16):
        for y in range(32):
            w0 = 0xC8000000 | (x << 22) | (y << 17) | 0x101
            w1 = 0x00000102 | (0x02 << 24)
            lines.append(','.join('0x%02x' % b for b in le_bytes([w0, w1, NOP, NOP])))
            keys.append((x, y))
    res = subprocess.run([llvm_mc, '--disassemble', '-triple=amdgcn-amd-amdhsa', '-mcpu=gfx1100',
                          '-show-encoding'], input='\n'.join(lines) + '\n', capture_output=True, text=True)
    xs, ys = {}, {}
    pat = re.compile(r'^\s*(v_dual_\w+)\s.*?::\s*(v_dual_\w+)\s.*; encoding: \[([^\]]*)\]')
    for line in res.stdout.splitlines():
        m = pat.match(line)
        if not m:
            continue
        bs = [int(x, 16) for x in m.group(3).split(',')]
        w0 = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
        xs[(w0 >> 22) & 15] = m.group(1)
        ys[(w0 >> 17) & 31] = m.group(2)
    return xs, ys


def harvest_buf_formats(llvm_mc, gen):
    """The data formats of MTBUF's 7-bit format field (and of a buffer
    resource's FORMAT field, the same numbering): {value: 'BUF_FMT_...'} as
    LLVM prints tbuffer_load_format_x with each value.  Value 1 is LLVM's
    default (BUF_FMT_8_UNORM), which it does not print."""
    lines = []
    for f in range(128):
        lines.append(','.join('0x%02x' % b for b in le_bytes([0xE8000000 | (f << 19), 0x80010200, NOP, NOP])))
    res = subprocess.run([llvm_mc, '--disassemble', '-triple=amdgcn-amd-amdhsa', '-mcpu=' + MCPU[gen],
                          '-show-encoding'], input='\n'.join(lines) + '\n', capture_output=True, text=True)
    out = {}
    pat = re.compile(r'^\s*tbuffer_load_format_x\b(.*); encoding: \[([^\]]*)\]')
    for line in res.stdout.splitlines():
        m = pat.match(line)
        if not m:
            continue
        bs = [int(x, 16) for x in m.group(2).split(',')]
        w0 = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
        f = (w0 >> 19) & 0x7f
        n = re.search(r'format:\[(BUF_FMT_\w+)\]', m.group(1))
        out[f] = n.group(1) if n else ('BUF_FMT_8_UNORM' if f == 1 else None)
    return {f: n for f, n in out.items() if n and n != 'BUF_FMT_INVALID'}


def dual_canonical(mn):
    """v_dual_add_f32 -> v_add_f32 (the VOP2/VOP1 op it performs)."""
    base = mn[len('v_dual_'):]
    return {'fmaak_f32': 'v_fmaak_f32', 'fmamk_f32': 'v_fmamk_f32',
            'cndmask_b32': 'v_cndmask_b32', 'add_nc_u32': 'v_add_nc_u32',
            'lshlrev_b32': 'v_lshlrev_b32', 'and_b32': 'v_and_b32',
            'dot2acc_f32_f16': 'v_dot2acc_f32_f16', 'dot2acc_f32_bf16': 'v_dot2acc_f32_bf16',
            'mul_dx9_zero_f32': 'v_mul_dx9_zero_f32'}.get(base, 'v_' + base)


def ident(mn):
    return 'RDC_OP_' + re.sub(r'[^A-Za-z0-9]', '_', mn).upper()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--llvm-mc', default='llvm-mc-19')
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    ap.add_argument('--out', default=root,
                    help='repository root: writes include/rdnacompat/isa_optab_gen.h and shim/core/isa_optab_gen.c')
    a = ap.parse_args()
    ver = subprocess.run([a.llvm_mc, '--version'], capture_output=True, text=True).stdout
    ver = re.search(r'LLVM version (\S+)', ver)
    ver = ver.group(1) if ver else '?'
    tables = {g: harvest(a.llvm_mc, g) for g in FORMATS}
    for (g, fmt, op), mn in LLVM19_LACKS.items():
        tables[g][fmt].setdefault(op, mn)
    buf_fmts = {g: harvest_buf_formats(a.llvm_mc, g) for g in FORMATS}
    xs, ys = harvest_vopd(a.llvm_mc)
    tables['gfx11']['VOPD'] = xs
    tables['gfx11']['VOPDY'] = ys
    names = set()
    for g, t in tables.items():
        for fmt, ops in t.items():
            for mn in ops.values():
                names.add(dual_canonical(mn) if fmt.startswith('VOPD') else canonical(mn, g))
    names = sorted(names)
    hdr = os.path.join(a.out, 'include', 'rdnacompat', 'isa_optab_gen.h')
    src = os.path.join(a.out, 'shim', 'core', 'isa_optab_gen.c')
    banner = ('/* SPDX-License-Identifier: MIT */\n/* Generated by gen_optab.py from llvm-mc %s '
              '(Debian); do not edit. */\n' % ver)
    fmts = []
    for g in FORMATS:
        for f in tables[g]:
            if f not in fmts:
                fmts.append(f)
    with open(hdr, 'w') as h:
        h.write(banner)
        h.write('#ifndef RDNACOMPAT_ISA_OPTAB_GEN_H\n#define RDNACOMPAT_ISA_OPTAB_GEN_H\n\n#include <stdint.h>\n\n')
        h.write('/* Canonical operations (gfx11 spelling), one per mnemonic. */\nenum rdc_op {\n'
                '\tRDC_OP_INVALID = 0,\n')
        for n in names:
            h.write('\t%s,\n' % ident(n))
        h.write('\tRDC_OP_COUNT\n};\n\n')
        h.write('/* Encoding formats with a generated opcode table. */\nenum rdc_fmt {\n')
        for f in fmts:
            h.write('\tRDC_FMT_%s,\n' % f)
        h.write('\tRDC_FMT_COUNT\n};\n\n')
        h.write('struct rdc_optab { uint16_t size; const uint16_t *op; const char *const *mnemonic; };\n')
        h.write('/* [generation 0 = gfx10.3, 1 = gfx11][format] */\n'
                'extern const struct rdc_optab rdc_optab[2][RDC_FMT_COUNT];\n')
        h.write('extern const char *const rdc_op_name[RDC_OP_COUNT];\n')
        h.write('extern const char *const rdc_fmt_name[RDC_FMT_COUNT];\n')
        h.write('/* Buffer data formats (MTBUF format field, V# FORMAT) by value, "8_8_UNORM"; NULL: invalid. */\n'
                'extern const char *const rdc_buf_fmt_name[2][128];\n')
        h.write('#define RDC_OPTAB_LLVM "%s"\n\n#endif\n' % ver)
    with open(src, 'w') as c:
        c.write(banner)
        c.write('#include "rdnacompat/isa_optab_gen.h"\n\n')
        c.write('const char *const rdc_op_name[RDC_OP_COUNT] = {\n\t[RDC_OP_INVALID] = "?",\n')
        for n in names:
            c.write('\t[%s] = "%s",\n' % (ident(n), n))
        c.write('};\n\n')
        c.write('const char *const rdc_fmt_name[RDC_FMT_COUNT] = {\n')
        for f in fmts:
            c.write('\t[RDC_FMT_%s] = "%s",\n' % (f, f))
        c.write('};\n\n')
        for gi, g in enumerate(FORMATS):
            for f in fmts:
                ops = tables[g].get(f)
                if not ops:
                    continue
                size = max(ops) + 1
                c.write('static const uint16_t %s_%s_op[%d] = {\n' % (g, f.lower(), size))
                for op in sorted(ops):
                    mn = ops[op]
                    cn = dual_canonical(mn) if f.startswith('VOPD') else canonical(mn, g)
                    c.write('\t[%d] = %s,\n' % (op, ident(cn)))
                c.write('};\n')
                c.write('static const char *const %s_%s_mn[%d] = {\n' % (g, f.lower(), size))
                for op in sorted(ops):
                    c.write('\t[%d] = "%s",\n' % (op, SUFFIX.sub('', ops[op])))
                c.write('};\n\n')
        c.write('const char *const rdc_buf_fmt_name[2][128] = {\n')
        for gi, g in enumerate(FORMATS):
            c.write('\t[%d] = {\n' % gi)
            for f in sorted(buf_fmts[g]):
                c.write('\t\t[%d] = "%s",\n' % (f, buf_fmts[g][f][len('BUF_FMT_'):]))
            c.write('\t},\n')
        c.write('};\n\n')
        c.write('const struct rdc_optab rdc_optab[2][RDC_FMT_COUNT] = {\n')
        for gi, g in enumerate(FORMATS):
            c.write('\t[%d] = {\n' % gi)
            for f in fmts:
                ops = tables[g].get(f)
                if ops:
                    c.write('\t\t[RDC_FMT_%s] = { %d, %s_%s_op, %s_%s_mn },\n'
                            % (f, max(ops) + 1, g, f.lower(), g, f.lower()))
            c.write('\t},\n')
        c.write('};\n')
    for g in FORMATS:
        print('%s: %s' % (g, ', '.join('%s %d' % (f, len(o)) for f, o in tables[g].items())), file=sys.stderr)
    print('%d canonical operations; LLVM %s' % (len(names), ver), file=sys.stderr)


if __name__ == '__main__':
    main()
