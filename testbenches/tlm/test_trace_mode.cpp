// Trace-driven mode end to end: every public trace in testbenches/data/traces runs on a
// configuration of its architecture family with the instruction count of its lines and the
// memory requests its addresses imply (computed here from the trace: one request per 128-byte
// line under the Fermi coalescing rules, per 32-byte sector under the sectored ones); malformed
// traces stop with file:line; a trace larger than 1 GB streams through a pipe in bounded memory.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <set>
#include <string>
#include <thread>

extern "C" {
#include "trace/trace_reader.h"
}

#include "top/simulator.h"

namespace {

const std::string kSrc = GTLM_SOURCE_DIR;

struct Expect {
    uint64_t insns = 0, mem_requests = 0, kernels = 0;
};

// What a trace implies, from its lines: instructions, and the global/local requests of its
// loads and stores after coalescing (atomics go to the L2 directly and are not counted).
Expect expected_of(const std::string &dir, bool sectored)
{
    Expect e;
    trace_cmd *cmds = nullptr;
    size_t n = 0;
    strbuf err;
    strbuf_init(&err);
    EXPECT_EQ(trace_list_read(dir.c_str(), &cmds, &n, &err), 0) << strbuf_str(&err);
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    for (size_t i = 0; i < n; i++) {
        if (cmds[i].kind != TRACE_CMD_KERNEL) continue;
        e.kernels++;
        trace_kernel *k = trace_kernel_open(cmds[i].path, &ops, 0, &err);
        EXPECT_NE(k, nullptr) << strbuf_str(&err);
        if (!k) break;
        const trace_kernel_info *info = trace_kernel_info_of(k);
        trace_tb tb{};
        while (trace_kernel_next_tb(k, &tb, &err) == 1) {
            e.insns += tb.n_insns;
            for (uint32_t j = 0; j < tb.n_insns; j++) {
                const trace_insn &t = tb.insns[j];
                const trace_op_info *oi = trace_opcode_info(&ops, t.op);
                if (!oi || (oi->cls != TOC_LOAD && oi->cls != TOC_STORE) || !t.mask || t.addr_at == TRACE_NO_ADDR)
                    continue;
                const uint64_t *a = &tb.addrs[t.addr_at];
                uint64_t first = a[0];
                bool shared = oi->space == PS_SHARED ||
                              (oi->space == PS_GENERIC && info->shmem_base && first >= info->shmem_base &&
                               first - info->shmem_base < (1ull << 32));
                if (shared || oi->space == PS_CONST) continue;
                std::set<uint64_t> units;
                unsigned width = t.mem_width ? t.mem_width : 4;
                uint64_t unit = sectored ? 32 : 128;
                for (int l = 0; l < __builtin_popcount(t.mask); l++)
                    for (uint64_t b = a[l] / unit; b <= (a[l] + width - 1) / unit; b++) units.insert(b);
                e.mem_requests += units.size();
            }
        }
        trace_tb_free(&tb);
        trace_kernel_close(k);
    }
    trace_opcode_table_free(&ops);
    trace_list_free(cmds, n);
    strbuf_free(&err);
    return e;
}

double stat(gtlm::Simulator &s, const std::string &name)
{
    double v = -1;
    EXPECT_EQ(stat_get(s.stats(), name.c_str(), STAT_SCOPE_RUN, &v), 0) << name;
    return v;
}

struct Case {
    const char *trace, *config;
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.trace << " on " << c.config; }

class TraceModeTest : public ::testing::TestWithParam<Case> {};

TEST_P(TraceModeTest, RunsWithTheInstructionsAndRequestsOfItsLines)
{
    const Case &c = GetParam();
    std::string dir = kSrc + "/testbenches/data/traces/" + c.trace;
    gtlm::SimSetup setup;
    setup.config_files = {kSrc + "/configs/" + c.config};
    gtlm::Simulator sim(setup);
    bool sectored = sim.config().sm.coalesce_arch >= 20;
    Expect e = expected_of(dir, sectored);
    ASSERT_GT(e.insns, 0u);
    gtlm::Simulator::TraceRun run = sim.run_trace(dir);
    ASSERT_EQ(run.kernels.size(), e.kernels);
    uint64_t insn = 0;
    for (const auto &k : run.kernels) {
        EXPECT_GT(k.cycles, 0u);
        EXPECT_EQ(k.kept, 0u); // round-robin dispatch takes the blocks in file order
        insn += k.warp_insn;
    }
    EXPECT_EQ(insn, e.insns);
    EXPECT_EQ(stat(sim, "gpu.warp_insn"), static_cast<double>(e.insns));
    double requests = 0;
    for (int i = 0; i < sim.gpu().n_sms(); i++)
        requests += stat(sim, "gpu.sm[" + std::to_string(i) + "].gmem.requests") +
                    stat(sim, "gpu.sm[" + std::to_string(i) + "].lmem.requests");
    EXPECT_EQ(requests, static_cast<double>(e.mem_requests));
    EXPECT_EQ(run.unknown_opcode_lines, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    SharedTraces, TraceModeTest,
    ::testing::Values(Case{"microgpusim-vectoradd-100-32", "titanx-pascal.config"},
                      Case{"microgpusim-matrixmul-32-32", "titanx-pascal.config"},
                      Case{"accelsimhbf-lud-kernel8", "titanv-volta.config"},
                      Case{"mgpusim-simple-trace-example", "rtx3080-morpheus.config"},
                      Case{"mgpusim-btree-128-1000", "h100-hopper.config"},
                      Case{"mgpusim-ffma-1-32-40", "h100-hopper.config"}),
    [](const ::testing::TestParamInfo<Case> &i) {
        std::string n = i.param.trace;
        for (char &ch : n)
            if (ch == '-') ch = '_';
        return n;
    });

// A directory with kernelslist.g and one kernel file holding `body` after a valid header.
std::string write_trace(const std::string &body)
{
    char tmpl[] = "/tmp/gtlm_trace_XXXXXX";
    std::string dir = mkdtemp(tmpl);
    std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
    std::ofstream(dir + "/kernel-1.traceg")
        << "-kernel name = bad\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
           "-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n-accelsim tracer version = 5\n\n"
           "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
           "[adrrescompress?] [mem_addresses] immediate\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\n"
        << body;
    return dir;
}

std::string run_error(const std::string &dir, std::vector<std::string> overrides = {})
{
    gtlm::SimSetup setup;
    setup.config_files = {kSrc + "/configs/tiny.config"};
    setup.overrides = std::move(overrides);
    gtlm::Simulator sim(setup);
    try {
        sim.run_trace(dir);
    } catch (const gtlm::Error &e) {
        return e.what();
    }
    return "";
}

TEST(TraceModeErrors, MalformedTracesStopWithTheirLocation)
{
    // line 19 is the first instruction line
    std::string truncated = write_trace("insts = 2\n0000 ffffffff 1 R1 MOV 0 0 0\n0010 ffffffff 1 R2\n#END_TB\n");
    std::string msg = run_error(truncated);
    EXPECT_NE(msg.find("kernel-1.traceg:20: expected an opcode"), std::string::npos) << msg;

    std::string mask = write_trace("insts = 1\n0000 fffzffff 1 R1 MOV 0 0 0\n#END_TB\n");
    msg = run_error(mask);
    EXPECT_NE(msg.find("kernel-1.traceg:19: expected an active mask"), std::string::npos) << msg;

    std::string mode = write_trace("insts = 1\n0000 ffffffff 1 R1 LDG.E 1 R2 4 7 0x1000 0\n#END_TB\n");
    msg = run_error(mode);
    EXPECT_NE(msg.find("kernel-1.traceg:19: unknown address compression mode 7"), std::string::npos) << msg;

    std::string unknown = write_trace("insts = 2\n0000 ffffffff 1 R1 FROB.X 0 0 0\n0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n");
    msg = run_error(unknown);
    EXPECT_NE(msg.find("kernel-1.traceg:19: unknown opcode 'FROB.X'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("FROB.X"), std::string::npos) << msg;
    // ... and with unknown opcodes let through as integer ops, the kernel runs and they are counted
    gtlm::SimSetup setup;
    setup.config_files = {kSrc + "/configs/tiny.config"};
    setup.overrides = {"-gtlm_trace_unknown_opcode_as_alu", "1"};
    gtlm::Simulator sim(setup);
    gtlm::Simulator::TraceRun run = sim.run_trace(unknown);
    ASSERT_EQ(run.kernels.size(), 1u);
    EXPECT_EQ(run.kernels[0].warp_insn, 2u);
    EXPECT_EQ(run.unknown_opcode_lines, 1u);
    ASSERT_EQ(run.unknown_opcodes.size(), 1u);
    EXPECT_EQ(run.unknown_opcodes[0], "FROB.X");
    for (const std::string &d : {truncated, mask, mode, unknown}) std::system(("rm -rf " + d).c_str());
}

// Peak resident memory of this process, bytes.
uint64_t peak_rss()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return static_cast<uint64_t>(u.ru_maxrss) * 1024;
}

// More than 1 GB of trace written into a pipe while the simulator reads it: many small blocks,
// each warp a stream of fully listed (mode 0) loads of one line, so the memory system stays
// cheap while the text is large. Memory must stay bounded (blocks are read one at a time).
TEST(TraceModeStreaming, AGigabyteTraceStreamsThroughAPipeInBoundedMemory)
{
    char tmpl[] = "/tmp/gtlm_stream_XXXXXX";
    std::string dir = mkdtemp(tmpl);
    std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
    std::string fifo = dir + "/kernel-1.traceg";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::signal(SIGPIPE, SIG_IGN); // a reader that stops early must fail the test, not kill it
    const uint32_t blocks = 2400, lines = 1000;
    uint64_t written = 0;
    std::thread writer([&] {
        FILE *f = std::fopen(fifo.c_str(), "w");
        if (!f) return;
        written += static_cast<uint64_t>(std::fprintf(
            f,
            "-kernel name = stream\n-kernel id = 1\n-grid dim = (%u,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
            "-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n-accelsim tracer version = 5\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses] immediate\n\n",
            blocks));
        std::string load = "0010 ffffffff 1 R2 LDG.E 1 R4 4 0";
        for (int l = 0; l < 32; l++) {
            char a[24];
            std::snprintf(a, sizeof a, " 0x%012llx", 0x7f0000000000ull + 4ull * l);
            load += a;
        }
        load += " 0\n";
        for (uint32_t b = 0; b < blocks && !std::ferror(f); b++) {
            written += static_cast<uint64_t>(
                std::fprintf(f, "#BEGIN_TB\nthread block = %u,0,0\nwarp = 0\ninsts = %u\n", b, lines));
            for (uint32_t i = 0; i + 1 < lines; i++) {
                std::fputs(load.c_str(), f);
                written += load.size();
            }
            written += static_cast<uint64_t>(std::fprintf(f, "0020 ffffffff 0 EXIT 0 0 0\n#END_TB\n"));
        }
        std::fclose(f);
    });
    uint64_t rss_before = peak_rss();
    gtlm::SimSetup setup;
    setup.config_files = {kSrc + "/configs/tiny.config"};
    uint64_t insn = 0;
    std::string error;
    try {
        gtlm::Simulator sim(setup);
        gtlm::Simulator::TraceRun run = sim.run_trace(dir);
        for (const auto &k : run.kernels) insn += k.warp_insn;
    } catch (const gtlm::Error &e) {
        error = e.what();
    }
    writer.join();
    std::system(("rm -rf " + dir).c_str());
    ASSERT_EQ(error, "");
    EXPECT_GT(written, 1ull << 30);
    EXPECT_EQ(insn, static_cast<uint64_t>(blocks) * lines);
    EXPECT_LT(peak_rss() - rss_before, 200ull << 20) << "peak RSS grew by " << (peak_rss() - rss_before) << " bytes";
}

} // namespace

namespace {

// The SM's policy seams act on trace-driven warps as on PTX ones: a warp limit throttles them.
TEST(TraceModeSeams, AWarpLimitThrottlesTraceDrivenWarps)
{
    std::string dir = kSrc + "/testbenches/data/traces/mgpusim-simple-trace-example";
    double cycles[2], throttled[2], insn[2];
    for (int limited = 0; limited < 2; limited++) {
        gtlm::SimSetup setup;
        setup.config_files = {kSrc + "/configs/titanv-volta.config"};
        if (limited) setup.overrides = {"-gpgpu_scheduler", "warp_limiting:1"};
        gtlm::Simulator sim(setup);
        sim.run_trace(dir);
        cycles[limited] = stat(sim, "gpu_tot_sim_cycle");
        throttled[limited] = stat(sim, "gpu.stall.throttled");
        insn[limited] = stat(sim, "gpgpu_n_tot_w_icount");
    }
    EXPECT_EQ(insn[0], insn[1]);
    EXPECT_EQ(throttled[0], 0);
    EXPECT_GT(throttled[1], 0);
    EXPECT_GT(cycles[1], cycles[0] * 1.2);
}

} // namespace
