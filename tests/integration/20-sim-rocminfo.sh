#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 20-sim-rocminfo.sh BUILD — each release's real rocminfo on the simulated GPU:
# names one agent, two mixed agents, HSA_OVERRIDE_GFX_VERSION (global; the
# per-node variable: unknown to Debian's thunk 5.2.3, so it changes nothing,
# honoured by the thunk in ROCR 6.4/7.2), bad override values, and gfx11
# (ROCR 5.2.3 does not know it: clear error, no hang; 6.4/7.2 list it), gfx1152 and
# gfx1153 (6.4/7.2 list them with gfx11-generic).  rocminfo runs without helpers: its lsmod and
# /dev/kfd pre-checks are answered by the simulator.
BUILD=${1:?usage: $0 BUILD}
source "$(dirname "$0")/progs/sim_common.bash"

agents() { grep -E '^  Name: +gfx' | awk '{print $2}' | tr '\n' ' ' | sed 's/ $//'; }

out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1031 2>&1) || fail "rocminfo on gfx1031: $out"
[ "$(echo "$out" | agents)" = "gfx1031" ] || fail "one gfx1031 agent expected, got '$(echo "$out" | agents)'"
echo "$out" | grep -q 'Marketing Name: *AMD Radeon RX 6700 XT' || fail "marketing name of the default gfx1031 card missing"
echo "$out" | grep -q 'amdgcn-amd-amdhsa--gfx1031' || fail "ISA name amdgcn-amd-amdhsa--gfx1031 missing"
echo "ok: one gfx1031"

out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1030,gfx1031 2>&1) || fail "rocminfo on gfx1030,gfx1031: $out"
[ "$(echo "$out" | agents)" = "gfx1030 gfx1031" ] || fail "two mixed agents expected, got '$(echo "$out" | agents)'"
echo "ok: gfx1030 + gfx1031"

out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1031 HSA_OVERRIDE_GFX_VERSION=10.3.0 2>&1) || fail "override: $out"
[ "$(echo "$out" | agents)" = "gfx1030" ] || fail "HSA_OVERRIDE_GFX_VERSION=10.3.0 should make gfx1031 report gfx1030"
echo "$out" | grep -q 'Marketing Name: *AMD Radeon RX 6700 XT' || fail "the card itself should stay a 6700 XT"
echo "ok: global override"

# The real thunk decides now: libhsakmt 5.2.3 reads only the global variable;
# the thunk inside ROCR 6.4/7.2 honours HSA_OVERRIDE_GFX_VERSION_<node>.
rel=${RDC_ROCM:-5.2}
out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1031,gfx1031 HSA_OVERRIDE_GFX_VERSION_2=10.3.0 2>&1) || fail "per-node: $out"
if [ "$rel" = 5.2 ]; then want="gfx1031 gfx1031"; else want="gfx1031 gfx1030"; fi
[ "$(echo "$out" | agents)" = "$want" ] || fail "per-node override on $rel: '$want' expected, got '$(echo "$out" | agents)'"
echo "ok: the per-node override is the thunk's business ($rel: $want)"

for bad in 10.3 10.3.0x 10.3.0.1 abc 64.0.0; do
  # The real thunk fails its topology snapshot (its pr_err shows at
  # HSAKMT_DEBUG_LEVEL=3); ROCR 5.2's hsa_init then fails, no agents.
  out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1031 HSAKMT_DEBUG_LEVEL=3 HSA_OVERRIDE_GFX_VERSION=$bad 2>&1)
  echo "$out" | grep -qF "HSA_OVERRIDE_GFX_VERSION $bad is invalid" || fail "no thunk message for bad override '$bad': $out"
  [ -z "$(echo "$out" | agents)" ] || fail "override '$bad' accepted: $(echo "$out" | agents)"
done
out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1031 HSA_OVERRIDE_GFX_VERSION=0.0.0 2>&1); rc=$?
if [ "$rel" = 5.2 ]; then
  [ $rc -eq 134 ] || fail "override 0.0.0 should abort like the assert-enabled thunk 5.2.3, rc=$rc"
  echo "$out" | grep -qF 'HSA_OVERRIDE_GFX_VERSION may be needed' || fail "override 0.0.0: assertion text missing: $out"
else # the thunk in ROCR 6.4/7.2 leaves the node as it is
  [ $rc -eq 0 ] && [ "$(echo "$out" | agents)" = gfx1031 ] || fail "override 0.0.0 on $rel: rc=$rc $(echo "$out" | agents)"
fi
echo "ok: bad override values fail like the thunk"

start=$(date +%s)
# ROCR 5.2 warns "Agent creation failed" and goes on without that agent.
out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1100 2>&1); rc=$?
[ $rc -ne 124 ] || fail "gfx1100: rocminfo hung"
if [ "$rel" = 5.2 ]; then
  [ -z "$(echo "$out" | agents)" ] || fail "gfx1100 should give no GPU agent on ROCR 5.2.3"
  echo "$out" | grep -q 'unrecognized id' || fail "ROCR's own 'unrecognized id' message missing"
else
  [ $rc -eq 0 ] && [ "$(echo "$out" | agents)" = gfx1100 ] || fail "gfx1100 on ROCR $rel: rc=$rc $(echo "$out" | agents)"
fi
[ $(( $(date +%s) - start )) -lt 60 ] || fail "gfx1100 took too long (hang?)"
out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1100 HSA_OVERRIDE_GFX_VERSION=10.3.0 2>&1) || fail "gfx1100 overridden to 10.3.0: $out"
[ "$(echo "$out" | agents)" = "gfx1030" ] || fail "gfx1100 overridden should show gfx1030"
echo "ok: gfx11 ($rel: $([ "$rel" = 5.2 ] && echo 'a clear error' || echo listed)); overriding it works"

# RDNA3.5 Krackan parts (the simulator's cards: tables/cards.tsv 1002:1114 gfx1152, 1002:1902
# gfx1153): ROCR 5.2.3 knows neither; the ROCR of Debian's 6.4.3 and 7.2.4 lists both, each with
# its generic ISA gfx11-generic second.
for g in gfx1152:0x1114:8 gfx1153:0x1902:4; do
  t=${g%%:*}; rest=${g#*:}; did=${rest%%:*}; cus=${rest#*:}
  out=$(simrocminfo RDNACOMPAT_SIM_GPUS=$t 2>&1); rc=$?
  [ $rc -ne 124 ] || fail "$t: rocminfo hung"
  if [ "$rel" = 5.2 ]; then
    [ -z "$(echo "$out" | agents)" ] || fail "$t should give no GPU agent on ROCR 5.2.3: $(echo "$out" | agents)"
  else
    [ $rc -eq 0 ] && [ "$(echo "$out" | agents)" = $t ] || fail "$t on ROCR $rel: rc=$rc $(echo "$out" | agents)"
    echo "$out" | grep -q "Chip ID: *$((did))($did)" || fail "$t: chip id $did not reported"
    echo "$out" | grep -qE "^  Compute Unit: +$cus *\$" || fail "$t: $cus CUs not reported"
    [ "$(echo "$out" | grep -oE 'amdgcn-amd-amdhsa--gfx[0-9a-z-]+' | tr '\n' ' ')" = "amdgcn-amd-amdhsa--$t amdgcn-amd-amdhsa--gfx11-generic " ] ||
      fail "$t: ISAs $(echo "$out" | grep -oE 'amdgcn-amd-amdhsa--gfx[0-9a-z-]+' | tr '\n' ' ')"
  fi
done
echo "ok: gfx1152, gfx1153 ($rel: $([ "$rel" = 5.2 ] && echo 'unknown to ROCR 5.2.3' || echo 'listed with gfx11-generic'))"

out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1030@73a5 2>&1) || fail "card by PCI id: $out"
echo "$out" | grep -q 'Chip ID: *29605(0x73a5)' || fail "PCI id 73a5 not reported"
# The core's card table (tables/cards.tsv): PCI revision and names decide the card.
out=$(simrocminfo "RDNACOMPAT_SIM_GPUS=@73df:c0,gfx1031@RX 6800M" 2>&1) || fail "cards from the table: $out"
[ "$(echo "$out" | agents)" = "gfx1031 gfx1031" ] || fail "@73df:c0 should be a gfx1031: $(echo "$out" | agents)"
echo "$out" | grep -q 'Marketing Name: *AMD Radeon RX 6750 XT' || fail "73df rev c0 is the RX 6750 XT in cards.tsv"
echo "$out" | grep -q 'Marketing Name: *AMD Radeon RX 6800M' || fail "card by name 'RX 6800M' missing"
out=$(simrocminfo RDNACOMPAT_SIM_GPUS=gfx1031@no-such-card 2>&1)
echo "$out" | grep -q "unknown card 'no-such-card'" || fail "unknown card: no clear message: $out"
out=$(simrocminfo RDNACOMPAT_SIM_GPUS=bogus 2>&1) && fail "bad RDNACOMPAT_SIM_GPUS accepted"
echo "$out" | grep -q 'not a gfx target' || fail "bad RDNACOMPAT_SIM_GPUS: no clear message"
echo "ok: card selection and config errors"
