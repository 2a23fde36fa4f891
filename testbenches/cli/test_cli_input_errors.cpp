// Bad input to the gtlm command is a clear, located error with exit code 2 (bad input), found
// before any simulation: option values out of their range, output paths that cannot be
// written, a VCD path that is a directory, a trace directory whose kernelslist.g is a
// directory, size parameters too large for the workload; GPGPU-Sim options gtlm does not
// model only warn with --gpgpusim-compat, on the command line as in files.
#include <gtest/gtest.h>

#include "cli_run.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

const std::string configs = std::string(GTLM_SOURCE_DIR) + "/configs/";
const std::string tiny = "--config " + configs + "tiny.config ";

void expect_usage(const std::string &args, const std::string &message)
{
    Result r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
    EXPECT_EQ(r.out.find("internal error"), std::string::npos) << args << "\n" << r.out;
}

TEST(CliInput, OptionValuesOutOfRangeAreLocated)
{
    const std::string where = "command line (argument 1): option ";
    expect_usage("run -gpgpu_n_mem 100000", where + "'-gpgpu_n_mem': expected an integer in [1, 1024], got '100000'");
    expect_usage("run -gpgpu_scheduler two_level_active:0",
                 where + "'-gpgpu_scheduler': warp scheduler 'two_level_active' needs :N[:inner:outer] with N >= 1");
    expect_usage("run -gpgpu_cache:dl1 N:1073741824:128:4,L:L:m:N:H,A:32:8,8",
                 where + "'-gpgpu_cache:dl1': expected at most 65536 sets");
    expect_usage("run -gpgpu_cache:dl1 N:1:128:4096,L:L:m:N:H,A:32:8,8", "got 1 sets of 4096 ways");
    for (const char *clk : {"nan:700:700:924", "700:inf:700:924", "700:700:1e-300:924", "700:700:700:1e12"})
        expect_usage(std::string("run -gpgpu_clock_domains ") + clk,
                     where + "'-gpgpu_clock_domains': expected every clock in [10, 100000] MHz");
    expect_usage("run -gpgpu_n_clusters 100000", "expected an integer in [1, 4096], got '100000'");
    expect_usage("run -gpgpu_n_clusters 4096 -gpgpu_n_cores_per_cluster 2",
                 "4096 clusters x 2 SMs is more than the 4096 SMs a GPU may have");
}

TEST(CliInput, OptionValueInAFileIsLocatedAtFileLineCol)
{
    std::string path = ::testing::TempDir() + "gtlm_range.config";
    std::ofstream(path) << "# a comment\n-gpgpu_n_clusters 4\n-gpgpu_shader_cta   0\n";
    expect_usage("run --config " + path, path + ":3:21: option '-gpgpu_shader_cta': expected an integer in [1, 256], got '0'");
    std::remove(path.c_str());
}

TEST(CliInput, OutputPathsAreCheckedBeforeTheRun)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_outdir";
    std::filesystem::create_directories(dir);
    expect_usage("run parboil/SGEMM " + tiny + "--stats " + dir, "--stats " + dir + ": is a directory");
    expect_usage("run parboil/SGEMM " + tiny + "--stats-json /no/such/dir/s.json", "cannot write");
    // A VCD path that is a directory would silently become DIR.vcd next to it.
    expect_usage("run parboil/SGEMM " + tiny + "--vcd " + dir, "-vcd_file: '" + dir + "' is a directory");
    EXPECT_FALSE(std::filesystem::exists(dir + ".vcd"));
    std::filesystem::remove_all(dir);
}

TEST(CliInput, KernelsListThatIsADirectoryIsAnError)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_badtrace";
    std::filesystem::create_directories(dir + "/kernelslist.g");
    expect_usage("run --trace " + dir + " " + tiny, "kernelslist.g: cannot read the trace's command list: Is a directory");
    std::filesystem::remove_all(dir);
}

TEST(CliInput, TraceBodyErrorsAreBadInputLikeHeaderErrors)
{
    std::string dir = ::testing::TempDir() + "gtlm_cli_badbody";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
    const std::string header =
        "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"
        "-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
        "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n\n";
    const std::string body = "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 1\n0000 ffffffff 1 R1 MOV 0 banana\n#END_TB\n";
    // Without the '#traces format' line the header's end is reported where the body begins.
    std::ofstream(dir + "/kernel-1.traceg") << header << body;
    Result r = run("run --trace " + dir + " " + tiny);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("kernel-1.traceg:14: expected the '#traces format' line ending the header, found '#BEGIN_TB'"),
              std::string::npos)
        << r.out;
    std::ofstream(dir + "/kernel-1.traceg")
        << header << "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width\n\n"
        << body;
    r = run("run --trace " + dir + " " + tiny);
    EXPECT_EQ(r.code, 2) << r.out;
    // The header is complete, so the error is the instruction line's own (line 22), not a header one.
    EXPECT_NE(r.out.find("kernel-1.traceg:22: expected a memory width in bytes 0..255, found 'banana'"),
              std::string::npos)
        << r.out;
    std::filesystem::remove_all(dir);
}

TEST(CliInput, SizeParametersThatWouldWrapAreRejected)
{
    Result r = run("run ispass/BFS --set nodes=4294971392");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("size parameter 'nodes=4294971392' is 4294971392; expected at most"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("verified"), std::string::npos) << r.out;
    // A size the kernels do not handle is refused before the run instead of failing verification.
    r = run("run parboil/SGEMM --set m=100 --mode functional");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("SGEMM: size parameters not supported: m must be a multiple of 128"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("WRONG RESULT"), std::string::npos) << r.out;
}

TEST(CliInput, UnmodelledGpgpuSimOptionsOnTheCommandLineWarnInCompatMode)
{
    Result r = run("run -gpgpu_ptx_sim_mode 0");
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("GPGPU-Sim option '-gpgpu_ptx_sim_mode' is not modelled by gtlm"), std::string::npos) << r.out;
    r = run("run --gpgpusim-compat -gpgpu_ptx_sim_mode 0");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("command line (argument 1): warning: GPGPU-Sim option '-gpgpu_ptx_sim_mode' is not modelled"),
              std::string::npos)
        << r.out;
}

} // namespace

extern "C" {
#include "workload.h"
}

namespace {

// A workload's size check accepts its own presets, so only user-chosen sizes can be refused.
TEST(CliInput, WorkloadSizeChecksAcceptEveryPreset)
{
    int checked = 0;
    for (size_t i = 0; i < wl_registry_count; i++) {
        const wl_desc *d = wl_registry[i];
        if (!d->check) continue;
        checked++;
        for (const long *p : {d->tiny, d->sim, d->paper}) {
            const char *why = d->check(p);
            EXPECT_EQ(why, nullptr) << d->suite << "/" << d->name << ": " << why;
        }
    }
    EXPECT_GE(checked, 10);
}

} // namespace
