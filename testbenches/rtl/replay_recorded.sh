#!/usr/bin/env bash
# replay_recorded.sh GTLM TB TB_BROKEN SRC: records SM 0 scheduler 0 of two real workload runs
# (gtlm run --record-block sched FILE) and replays each through the RTL scoreboard testbench: zero
# mismatches with the C core on every recorded query; the broken RTL (LRR without its +1) is
# caught on the LRR recording with the first mismatching cycle and signal named.
set -u
gtlm=$1; tb=$2; broken=$3; src=$4
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0
for point in "rodinia/BFS gto" "polybench/ATAX lrr"; do
  set -- $point
  rec="$out/$(echo "$1" | tr / _)_$2.rec"
  if ! "$gtlm" run "$1" --size tiny --config "$src/configs/gtx480.config" -gpgpu_scheduler "$2" --quiet \
      --record-block sched "$rec" > "$out/log" 2>&1; then
    echo "FAIL $point: the recording run failed"; cat "$out/log"; fail=1; continue
  fi
  if "$tb" +replay="$rec" > "$out/tb.log" 2>&1 && grep -q ' [1-9][0-9]* queries over .* 0 mismatches' "$out/tb.log"; then
    echo "$(head -1 "$out/tb.log") [$(grep -c '' "$rec") lines]"
  else
    echo "FAIL $point: the replay"; cat "$out/tb.log"; fail=1
  fi
  if [ "$2" = lrr ]; then
    "$broken" +replay="$rec" > "$out/tb.log" 2>&1
    if grep -q 'first mismatch at cycle [0-9]*: signal grant_' "$out/tb.log"; then
      echo "broken RTL caught: $(head -1 "$out/tb.log")"
    else
      echo "FAIL $point: the broken RTL passed the replay"; cat "$out/tb.log"; fail=1
    fi
  fi
done
exit $fail
