#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 56-tools-doctor-truth.sh BUILD — doctor's facts about a card never come
# from a source the override changes.  On simulated cards of each kind — one
# that runs natively told another target of its family, one told a target
# of another family (the stale 10.3.0 on an RX 7800 XT), one rewritten by a
# per-node HSA_OVERRIDE_GFX_VERSION_<node> — the card's target is the one
# the simulated KFD topology holds, its name and status the card table's
# for its PCI id, every advice line (the build, the override judgement)
# names that target, and the "runtime" line compares the runtime's answer,
# asked without and with the override, with it, naming the variable that
# makes the difference.  What the runtime answers is this release's: ROCR
# 5.2 lists no RDNA3 agent and knows no per-node override (ROCm >= 6.3).
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/doctor-truth
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$T"
[ -f "$B/sim/librdnacompat-sim.so" ] || fail "no simulator in $B (make builds it)"
rel=${RDC_ROCM:-5.2}
# what this release's runtime lists: 5.2 has no RDNA3 (gfx11) agent
knows() { [ "$rel" != 5.2 ] || [ "${1#gfx11}" = "$1" ]; }
# the processor an override value names (decimal major.minor.stepping)
proc_of() { IFS=. read -r a b c <<<"$1"; printf 'gfx%d%x%x\n' "$a" "$b" "$c"; }
clean() { env -u HSA_OVERRIDE_GFX_VERSION -u HIP_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES -u CUDA_VISIBLE_DEVICES \
  -u LD_PRELOAD -u RDNACOMPAT_SIM_GPUS "$@"; }

# The card that runs natively, from the tables: the first official RDNA card
# whose PCI id is one card-table row (KFD gives no PCI revision to tell rows
# apart), told the next processor of its family (tables/isa.tsv).
SRC=${RDC_SRCDIR:-$(pwd)}
native=$(python3 - "$SRC/tables/cards.tsv" "$SRC/tables/isa.tsv" <<'PY'
import collections, sys
rows = lambda f: [l.rstrip("\n").split("\t") for l in open(f) if l.strip() and not l.startswith("#")][1:]
fam = {r[0]: r[1] for r in rows(sys.argv[2]) if r[3] == "no"}
by = collections.Counter(r[1] for r in rows(sys.argv[1]))
for r in rows(sys.argv[1]):
    if r[5] == "official" and by[r[1]] == 1 and fam.get(r[4], "").startswith("rdna"):
        sib = [p for p in fam if fam[p] == fam[r[4]] and p != r[4]][0]
        print(f"{r[4]}|{r[1][2:].lower()}:{r[2][2:].lower()}|HSA_OVERRIDE_GFX_VERSION|{int(sib[3:-2])}.{int(sib[-2], 16)}.{int(sib[-1], 16)}")
        break
PY
) || fail "no native card in the tables"
# target | PCI device (- for the simulator's default card) | variable | value:
# a native card told a sibling, another family (RDNA3 told RDNA2, RDNA3.5 told RDNA3), a
# per-node override
cases="$native
gfx1101|-|HSA_OVERRIDE_GFX_VERSION|10.3.0
gfx1151|-|HSA_OVERRIDE_GFX_VERSION|11.0.0
gfx1031|-|HSA_OVERRIDE_GFX_VERSION_1|10.3.0"
n=0
while IFS='|' read -r tg pci var val; do
  out=$T/$tg-$rel.json
  t0=$(date +%s)
  card=(); [ "$pci" = - ] || card=(--pci "1002:$pci")
  clean HSA_ENABLE_SDMA=0 timeout 120 "$R" sim --gpu "$tg" "${card[@]}" -- env "$var=$val" "$R" doctor --json >"$out" 2>"$T/$tg.err" || true
  ov=$(proc_of "$val")
  # the runtime's answers this release should give: without the override, and with it
  want_rt=None; knows "$tg" && want_rt="'$tg'"
  case $var in
    *_[0-9]*) if [ "$rel" = 5.2 ]; then want_env=$want_rt; else want_env="'$ov'"; fi;;
    *) want_env=None; knows "$ov" && want_env="'$ov'";;
  esac
  id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpus"][0]["id"])' "$out") ||
    fail "$tg: no doctor JSON: $(head -c 300 "$out") $(tail -3 "$T/$tg.err")"
  "$R" cards --json "$id" >"$T/$tg-card.json" || fail "$tg: the card table lacks $id"
  python3 - "$out" "$T/$tg-card.json" "$tg" "$var" "$val" "$ov" "$want_rt" "$want_env" <<'PY' || fail "$tg with $var=$val on $rel"
import json, sys
d = json.load(open(sys.argv[1])); cards = json.load(open(sys.argv[2]))["cards"]
tg, var, val, ov, want_rt, want_env = sys.argv[3:9]
want_rt, want_env = eval(want_rt), eval(want_env)
g = d["gpus"]
assert len(g) == 1, g
g = g[0]
# the truth: the simulated KFD topology's target, the card table's name and status for the PCI id
assert (g["target"], g["source"], g["simulated"]) == (tg, "kfd", True), g
rows = [c for c in cards if c["target"] == tg]
card = rows[0] if len(rows) == 1 else [c for c in rows if c["revision"] is None][0]
assert g["name"] == card["name"] and g["status"] == card["status"], (g["name"], g["status"], card)
# the runtime, asked without the override variables and with this environment
assert g["runtime_target"] == want_rt, ("runtime without the override", g["runtime_target"], want_rt)
assert g["runtime_target_env"] == want_env, ("runtime with " + var, g["runtime_target_env"], want_env)
rt = [c for c in d["checks"] if c["id"] == "runtime"]
assert len(rt) == 1, rt
rt = rt[0]
if want_env != tg:
    assert rt["status"] in ("warn", "fail") and f"{var}={val}" in rt["message"], rt
    assert f"unset {var}" in rt["fix"] and tg in rt["fix"], rt
    if want_env:
        assert f"reports {want_env}, but the card is {tg}" in rt["message"], rt
else:
    assert rt["status"] == "ok" and f"agrees: {tg}" in rt["message"], rt
# every advice line uses the true target
build = " ".join(c["message"] for c in d["checks"] if c["id"] == "build")
assert f"device-{tg}" in build and f"device-{ov}" not in build, build
over = " ".join(c["message"] for c in d["checks"] if c["id"] == "override")
assert tg in over, over
if var == "HSA_OVERRIDE_GFX_VERSION":
    assert f"report {ov}" in over, over
print(f"{tg} with {var}={val}: truth {g['target']} ({g['name']}, {g['status']}); runtime {g['runtime_target']}, "
      f"with the override {g['runtime_target_env']}: {rt['status']}")
PY
  echo "  ($(( $(date +%s) - t0 )) s)"
  n=$((n + 1))
done <<<"$cases"
# the text form: the gpu line names the true target, the runtime line the override
clean HSA_ENABLE_SDMA=0 timeout 120 "$R" sim --gpu gfx1101 -- env HSA_OVERRIDE_GFX_VERSION=10.3.0 "$R" doctor >"$T/text.txt" 2>&1 || true
grep -qE '^ok    gpu .*\[1002:[0-9a-f]+\] at .*: gfx1101, HIP device 0, official' "$T/text.txt" ||
  fail "text: gpu line: $(grep ' gpu ' "$T/text.txt")"
grep -qE '^(WARN|FAIL)  runtime .*HSA_OVERRIDE_GFX_VERSION=10.3.0' "$T/text.txt" || fail "text: runtime line: $(grep runtime "$T/text.txt")"
echo "56-tools-doctor-truth: ok ($n cases on ROCm $rel, simulated cards)"
