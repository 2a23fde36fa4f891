#!/usr/bin/env bash
# Installs gtlm into a scratch prefix and builds a plain C program against it the way a user
# would: gcc (as C), the installed header, and pkg-config's flags for -lgtlm.
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
pcdir=$(dirname "$(find "$work/prefix" -name gtlm.pc | head -n 1)")
test -f "$work/prefix/include/gtlm/gtlm.h"
test -f "$work/prefix/bin/gtlm"
find "$work/prefix" -name libgtlm.a | grep -q .

flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs gtlm)
libdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir gtlm)
gcc -std=c11 -Wall -Wextra -Werror -x c "$src/testbenches/api/c_client.c" $flags -Wl,-rpath,"$libdir" -o "$work/client"
"$work/client" "$src/configs/tiny.config"

# The same program against the static library.
static_libs=$(PKG_CONFIG_PATH="$pcdir" pkg-config --static --libs gtlm | sed "s#-lgtlm#$libdir/libgtlm.a#")
gcc -std=c11 -Wall -Wextra -Werror -x c "$src/testbenches/api/c_client.c" -x none \
    $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags gtlm) $static_libs -o "$work/client_static"
if ldd "$work/client_static" | grep -q libgtlm; then echo "client_static links libgtlm.so" >&2; exit 1; fi
"$work/client_static" "$src/configs/tiny.config"
echo "install: header, pkg-config file, shared and static library and the gtlm command work from $work/prefix"
