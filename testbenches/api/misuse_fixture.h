// Shared by the misuse tests: kernels that fail in each way a kernel can fail, a valid kernel,
// simulators on tiny.config, and statistics dumps without the host-measured lines.
#ifndef GTLM_TESTBENCHES_MISUSE_FIXTURE_H
#define GTLM_TESTBENCHES_MISUSE_FIXTURE_H

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "gtlm/gtlm.h"

#ifndef GTLM_SOURCE_DIR
#define GTLM_SOURCE_DIR "."
#endif

namespace misuse {

inline const std::string &tiny()
{
    static const std::string s = std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config";
    return s;
}

// scale: out[i] = 2 * in[i] + i (a valid kernel with loads, stores and arithmetic).
// bad_store: stores to a bogus address. split_barrier: warp 0 waits at barrier 0, the others at
// barrier 1 (neither completes). spin: loops forever, counting (a loop whose state changes, so
// no spin-wait detection can end it: only the limits can).
inline const char *ptx()
{
    return R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry scale(.param .u64 in, .param .u64 out, .param .u32 n)
{
    .reg .b64 %rd<6>;
    .reg .b32 %r<8>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 ret;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r6, [%rd4];
    shl.b32 %r6, %r6, 1;
    add.s32 %r6, %r6, %r5;
    add.s64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r6;
    ret;
}
.visible .entry bad_store(.param .u64 p)
{
    .reg .b64 %rd<2>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, %tid.x;
    st.global.u32 [%rd1], %r1;
    ret;
}
.visible .entry split_barrier()
{
    .reg .b32 %r<2>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra FIRST;
    bar.sync 1;
    ret;
FIRST:
    bar.sync 0;
    ret;
}
.visible .entry spin()
{
    .reg .b32 %r<2>;
    mov.u32 %r1, 0;
LOOP:
    add.u32 %r1, %r1, 1;
    bra LOOP;
}
)";
}

inline gtlm_sim *make_sim(const std::vector<const char *> &overrides = {})
{
    gtlm_sim_options o;
    EXPECT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK);
    const char *files[] = {tiny().c_str()};
    o.config_files = files;
    o.n_config_files = 1;
    o.overrides = overrides.data();
    o.n_overrides = overrides.size();
    gtlm_sim *sim = nullptr;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_OK) << gtlm_last_error();
    return sim;
}

inline gtlm_module *load(gtlm_sim *sim)
{
    gtlm_module *m = nullptr;
    EXPECT_EQ(gtlm_module_load_ptx(sim, ptx(), "misuse.ptx", &m), GTLM_OK) << gtlm_last_error();
    return m;
}

// The valid kernel on n elements of fresh buffers; returns its status, out holds the result.
inline int run_scale(gtlm_sim *sim, gtlm_module *m, unsigned n, std::vector<uint32_t> *out = nullptr)
{
    std::vector<uint32_t> in(n);
    for (unsigned i = 0; i < n; i++) in[i] = i * 7 + 3;
    gtlm_devptr din = 0, dout = 0;
    EXPECT_EQ(gtlm_malloc(sim, n * 4, &din), GTLM_OK);
    EXPECT_EQ(gtlm_malloc(sim, n * 4, &dout), GTLM_OK);
    EXPECT_EQ(gtlm_memcpy_htod(sim, din, in.data(), n * 4), GTLM_OK);
    const void *args[] = {&din, &dout, &n};
    const size_t sizes[] = {8, 8, 4};
    const unsigned grid[3] = {(n + 127) / 128, 1, 1}, block[3] = {128, 1, 1};
    int rc = gtlm_launch(sim, m, "scale", grid, block, 0, args, sizes, 3);
    if (out) {
        out->resize(n);
        EXPECT_EQ(gtlm_memcpy_dtoh(sim, out->data(), dout, n * 4), GTLM_OK);
    }
    return rc;
}

// A parameterless kernel of one CTA of threads threads.
inline int run_plain(gtlm_sim *sim, gtlm_module *m, const char *kernel, unsigned threads = 64)
{
    const unsigned grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    return gtlm_launch(sim, m, kernel, grid, block, 0, nullptr, nullptr, 0);
}

inline int run_bad_store(gtlm_sim *sim, gtlm_module *m)
{
    gtlm_devptr bogus = 8;
    const void *args[] = {&bogus};
    const size_t sizes[] = {8};
    const unsigned grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
    return gtlm_launch(sim, m, "bad_store", grid, block, 0, args, sizes, 1);
}

// Every statistic (text dump of the run totals and JSON with every kernel's values), without
// the lines measured on the host (wall time and rates), which differ between runs.
inline std::string stats_of(gtlm_sim *sim)
{
    char path[] = "/tmp/gtlm_misuse_XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    close(fd);
    EXPECT_EQ(gtlm_stats_write(sim, path, GTLM_STATS_TEXT | GTLM_STATS_JSON), GTLM_OK) << gtlm_last_error();
    std::string out;
    for (const std::string &p : {std::string(path), std::string(path) + ".json"}) {
        std::ifstream f(p);
        std::string line;
        while (std::getline(f, line)) {
            bool host = line.find("host") != std::string::npos || line.find("simulation_time") != std::string::npos ||
                        line.find("rate") != std::string::npos || line.find("seconds") != std::string::npos ||
                        line.find("slowdown") != std::string::npos;
            if (!host) out += line + "\n";
        }
        std::remove(p.c_str());
    }
    return out;
}

} // namespace misuse

#endif
