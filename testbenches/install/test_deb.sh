#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB) and uses it from a scratch root, changing nothing on the
# machine: dpkg-deb -x extracts it, then the packaged gtlm prints its version and runs and verifies
# a workload on a packaged configuration, a C program builds with `pkg-config --cflags --libs gtlm`
# against the packaged header and library and runs, the Python module imports and runs a kernel, and
# the man page renders. apt-get's simulation checks that every Depends resolves on this Debian.
# usage: test_deb.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'echo "FAIL: test_deb.sh line $LINENO: $BASH_COMMAND" >&2' ERR

cpack -G DEB -B "$work/pkg" --config "$build/CPackConfig.cmake" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/pkg/gtlm_*.deb)
echo "package: $(basename "$deb") ($(stat -c %s "$deb") bytes)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for d in libsystemc python3-numpy; do
    case "$depends" in *"$d"*) ;; *) echo "FAIL: Depends lacks $d" >&2; exit 1 ;; esac
done
if command -v apt-get >/dev/null; then
    if ! apt-get -s -q install "$deb" >"$work/apt.log" 2>&1; then
        cat "$work/apt.log"
        # another apt on the machine holding its lock is not the package's fault
        grep -qiE "lock|temporarily unavailable" "$work/apt.log" || { echo "FAIL: apt-get cannot install it" >&2; exit 1; }
        echo "apt-get busy: the dependency check is skipped this time"
    fi
fi

root=$work/root
dpkg-deb -x "$deb" "$root"
usr=$root/usr
for f in bin/gtlm include/gtlm/gtlm.h lib/libgtlm.so.0 lib/pkgconfig/gtlm.pc share/man/man1/gtlm.1 \
         share/gtlm/configs/gtx480.config share/gtlm/waveforms/sm_pipeline.gtkw share/doc/gtlm/python.md \
         lib/python3/dist-packages/gtlm/__init__.py; do
    test -f "$usr/$f" || { echo "FAIL: the package lacks /usr/$f" >&2; exit 1; }
done
export LD_LIBRARY_PATH=$usr/lib # what ldconfig gives an installed package

"$usr/bin/gtlm" version
out=$("$usr/bin/gtlm" run sdk/VectorAdd --config "$usr/share/gtlm/configs/tiny.config" --quiet) || { echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -E "verified|gpu_tot_sim_cycle"
printf '%s\n' "$out" | grep -q "VectorAdd: verified"

flags=$(PKG_CONFIG_PATH="$usr/lib/pkgconfig" pkg-config --cflags --libs gtlm)
inc=$(printf '%s\n' $flags | sed -n 's/^-I//p')
[ "$(realpath "$inc")" = "$(realpath "$usr/include")" ] || { echo "FAIL: pkg-config flags $flags" >&2; exit 1; }
gcc -std=c11 -Wall -Wextra -Werror -x c "$src/testbenches/api/c_client.c" $flags -o "$work/client"
"$work/client" "$usr/share/gtlm/configs/tiny.config"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
PYTHONPATH=$usr/lib/python3/dist-packages GTLM=$usr/bin/gtlm PYTHONDONTWRITEBYTECODE=1 "$py" - "$usr" <<'PY'
import sys, numpy as np, gtlm
usr = sys.argv[1]
assert gtlm.__file__.startswith(usr), gtlm.__file__  # the packaged module, not the source tree's
with gtlm.Simulator(usr + "/share/gtlm/configs/tiny.config") as sim:
    mod = sim.load_ptx(usr + "/share/gtlm/examples/vectoradd.ptx")
    a, b = np.arange(500, dtype=np.float32), np.full(500, 0.5, np.float32)
    c = sim.empty(500, np.float32)
    mod.launch("vector_add", 2, 256, [sim.to_device(a), sim.to_device(b), c, np.int32(500)])
    assert np.array_equal(c.get(), a + b)
    print("python: vector_add verified,", int(sim.stat("gpu_tot_sim_cycle")), "cycles")
print("python: run_workload", gtlm.run_workload("sdk/VectorAdd", config=usr + "/share/gtlm/configs/tiny.config")["gpu_tot_sim_cycle"])
PY

if command -v man >/dev/null; then
    man -l "$usr/share/man/man1/gtlm.1" 2>/dev/null | grep -q -- "--per-unit" || { echo "FAIL: man page" >&2; exit 1; }
fi
echo "deb: gtlm, libgtlm, its header and pkg-config file, the Python module and the man page work from $root"
