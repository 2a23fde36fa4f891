// Snooze (thesis Ch. 5, model/power/policy_snooze.c): one test per transition of the spec's
// reconstructed FSM (T1-T7, spec C.3.4) on scripted event sequences, the wake latency charged
// exactly once, no access served before its block is fully ON, and the state-destroying variant's
// real miss through the cache seam.
#include <gtest/gtest.h>

extern "C" {
#include "cache/cache_core.h"
#include "power/power_mode.h"
}

namespace {

// Thesis Table 5.2: Sleep 22.8 %, OFF 1.5 %, 2-cycle wake and break-even.
pm_table snooze_table()
{
    pm_table t{};
    t.m[PM_ON] = {1.0, 0, 0};
    t.m[PM_SHALLOW] = {0.228, 2, 2};
    t.m[PM_SLEEP] = {0.228, 2, 2};
    t.m[PM_OFF] = {0.015, 2, 2};
    return t;
}

struct Domain {
    pm_domain d{};
    explicit Domain(const char *policy, uint32_t n = 2)
    {
        pm_table t = snooze_table();
        EXPECT_EQ(pm_domain_init(&d, n, &t, 1.0, 1000.0, pm_policy_find(policy)), 0);
        pm_kernel_begin(&d, 0);
    }
    ~Domain() { pm_domain_free(&d); }
    void ev(uint32_t b, pm_event e, uint64_t now) { pm_event_report(&d, b, e, now); }
    pm_mode mode(uint32_t b) const { return pm_get(&d, b); }
};

TEST(Snooze, T1_KernelStartPutsEveryEmptyBlockOff)
{
    Domain s("snooze");
    EXPECT_EQ(s.mode(0), PM_OFF);
    EXPECT_EQ(s.mode(1), PM_OFF);
    // A block with live data from an earlier kernel sleeps instead (state-preserving).
    s.ev(0, PM_EV_ALLOC, 5);
    EXPECT_EQ(s.mode(0), PM_SLEEP);
    pm_kernel_begin(&s.d, 100);
    EXPECT_EQ(s.mode(0), PM_SLEEP);
    EXPECT_EQ(s.mode(1), PM_OFF);
    // The state-destroying variant gates it OFF as the thesis does.
    Domain x("snooze_destroy");
    x.ev(0, PM_EV_ALLOC, 5);
    pm_kernel_begin(&x.d, 100);
    EXPECT_EQ(x.mode(0), PM_OFF);
}

TEST(Snooze, T2_AnEnqueuedRequestWakesItsBlockAndTheQueueLagHidesTheWake)
{
    Domain s("snooze");
    s.ev(0, PM_EV_ALLOC, 1); // live, asleep
    ASSERT_EQ(s.mode(0), PM_SLEEP);
    s.ev(0, PM_EV_ENQUEUE, 10);
    EXPECT_EQ(s.mode(0), PM_ON);
    EXPECT_EQ(s.d.st.wakes, 1u);
    int lost = 1;
    EXPECT_EQ(pm_access(&s.d, 0, 14, &lost), 0); // served 4 cycles later: the 2-cycle wake is hidden
    EXPECT_EQ(lost, 0);
    EXPECT_EQ(s.d.st.wakes, 1u);
    EXPECT_EQ(s.d.st.wake_cycles, 0u);
}

TEST(Snooze, WakeLatencyIsChargedExactlyOnce)
{
    Domain s("snooze");
    s.ev(0, PM_EV_ALLOC, 1);
    s.ev(0, PM_EV_ENQUEUE, 10);                 // wake starts at 10, ON at 12
    EXPECT_EQ(pm_access(&s.d, 0, 11, nullptr), 1); // one cycle after the enqueue: waits the rest
    EXPECT_EQ(s.d.st.wakes, 1u);
    EXPECT_EQ(s.d.st.wake_cycles, 1u);
    s.ev(0, PM_EV_ENQUEUE, 11);                  // already ON: no second wake
    EXPECT_EQ(pm_access(&s.d, 0, 11, nullptr), 0); // the wake was paid by the first access
    EXPECT_EQ(s.d.st.wakes, 1u);
    EXPECT_EQ(s.d.st.wake_cycles, 1u);
}

TEST(Snooze, T3_StaysOnWhileRequestsAreQueued)
{
    Domain s("snooze");
    s.ev(0, PM_EV_ALLOC, 1);
    s.ev(0, PM_EV_ENQUEUE, 10);
    s.ev(0, PM_EV_ENQUEUE, 11);
    pm_access(&s.d, 0, 14, nullptr);
    s.ev(0, PM_EV_DEQUEUE, 14);
    EXPECT_EQ(s.mode(0), PM_ON); // one more request waits
    pm_access(&s.d, 0, 15, nullptr);
    EXPECT_EQ(s.mode(0), PM_ON);
    EXPECT_EQ(s.d.st.wakes, 1u);
}

TEST(Snooze, T4_SleepsWhenTheQueuesHoldNothingForIt)
{
    Domain s("snooze");
    s.ev(0, PM_EV_ALLOC, 1);
    s.ev(0, PM_EV_ENQUEUE, 10);
    pm_access(&s.d, 0, 14, nullptr);
    s.ev(0, PM_EV_DEQUEUE, 14);
    EXPECT_EQ(s.mode(0), PM_SLEEP);
    pm_close(&s.d, 20);
    // Block 0: OFF 0-1, Sleep 1-10 and 14-20, ON 10-14; block 1: OFF throughout.
    EXPECT_EQ(s.d.st.residency[PM_SLEEP], 9u + 6u);
    EXPECT_EQ(s.d.st.residency[PM_ON], 4u);
    EXPECT_EQ(s.d.st.residency[PM_OFF], 1u + 20u);
}

TEST(Snooze, T4_AReservationFailSleepsUntilAFillAndEnqueuesDoNotWake)
{
    Domain s("snooze");
    s.ev(0, PM_EV_ALLOC, 1);
    s.ev(0, PM_EV_ENQUEUE, 10);
    s.ev(0, PM_EV_RESFAIL, 12); // head request: MSHR full
    EXPECT_EQ(s.mode(0), PM_SLEEP);
    s.ev(0, PM_EV_ENQUEUE, 13); // the reservation queue holds the set: no wake
    EXPECT_EQ(s.mode(0), PM_SLEEP);
    EXPECT_EQ(s.d.st.wakes, 1u);
}

TEST(Snooze, T5_AFillWakesASleepingBlock)
{
    Domain s("snooze");
    s.ev(0, PM_EV_ALLOC, 1);
    s.ev(0, PM_EV_ENQUEUE, 10);
    s.ev(0, PM_EV_RESFAIL, 12);
    s.ev(0, PM_EV_FILL, 30);
    EXPECT_EQ(s.mode(0), PM_ON);
    EXPECT_EQ(s.d.st.wakes, 2u);
    s.ev(0, PM_EV_ENQUEUE, 40); // the reservation fail is over: requests wake it again
    EXPECT_EQ(s.mode(0), PM_ON);
    s.ev(0, PM_EV_DEQUEUE, 42);
    s.ev(0, PM_EV_DEQUEUE, 43);
    EXPECT_EQ(s.mode(0), PM_SLEEP);
}

TEST(Snooze, T6_FinishTurnsAnOnBlockOff)
{
    Domain x("snooze_destroy");
    x.ev(0, PM_EV_ALLOC, 1);
    x.ev(0, PM_EV_ENQUEUE, 2);
    ASSERT_EQ(x.mode(0), PM_ON);
    x.ev(0, PM_EV_FINISH, 5);
    EXPECT_EQ(x.mode(0), PM_OFF);
    // State-preserving: a live block only sleeps, an empty one goes OFF.
    Domain s("snooze");
    s.ev(0, PM_EV_ALLOC, 1);
    s.ev(0, PM_EV_ENQUEUE, 2);
    s.ev(1, PM_EV_ENQUEUE, 2);
    s.ev(0, PM_EV_FINISH, 5);
    s.ev(1, PM_EV_FINISH, 5);
    EXPECT_EQ(s.mode(0), PM_SLEEP);
    EXPECT_EQ(s.mode(1), PM_OFF);
}

TEST(Snooze, T7_FinishTurnsASleepingBlockOff)
{
    Domain x("snooze_destroy");
    x.ev(0, PM_EV_ALLOC, 1);
    ASSERT_EQ(x.mode(0), PM_SLEEP);
    x.ev(0, PM_EV_FINISH, 5);
    EXPECT_EQ(x.mode(0), PM_OFF);
    int lost = 0;
    EXPECT_EQ(pm_access(&x.d, 0, 9, &lost), 2);
    EXPECT_EQ(lost, 1); // state destroyed: the data is gone
}

TEST(Snooze, AnEvictedBlockIsOffAndAnEarlyWakeFromOffStillLosesTheData)
{
    Domain x("snooze_destroy");
    x.ev(0, PM_EV_ALLOC, 1);
    x.ev(0, PM_EV_FINISH, 2); // valid data gated OFF
    x.ev(0, PM_EV_ENQUEUE, 10);
    int lost = 0;
    EXPECT_EQ(pm_access(&x.d, 0, 15, &lost), 0);
    EXPECT_EQ(lost, 1) << "waking early from OFF must not bring the data back";
    Domain s("snooze");
    s.ev(1, PM_EV_ALLOC, 1);
    s.ev(1, PM_EV_FREE, 3);
    EXPECT_EQ(s.mode(1), PM_OFF);
}

// A scripted random-ish access stream: every access is served no earlier than its block has been
// fully ON (woken at least W cycles before), and every wake is counted once.
TEST(Snooze, NoAccessIsEverServedFromANonOnBlock)
{
    Domain s("snooze", 4);
    uint64_t woke_at[4] = {0, 0, 0, 0};
    uint32_t x = 12345;
    for (uint32_t b = 0; b < 4; b++) s.ev(b, PM_EV_ALLOC, 1);
    uint64_t now = 2;
    for (int i = 0; i < 400; i++) {
        x = x * 1103515245u + 12345u;
        uint32_t b = (x >> 16) & 3;
        uint32_t lag = (x >> 8) & 7; // 0-7 cycles of queue lag
        bool look_ahead = (x >> 20) & 1;
        if (look_ahead) {
            pm_mode before = s.mode(b);
            s.ev(b, PM_EV_ENQUEUE, now);
            if (before != PM_ON) woke_at[b] = now;
        }
        now += lag;
        pm_mode before = s.mode(b);
        uint64_t wakes = s.d.st.wakes;
        int wait = pm_access(&s.d, b, now, nullptr);
        if (before != PM_ON) {
            woke_at[b] = now;
            EXPECT_EQ(s.d.st.wakes, wakes + 1);
        } else {
            EXPECT_EQ(s.d.st.wakes, wakes);
        }
        EXPECT_GE(now + static_cast<uint64_t>(wait), woke_at[b] + 2) << "access " << i;
        if (look_ahead) s.ev(b, PM_EV_DEQUEUE, now);
        now += 1;
    }
}

TEST(Snooze, Coarse151SleepsTheWholeCacheWhenIdleAndPaysTheFullWake)
{
    Domain c("coarse151", 1);
    EXPECT_EQ(c.mode(0), PM_ON);
    c.ev(0, PM_EV_IDLE, 10);
    EXPECT_EQ(c.mode(0), PM_SLEEP);
    c.ev(0, PM_EV_ENQUEUE, 11); // no look-ahead
    EXPECT_EQ(c.mode(0), PM_SLEEP);
    EXPECT_EQ(pm_access(&c.d, 0, 15, nullptr), 2);
    c.ev(0, PM_EV_FINISH, 20);
    EXPECT_EQ(c.mode(0), PM_OFF);
    c.ev(0, PM_EV_IDLE, 21); // a finished SM has no ready warp either: OFF stays OFF
    EXPECT_EQ(c.mode(0), PM_OFF);
    EXPECT_EQ(pm_policy_non_cache(&pm_policy_coarse151), &pm_policy_always_on);
}

// Snooze through the cache seam (block = line): a fill sleeps its line, an access wakes it, the
// state-destroying variant's kernel start makes the next access a real miss.
struct SnoozeCache {
    cache_core c{};
    explicit SnoozeCache(const char *policy, const char *cfg_text = "N:4:128:2,L:B:m:W:L,A:4:4,4", int per_sector = 0,
                         int resq = 0)
    {
        gsim_cache_cfg cfg{};
        char err[128];
        EXPECT_EQ(gsim_cache_cfg_parse(cfg_text, &cfg, err, sizeof err), 0) << err;
        EXPECT_EQ(cache_init(&c, &cfg), 0);
        pm_table t = snooze_table();
        cache_pm_set_per_sector(&c, per_sector);
        cache_pm_set_resq(&c, resq);
        EXPECT_EQ(cache_pm_init(&c, &t, 8.0, 1000.0, pm_policy_find(policy), 1), 0);
        pm_kernel_begin(&c.pm, 0);
    }
    ~SnoozeCache() { cache_free(&c); }
    cache_status read(uint64_t addr, uint64_t now, uint8_t sectors = 0)
    {
        cache_req r{};
        r.addr = addr;
        r.sector_mask = sectors;
        c.now = now;
        return cache_access(&c, &r, nullptr);
    }
    void fill(uint64_t addr, uint64_t now, uint8_t sectors = 0)
    {
        uint64_t woken[8];
        c.now = now;
        cache_fill(&c, addr, sectors, woken, 8);
        cache_out o;
        while (cache_out_pop(&c, &o) == 0) {
        }
    }
};

TEST(Snooze, ThroughTheCacheAFilledLineSleepsAndHitsAfterItsWake)
{
    SnoozeCache g("snooze");
    EXPECT_EQ(g.c.pm.count[PM_OFF], 8u);
    EXPECT_EQ(g.read(0x1000, 1), CACHE_MISS);
    g.fill(0x1000, 5);
    EXPECT_EQ(g.c.pm.count[PM_SLEEP], 1u);
    EXPECT_EQ(g.read(0x1000, 10), CACHE_HIT);
    EXPECT_EQ(g.c.pm_wait, 2);
    EXPECT_EQ(g.c.pm.count[PM_SLEEP], 1u); // served, queue empty: back to Sleep (T4)
    pm_kernel_begin(&g.c.pm, 20);        // T1, state-preserving: the line keeps its data
    EXPECT_EQ(g.read(0x1000, 30), CACHE_HIT);
    EXPECT_EQ(g.c.pm.st.lost, 0u);
}

TEST(Snooze, ThroughTheCacheTheDestroyingVariantMissesAfterKernelStart)
{
    SnoozeCache g("snooze_destroy");
    g.read(0x1000, 1);
    g.fill(0x1000, 5);
    EXPECT_EQ(g.read(0x1000, 10), CACHE_HIT);
    pm_kernel_begin(&g.c.pm, 20); // T1: everything OFF, the line's data lost
    EXPECT_EQ(g.read(0x1000, 30), CACHE_MISS);
    EXPECT_EQ(g.c.pm.st.lost, 1u);
}

// T5 from the response queue (PM_EV_FILL, reported by the owners at ICNT->L1 / DRAM->L2): the fill's
// block wakes when the fill is queued, not when it is written; the write charges no wake cycles and,
// with nothing queued for the line, puts it back to Sleep. The fill also ends a reservation fail's
// sleep: enqueues wake the line again. 4 sets x 2 ways (8 blocks of 1 mW), block of 0x1000 = 0.
TEST(Snooze, T5_AQueuedFillWakesItsBlockAtTheEnqueueAndChargesNoWakeCycles)
{
    SnoozeCache g("snooze", "N:4:128:2,L:B:m:W:L,A:4:4,4", 0, 32);
    ASSERT_EQ(g.read(0x1000, 1), CACHE_MISS);          // reserved: live, Sleep
    ASSERT_EQ(pm_get(&g.c.pm, 0), PM_SLEEP);
    cache_pm_queue(&g.c, 0x1000, 0, PM_EV_RESFAIL, 2);  // T4: asleep until a fill, one queue entry
    EXPECT_EQ(g.c.pm_resq_n, 1);
    cache_pm_queue(&g.c, 0x1000, 0, PM_EV_FILL, 10);    // T5 at the enqueue
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_ON);
    EXPECT_EQ(g.c.pm.st.wakes, 1u);
    g.fill(0x1000, 10);                                // written at once: nothing queued, Sleep (T4)
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_SLEEP);
    EXPECT_EQ(g.c.pm_resq_n, 0);                        // the set's fill popped its entry
    EXPECT_EQ(g.c.pm.st.wake_cycles, 0u);               // the fill waited for nothing
    cache_pm_queue(&g.c, 0x1000, 0, PM_EV_ENQUEUE, 20); // T2 works again: the fill ended the fail's sleep
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_ON);
    EXPECT_EQ(g.read(0x1000, 23), CACHE_HIT);
    EXPECT_EQ(g.c.pm_wait, 0);                          // woken at 20, ON at 22
    cache_pm_queue(&g.c, 0x1000, 0, PM_EV_DEQUEUE, 23);
    pm_close(&g.c.pm, 30);
    // By hand: block 0 OFF 0-1, Sleep 1-10, ON 10-10, Sleep 10-20, ON 20-23, Sleep 23-30; 7 others OFF 0-30.
    EXPECT_EQ(g.c.pm.st.residency[PM_OFF], 211u);
    EXPECT_EQ(g.c.pm.st.residency[PM_SLEEP], 26u);
    EXPECT_EQ(g.c.pm.st.residency[PM_ON], 3u);
    EXPECT_EQ(g.c.pm.st.wakes, 2u);
    EXPECT_EQ(g.c.pm.st.wake_cycles, 0u);
    // Three entries into Sleep (1, 10, 23): 3 x 2 cycles x 1 mW x 0.772 / 1 GHz = 4.632 pJ.
    EXPECT_NEAR(g.c.pm.st.transition_pj, 4.632, 1e-9);
}

// The reservation queue (spec C.3.3, C.9.6 PROPOSAL; -snooze_resq_entries): 32 reservation fails of 32
// sets take its 32 entries and sleep their lines; the 33rd set finds it full, so its line stays ON (the
// optimisation is off for it: counted); a retry of a queued set takes no entry; a fill of a queued
// set pops its entry, and the next fail is taken again. 64 sets x 2 ways, line of set s at s x 128.
TEST(Snooze, ReservationQueueFullKeepsThe33rdBlockOnAndAFillFreesAnEntry)
{
    SnoozeCache g("snooze", "N:64:128:2,L:B:m:W:L,A:4:4,4", 0, 32);
    auto line = [](int s) { return static_cast<uint64_t>(s) * 128; };
    auto block = [&g, &line](int s) { return static_cast<uint32_t>(cache_probe(&g.c, line(s), nullptr)) + 2u * s; };
    for (int s = 0; s < 33; s++) { // each line filled (Sleep), then a request for it queued (ON)
        ASSERT_EQ(cache_set_index(&g.c, line(s)), s);
        ASSERT_EQ(g.read(line(s), 1), CACHE_MISS);
        g.fill(line(s), 2);
        cache_pm_queue(&g.c, line(s), 0, PM_EV_ENQUEUE, 3);
        ASSERT_EQ(pm_get(&g.c.pm, block(s)), PM_ON) << s;
    }
    for (int s = 0; s < 32; s++) cache_pm_queue(&g.c, line(s), 0, PM_EV_RESFAIL, 4);
    EXPECT_EQ(g.c.pm_resq_n, 32);
    for (int s = 0; s < 32; s++) EXPECT_EQ(pm_get(&g.c.pm, block(s)), PM_SLEEP) << s;
    EXPECT_EQ(g.c.pm_resq_overflows, 0u);
    cache_pm_queue(&g.c, line(32), 0, PM_EV_RESFAIL, 4); // the 33rd: queue full
    EXPECT_EQ(pm_get(&g.c.pm, block(32)), PM_ON);
    EXPECT_EQ(g.c.pm_resq_overflows, 1u);
    cache_pm_queue(&g.c, line(0), 0, PM_EV_RESFAIL, 5);  // set 0 retries: already queued, no new entry
    EXPECT_EQ(g.c.pm_resq_n, 32);
    EXPECT_EQ(g.c.pm_resq_overflows, 1u);
    ASSERT_EQ(g.read(line(0) + 64 * 128, 6), CACHE_MISS); // the other way of set 0, then its fill
    g.fill(line(0) + 64 * 128, 7);
    EXPECT_EQ(g.c.pm_resq_n, 31);
    cache_pm_queue(&g.c, line(32), 0, PM_EV_RESFAIL, 8); // taken now: its line sleeps until a fill
    EXPECT_EQ(g.c.pm_resq_n, 32);
    EXPECT_EQ(pm_get(&g.c.pm, block(32)), PM_SLEEP);
    EXPECT_EQ(g.c.pm_resq_overflows, 1u);
    // 0 entries: unbounded (one flag per block, the earlier model): nothing is kept, nothing overflows.
    SnoozeCache u("snooze", "N:64:128:2,L:B:m:W:L,A:4:4,4", 0, 0);
    for (int s = 0; s < 40; s++) cache_pm_queue(&u.c, line(s), 0, PM_EV_RESFAIL, 4);
    EXPECT_EQ(u.c.pm_resq_n, 0);
    EXPECT_EQ(u.c.pm_resq_overflows, 0u);
}

// Snooze per 32-byte sector (-power_gating_sectors_*, sectored caches): a crafted sequence on a
// sectored cache of 4 sets x 2 ways (32 sector blocks, 8 mW, 1 GHz); the sector a request names
// is woken, the line's other sectors stay as they were. Block of (set 0, way 0, sector s) = s.
TEST(Snooze, PerSectorOnlyTheNamedSectorWakes)
{
    SnoozeCache g("snooze", "S:4:128:2,L:B:m:W:L,A:4:4,4", 1);
    ASSERT_EQ(g.c.pm.n, 32u);
    EXPECT_EQ(g.c.pm.count[PM_OFF], 32u);            // T1: nothing live
    EXPECT_EQ(g.read(0x1000, 1, 0x1), CACHE_MISS);   // sector 0 reserved: live, asleep
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_SLEEP);
    EXPECT_EQ(pm_get(&g.c.pm, 1), PM_OFF);
    g.fill(0x1000, 5, 0x1);                          // written (ON), nothing queued: Sleep again
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_SLEEP);
    cache_pm_queue(&g.c, 0x1000, 0, PM_EV_ENQUEUE, 10); // the whole line: only live sector 0 wakes
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_ON);
    for (uint32_t b = 1; b < 4; b++) EXPECT_EQ(pm_get(&g.c.pm, b), PM_OFF) << b;
    EXPECT_EQ(g.read(0x1000, 11, 0x1), CACHE_HIT);
    EXPECT_EQ(g.c.pm_wait, 1);                       // woken at 10, ready at 12
    cache_pm_queue(&g.c, 0x1000, 0x1, PM_EV_DEQUEUE, 11); // T4
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_SLEEP);
    EXPECT_EQ(g.read(0x1020, 20, 0x2), CACHE_MISS);  // sector 1 of the present line: reserved, Sleep
    EXPECT_EQ(pm_get(&g.c.pm, 1), PM_SLEEP);
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_SLEEP);
    uint64_t wakes = g.c.pm.st.wakes;
    cache_pm_queue(&g.c, 0x1040, 0x4, PM_EV_ENQUEUE, 25); // sector 2 holds nothing: nothing wakes
    EXPECT_EQ(g.c.pm.st.wakes, wakes);
    EXPECT_EQ(pm_get(&g.c.pm, 2), PM_OFF);
    pm_close(&g.c.pm, 30);
    // By hand: sector 0 OFF 0-1, Sleep 1-10, ON 10-11, Sleep 11-30; sector 1 OFF 0-20, Sleep 20-30;
    // the other 30 blocks OFF 0-30.
    EXPECT_EQ(g.c.pm.st.residency[PM_ON], 1u);
    EXPECT_EQ(g.c.pm.st.residency[PM_SLEEP], 38u);
    EXPECT_EQ(g.c.pm.st.residency[PM_OFF], 921u);
    EXPECT_EQ(g.c.pm.st.wakes, 1u);
    EXPECT_EQ(g.c.pm.st.wake_cycles, 1u);
    double res[PM_MODES];
    for (int m = 0; m < PM_MODES; m++) res[m] = static_cast<double>(g.c.pm.st.residency[m]);
    pm_table t = snooze_table();
    // (960 - 38 x 0.772 - 921 x 0.985) block-cycles x 0.25 mW / 1000 MHz = 5.86975 pJ.
    EXPECT_NEAR(pm_leakage_pj(&t, 8.0 / 32, 1000.0, 32, 30, res), 5.86975, 1e-9);
    // Four entries into Sleep (reserved at 1, after the fill at 5, served at 11, sector 1 at 20):
    // 4 x 2 cycles x 0.25 mW x 0.772 / 1 GHz = 1.544 pJ.
    EXPECT_NEAR(g.c.pm.st.transition_pj, 1.544, 1e-9);
}

TEST(Snooze, PerSectorOffOnANonSectoredCacheKeepsLines)
{
    SnoozeCache line("snooze", "S:4:128:2,L:B:m:W:L,A:4:4,4", 0);
    EXPECT_EQ(line.c.pm.n, 8u); // the option off: a block per line
    SnoozeCache normal("snooze", "N:4:128:2,L:B:m:W:L,A:4:4,4", 1);
    EXPECT_EQ(normal.c.pm.n, 8u); // a line cache has no sectors to gate
    EXPECT_EQ(cache_pm_blocks(8, 4, 1, 1), 32u);
    EXPECT_EQ(cache_pm_blocks(8, 4, 2, 1), 4u); // groups of lines: sectors ganged
    EXPECT_EQ(cache_pm_blocks(8, 4, 0, 1), 1u);
}

// The state-destroying variant per sector: after kernel start every sector is OFF; reading one
// finds only that sector's data lost (a real miss), the line keeps its other sector.
TEST(Snooze, PerSectorDestroyLosesOnlyTheAccessedSector)
{
    SnoozeCache g("snooze_destroy", "S:4:128:2,L:B:m:W:L,A:4:4,4", 1);
    g.read(0x1000, 1, 0x3);
    g.fill(0x1000, 5, 0x3);
    EXPECT_EQ(g.read(0x1000, 10, 0x3), CACHE_HIT);
    pm_kernel_begin(&g.c.pm, 20);
    EXPECT_EQ(g.read(0x1000, 30, 0x1), CACHE_MISS);
    EXPECT_EQ(g.c.pm.st.lost, 1u);
    uint8_t valid = 0;
    EXPECT_GE(cache_probe(&g.c, 0x1000, &valid), 0);
    EXPECT_EQ(valid, 0x2);
    EXPECT_EQ(pm_get(&g.c.pm, 0), PM_SLEEP); // reserved again for its refetch
}

// Leakage of a hand-computed Snooze sequence: one block, 100 cycles at 1 GHz, 1 mW ON.
TEST(Snooze, LeakageOfAHandComputedSequenceIsExact)
{
    Domain s("snooze", 1);           // OFF 0-20
    s.ev(0, PM_EV_ENQUEUE, 20);      // ON 20-30 (woken from OFF)
    s.ev(0, PM_EV_ALLOC, 30);        // the fill is written; the queued request is still pending
    pm_access(&s.d, 0, 30, nullptr);
    s.ev(0, PM_EV_DEQUEUE, 30);      // Sleep 30-100
    pm_close(&s.d, 100);
    double res[PM_MODES];
    for (int m = 0; m < PM_MODES; m++) res[m] = static_cast<double>(s.d.st.residency[m]);
    EXPECT_EQ(s.d.st.residency[PM_OFF], 20u);
    EXPECT_EQ(s.d.st.residency[PM_ON], 10u);
    EXPECT_EQ(s.d.st.residency[PM_SLEEP], 70u);
    pm_table t = snooze_table();
    // (10 x 1 + 70 x 0.228 + 20 x 0.015) cycles x 1 mW / 1000 MHz = 26.26 pJ.
    EXPECT_NEAR(pm_leakage_pj(&t, 1.0, 1000.0, 1, 100, res), 26.26, 1e-9);
    // One entry into Sleep: 2 cycles x 1 mW x 0.772 / 1 GHz = 1.544 pJ.
    EXPECT_NEAR(s.d.st.transition_pj, 1.544, 1e-9);
}

} // namespace
