#!/usr/bin/env bash
# Runs tools/plot on the sample CSVs in testbenches/data/plot/ and checks the PNGs it writes
# (present, non-empty, PNG signature) and that bad invocations exit 2 with a message.
#   bash testbenches/plot/test_plot.sh [SOURCE_DIR]     (default: the repository holding this file)
# Exit status: 0 when every check passes, 1 otherwise. Usable as a CTest test.
set -euo pipefail

src=${1:-$(dirname "$0")/../..}
plot="$src/tools/plot"
data="$src/testbenches/data/plot"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-plot-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# A PNG starts with the 8-byte signature \x89 P N G \r \n \x1a \n; checking it catches a
# gnuplot that wrote an error text or an empty file instead of an image.
check_png() {
    if [ ! -s "$1" ]; then fail "$1 missing or empty"; return; fi
    local sig
    sig=$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')
    [ "$sig" = 89504e470d0a1a0a ] || fail "$1 is not a PNG (starts with $sig)"
}

# Runs a command expected to fail with status 2 and a message naming what is wrong.
expect_usage_error() {
    local pattern=$1 rc=0
    shift
    "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 2 ] || fail "'$*' exited $rc, expected 2"
    grep -q -- "$pattern" "$tmp/err" || fail "'$*' message lacks '$pattern': $(cat "$tmp/err")"
}

command -v gnuplot >/dev/null 2>&1 || { echo "FAIL: gnuplot not installed (tools/setup.sh installs gnuplot-nox)" >&2; exit 1; }

# timeseries: every metric by default, then a chosen subset only.
bash "$plot" timeseries "$data/timeseries.csv" "$tmp/ts" >/dev/null || fail "timeseries exited $?"
for m in ipc l1_hit_rate l2_hit_rate mshr_occupancy active_warps dram_bw_util icnt_latency; do
    check_png "$tmp/ts/$m.png"
done
[ ! -e "$tmp/ts/cycle.png" ] || fail "timeseries plotted the cycle column"
bash "$plot" timeseries "$data/timeseries.csv" "$tmp/ts2" --columns ipc,dram_bw_util >/dev/null ||
    fail "timeseries --columns exited $?"
check_png "$tmp/ts2/ipc.png"
check_png "$tmp/ts2/dram_bw_util.png"
n=$(find "$tmp/ts2" -name "*.png" | wc -l)
[ "$n" -eq 2 ] || fail "timeseries --columns wrote $n PNGs, expected 2"

# speedup: default baseline (first config) and an explicit one; the sample holds a failed point.
bash "$plot" speedup "$data/speedup.csv" "$tmp/speedup.png" 2>/dev/null >/dev/null || fail "speedup exited $?"
check_png "$tmp/speedup.png"
bash "$plot" speedup "$data/speedup.csv" "$tmp/speedup_volta.png" --baseline titanv-volta \
    --metric gpu_tot_sim_cycle 2>/dev/null >/dev/null || fail "speedup --baseline exited $?"
check_png "$tmp/speedup_volta.png"

# bars and lines: a figure table as gtlm reproduce writes it (an empty cell is a missing bar).
printf 'row,L1-48KB,L1-192KB\nS2,1,1.52\nGE,1,\ngeomean,1,1.23\n' >"$tmp/figure.plot.csv"
bash "$plot" bars "$tmp/figure.plot.csv" "$tmp/bars.png" --title "a figure" >/dev/null || fail "bars exited $?"
check_png "$tmp/bars.png"
bash "$plot" lines "$tmp/figure.plot.csv" "$tmp/lines.png" >/dev/null || fail "lines exited $?"
check_png "$tmp/lines.png"
printf 'row,a\nS2,fast\n' >"$tmp/bad.plot.csv"
expect_usage_error 'is not a number' bash "$plot" bars "$tmp/bad.plot.csv" "$tmp/x.png"

# Bad invocations: exit 2 with a message saying what is wrong.
# energy: one stacked bar per statistics file (samples: gpu.power lines of two gtx480 sim runs).
bash "$plot" energy "$tmp/energy.png" "$data/blackscholes.stats" "$data/vectoradd.stats" >/dev/null || fail "energy exited $?"
check_png "$tmp/energy.png"
expect_usage_error "cannot read statistics file" bash "$plot" energy "$tmp/x.png" "$tmp/absent.stats"
expect_usage_error "no gpu.power" bash "$plot" energy "$tmp/x.png" "$data/speedup.csv"
expect_usage_error "at least one statistics file" bash "$plot" energy "$tmp/x.png"

# heatmap: a TB locality graph in Matrix Market form as gtlm locality --mtx writes it.
printf '%%%%MatrixMarket matrix coordinate integer symmetric\n%% comment\n4 4 3\n2 1 5\n3 1 3\n4 3 1\n' >"$tmp/g.mtx"
bash "$plot" heatmap "$tmp/g.mtx" "$tmp/heat.png" --title "graph" >/dev/null || fail "heatmap exited $?"
check_png "$tmp/heat.png"
printf 'not a matrix\n' >"$tmp/bad.mtx"
expect_usage_error "not a Matrix Market" bash "$plot" heatmap "$tmp/bad.mtx" "$tmp/x.png"
printf '%%%%MatrixMarket matrix coordinate integer symmetric\n2 2 1\n3 1 5\n' >"$tmp/bad2.mtx"
expect_usage_error "bad entry" bash "$plot" heatmap "$tmp/bad2.mtx" "$tmp/x.png"

expect_usage_error "no such file" bash "$plot" timeseries "$tmp/absent.csv" "$tmp/x"
expect_usage_error "no such file" bash "$plot" speedup "$tmp/absent.csv" "$tmp/x.png"
expect_usage_error "unknown mode" bash "$plot" histogram "$data/speedup.csv" "$tmp/x.png"
expect_usage_error "missing mode" bash "$plot"
expect_usage_error "needs 2 arguments" bash "$plot" speedup "$data/speedup.csv"
expect_usage_error "unknown option" bash "$plot" speedup "$data/speedup.csv" "$tmp/x.png" --bogus
expect_usage_error "baseline config" bash "$plot" speedup "$data/speedup.csv" "$tmp/x.png" --baseline nosuch
expect_usage_error "no column" bash "$plot" timeseries "$data/timeseries.csv" "$tmp/x" --columns nosuch
bash "$plot" -h | grep -q "timeseries CSV OUTDIR" || fail "-h does not print the usage"

if [ "$failures" -ne 0 ]; then
    echo "test_plot: $failures check(s) failed" >&2
    exit 1
fi
echo "test_plot: all checks passed"
