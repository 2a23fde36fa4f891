#!/bin/sh
# A workload at tiny size in timing mode on a configuration: it must verify, its statistics must
# satisfy their invariants (--check-stats), and its outputs must be bit-identical to functional
# mode's (the output digests agree). With a baseline table, its cycle count and key counters must
# also equal the table's row for this configuration and workload (a tripwire for unintended
# timing changes: see docs/timing-model.md, "Cycle-count baselines").
# usage: compare_modes.sh GTLM WORKLOAD CONFIG [same-output|order-dependent] [BASELINE_TABLE]
# order-dependent: the kernel's result legitimately depends on thread interleaving (a race the
# algorithm tolerates); both modes must verify but the digests may differ.
# GTLM_BASELINE_RECORD=DIR: write this run's row to DIR (tools/rebaseline merges them) instead of
# comparing it.
set -u
gtlm=$1 wl=$2 cfg=$3 compare=${4:-same-output} table=${5:-}
stats=$(mktemp "${TMPDIR:-/tmp}/gtlm-cm.XXXXXX")
trap 'rm -f "$stats"' EXIT
f=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode functional) || { echo "$f"; exit 1; }
t=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode timing --check-stats --stats "$stats") || { echo "$t"; exit 1; }
df=$(printf '%s\n' "$f" | grep 'output digest')
dt=$(printf '%s\n' "$t" | grep 'output digest')
echo "functional: $df"
echo "timing:     $dt"
printf '%s\n' "$t" | grep -E 'gpu_sim_cycle|stats check'
if [ -n "$table" ]; then
    # The row: configuration, workload, then the counters in the table header's order.
    name=$(basename "$cfg" .config)
    row=$(awk -v c="$name" -v w="$wl" '
        { v[$1] = $3 }
        END { printf "%s %s %s %s %s %s %s %s %s %s\n", c, w, v["gpu_tot_sim_cycle"], v["gpgpu_n_tot_w_icount"],
              v["L1D_total_cache_accesses"], v["L1D_total_cache_misses"], v["L2_total_cache_accesses"],
              v["L2_total_cache_misses"], v["gpu.dram.reads"], v["gpu.dram.writes"] }' "$stats")
    if [ -n "${GTLM_BASELINE_RECORD:-}" ]; then
        printf '%s\n' "$row" > "$GTLM_BASELINE_RECORD/$(printf '%s__%s' "$name" "$wl" | tr / _).row"
        echo "baseline recorded: $row"
    else
        want=$(awk -v c="$name" -v w="$wl" '$1 == c && $2 == w' "$table")
        echo "baseline: $want"
        echo "measured: $row"
        [ -n "$want" ] || { echo "no baseline row for $name $wl in $table (tools/rebaseline records it)"; exit 1; }
        [ "$want" = "$row" ] || { echo "cycles or counters differ from the baseline table (a deliberate change: tools/rebaseline, and say why in the commit)"; exit 1; }
    fi
fi
[ "$compare" = order-dependent ] && [ -n "$df" ] && [ -n "$dt" ] && exit 0
[ -n "$df" ] && [ "$df" = "$dt" ] || { echo "outputs differ between functional and timing mode"; exit 1; }
