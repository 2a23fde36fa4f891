// One-warp Accel-Sim traces of dependent chains, for the tests of GPGPU-Sim's pipeline stages
// (issue 13: test_cli_result_stages.cpp, test_cli_load_stages.cpp).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace chain_trace {

// gpu_tot_sim_cycle from a --stats text, -1 when absent.
inline long long cycles(const std::string &out)
{
    size_t at = out.find("\ngpu_tot_sim_cycle = ");
    return at == std::string::npos ? -1 : std::stoll(out.substr(at + 21));
}

// Writes dir/kernelslist.g and one kernel: one warp running the n lines line(i) (each "PC mask ..."
// without its PC) and an EXIT.
inline void write(const std::string &dir, int n, int shmem, const std::function<std::string(int)> &line)
{
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/kernelslist.g") << "kernel-1.traceg\n";
    std::ofstream k(dir + "/kernel-1.traceg");
    k << "-kernel name = chain\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = " << shmem
      << "\n-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
         "-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 5\n"
         "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
         "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
         "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = "
      << n + 1 << "\n";
    char pc[16];
    for (int i = 0; i < n; i++) {
        std::snprintf(pc, sizeof pc, "%04x ", i * 16);
        k << pc << line(i) << "\n";
    }
    std::snprintf(pc, sizeof pc, "%04x ", n * 16);
    k << pc << "ffffffff 0 EXIT 0 0 0\n\n#END_TB\n";
}

// The cycles each of the last n of 2n chain steps adds: make(k) writes a k-step trace and returns
// its folder, cycles_of(dir) runs it and returns its cycles (first: the n-step run's); both folders
// are removed after.
inline long long per_step(int n, const std::function<std::string(int)> &make,
                          const std::function<long long(const std::string &)> &cycles_of, long long &first)
{
    std::string a = make(n), b = make(2 * n);
    long long ta = cycles_of(a), tb = cycles_of(b);
    std::filesystem::remove_all(a);
    std::filesystem::remove_all(b);
    first = ta;
    return (tb - ta) / n;
}

} // namespace chain_trace
