# Sourced by the run_tsan*.sh scripts: tsan_build BUILD_DIR TARGET configures BUILD_DIR with
# ThreadSanitizer (-DGTLM_TSAN=ON: libgtlm and its users instrumented, ccache when present) and
# builds TARGET there. ROOT must be the source tree.
tsan_build() {
    local launcher=()
    if command -v ccache >/dev/null; then
        launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    cmake -S "$root" -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGTLM_TSAN=ON "${launcher[@]}" >/dev/null
    cmake --build "$1" -j"$(nproc)" --target "$2" >/dev/null
}
