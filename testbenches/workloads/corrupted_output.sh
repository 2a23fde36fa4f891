#!/bin/sh
# A workload whose output was corrupted after its kernels ran (--corrupt-output: one element
# changed through the C API) must fail its verification: exit status 1 AND the driver's
# "verification failed" message and "WRONG RESULT" verdict (an abort or a load error also exits
# non-zero, so the status alone proves nothing).
# usage: corrupted_output.sh GTLM WORKLOAD
set -u
gtlm=$1 wl=$2
out=$("$gtlm" run "$wl" --size tiny --mode functional --corrupt-output 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E 'verification failed|WRONG RESULT|error' | head -8
[ $rc -eq 1 ] || { echo "exit status $rc, expected 1"; exit 1; }
printf '%s\n' "$out" | grep -q ': verification failed: ' || { echo "no 'verification failed' message"; exit 1; }
printf '%s\n' "$out" | grep -q ': WRONG RESULT$' || { echo "no WRONG RESULT verdict"; exit 1; }
