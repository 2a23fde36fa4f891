#!/usr/bin/env bash
# Checks that every committed testbenches/kernels/X.ptx is what
#   nvcc -ptx -arch=compute_75 -o X.ptx X.cu
# produces from the committed X.cu: each .cu is recompiled into a temporary folder and compared
# with the committed .ptx. Exit status: 0 when all match, 1 on any difference or compile error,
# 77 (CTest's skip code) when the check cannot run: no nvcc, or an nvcc of another release than the committed PTX headers name
# (whose output legitimately differs). Usable as a CTest test with SKIP_RETURN_CODE 77.
# NVCC selects the compiler (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc).
set -uo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
cd "$dir"

nvcc_bin="${NVCC:-}"
if [ -z "$nvcc_bin" ]; then
    if command -v nvcc >/dev/null 2>&1; then
        nvcc_bin=$(command -v nvcc)
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        nvcc_bin=/usr/local/cuda/bin/nvcc
    fi
fi
if [ -z "$nvcc_bin" ] || ! [ -x "$nvcc_bin" ]; then
    echo "check_ptx.sh: skipped: no nvcc"
    exit 77
fi

# "Cuda compilation tools, release 13.0, V13.0.88" as nvcc --version prints it and as the PTX
# header records it.
have=$("$nvcc_bin" --version | grep -o 'Cuda compilation tools, release [^ ]*, V[0-9.]*' | head -n 1)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0
checked=0
skipped=0
for cu in *.cu; do
    ptx="${cu%.cu}.ptx"
    if [ ! -f "$ptx" ]; then
        echo "check_ptx.sh: $ptx is missing (run regen.sh)"
        status=1
        continue
    fi
    want=$(grep -o 'Cuda compilation tools, release [^ ]*, V[0-9.]*' "$ptx" | head -n 1)
    if [ -n "$want" ] && [ "$want" != "$have" ]; then
        echo "check_ptx.sh: skipped $ptx: made by '$want', this nvcc is '$have'"
        skipped=$((skipped + 1))
        continue
    fi
    if ! "$nvcc_bin" -ptx -arch=compute_75 -o "$tmp/$ptx" "$cu"; then
        echo "check_ptx.sh: nvcc failed on $cu"
        status=1
        continue
    fi
    if ! diff -u "$ptx" "$tmp/$ptx"; then
        echo "check_ptx.sh: $ptx differs from what nvcc makes of $cu (run regen.sh)"
        status=1
        continue
    fi
    checked=$((checked + 1))
done

for ptx in *.ptx; do
    if [ ! -f "${ptx%.ptx}.cu" ]; then
        echo "check_ptx.sh: $ptx has no ${ptx%.ptx}.cu"
        status=1
    fi
done

[ $status -eq 0 ] && echo "check_ptx.sh: $checked PTX file(s) match their sources, $skipped skipped"
# Nothing compared at all: report a skip, not a pass.
[ $status -eq 0 ] && [ $checked -eq 0 ] && exit 77
exit $status
