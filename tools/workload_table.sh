#!/usr/bin/env bash
# Runs every registered workload at one size and prints a markdown table of kernels launched,
# warp instructions and host run time (functional mode unless --mode is given after the size).
#   bash tools/workload_table.sh [SIZE [extra gtlm run arguments...]]     (SIZE default: sim)
set -uo pipefail
cd "$(dirname "$0")/.."
gtlm=${GTLM:-build/bin/gtlm}
size=${1:-sim}
shift || true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| workload | result | launches | warp insns | seconds |"
echo "|---|---|---|---|---|"
"$gtlm" list | sed -nE 's/^[^ ]+ \(([^)]+)\):.*/\1/p' | while read -r id; do
    start=$(date +%s.%N)
    "$gtlm" run "$id" --size "$size" --stats-json "$tmp/s.json" "$@" > "$tmp/out" 2>&1
    rc=$?
    end=$(date +%s.%N)
    warp=$(sed -nE 's/^gpgpu_n_tot_w_icount = ([0-9]+)/\1/p' "$tmp/out")
    launches=$(grep -o '"index"' "$tmp/s.json" 2>/dev/null | wc -l)
    case $rc in 0) res=verified ;; 1) res=WRONG ;; *) res="error $rc" ;; esac
    printf '| %s | %s | %s | %s | %.2f |\n' "$id" "$res" "$launches" "${warp:-?}" "$(echo "$end - $start" | bc)"
done
