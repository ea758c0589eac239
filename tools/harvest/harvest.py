#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""harvest.py — builds rdnacompat's diagnosis tables from the ROCm installs
themselves, so a new release is one command:

  tables/status.tsv        every hipError_t of HIP and every hsa_status_t /
                           hsa_amd_* status of ROCR: name and value from the
                           release's headers (hip_runtime_api.h; hsa.h,
                           hsa_ext_amd.h, hsa_ext_image.h, hsa_ext_finalize.h),
                           text from the release's own runtime
                           (hipGetErrorString, hsa_status_string, called in
                           the release's root through ctypes);
  tables/lib-messages.tsv  the messages Debian's ROCm libraries print about
                           the device, its architecture, its code objects or
                           its per-arch files: printable strings of each
                           library's .rodata that name one of those and read
                           as an error or a warning (printf/fmt holes kept:
                           rdnacompat explain turns them into patterns).

Each row carries a reviewed cause class (the last column, tables/
error-classes.tsv defines them).  Re-harvesting keeps the class of every
row whose key is known (status: kind+name; message: library+text) and
writes `unreviewed` for a new one.

  harvest.py update [--release R]...   rewrite both tables (releases: 5.2 = the
                                        host, 6.4, 7.2 = the Debian roots)
  harvest.py check  [--release R]...   exit 1 and print the differences when
                                        a release's harvest differs from the
                                        tables (a status or message the table
                                        lacks, or one it has no more), or when
                                        a row is unreviewed; and that each known-
                                        harmless line of tables/harmless.tsv is in
                                        its library's .rodata (of a release that
                                        ships the library)
  harvest.py check --release R --here   the same for the release installed at /
                                        (a test running inside that release's root)
  harvest.py harmless                  only the check of tables/harmless.tsv, over
                                        every release whose root is built (reads
                                        the libraries' files, runs nothing)
  harvest.py probe KIND SONAME VALUE...  (inside a root) print VALUE<TAB>TEXT

Needs Python 3 (standard library only) and, for 6.4/7.2, tests/roots/run
(root privileges) and the built roots (`make roots`).
"""
import argparse
import os
import re
import struct
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLES = os.path.join(SRC, "tables")
STATUS_TSV = os.path.join(TABLES, "status.tsv")
MSG_TSV = os.path.join(TABLES, "lib-messages.tsv")

# release -> (root name or None for the host, HIP runtime soname)
RELEASES = {
    "5.2": (None, "libamdhip64.so.5"),
    "6.4": ("rocm-6.4", "libamdhip64.so.6"),
    "7.2": ("rocm-7.2", "libamdhip64.so.7"),
}
LIBDIR = "/usr/lib/x86_64-linux-gnu"

# The libraries whose device messages are harvested: (short name, glob
# under LIBDIR).  Only the real file of each soname is read.
LIBS = [
    ("hip", "libamdhip64.so.*"),
    ("rocr", "libhsa-runtime64.so.*"),
    ("rocblas", "librocblas.so.*"),
    ("hipblas", "libhipblas.so.*"),
    ("hipblaslt", "libhipblaslt.so.*"),
    ("miopen", "libMIOpen.so.*"),
    ("rocsparse", "librocsparse.so.*"),
    ("rocfft", "librocfft.so.*"),
    ("rocrand", "librocrand.so.*"),
    ("rocsolver", "librocsolver.so.*"),
    ("rccl", "librccl.so.*"),
    ("ggml", "ggml/backends0/libggml-hip.so"),
    ("ggml", "libggml-hip.so*"),
]

# ---- headers -------------------------------------------------------------------

def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", " ", s, flags=re.S)
    return re.sub(r"//[^\n]*", " ", s)


def enum_values(body, known):
    """name -> value for the enumerators of one enum body (C rules:
    explicit value, else previous + 1; a value may name an earlier one)."""
    out = []
    nxt = 0
    for item in body.split(","):
        item = item.strip()
        if not item:
            continue
        m = re.match(r"([A-Za-z_]\w*)\s*(?:=\s*(.+))?$", item, re.S)
        if not m:
            continue
        name, expr = m.group(1), m.group(2)
        if expr is not None:
            expr = expr.strip()
            if expr in known:
                val = known[expr]
            else:
                try:
                    val = int(re.sub(r"[uUlL]+$", "", expr), 0)
                except ValueError:
                    continue
        else:
            val = nxt
        known[name] = val
        out.append((name, val))
        nxt = val + 1
    return out


def hip_statuses(root):
    path = root + "/usr/include/hip/hip_runtime_api.h"
    s = strip_comments(open(path, encoding="utf-8", errors="replace").read())
    m = re.search(r"typedef\s+enum\s+(?:__HIP_NODISCARD\s+)?hipError_t\s*\{(.*?)\}\s*hipError_t\s*;", s, re.S)
    if not m:
        sys.exit(f"harvest: no hipError_t enum in {path}")
    return enum_values(m.group(1), {})


def hsa_statuses(root):
    known, out = {}, []
    for h in ("hsa.h", "hsa_ext_amd.h", "hsa_ext_image.h", "hsa_ext_finalize.h"):
        path = f"{root}/usr/include/hsa/{h}"
        if not os.path.exists(path):
            continue
        s = strip_comments(open(path, encoding="utf-8", errors="replace").read())
        for m in re.finditer(r"enum\s*(\w*)\s*\{(.*?)\}", s, re.S):
            body = m.group(2)
            if not re.search(r"\bHSA_(EXT_)?STATUS_", body):
                continue
            for name, val in enum_values(body, known):
                if re.match(r"HSA_(EXT_)?STATUS_", name):
                    out.append((name, val))
    return out

# ---- runtime texts ---------------------------------------------------------------

def probe(kind, soname, values):
    """Runs in the release's root: the text the runtime returns per value."""
    import ctypes
    lib = ctypes.CDLL(soname)
    for v in values:
        text = None
        if kind == "hip":
            f = lib.hipGetErrorString
            f.restype = ctypes.c_char_p
            f.argtypes = [ctypes.c_int]
            text = f(v)
        else:
            p = ctypes.c_char_p()
            if lib.hsa_status_string(ctypes.c_int(v), ctypes.byref(p)) == 0:
                text = p.value
        t = text.decode("utf-8", "replace") if text else "-"
        print(f"{v}\t{esc(t)}")


HERE = set()   # releases installed at / (--here: a test already inside the release's root)


def run_in(release, args):
    root, _ = RELEASES[release]
    if release in HERE:
        root = None
    cmd = [sys.executable if root is None else "python3", os.path.abspath(__file__)] + args
    if root:
        cmd = [os.path.join(SRC, "tests/roots/run"), root, "--"] + cmd
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode == 77:
        sys.exit(f"harvest: root {root} is not built (make roots): {r.stderr.strip()}")
    if r.returncode:
        sys.exit(f"harvest: {' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[-500:]}")
    return r.stdout


def root_path(release):
    root, _ = RELEASES[release]
    if root is None or release in HERE:
        return ""
    r = subprocess.run([os.path.join(SRC, "tests/roots/path"), root], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit(f"harvest: {r.stderr.strip()}")
    return r.stdout.strip()


def harvest_status(release):
    root = root_path(release)
    rows = []
    for kind, soname, statuses in (("hip", RELEASES[release][1], hip_statuses(root)),
                                   ("hsa", "libhsa-runtime64.so.1", hsa_statuses(root))):
        vals = sorted({v for _, v in statuses})
        texts = {}
        for line in run_in(release, ["probe", kind, soname] + [str(v) for v in vals]).splitlines():
            v, t = line.split("\t", 1)
            texts[int(v)] = t
        for name, v in statuses:
            shown = str(v) if kind == "hip" else f"0x{v:x}"
            rows.append((kind, name, shown, release, texts.get(v, "-")))
    return rows

# ---- library messages --------------------------------------------------------------

def rodata_strings(path):
    """Printable strings (tab and newline allowed) of the ELF's .rodata."""
    with open(path, "rb") as f:
        hdr = f.read(64)
        if hdr[:4] != b"\x7fELF" or hdr[4] != 2:
            return []
        shoff, = struct.unpack_from("<Q", hdr, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", hdr, 0x3A)
        f.seek(shoff)
        sh = f.read(shentsize * shnum)
        secs = [struct.unpack_from("<IIQQQQ", sh, i * shentsize) for i in range(shnum)]
        names_off, names_size = secs[shstrndx][4], secs[shstrndx][5]
        f.seek(names_off)
        names = f.read(names_size)
        out = []
        for name_i, _type, _flags, _addr, off, size in secs:
            name = names[name_i:names.index(b"\0", name_i)]
            if name != b".rodata":
                continue
            f.seek(off)
            data = f.read(size)
            for m in re.finditer(rb"[\t\n\x20-\x7e]{12,}", data):
                out.append(m.group(0).decode("ascii"))
        return out


# A message about the device, its architecture, its code objects or per-arch files ...
DEVICE_RE = re.compile(
    r"\bgfx|\barch\b|architecture|\bGPU\b|\bdevices?\b|code ?objects?|\bISA\b|hsaco|Tensile|TensileLibrary|"
    r"\.kdb\b|\.co\b|kernel (image|binary|file|database|object)|fat ?bin|offload|target id|gcnArch|"
    r"processor|no kernel|kernel not found|solution|initiali[sz]e (ROCm|HIP|CUDA)|no (ROCm|HIP|CUDA)\b", re.I)
# ... that reads as an error or a warning.
FAULT_RE = re.compile(
    r"\bnot\b|\bno\b|cannot|can't|could ?n.t|couldn't|unable|fail|invalid|unsupported|missing|error|"
    r"mismatch|unknown|does ?n.t|doesn't|abort|warning|illegal|unrecognized|available", re.I)
# ... naming the architecture outright (a stream message's middle piece, " for GPU arch : ").
ARCH_RE = re.compile(r"GPU arch|\bgfx|TensileLibrary|code object|\bISA\b", re.I)
# Not a message: source code, paths alone, option help, mangled names.
NOISE_RE = re.compile(
    r"^\s*(#|//|/\*)|[{};]\s*$|\b(return|const|void|struct|template|typename|static_cast|__global__|"
    r"__device__|#include|#define|__attribute__)\b|^_Z|\bstd::|^\s*-{1,2}\w|\$\{|\bint32_t\b|\buint|"
    r"==|!=|\|\||&&|\w{40}|\.(cpp|hpp|h):\d+", re.I)
HOLE_RE = re.compile(r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcspn]|\{[^{}]*\}")


def literal_words(fmt):
    return re.findall(r"[A-Za-z]{2,}", HOLE_RE.sub(" ", fmt))


def is_message(s):
    if len(s) > 400 or s.count("\n") > 3:
        return False
    if NOISE_RE.search(s) or not DEVICE_RE.search(s) or not (FAULT_RE.search(s) or re.search("GPU arch", s)):
        return False
    words = literal_words(s)
    short = ARCH_RE.search(s) and len(words) >= 2 and sum(len(w) for w in words) >= 8
    if not short and (len(words) < 3 or sum(len(w) for w in words) < 12):
        return False
    # prose: mostly letters and spaces, not a symbol or an identifier list
    letters = sum(c.isalpha() or c == " " for c in s)
    return letters >= 0.7 * len(s)


def harvest_messages(release, status_rows=()):
    """`status_rows`: this release's status rows; a string that is a status
    text (or its part after "NAME: ") is the status table's, not a message."""
    root = root_path(release)
    known = set()
    for r in status_rows:
        known.add(r[4])
        known.add(r[4].split(": ", 1)[-1])
    rows = []
    seen_files = set()
    for short, pat in LIBS:
        import glob
        for p in sorted(glob.glob(root + LIBDIR + "/" + pat)):
            real = os.path.realpath(p)
            if real in seen_files or not os.path.isfile(real):
                continue
            seen_files.add(real)
            name = os.path.basename(p)
            # the soname link ("librocblas.so.4"), not the real file's full version
            if os.path.islink(p) and not re.search(r"\.so\.\d+$", name):
                continue
            for s in rodata_strings(real):
                if is_message(s):
                    s = s.strip(" ")
                    if len(s) > 2 and s[0] == s[-1] == '"':
                        s = s[1:-1]
                    if esc(s) in known:
                        continue
                    rows.append((short, release, name, esc(s)))
    return sorted(set(rows))

# ---- known-harmless lines (tables/harmless.tsv) -------------------------------------

# harmless.tsv's lib -> the library's glob under LIBDIR (LIBS, plus libdrm).
HARMLESS_LIBS = dict(LIBS)
HARMLESS_LIBS["libdrm"] = "libdrm_amdgpu.so.*"
HARMLESS_LIBS["ggml"] = "libggml-hip.so*"


def harmless_key(text):
    """The longest literal piece of a format (between conversions), without
    the blanks and punctuation at its ends: what the binary must contain."""
    pieces = [p.strip(" :,.!\"'") for p in HOLE_RE.sub("\0", text).split("\0")]
    return max(pieces, key=len)


def check_harmless(tables, releases, complete):
    """Each row of harmless.tsv: its text is in the .rodata of the library in
    at least one release (of `releases`) that ships the library; a release
    whose library lacks it (an older or differently configured build) is
    noted.  Only a `complete` check (every release) can tell that no release
    has it: a check of some releases notes a lack.  Returns the number of
    problems (each printed)."""
    import glob
    path = os.path.join(tables, "harmless.tsv")
    bad = rows = 0
    found = {}
    for ln, line in enumerate(open(path), 1):
        if line.startswith("#") or not line.strip():
            continue
        c = line.rstrip("\n").split("\t")
        if c[0] == "lib":
            continue
        rows += 1
        if len(c) != 4 or c[0] not in HARMLESS_LIBS:
            print(f"harmless.tsv:{ln}: bad row (4 columns, lib one of {' '.join(sorted(HARMLESS_LIBS))})")
            bad += 1
            continue
        key = harmless_key(c[1])
        shipped, has, lacks = 0, [], []
        for r in releases:
            root = root_path(r)
            files = sorted({os.path.realpath(p) for p in glob.glob(root + LIBDIR + "/" + HARMLESS_LIBS[c[0]])
                            if os.path.isfile(p)})
            if not files:
                continue
            shipped += 1
            (has if any(key in s for f in files for s in rodata_strings(f)) else lacks).append(r)
        if shipped and not has and complete:
            print(f"harmless.tsv:{ln}: {c[0]} of ROCm {' '.join(lacks)} has no \"{key}\": "
                  f"not a text this library prints")
            bad += 1
        elif lacks:
            print(f"harmless.tsv:{ln}: note: {c[0]} of ROCm {' '.join(lacks)} has no \"{key}\" "
                  f"(ROCm {' '.join(has)} has)")
        found[ln] = len(has)
    print(f"harvest check: harmless.tsv: {rows} rows, "
          f"{sum(1 for v in found.values() if v)} found in a shipped library, {bad} problem(s)")
    return bad

# ---- tables --------------------------------------------------------------------------

def esc(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


STATUS_HEAD = """# SPDX-License-Identifier: MIT
# status.tsv — every hipError_t of HIP and every hsa_status_t / hsa_amd_* status of ROCR, per
# release, as `rdnacompat explain` matches them (by name, by text, by value after "code:" or as the
# whole input).  GENERATED by tools/harvest/harvest.py update (do not edit the first five columns):
# name and value from the release's headers (/usr/include/hip/hip_runtime_api.h enum hipError_t;
# /usr/include/hsa/hsa.h, hsa_ext_amd.h, hsa_ext_image.h, hsa_ext_finalize.h), text from the
# release's runtime itself (hipGetErrorString(value) of libamdhip64.so.N, hsa_status_string(value)
# of libhsa-runtime64.so.1, called through ctypes in the release's root; "-" when the runtime has
# none).  5.2 is Debian 12's host install, 6.4 and 7.2 the Debian roots (docs/ROOTS.md).
# The class (last column) is reviewed, kept by name across harvests; tables/error-classes.tsv
# says for each class whether an unsupported or mis-identified card is a known cause, what the
# user checks and what rdnacompat does.  Backslash escapes in text: \\n \\t \\\\.
kind	name	value	release	text	class
"""

MSG_HEAD = """# SPDX-License-Identifier: MIT
# lib-messages.tsv — the messages Debian's ROCm libraries print about the device, its
# architecture, its code objects or its per-arch files, per release and library, as
# `rdnacompat explain` matches them (printf conversions and {} holes match what the program
# filled in).  GENERATED by tools/harvest/harvest.py update (do not edit the first four
# columns): each row is one printable string of the library's ELF .rodata that names the
# device, an architecture, a code object, Tensile or a kernel database AND reads as an error or
# warning (the filters DEVICE_RE, FAULT_RE, NOISE_RE in the tool), backslash-escaped (\\n \\t
# \\\\).  C++ stream messages appear as their literal pieces.  5.2 is Debian 12's host
# install, 6.4 and 7.2 the Debian roots (docs/ROOTS.md).  The class (last column) is reviewed,
# kept by library+text across harvests: `ignore` for a string the filters took that is no
# device message (explain skips it), else a class of tables/error-classes.tsv.
lib	release	file	text	class
"""


def read_table(path, ncols):
    rows = []
    if not os.path.exists(path):
        return rows
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        c = line.split("\t")
        if len(c) != ncols or c[0] in ("kind", "lib"):
            continue
        rows.append(tuple(c))
    return rows


def merge(old, new, key):
    classes = {}
    for r in old:
        classes.setdefault(key(r), r[-1])
    return [r + (classes.get(key(r), "unreviewed"),) for r in new]


def status_key(r):
    return (r[0], r[1])


def msg_key(r):
    return (r[0], r[3])


def write_table(path, head, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(head)
        for r in rows:
            f.write("\t".join(r) + "\n")
    os.replace(tmp, path)


def order_status(rows):
    rel = {k: i for i, k in enumerate(RELEASES)}
    return sorted(rows, key=lambda r: (r[0], int(r[2], 0), r[1], rel.get(r[3], 9)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for c in ("update", "check"):
        p = sub.add_parser(c)
        p.add_argument("--release", action="append", choices=list(RELEASES))
        p.add_argument("--tables", default=TABLES)
        p.add_argument("--here", action="store_true",
                       help="the (one) release given is the one installed at / (run inside its root)")
    p = sub.add_parser("harmless")
    p.add_argument("--tables", default=TABLES)
    p = sub.add_parser("probe")
    p.add_argument("kind", choices=["hip", "hsa"])
    p.add_argument("soname")
    p.add_argument("values", nargs="+", type=int)
    a = ap.parse_args()
    if a.cmd == "probe":
        probe(a.kind, a.soname, a.values)
        return 0
    if a.cmd == "harmless":
        have = [r for r in RELEASES if RELEASES[r][0] is None or subprocess.run(
            [os.path.join(SRC, "tests/roots/path"), RELEASES[r][0]], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode == 0]
        for r in RELEASES:
            if r not in have:
                print(f"harvest harmless: ROCm {r}: root not built, not checked")
        return 1 if check_harmless(a.tables, have, len(have) == len(RELEASES)) else 0
    releases = a.release or list(RELEASES)
    if a.here:
        if len(releases) != 1:
            sys.exit("harvest: --here takes exactly one --release")
        HERE.add(releases[0])
    spath = os.path.join(a.tables, "status.tsv")
    mpath = os.path.join(a.tables, "lib-messages.tsv")
    old_s, old_m = read_table(spath, 6), read_table(mpath, 5)
    new_s, new_m = [], []
    for r in releases:
        rs = harvest_status(r)
        new_s += rs
        new_m += harvest_messages(r, rs)
    # releases not harvested now keep their rows
    keep_s = [r[:5] for r in old_s if r[3] not in releases]
    keep_m = [r[:4] for r in old_m if r[1] not in releases]
    st = order_status(merge(old_s, keep_s + new_s, status_key))
    ms = sorted(merge(old_m, keep_m + new_m, msg_key), key=lambda r: (r[0], r[3], r[1], r[2]))
    if a.cmd == "update":
        write_table(spath, STATUS_HEAD, st)
        write_table(mpath, MSG_HEAD, ms)
        un = sum(r[-1] == "unreviewed" for r in st + ms)
        print(f"harvest: {len(st)} status rows, {len(ms)} message rows ({un} unreviewed) for {' '.join(releases)}")
        return 0
    bad = 0
    for name, old, new in (("status.tsv", old_s, st), ("lib-messages.tsv", old_m, ms)):
        o, n = set(old), set(new)
        for r in sorted(n - o):
            print(f"{name}: harvest has, table lacks: {' | '.join(r)}")
            bad += 1
        for r in sorted(o - n):
            if (r[3] if name == "status.tsv" else r[1]) in releases:
                print(f"{name}: table has, harvest lacks: {' | '.join(r)}")
                bad += 1
        for r in sorted(n):
            if r[-1] == "unreviewed":
                print(f"{name}: unreviewed: {' | '.join(r)}")
                bad += 1
    bad += check_harmless(a.tables, releases, set(releases) == set(RELEASES))
    print(f"harvest check ({' '.join(releases)}): {len(st)} status rows, {len(ms)} message rows, "
          f"{bad} difference(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
