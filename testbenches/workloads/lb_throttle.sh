#!/bin/sh
# Linebacker's CTA throttling on a real workload (issue 18): on 2 SMs (several CTAs each) with
# 1,000-cycle periods CTAs are throttled, backed up and restored many times; the workload must
# still verify, pass --check-stats, give the functional mode's output digest, and every backed-up
# CTA must have come back (restores == backups, restore bytes == backup bytes).
# usage: lb_throttle.sh GTLM WORKLOAD CONFIG [must-throttle]
set -u
gtlm=$1 wl=$2 cfg=$3 must=${4:-}
stats=$(mktemp "${TMPDIR:-/tmp}/gtlm-lb.XXXXXX")
trap 'rm -f "$stats"' EXIT
f=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode functional) || { echo "$f"; exit 1; }
t=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode timing --check-stats -gpgpu_n_clusters 2 \
    -lb_enable 1 -lb_period 1000 --stats "$stats") || { echo "$t"; exit 1; }
df=$(printf '%s\n' "$f" | grep 'output digest')
dt=$(printf '%s\n' "$t" | grep 'output digest')
[ -n "$df" ] && [ "$df" = "$dt" ] || { echo "outputs differ: functional '$df', throttled '$dt'"; exit 1; }
get() { awk -v k="$1" '$1 == k { print $3 }' "$stats"; }
b=$(get gpu.lb.backups) r=$(get gpu.lb.restores) bb=$(get gpu.lb.backup_bytes) rb=$(get gpu.lb.restore_bytes)
echo "$wl: $b backups ($bb bytes), $r restores ($rb bytes), $(get gpu_tot_sim_cycle) cycles"
[ -n "$b" ] && [ "$b" = "$r" ] && [ "$bb" = "$rb" ] || { echo "a backed-up CTA was not restored"; exit 1; }
[ "$must" != must-throttle ] || [ "$b" -gt 0 ] || { echo "no CTA was throttled"; exit 1; }
