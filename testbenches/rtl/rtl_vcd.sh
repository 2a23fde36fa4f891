#!/usr/bin/env bash
# rtl_vcd.sh GTLM SRC: with -rtl_power 1 -rtl_sched 1 (and -rtl_bloom 1) and --vcd F, the RTL's internal signals are in F.rtl.vcd,
# aligned in time with the model's F.vcd (rtl_vcd_check.py says what is checked); statistics are
# the same as without the waveforms.
set -u
gtlm=$1; src=$2
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
strip() { grep -v -E '^(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_simulation_rate_cycles|gpgpu_silicon_slowdown)|host|wall|_sec(onds)? ' "$1"; }
opts=(sdk/VectorAdd --size tiny --config "$src/configs/gtx480.config" -power_policy snooze -rtl_power 1 -rtl_sched 1 --quiet)
"$gtlm" run "${opts[@]}" --stats "$out/plain.txt" < /dev/null > "$out/log" 2>&1 || { cat "$out/log"; exit 1; }
"$gtlm" run "${opts[@]}" --stats "$out/vcd.txt" --vcd "$out/w.vcd" -vcd_end 3000 < /dev/null > "$out/log" 2>&1 || { cat "$out/log"; exit 1; }
[ -s "$out/w.vcd" ] && [ -s "$out/w.rtl.vcd" ] || { echo "FAIL: expected w.vcd and w.rtl.vcd:"; ls "$out"; exit 1; }
cmp -s <(strip "$out/plain.txt") <(strip "$out/vcd.txt") || { echo "FAIL: the waveforms changed the statistics"; exit 1; }
# gtx480.config's core clock, 700 MHz: a period of 1e6/700 ps, 1428571 fs at SystemC's 1 fs resolution
python3 "$(dirname "$0")/rtl_vcd_check.py" "$out/w.vcd" "$out/w.rtl.vcd" 1428571 || exit 1
# Morpheus' Bloom predictor (-rtl_bloom 1, one cache-mode SM): L2 slice 0's filters under gpu.l2_0.bloom
# with their pins, the query and operation pins changing, and the same statistics as without the VCD.
bopts=(rodinia/BFS --size tiny --config "$src/configs/tiny.config" -gpgpu_n_clusters 4 -morpheus_cache_sms 1 -rtl_bloom 1 --quiet)
"$gtlm" run "${bopts[@]}" --stats "$out/bplain.txt" < /dev/null > "$out/log" 2>&1 || { cat "$out/log"; exit 1; }
"$gtlm" run "${bopts[@]}" --stats "$out/bvcd.txt" --vcd "$out/b.vcd" < /dev/null > "$out/log" 2>&1 || { cat "$out/log"; exit 1; }
cmp -s <(strip "$out/bplain.txt") <(strip "$out/bvcd.txt") || { echo "FAIL: the waveforms changed Morpheus' statistics"; exit 1; }
python3 - "$out/b.rtl.vcd" <<'PY' || exit 1
import sys
scope, found, ids, changed = [], {}, {}, set()
for line in open(sys.argv[1]):
    w = line.split()
    if not w: continue
    if w[0] == "$scope": scope.append(w[2])
    elif w[0] == "$upscope": scope.pop()
    elif w[0] == "$var" and ".".join(scope).startswith("gpu.l2_0.bloom"): found[w[4]] = w[3]
    elif w[0][0] in "bB" and len(w) == 2: changed.add(w[1])
    elif w[0][0] in "01" and len(w[0]) > 1: changed.add(w[0][1:])
need = ["q_set", "q_key", "q_hit", "op_valid", "op", "op_set", "op_swap"]
miss = [n for n in need if n not in found]
quiet = [n for n in ("q_set", "op_valid") if n in found and found[n] not in changed]
if miss or quiet:
    print("FAIL: gpu.l2_0.bloom: missing", miss, "never changing", quiet); sys.exit(1)
print("Bloom RTL traced under gpu.l2_0.bloom:", len(found), "signals")
PY
