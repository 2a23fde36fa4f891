#!/bin/sh
# -gtlm_threads: a workload at tiny size in timing mode on each configuration with 1, 2 and 3
# threads (3: an uneven share of the SMs) must verify and give identical statistics text and
# output digests (host-time lines aside). -gtlm_threads_min_sms 1 ticks every core edge with a due
# SM on the pool, and host.parallel_edges must show that it did.
# usage: threads_identical.sh GTLM WORKLOAD CONFIG... [-- OPTION...]  (options: a technique's, on every run)
set -u
gtlm=$1 wl=$2
shift 2
cfgs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cfgs="$cfgs $1"; shift; done
[ $# -gt 0 ] && shift # the options are what is left in "$@"
dir=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-thr.XXXXXX")
trap 'rm -rf "$dir"' EXIT
host='^(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_simulation_rate_cycles|gpgpu_silicon_slowdown)|host|wall|_sec(onds)? '
for cfg in $cfgs; do
    name=$(basename "$cfg" .config)
    for n in 1 2 3; do
        out=$("$gtlm" run "$wl" --size tiny --config "$cfg" --check-stats --stats "$dir/$n.raw" \
              -gtlm_threads $n -gtlm_threads_min_sms 1 "$@") || { echo "$name, $n threads:"; echo "$out"; exit 1; }
        printf '%s\n' "$out" | grep 'output digest' > "$dir/$n.digest"
        grep -v -E "$host" "$dir/$n.raw" > "$dir/$n.txt"
        if [ "$n" -gt 1 ]; then
            edges=$(awk '$1 == "host.parallel_edges" { print $3; exit }' "$dir/$n.raw")
            [ -n "$edges" ] && [ "$edges" != 0 ] || { echo "$name, $n threads: no core edge ran on the pool (host.parallel_edges '$edges')"; exit 1; }
            cmp -s "$dir/1.digest" "$dir/$n.digest" || { echo "$name: output digests differ between 1 and $n threads"; exit 1; }
            cmp -s "$dir/1.txt" "$dir/$n.txt" || { echo "$name: statistics differ between 1 and $n threads:"; diff "$dir/1.txt" "$dir/$n.txt" | head -20; exit 1; }
            echo "$name: $n threads identical to 1 ($edges parallel core edges)"
        fi
    done
done
