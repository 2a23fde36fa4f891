#!/usr/bin/env bash
# Writes the man page gtlm(1) from the command's own help texts (gtlm help, gtlm COMMAND --help),
# so the page and --help never disagree. usage: gen_manpage.sh GTLM OUT.1 VERSION
set -euo pipefail
gtlm=$1 out=$2 version=$3

roff() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\&'/"; }
commands=$("$gtlm" help | sed -n 's/^  \([a-z]\+\) .*/\1/p')
{
    echo ".TH GTLM 1 \"\" \"gtlm $version\" \"User Commands\""
    echo ".SH NAME"
    echo "gtlm \\- cycle-level GPU timing model (SystemC/TLM\\-2.0): run workloads, traces and sweeps"
    echo ".SH SYNOPSIS"
    echo ".B gtlm"
    echo ".I command"
    echo "[arguments]"
    echo ".SH DESCRIPTION"
    echo "gtlm simulates a GPU at cycle level: streaming multiprocessors, caches, interconnect and DRAM,"
    echo "configured with GPGPU\\-Sim style option files. It runs built\\-in CUDA workloads from their PTX,"
    echo "Accel\\-Sim traces, and sweeps over configurations, verifies results against CPU references and"
    echo "prints a GPU\\-level summary (GPGPU\\-Sim statistic names) with progress on standard error."
    echo ".SH COMMANDS"
    for c in $commands; do
        help=$("$gtlm" "$c" --help)
        echo ".SS $(printf '%s\n' "$help" | sed -n 's/^usage: //p' | head -n 1 | roff)"
        # the description: from after the usage line up to "flags:"
        printf '%s\n' "$help" | awk 'NR > 2 && /^flags:/ {exit} NR > 2 && NF {print}' | roff
        printf '%s\n' "$help" | awk '/^flags:/ {f = 1; next} f && /^  / {print} f && !NF {exit}' |
            while IFS= read -r line; do
                flag=$(printf '%s' "$line" | sed -E 's/^  (.{30}) .*/\1/; s/ +$//')
                text=$(printf '%s' "$line" | sed -E 's/^  .{30} //')
                echo ".TP"
                echo "\\fB$(printf '%s' "$flag" | roff)\\fR"
                printf '%s\n' "$text" | roff
            done
    done
    echo ".SH EXIT STATUS"
    echo "0 success, 1 simulation or workload failure, 2 bad usage or bad input."
    echo ".SH FILES"
    echo ".TP"
    echo "/usr/share/gtlm/configs"
    echo "GPU configurations (GTX480, GTX980, TITAN X Pascal, TITAN V, RTX 3080, H100, a tiny test GPU)."
    echo ".TP"
    echo "/usr/share/gtlm/waveforms"
    echo "GTKWave views of the VCD waveforms written with \\-\\-vcd."
    echo ".TP"
    echo "/usr/share/doc/gtlm"
    echo "README and the documentation, including the Python tutorial python.md."
    echo ".SH EXAMPLES"
    echo ".nf"
    echo "gtlm run polybench/ATAX \\-\\-size sim \\-\\-config /usr/share/gtlm/configs/gtx480.config"
    echo "gtlm run rodinia/BFS \\-\\-per\\-unit \\-\\-stats\\-json bfs.json"
    echo "gtlm options \\-\\-search dram"
    echo ".fi"
    echo ".SH SEE ALSO"
    echo "The C API in <gtlm/gtlm.h> (pkg\\-config gtlm) and the Python module gtlm (import gtlm)."
} >"$out"
