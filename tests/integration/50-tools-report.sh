#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 50-tools-report.sh BUILD — `rdnacompat report` on a fake gfx1031 machine
# with a shim log: the report has the card, target, versions, the shim's
# decisions and the doctor's results, passes `db check`, and carries no
# personal data (user name, host name — the fake tree's and this machine's —
# or home paths, even when the notes and the log contain them); a simulated
# report on the release itself names the ROCm of the HIP runtime a program
# built there loads (the 7.2 root, with 6.4's libamdhip64 too, said 6.4.3).
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/report
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$T"
bash "$SRC/tests/tools/mkfakeroot.sh" "$T/root" rx6700 || fail mkfakeroot
secret_user=zq-alice-7
secret_host=zq-workstation-9
echo "$secret_host" >"$T/root/etc/hostname"
mkdir -p "$T/root/home/$secret_user/.local/lib/python3.11/site-packages"
cp -r "$T/root/home/tester/.local/lib/python3.11/site-packages/torch" "$T/root/home/$secret_user/.local/lib/python3.11/site-packages/"
cat >"$T/shim.log" <<EOF2
rdnacompat[9]: info: device: device=0 target=gfx1031 isa=amdgcn-amd-amdhsa--gfx1031 mode=map spoof_as=gfx1030
rdnacompat[9]: info: map: lib=/home/$secret_user/venv/lib/libtorch_hip.so bundle=0 source=fatbin device=0 target=gfx1031 mode=map verdict=mapped entry=hipv4-amdgcn-amd-amdhsa--gfx1030 chosen=gfx1030 kernels=4 refused=0 bytes=9 reason="ok"
rdnacompat[9]: info: map: lib=/home/$secret_user/venv/lib/libtorch_hip.so bundle=1 source=fatbin device=0 target=gfx1031 mode=map verdict=mapped entry=hipv4-amdgcn-amd-amdhsa--gfx1030 chosen=gfx1030 kernels=6 refused=0 bytes=9 reason="ok"
rdnacompat[9]: warn: refused: lib=/opt/rocm/lib/librocblas.so.4 bundle=2 device=0 kernel=Cijk_big check=vgpr reason="needs 256 VGPRs"
rdnacompat[9]: warn: tables: /home/$secret_user/my.tsv on $secret_host refused
EOF2
realhost=$(hostname 2>/dev/null || cat /etc/hostname 2>/dev/null || true)
run_report() {
  env -u LD_PRELOAD -u HSA_OVERRIDE_GFX_VERSION HOME=/home/$secret_user USER=$secret_user LOGNAME=$secret_user \
    "$R" report --root "$T/root" --log "$T/shim.log" --workload "python /home/$secret_user/bench.py" \
    --notes "by $secret_user on $secret_host ($realhost), files in /home/$secret_user/x and /root/y" "$@"
}
mkdir -p "$T/reports"
run_report -o "$T/reports/test.report" 2>"$T/report.err" || fail "report: $(cat "$T/report.err")"
f=$T/reports/test.report
for bad in "$secret_user" "$secret_host" "/home/" "/root/"; do
  ! grep -qF -- "$bad" "$f" || fail "personal data '$bad' in the report: $(grep -F -- "$bad" "$f")"
done
if [ -n "$realhost" ] && [ ${#realhost} -ge 3 ] && [ "$realhost" != localhost ]; then
  ! grep -qwF -- "$realhost" "$f" || fail "this machine's host name is in the report"
fi
grep -q "^notes: by <user> on <host> .*~/x and ~/y$" "$f" || fail "notes not scrubbed as documented: $(grep notes "$f")"
want=$("$R" cards --json 1002:73df:c1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["cards"][0]["target"])')
grep -q "^gfx_target: $want$" "$f" || fail "target"
grep -q "^pci_id: 1002:73df$" "$f" && grep -q "^pci_revision: 0xc1$" "$f" || fail "pci id/revision"
grep -q "^rocm_version: 6.2.4$" "$f" && grep -q "^pytorch_hip: 6.1.40091" "$f" || fail "versions"
grep -q "^mapped: libtorch_hip.so: gfx1030 -> gfx1031 (2 code objects), 10 kernels$" "$f" || fail "mapped: $(grep mapped "$f")"
grep -q "^refused: librocblas.so.4: check=vgpr kernel=Cijk_big$" "$f" || fail "refused: $(grep refused "$f")"
grep -q "^result: partial$" "$f" || fail "result from the log"
grep -q "^doctor: warn gpu .*gfx1031" "$f" && grep -q "^doctor: warn pytorch" "$f" || fail "doctor lines"
"$R" db check --reports "$T/reports" >"$T/check.out" || fail "db check rejects the report: $(cat "$T/check.out")"
# JSON form carries the same facts.
run_report --json >"$T/r.json" 2>/dev/null || fail "report --json"
python3 - "$T/r.json" "$secret_user" <<'PY' || fail "report JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "1" and d["gfx_target"] and isinstance(d["doctor"], list) and d["mapped"]
assert sys.argv[2] not in json.dumps(d)
PY
# No card to report: exit 1; a simulated report needs --card.
rc=0; env HOME=/home/tester "$R" report --root "$T/nogpu" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "no GPU: exit $rc"
env HOME=/home/tester "$R" report --root "$T/nogpu" --simulated --card 1002:73ff:c7 --no-doctor >"$T/sim.report" || fail "simulated"
grep -q "^simulated: yes$" "$T/sim.report" && grep -q "^result: untested$" "$T/sim.report" || fail "simulated fields"
hip=$(readlink -f /usr/lib/x86_64-linux-gnu/libamdhip64.so 2>/dev/null)
if [ -f "$hip" ]; then
  mm=$(basename "$hip" | sed -E 's/^libamdhip64\.so\.([0-9]+\.[0-9]+).*/\1/')
  mkdir -p "$T/rel"; rm -f "$T/rel/"*
  env HOME=/home/tester "$R" report --simulated --card 1002:73df:c1 --no-doctor -o "$T/rel/sim-rel.report" 2>/dev/null || fail "report on this release"
  grep -q "^rocm_version: $mm\.[0-9]*$" "$T/rel/sim-rel.report" || fail "release report: $(grep ^rocm "$T/rel/sim-rel.report"), want $mm (from $hip)"
  "$R" db check --reports "$T/rel" >"$T/check.out" || fail "db check rejects the release report: $(cat "$T/check.out")"
fi
# --submit: the report is written, and the link opens a prefilled issue with exactly that file
# (decoded body carries the report; title names card, target, ROCm, result); nothing is sent.
mkdir -p "$T/submit"; rm -f "$T/submit/"*
(cd "$T/submit" && run_report --submit >"$T/submit.out" 2>"$T/submit.err") || fail "report --submit: $(cat "$T/submit.err")"
sf=$(ls "$T/submit/"rdnacompat-report-*-gfx1031.report 2>/dev/null | head -1)
[ -s "$sf" ] || fail "report --submit wrote no rdnacompat-report-DATE-TARGET.report: $(ls "$T/submit")"
python3 - "$T/submit.out" "$sf" "$secret_user" <<'PY' || fail "the --submit link (details above)"
import sys, urllib.parse
out, path, secret = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(out).read()
url = [l for l in text.splitlines() if l.startswith("https://")]
assert len(url) == 1, text
u = urllib.parse.urlsplit(url[0])
assert u.path.endswith("/issues/new"), u
assert len(url[0]) <= 8000, len(url[0])
q = urllib.parse.parse_qs(u.query, strict_parsing=True)
title, body = q["title"][0], q["body"][0]
assert "gfx1031" in title and "ROCm 6.2.4" in title and "partial" in title, title
rep = open(path).read()
assert "```\n" + rep + "```" in body, "the body does not carry the report file as written"
assert secret not in url[0] and "whole report" in text, text
print("  --submit link: %d characters, title %r" % (len(url[0]), title))
PY
[ $? -eq 0 ] || exit 1
# a long report: the link stays within 8000 characters, says what was left out and names the file
notes=(); for i in $(seq 1 30); do notes+=(--notes "note $i: $(printf 'x%.0s' $(seq 1 120))"); done
(cd "$T/submit" && run_report --submit -o long.report "${notes[@]}" >"$T/submit-long.out" 2>/dev/null) || fail "long --submit"
python3 - "$T/submit-long.out" "$T/submit/long.report" <<'PY' || fail "the long --submit link (details above)"
import sys, urllib.parse, os
text = open(sys.argv[1]).read(); full = os.path.realpath(sys.argv[2])
url = [l for l in text.splitlines() if l.startswith("https://")][0]
assert len(url) <= 8000, len(url)
body = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["body"][0]
assert "left out" in body and full in body, body[:400]
assert "leaves out the report's last" in text and full in text, text
rep = open(sys.argv[2]).read().splitlines()
kept = body.split("```\n", 1)[1].rsplit("```", 1)[0].splitlines()
assert kept == rep[:len(kept)] and 0 < len(kept) < len(rep), (len(kept), len(rep))
print("  long report: %d of %d lines in a %d-character link, the rest named" % (len(kept), len(rep), len(url)))
PY
[ $? -eq 0 ] || exit 1
rc=0; run_report --submit --json >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "--submit --json: exit $rc"

# db add: the report becomes a row (validated, atomic, never over another file); a simulated run
# stays marked simulated; bad input: the problem, exit 1, nothing written.
rows=$T/rows; rm -rf "$rows"; mkdir -p "$rows"
"$R" db add "$f" --reports "$rows" >"$T/add.out" 2>&1 || fail "db add: $(cat "$T/add.out")"
row=$(ls "$rows"/*.report); [ "$(echo "$row" | wc -l)" -eq 1 ] && cmp -s "$row" "$f" || fail "db add: no row equal to the report"
case $(basename "$row") in *-gfx1031-100273df-user-*.report) ;; *) fail "db add: row name $(basename "$row")";; esac
"$R" db add "$f" --reports "$rows" >"$T/add2.out" 2>&1 && grep -q "already a row" "$T/add2.out" || fail "db add twice: $(cat "$T/add2.out")"
"$R" db add "$T/sim.report" --reports "$rows" >"$T/add3.out" 2>&1 || fail "db add simulated: $(cat "$T/add3.out")"
simrow=$(ls "$rows"/*-sim-user-*.report 2>/dev/null) && grep -q '^simulated: yes$' "$simrow" || fail "the simulated row lost its mark"
grep -q "simulated run" "$T/add3.out" || fail "db add does not say the row is a simulated run"
sed 's/^simulated: yes$/simulated: no/' "$T/sim.report" >"$T/unsim.report"
echo "notes: run under rdnacompat sim --gpu gfx1032" >>"$T/unsim.report"
sed '/^gfx_target:/s/gfx1031/gfx1100/' "$f" >"$T/wrongtarget.report"
printf 'not a report\n' >"$T/garbage.report"
n=$(ls "$rows" | wc -l)
for bad in unsim wrongtarget garbage missing; do
  rc=0; "$R" db add "$T/$bad.report" --reports "$rows" >"$T/add-$bad.out" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] || fail "db add $bad: exit $rc: $(cat "$T/add-$bad.out")"
  grep -q "nothing written\|cannot read" "$T/add-$bad.out" || fail "db add $bad: no clear error: $(cat "$T/add-$bad.out")"
done
grep -q "simulated run stays marked" "$T/add-unsim.out" || fail "a simulated run relabelled: $(cat "$T/add-unsim.out")"
[ "$(ls -A "$rows" | wc -l)" -eq "$n" ] || fail "a refused report left a file: $(ls -A "$rows")"
"$R" db check --reports "$rows" >/dev/null || fail "db check rejects the added rows"
rc=0; "$R" report --card 1002:ffff >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 1 ] || fail "unknown card: exit $rc"
rc=0; "$R" report --bogus >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "usage: exit $rc"
echo "50-tools-report: ok"
