#!/usr/bin/env bash
# rtl_vcd.sh GTLM SRC: with -rtl_power 1 -rtl_sched 1 and --vcd F, the RTL's internal signals are in F.rtl.vcd,
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
python3 "$(dirname "$0")/rtl_vcd_check.py" "$out/w.vcd" "$out/w.rtl.vcd" 1428571
