#!/usr/bin/env bash
# Checks the GTKWave views in waveforms/: for each .gtkw, runs a small workload with the
# -vcd_signals its header names and checks that every trace the view lists is a variable of the
# VCD (by its full path as GTKWave names it: SystemC.gpu.sm(0).active_warps[7:0]).
#   bash testbenches/wave/test_views.sh GTLM_BINARY SOURCE_DIR
# Exit status 0 when every view matches, 1 otherwise. Usable as a CTest test.
set -euo pipefail

gtlm=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-views.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

# Full GTKWave names of a VCD's variables, one per line.
vcd_names() {
    awk '
        $1 == "$scope" { scope[++depth] = $3 }
        $1 == "$upscope" { depth-- }
        $1 == "$var" {
            name = ""
            for (i = 1; i <= depth; i++) name = name scope[i] "."
            name = name $5
            if ($6 != "$end") name = name $6
            print name
        }
        $1 == "$enddefinitions" { exit }
    ' "$1"
}

for view in "$src"/waveforms/*.gtkw; do
    pattern=$(sed -n 's/^\[\*\] vcd_signals: //p' "$view")
    if [ -z "$pattern" ]; then
        echo "FAIL: $view names no vcd_signals" >&2
        failures=$((failures + 1))
        continue
    fi
    extra=$(sed -n 's/^\[\*\] vcd_args: //p' "$view") # options the view's signals need (one word each)
    workload=$(sed -n 's/^\[\*\] vcd_workload: //p' "$view") # the run it needs, if not ATAX
    workload=${workload:-polybench/ATAX}
    vcd="$tmp/$(basename "$view" .gtkw).vcd"
    # shellcheck disable=SC2086
    "$gtlm" run "$workload" --size tiny --config "$src/configs/tiny.config" --vcd "$vcd" \
        -vcd_signals "$pattern" -vcd_end 20000 $extra >"$tmp/out" 2>&1 || {
        echo "FAIL: gtlm run for $view:" >&2
        tail -5 "$tmp/out" >&2
        failures=$((failures + 1))
        continue
    }
    vcd_names "$vcd" | sort >"$tmp/have"
    traces=$(grep -v '^[@\[*-]' "$view" | grep -c . || true)
    if [ "$traces" -lt 5 ]; then
        echo "FAIL: $view lists only $traces traces" >&2
        failures=$((failures + 1))
    fi
    while read -r trace; do
        grep -qxF "$trace" "$tmp/have" || {
            echo "FAIL: $view shows $trace, which the VCD written with -vcd_signals '$pattern' lacks" >&2
            failures=$((failures + 1))
        }
    done < <(grep -v '^[@\[*-]' "$view" | grep .)
    echo "$(basename "$view"): $traces traces, all in a VCD of $(wc -l <"$tmp/have") signals"
done
[ "$failures" -eq 0 ]
