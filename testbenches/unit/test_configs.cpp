// The shipped configurations and a real GPGPU-Sim configuration load through the full registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

extern "C" {
#include "gpu/gpu_config.h"
}

namespace {

struct Loaded {
    int rc = 0;
    std::string errors, warnings;
    gtlm_config cfg{};
};

// Registers every block's options, parses the file, runs the consistency checks.
void load(const std::string &path, bool compat, Loaded &out)
{
    opt_registry reg;
    opt_registry_init(&reg);
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    ASSERT_EQ(gtlm_config_register(&reg, &out.cfg, &err), 0) << strbuf_str(&err);
    out.cfg.gpu.gpgpusim_compat = compat;
    out.rc = opt_parse_file(&reg, path.c_str(), &err, &warn);
    if (out.rc == 0) out.rc = gtlm_config_check(&reg, &out.cfg, &err);
    out.errors = strbuf_str(&err);
    out.warnings = strbuf_str(&warn);
    // Keep scalar results; strings inside cfg die with the registry.
    opt_registry_free(&reg);
    strbuf_free(&err);
    strbuf_free(&warn);
}

std::vector<std::string> shipped_configs()
{
    std::vector<std::string> v;
    for (const auto &e : std::filesystem::directory_iterator(std::string(GTLM_SOURCE_DIR) + "/configs"))
        if (e.path().extension() == ".config") v.push_back(e.path().string());
    std::sort(v.begin(), v.end());
    return v;
}

TEST(Configs, TheDocumentsBaselinesAreAllThere)
{
    std::vector<std::string> names;
    for (const std::string &p : shipped_configs()) names.push_back(std::filesystem::path(p).filename().string());
    for (const char *want : {"gtx480.config", "gtx480-apres.config", "gtx980-linebacker.config", "titanx-pascal.config", "titanv-volta.config",
                             "rtx3080-morpheus.config", "h100-hopper.config", "tiny.config"})
        EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

TEST(Configs, EveryShippedConfigLoadsWithoutWarnings)
{
    for (const std::string &p : shipped_configs()) {
        Loaded l;
        load(p, false, l);
        EXPECT_EQ(l.rc, 0) << p << ":\n" << l.errors;
        EXPECT_EQ(l.warnings, "") << p;
    }
}

TEST(Configs, ShippedConfigsDescribeTheirGpus)
{
    struct Want {
        const char *file;
        int sms;
        double core_mhz;
    };
    for (const Want &w : {Want{"gtx480.config", 15, 700.0}, Want{"gtx480-apres.config", 15, 700.0}, Want{"gtx980-linebacker.config", 16, 1126.0},
                          Want{"titanx-pascal.config", 28, 1000.0}, Want{"titanv-volta.config", 80, 1200.0},
                          Want{"rtx3080-morpheus.config", 68, 0}, Want{"h100-hopper.config", 132, 1980.0},
                          Want{"tiny.config", 2, 0}}) {
        Loaded l;
        load(std::string(GTLM_SOURCE_DIR) + "/configs/" + w.file, false, l);
        ASSERT_EQ(l.rc, 0) << w.file << l.errors;
        EXPECT_EQ(gtlm_config_n_sms(&l.cfg), w.sms) << w.file;
        if (w.core_mhz > 0) {
            EXPECT_DOUBLE_EQ(l.cfg.gpu.clocks.core_mhz, w.core_mhz) << w.file;
        }
    }
}

TEST(Configs, GpgpusimGtx480LoadsOnlyInCompatMode)
{
    std::string path = std::string(GTLM_TEST_DATA) + "/gpgpusim-gtx480.config";
    Loaded strict;
    load(path, false, strict);
    EXPECT_NE(strict.rc, 0);
    EXPECT_NE(strict.errors.find(path + ":"), std::string::npos) << strict.errors;
    EXPECT_NE(strict.errors.find("is not modelled by gtlm"), std::string::npos) << strict.errors;

    Loaded compat;
    load(path, true, compat);
    EXPECT_EQ(compat.rc, 0) << compat.errors;
    EXPECT_NE(compat.warnings.find("warning: GPGPU-Sim option"), std::string::npos);
    // The modelled values came through.
    EXPECT_EQ(gtlm_config_n_sms(&compat.cfg), 15);
    EXPECT_EQ(compat.cfg.gpu.n_mem, 6);
    EXPECT_EQ(compat.cfg.sm.registers, 32768);
    EXPECT_EQ(compat.cfg.l1.dl1.nsets, 32);
    EXPECT_EQ(compat.cfg.l2.dl2.nsets, 64);
    EXPECT_EQ(compat.cfg.dram.timing.tRC, 40);
    EXPECT_EQ(compat.cfg.dram.timing.CL, 12) << "read from the second line of the quoted value";
    EXPECT_EQ(compat.cfg.dram.timing.nbkgrp, 4);
    EXPECT_DOUBLE_EQ(compat.cfg.gpu.clocks.dram_mhz, 924.0);
}

// A configuration file with the given text, removed when the test ends.
struct TempConfig {
    explicit TempConfig(const char *text)
    {
        path = ::testing::TempDir() + "gtlm_cfg_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        FILE *f = std::fopen(path.c_str(), "w");
        EXPECT_NE(f, nullptr);
        if (!f) return;
        std::fputs(text, f);
        std::fclose(f);
    }
    ~TempConfig() { std::remove(path.c_str()); }
    std::string path;
};

TEST(Configs, CompatSwitchCanBeSetInsideTheFile)
{
    TempConfig t("-gtlm_gpgpusim_compat 1\n-gpgpu_ptx_instruction_classification 0\n");
    const std::string &path = t.path;
    Loaded l;
    load(path, false, l);
    EXPECT_EQ(l.rc, 0) << l.errors;
    EXPECT_NE(l.warnings.find(":2:1: warning:"), std::string::npos) << l.warnings;
}

TEST(Configs, ConsistencyErrorsNameWhereTheValueCameFrom)
{
    TempConfig t("# warp size 16 is not a GPU gtlm models\n-gpgpu_shader_core_pipeline 1536:16\n");
    const std::string &path = t.path;
    Loaded l;
    load(path, false, l);
    EXPECT_NE(l.rc, 0);
    EXPECT_EQ(l.errors, path + ":2:29: option '-gpgpu_shader_core_pipeline': the warp size must be 32, got 16\n");
}

TEST(Configs, PartitionIndexingNeedsAPowerOfTwoSliceCount)
{
    TempConfig t("-gpgpu_n_mem 10\n-gpgpu_memory_partition_indexing 2\n");
    Loaded l;
    load(t.path, false, l);
    EXPECT_NE(l.rc, 0);
    EXPECT_NE(l.errors.find("2 (IPOLY) needs channels x sub-partitions a power of two from 2 to 65536, not 20"),
              std::string::npos) << l.errors;
    TempConfig ok("-gpgpu_n_mem 16\n-gpgpu_memory_partition_indexing 2\n");
    Loaded l2;
    load(ok.path, false, l2);
    EXPECT_EQ(l2.rc, 0) << l2.errors;
}

// GPGPU-Sim's values: 4 (random, SM6_TITANX's) and 5 (custom) load with 12 channels; 3 (PAE) is a
// located error that says why.
TEST(Configs, PartitionIndexingAcceptsGpgpuSimsRandomAndCustom)
{
    for (const char *v : {"4", "5"}) {
        std::string text = std::string("-gpgpu_n_mem 12\n-gpgpu_memory_partition_indexing ") + v + "\n";
        TempConfig t(text.c_str());
        Loaded l;
        load(t.path, false, l);
        EXPECT_EQ(l.rc, 0) << v << ": " << l.errors;
    }
    TempConfig pae("-gpgpu_n_mem 12\n-gpgpu_memory_partition_indexing 3\n");
    Loaded l;
    load(pae.path, false, l);
    EXPECT_NE(l.rc, 0);
    EXPECT_NE(l.errors.find(pae.path + ":2:"), std::string::npos) << l.errors;
    EXPECT_NE(l.errors.find("3 (PAE) has no implementation in GPGPU-Sim 4.2"), std::string::npos) << l.errors;
}

TEST(Configs, UnmodelledListIsSortedAndDisjointFromRegisteredOptions)
{
    opt_registry reg;
    opt_registry_init(&reg);
    strbuf err;
    strbuf_init(&err);
    gtlm_config cfg{};
    ASSERT_EQ(gtlm_config_register(&reg, &cfg, &err), 0);
    size_t n = 0;
    const char *const *names = opt_unmodelled_gpgpusim_names(&n);
    ASSERT_GT(n, 20u);
    for (size_t i = 0; i < n; i++) {
        EXPECT_EQ(opt_find(&reg, names[i]), nullptr) << names[i] << " is both registered and listed as unmodelled";
        EXPECT_EQ(names[i][0], '-') << names[i];
        if (i) {
            EXPECT_LT(std::string(names[i - 1]), std::string(names[i]));
        }
        EXPECT_TRUE(opt_is_unmodelled_gpgpusim(names[i]));
    }
    EXPECT_FALSE(opt_is_unmodelled_gpgpusim("-gpgpu_n_clusters"));
    opt_registry_free(&reg);
    strbuf_free(&err);
}

} // namespace
