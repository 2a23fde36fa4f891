// The Simt fixture: a module loaded into device memory and kernels run on it functionally
// (test_simt.cpp, test_simt_indirect_mov.cpp).
#ifndef GTLM_TEST_SIMT_FIXTURE_H
#define GTLM_TEST_SIMT_FIXTURE_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
#include "ptx/ptx_parse.h"
#include "simt/simt.h"
#include "simt/simt_run.h"
}

// A module loaded into device memory, with helpers to run kernels on buffers.
class Simt : public ::testing::Test {
protected:
    void SetUp() override { dmem_init(&mem); }
    void TearDown() override
    {
        if (loaded) simt_module_free(&mod, &mem);
        dmem_free_all(&mem);
    }

    void load(const std::string &ptx)
    {
        ptx_module pm{};
        strbuf err, warn;
        strbuf_init(&err);
        strbuf_init(&warn);
        int rc = ptx_parse("test.ptx", ptx.data(), ptx.size(), &pm, &err, &warn);
        std::string e = strbuf_str(&err);
        strbuf_free(&err);
        strbuf_free(&warn);
        ASSERT_EQ(rc, 0) << e;
        char msg[512] = "";
        ASSERT_EQ(simt_module_load(&mod, &pm, &mem, msg, sizeof msg), 0) << msg;
        loaded = true;
    }

    uint64_t buffer(size_t bytes)
    {
        uint64_t p = 0;
        EXPECT_EQ(dmem_alloc_bytes(&mem, bytes, &p), 0);
        return p;
    }

    template <class T> std::vector<T> read(uint64_t p, size_t n)
    {
        std::vector<T> v(n);
        dmem_read(&mem, p, v.data(), n * sizeof(T));
        return v;
    }

    // Runs kernel with one pointer argument per entry of ptrs; returns the status.
    simt_status run(const char *kernel, unsigned grid, unsigned block, std::vector<uint64_t> ptrs,
                    simt_run_stats *stats = nullptr, uint64_t dyn_shared = 0)
    {
        const ptx_func *k = ptx_module_find_func(&mod.ptx, kernel);
        EXPECT_NE(k, nullptr);
        if (!k) return SIMT_ERR_UNSUPPORTED;
        simt_launch l{};
        l.mod = &mod;
        l.kernel = k;
        l.func_index = static_cast<uint32_t>(k - mod.ptx.funcs);
        l.grid[0] = grid;
        l.grid[1] = l.grid[2] = 1;
        l.block[0] = block;
        l.block[1] = l.block[2] = 1;
        l.dyn_shared = dyn_shared;
        l.n_sms = 2;
        l.mem = &mem;
        char msg[256];
        EXPECT_EQ(simt_launch_prepare(&l, msg, sizeof msg), 0) << msg;
        std::vector<const void *> args;
        std::vector<size_t> sizes;
        for (auto &p : ptrs) {
            args.push_back(&p);
            sizes.push_back(8);
        }
        EXPECT_EQ(simt_pack_params(k, args.data(), sizes.data(), args.size(), &l.params, msg, sizeof msg), 0) << msg;
        simt_run_stats s{};
        simt_status st = simt_run_functional(&l, 10000000, &s, &err);
        if (st != SIMT_OK) simt_format_error(&l, &err, message, sizeof message);
        if (stats) *stats = s;
        free(l.params);
        return st;
    }

    dmem mem;
    simt_module mod{};
    bool loaded = false;
    simt_error err{};
    char message[768] = "";
};

#endif
