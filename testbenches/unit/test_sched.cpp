// Warp schedulers: LRR, GTO, two-level, static warp limiting, run-time warp limit, registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "sm/sched.h"
}

namespace {

using V = std::vector<uint32_t>;
enum : uint8_t { I = SCHED_WARP_IDLE, R = SCHED_WARP_READY, S = SCHED_WARP_STALL, L = SCHED_WARP_STALL_LONG };

gsim_policy_spec spec(const char *name, std::vector<long long> p = {})
{
    gsim_policy_spec s;
    std::memset(&s, 0, sizeof s);
    std::snprintf(s.name, sizeof s.name, "%s", name);
    s.nparams = (int)p.size();
    for (size_t i = 0; i < p.size(); i++)
        s.params[i] = p[i];
    return s;
}

struct Sched {
    sched s;
    strbuf err;
    Sched(const gsim_policy_spec &sp, uint32_t slots, uint32_t id = 0, uint32_t n = 1)
    {
        strbuf_init(&err);
        int rc = sched_init(&s, &sp, slots, id, n, &err);
        EXPECT_EQ(rc, 0) << (err.data ? err.data : "");
    }
    ~Sched()
    {
        sched_free(&s);
        strbuf_free(&err);
    }
    V order(const std::vector<uint8_t> &st)
    {
        V out(s.n_local + 1, 0xdead);
        uint32_t n = sched_order(&s, st.data(), out.data());
        EXPECT_EQ(out[n], 0xdeadu); // never writes past its count
        out.resize(n);
        return out;
    }
    // One cycle: order, issue the first candidate; returns the order.
    V cycle(const std::vector<uint8_t> &st)
    {
        V o = order(st);
        if (!o.empty()) {
            EXPECT_EQ(sched_issued(&s, o[0], 0x100), 0);
        }
        return o;
    }
    void start_all(uint32_t n)
    {
        for (uint32_t w = 0; w < n; w++)
            EXPECT_EQ(sched_warp_start(&s, w, w), 0);
    }
};

int init_rc(const gsim_policy_spec &sp, uint32_t slots = 8, uint32_t id = 0, uint32_t n = 1)
{
    sched s;
    strbuf e;
    strbuf_init(&e);
    int rc = sched_init(&s, &sp, slots, id, n, &e);
    if (rc == 0)
        sched_free(&s);
    else
        EXPECT_NE(e.data, nullptr);
    strbuf_free(&e);
    return rc;
}

} // namespace

TEST(Sched, RegistryAndParameters)
{
    for (const char *n : {"lrr", "gto", "two_level_active", "warp_limiting"}) {
        const sched_policy *p = sched_policy_find(n);
        ASSERT_NE(p, nullptr) << n;
        EXPECT_STREQ(p->name, n);
    }
    int count = 0;
    for (const char *const *n = sched_policy_names(); *n; n++, count++)
        EXPECT_NE(sched_policy_find(*n), nullptr) << *n;
    EXPECT_EQ(count, 8); // lrr gto two_level_active warp_limiting laws ccws mascar pa
    EXPECT_EQ(sched_policy_find("rrr"), nullptr);
    EXPECT_EQ(init_rc(spec("lrr")), 0);
    EXPECT_EQ(init_rc(spec("gto")), 0);
    EXPECT_EQ(init_rc(spec("two_level_active", {6})), 0);
    EXPECT_EQ(init_rc(spec("two_level_active", {6, 0, 1})), 0);
    EXPECT_EQ(init_rc(spec("two_level_active", {6, 2, 5})), 0);
    EXPECT_EQ(init_rc(spec("warp_limiting", {4})), 0);
    EXPECT_EQ(init_rc(spec("warp_limiting", {2, 4})), 0);
    EXPECT_EQ(init_rc(spec("nope")), -1);
    EXPECT_EQ(init_rc(spec("lrr", {1})), -1);
    EXPECT_EQ(init_rc(spec("gto", {1})), -1);
    EXPECT_EQ(init_rc(spec("two_level_active")), -1);
    EXPECT_EQ(init_rc(spec("two_level_active", {0})), -1);
    EXPECT_EQ(init_rc(spec("two_level_active", {4, 3, 1})), -1);
    EXPECT_EQ(init_rc(spec("two_level_active", {4, 0, 0})), -1);
    EXPECT_EQ(init_rc(spec("warp_limiting")), -1);
    EXPECT_EQ(init_rc(spec("warp_limiting", {0})), -1);
    EXPECT_EQ(init_rc(spec("warp_limiting", {4, 2})), -1); // GPGPU-Sim order is prio:N
    EXPECT_EQ(init_rc(spec("warp_limiting", {2, 0})), -1);
    EXPECT_EQ(init_rc(spec("warp_limiting", {0, 4})), -1);
    EXPECT_EQ(init_rc(spec("lrr"), 8, 2, 2), -1); // id out of range
    EXPECT_EQ(init_rc(spec("lrr"), 8, 0, 0), -1);
    EXPECT_EQ(init_rc(spec("lrr"), 0, 0, 1), -1);
    EXPECT_EQ(init_rc(spec("lrr"), 2, 3, 4), 0); // a scheduler with no warps is valid
}

TEST(Sched, WarpsSplitAcrossTwoSchedulers)
{
    Sched a(spec("lrr"), 7, 0, 2), b(spec("lrr"), 7, 1, 2);
    EXPECT_EQ(a.s.n_local, 4u); // slots 0 2 4 6
    EXPECT_EQ(b.s.n_local, 3u); // slots 1 3 5
    EXPECT_EQ(sched_owner(5, 2), 1u);
    for (uint32_t w = 0; w < 7; w++) {
        sched *own = (w % 2) ? &b.s : &a.s, *other = (w % 2) ? &a.s : &b.s;
        EXPECT_EQ(sched_warp_start(other, w, w), -1) << w;
        EXPECT_EQ(sched_warp_start(own, w, w), 0) << w;
    }
    EXPECT_EQ(sched_warp_start(&a.s, 8, 0), -1); // beyond the SM
    std::vector<uint8_t> st(7, R);
    EXPECT_EQ(a.cycle(st), (V{0, 2, 4, 6}));
    EXPECT_EQ(b.cycle(st), (V{1, 3, 5}));
    EXPECT_EQ(a.cycle(st), (V{2, 4, 6, 0}));
    EXPECT_EQ(b.cycle(st), (V{3, 5, 1}));
    st[4] = S;
    st[5] = S;
    EXPECT_EQ(a.cycle(st), (V{6, 0, 2}));
    EXPECT_EQ(b.cycle(st), (V{1, 3}));
    EXPECT_EQ(sched_issued(&a.s, 1, 0), -1);
    EXPECT_EQ(sched_split_limit(5, 0, 2), 3u);
    EXPECT_EQ(sched_split_limit(5, 1, 2), 2u);
    EXPECT_EQ(sched_split_limit(1, 1, 2), 1u);
    EXPECT_EQ(sched_split_limit(0, 0, 2), 0u);
    EXPECT_EQ(sched_split_limit(8, 3, 4), 2u);
}

TEST(Sched, LrrRotatesFromLastIssued)
{
    Sched t(spec("lrr"), 4);
    t.start_all(4);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1, 2, 3}));
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{1, 2, 3, 0}));
    EXPECT_EQ(t.cycle({R, R, S, R}), (V{3, 0, 1})); // 2 stalled: skipped
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1, 2, 3}));
    EXPECT_EQ(t.order({S, S, S, S}), V{}); // nothing issues: start point stays after 0
    EXPECT_EQ(t.s.idle_cycles, 1u);
    EXPECT_EQ(t.order({R, R, R, R}), (V{1, 2, 3, 0}));
    ASSERT_EQ(sched_issued(&t.s, 3, 0), 0); // the SM issued the third candidate
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1, 2, 3}));
    ASSERT_EQ(sched_warp_exit(&t.s, 1), 0);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 3, 0})); // status of a dead slot is ignored
    EXPECT_EQ(t.s.issued, 7u);
}

TEST(Sched, GtoSticksThenOldest)
{
    Sched t(spec("gto"), 4);
    // launch order: slot 2 oldest, then 0, 3, 1
    ASSERT_EQ(sched_warp_start(&t.s, 2, 10), 0);
    ASSERT_EQ(sched_warp_start(&t.s, 0, 11), 0);
    ASSERT_EQ(sched_warp_start(&t.s, 3, 12), 0);
    ASSERT_EQ(sched_warp_start(&t.s, 1, 13), 0);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 0, 3, 1}));
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 0, 3, 1})); // greedy
    EXPECT_EQ(t.cycle({R, R, S, R}), (V{0, 3, 1}));    // 2 stalls: oldest ready
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 2, 3, 1})); // sticks to 0, then oldest
    EXPECT_EQ(t.cycle({S, L, R, R}), (V{2, 3}));
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 0, 3, 1}));
    ASSERT_EQ(sched_warp_exit(&t.s, 2), 0);
    EXPECT_EQ(t.order({R, R, R, R}), (V{0, 3, 1}));
    ASSERT_EQ(sched_warp_start(&t.s, 2, 20), 0); // new youngest warp in the old slot: not greedy
    EXPECT_EQ(t.order({R, R, R, R}), (V{0, 3, 1, 2}));
    EXPECT_EQ(sched_warp_start(&t.s, 2, 21), -1);
    EXPECT_EQ(sched_warp_exit(&t.s, 2), 0);
    EXPECT_EQ(sched_warp_exit(&t.s, 2), -1);
}

TEST(Sched, TwoLevelSwapsStalledWarpOut)
{
    Sched t(spec("two_level_active", {2}), 4); // inner LRR, outer oldest
    t.start_all(4);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1})); // active {0,1}; 2 and 3 pending, cannot issue
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{1, 0}));
    EXPECT_EQ(t.cycle({L, R, R, R}), (V{1, 2})); // 0 waits on memory: out; oldest ready pending 2 in
    EXPECT_EQ(t.s.policy_events, 1u);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 1})); // 0 ready again but the set is full
    EXPECT_EQ(t.cycle({R, S, R, R}), (V{2}));    // a short stall keeps its place
    EXPECT_EQ(t.cycle({R, R, L, R}), (V{1, 0})); // 2 out; oldest pending is 0 (before 3)
    EXPECT_EQ(t.s.policy_events, 2u);
    ASSERT_EQ(sched_warp_exit(&t.s, 1), 0);
    EXPECT_EQ(t.cycle({R, R, L, R}), (V{0, 3})); // 2 still long-stalled: 3 joins
    EXPECT_EQ(t.cycle({L, R, L, L}), V{});       // all out, nobody eligible to join
    EXPECT_EQ(t.s.policy_events, 4u);
    EXPECT_EQ(t.cycle({S, R, S, R}), V{});       // 0 and 2 (short stalls) rejoin; ready 3 stays pending
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 2}));
}

TEST(Sched, TwoLevelFifoOuter)
{
    Sched t(spec("two_level_active", {2, 0, 1}), 4); // GPGPU-Sim's :0:1
    t.start_all(4);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1}));
    EXPECT_EQ(t.cycle({L, R, R, R}), (V{1, 2}));
    EXPECT_EQ(t.cycle({R, R, L, R}), (V{1, 3})); // FIFO: 3 (pending since start) before 0
}

TEST(Sched, TwoLevelInnerGto)
{
    Sched t(spec("two_level_active", {3, 2, 5}), 6);
    for (uint32_t w = 0; w < 6; w++)
        ASSERT_EQ(sched_warp_start(&t.s, w, 100 - w), 0); // slot 5 oldest
    EXPECT_EQ(t.cycle({R, R, R, R, R, R}), (V{5, 4, 3}));
    EXPECT_EQ(t.cycle({R, R, R, R, R, R}), (V{5, 4, 3}));
    EXPECT_EQ(t.cycle({R, R, R, R, R, S}), (V{4, 3}));
    EXPECT_EQ(t.cycle({R, R, R, R, R, R}), (V{4, 5, 3}));
    EXPECT_EQ(t.cycle({R, R, R, R, L, R}), (V{5, 3, 2}));
}

TEST(Sched, WarpLimitingGpgpuSimParameterOrder)
{
    Sched t(spec("warp_limiting", {2, 3}), 8); // GTO, 3 warps
    EXPECT_EQ(sched_warp_limit(&t.s), 3u);
    t.start_all(8);
    EXPECT_EQ(t.cycle({R, R, R, R, R, R, R, R}), (V{0, 1, 2}));
}

TEST(Sched, WarpLimitingCapsAndRuntimeLimit)
{
    Sched t(spec("warp_limiting", {2}), 4);
    for (uint32_t w = 0; w < 4; w++)
        ASSERT_EQ(sched_warp_start(&t.s, w, 3 - w), 0); // slot 3 oldest, then 2, 1, 0
    EXPECT_EQ(sched_warp_limit(&t.s), 2u);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{3, 2}));
    EXPECT_EQ(t.cycle({R, R, R, S}), (V{2}));
    EXPECT_EQ(t.s.throttled_cycles, 2u);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 3})); // greedy 2 then oldest
    EXPECT_EQ(t.cycle({R, R, S, S}), V{});         // 0 and 1 ready but beyond the limit
    EXPECT_EQ(t.s.idle_cycles, 1u);
    sched_set_warp_limit(&t.s, 1);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{3})); // the greedy warp 2 is beyond the new limit
    sched_set_warp_limit(&t.s, 3);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{3, 2, 1}));
    sched_set_warp_limit(&t.s, 0);
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{3, 2, 1, 0}));
    sched_set_warp_limit(&t.s, 2);
    ASSERT_EQ(sched_warp_exit(&t.s, 3), 0); // the limit counts live warps: 2 and 1 now
    EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 1}));
}

TEST(Sched, RuntimeLimitAppliesToEveryPolicy)
{
    {
        Sched t(spec("lrr"), 4);
        t.start_all(4);
        sched_set_warp_limit(&t.s, 2);
        EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1}));
        EXPECT_EQ(t.cycle({R, R, R, R}), (V{1, 0}));
        EXPECT_EQ(t.cycle({S, S, R, R}), V{});
        sched_set_warp_limit(&t.s, 4);
        EXPECT_EQ(t.cycle({R, R, R, R}), (V{2, 3, 0, 1}));
    }
    {
        Sched t(spec("gto"), 4);
        t.start_all(4);
        sched_set_warp_limit(&t.s, 3);
        EXPECT_EQ(t.cycle({S, R, R, R}), (V{1, 2}));
    }
    {
        // two-level: a throttled active warp leaves the set like a long stall
        Sched t(spec("two_level_active", {2}), 4);
        t.start_all(4);
        EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1}));
        sched_set_warp_limit(&t.s, 1);
        EXPECT_EQ(t.cycle({R, R, R, R}), (V{0})); // 1 throttled: out; 2 and 3 throttled: cannot join
        EXPECT_EQ(t.s.policy_events, 1u);
        sched_set_warp_limit(&t.s, 0);
        EXPECT_EQ(t.cycle({R, R, R, R}), (V{0, 1}));
    }
}

namespace {
struct FeedbackLog {
    std::vector<std::vector<uint64_t>> calls;
};
FeedbackLog *g_log; // test-only hook target
void fb(void *, const sched *, uint32_t w, uint64_t pc, int o) { g_log->calls.push_back({w, pc, (uint64_t)o}); }
} // namespace

TEST(Sched, MemFeedbackReachesPolicy)
{
    Sched t(spec("lrr"), 8, 1, 2);
    sched_policy p = *t.s.pol;
    p.on_mem_feedback = fb;
    t.s.pol = &p;
    FeedbackLog log;
    g_log = &log;
    t.start_all(0);
    ASSERT_EQ(sched_mem_feedback(&t.s, 5, 0x40, SCHED_MEM_MISS), 0);
    ASSERT_EQ(sched_mem_feedback(&t.s, 7, 0x48, SCHED_MEM_MERGE), 0);
    ASSERT_EQ(sched_mem_feedback(&t.s, 1, 0x50, SCHED_MEM_HIT), 0);
    EXPECT_EQ(sched_mem_feedback(&t.s, 2, 0x50, SCHED_MEM_HIT), -1); // other scheduler's warp
    EXPECT_EQ(sched_mem_feedback(&t.s, 1, 0x50, 3), -1);
    EXPECT_EQ(log.calls, (std::vector<std::vector<uint64_t>>{{2, 0x40, 1}, {3, 0x48, 2}, {0, 0x50, 0}}));
    EXPECT_EQ(t.s.mem_hits, 1u);
    EXPECT_EQ(t.s.mem_misses, 1u);
    EXPECT_EQ(t.s.mem_merges, 1u);
    t.s.pol = sched_policy_find("lrr");
    g_log = nullptr;
}

// Reference: the plain definitions, recomputed from scratch every cycle.
TEST(Sched, RandomAgainstReference)
{
    std::mt19937 rng(5);
    for (const char *pol : {"lrr", "gto", "warp_limiting"}) {
        const uint32_t slots = 12, nsch = 3, id = 1;
        Sched t(pol[0] == 'w' ? spec(pol, {2}) : spec(pol), slots, id, nsch);
        const uint32_t n = t.s.n_local;
        std::vector<int> live(n, 0);
        std::vector<uint64_t> age(n, 0);
        int last = -1, greedy = -1;
        uint32_t limit = pol[0] == 'w' ? 2 : 0;
        uint64_t next_age = 0;
        for (int c = 0; c < 4000; c++) {
            uint32_t j = rng() % n;
            if (rng() % 8 == 0) {
                if (live[j]) {
                    ASSERT_EQ(sched_warp_exit(&t.s, id + j * nsch), 0);
                    live[j] = 0;
                    if (greedy == (int)j)
                        greedy = -1;
                } else {
                    ASSERT_EQ(sched_warp_start(&t.s, id + j * nsch, next_age), 0);
                    live[j] = 1;
                    age[j] = next_age++;
                }
            }
            if (rng() % 50 == 0) {
                limit = rng() % 4;
                sched_set_warp_limit(&t.s, limit);
            }
            std::vector<uint8_t> st(slots, I);
            for (uint32_t w = 0; w < slots; w++)
                st[w] = (uint8_t)(1 + rng() % 3);
            // reference
            std::vector<uint32_t> alive;
            for (uint32_t k = 0; k < n; k++)
                if (live[k])
                    alive.push_back(k);
            std::sort(alive.begin(), alive.end(), [&](uint32_t a, uint32_t b) { return age[a] < age[b]; });
            std::vector<int> allowed(n, 0);
            for (size_t k = 0; k < alive.size(); k++)
                allowed[alive[k]] = limit == 0 || k < limit;
            auto ok = [&](uint32_t k) { return live[k] && allowed[k] && st[id + k * nsch] == R; };
            V ref;
            if (pol[0] == 'l') {
                uint32_t start = last < 0 ? 0 : (last + 1) % n;
                for (uint32_t k = 0; k < n; k++)
                    if (ok((start + k) % n))
                        ref.push_back(id + (start + k) % n * nsch);
            } else {
                if (greedy >= 0 && ok(greedy))
                    ref.push_back(id + greedy * nsch);
                for (uint32_t k : alive)
                    if ((int)k != greedy && ok(k))
                        ref.push_back(id + k * nsch);
            }
            V got = t.order(st);
            ASSERT_EQ(got, ref) << pol << " cycle " << c;
            if (!got.empty()) {
                uint32_t pick = got[rng() % got.size()]; // the SM may skip candidates
                ASSERT_EQ(sched_issued(&t.s, pick, 0), 0);
                last = greedy = (int)((pick - id) / nsch);
            }
        }
    }
}

// Two-level invariants under random traffic: only active warps issue, the set never exceeds N,
// and a long-stalled warp is never offered.
TEST(Sched, TwoLevelRandomInvariants)
{
    std::mt19937 rng(9);
    Sched t(spec("two_level_active", {3}), 10);
    std::vector<int> live(10, 0);
    uint64_t a = 0;
    for (int c = 0; c < 3000; c++) {
        uint32_t w = rng() % 10;
        if (rng() % 10 == 0) {
            if (live[w]) {
                ASSERT_EQ(sched_warp_exit(&t.s, w), 0);
            } else {
                ASSERT_EQ(sched_warp_start(&t.s, w, a++), 0);
            }
            live[w] ^= 1;
        }
        std::vector<uint8_t> st(10);
        for (auto &x : st)
            x = (uint8_t)(1 + rng() % 3);
        V got = t.order(st);
        ASSERT_LE(got.size(), 3u);
        for (uint32_t x : got) {
            ASSERT_TRUE(live[x]);
            ASSERT_EQ(st[x], R);
        }
        if (!got.empty()) {
            ASSERT_EQ(sched_issued(&t.s, got[0], 0), 0);
        }
    }
    EXPECT_GT(t.s.policy_events, 100u);
    EXPECT_GT(t.s.issued, 1000u);
}
