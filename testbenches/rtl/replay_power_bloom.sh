#!/usr/bin/env bash
# replay_power_bloom.sh GTLM BLOCK TB TB_BROKEN SRC: records BLOCK (power: SM 0's L1D Snooze
# controller; bloom: L2 slice 0's Morpheus predictor) from two real workload runs at tiny size
# (gtlm run --record-block BLOCK FILE) and replays each through the RTL scoreboard testbench: zero
# mismatches with the C core, which must also reproduce every recorded answer; for bloom, the broken
# RTL (a swap one key late) is caught on the first recording with the first mismatching cycle and
# signal named. (Snooze's broken RTL forgets data lost by an early wake from OFF followed by a sleep
# before the access: SM 0's L1D never does that in these runs, 0 lost accesses, so only the random
# test catches it.) The recording run's statistics must equal a run without recording.
set -u
gtlm=$1; block=$2; tb=$3; broken=$4; src=$5
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0; first=1
strip() { grep -v -E '^(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_simulation_rate_cycles|gpgpu_silicon_slowdown)|host|wall|_sec(onds)? ' "$1"; }
if [ "$block" = power ]; then
  points=("rodinia/BFS gtx480 -power_policy snooze -power_gating_lines_l1d 1 -power_gating_lines_l2 1"
          "polybench/ATAX gtx480 -power_policy snooze_destroy -power_gating_lines_l1d 1 -power_gating_lines_l2 1")
  broken_re=''
else
  points=("rodinia/BFS tiny -gpgpu_n_clusters 4 -morpheus_cache_sms 1"
          "polybench/ATAX rtx3080-morpheus -morpheus_cache_sms 8")
  broken_re='first mismatch at cycle [0-9]*: signal (op_swap|q_hit)'
fi
for point in "${points[@]}"; do
  set -- $point
  w=$1; c=$2; shift 2
  rec="$out/$(echo "$w" | tr / _).rec"
  "$gtlm" run "$w" --size tiny --config "$src/configs/$c.config" "$@" --quiet --stats "$out/plain.txt" < /dev/null > "$out/log" 2>&1
  if ! "$gtlm" run "$w" --size tiny --config "$src/configs/$c.config" "$@" --quiet --stats "$out/rec.txt" \
      --record-block "$block" "$rec" < /dev/null > "$out/log" 2>&1; then
    echo "FAIL $point: the recording run failed"; cat "$out/log"; fail=1; continue
  fi
  if ! cmp -s <(strip "$out/plain.txt") <(strip "$out/rec.txt"); then
    echo "FAIL $point: recording changed the statistics"; diff <(strip "$out/plain.txt") <(strip "$out/rec.txt") | head; fail=1
  fi
  if "$tb" +replay="$rec" > "$out/tb.log" 2>&1 && grep -q -E 'replay .*: [1-9][0-9]* (events|records).* 0 mismatches' "$out/tb.log"; then
    echo "$(head -1 "$out/tb.log") [$point]"
  else
    echo "FAIL $point: the replay"; cat "$out/tb.log"; fail=1
  fi
  if [ $first = 1 ] && [ -n "$broken_re" ]; then
    first=0
    "$broken" +replay="$rec" > "$out/tb.log" 2>&1
    if grep -q -E "$broken_re" "$out/tb.log"; then
      echo "broken RTL caught: $(head -1 "$out/tb.log")"
    else
      echo "FAIL $point: the broken RTL passed the replay"; cat "$out/tb.log"; fail=1
    fi
  fi
done
exit $fail
