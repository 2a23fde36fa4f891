#!/usr/bin/env bash
# whole_gpu_identical.sh GTLM SRC: whole-GPU statistics with the RTL warp arbiter (-rtl_sched 1)
# must equal the C core's, bit for bit (host-time lines aside), on two workloads at tiny size,
# under lrr and gto, on tiny.config (1 scheduler per SM) and gtx480.config (2 per SM, 24 warps each).
# A scheduler the RTL does not implement is a located configuration error (exit 2).
set -u
gtlm=$1; src=$2
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0
strip() { grep -v -E '^(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_simulation_rate_cycles|gpgpu_silicon_slowdown)|host|wall|_sec(onds)? ' "$1"; }
run() { # workload config scheduler rtl
  "$gtlm" run "$1" --size tiny --config "$src/configs/$2.config" -gpgpu_scheduler "$3" -rtl_sched "$4" --quiet \
    --stats "$out/s.raw" > "$out/log" 2>&1
  echo "rc=$?"; strip "$out/s.raw"
}
for point in "rodinia/BFS tiny lrr" "rodinia/BFS tiny gto" "polybench/ATAX tiny lrr" "polybench/ATAX tiny gto" \
             "rodinia/BFS gtx480 gto" "polybench/ATAX gtx480 lrr"; do
  set -- $point
  run "$1" "$2" "$3" 0 > "$out/c.txt"
  run "$1" "$2" "$3" 1 > "$out/rtl.txt"
  if ! grep -q '^gpu_tot_sim_cycle' "$out/c.txt"; then
    echo "FAIL $point: no statistics"; cat "$out/log"; fail=1
  elif cmp -s "$out/c.txt" "$out/rtl.txt"; then
    echo "identical: $point ($(grep -m1 '^gpu_tot_sim_cycle' "$out/c.txt"))"
  else
    echo "FAIL $point: the RTL run differs"; diff "$out/c.txt" "$out/rtl.txt" | head -10; fail=1
  fi
done
"$gtlm" run rodinia/BFS --size tiny --config "$src/configs/tiny.config" -gpgpu_scheduler two_level_active:4 \
  -rtl_sched 1 --quiet > "$out/log" 2>&1
rc=$?
if [ $rc -ne 2 ] || ! grep -q "option '-rtl_sched'.*implements lrr and gto" "$out/log"; then
  echo "FAIL: -rtl_sched 1 with two_level_active gave rc=$rc:"; cat "$out/log"; fail=1
else
  echo "rejected: -rtl_sched 1 with two_level_active: $(head -1 "$out/log")"
fi
exit $fail
