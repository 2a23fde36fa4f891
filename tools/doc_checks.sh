#!/usr/bin/env bash
# Checks of the baseline timing model against the documents (run by hand; prints tables):
#  1. Linebacker's cache sensitivity (seed Linebacker Sec. 2.1, Table 2) is an experiment now:
#     `gtlm reproduce linebacker-sensitivity` (experiments/linebacker-sensitivity/). Here only
#     the same 48 KB vs 192 KB comparison with a linear set index, for the row-walk kernels.
#  2. APRES' L1 miss rates (seed APRES Sec. III): L1D miss rate per benchmark on
#     configs/gtx480.config at sim size, and the class means beside the stated 67.1% (memory-
#     intensive) and 87.6% (compute-intensive).
# usage: tools/doc_checks.sh [linebacker|index|apres|all]   (env: GTLM=path to gtlm, JOBS=parallel runs)
set -euo pipefail
cd "$(dirname "$0")/.."
GTLM=${GTLM:-build/bin/gtlm}
JOBS=${JOBS:-2}
what=${1:-all}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run NAME WORKLOAD CONFIG [overrides...]: writes $out/NAME.txt (a failed run is reported)
run() {
    local name=$1 wl=$2 cfg=$3
    shift 3
    "$GTLM" run "$wl" --size sim --config "$cfg" --quiet --per-unit "$@" >"$out/$name.txt" 2>&1 || echo "FAILED" >>"$out/$name.txt"
}
export -f run
export GTLM out

stat() { grep -m1 "^$2 = " "$out/$1.txt" | awk '{print $3}'; }
# speedup CYCLES_SLOW CYCLES_FAST: "12.3%"
speedup() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f%%", (a/b-1)*100}'; }

# The row-walk kernels at sim size with a linear set index instead of the configuration's
# polynomial one: rows 8 KB apart fall into 3 of 48 (or of 192) sets with linear indexing, so
# extra capacity cannot help.
linebacker_index() {
    local rows="GE polybench/GESUMMV
BI polybench/BICG
AT polybench/ATAX
MV polybench/MVT"
    local cfg=configs/gtx980-linebacker.config
    echo "$rows" | while read -r abbr wl; do
        echo "run ix48_$abbr $wl $cfg -gpgpu_cache:dl1 N:48:128:8,L:L:m:N:L,A:64:8,8"
        echo "run ix192_$abbr $wl $cfg -gpgpu_cache:dl1 N:192:128:8,L:L:m:N:L,A:64:8,8"
    done | xargs -P "$JOBS" -I{} bash -c '{}'
    echo "## Linebacker cache sensitivity with a linear set index instead (sim size)"
    echo
    echo "| bench | workload | cycles 48 KB | cycles 192 KB | speedup |"
    echo "|---|---|---:|---:|---:|"
    while read -r abbr wl; do
        local a b
        a=$(stat "ix48_$abbr" gpu_tot_sim_cycle || true)
        b=$(stat "ix192_$abbr" gpu_tot_sim_cycle || true)
        if [ -z "$a" ] || [ -z "$b" ]; then echo "| $abbr | $wl | failed | | |"; continue; fi
        echo "| $abbr | $wl | $a | $b | $(speedup "$a" "$b") |"
    done <<<"$rows"
    echo
}

apres() {
    local rows="BFS rodinia/BFS memory
NW rodinia/NW memory
SPMV parboil/SPMV memory
KM rodinia/KMeans memory
LUD rodinia/LUD memory
SRAD rodinia/SRAD-v2 memory
PA rodinia/ParticleFilter memory
HISTO parboil/HISTO memory
BP rodinia/Backprop memory
PF rodinia/PathFinder compute
CS sdk/ConvolutionSeparable compute
ST parboil/Stencil compute
HS rodinia/HotSpot compute
SP sdk/ScalarProd compute"
    local cfg=configs/gtx480.config
    echo "$rows" | while read -r abbr wl cls; do echo "run ap_$abbr $wl $cfg"; done | xargs -P "$JOBS" -I{} bash -c '{}'
    echo "## APRES L1 miss rates (gtx480, sim size; MUM is not in the suite)"
    echo
    echo "| bench | workload | class | L1D miss rate (GPGPU-Sim's) | merges as misses, retries excluded |"
    echo "|---|---|---|---:|---:|"
    local mem_sum=0 mem_n=0 cmp_sum=0 cmp_n=0 mem_alt=0 cmp_alt=0
    while read -r abbr wl cls; do
        local r
        r=$(stat "ap_$abbr" L1D_total_cache_miss_rate || true)
        if [ -z "$r" ]; then
            echo "| $abbr | $wl | $cls | failed |"
            continue
        fi
        local acc mis pend
        acc=$(stat "ap_$abbr" L1D_total_cache_accesses)
        mis=$(stat "ap_$abbr" L1D_total_cache_misses)
        pend=$(stat "ap_$abbr" L1D_total_cache_pending_hits)
        local alt
        alt=$(awk -v a="$acc" -v m="$mis" -v p="$pend" 'BEGIN{printf "%.1f%%", (a > 0 ? (m + p) / a * 100 : 0)}') # accesses exclude retries
        echo "| $abbr | $wl | $cls | $(awk -v r="$r" 'BEGIN{printf "%.1f%%", r*100}') | $alt |"
        local altv=${alt%\%}
        if [ "$cls" = memory ]; then
            mem_sum=$(awk -v s="$mem_sum" -v r="$r" 'BEGIN{print s+r}'); mem_n=$((mem_n + 1))
            mem_alt=$(awk -v s="$mem_alt" -v r="$altv" 'BEGIN{print s+r/100}')
        else
            cmp_sum=$(awk -v s="$cmp_sum" -v r="$r" 'BEGIN{print s+r}'); cmp_n=$((cmp_n + 1))
            cmp_alt=$(awk -v s="$cmp_alt" -v r="$altv" 'BEGIN{print s+r/100}')
        fi
    done <<<"$rows"
    echo
    awk -v s="$mem_sum" -v t="$mem_alt" -v n="$mem_n" \
        'BEGIN{printf "memory-intensive mean: %.1f%% (merges as misses, retries excluded: %.1f%%; document: 67.1%%)\n", (n ? s/n*100 : 0), (n ? t/n*100 : 0)}'
    awk -v s="$cmp_sum" -v t="$cmp_alt" -v n="$cmp_n" \
        'BEGIN{printf "compute-intensive mean: %.1f%% (merges as misses, retries excluded: %.1f%%; document: 87.6%%)\n", (n ? s/n*100 : 0), (n ? t/n*100 : 0)}'
    echo
}

case $what in
linebacker | index)
    echo "(the cache-sensitivity classification: $GTLM reproduce linebacker-sensitivity)"
    linebacker_index ;;
apres) apres ;;
all) linebacker_index; apres ;;
*) echo "usage: $0 [linebacker|index|apres|all]" >&2; exit 2 ;;
esac
