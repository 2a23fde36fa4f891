#!/bin/sh
# Morpheus' helper kernel (morpheus/ext_llc) in timing mode: it must verify and print its service
# time per request class, and the classes must order as their work does: a read hit (lookup, the
# brx.idx move, a 128-byte store) and a fill (the line loaded from memory, the move into a
# register) take longer to serve than a read miss (lookup and the result only).
# usage: ext_llc_service.sh GTLM CONFIG
set -u
gtlm=$1 cfg=$2
out=$("$gtlm" run morpheus/ext_llc --size tiny --config "$cfg" 2>&1) || { echo "$out"; exit 1; }
printf '%s\n' "$out" | grep '^ext_llc'
serve() { printf '%s\n' "$out" | grep -E "^ext_llc:   $1 +[0-9]" | sed -n 's/.* serve *\([0-9.]*\) .*/\1/p'; }
hit=$(serve 'rf read hit') miss=$(serve 'rf read miss') fill=$(serve 'rf fill')
[ -n "$hit" ] && [ -n "$miss" ] && [ -n "$fill" ] && [ -n "$(serve 'l1 read')" ] || { echo "a request class is missing"; exit 1; }
echo "serve: read hit $hit, read miss $miss, fill $fill cycles"
awk -v h="$hit" -v m="$miss" -v f="$fill" 'BEGIN { exit !(h > m && f > m) }' || { echo "expected read hit and fill to take longer than a read miss"; exit 1; }
