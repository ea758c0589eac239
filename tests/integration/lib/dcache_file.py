# SPDX-License-Identifier: MIT
# dcache_file.py — what the decision-cache tests (49-shim-cache-hostile,
# 49-shim-cache-devices) need to rewrite a cache file as shim/hooks/
# dcache_file.h lays it out on x86-64: the sizes, and the trailing 64-bit
# FNV-1a of everything before it made right again after an edit.
import struct

HDR_SIZE = 72
REC_SIZE = 968


def check_layout(b, who):
    """Exit with a message when the file's record size is not the one these offsets are for."""
    if struct.unpack_from('<I', b, 12)[0] != REC_SIZE:
        raise SystemExit(f'{who}: the record is not {REC_SIZE} bytes; update tests/integration/lib/dcache_file.py')


def write_with_checksum(path, b):
    """Set the file's FNV-1a over all but its last 8 bytes, and write it."""
    h = 1469598103934665603
    for x in b[:-8]:
        h = ((h ^ x) * 1099511628211) & (2**64 - 1)
    b[-8:] = struct.pack('<Q', h)
    with open(path, 'wb') as f:
        f.write(b)
