#!/usr/bin/env bash
# Builds a libFuzzer harness with clang in its own build folder and runs it for N seconds
# (default 60) on its seed corpus. Exits non-zero when the fuzzer finds a crash, a leak,
# undefined behaviour or a slow input; the reproducer is left in the build folder.
#   bash testbenches/fuzz/run_fuzz.sh [seconds] [ptx|trace]
# GTLM_FUZZ_BUILD_DIR picks the build folder (default: build-fuzz in the repository).
set -euo pipefail

seconds=${1:-60}
which=${2:-ptx}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${GTLM_FUZZ_BUILD_DIR:-$root/build-fuzz}
here=$root/testbenches/fuzz

CC=${GTLM_FUZZ_CC:-clang} cmake -S "$here" -B "$build" -DGTLM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target "fuzz_${which}_parse"
fuzzer=$build/fuzz_${which}_parse
[ -x "$fuzzer" ] || { echo "run_fuzz.sh: the fuzzer was not built (is clang installed?)" >&2; exit 2; }

# New inputs go to a scratch folder, so the committed seeds stay as they are.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/artifacts-$which"
case $which in
    ptx) seeds=("$here/corpus") extra=(-dict="$here/ptx.dict") ;;
    # The small committed traces are the seeds (the fuzzer only reads them).
    trace) seeds=("$root/testbenches/data/traces/microgpusim-vectoradd-100-32"
                  "$root/testbenches/data/traces/accelsimhbf-lud-kernel8") extra=(-dict="$here/trace.dict") ;;
    *) echo "run_fuzz.sh: unknown harness '$which' (ptx or trace)" >&2; exit 2 ;;
esac
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 "${extra[@]}" \
    -artifact_prefix="$build/artifacts-$which/" -print_final_stats=1 "$work" "${seeds[@]}"
