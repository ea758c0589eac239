#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# meta_dynlds.py — two halves of one workaround, used by build-bundle.sh.
#
# ggml's flash_attn_combine_results<D> (built by ROCm's newer clang) declares
# the code object v5 hidden argument `hidden_dynamic_lds_size` at kernarg
# offset 152; Debian 12's LLVM 15/16 neither emits it nor lets its assembler
# accept it (the HSA metadata verifier rejects the unknown value kind).  So:
#   asm  IN.s OUT.s KERNEL  after KERNEL's `hidden_grid_dims` argument, add a
#                           placeholder argument the verifier knows
#                           (`hidden_completion_action`, offset 120);
#   elf  IN.co OUT.co       in the linked code object, replace that
#                           placeholder's MessagePack map by the one for
#                           {.offset 152, .size 4, .value_kind
#                           hidden_dynamic_lds_size}.  Both encodings are 54
#                           bytes (the shorter name pays for the 2-byte
#                           offset), so the note keeps its size and layout.
# Each step insists on exactly one match.  The kernel never reads the value.
import sys

ASM_AFTER = "        .value_kind:     hidden_grid_dims\n"
ASM_ADD = ("      - .offset:         120\n"
           "        .size:           4\n"
           "        .value_kind:     hidden_completion_action\n")


def mp_str(s):
    b = s.encode()
    assert len(b) < 32
    return bytes([0xa0 | len(b)]) + b


def mp_arg(offset_bytes, kind):
    return (b"\x83" + mp_str(".offset") + offset_bytes + mp_str(".size") + b"\x04" +
            mp_str(".value_kind") + mp_str(kind))


OLD = mp_arg(bytes([120]), "hidden_completion_action")
NEW = mp_arg(b"\xcc\x98", "hidden_dynamic_lds_size")


def fail(msg):
    sys.stderr.write("meta_dynlds: " + msg + "\n")
    sys.exit(1)


def do_asm(src, out, kernel):
    text = open(src).read()
    start = text.find("    .name:           " + kernel + "\n")
    if start < 0:
        fail("%s: no metadata for kernel %s" % (src, kernel))
    # the kernel's map starts at the previous "  - " list item
    item = text.rfind("\n  - ", 0, start)
    nxt = text.find("\n  - ", start)
    end = nxt if nxt >= 0 else text.find("amdhsa.target", start)
    body = text[item:end]
    if body.count(ASM_AFTER) != 1:
        fail("%s: kernel %s: want one hidden_grid_dims, found %d" % (src, kernel, body.count(ASM_AFTER)))
    body = body.replace(ASM_AFTER, ASM_AFTER + ASM_ADD)
    open(out, "w").write(text[:item] + body + text[end:])


def do_elf(src, out):
    data = open(src, "rb").read()
    if len(OLD) != len(NEW):
        fail("internal: encodings differ in length")
    n = data.count(OLD)
    if n != 1:
        fail("%s: want one placeholder argument, found %d" % (src, n))
    open(out, "wb").write(data.replace(OLD, NEW))


if len(sys.argv) == 5 and sys.argv[1] == "asm":
    do_asm(sys.argv[2], sys.argv[3], sys.argv[4])
elif len(sys.argv) == 4 and sys.argv[1] == "elf":
    do_elf(sys.argv[2], sys.argv[3])
else:
    fail("usage: meta_dynlds.py asm IN.s OUT.s KERNEL | elf IN.co OUT.co")
