#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# rocblas_data_subset.py IN OUT CATEGORY FUNCTION... — a smaller data file for
# rocBLAS's gtest binary (rocblas-test --data OUT), used by
# tests/integration/84-exec-rocblas.sh: rocblas-test reads every record of
# its data file before it runs anything (933 MB and 1.6 M cases in rocBLAS
# 6.4.4's rocblas_gtest.data: about 1.5 minutes here), so the records whose
# function and category the test selects are copied and the rest left out.
# --gtest_filter then picks the cases exactly as it would from the whole file.
#
# Layout, as rocBLAS's clients/common/rocblas_gentest.py writes it and
# clients/include/rocblas_test.hpp reads it: the 8-byte magic "rocBLAS\0", a
# header that encodes the Arguments struct's field order (kept as it is), the
# 8-byte "ROCblas\0", then fixed-size Arguments records: char function[64],
# char name[64], char category[64], ...  The header's length gives the
# record size (one byte per byte of the struct), which is checked against
# the file's size.  Exit 1 with a message on any other layout.
import sys


def cstr(b):
    return b.split(b"\0", 1)[0].decode("ascii", "replace")


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: rocblas_data_subset.py IN OUT CATEGORY FUNCTION...")
    src, dst, category, funcs = sys.argv[1], sys.argv[2], sys.argv[3], set(sys.argv[4:])
    with open(src, "rb") as f:
        data = f.read()
    if data[:8] != b"rocBLAS\0":
        sys.exit("%s: not a rocBLAS gtest data file (magic %r)" % (src, data[:8]))
    end = data.find(b"ROCblas\0", 8)
    if end < 0:
        sys.exit("%s: no end of header (ROCblas)" % src)
    size = end - 8           # the header has one byte per byte of Arguments
    first = end + 8
    if size < 192 or (len(data) - first) % size:
        sys.exit("%s: %d bytes after a %d-byte header are not whole %d-byte records"
                 % (src, len(data) - first, first, size))
    kept = [data[:first]]
    n = 0
    for off in range(first, len(data), size):
        rec = data[off:off + size]
        if cstr(rec[0:64]) in funcs and cstr(rec[128:192]) == category:
            kept.append(rec)
            n += 1
    if not n:
        sys.exit("%s: no %s record of %s" % (src, category, " ".join(sorted(funcs))))
    with open(dst + ".tmp", "wb") as f:
        f.write(b"".join(kept))
    import os
    os.replace(dst + ".tmp", dst)
    print("%d of %d records kept (%d bytes each)" % (n, (len(data) - first) // size, size))


main()
