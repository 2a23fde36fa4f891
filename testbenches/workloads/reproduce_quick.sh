#!/bin/sh
# An experiment's own test: `gtlm reproduce NAME --quick` from the source tree runs every point of
# its quick subset (tiny size) without a failure, and its report has every figure's table and a
# verdict for every claim of NAME/numbers (the spec and the numbers parse against each other).
# usage: reproduce_quick.sh GTLM SOURCE_DIR NAME
set -u
gtlm=$1 src=$2 name=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-rq.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$src" || exit 1
out=$("$gtlm" reproduce "$name" --quick -j 2 --out "$dir/out" --no-plots 2>"$dir/err") || {
    echo "$out" | tail -20; tail -5 "$dir/err"; exit 1; }
figures=$(grep -c '^figure ' "experiments/$name/spec")
tables=$(printf '%s\n' "$out" | grep '^## ' | grep -v -c '^## Verdicts')
claims=$(grep -c '^claim ' "experiments/$name/numbers")
verdicts=$(printf '%s\n' "$out" | grep -c '^- verdict: ')
echo "$name --quick: $tables tables of $figures figures, $claims claims"
printf '%s\n' "$out" | grep '^- verdict: ' | head -20
[ "$tables" -eq "$figures" ] || { echo "tables missing"; exit 1; }
[ "$verdicts" -ge "$claims" ] || { echo "verdicts missing"; exit 1; }
