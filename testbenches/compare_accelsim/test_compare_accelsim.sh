#!/bin/bash
# tools/compare_accelsim on kept outputs (no Accel-Sim needed): the committed Accel-Sim and gtlm
# outputs of three tiny workloads (testbenches/data/compare_accelsim, the lines the tool reads)
# give the table and a summary computed by hand from their numbers; bad invocations exit 2.
set -u
src=$1
tool="$src/tools/compare_accelsim"
data="$src/testbenches/data/compare_accelsim"
fail=0
out=$(python3 "$tool" --from "$data") || { echo "FAIL: --from exited $?"; exit 1; }
echo "$out"
expect() {
    if ! grep -qF -- "$1" <<<"$out"; then
        echo "FAIL: missing: $1"
        fail=1
    fi
}
# Per workload: the last value Accel-Sim printed (SPMV has two kernels) and gtlm's run totals.
expect "| parboil_SPMV_tiny | 39,397 / 37,938 | 0.963 | 29,000 / 29,000 | 59,772 / 59,772 | 29,168 / 27,854 | 762 / 0 |"
expect "| polybench_GEMM_tiny | 36,167 / 47,745 | 1.320 |"
expect "| 30,846 / 53,781 | 1,536 / 1,536 | 293.4 / 5.0 | 58.8x |"
expect "| rodinia_HotSpot_tiny | 2,259 / 1,891 | 0.837 |"
# By hand: ratios 0.96297, 1.32013, 0.83710; mean |r - 1| = 0.52006 / 3; geometric mean
# (0.96297 * 1.32013 * 0.83710)^(1/3) = 1.0209; Pearson r of (39397, 36167, 2259) and
# (37938, 47745, 1891) = 0.9602; speed (39.91 * 58.78 * 18.49)^(1/3) = 35.14.
expect "summary over 3 workloads: mean |gtlm/AS - 1| = 17.3%, max = 32.0%, geometric mean gtlm/AS = 1.021, Pearson r = 0.960, speed gtlm/AS = 35.1x, warp instructions identical"
expect "polybench_GEMM_tiny: {'MISS_QUEUE_FULL': 6535}; {}"
expect "parboil_SPMV_tiny: {'MSHR_MERGE_ENRTY_FAIL': 4689}; {'mshr_merge': 5162}"
# Counters: L1D misses 27,854/29,168, 5,632/5,632, 2,968/3,224 -> 4.50%, 0, 7.94%: mean 4.1%;
# L2 misses 7,296/7,488, 1,536/1,536, 1,152/1,536 -> 2.56%, 0, 25.0%: mean 9.2%, two within 10%.
expect "  L1D accesses: 3 of 3 within 10%, mean |gtlm/AS - 1| = 0.0%, largest 0.0%"
expect "  L1D misses: 3 of 3 within 10%, mean |gtlm/AS - 1| = 4.1%, largest 7.9% (rodinia_HotSpot_tiny)"
expect "  L2 misses: 2 of 3 within 10%, mean |gtlm/AS - 1| = 9.2%, largest 25.0% (rodinia_HotSpot_tiny)"
# A skipped workload is listed and left out of the summary; CPU seconds, when kept, give the speed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$data"/* "$tmp"/
echo "Accel-Sim time limit 600 s reached" >"$tmp/rodinia_LUD_tiny.skipped"
echo "200.998 5.036 100.000 4.000" >"$tmp/parboil_SPMV_tiny.time"
out=$(python3 "$tool" --from "$tmp") || { echo "FAIL: --from with a skipped workload exited $?"; exit 1; }
expect "| rodinia_LUD_tiny | not run: Accel-Sim time limit 600 s reached |"
expect "  rodinia_LUD_tiny: Accel-Sim time limit 600 s reached"
# speed (25.0 * 58.78 * 18.49)^(1/3) = 30.08; the cycle summary is unchanged.
expect "summary over 3 workloads: mean |gtlm/AS - 1| = 17.3%, max = 32.0%, geometric mean gtlm/AS = 1.021, Pearson r = 0.960, speed gtlm/AS = 30.1x"
python3 "$tool" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: no --accelsim and no --from must exit 2"; fail=1; }
python3 "$tool" --accelsim /nonexistent/accel-sim.out >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: a missing Accel-Sim binary must exit 2"; fail=1; }
python3 "$tool" --from /nonexistent >/dev/null 2>&1
[ $? -ne 0 ] || { echo "FAIL: --from a missing directory must fail"; fail=1; }
exit $fail
