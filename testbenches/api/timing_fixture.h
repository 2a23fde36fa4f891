// Shared by the timing-model tests on hand-written PTX: the kernels, a simulator on tiny.config
// with every clock at 1000 MHz (so cycle counts are exact arithmetic), and helpers.
#ifndef GTLM_TESTBENCHES_TIMING_FIXTURE_H
#define GTLM_TESTBENCHES_TIMING_FIXTURE_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "gtlm/gtlm.h"

#ifndef GTLM_SOURCE_DIR
#define GTLM_SOURCE_DIR "."
#endif

namespace {

const std::string kTiny = std::string(GTLM_SOURCE_DIR) + "/configs/tiny.config";

const char *kPtx = R"(
.version 7.5
.target sm_75
.address_size 64

// Thread 0 loads in[0] and, when twice != 0, then in[1] at an address that depends on the first
// load's value (so the second load issues after the first one's data arrived). No stores: the
// memory system sees only these loads.
.visible .entry loads(.param .u64 in, .param .u32 twice)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<6>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [in];
    ld.param.u32 %r3, [twice];
    ld.global.u32 %r1, [%rd1];
    setp.eq.u32 %p1, %r3, 0;
    @%p1 ret;
    and.b32 %r4, %r1, 0;
    cvt.u64.u32 %rd2, %r4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r2, [%rd3+4];
    ret;
}

// Every thread loads in[0] (one request per warp, to the same line).
.visible .entry same_line(.param .u64 in)
{
    .reg .b64 %rd<2>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [in];
    ld.global.u32 %r1, [%rd1];
    ret;
}

// Thread 0 loads p[0] (sector 0 of line A = p) and, once its data is there (the store addresses
// depend on it), stores 4 bytes to sector 1 of A twice, to sector 2 of A, then to sectors 0 and 1
// of line B = A + 128.
.visible .entry store_sectors(.param .u64 p)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<4>;
    .reg .pred %p<2>;
    mov.u32 %r3, %tid.x;
    setp.ne.u32 %p1, %r3, 0;
    @%p1 ret;
    ld.param.u64 %rd1, [p];
    ld.global.u32 %r1, [%rd1];
    and.b32 %r2, %r1, 0;
    cvt.u64.u32 %rd2, %r2;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3+32], %r1;
    st.global.u32 [%rd3+36], %r1;
    st.global.u32 [%rd3+64], %r1;
    st.global.u32 [%rd3+128], %r1;
    st.global.u32 [%rd3+160], %r1;
    ret;
}

// One warp: thread t stores t to shared word t * stride, then reads it back and stores it to
// out[t] (the output address is computed first, so the shared accesses are on the critical path). stride 1: conflict-free; 2: two-way; 32: every lane in bank 0.
.visible .entry smem_stride(.param .u64 out, .param .u32 stride)
{
    .shared .align 4 .b8 buf[4096];
    .reg .b64 %rd<6>;
    .reg .b32 %r<8>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [stride];
    mov.u32 %r2, %tid.x;
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    mul.lo.u32 %r3, %r2, %r1;
    shl.b32 %r4, %r3, 2;
    mov.u32 %r5, buf;
    add.u32 %r6, %r5, %r4;
    st.shared.u32 [%r6], %r2;
    ld.shared.u32 %r7, [%r6];
    st.global.u32 [%rd3], %r7;
    ret;
}

// Each warp reads the clock, makes eight independent moves, reads the clock again and lane 0
// stores both readings to out[2 * warp], out[2 * warp + 1].
.visible .entry clock_order(.param .u64 out)
{
    .reg .b64 %rd<8>;
    .reg .b32 %r<16>;
    .reg .pred %p<2>;
    mov.u64 %rd1, %clock64;
    mov.u32 %r1, 1;
    mov.u32 %r2, 2;
    mov.u32 %r3, 3;
    mov.u32 %r4, 4;
    mov.u32 %r5, 5;
    mov.u32 %r6, 6;
    mov.u32 %r7, 7;
    mov.u32 %r8, 8;
    mov.u64 %rd2, %clock64;
    mov.u32 %r9, %tid.x;
    and.b32 %r10, %r9, 31;
    setp.ne.u32 %p1, %r10, 0;
    @%p1 ret;
    ld.param.u64 %rd3, [out];
    shr.u32 %r11, %r9, 5;
    mul.wide.u32 %rd4, %r11, 16;
    add.s64 %rd5, %rd3, %rd4;
    st.global.u64 [%rd5], %rd1;
    st.global.u64 [%rd5+8], %rd2;
    ret;
}

// As clock_order, but between the clock readings each warp loads in[0] and adds to it, so it stalls
// on the load's data (a miss, then hits) and a scheduler may issue another warp meanwhile.
.visible .entry clock_load(.param .u64 out, .param .u64 in)
{
    .reg .b64 %rd<8>;
    .reg .b32 %r<16>;
    .reg .pred %p<2>;
    ld.param.u64 %rd6, [in];
    mov.u64 %rd1, %clock64;
    ld.global.u32 %r1, [%rd6];
    add.u32 %r2, %r1, 1;
    mov.u64 %rd2, %clock64;
    mov.u32 %r9, %tid.x;
    and.b32 %r10, %r9, 31;
    setp.ne.u32 %p1, %r10, 0;
    @%p1 ret;
    ld.param.u64 %rd3, [out];
    shr.u32 %r11, %r9, 5;
    mul.wide.u32 %rd4, %r11, 16;
    add.s64 %rd5, %rd3, %rd4;
    st.global.u64 [%rd5], %rd1;
    st.global.u64 [%rd5+8], %rd2;
    st.global.u32 [%rd6+4], %r2;
    ret;
}

// Every thread adds 1 to out[(tid * 97) % n] atomically and stores its tid to seen[tid]: many
// requests to every slice at once (a burst larger than the interconnect's buffers).
.visible .entry burst(.param .u64 out, .param .u64 seen, .param .u32 n)
{
    .reg .b64 %rd<8>;
    .reg .b32 %r<10>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd2, [seen];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mad.lo.u32 %r5, %r3, %r4, %r2;
    mul.lo.u32 %r6, %r5, 97;
    rem.u32 %r7, %r6, %r1;
    mul.wide.u32 %rd3, %r7, 4;
    add.s64 %rd4, %rd1, %rd3;
    atom.global.add.u32 %r8, [%rd4], 1;
    mul.wide.u32 %rd5, %r5, 4;
    add.s64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r5;
    ret;
}

// Thread t of CTA c loads in[(c * blockDim + t) * 32]: every lane its own 128-byte line (one L1
// miss per lane), then the warp adds them up and lane 0 stores the sum to out[warp].
.visible .entry strided(.param .u64 in, .param .u64 out)
{
    .reg .b64 %rd<8>;
    .reg .b32 %r<10>;
    .reg .pred %p<2>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.u32 %r4, %r2, %r3, %r1;
    mul.wide.u32 %rd3, %r4, 128;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r5, [%rd4];
    and.b32 %r6, %r1, 31;
    setp.ne.u32 %p1, %r6, 0;
    @%p1 ret;
    shr.u32 %r7, %r4, 5;
    mul.wide.u32 %rd5, %r7, 4;
    add.s64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r5;
    ret;
}
)";

struct Sim {
    gtlm_sim *sim = nullptr;
    gtlm_module *mod = nullptr;
    explicit Sim(std::vector<std::string> overrides = {})
    {
        overrides.insert(overrides.begin(), {"-gpgpu_clock_domains", "1000:1000:1000:1000"});
        std::vector<const char *> ov;
        for (const std::string &s : overrides) ov.push_back(s.c_str());
        gtlm_sim_options o;
        EXPECT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK);
        const char *files[] = {kTiny.c_str()};
        o.config_files = files;
        o.n_config_files = 1;
        o.overrides = ov.data();
        o.n_overrides = ov.size();
        EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_OK) << gtlm_last_error();
        if (sim) {
            EXPECT_EQ(gtlm_module_load_ptx(sim, kPtx, "timing_test", &mod), GTLM_OK) << gtlm_last_error();
        }
    }
    ~Sim() { gtlm_sim_destroy(sim); }
    gtlm_devptr alloc(size_t bytes, int fill = 0)
    {
        gtlm_devptr p = 0;
        EXPECT_EQ(gtlm_malloc(sim, bytes, &p), GTLM_OK);
        EXPECT_EQ(gtlm_memset(sim, p, fill, bytes), GTLM_OK);
        return p;
    }
    int launch(const char *k, unsigned grid, unsigned block, std::vector<const void *> args, std::vector<size_t> sizes)
    {
        const unsigned g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
        return gtlm_launch(sim, mod, k, g, b, 0, args.data(), sizes.data(), args.size());
    }
    double stat(const char *name)
    {
        double v = -1;
        EXPECT_EQ(gtlm_stat_get_kernel(sim, name, &v), GTLM_OK) << name;
        return v;
    }
    long opt(const char *name)
    {
        char buf[64];
        EXPECT_EQ(gtlm_option_value(sim, name, buf, sizeof buf), GTLM_OK) << name;
        return std::stol(buf);
    }
    // Sum of a statistic over every instance: "gpu.dram[*].reads".
    double sum(const std::string &pattern, int n)
    {
        double t = 0;
        size_t at = pattern.find("[*]");
        for (int i = 0; i < n; i++) t += stat((pattern.substr(0, at) + "[" + std::to_string(i) + "]" + pattern.substr(at + 3)).c_str());
        return t;
    }
};

// A new empty temporary file (/tmp/<stem>_XXXXXX); the caller removes it.
inline std::string temp_file(const char *stem)
{
    std::string pattern = std::string("/tmp/") + stem + "_XXXXXX";
    std::vector<char> path(pattern.begin(), pattern.end());
    path.push_back('\0');
    int fd = mkstemp(path.data());
    EXPECT_GE(fd, 0);
    if (fd >= 0) close(fd);
    return path.data();
}

// The statistics text without the host-measured figures (wall time, rates), which differ between runs.
inline std::string stats_text_of(Sim &s)
{
    char path[] = "/tmp/gtlm_det_XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    close(fd);
    EXPECT_EQ(gtlm_stats_write(s.sim, path, GTLM_STATS_TEXT), GTLM_OK);
    std::ifstream f(path);
    std::stringstream ss;
    std::string line;
    while (std::getline(f, line))
        if (line.find("simulation") == std::string::npos && line.find("slowdown") == std::string::npos &&
            line.find("host.") == std::string::npos)
            ss << line << "\n";
    std::remove(path);
    return ss.str();
}

} // namespace

#endif
