#!/bin/sh
# A workload at tiny size in timing mode on a configuration: it must verify, its statistics must
# satisfy their invariants (--check-stats), and its outputs must be bit-identical to functional
# mode's (the output digests agree).
# usage: compare_modes.sh GTLM WORKLOAD CONFIG [same-output|order-dependent]
# order-dependent: the kernel's result legitimately depends on thread interleaving (a race the
# algorithm tolerates); both modes must verify but the digests may differ.
set -u
gtlm=$1 wl=$2 cfg=$3 compare=${4:-same-output}
f=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode functional) || { echo "$f"; exit 1; }
t=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode timing --check-stats) || { echo "$t"; exit 1; }
df=$(printf '%s\n' "$f" | grep 'output digest')
dt=$(printf '%s\n' "$t" | grep 'output digest')
echo "functional: $df"
echo "timing:     $dt"
printf '%s\n' "$t" | grep -E 'gpu_sim_cycle|stats check'
[ "$compare" = order-dependent ] && [ -n "$df" ] && [ -n "$dt" ] && exit 0
[ -n "$df" ] && [ "$df" = "$dt" ] || { echo "outputs differ between functional and timing mode"; exit 1; }
