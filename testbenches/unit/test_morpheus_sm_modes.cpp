// SM modes (Morpheus / IBL): counts take the highest-numbered SMs, lists name them, errors are located.
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "llc/sm_modes.h"
}

namespace {

struct Modes {
    llc_config c{};
    char empty[1] = "";
    Modes()
    {
        c.cache_sm_list = empty;
        c.gated_sm_list = empty;
    }
    std::string run(int n, std::vector<uint8_t> &m)
    {
        m.assign(static_cast<size_t>(n), 9);
        strbuf e;
        strbuf_init(&e);
        int rc = sm_modes_resolve(&c, n, m.data(), nullptr, &e);
        std::string msg = strbuf_str(&e);
        strbuf_free(&e);
        return rc ? msg : "";
    }
};

TEST(MorpheusSmModes, DefaultIsAllCompute)
{
    Modes t;
    std::vector<uint8_t> m;
    EXPECT_EQ(t.run(68, m), "");
    EXPECT_EQ(sm_modes_count(m.data(), 68, SM_MODE_COMPUTE), 68);
}

TEST(MorpheusSmModes, CountsTakeTheTopSmsCacheAboveGated)
{
    Modes t;
    t.c.cache_sms = 3;
    t.c.gated_sms = 2;
    std::vector<uint8_t> m;
    ASSERT_EQ(t.run(10, m), "");
    std::vector<uint8_t> want = {0, 0, 0, 0, 0, SM_MODE_GATED, SM_MODE_GATED, SM_MODE_CACHE, SM_MODE_CACHE, SM_MODE_CACHE};
    EXPECT_EQ(m, want);
}

TEST(MorpheusSmModes, ListsNameSmsAndRanges)
{
    Modes t;
    char cache[] = "1,4-5", gated[] = " 7 , 0";
    t.c.cache_sm_list = cache;
    t.c.gated_sm_list = gated;
    std::vector<uint8_t> m;
    ASSERT_EQ(t.run(8, m), "");
    std::vector<uint8_t> want = {SM_MODE_GATED, SM_MODE_CACHE, 0, 0, SM_MODE_CACHE, SM_MODE_CACHE, 0, SM_MODE_GATED};
    EXPECT_EQ(m, want);
}

TEST(MorpheusSmModes, BadInputIsLocated)
{
    std::vector<uint8_t> m;
    {
        Modes t;
        char l[] = "3,9";
        t.c.cache_sm_list = l;
        EXPECT_NE(t.run(8, m).find("'-morpheus_cache_sm_list': SM range 9-9 is outside 0-7"), std::string::npos);
    }
    {
        Modes t;
        char l[] = "3,x";
        t.c.cache_sm_list = l;
        EXPECT_NE(t.run(8, m).find("expected SM ids and ranges"), std::string::npos);
    }
    {
        Modes t;
        char c[] = "2", g[] = "1-2";
        t.c.cache_sm_list = c;
        t.c.gated_sm_list = g;
        EXPECT_NE(t.run(8, m).find("SM 2 is already cache"), std::string::npos);
    }
    {
        Modes t;
        t.c.cache_sms = 8;
        EXPECT_NE(t.run(8, m).find("leaves no compute SM"), std::string::npos);
    }
    {
        Modes t;
        t.c.cache_sms = 4;
        t.c.gated_sms = 4;
        EXPECT_NE(t.run(8, m).find("no compute SM"), std::string::npos);
    }
}

} // namespace
