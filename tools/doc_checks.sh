#!/usr/bin/env bash
# Checks of the baseline timing model against the documents (run by hand; prints tables):
#  1. Linebacker's cache sensitivity (seed Linebacker Sec. 2.1, Table 2): speedup of a 192 KB over
#     a 48 KB L1 on configs/gtx980-linebacker.config at sim size; the document calls a benchmark
#     cache-sensitive above 30%.
#  2. APRES' L1 miss rates (seed APRES Sec. III): L1D miss rate per benchmark on
#     configs/gtx480.config at sim size, and the class means beside the stated 67.1% (memory-
#     intensive) and 87.6% (compute-intensive).
# usage: tools/doc_checks.sh [linebacker|footprint|apres|all]   (env: GTLM=path to gtlm, JOBS=parallel runs)
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
    "$GTLM" run "$wl" --size sim --config "$cfg" "$@" >"$out/$name.txt" 2>&1 || echo "FAILED" >>"$out/$name.txt"
}
export -f run
export GTLM out

stat() { grep -m1 "^$2 = " "$out/$1.txt" | awk '{print $3}'; }

linebacker() {
    # abbreviation, workload, the document's class (Table 2); SDK BFS (BC) is not in the suite
    local rows="S2 polybench/SYR2K sensitive
GE polybench/GESUMMV sensitive
BI polybench/BICG sensitive
KM rodinia/KMeans sensitive
AT polybench/ATAX sensitive
S1 polybench/SYRK sensitive
MV polybench/MVT sensitive
CF rodinia/CFD sensitive
PF rodinia/ParticleFilter sensitive
BG ispass/BFS insensitive
LI ispass/LIBOR insensitive
SR2 rodinia/SRAD-v2 insensitive
SP parboil/SPMV insensitive
BR rodinia/BFS insensitive
FD polybench/FDTD-2D insensitive
GA rodinia/Gaussian insensitive
2D polybench/2DCONV insensitive
SR1 rodinia/SRAD-v1 insensitive
HS rodinia/HotSpot insensitive"
    local cfg=configs/gtx980-linebacker.config
    local big="N:192:128:8,L:L:m:N:L,A:64:8,8" # 192 KB: four times the sets of the 48 KB L1
    echo "$rows" | while read -r abbr wl cls; do
        echo "run lb48_$abbr $wl $cfg"
        echo "run lb192_$abbr $wl $cfg -gpgpu_cache:dl1 $big"
    done | xargs -P "$JOBS" -I{} bash -c '{}'
    echo "## Linebacker cache sensitivity (gtx980-linebacker, sim size): 192 KB vs 48 KB L1"
    echo
    echo "| bench | workload | cycles 48 KB | cycles 192 KB | speedup | ours (>30%) | document |"
    echo "|---|---|---:|---:|---:|---|---|"
    local agree=0 total=0
    while read -r abbr wl cls; do
        local a b
        a=$(stat "lb48_$abbr" gpu_tot_sim_cycle || true)
        b=$(stat "lb192_$abbr" gpu_tot_sim_cycle || true)
        if [ -z "$a" ] || [ -z "$b" ]; then
            echo "| $abbr | $wl | failed | | | | $cls |"
            continue
        fi
        local sp ours
        sp=$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1f%%", (a/b-1)*100}')
        ours=$(awk -v a="$a" -v b="$b" 'BEGIN{print (a/b-1 > 0.30) ? "sensitive" : "insensitive"}')
        total=$((total + 1))
        [ "$ours" = "$cls" ] && agree=$((agree + 1))
        echo "| $abbr | $wl | $a | $b | $sp | $ours | $cls |"
    done <<<"$rows"
    echo
    echo "classification agrees with the document for $agree of $total benchmarks"
    echo
}

# The row-per-thread PolyBench kernels launch 8 CTAs at sim size: on 16 SMs each SM holds one CTA
# whose 256 threads need one 128-byte line each (32 KB), which fits a 48 KB L1. The same kernels
# on 2 SMs at n = 1024 (4 CTAs, two per SM, 64 KB of lines) show what happens when the per-SM
# footprint exceeds 48 KB.
linebacker_footprint() {
    local rows="GE polybench/GESUMMV --set n=1024
BI polybench/BICG --set nx=1024 --set ny=1024
AT polybench/ATAX --set nx=1024 --set ny=1024
MV polybench/MVT --set n=1024"
    local cfg=configs/gtx980-linebacker.config
    local big="N:192:128:8,L:L:m:N:L,A:64:8,8"
    echo "$rows" | while read -r abbr wl args; do
        echo "run fp48_$abbr $wl $cfg -gpgpu_n_clusters 2 $args"
        echo "run fp192_$abbr $wl $cfg -gpgpu_n_clusters 2 -gpgpu_cache:dl1 $big $args"
    done | xargs -P "$JOBS" -I{} bash -c '{}'
    echo "## Linebacker cache sensitivity with two CTAs per SM (2 SMs, n = 1024)"
    echo
    echo "| bench | workload | cycles 48 KB | cycles 192 KB | speedup |"
    echo "|---|---|---:|---:|---:|"
    while read -r abbr wl args; do
        local a b
        a=$(stat "fp48_$abbr" gpu_tot_sim_cycle || true)
        b=$(stat "fp192_$abbr" gpu_tot_sim_cycle || true)
        if [ -z "$a" ] || [ -z "$b" ]; then echo "| $abbr | $wl | failed | | |"; continue; fi
        echo "| $abbr | $wl | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1f%%", (a/b-1)*100}') |"
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
        local acc mis pend fails
        acc=$(stat "ap_$abbr" L1D_total_cache_accesses)
        mis=$(stat "ap_$abbr" L1D_total_cache_misses)
        pend=$(stat "ap_$abbr" L1D_total_cache_pending_hits)
        fails=$(grep -E "^gpu.l1d.res_fail_[a-z_]+ = " "$out/ap_$abbr.txt" | awk '{s += $3} END {print s + 0}')
        local alt
        alt=$(awk -v a="$acc" -v m="$mis" -v p="$pend" -v f="$fails" 'BEGIN{d = a - f; printf "%.1f%%", (d > 0 ? (m + p) / d * 100 : 0)}')
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
linebacker) linebacker; linebacker_footprint ;;
footprint) linebacker_footprint ;;
apres) apres ;;
all) linebacker; linebacker_footprint; apres ;;
*) echo "usage: $0 [linebacker|footprint|apres|all]" >&2; exit 2 ;;
esac
