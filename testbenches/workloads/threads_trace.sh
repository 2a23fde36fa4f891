#!/bin/sh
# -gtlm_threads in trace-driven mode: a workload's trace (gtlm trace, tiny size) run with 1, 2 and 3
# threads must give identical statistics text (host-time lines aside), with core edges on the pool.
# usage: threads_trace.sh GTLM WORKLOAD CONFIG
set -u
gtlm=$1 wl=$2 cfg=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-thr-trace.XXXXXX")
trap 'rm -rf "$dir"' EXIT
w=$("$gtlm" trace "$wl" --size tiny --config "$cfg" --out "$dir/trace") || { echo "$w"; exit 1; }
host='^(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_simulation_rate_cycles|gpgpu_silicon_slowdown)|host|wall|_sec(onds)? '
for n in 1 2 3; do
    r=$("$gtlm" run --trace "$dir/trace" --config "$cfg" --check-stats --stats "$dir/$n.raw" \
        -gtlm_threads $n -gtlm_threads_min_sms 1) || { echo "$n threads:"; echo "$r"; exit 1; }
    grep -v -E "$host" "$dir/$n.raw" > "$dir/$n.txt"
    [ "$n" = 1 ] && continue
    edges=$(awk '$1 == "host.parallel_edges" { print $3; exit }' "$dir/$n.raw")
    [ -n "$edges" ] && [ "$edges" != 0 ] || { echo "$n threads: no core edge ran on the pool"; exit 1; }
    cmp -s "$dir/1.txt" "$dir/$n.txt" || { echo "statistics differ between 1 and $n threads:"; diff "$dir/1.txt" "$dir/$n.txt" | head -20; exit 1; }
    echo "trace of $wl: $n threads identical to 1 ($edges parallel core edges)"
done
