#!/usr/bin/env bash
# Regenerates every testbenches/kernels/X.ptx from X.cu with the one command the tests expect:
#   nvcc -ptx -arch=compute_75 -o X.ptx X.cu      (no -G, no -lineinfo, no fast-math)
# For maintainers with the CUDA toolkit; the build and the tests only read the committed .ptx.
# NVCC selects the compiler (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail
cd "$(dirname "$0")"

nvcc_bin="${NVCC:-}"
if [ -z "$nvcc_bin" ]; then
    if command -v nvcc >/dev/null 2>&1; then
        nvcc_bin=$(command -v nvcc)
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        nvcc_bin=/usr/local/cuda/bin/nvcc
    else
        echo "regen.sh: nvcc not found (set NVCC)" >&2
        exit 1
    fi
fi

for cu in *.cu; do
    ptx="${cu%.cu}.ptx"
    echo "$nvcc_bin -ptx -arch=compute_75 -o $ptx $cu"
    "$nvcc_bin" -ptx -arch=compute_75 -o "$ptx" "$cu"
done
