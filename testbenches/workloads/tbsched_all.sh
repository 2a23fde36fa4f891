#!/bin/sh
# Issue 22's "every workload at tiny size verifies with each scheduler": under every TB scheduler
# (MST-TS; Kway-TS and RB-TS with task stealing, RB-TS without; BCS; cache-fit at 1 CTA per SM), each
# at the kernel's occupancy, the workload verifies,
# passes --check-stats, gives the functional mode's output digest (unless its result depends on
# the interleaving), and a PAVER policy built a locality graph over the kernels' TBs.
# usage: tbsched_all.sh GTLM WORKLOAD CONFIG [same-output|order-dependent]
set -u
gtlm=$1 wl=$2 cfg=$3 compare=${4:-same-output}
dir=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-tbs.XXXXXX")
trap 'rm -rf "$dir"' EXIT
f=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode functional) || { echo "$f"; exit 1; }
df=$(printf '%s\n' "$f" | grep 'output digest')
[ -n "$df" ] || { echo "no output digest: $f"; exit 1; }
for p in mst kway rbts rbts:0:0 bcs cachefit:1; do
    n=$(printf '%s' "$p" | tr : _)
    t=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode timing --check-stats -gtlm_tb_scheduler "$p" \
        --stats "$dir/$n") || { echo "$p: $t"; exit 1; }
    dt=$(printf '%s\n' "$t" | grep 'output digest')
    if [ "$compare" != order-dependent ] && [ "$df" != "$dt" ]; then
        echo "$p: outputs differ: functional '$df', timing '$dt'"; exit 1
    fi
    cyc=$(awk '$1 == "gpu_tot_sim_cycle" { print $3 }' "$dir/$n")
    tbs=$(awk '$1 == "tbsched.graph_tbs" { print $3 }' "$dir/$n")
    echo "$wl $p: $cyc cycles, graph TBs ${tbs:-none}"
    case $p in
    mst* | kway* | rbts*) [ "${tbs:-0}" -gt 0 ] || { echo "$p built no locality graph"; exit 1; } ;;
    *) [ "${tbs:-0}" -eq 0 ] || { echo "$p built a locality graph it does not use"; exit 1; } ;;
    esac
done
