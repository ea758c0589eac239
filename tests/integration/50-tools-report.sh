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
rc=0; "$R" report --card 1002:ffff >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 1 ] || fail "unknown card: exit $rc"
rc=0; "$R" report --bogus >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ] || fail "usage: exit $rc"
echo "50-tools-report: ok"
