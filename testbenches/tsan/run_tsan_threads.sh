#!/usr/bin/env bash
# -gtlm_threads under ThreadSanitizer: builds the gtlm command with -DGTLM_TSAN=ON in its own build
# folder (the one run_tsan.sh uses, so the library's objects are shared) and runs the thread-count
# identity check (threads_identical.sh: 1, 2 and 3 threads) on workloads with atomics, shared
# memory and sparse loads. A data race (halt_on_error) or a difference fails it.
#   bash testbenches/tsan/run_tsan_threads.sh [build-dir]
# Cost: one TSan build of libgtlm and the command (about 5 minutes on 2 cores from scratch, seconds
# with a warm ccache or an existing folder) and about 110 processor seconds of runs (ATAX 78 s,
# MRI-Gridding 21 s, MatrixMul 8 s, measured at stop 32).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-tsan}
source "$root/testbenches/tsan/tsan_build.sh"
tsan_build "$build" gtlm_cli
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
for wl in parboil/mrigridding sdk/matrixmul polybench/atax; do
    sh "$root/testbenches/workloads/threads_identical.sh" "$build/bin/gtlm" "$wl" "$root/configs/gtx480.config"
done
