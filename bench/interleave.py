#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# interleave.py — run several commands side by side, interleaved, and compare
# them (used by bench/shim-startup.sh and bench/shim-nonrocm.sh).
#
#   interleave.py [-n ROUNDS] [-w WARMUP] [--expect TEXT] [--base NAME] \
#                 'NAME=[VAR=VALUE ...] CMD ARGS...' ...
#
# Each spec is split like a shell line (shlex); leading VAR=VALUE words are
# set in the child's environment (no `env` process in between, so nothing but
# the command itself is timed).  Every round runs every command once, in an
# order rotated by one each round (no command always goes first).  Each run
# is timed from fork to reaped exit (wall, perf_counter_ns) and its user+sys
# CPU time and peak RSS come from wait4's rusage.  A run that exits non-zero,
# or whose stdout lacks --expect, stops the benchmark (nothing is reported
# for runs that did not do the work).
#
# Printed per command: median, spread (p10-p90 and min) of wall and CPU time,
# median, min and max peak RSS (a program whose allocator lands in one of
# two layouts from run to run shows two levels); per command against --base (default: the first): the
# ratio of medians and the median of the per-round paired ratios with its
# p10-p90 and a 95% confidence interval (distribution-free: the order
# statistics a binomial(n, 1/2) count brackets), and the median absolute
# delta.
import math
import os
import shlex
import statistics as st
import subprocess
import sys
import time


def parse(argv):
    opts = {"n": 20, "w": 2, "expect": None, "base": None}
    specs = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-n", "-w"):
            opts[a[1]] = int(argv[i + 1]); i += 2
        elif a in ("--expect", "--base"):
            opts[a[2:]] = argv[i + 1]; i += 2
        else:
            name, _, line = a.partition("=")
            words = shlex.split(line)
            env = dict(os.environ)
            while words and "=" in words[0] and not words[0].startswith("/"):
                k, _, v = words.pop(0).partition("=")
                env[k] = v
            if not name or not words:
                sys.exit(f"interleave.py: bad spec {a!r}")
            specs.append((name, words, env))
            i += 1
    if not specs:
        sys.exit(__doc__ or "usage: interleave.py [-n N] 'NAME=CMD' ...")
    return opts, specs


def run_once(words, env, expect):
    t0 = time.perf_counter_ns()
    if expect is None:   # nothing to read: no pipes, less harness time in the figure
        p = subprocess.Popen(words, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = err = b""
    else:
        p = subprocess.Popen(words, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = p.stdout.read()
        err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter_ns()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0 or (expect and expect.encode() not in out):
        sys.stderr.write(err.decode(errors="replace")[-2000:])
        sys.exit(f"interleave.py: {' '.join(words)}: rc={p.returncode}, "
                 f"stdout {out[:200]!r} (expected {expect!r})")
    return (t1 - t0) / 1e9, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def q(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def median_ci(xs, level=0.95):
    """The distribution-free confidence interval of a median: the sorted
    sample's j-th and (n-1-j)-th values, j the largest index with
    P(Binomial(n, 1/2) < j+1) <= (1 - level) / 2.  None below 6 values."""
    xs = sorted(xs)
    n = len(xs)
    if n < 6:
        return None
    tail, j, cum = (1 - level) / 2, -1, 0.0
    for i in range(n):
        cum += math.comb(n, i) / 2 ** n
        if cum > tail:
            break
        j = i
    j = max(j, 0)
    return xs[j], xs[n - 1 - j]


def ms(x):
    return f"{x * 1000:8.2f}"


def main():
    opts, specs = parse(sys.argv[1:])
    names = [s[0] for s in specs]
    base = opts["base"] or names[0]
    if base not in names:
        sys.exit(f"interleave.py: --base {base} is not a command name")
    load0 = os.getloadavg()[0]
    for _ in range(opts["w"]):
        for name, words, env in specs:
            run_once(words, env, opts["expect"])
    res = {n: [] for n in names}
    k = len(specs)
    for r in range(opts["n"]):
        for j in range(k):
            name, words, env = specs[(r + j) % k]
            res[name].append(run_once(words, env, opts["expect"]))
    print(f"rounds: {opts['n']} (after {opts['w']} warm-up rounds), order rotated each round; "
          f"load average before/after: {load0:.2f}/{os.getloadavg()[0]:.2f}")
    print(f"{'command':<12} {'wall median':>11} {'p10':>8} {'p90':>8} {'min':>8}   "
          f"{'cpu median':>10} {'p10':>8} {'p90':>8}   {'peak RSS':>9} {'min':>9} {'max':>9}   (ms, KiB)")
    for n in names:
        w = [x[0] for x in res[n]]
        c = [x[1] for x in res[n]]
        m = [x[2] for x in res[n]]
        print(f"{n:<12} {ms(st.median(w)):>11} {ms(q(w, .1))} {ms(q(w, .9))} {ms(min(w))}   "
              f"{ms(st.median(c)):>10} {ms(q(c, .1))} {ms(q(c, .9))}   {int(st.median(m)):>9} {min(m):>9} {max(m):>9}")
    bw = [x[0] for x in res[base]]
    bc = [x[1] for x in res[base]]
    for n in names:
        if n == base:
            continue
        w = [x[0] for x in res[n]]
        c = [x[1] for x in res[n]]
        pw = [a / b for a, b in zip(w, bw)]
        pc = [a / b for a, b in zip(c, bc) if b > 0]
        dw = [a - b for a, b in zip(w, bw)]
        dm = [a[2] - b[2] for a, b in zip(res[n], res[base])]
        ci = median_ci(pw)
        cis = f", 95% CI {ci[0]:.3f}-{ci[1]:.3f}" if ci else ""
        print(f"{n} / {base}: wall ratio of medians {st.median(w) / st.median(bw):.3f}x, "
              f"paired median {st.median(pw):.3f}x (p10 {q(pw, .1):.3f} p90 {q(pw, .9):.3f}{cis}); "
              f"wall delta median {st.median(dw) * 1000:+.2f} ms (p10 {q(dw, .1) * 1000:+.2f} "
              f"p90 {q(dw, .9) * 1000:+.2f})")
        if pc:
            print(f"{'':{len(n) + len(base) + 3}}  cpu ratio of medians "
                  f"{st.median(c) / st.median(bc):.3f}x, paired median {st.median(pc):.3f}x "
                  f"(p10 {q(pc, .1):.3f} p90 {q(pc, .9):.3f}); peak RSS delta median "
                  f"{st.median(dm):+.0f} KiB")


if __name__ == "__main__":
    main()
