#!/bin/sh
# Linebacker's comparison baselines on a real workload (issue 18) with a 1 KB L1 (4 sets x 2 ways)
# that thrashes: every technique still verifies, passes --check-stats and gives the functional
# mode's output digest, and the trends hold: CacheExt and CERF (the L1 grown by the unused
# registers) miss less in the L1 than the baseline; CERF reads each of its hits from the register
# banks, and lending it half of the live warps' registers (-cerf_rare_frac 0.5) gives it more ways;
# PCAL with one static token bypasses the L1 and allocates fewer lines than the baseline, and when
# its bypassing loads keep an L1 MSHR (-pcal_bypass_mshr 1) none goes around the L1 alone (that such
# loads merge is CacheCore.NoAllocateReadsMergeInOneMshrAndInstallNothing: here, with 1 KB of L1,
# the bypassing warps almost never share a line in flight, so the L2 counts of the two modes differ
# only by timing: 117,345 direct vs 117,455 through MSHRs); dynamic PCAL tunes within the live
# warps (KMeans, below).
# usage: lb_compare.sh GTLM WORKLOAD CONFIG
set -u
gtlm=$1 wl=$2 cfg=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-lbc.XXXXXX")
trap 'rm -rf "$dir"' EXIT
l1='-gpgpu_cache:dl1 N:4:128:2,L:L:m:N:L,A:64:8,8'
f=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode functional) || { echo "$f"; exit 1; }
df=$(printf '%s\n' "$f" | grep 'output digest')
run() { # name, options...
    n=$1; shift
    # shellcheck disable=SC2086
    t=$("$gtlm" run "$wl" --size tiny --config "$cfg" --mode timing --check-stats $l1 "$@" --stats "$dir/$n") ||
        { echo "$n: $t"; exit 1; }
    dt=$(printf '%s\n' "$t" | grep 'output digest')
    [ -n "$df" ] && [ "$df" = "$dt" ] || { echo "$n: outputs differ: functional '$df', timing '$dt'"; exit 1; }
}
get() { awk -v k="$2" '$1 == k { print $3 }' "$dir/$1"; }
run base
run cacheext -cacheext_enable 1
run cerf -cerf_enable 1
run cerfr -cerf_enable 1 -cerf_rare_frac 0.5
run pcal -pcal_enable 1 -pcal_tokens 1 -pcal_dynamic 0
run pcalm -pcal_enable 1 -pcal_tokens 1 -pcal_dynamic 0 -pcal_bypass_mshr 1
mb=$(get base L1D_total_cache_misses) me=$(get cacheext L1D_total_cache_misses) mc=$(get cerf L1D_total_cache_misses)
mp=$(get pcal L1D_total_cache_misses) bp=$(get pcal gpu.lb.bypasses)
rc=$(get cerf gpu.sm[0].cerf.reg_hits) ways=$(get cacheext gpu.sm[0].l1ext.extra_way_kernels)
bm=$(get pcalm gpu.sm[0].pcal.bypasses) dm=$(get pcalm gpu.lb.bypasses)
echo "$wl: PCAL keeping MSHRs: $bm token-less loads on SM 0, $dm around the L1"
[ "$bm" -gt 0 ] || { echo "PCAL with MSHRs bypassed nothing"; exit 1; }
[ "$dm" -eq 0 ] || { echo "PCAL's MSHR-keeping bypasses went around the L1"; exit 1; }
echo "$wl: L1 misses base $mb, CacheExt $me (+$ways ways on SM 0), CERF $mc; PCAL $mp misses, $bp bypasses; CERF SM 0 reg hits $rc"
[ "$ways" -gt 0 ] || { echo "CacheExt added no way"; exit 1; }
[ "$me" -lt "$mb" ] || { echo "CacheExt did not reduce the L1 misses"; exit 1; }
[ "$mc" -lt "$mb" ] || { echo "CERF did not reduce the L1 misses"; exit 1; }
[ "$rc" -gt 0 ] || { echo "CERF read no hit from the register banks"; exit 1; }
wc=$(get cerf gpu.sm[0].l1ext.extra_way_kernels) wr=$(get cerfr gpu.sm[0].l1ext.extra_way_kernels)
echo "$wl: CERF extra ways on SM 0: $wc, with half of the live warps' registers as rarely used: $wr"
[ "$wr" -gt "$wc" ] || { echo "CERF's rarely used registers added no way"; exit 1; }
[ "$bp" -gt 0 ] || { echo "PCAL bypassed nothing"; exit 1; }
[ "$mp" -lt "$mb" ] || { echo "PCAL's token-less loads still allocate in the L1"; exit 1; }
# Dynamic PCAL on KMeans (one CTA of 8 warps per SM, 64 resident-capable): from every capable warp
# its steps (64 -> 60 tokens, W 60) reach none of the 8 live warps, so SM 0 never bypasses; from the
# live warps (-pcal_start_live 1) the first downward step takes tokens from live warps.
[ "$wl" = rodinia/kmeans ] || exit 0
run dyncap -pcal_enable 1 -pcal_period 2000 -pcal_start_live 0
run dynlive -pcal_enable 1 -pcal_period 2000 -pcal_start_live 1
bc=$(get dyncap gpu.sm[0].pcal.bypasses) bl=$(get dynlive gpu.sm[0].pcal.bypasses)
tc=$(get dyncap gpu.sm[0].pcal.tokens_avg) tl=$(get dynlive gpu.sm[0].pcal.tokens_avg)
echo "$wl: dynamic PCAL, SM 0: from the capable warps $bc bypasses ($tc tokens avg), from the live warps $bl ($tl)"
[ "$bc" -eq 0 ] || { echo "PCAL's steps from the capable warps reached a live warp"; exit 1; }
[ "$bl" -gt 0 ] || { echo "PCAL's steps from the live warps bypassed nothing"; exit 1; }
awk -v t="$tl" 'BEGIN { exit !(t <= 8) }' || { echo "PCAL held more tokens than live warps"; exit 1; }
