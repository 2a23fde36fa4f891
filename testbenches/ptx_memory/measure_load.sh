#!/usr/bin/env bash
# Memory to load a large PTX module: COPIES renamed copies of ISPASS LIBOR's PTX (default 985,
# about 52 MB) in one module, parsed by gtlm_ptx_load under /usr/bin/time -v; prints the maximum
# resident size and its ratio to the module's size.
#   bash testbenches/ptx_memory/measure_load.sh BUILD_DIR [COPIES]
set -euo pipefail
build=$1
copies=${2:-985}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
src=$root/workloads/ispass/libor/libor.ptx
loader=$build/testbenches/gtlm_ptx_load
[ -x "$loader" ] || { echo "measure_load.sh: build the target gtlm_ptx_load first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "measure_load.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
big=$work/big.ptx
# The header once, then the body with every module-scope name (functions, kernels, constants)
# suffixed by the copy's number, so the copies do not collide.
names=$(grep -oE '^\.(visible )?\.?(entry|func)[^(]*(\([^)]*\))?[[:space:]]*[A-Za-z_$][A-Za-z0-9_$]*' "$src" |
        grep -oE '[A-Za-z_$][A-Za-z0-9_$]*$'; grep -oE '^\.const[^;]* [A-Za-z_][A-Za-z0-9_]*' "$src" | awk '{print $NF}')
expr=$(for n in $names; do printf 's/\\b%s\\b/%s_cCOPY/g;' "$n" "$n"; done)
header=$(grep -n '^\.address_size' "$src" | cut -d: -f1)
head -n "$header" "$src" > "$big"
tail -n +"$((header + 1))" "$src" > "$work/body"
for ((i = 0; i < copies; i++)); do sed "${expr//COPY/$i}" "$work/body"; done >> "$big"

size=$(stat -c %s "$big")
out=$( { /usr/bin/time -v "$loader" "$big" > "$work/stdout"; } 2>&1 ) || { echo "$out"; cat "$work/stdout"; exit 1; }
rss=$(echo "$out" | awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}')
cat "$work/stdout"
awk -v s="$size" -v r="$rss" 'BEGIN { printf "maximum resident set %d kB for %d bytes of PTX: %.1fx\n", r, s, r * 1024 / s }'
