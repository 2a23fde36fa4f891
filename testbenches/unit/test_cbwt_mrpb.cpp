// Unit tests of MRPB's reorder buffer (model/cbwt/mrpb.h): requests go to queue warp % N, the
// drain empties the current queue before it moves round-robin to the next non-empty one.
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "../../model/cbwt/mrpb.h"
}

namespace {

std::string drain(mrpb &m, int n)
{
    std::string out;
    for (int i = 0; i < n; i++) {
        const char *e = static_cast<const char *>(mrpb_head(&m));
        if (!e) break;
        out += *e;
        mrpb_pop(&m);
    }
    return out;
}

int push(mrpb &m, uint32_t warp, char c) { return mrpb_push(&m, warp, &c); }

TEST(CbwtMrpb, HandWorkedDrainOrder)
{
    mrpb m{};
    ASSERT_EQ(mrpb_init(&m, 4, 2, 1), 0);
    EXPECT_EQ(mrpb_head(&m), nullptr);
    EXPECT_EQ(push(m, 0, 'a'), 0); // queue 0: a
    EXPECT_EQ(push(m, 1, 'b'), 0); // queue 1: b
    EXPECT_EQ(push(m, 4, 'c'), 0); // warp 4 -> queue 0: a c
    EXPECT_EQ(push(m, 1, 'd'), 0); // queue 1: b d
    EXPECT_EQ(push(m, 5, 'e'), -1); // queue 1 full
    EXPECT_EQ(push(m, 8, 'f'), -1); // queue 0 full
    EXPECT_EQ(m.n, 4u);
    EXPECT_EQ(drain(m, 2), "ac");  // queue 0 first, both of its requests back to back
    EXPECT_EQ(push(m, 2, 'g'), 0); // queue 2: g
    EXPECT_EQ(push(m, 0, 'h'), 0); // queue 0 again: the drain is still on queue 0
    EXPECT_EQ(drain(m, 2), "hb");  // h (current queue), then queue 1
    EXPECT_EQ(push(m, 5, 'e'), 0); // queue 1 had room again: d e
    EXPECT_EQ(drain(m, 10), "deg"); // queue 1 until empty, then queue 2
    EXPECT_EQ(m.n, 0u);
    EXPECT_EQ(m.pushed, 7u); // a b c d g h e
    EXPECT_EQ(m.full, 2u);
    EXPECT_EQ(m.switches, 2u); // 0 -> 1 -> 2
    mrpb_free(&m);
}

TEST(CbwtMrpb, WrapsAroundAndSkipsEmptyQueues)
{
    mrpb m{};
    ASSERT_EQ(mrpb_init(&m, 3, 2, 1), 0);
    EXPECT_EQ(push(m, 2, 'x'), 0); // only queue 2: the drain moves 0 -> 2 in one switch
    EXPECT_EQ(drain(m, 1), "x");
    EXPECT_EQ(push(m, 0, 'y'), 0); // queue 0: wraps around from 2
    EXPECT_EQ(push(m, 1, 'z'), 0);
    EXPECT_EQ(drain(m, 5), "yz");
    EXPECT_EQ(m.switches, 3u);
    mrpb_free(&m);
}

TEST(CbwtMrpb, RejectsBadSizes)
{
    mrpb m{};
    EXPECT_EQ(mrpb_init(&m, 0, 8, 4), -1);
    EXPECT_EQ(mrpb_init(&m, 65, 8, 4), -1);
    EXPECT_EQ(mrpb_init(&m, 8, 0, 4), -1);
    EXPECT_EQ(mrpb_init(&m, 8, 257, 4), -1);
    EXPECT_EQ(mrpb_init(&m, 8, 8, 0), -1);
}

} // namespace
