#!/usr/bin/env bash
# Builds the PTX parser's libFuzzer harness with clang in its own build folder and runs it for
# N seconds (default 60) on the seed corpus. Exits non-zero when the fuzzer finds a crash, a
# leak, undefined behaviour or a slow input; the reproducer is left in the build folder.
#   bash testbenches/fuzz/run_fuzz.sh [seconds]
# GTLM_FUZZ_BUILD_DIR picks the build folder (default: build-fuzz in the repository).
set -euo pipefail

seconds=${1:-60}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${GTLM_FUZZ_BUILD_DIR:-$root/build-fuzz}
here=$root/testbenches/fuzz

CC=${GTLM_FUZZ_CC:-clang} cmake -S "$here" -B "$build" -DGTLM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)"
[ -x "$build/fuzz_ptx_parse" ] || { echo "run_fuzz.sh: the fuzzer was not built (is clang installed?)" >&2; exit 2; }

# New inputs go to a scratch folder, so the committed seeds stay as they are.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/artifacts"
"$build/fuzz_ptx_parse" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -dict="$here/ptx.dict" -artifact_prefix="$build/artifacts/" -print_final_stats=1 \
    "$work" "$here/corpus"
