#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# releases: 5.2 6.4 7.2
# 50-tools-doctor.sh BUILD — `rdnacompat doctor --root` on fake machine trees
# (tests/tools/mkfakeroot.sh): no AMD GPU, a gfx1031 card with permission,
# version and MIOpen-cache problems, and an iGPU + dGPU machine; the
# environment checks (overrides, visible devices, LD_PRELOAD); exit codes;
# the release's own ROCm version from the HIP runtime libamdhip64.so
# resolves to, and the other runtimes installed beside it (7.2 root);
# --libs: inspect's verdicts on the library directory for the card found,
# else for the simulated cards.
partial_skip() { PARTIAL="${PARTIAL:+$PARTIAL; }$*"; echo "partial skip: $*" >&2; }
set -u
B=$1; R=$B/bin/rdnacompat; T=$B/tools-test/doctor
SRC=${RDC_SRCDIR:-$(pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$T"
for s in none rx6700 mixed strix; do bash "$SRC/tests/tools/mkfakeroot.sh" "$T/$s" "$s" || fail "mkfakeroot $s"; done
# A clean environment: none of the variables the doctor judges.
doc() { env -u HSA_OVERRIDE_GFX_VERSION -u HIP_VISIBLE_DEVICES -u ROCR_VISIBLE_DEVICES -u CUDA_VISIBLE_DEVICES \
  -u GPU_DEVICE_ORDINAL -u ROCM_PATH -u LD_LIBRARY_PATH -u LD_PRELOAD -u VIRTUAL_ENV -u CONDA_PREFIX \
  HOME=/home/tester "$@"; }
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# --- no AMD GPU: exit 3, said in words and in JSON
rc=0; doc "$R" doctor --root "$T/none" >"$T/none.txt" || rc=$?
[ "$rc" -eq 3 ] || fail "no GPU: exit $rc, want 3"
grep -q "no AMD GPU" "$T/none.txt" || fail "no GPU not said"
rc=0; doc "$R" doctor --root "$T/none" --json >"$T/none.json" || rc=$?
[ "$rc" -eq 3 ] && [ "$(field "$T/none.json" 'd["no_amd_gpu"]')" = True ] || fail "no GPU JSON"
[ "$(field "$T/none.json" 'len(d["gpus"])')" = 0 ] || fail "Intel iGPU counted as AMD"

# --- rx6700: the card table decides the target; permission failure -> exit 2
want=$("$R" cards --json 1002:73df:c1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["cards"][0]["target"])')
rc=0; doc "$R" doctor --root "$T/rx6700" --user tester --json >"$T/rx.json" || rc=$?
[ "$rc" -eq 2 ] || fail "rx6700: exit $rc, want 2"
[ "$(field "$T/rx.json" 'd["gpus"][0]["target"]')" = "$want" ] || fail "rx6700 target != card table's $want"
[ "$(field "$T/rx.json" 'len(d["gpus"])')" = 1 ] || fail "HDMI audio function counted as a GPU"
# The sourced reports the text lists for the card are in the JSON too (at most three, with URLs).
python3 - "$T/rx.json" <<'PY' || fail "doctor --json: gpus[0].reports"
import json, sys
r = json.load(open(sys.argv[1]))["gpus"][0]["reports"]
assert 1 <= len(r) <= 3, r
assert all(x["source"].startswith("https://") and x["report"] for x in r), r
PY
doc "$R" doctor --root "$T/rx6700" --user tester >"$T/rx.txt" || true
[ "$(sed -n '/^Reports from public threads/,$p' "$T/rx.txt" | grep -o 'https://[^ ]*' | head -3)" = "$(field "$T/rx.json" '"\n".join(x["source"] for x in d["gpus"][0]["reports"])')" ] ||
  fail "doctor: the text and --json list different reports"
[ "$(field "$T/rx.json" 'd["gpus"][0]["kfd_node"]')" = 1 ] || fail "KFD node not matched by location_id"
chk() { field "$1" "[c['status']+' '+c['message'] for c in d['checks'] if c['id']=='$2']"; }
chk "$T/rx.json" dev-kfd | grep -q "fail.*tester cannot open" || fail "dev-kfd: $(chk "$T/rx.json" dev-kfd)"
chk "$T/rx.json" groups | grep -q "warn.*not in group(s) render" || fail "groups: $(chk "$T/rx.json" groups)"
chk "$T/rx.json" rocm | grep -q "ok ROCm 6.2.4" || fail "rocm: $(chk "$T/rx.json" rocm)"
chk "$T/rx.json" pytorch | grep -q "warn.*HIP 6.1.*6.2.4.*6.1 vs 6.2" || fail "pytorch mismatch: $(chk "$T/rx.json" pytorch)"
m=$(chk "$T/rx.json" miopen-cache)
echo "$m" | grep -q "gfx1031_40.ukdb empty" || fail "empty ukdb not found: $m"
echo "$m" | grep -q "gfx1030_40.kdb not an SQLite" || fail "corrupt kdb not found: $m"
echo "$m" | grep -q "2.19.0" || fail "stale MIOpen dir not found: $m"
# Positive control: a real SQLite .kdb in the current version's directory is fine.
rm -f "$T/rx6700/home/tester/.cache/miopen/3.2.0.ae7ff5ab3/"*.kdb "$T/rx6700/home/tester/.cache/miopen/3.2.0.ae7ff5ab3/"*.ukdb
rm -rf "$T/rx6700/home/tester/.cache/miopen/2.19.0.b87fc37bf"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table kern_db(id integer)'); c.commit()" \
  "$T/rx6700/home/tester/.cache/miopen/3.2.0.ae7ff5ab3/gfx1031_40.kdb"
doc "$R" doctor --root "$T/rx6700" --user tester --json >"$T/rx2.json"
chk "$T/rx2.json" miopen-cache | grep -q "^\['ok MIOpen cache: 1 database" || fail "good cache flagged: $(chk "$T/rx2.json" miopen-cache)"
# PCI sysfs hidden (a container): the card comes from its KFD node — the same target,
# the card table's row for its device id — not from the runtime.
cp -a "$T/rx6700" "$T/rx-nopci"; rm -rf "$T/rx-nopci/sys/bus/pci"
doc "$R" doctor --root "$T/rx-nopci" --json >"$T/rx-nopci.json" 2>/dev/null || true
[ "$(field "$T/rx-nopci.json" '[(g["target"], g["source"], g["kfd_node"]) for g in d["gpus"]]')" = "[('$want', 'kfd', 1)]" ] ||
  fail "KFD-only card: $(field "$T/rx-nopci.json" 'd["gpus"]')"
[ "$(field "$T/rx-nopci.json" 'd["gpus"][0]["name"]')" = "$(field "$T/rx.json" 'd["gpus"][0]["name"]')" ] ||
  echo "note: without the PCI revision the KFD-only card is named by its id's any-revision row: $(field "$T/rx-nopci.json" 'd["gpus"][0]["name"]')"
# The per-node override needs a newer ROCm than the tree's 6.2.4.
doc HSA_OVERRIDE_GFX_VERSION_1=10.3.0 "$R" doctor --root "$T/rx6700" --json >"$T/rx3.json"
chk "$T/rx3.json" override | grep -q "ignored by ROCm 6.2.4" || fail "per-node on 6.2.4: $(chk "$T/rx3.json" override)"

# --- mixed: iGPU + dGPU, ROCm from dpkg, override on a mixed machine
rc=0; doc "$R" doctor --root "$T/mixed" --user tester --json >"$T/mx.json" || rc=$?
[ "$rc" -eq 1 ] || fail "mixed: exit $rc, want 1 (warnings only)"
chk "$T/mx.json" rocm | grep -q "ROCm 6.3.1 (from dpkg package hip-runtime-amd" || fail "dpkg ROCm: $(chk "$T/mx.json" rocm)"
chk "$T/mx.json" groups | grep -q "ok tester is in group(s) render,video" || fail "groups ok"
dgpu=$(field "$T/mx.json" '[g["hip_index"] for g in d["gpus"] if not g["apu"]][0]')
chk "$T/mx.json" igpu | grep -q "warn.*HIP device $dgpu" || fail "igpu: $(chk "$T/mx.json" igpu)"
field "$T/mx.json" '[c["fix"] for c in d["checks"] if c["id"]=="igpu"][0]' | grep -q "HIP_VISIBLE_DEVICES=$dgpu" || fail "igpu fix"
doc HIP_VISIBLE_DEVICES=$dgpu "$R" doctor --root "$T/mixed" --json >"$T/mx2.json"
chk "$T/mx2.json" igpu | grep -q "^\['ok" || fail "igpu not ok with HIP_VISIBLE_DEVICES"
doc HIP_VISIBLE_DEVICES=5 CUDA_VISIBLE_DEVICES=0 "$R" doctor --root "$T/mixed" --json >"$T/mx3.json"
chk "$T/mx3.json" visible-devices | grep -q "beyond the 2 GPU" || fail "out-of-range index"
chk "$T/mx3.json" visible-devices | grep -q "disagree" || fail "HIP vs CUDA disagreement"
doc HSA_OVERRIDE_GFX_VERSION=11.0.0 HSA_OVERRIDE_GFX_VERSION_0=11.0.2 "$R" doctor --root "$T/mixed" --json >"$T/mx4.json"
o=$(chk "$T/mx4.json" override)
echo "$o" | grep -q "makes every GPU report gfx1100" || fail "override: $o"
echo "$o" | grep -q "gfx1103" || fail "override does not name the rewritten card: $o"
echo "$o" | grep -q "HSA_OVERRIDE_GFX_VERSION_0=11.0.2 names a CPU node" || fail "per-node off-by-one: $o"
field "$T/mx4.json" '[c["fix"] for c in d["checks"] if c["id"]=="override" and "CPU node" in c["message"]][0]' | grep -q "first GPU here is node 1" || fail "per-node fix"
rc=0; doc HSA_OVERRIDE_GFX_VERSION=10.3 "$R" doctor --root "$T/mixed" >"$T/mx5.txt" || rc=$?
[ "$rc" -eq 2 ] && grep -q "is malformed" "$T/mx5.txt" || fail "malformed override: exit $rc"
doc HSA_OVERRIDE_GFX_VERSION=10.3.0 LD_PRELOAD=/nonexistent/librdnacompat.so "$R" doctor --root "$T/mixed" --json >"$T/mx6.json" 2>/dev/null
chk "$T/mx6.json" override | grep -q "cross\|another family" || fail "cross-family override not flagged"
chk "$T/mx6.json" override | grep -q "shim sees the overridden identity" || fail "override + shim"
chk "$T/mx6.json" ld-preload | grep -q "fail LD_PRELOAD names missing files" || fail "missing LD_PRELOAD entry"

# An override on a card ROCm ships code for: its own code taken away (a stale override).
doc HSA_OVERRIDE_GFX_VERSION=11.0.2 "$R" doctor --root "$T/mixed" --json >"$T/mx7.json"
chk "$T/mx7.json" override | grep -q "warn.*RX 7900 XTX.*(gfx1100) runs natively (official): the override only takes its own code away" ||
  fail "override on a native card: $(chk "$T/mx7.json" override)"
field "$T/mx7.json" '[c["fix"] for c in d["checks"] if c["id"]=="override"][0]' | grep -q "rdnacompat run -- CMD.*keeps each card's real target" ||
  fail "override fix does not say what the shim does"

# --- strix (gfx1151): overrides in shell start-up files, TheRock layouts for another
# family, and the kernel/firmware faults of tables/platform.tsv.
rc=0; doc "$R" doctor --root "$T/strix" --json >"$T/sx.json" || rc=$?
[ "$rc" -eq 1 ] || fail "strix: exit $rc, want 1 (warnings)"
o=$(chk "$T/sx.json" override-startup)
echo "$o" | grep -q "warn ~/.bashrc:4 sets HSA_OVERRIDE_GFX_VERSION=11.0.0" || fail "~/.bashrc override: $o"
echo "$o" | grep -q "/etc/profile.d/rocm.sh:1 sets HSA_OVERRIDE_GFX_VERSION_1=11.0.0" || fail "profile.d per-node override: $o"
echo "$o" | grep -q "(gfx1151, rdna3.5) is told it is gfx1100, another family (rdna3)" || fail "family not judged: $o"
! echo "$o" | grep -q "9.0.0" || fail "a commented-out line counted: $o"
chk "$T/sx.json" override | grep -q "ok HSA_OVERRIDE_GFX_VERSION not set" || fail "strix: env override"
chk "$T/sx.json" rocm | grep -q "ROCm 10.0 (from /opt/rocm/core-10.0 (TheRock native packages))" || fail "core-10.0: $(chk "$T/sx.json" rocm)"
o=$(chk "$T/sx.json" therock)
for w in "native packages /opt/rocm/core-10.0" "kernel archives /opt/rocm/core-10.0/.kpack" \
         "Python package /home/tester/.venv/lib/python3.12/site-packages/_rocm_sdk_libraries_gfx110X_all"; do
  echo "$o" | grep -qF "$w" || fail "therock: '$w' not in: $o"
done
o=$(chk "$T/sx.json" build)
echo "$o" | grep -q 'warn.*"torch\[device-gfx1151\]".*v2/gfx1151/.*leaves out for gfx1151: hipSPARSELt' || fail "build advice: $o"
echo "$o" | grep -q "carries gfx1100, gfx1101, gfx110X, not gfx1151" || fail "wrong-family build not named: $o"
o=$(chk "$T/sx.json" platform)
echo "$o" | grep -q "ok kernel 6.17.9-arch1-1; amdgpu cwsr_enable=1;.*MES firmware 0x00000083" || fail "platform facts: $o"
echo "$o" | grep -q "warn.*\[gfx1151-mes-0x83\]" && echo "$o" | grep -q "warn.*\[gfx1151-cwsr\]" || fail "platform rows: $o"
field "$T/sx.json" '[c["fix"] for c in d["checks"] if c["id"]=="platform" and "mes-0x83" in c["message"]][0]' |
  grep -q "https://github.com/ROCm/legacy-rocm-build/issues/5724" || fail "platform warning without its thread"
# Start-up files are read with the safe open: a FIFO (or a directory) in their place neither
# blocks the doctor nor hides the other files.
mkfifo "$T/strix/home/tester/.zshrc"; mkdir "$T/strix/home/tester/.profile"
rc=0; doc timeout 20 "$R" doctor --root "$T/strix" --json >"$T/sx-fifo.json" || rc=$?
[ "$rc" -eq 1 ] || fail "strix with a FIFO ~/.zshrc: exit $rc (124: blocked on it)"
chk "$T/sx-fifo.json" override-startup | grep -q "~/.bashrc:4 sets" || fail "FIFO: ~/.bashrc no longer read"
rm -rf "$T/strix/home/tester/.zshrc" "$T/strix/home/tester/.profile"
# Positive controls: the fixed setup warns about none of it.
S=$T/strix
sed -i '/HSA_OVERRIDE/d' "$S/home/tester/.bashrc"; rm "$S/etc/profile.d/rocm.sh"
echo 0x00000080 >"$S/sys/bus/pci/devices/0000:c5:00.0/fw_version/mes_fw_version"
echo 0 >"$S/sys/module/amdgpu/parameters/cwsr_enable"
rm -rf "$S/opt/rocm/core-10.0/.kpack"/* "$S/home/tester/.venv/lib/python3.12/site-packages/_rocm_sdk_libraries_gfx110X_all"
: >"$S/opt/rocm/core-10.0/.kpack/blas_lib_gfx1151.kpack"
rc=0; doc "$R" doctor --root "$S" --json >"$T/sx2.json" || rc=$?
for id in override-startup build platform; do
  ! chk "$T/sx2.json" $id | grep -q "'warn" || fail "fixed strix still warns ($id): $(chk "$T/sx2.json" $id)"
done
# The CWSR row depends on the kernel: 6.18 has the fix.
echo 1 >"$S/sys/module/amdgpu/parameters/cwsr_enable"
doc "$R" doctor --root "$S" --json >"$T/sx3.json"
chk "$T/sx3.json" platform | grep -q "gfx1151-cwsr" || fail "cwsr_enable=1 on 6.17 not flagged"
echo 6.18.2-arch1-1 >"$S/proc/sys/kernel/osrelease"
doc "$R" doctor --root "$S" --json >"$T/sx4.json"
! chk "$T/sx4.json" platform | grep -q "gfx1151-cwsr" || fail "kernel 6.18 still flagged for CWSR"
# rx6700 (gfx1031): the device extra, and what TheRock's build leaves out for RDNA2.
o=$(chk "$T/rx.json" build)
echo "$o" | grep -q "ok.*device-gfx1031.*leaves out for gfx1031: hipBLASLt, hipSPARSELt, composable_kernel, rocWMMA, hipTensor, PyTorch flash" ||
  fail "gfx1031 build advice: $o"

# --- the simulator numbers KFD nodes like the real thunk (CPU node 0, first GPU
# node 1): the doctor's "_0 names a CPU node" advice must match what the real
# runtime does on the simulated card.  The per-node form exists from ROCm 6.3
# on (the doctor says so); the 5.2.3 thunk reads only the global variable, so
# on 5.2 the check is that _1 changes nothing.
SIMLIB=$B/sim/librdnacompat-sim.so
[ -f "$SIMLIB" ] || fail "no simulator $SIMLIB (make builds it)"
HIPCC=${RDC_HIPCC:-hipcc}
if command -v "$HIPCC" >/dev/null; then
  prog=$T/vadd-${RDC_ROCM:-5.2}
  if [ ! -x "$prog" ]; then
    "$HIPCC" --offload-arch=gfx1030 --offload-arch=gfx1031 "$SRC/tests/integration/shim/vadd.hip" -o "$prog" >"$T/hipcc.log" 2>&1 || fail "hipcc: $(tail -3 "$T/hipcc.log")"
  fi
  # vadd (code for both gfx1030 and gfx1031, so it runs either way) prints
  # the device's gcnArchName first: "device0 gfx1031", or gfx1030 where the
  # override reached the GPU.
  simrun() { { env -u HSA_OVERRIDE_GFX_VERSION LD_PRELOAD="$SIMLIB" RDNACOMPAT_SIM_GPUS=gfx1031 HSA_ENABLE_SDMA=0 "$@" \
    timeout 120 "$prog" 2>&1 || true; } 2>/dev/null | grep -m1 '^device0 '; }
  kept() { [ "$1" = "device0 gfx1031" ]; }
  d1=$(simrun HSA_OVERRIDE_GFX_VERSION_1=10.3.0); d0=$(simrun HSA_OVERRIDE_GFX_VERSION_0=10.3.0)
  kept "$d0" || fail "sim: _0 (the CPU node) changed the first GPU: '$d0'"
  if [ "${RDC_ROCM:-5.2}" = 5.2 ]; then
    kept "$d1" || fail "sim: the 5.2.3 thunk has no per-node override, yet _1 gave '$d1'"
  else
    [ "$d1" = "device0 gfx1030" ] || fail "sim: _1 did not override the first GPU on ROCm $RDC_ROCM: '$d1'"
  fi
else
  partial_skip "simulator cross-check (no $HIPCC)"
fi

# --- under `rdnacompat sim` the doctor sees the simulated card: from its KFD
# topology (the simulator writes it; the override does not change it), so
# also a target this release's runtime lists no agent for (ROCR 5.2 and
# RDNA3); the hardware checks say they were not made.  Without the
# simulator, the runtime's answer is in the no-GPU line.
rc=0; doc "$R" sim --gpu gfx1031 -- "$R" doctor >"$T/sim.txt" 2>&1 || rc=$?
[ "$rc" -ne 3 ] || fail "sim: doctor says no GPU: $(head -3 "$T/sim.txt")"
grep -qE '^WARN  gpu .*\[1002:73df\].*: gfx1031, HIP device 0, unsupported .* a simulated card \(rdnacompat sim\)' "$T/sim.txt" ||
  fail "sim: no simulated gfx1031 in: $(head -3 "$T/sim.txt")"
grep -q '^ok    kfd  *simulated' "$T/sim.txt" && grep -q '^ok    access  *simulated' "$T/sim.txt" ||
  fail "sim: hardware checks not marked simulated: $(head -6 "$T/sim.txt")"
grep -q '^ok    runtime .*the ROCm runtime agrees: gfx1031 (HIP device 0)' "$T/sim.txt" ||
  fail "sim: the runtime's own answer not compared: $(grep runtime "$T/sim.txt")"
tg=gfx1103
rc=0; doc "$R" sim --gpu $tg -- "$R" doctor --json >"$T/sim.json" 2>/dev/null || rc=$?
[ "$(field "$T/sim.json" '[(g["target"], g["source"], g["simulated"]) for g in d["gpus"]]')" = "[('$tg', 'kfd', True)]" ] ||
  fail "sim: JSON gpus: $(field "$T/sim.json" 'd["gpus"]')"
if [ ! -e /dev/kfd ] && ! ls /sys/bus/pci/devices/*/vendor 2>/dev/null | xargs -r grep -l 0x1002 >/dev/null 2>&1; then
  rc=0; doc "$R" doctor >"$T/nogpu.txt" 2>&1 || rc=$?
  [ "$rc" -eq 3 ] && grep -q '^FAIL  gpu .*the ROCm runtime, asked, reports none (' "$T/nogpu.txt" ||
    fail "no GPU: the runtime's answer not given (rc=$rc): $(head -2 "$T/nogpu.txt")"
fi
echo "ok: doctor under rdnacompat sim sees the simulated card from the runtime; without it, says what the runtime said"

# --- this machine's (this release's) ROCm: the HIP runtime libamdhip64.so
# resolves to (what a program built here loads), not the first dpkg package
# (the 7.2 root also has 6.4's libamdhip64-6 for ggml); other runtimes named.
lib=/usr/lib/x86_64-linux-gnu
if [ -e $lib/libamdhip64.so ]; then
  hip=$(readlink -f $lib/libamdhip64.so); mm=$(basename "$hip" | sed -E 's/^libamdhip64\.so\.([0-9]+\.[0-9]+).*/\1/')
  line=$(doc "$R" doctor 2>/dev/null | grep '^ok    rocm ')
  echo "$line" | grep -q "ROCm $mm\.[0-9]* (from the HIP runtime a program built here loads: $hip" ||
    fail "rocm: '$line' is not the runtime libamdhip64.so resolves to ($hip, $mm)"
  others=$(find $lib -maxdepth 1 -type f -name 'libamdhip64.so.*' ! -samefile "$hip" | sort)
  for o in $others; do echo "$line" | grep -qF "$o" || fail "rocm: $o installed, not named: '$line'"; done
  [ -n "$others" ] || ! echo "$line" | grep -q 'also installed' || fail "rocm: 'also installed' with one runtime: '$line'"
  echo "ok: ROCm $mm from $hip; $(echo $others | wc -w) other HIP runtime(s) named"
fi

# --- doctor --libs: for the card found (rx6700: gfx1031), else the simulated
# one (RDNACOMPAT_SIM_GPUS), inspect's verdicts on the root's library
# directory: a library with gfx1030 code only (mapped), a per-arch data file
# for gfx1030 (redirected); the section is exactly `inspect --gpu T DIR`.
FIX=${RDC_FIXTURES:-$B/fixtures}
if [ -f "$FIX/host/libiota-1030.so" ]; then
  for s in rx6700 none; do
    L=$T/$s/usr/lib/x86_64-linux-gnu; mkdir -p "$L"; cp "$FIX/host/libiota-1030.so" "$L/libiota.so.1"
    printf '\x82\xa1a\x01\xa1b\x92\x01\x02' >"$L/TensileLibrary_lazy_gfx1030.dat"
  done
  L=$T/rx6700/usr/lib/x86_64-linux-gnu
  doc "$R" doctor --libs --root "$T/rx6700" >"$T/libs.txt" 2>&1
  grep -q "^libraries for gfx1031 (found on this machine): rdnacompat inspect --gpu gfx1031 $L\$" "$T/libs.txt" ||
    fail "--libs: no section for the card found: $(tail -5 "$T/libs.txt")"
  "$R" inspect --gpu gfx1031 "$L" >"$T/libs.want" 2>&1
  sed -n '/^libraries for gfx1031/,$p' "$T/libs.txt" | tail -n +2 | cmp -s - "$T/libs.want" ||
    fail "--libs section is not inspect's output: $(diff <(sed -n '/^libraries for/,$p' "$T/libs.txt") "$T/libs.want")"
  grep -qE "^  libiota.so.1: [0-9]+ bundles?: 0 native, [1-9][0-9]* mapped, 0 missing" "$T/libs.txt" || fail "--libs: library verdict: $(cat "$T/libs.txt")"
  grep -q "the shim redirects gfx1031 names to gfx1030 (compat rank 1): 1 file" "$T/libs.txt" || fail "--libs: data file verdict"
  L=$T/none/usr/lib/x86_64-linux-gnu
  RDNACOMPAT_SIM_GPUS=gfx1103,gfx1031@1002:73df doc "$R" doctor --libs --root "$T/none" >"$T/libs-sim.txt" 2>&1
  for t in gfx1103 gfx1031; do
    grep -q "^libraries for $t (simulated (RDNACOMPAT_SIM_GPUS)): rdnacompat inspect --gpu $t $L\$" "$T/libs-sim.txt" ||
      fail "--libs: no section for simulated $t: $(cat "$T/libs-sim.txt")"
  done
  grep -qE "^  libiota.so.1: [0-9]+ bundles?: 0 native, 0 mapped, [1-9][0-9]* missing" "$T/libs-sim.txt" || fail "--libs: gfx1103 has no gfx1030 code: $(cat "$T/libs-sim.txt")"
  rc=0; "$R" doctor --libs --json >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 4 ] || fail "--libs --json: exit $rc, want 4"
  echo "ok: doctor --libs: inspect's verdicts for the card found and for simulated cards"
else
  partial_skip "doctor --libs (no fixtures: make fixtures)"
fi

# --- usage
rc=0; "$R" doctor --bogus >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 4 ] || fail "usage exit $rc"
"$R" doctor --help | grep -q "exit: 0 all ok" || fail "--help"
[ -z "${PARTIAL:-}" ] || { echo "skip: parts not run: $PARTIAL" >&2; exit 77; }
echo "50-tools-doctor: ok"
