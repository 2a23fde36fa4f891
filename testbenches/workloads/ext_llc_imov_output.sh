#!/bin/sh
# Morpheus' helper kernel with Algorithm 2's brx.idx switches (indirect_mov 1) and with the native
# mov.indirect (indirect_mov 2): both verify, and their output digests (WST rows, read data,
# memory) are the same in functional and in timing mode.
# usage: ext_llc_imov_output.sh GTLM CONFIG
set -u
gtlm=$1 cfg=$2
for mode in functional timing; do
    for v in 1 2; do
        out=$("$gtlm" run morpheus/ext_llc --size tiny --config "$cfg" --mode $mode --set indirect_mov=$v 2>&1) ||
            { echo "$out"; exit 1; }
        d=$(printf '%s\n' "$out" | sed -n 's/^ext_llc: output digest //p')
        [ -n "$d" ] || { echo "$out"; echo "no digest"; exit 1; }
        echo "$mode indirect_mov=$v: digest $d"
        eval "d_${mode}_$v=$d"
    done
done
[ "$d_functional_1" = "$d_functional_2" ] && [ "$d_functional_1" = "$d_timing_1" ] && [ "$d_timing_1" = "$d_timing_2" ] ||
    { echo "the digests differ"; exit 1; }
