#!/usr/bin/env bash
# whole_gpu_identical.sh GTLM SRC [power]: whole-GPU statistics with an RTL block switched in must
# equal the C core's, bit for bit (host-time lines aside), on two workloads at tiny size: the warp
# arbiter (-rtl_sched 1) under lrr and gto on tiny.config (1 scheduler per SM) and gtx480.config
# (2 per SM, 24 warps each); Morpheus' Bloom predictor (-rtl_bloom 1) with cache-mode SMs.
# A scheduler or a filter size the RTL does not implement is a located configuration error (exit 2).
# With "power": Snooze's controller (-rtl_power 1) with the snooze experiment's configurations
# (gtx480.config, block level snooze and snooze_destroy, bank level snooze), and a policy the RTL
# does not implement rejected.
set -u
gtlm=$1; src=$2; group=${3:-sched_bloom}
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0
strip() { grep -v -E '^(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_simulation_rate_cycles|gpgpu_silicon_slowdown)|host|wall|_sec(onds)? ' "$1"; }
run() { # switch(0/1) workload config options...
  local on=$1 w=$2 c=$3; shift 3
  "$gtlm" run "$w" --size tiny --config "$src/configs/$c.config" "$@" "$on" --quiet --stats "$out/s.raw" < /dev/null > "$out/log" 2>&1
  echo "rc=$?"; strip "$out/s.raw"
}
# each point: workload, config, the -rtl_* switch, other options
while read -r w c sw opts; do
  run 0 "$w" "$c" $opts "$sw" > "$out/c.txt"
  run 1 "$w" "$c" $opts "$sw" > "$out/rtl.txt"
  point="$w $c $sw $opts"
  if ! grep -q '^gpu_tot_sim_cycle' "$out/c.txt"; then
    echo "FAIL $point: no statistics"; cat "$out/log"; fail=1
  elif cmp -s "$out/c.txt" "$out/rtl.txt"; then
    echo "identical: $point ($(grep -m1 '^gpu_tot_sim_cycle' "$out/c.txt"))"
  else
    echo "FAIL $point: the RTL run differs"; diff "$out/c.txt" "$out/rtl.txt" | head -10; fail=1
  fi
done < <(if [ "$group" = power ]; then cat <<'POWER'; else cat <<'POINTS'; fi
rodinia/BFS gtx480 -rtl_power -power_policy snooze -power_gating_lines_l1d 1 -power_gating_lines_l2 1
polybench/ATAX gtx480 -rtl_power -power_policy snooze_destroy -power_gating_lines_l1d 1 -power_gating_lines_l2 1
rodinia/BFS gtx480 -rtl_power -power_policy snooze -power_gating_lines_l1d 0 -power_gating_lines_l2 0
POWER
rodinia/BFS tiny -rtl_sched -gpgpu_scheduler lrr
rodinia/BFS tiny -rtl_sched -gpgpu_scheduler gto
polybench/ATAX tiny -rtl_sched -gpgpu_scheduler lrr
polybench/ATAX tiny -rtl_sched -gpgpu_scheduler gto
rodinia/BFS gtx480 -rtl_sched -gpgpu_scheduler gto
polybench/ATAX gtx480 -rtl_sched -gpgpu_scheduler lrr
rodinia/BFS tiny -rtl_bloom -gpgpu_n_clusters 4 -morpheus_cache_sms 1
polybench/ATAX rtx3080-morpheus -rtl_bloom -morpheus_cache_sms 8
POINTS
)
# reject WHAT REGEX OPTIONS...: BFS on tiny.config with OPTIONS is a located configuration error (exit 2)
reject() {
  local what=$1 re=$2; shift 2
  "$gtlm" run rodinia/BFS --size tiny --config "$src/configs/tiny.config" "$@" --quiet < /dev/null > "$out/log" 2>&1
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$re" "$out/log"; then
    echo "FAIL: $what gave rc=$rc:"; cat "$out/log"; fail=1
  else
    echo "rejected: $what: $(head -1 "$out/log")"
  fi
}
if [ "$group" = power ]; then
  reject "-rtl_power 1 with coarse151" "option '-rtl_power'.*implements -power_policy snooze and snooze_destroy, not coarse151" \
    -power_policy coarse151 -rtl_power 1
else
  reject "-rtl_sched 1 with two_level_active" "option '-rtl_sched'.*implements lrr and gto" \
    -gpgpu_scheduler two_level_active:4 -rtl_sched 1
  reject "-rtl_bloom 1 with 512-bit filters" "option '-rtl_bloom'.*at most 256 bits" \
    -morpheus_cache_sms 1 -morpheus_bloom_bits 512 -rtl_bloom 1
fi
exit $fail
