#!/usr/bin/env bash
# What VCD output costs: runs one workload without a waveform and with each standard signal set
# of waveforms/ (plus everything), and prints wall time, slowdown and VCD size.
#   tools/wave_cost.sh [WORKLOAD] [CONFIG] [SIZE]   (default: polybench/ATAX configs/gtx480.config tiny)
# Run from the source tree after building (build/bin/gtlm).
set -euo pipefail
cd "$(dirname "$0")/.."
wl=${1:-polybench/ATAX}
cfg=${2:-configs/gtx480.config}
size=${3:-tiny}
gtlm=build/bin/gtlm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-wave-cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

seconds() { # run the workload with extra arguments, print elapsed seconds
    local t0 t1
    t0=$(date +%s.%N)
    "$gtlm" run "$wl" --size "$size" --config "$cfg" "$@" >"$tmp/out" 2>&1 || { tail -3 "$tmp/out" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

base=$(seconds)
printf '%-18s %8s %9s %12s\n' "signal set" seconds slowdown "VCD bytes"
printf '%-18s %8.2f %9s %12s\n' "off" "$base" "1.00" "-"
for view in waveforms/*.gtkw all; do
    if [ "$view" = all ]; then name=all pattern='*'
    else name=$(basename "$view" .gtkw) pattern=$(sed -n 's/^\[\*\] vcd_signals: //p' "$view"); fi
    s=$(seconds --vcd "$tmp/w.vcd" -vcd_signals "$pattern")
    printf '%-18s %8.2f %9.2f %12d\n' "$name" "$s" "$(awk -v a="$s" -v b="$base" 'BEGIN { print a / b }')" "$(stat -c %s "$tmp/w.vcd")"
    rm -f "$tmp/w.vcd"
done
