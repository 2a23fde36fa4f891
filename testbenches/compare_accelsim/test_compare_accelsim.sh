#!/bin/bash
# tools/compare_accelsim on kept outputs (no Accel-Sim needed): the committed Accel-Sim and gtlm
# outputs of three tiny workloads (testbenches/data/compare_accelsim, the lines the tool reads)
# give the table and a summary computed by hand from their numbers; bad invocations exit 2.
set -u
src=$1
tool="$src/tools/compare_accelsim"
data="$src/testbenches/data/compare_accelsim"
fail=0
out=$(python3 "$tool" --from "$data") || { echo "FAIL: --from exited $?"; exit 1; }
echo "$out"
expect() {
    if ! grep -qF -- "$1" <<<"$out"; then
        echo "FAIL: missing: $1"
        fail=1
    fi
}
EXPECTS_HERE
python3 "$tool" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: no --accelsim and no --from must exit 2"; fail=1; }
python3 "$tool" --accelsim /nonexistent/accel-sim.out >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: a missing Accel-Sim binary must exit 2"; fail=1; }
python3 "$tool" --from /nonexistent >/dev/null 2>&1
[ $? -ne 0 ] || { echo "FAIL: --from a missing directory must fail"; fail=1; }
exit $fail
