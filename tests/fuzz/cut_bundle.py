# SPDX-License-Identifier: MIT
# cut_bundle.py OUTDIR PREFIX MAX FILE... — fuzz seeds "cut small" from real
# inputs: for each FILE (a clang offload bundle; an ELF whose .hip_fatbin
# holds bundles, e.g. librocsparse; or a bare AMDGPU code object, e.g. a
# Tensile .co, taken as one entry for the gfx target in its name), the first bundles
# are read and rewritten as small valid bundles of at most MAX bytes: the
# host entry and the smallest code-object entries that fit (an entry larger
# than the room left is cut to it, so the seed still has its ids and
# layout).  Writes OUTDIR/PREFIX-<file>-<n>; prints how many.
import os
import re
import struct
import sys

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


def bundles(data, limit=4):
    """The first `limit` bundles in data: lists of (id, bytes)."""
    out, pos = [], data.find(MAGIC)
    while pos >= 0 and len(out) < limit:
        try:
            (n,) = struct.unpack_from("<Q", data, pos + 24)
            p, ents = pos + 32, []
            for _ in range(min(n, 4096)):
                off, size, idlen = struct.unpack_from("<QQQ", data, p)
                ident = data[p + 24:p + 24 + idlen]
                p += 24 + idlen
                ents.append((ident, data[pos + off:pos + off + size]))
            out.append(ents)
        except struct.error:
            break
        pos = data.find(MAGIC, pos + 24)
    return out


def write(ents):
    head = len(MAGIC) + 8 + sum(24 + len(i) for i, _ in ents)
    off, table, body = head, b"", b""
    for ident, blob in ents:
        table += struct.pack("<QQQ", off, len(blob), len(ident)) + ident
        body += blob
        off += len(blob)
    return MAGIC + struct.pack("<Q", len(ents)) + table + body


def cut(ents, cap):
    host = [e for e in ents if e[0].startswith(b"host")]
    code = sorted((e for e in ents if not e[0].startswith(b"host")), key=lambda e: len(e[1]))
    keep = [(i, b"") for i, _ in host]
    room = cap - len(write(keep))
    for ident, blob in code[:3]:
        room -= 24 + len(ident)
        if room <= 0:
            break
        keep.append((ident, blob[:room]))
        room -= len(keep[-1][1])
    return write(keep)


def main():
    outdir, prefix, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
    count = 0
    for path in sys.argv[4:]:
        data = open(path, "rb").read()
        found = bundles(data)
        if not found and data[:4] == b"\x7fELF" and struct.unpack_from("<H", data, 18)[0] == 0xE0:
            gfx = re.search(r"gfx[0-9a-f]+", os.path.basename(path))
            ident = b"hipv4-amdgcn-amd-amdhsa--" + (gfx.group(0).encode() if gfx else b"gfx1030")
            found = [[(b"host-x86_64-unknown-linux", b""), (ident, data)]]
        for k, ents in enumerate(found):
            name = "%s/%s-%s-%d" % (outdir, prefix, os.path.basename(path), k)
            open(name, "wb").write(cut(ents, cap))
            count += 1
    print(count)


main()
