// Bounded resources: module size (-gtlm_max_module_bytes), ptxas reports that make no sense,
// and an endless kernel in functional mode (-gpgpu_max_cycle).
#include "misuse_fixture.h"

namespace {

using misuse::load;
using misuse::make_sim;
using misuse::run_plain;
using misuse::run_scale;

TEST(MisuseResources, ModuleFilesAreReadUpToTheLimit)
{
    gtlm_sim *sim = make_sim({"-gtlm_max_module_bytes", "100000"});
    gtlm_module *m = reinterpret_cast<gtlm_module *>(1);
    EXPECT_EQ(gtlm_module_load_ptx_file(sim, "/dev/zero", &m), GTLM_EINVAL);
    EXPECT_EQ(m, nullptr);
    EXPECT_NE(std::string(gtlm_last_error()).find("larger than -gtlm_max_module_bytes (100000 bytes)"),
              std::string::npos)
        << gtlm_last_error();
    EXPECT_EQ(gtlm_module_load_ptx_file(sim, "/tmp", &m), GTLM_EIO) << "a directory";
    EXPECT_EQ(gtlm_module_load_ptx_file(sim, "/nonexistent/x.ptx", &m), GTLM_EIO);
    std::string big(100001, ' ');
    EXPECT_EQ(gtlm_module_load_ptx(sim, big.c_str(), "big", &m), GTLM_EINVAL);
    big.resize(100000 - std::string(misuse::ptx()).size());
    EXPECT_EQ(gtlm_module_load_ptx(sim, (misuse::ptx() + big).c_str(), "at_limit", &m), GTLM_OK) << gtlm_last_error();
    EXPECT_EQ(run_scale(sim, m, 100), GTLM_OK);
    gtlm_sim_destroy(sim);
}

TEST(MisuseResources, TheModuleLimitIsAValidatedOption)
{
    gtlm_sim_options o;
    ASSERT_EQ(gtlm_sim_options_init(&o, GTLM_SIM_OPTIONS_VERSION), GTLM_OK);
    const char *ov[] = {"-gtlm_max_module_bytes", "0"};
    o.overrides = ov;
    o.n_overrides = 2;
    gtlm_sim *sim = nullptr;
    EXPECT_EQ(gtlm_sim_create(&sim, &o), GTLM_ECONFIG);
    EXPECT_NE(std::string(gtlm_last_error()).find("-gtlm_max_module_bytes"), std::string::npos);
}

TEST(MisuseResources, PtxasReportsAreValidated)
{
    gtlm_sim *sim = make_sim();
    gtlm_module *m = load(sim);
    gtlm_kernel_resources before{}, after{};
    ASSERT_EQ(gtlm_kernel_resources_get(sim, m, "scale", &before), GTLM_OK);
    EXPECT_EQ(gtlm_module_set_ptxas_info(sim, m, "garbage\n\x01\x02 nothing here"), GTLM_ECONFIG);
    EXPECT_NE(std::string(gtlm_last_error()).find("describes no function"), std::string::npos) << gtlm_last_error();
    EXPECT_EQ(gtlm_module_set_ptxas_info(sim, m, ""), GTLM_ECONFIG);
    EXPECT_EQ(gtlm_module_set_ptxas_info(sim, m,
                                         "ptxas info    : Compiling entry function 'scale' for 'sm_75'\n"
                                         "ptxas info    : Used 100000 registers, 360 bytes cmem[0]\n"),
              GTLM_ECONFIG);
    EXPECT_EQ(gtlm_module_set_ptxas_info(sim, m,
                                         "ptxas info    : Compiling entry function 'nope' for 'sm_75'\n"
                                         "ptxas info    : Used 10 registers, 360 bytes cmem[0]\n"),
              GTLM_ECONFIG);
    ASSERT_EQ(gtlm_kernel_resources_get(sim, m, "scale", &after), GTLM_OK);
    EXPECT_EQ(after.registers, before.registers) << "a refused report changes nothing";
    EXPECT_EQ(gtlm_module_set_ptxas_info(sim, m,
                                         "ptxas info    : Compiling entry function 'scale' for 'sm_75'\n"
                                         "ptxas info    : Used 12 registers, 360 bytes cmem[0]\n"),
              GTLM_OK)
        << gtlm_last_error();
    ASSERT_EQ(gtlm_kernel_resources_get(sim, m, "scale", &after), GTLM_OK);
    EXPECT_EQ(after.registers, 12u);
    gtlm_sim_destroy(sim);
}

TEST(MisuseResources, FunctionalModeStopsAnEndlessKernelAtMaxCycle)
{
    // tiny.config: 2 SMs x 2 schedulers x 1 instruction per cycle -> 1000 cycles = 4000 warp insns.
    gtlm_sim *sim = make_sim({"-gtlm_mode", "functional", "-gpgpu_max_cycle", "1000"});
    gtlm_module *m = load(sim);
    EXPECT_EQ(run_plain(sim, m, "spin"), GTLM_ESIM);
    std::string msg = gtlm_last_error();
    EXPECT_NE(msg.find("-gpgpu_max_cycle 1000, in functional mode 4000 warp instructions"), std::string::npos) << msg;
    EXPECT_EQ(run_scale(sim, m, 1000), GTLM_OK) << "a kernel that fits the bound runs: " << gtlm_last_error();
    gtlm_sim_destroy(sim);
}

} // namespace
