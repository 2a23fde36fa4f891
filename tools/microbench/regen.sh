#!/usr/bin/env bash
# Regenerates tools/microbench/microbench.ptx and microbench.ptxas.txt from microbench.cu with the
# commands the workloads use (nvcc -ptx -arch=compute_75, no -G/-lineinfo/fast-math; ptxas -v
# -arch=sm_75). With --check nothing is written: the results are compared with the committed
# files (exit 1 on a difference, 77 = skipped when nvcc or ptxas is missing). The build only
# reads the committed files, so it never needs nvcc.
set -uo pipefail
cd "$(dirname "$0")"
check=0
[ "${1:-}" = --check ] && check=1
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if ! [ -x "$nvcc" ] || ! [ -x "$ptxas" ]; then
    echo "regen.sh: skipped: no nvcc/ptxas"
    [ $check = 1 ] && exit 77
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -ptx -arch=compute_75 -o "$tmp/microbench.ptx" microbench.cu || exit 1
"$ptxas" -v -arch=sm_75 "$tmp/microbench.ptx" -o /dev/null 2>"$tmp/raw" || exit 1
grep -E 'ptxas info|bytes stack frame' "$tmp/raw" | grep -v 'Compile time' | sed -e "s#$tmp/##g" >"$tmp/microbench.ptxas.txt"
if [ $check = 0 ]; then
    cp "$tmp/microbench.ptx" "$tmp/microbench.ptxas.txt" .
    exit 0
fi
status=0
for f in microbench.ptx microbench.ptxas.txt; do
    cmp -s "$tmp/$f" "$f" || { echo "regen.sh: tools/microbench/$f differs from what microbench.cu compiles to"; status=1; }
done
[ $status = 0 ] && echo "regen.sh: microbench.ptx and microbench.ptxas.txt match microbench.cu"
exit $status
