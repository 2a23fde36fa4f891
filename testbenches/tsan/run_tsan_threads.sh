#!/usr/bin/env bash
# -gtlm_threads under ThreadSanitizer: builds the gtlm command with -DGTLM_TSAN=ON in its own build
# folder (the one run_tsan.sh uses, so the library's objects are shared) and runs the thread-count
# identity check (threads_identical.sh: 1, 2 and 3 threads) on workloads with atomics, shared
# memory and sparse loads. A data race (halt_on_error) or a difference fails it.
#   bash testbenches/tsan/run_tsan_threads.sh [build-dir [workload ...]]
# Default workloads: MRI-Gridding (atomics in schedule order) and MatrixMul (shared memory and
# barriers), the ones the suite's tsan.threads runs; ATAX (sparse, uncoalesced loads) is added by
# -DGTLM_TEST_TSAN_THREADS=ON. Cost: one TSan build of libgtlm and the command (about 5 minutes on
# 2 cores from scratch; in the suite the library's objects come from tsan.multi_simulator's build
# in the same folder, so only the command's objects are new) and the runs: MRI-Gridding 21 s,
# MatrixMul 8 s, ATAX 78 s of processor time (measured at stop 32).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-tsan}
[ $# -gt 0 ] && shift
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(parboil/mrigridding sdk/matrixmul)
source "$root/testbenches/tsan/tsan_build.sh"
tsan_build "$build" gtlm_cli
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
for wl in "${workloads[@]}"; do
    sh "$root/testbenches/workloads/threads_identical.sh" "$build/bin/gtlm" "$wl" "$root/configs/gtx480.config"
done
