#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""summarize.py OUT KNOWN SMOKE — tests/suites/run.sh's results: per suite and
card the selected, passed, failed and skipped tests (gtest's JSON reports;
a selection whose process died before writing one has its listed tests
counted failed) and the wall time, into OUT/results.tsv and OUT/tests.tsv;
then the checks: every failure matches a line of KNOWN (suite, fnmatch
pattern of the test name, cards or '*', reason), and a mapped card passed
exactly the tests its native sibling passed (a test a KNOWN row names that
card for explicitly is left out of that comparison: the row says why).  A card
set ("gfx1031,gfx1101", one machine with both cards) has for sibling the set
of its cards' siblings.  A test of a list line with VAR=VALUE words of its
own (run.sh's N.env) is named "TEST (VAR=VALUE ...)".  RCCL's transport
(NCCL_DEBUG=INFO "via SHM/..." lines) goes to OUT/transport.tsv.  Exit 1
when a check fails."""
import fnmatch
import re
import glob
import json
import os
import sys

SIBLING = {'gfx1031': 'gfx1030', 'gfx1032': 'gfx1030', 'gfx1101': 'gfx1100', 'gfx1103': 'gfx1100'}


def sibling(card):
    """A card's native sibling, or a card set's (comma-joined) set of siblings;
    None for a native card or set."""
    sib = ','.join(SIBLING.get(c, c) for c in card.split(','))
    return None if sib == card else sib


def names(cards, card):
    """Whether a KNOWN row's cards field (comma-separated; a card set written
    with '+': gfx1031+gfx1101) names CARD (a card, or a comma-joined set)."""
    return card.replace(',', '+') in cards.split(',')


def transports(d):
    """RCCL's transports in one suite/card directory: 'P2P', 'SHM', ... from
    NCCL_DEBUG=INFO's "Channel 00 : 0[..] -> 1[..] via SHM/direct/direct"."""
    seen = set()
    for path in glob.glob(os.path.join(d, '*.out')):
        seen.update(re.findall(r' via ([A-Za-z0-9_]+)/', open(path, errors='replace').read()))
    return sorted(seen)


def listed(path):
    """gtest --gtest_list_tests output -> full test names."""
    names, suite = [], None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('Running main') or line.startswith('Note:'):
            continue
        if not line.startswith(' '):
            if line.endswith('.') or '.  #' in line:
                suite = line.split('  #')[0].strip()
            else:
                suite = None
            continue
        if suite:
            names.append(suite + line.strip().split('  #')[0].strip())
    return names


def results(d):
    """{test: (result, message)} of one suite/card directory."""
    res = {}
    for rc_path in sorted(glob.glob(os.path.join(d, '*.rc'))):
        n = rc_path[:-3]
        rc = open(rc_path).read().strip()
        seen = set()
        tag = ' (%s)' % open(n + '.env').read().strip() if os.path.exists(n + '.env') else ''
        if os.path.exists(n + '.json'):
            try:
                j = json.load(open(n + '.json'))
            except ValueError:
                j = {'testsuites': []}
            for ts in j.get('testsuites', []):
                for t in ts.get('testsuite', []):
                    name = ts['name'] + '.' + t['name'] + tag
                    seen.add(name)
                    if t.get('status') == 'NOTRUN':
                        continue
                    if t.get('failures'):
                        msg = t['failures'][0].get('failure', '').replace('\n', ' ')[:300]
                        res[name] = ('failed', msg)
                    elif t.get('result') == 'SKIPPED':
                        res[name] = ('skipped', '')
                    else:
                        res[name] = ('passed', '')
        out = open(n + '.out', errors='replace').read() if os.path.exists(n + '.out') else ''
        tot = re.search(r'^Totals: (\d+) failures, (\d+) known failures, (\d+) errors, and (\d+) passes', out, re.M)
        if not seen and tot:
            # Thrust's driver: failed tests by name, passes by count
            prog = os.path.basename(open(n + '.cmd').read().split()[0]) if os.path.exists(n + '.cmd') else 'line%s' % n
            bad = re.findall(r'^(?:FAILURE|ERROR): (\S+)', out, re.M)
            for b in bad:
                res['%s.%s' % (prog, b)] = ('failed', 'Thrust driver: ' + b)
            for i in range(int(tot.group(4))):
                res['%s.pass%d' % (prog, i)] = ('passed', '')
            for i in range(int(tot.group(2))):
                res['%s.known%d' % (prog, i)] = ('skipped', '')
            continue
        if os.path.exists(n + '.list'):
            out = open(n + '.out', errors='replace').read() if os.path.exists(n + '.out') else ''
            why = [l for l in out.splitlines() if 'rdnacompat-sim:' in l or 'Memory access fault' in l or
                   'Aborted' in l or 'error' in l.lower()][:1]
            for name in (m + tag for m in listed(n + '.list')):
                if name not in seen and name not in res:
                    res[name] = ('failed', 'the process ended (rc %s) before the test finished: %s'
                                 % (rc, why[0][:250] if why else out.strip().splitlines()[-1:] or ''))
    return res


def main():
    out, known_path, smoke = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
    known = []
    if os.path.exists(known_path):
        for line in open(known_path):
            if line.strip() and not line.startswith('#'):
                f = line.rstrip('\n').split('\t')
                if len(f) >= 4:
                    known.append(f)
    rows, tests, all_res, via = [], [], {}, []
    for d in sorted(glob.glob(os.path.join(out, '*', 'gfx*'))):
        suite, card = d.split(os.sep)[-2:]
        if os.path.exists(os.path.join(d, 'na')):
            rows.append((suite, card, 'n/a'))
            continue
        res = results(d)
        all_res[(suite, card)] = res
        if transports(d):
            via.append((suite, card, ' '.join(transports(d))))
        t = open(os.path.join(d, 'time')).read().split() if os.path.exists(os.path.join(d, 'time')) else ['0', '0']
        wall = float(t[1]) - float(t[0])
        c = {k: sum(1 for r in res.values() if r[0] == k) for k in ('passed', 'failed', 'skipped')}
        rows.append((suite, card, len(res), c['passed'], c['failed'], c['skipped'], '%.0f' % wall))
        for name, (r, msg) in sorted(res.items()):
            tests.append((suite, card, name, r, msg))
    with open(os.path.join(out, 'results.tsv'), 'w') as f:
        f.write('suite\tcard\tselected\tpassed\tfailed\tskipped\twall_s\n')
        for r in rows:
            f.write('\t'.join(map(str, r)) + '\n')
    with open(os.path.join(out, 'tests.tsv'), 'w') as f:
        for r in tests:
            f.write('\t'.join(r) + '\n')
    if via:
        with open(os.path.join(out, 'transport.tsv'), 'w') as f:
            for r in via:
                f.write('\t'.join(r) + '\n')
    bad = 0
    print('%-10s %-15s %8s %7s %7s %8s %7s' % ('suite', 'card', 'selected', 'passed', 'failed', 'skipped', 'wall s'))
    for r in rows:
        print('%-10s %-15s %8s %7s %7s %8s %7s' % (r + ('',) * (7 - len(r))))
    for r in via:
        print('transport %s %s: %s' % r)
    for (suite, card, name, r, msg) in tests:
        if r != 'failed':
            continue
        why = [k for k in known if k[0] == suite and fnmatch.fnmatchcase(name, k[1]) and
               (k[2] == '*' or names(k[2], card))]
        if why:
            continue
        bad += 1
        if bad <= 20:
            print('FAIL %s %s: %s: %s' % (suite, card, name, msg[:200]))
    if bad > 20:
        print('... %d unexplained failures in all' % bad)
    for (suite, card), res in sorted(all_res.items()):
        sib = sibling(card)
        if not sib or (suite, sib) not in all_res:
            continue
        mine = {n for n, r in res.items() if r[0] == 'passed'}
        theirs = {n for n, r in all_res[(suite, sib)].items() if r[0] == 'passed'}
        # a test a known-failures row names this card for, by name (not '*'),
        # is explained for it: the row says why it differs from the sibling
        excused = {n for n in mine ^ theirs
                   if any(k[0] == suite and k[2] != '*' and names(k[2], card) and
                          fnmatch.fnmatchcase(n, k[1]) for k in known)}
        if mine - excused != theirs - excused:
            bad += 1
            print('FAIL %s: %s passed %d tests, its sibling %s %d; differing: %s' %
                  (suite, card, len(mine), sib, len(theirs), sorted(mine ^ theirs)[:5]))
    print('suites: %s' % ('ok' if not bad else '%d problem(s)' % bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
