// The external-controller seam of the power modes (power_mode.h's pm_ext, the way -rtl_power's RTL
// and the recorder plug in): with the C core itself behind the seam (pm_op_c on a shadow domain),
// every statistic and every mode equals the C core's own, over a hand case (an access that wakes a
// sleeping block which sleeps again: two transitions in one op) and a random event sequence.
#include <cstring>
#include <random>

#include <gtest/gtest.h>

extern "C" {
#include "power/power_mode.h"
}

namespace {

pm_table table()
{
    pm_table t{};
    t.m[PM_ON] = {1.0, 0, 0};
    t.m[PM_SHALLOW] = {0.5, 1, 1};
    t.m[PM_SLEEP] = {0.228, 2, 3};
    t.m[PM_OFF] = {0.015, 5, 7};
    return t;
}

// Two domains driven alike: `c` by the C policy, `e` through the seam with a shadow C core.
struct Pair {
    pm_domain c{}, e{}, shadow{};
    explicit Pair(const char *policy, uint32_t n)
    {
        pm_table t = table();
        const pm_policy *p = pm_policy_find(policy);
        EXPECT_EQ(pm_domain_init(&c, n, &t, 2.0, 700.0, p), 0);
        EXPECT_EQ(pm_domain_init(&e, n, &t, 2.0, 700.0, p), 0);
        EXPECT_EQ(pm_domain_init(&shadow, n, &t, 2.0, 700.0, p), 0);
        e.ext.ctx = &shadow;
        e.ext.op = [](void *ctx, uint32_t b, int op, uint64_t now, pm_ext_out *o) {
            pm_op_c(static_cast<pm_domain *>(ctx), b, op, now, o);
        };
    }
    ~Pair()
    {
        pm_domain_free(&c);
        pm_domain_free(&e);
        pm_domain_free(&shadow);
    }
    void expect_same(const char *when) const
    {
        for (int m = 0; m < PM_MODES; m++) {
            EXPECT_EQ(c.st.residency[m], e.st.residency[m]) << when << " mode " << m;
            EXPECT_EQ(c.st.entries[m], e.st.entries[m]) << when << " mode " << m;
            EXPECT_EQ(c.count[m], e.count[m]) << when << " mode " << m;
        }
        EXPECT_EQ(c.st.wakes, e.st.wakes) << when;
        EXPECT_EQ(c.st.wake_cycles, e.st.wake_cycles) << when;
        EXPECT_EQ(c.st.lost, e.st.lost) << when;
        EXPECT_EQ(0, std::memcmp(&c.st.transition_pj, &e.st.transition_pj, sizeof(double))) << when;
        for (uint32_t b = 0; b < c.n; b++) EXPECT_EQ(pm_get(&c, b), pm_get(&e, b)) << when << " block " << b;
    }
};

TEST(PowerExt, AnAccessThatWakesASleepingBlockWhichSleepsAgainCountsBothTransitions)
{
    Pair p("snooze", 2);
    for (pm_domain *d : {&p.c, &p.e}) {
        pm_kernel_begin(d, 0);
        pm_event_report(d, 0, PM_EV_ALLOC, 1); // live, nothing queued: Sleep
        EXPECT_EQ(pm_get(d, 0), PM_SLEEP);
        int lost = 1;
        EXPECT_EQ(pm_access(d, 0, 10, &lost), 2); // Sleep's 2-cycle wake
        EXPECT_EQ(lost, 0);
        EXPECT_EQ(pm_get(d, 0), PM_SLEEP); // nothing queued: back to Sleep in the same op
        EXPECT_EQ(d->st.entries[PM_SLEEP], 2u);
        EXPECT_EQ(d->st.wakes, 1u);
        pm_close(d, 20);
    }
    p.expect_same("hand case");
}

TEST(PowerExt, RandomEventsGiveTheCCoresStatisticsBitForBit)
{
    for (const char *policy : {"snooze", "snooze_destroy"}) {
        Pair p(policy, 6);
        std::mt19937_64 rng(7);
        uint64_t now = 1;
        for (pm_domain *d : {&p.c, &p.e}) pm_kernel_begin(d, now);
        for (int i = 0; i < 200000; i++) {
            now += rng() % 3;
            uint32_t b = static_cast<uint32_t>(rng() % 6);
            int kind = static_cast<int>(rng() % 13);
            bool begin = rng() % 50 == 0; // a kernel begins now and then
            for (pm_domain *d : {&p.c, &p.e}) {
                // an access is pm_access (owners never report PM_EV_ACCESS themselves)
                if (kind == PM_EV_ACCESS || kind == 9) pm_access(d, b, now, nullptr);
                else if (kind < 9) pm_event_report(d, b, static_cast<pm_event>(kind), now);
                else if (kind == 10) pm_filled(d, b);
                else if (kind == 11) pm_set(d, b, PM_ON, now);
                else if (begin) pm_kernel_begin(d, now);
            }
        }
        for (pm_domain *d : {&p.c, &p.e}) pm_close(d, now + 1);
        p.expect_same(policy);
        EXPECT_GT(p.c.st.wakes, 1000u) << policy;
        EXPECT_GT(p.c.st.entries[PM_SLEEP], 1000u) << policy;
    }
}

} // namespace
