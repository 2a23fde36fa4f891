#!/usr/bin/env bash
# Regenerates workloads/<suite>/<name>/<name>.ptx and <name>.ptxas.txt from <name>.cu:
#   nvcc -ptx -arch=compute_75 (no -G, no -lineinfo, no fast-math) and ptxas -v -arch=sm_75.
#   (A .cu may include its suite's shared device code, <suite>/common/*.cuh, by a relative path.)
#   bash workloads/regen.sh [--check] [--nvcc NVCC] [--ptxas PTXAS] [SUITE/NAME ...]
# With --check nothing is written: each result is compared with the committed file and the
# script fails on a difference (skipped with CTest's skip code 77 when nvcc is not installed;
# without --check a missing nvcc is an error). Naming workload
# folders limits the work to them.
set -uo pipefail
cd "$(dirname "$0")"
check=0
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
dirs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --check) check=1 ;;
    --nvcc) nvcc=$2; shift ;;
    --ptxas) ptxas=$2; shift ;;
    *) dirs+=("${1%/}") ;;
    esac
    shift
done
[ ${#dirs[@]} -gt 0 ] || dirs=(*/*)
if ! [ -x "$nvcc" ] || ! [ -x "$ptxas" ]; then
    [ $check = 1 ] || { echo "regen.sh: nvcc/ptxas not found (--nvcc, --ptxas)" >&2; exit 1; }
    echo "regen.sh: skipped: no nvcc/ptxas"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for dir in "${dirs[@]}"; do
    name=$(basename "$dir")
    cu="$dir/$name.cu"
    [ -f "$cu" ] || continue
    "$nvcc" -ptx -arch=compute_75 -o "$tmp/$name.ptx" "$cu" || { status=1; continue; }
    # ptxas prints its report on stderr; keep only the report lines, not the temp path.
    "$ptxas" -v -arch=sm_75 "$tmp/$name.ptx" -o /dev/null 2> "$tmp/$name.raw" || { status=1; continue; }
    grep -E 'ptxas info|bytes stack frame' "$tmp/$name.raw" | grep -v 'Compile time' | sed -e "s#$tmp/##g" > "$tmp/$name.ptxas.txt"
    if [ $check = 1 ]; then
        for f in "$name.ptx" "$name.ptxas.txt"; do
            if ! cmp -s "$tmp/$f" "$dir/$f"; then
                echo "regen.sh: $dir/$f differs from what $cu compiles to"
                status=1
            fi
        done
    else
        cp "$tmp/$name.ptx" "$tmp/$name.ptxas.txt" "$dir/"
    fi
done
exit $status
