#!/bin/sh
# Issue 22's "LocalityGuru = profiling": at tiny size, every launch whose global loads LocalityGuru
# resolves has a static graph equal to the profiled graph element for element, at element and at
# 128-byte line granularity (gtlm locality exits 1 on any difference, and on a symbolic closed
# form that differs from stepping). Launches it cannot resolve fall back to profiling and say so.
# usage: locality_equal.sh GTLM WORKLOAD
set -u
gtlm=$1 wl=$2
for g in "" --lines; do
    # shellcheck disable=SC2086
    out=$("$gtlm" locality "$wl" $g 2>&1) || { printf '%s\n' "$out" | grep -E 'DIFFERS|locality:|error' | head -20; exit 1; }
    sum=$(printf '%s\n' "$out" | grep '^locality: ')
    echo "$wl ${g:-element}: $sum"
    printf '%s\n' "$sum" | grep -q '; 0 static graphs differ from profiling$' || { echo "no summary line"; exit 1; }
    ! printf '%s\n' "$out" | grep -q 'DIFFERS' || { echo "a graph differs"; exit 1; }
done
