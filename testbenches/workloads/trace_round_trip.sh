#!/bin/sh
# A workload's Accel-Sim trace (gtlm trace, from functional execution) run trace-driven on a
# configuration: it must load, pass --check-stats, and issue exactly the warp instructions the
# trace holds (the count `gtlm trace` reports, which is the functional run's).
# usage: trace_round_trip.sh GTLM WORKLOAD CONFIG
set -u
gtlm=$1 wl=$2 cfg=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-rt.XXXXXX")
trap 'rm -rf "$dir"' EXIT
w=$("$gtlm" trace "$wl" --size tiny --config "$cfg" --out "$dir") || { echo "$w"; exit 1; }
want=$(printf '%s\n' "$w" | sed -n 's/^trace: [0-9]* kernels, \([0-9]*\) warp instructions.*/\1/p')
r=$("$gtlm" run --trace "$dir" --config "$cfg" --check-stats) || { echo "$r"; exit 1; }
got=$(printf '%s\n' "$r" | sed -n 's/^gpgpu_n_tot_w_icount = //p')
echo "trace written: $want warp instructions; trace-driven run: $got"
[ -n "$want" ] && [ "$want" = "$got" ] || { echo "instruction counts differ"; exit 1; }
