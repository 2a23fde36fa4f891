// The SM's own reading of its options: pipeline widths in every GPGPU-Sim version's order.
#include <gtest/gtest.h>

extern "C" {
#include "sm/sm_config.h"
}

namespace {

gsim_int_list list(std::initializer_list<int> v)
{
    gsim_int_list l{};
    for (int x : v) l.v[l.n++] = x;
    return l;
}

TEST(PipelineWidths, Gpgpusim3xSevenEntries)
{
    sm_pipe_widths w;
    gsim_int_list l = list({2, 1, 1, 2, 1, 1, 2});
    ASSERT_EQ(sm_widths_decode(&l, &w), 0);
    EXPECT_EQ(w.id_oc_sp, 2);
    EXPECT_EQ(w.id_oc_sfu, 1);
    EXPECT_EQ(w.id_oc_mem, 1);
    EXPECT_EQ(w.oc_ex_sp, 2);
    EXPECT_EQ(w.ex_wb, 2);
    EXPECT_EQ(w.id_oc_dp, 0);
}

TEST(PipelineWidths, NineEntriesAddDoublePrecision)
{
    sm_pipe_widths w;
    gsim_int_list l = list({2, 0, 1, 1, 2, 0, 1, 1, 2});
    ASSERT_EQ(sm_widths_decode(&l, &w), 0);
    EXPECT_EQ(w.id_oc_sp, 2);
    EXPECT_EQ(w.id_oc_dp, 0);
    EXPECT_EQ(w.id_oc_sfu, 1) << "not the 7-entry order, which would read 0 here";
    EXPECT_EQ(w.id_oc_mem, 1);
    EXPECT_EQ(w.oc_ex_mem, 1);
    EXPECT_EQ(w.ex_wb, 2);
}

TEST(PipelineWidths, Gpgpusim4xThirteenEntries)
{
    sm_pipe_widths w;
    gsim_int_list l = list({4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 4, 4});
    ASSERT_EQ(sm_widths_decode(&l, &w), 0);
    EXPECT_EQ(w.id_oc_int, 4);
    EXPECT_EQ(w.ex_wb, 8);
    EXPECT_EQ(w.oc_ex_tensor, 4);
    gsim_int_list l16 = list({1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 6, 0, 0, 1, 1, 1});
    ASSERT_EQ(sm_widths_decode(&l16, &w), 0) << "specialized-unit stages after the 13th are ignored";
    EXPECT_EQ(w.ex_wb, 6);
}

TEST(PipelineWidths, OtherLengthsAreRejected)
{
    sm_pipe_widths w;
    gsim_int_list l8 = list({1, 1, 1, 1, 1, 1, 1, 1});
    EXPECT_NE(sm_widths_decode(&l8, &w), 0);
    gsim_int_list l10 = list({1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    EXPECT_NE(sm_widths_decode(&l10, &w), 0);
}

} // namespace
