#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a result: installs the Debian packages gtlm
# needs (only those missing), builds, then either runs the main job or the whole test suite.
#   tools/setup.sh run    build and run the main job on the default configuration
#   tools/setup.sh test   build and run every test through ctest, then the misuse suite and the tiny
#                         suite again in an ASan+UBSan+LSan build (build-sanitize); see below
# Idempotent: with everything installed and built it only checks and re-runs.
set -euo pipefail

mode=${1:-run}
case "$mode" in run | test) ;; *) echo "usage: tools/setup.sh run|test" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."

# Build tools, SystemC with TLM-2.0, GoogleTest and the JSON reader the tests use, METIS
# (PAVER's graph partitioning), Verilator (RTL co-simulation), clang with libFuzzer for the
# PTX parser's fuzz test, gnuplot without X11 for tools/plot's PNG charts, xz for compressed
# Accel-Sim traces (.traceg.xz); Python 3 with numpy and matplotlib for the Python module, its tests
# and tutorial (docs/python.md), dpkg-dev for `cpack -G DEB` (the .deb package), and SLURM with
# munge for gtlm reproduce --backend slurm's test (a one-node cluster on localhost).
packages=(cmake make gcc g++ pkg-config libsystemc-dev libgtest-dev nlohmann-json3-dev libmetis-dev verilator
          clang libclang-rt-14-dev gnuplot-nox xz-utils python3 python3-numpy python3-matplotlib dpkg-dev
          slurmctld slurmd slurm-client munge)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc 2>/dev/null || echo 2)
build=${GTLM_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$jobs"

if [ "$mode" = run ]; then
    exec "$build/bin/gtlm" run polybench/ATAX --size sim --config configs/gtx480.config
else
    status=0
    ctest --test-dir "$build" --output-on-failure -j "$jobs" || status=$?
    # Then again under AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer (build-sanitize,
    # -DGTLM_SANITIZE=ON): by default (GTLM_SANITIZE_TESTS=ci) the misuse suite (MisuseLaunch,
    # MisuseCallback, MisuseThreads, MisuseResources, CApi misuse and c_api.c_misuse) and the tiny
    # suite (every workload on tiny.config in both modes), building only the targets they need;
    # GTLM_SANITIZE_TESTS=all runs the whole label sanitize (every GoogleTest suite too), 0 skips it.
    # The other suites' sanitizer builds (unit, TLM, CLI) would more than double the pass's build time.
    sanitize=${GTLM_SANITIZE_TESTS:-ci}
    if [ "$sanitize" != 0 ]; then
        sbuild=${GTLM_SANITIZE_BUILD_DIR:-build-sanitize}
        # Without the Verilated blocks (-rtl_* are off by default and their own tests are rtl.*):
        # their unrolled code takes many minutes to compile under the sanitizers.
        cmake -S . -B "$sbuild" -DCMAKE_BUILD_TYPE=Release -DGTLM_SANITIZE=ON -DGTLM_RTL=OFF >/dev/null
        targets=(gtlm_cli gtlm_c_misuse gtlm_api_tests)
        select=(-R '^(Misuse[A-Za-z]*\.|CApi\.Misuse|c_api\.c_misuse$|timing_tiny\.)')
        if [ "$sanitize" = all ]; then
            targets+=(gtlm_unit_tests gtlm_tlm_tests gtlm_cli_tests)
            select=()
        fi
        cmake --build "$sbuild" -j "$jobs" --target "${targets[@]}"
        ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
            LSAN_OPTIONS=suppressions=$PWD/testbenches/sanitize/lsan.supp \
            ctest --test-dir "$sbuild" -L sanitize "${select[@]}" --output-on-failure -j "$jobs" || status=$?
    fi
    exit $status
fi
