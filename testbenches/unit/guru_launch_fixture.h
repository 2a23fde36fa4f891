// Shared by the LocalityGuru tests: a PTX module loaded with one prepared launch over fresh device
// buffers, the workloads' committed PTX, float arguments as bits.
#ifndef GTLM_TEST_GURU_LAUNCH_FIXTURE_H
#define GTLM_TEST_GURU_LAUNCH_FIXTURE_H

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "ptx/ptx_parse.h"
#include "simt/simt_run.h"
}

namespace guru_test {

// A loaded module and one prepared launch of it over fresh device buffers (filled with `fill`).
struct Launch {
    dmem mem{};
    simt_module mod{};
    simt_launch l{};
    std::vector<uint64_t> ptrs;
    ~Launch()
    {
        free(l.params);
        simt_module_free(&mod, &mem);
        dmem_free_all(&mem);
    }
};

struct Arg {
    bool buffer;
    uint64_t bytes;   // buffer size
    uint32_t scalar;  // 4-byte scalar
};

inline void prepare(Launch &L, const std::string &text, const char *kernel, const std::vector<Arg> &args,
                    uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by, const std::vector<uint32_t> &fill = {})
{
    ptx_module pm{};
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    ASSERT_EQ(ptx_parse("test.ptx", text.c_str(), text.size(), &pm, &err, &warn), 0) << strbuf_str(&err);
    strbuf_free(&err);
    strbuf_free(&warn);
    char msg[256];
    ASSERT_EQ(simt_module_load(&L.mod, &pm, &L.mem, msg, sizeof msg), 0) << msg;
    std::vector<const void *> vals(args.size());
    std::vector<size_t> sizes(args.size());
    L.ptrs.resize(args.size());
    for (size_t k = 0; k < args.size(); k++) {
        if (args[k].buffer) {
            ASSERT_EQ(dmem_alloc_bytes(&L.mem, args[k].bytes, &L.ptrs[k]), 0);
            std::vector<uint32_t> init(args[k].bytes / 4, 0x3f3f3f3fu);
            for (size_t i = 0; i < fill.size() && i < init.size(); i++) init[i] = fill[i];
            dmem_write(&L.mem, L.ptrs[k], init.data(), args[k].bytes);
            vals[k] = &L.ptrs[k], sizes[k] = 8;
        } else {
            vals[k] = &args[k].scalar, sizes[k] = 4;
        }
    }
    L.l.mod = &L.mod;
    L.l.kernel = ptx_module_find_func(&L.mod.ptx, kernel);
    ASSERT_NE(L.l.kernel, nullptr) << kernel;
    L.l.grid[0] = gx, L.l.grid[1] = gy, L.l.grid[2] = 1;
    L.l.block[0] = bx, L.l.block[1] = by, L.l.block[2] = 1;
    L.l.mem = &L.mem;
    ASSERT_EQ(simt_launch_prepare(&L.l, msg, sizeof msg), 0) << msg;
    ASSERT_EQ(simt_pack_params(L.l.kernel, vals.data(), sizes.data(), vals.size(), &L.l.params, msg, sizeof msg), 0)
        << msg;
}

inline const char *const kHeader = ".version 7.0\n.target sm_70\n.address_size 64\n";

inline std::string slurp(const std::string &path)
{
    std::ifstream in(std::string(GTLM_SOURCE_DIR) + "/workloads/" + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

} // namespace guru_test

#endif
