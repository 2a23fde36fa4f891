#!/usr/bin/env bash
# Builds the C API tests with ThreadSanitizer (-DGTLM_TSAN=ON: libgtlm and the tests instrumented)
# in their own build folder and runs the multi-simulator and callback tests. Exits non-zero on a
# data race or a failed test.
#   bash testbenches/tsan/run_tsan.sh [build-dir]
# Cost: one build of the library and the API tests (about 4 minutes on 2 cores from scratch, seconds
# with a warm ccache or an existing folder) and 3 seconds of tests.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-tsan}
source "$root/testbenches/tsan/tsan_build.sh"
tsan_build "$build" gtlm_api_tests
# halt_on_error: the first race fails the run; SystemC itself is not instrumented (its accesses
# are serialised by gtlm's lock, which TSan sees).
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    "$build/testbenches/gtlm_api_tests" --gtest_filter='MisuseThreads.*:MisuseCallback.*'
