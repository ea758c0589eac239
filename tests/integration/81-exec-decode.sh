#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 — llvm-objdump-19 of the host is the reference; the rocm-6.4 root's hipcc and libggml-hip.so are read from the host
# 81-exec-decode.sh BUILD — the execution engine's decoder against LLVM:
# every instruction of our fallback kernels, of the test kernels
# (tests/integration/progs, shim; gfx1030 and gfx1100) and of a sample of
# ggml's libggml-hip.so (gfx1030, gfx1100 entries of every 35th bundle)
# decodes to the length, mnemonic, operation, operands and modifiers that
# llvm-objdump-19 prints (tests/decode/decode-diff.sh).  Instructions the
# decoder does not know are listed as "not covered", not failed.
BUILD=${1:?usage: $0 BUILD}
exec bash "$(dirname "$0")/../decode/decode-diff.sh" "$BUILD"
