// Shared by the trace reader's tests: the sample traces' folder, independent counts of a kernel
// file, hand-written traces in a scratch directory, and the first error of reading one.
#ifndef GTLM_TESTBENCHES_TRACE_READER_FIXTURE_H
#define GTLM_TESTBENCHES_TRACE_READER_FIXTURE_H

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "ptx/ptx_ir.h"
#include "trace/trace_reader.h"
}

namespace {

inline std::string data_dir(const std::string &folder) { return std::string(GTLM_TEST_DATA) + "/traces/" + folder; }

// Independent count of a kernel file's body: the sum of its "insts = N" lines and its blocks.
inline void scan_counts(const std::string &path, uint64_t &insts, uint64_t &tbs)
{
    std::ifstream f(path);
    std::string line;
    insts = tbs = 0;
    while (std::getline(f, line)) {
        if (line.rfind("insts = ", 0) == 0) insts += std::stoull(line.substr(8));
        if (line.rfind("#BEGIN_TB", 0) == 0) tbs++;
    }
}

struct KernelTotals {
    uint64_t tbs = 0, insts = 0;
    std::string err;
};

// Reads every block of one kernel and checks the per-block invariants on the way.
inline KernelTotals read_kernel(const std::string &path, trace_opcode_table *ops, int unknown_as_alu = 0)
{
    KernelTotals t;
    strbuf err;
    strbuf_init(&err);
    trace_kernel *k = trace_kernel_open(path.c_str(), ops, unknown_as_alu, &err);
    if (!k) {
        t.err = strbuf_str(&err);
        strbuf_free(&err);
        return t;
    }
    trace_tb tb{};
    int rc;
    while ((rc = trace_kernel_next_tb(k, &tb, &err)) == 1) {
        t.tbs++;
        t.insts += tb.n_insns;
        uint64_t sum = 0;
        for (uint32_t w = 0; w < tb.n_warps; w++) {
            EXPECT_LE(tb.warps[w].first + tb.warps[w].n, tb.n_insns);
            sum += tb.warps[w].n;
        }
        EXPECT_EQ(sum, tb.n_insns);
        for (uint32_t i = 0; i < tb.n_insns; i++) {
            const trace_insn &in = tb.insns[i];
            const trace_op_info *info = trace_opcode_info(ops, in.op);
            EXPECT_EQ(trace_op_is_memory(info->cls), in.addr_at != TRACE_NO_ADDR) << trace_opcode_name(ops, in.op);
            if (in.addr_at != TRACE_NO_ADDR) {
                EXPECT_LE(in.addr_at + (uint32_t)__builtin_popcount(in.mask), tb.n_addrs);
                EXPECT_GT(in.mem_width, 0);
            }
        }
    }
    if (rc < 0) t.err = strbuf_str(&err);
    trace_tb_free(&tb);
    trace_kernel_close(k);
    strbuf_free(&err);
    return t;
}

inline std::vector<trace_cmd> list(const std::string &dir, std::string *errout = nullptr)
{
    trace_cmd *cmds = nullptr;
    size_t n = 0;
    strbuf err;
    strbuf_init(&err);
    int rc = trace_list_read(dir.c_str(), &cmds, &n, &err);
    if (errout) *errout = strbuf_str(&err);
    std::vector<trace_cmd> v;
    if (rc == 0)
        for (size_t i = 0; i < n; i++) {
            v.push_back(cmds[i]);
            v.back().path = cmds[i].path ? strdup(cmds[i].path) : nullptr;
        }
    trace_list_free(cmds, n);
    strbuf_free(&err);
    return v;
}

inline void free_list(std::vector<trace_cmd> &v)
{
    for (auto &c : v) free(c.path);
    v.clear();
}

// A scratch directory for hand-written traces, removed at the end of the test.
struct TempDir {
    std::string path;
    TempDir()
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / "gtlm_trace_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string write(const std::string &name, const std::string &text) const
    {
        std::ofstream(path + "/" + name) << text;
        return path + "/" + name;
    }
};

// Header of a hand-written kernel: one block of 64 threads (2 warps), binary version 70.
inline std::string header(int tracer_version, const char *grid = "(1,1,1)")
{
    std::ostringstream s;
    s << "-kernel name = _Z4testv\n-kernel id = 3\n-grid dim = " << grid << "\n-block dim = (64,1,1)\n"
      << "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n";
    if (tracer_version) s << "-accelsim tracer version = " << tracer_version << "\n";
    s << "\n#traces format = ...\n";
    return s.str(); // 11 lines with a tracer version, 10 without
}

// The first error of reading a whole hand-written kernel ("" when it reads cleanly).
inline std::string first_error(const std::string &path, int unknown_as_alu = 0, uint64_t *unknown_uses = nullptr)
{
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    KernelTotals t = read_kernel(path, &ops, unknown_as_alu);
    if (unknown_uses) *unknown_uses = trace_opcode_unknown_uses(&ops);
    trace_opcode_table_free(&ops);
    return t.err;
}
} // namespace

#endif
