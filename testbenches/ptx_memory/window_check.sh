#!/usr/bin/env bash
# ptx_memory.window_check: window_check.c built with the normal token window (NORMAL) and with
# the smallest (TINY) must print the same for the committed PTX and damaged copies of it.
#   bash window_check.sh NORMAL TINY SOURCE_DIR
set -euo pipefail
normal=$1 tiny=$2 root=$3
files=$(ls "$root"/testbenches/data/ptx/parser/*.ptx "$root"/testbenches/kernels/*.ptx "$root"/testbenches/fuzz/corpus/*.ptx \
           "$root"/workloads/ispass/libor/libor.ptx)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$normal" $files > "$work/normal.txt"
"$tiny" $files > "$work/tiny.txt"
parses=$(grep -c '^== ' "$work/normal.txt")
if ! cmp -s "$work/normal.txt" "$work/tiny.txt"; then
    echo "window_check: the smallest token window parses differently:"
    diff "$work/normal.txt" "$work/tiny.txt" | head -20
    exit 1
fi
echo "window_check: $parses parses (of $(echo "$files" | wc -l) files and damaged copies) equal with the smallest window"
