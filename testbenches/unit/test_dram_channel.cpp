// DRAM channel wrapper: -dram_latency queue in front of the core, return queue behind it.
// Timing used throughout (distinct RCD, RP, CL so that each difference names one parameter):
//   nbk=16:CCD=2:RRD=6:RCD=10:RAS=28:RP=7:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2,
// burst 8 beats / 4 per command clock = 2 cycles; -dram_latency 10 core cycles at 700 MHz core,
// 924 MHz DRAM: ceil(10 * 924 / 700) = ceil(13.2) = 14 DRAM cycles.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "common/status.h"
#include "dram/dram_channel.h"
}

namespace {

const char *kTiming = "nbk=16:CCD=2:RRD=6:RCD=10:RAS=28:RP=7:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2";
const char *kMap = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";
constexpr uint64_t kLat = 14, kRCD = 10, kRP = 7, kCL = 12, kWL = 4, kBurst = 2;

dram_config test_cfg(int queue = 16, int return_queue = 116)
{
    dram_config c{};
    char err[128] = "";
    EXPECT_EQ(gsim_dram_timing_parse(kTiming, &c.timing, err, sizeof err), 0) << err;
    c.bus_width = 4;
    c.chips_per_channel = 2;
    c.burst_length = 8;
    c.data_command_ratio = 4;
    c.scheduler = 1;
    c.sched_queue_size = queue;
    c.return_queue_size = return_queue;
    c.latency = 10;
    c.addr_mapping = const_cast<char *>(kMap);
    return c;
}

struct Rsp {
    uintptr_t id;
    uint64_t ready, popped;
};

struct Chan {
    dram_channel ch{};
    std::vector<Rsp> rsps;
    explicit Chan(const dram_config &c) { EXPECT_EQ(dram_channel_init(&ch, &c, 1, 700.0, 924.0), GTLM_ST_OK); }
    ~Chan() { dram_channel_free(&ch); }

    uint64_t at(uint32_t row, uint32_t bank, uint32_t col = 0) const
    {
        const dram_addr_map &m = ch.core.map;
        uint64_t a = 0;
        uint32_t v[DRAM_F_N] = {0, row, bank, col, 0};
        for (int f = DRAM_F_ROW; f <= DRAM_F_COL; f++)
            for (int i = 0; i < m.nbits[f]; i++) a |= (uint64_t)(v[f] >> i & 1) << m.pos[f][i];
        return a;
    }
    int push(uint64_t cycle, uint64_t addr, uintptr_t id, bool write = false)
    {
        dram_request r{addr, 32, write ? 1 : 0, reinterpret_cast<void *>(id)};
        return dram_channel_push(&ch, cycle, &r);
    }
    void pop_all(uint64_t cycle)
    {
        while (const dram_channel_rsp *r = dram_channel_rsp_peek(&ch)) {
            rsps.push_back({reinterpret_cast<uintptr_t>(r->cookie), r->ready_cycle, cycle});
            dram_channel_rsp_pop(&ch, cycle);
        }
    }
    // Ticks only at the cycles next_work names (idle skipping, as the clock domain does),
    // popping every response the cycle it appears, until cycle `end` or until idle.
    uint64_t run(uint64_t from, uint64_t end = UINT64_MAX)
    {
        uint64_t c = from;
        for (;;) {
            uint64_t w = dram_channel_next_work(&ch, c);
            if (w == DRAM_NO_WORK || w >= end) return c;
            dram_channel_tick(&ch, w);
            pop_all(w);
            c = w + 1;
        }
    }
    // Latency of one isolated access pushed at `cycle` (the channel must be idle).
    uint64_t lone(uint64_t cycle, uint64_t addr, bool write = false)
    {
        rsps.clear();
        EXPECT_EQ(push(cycle, addr, 1, write), GTLM_ST_OK);
        run(cycle);
        EXPECT_EQ(rsps.size(), 1u);
        EXPECT_FALSE(dram_channel_busy(&ch));
        return rsps.empty() ? 0 : rsps[0].ready - cycle;
    }
};

TEST(DramChannelTest, CoreCyclesConvertWithCeiling)
{
    EXPECT_EQ(dram_cycles_from_core(100, 924.0, 700.0), 132u) << "92400 / 700 is exactly 132";
    EXPECT_EQ(dram_cycles_from_core(10, 924.0, 700.0), 14u) << "13.2 rounds up";
    EXPECT_EQ(dram_cycles_from_core(130, 1377.0, 1126.0), 159u) << "158.98 rounds up";
    EXPECT_EQ(dram_cycles_from_core(7, 700.0, 700.0), 7u);
    EXPECT_EQ(dram_cycles_from_core(0, 924.0, 700.0), 0u);
}

TEST(DramChannelTest, LoneReadTakesLatencyRcdClAndBurst)
{
    Chan c(test_cfg());
    EXPECT_EQ(c.ch.latency, kLat);
    EXPECT_EQ(dram_channel_next_work(&c.ch, 0), DRAM_NO_WORK);
    ASSERT_EQ(c.push(5, c.at(5, 3), 7), GTLM_ST_OK);
    EXPECT_EQ(dram_channel_next_work(&c.ch, 6), 5u + kLat) << "nothing to do inside the latency";
    c.run(6);
    ASSERT_EQ(c.rsps.size(), 1u);
    EXPECT_EQ(c.rsps[0].id, 7u);
    EXPECT_EQ(c.rsps[0].ready, 5 + kLat + kRCD + kCL + kBurst); // 43
    EXPECT_EQ(c.ch.st.completed, 1u);
    EXPECT_EQ(c.ch.st.latency_sum, kLat + kRCD + kCL + kBurst);
    EXPECT_EQ(c.ch.st.sched_wait_cycles, 0u);
    EXPECT_EQ(c.ch.core.st.row_misses, 1u);
    EXPECT_EQ(c.ch.core.st.reads, 1u);
    EXPECT_EQ(dram_channel_next_work(&c.ch, 44), DRAM_NO_WORK);
}

TEST(DramChannelTest, RowHitMissAndConflictDifferByRcdAndRp)
{
    Chan c(test_cfg());
    uint64_t miss = c.lone(0, c.at(5, 3, 0));           // ACT, RD
    uint64_t hit = c.lone(200, c.at(5, 3, 1));          // RD to the open row
    uint64_t conflict = c.lone(400, c.at(9, 3, 0));     // PRE, ACT, RD
    uint64_t write_hit = c.lone(600, c.at(9, 3, 2), true); // WR to the open row
    EXPECT_EQ(miss, kLat + kRCD + kCL + kBurst);
    EXPECT_EQ(hit, kLat + kCL + kBurst);
    EXPECT_EQ(conflict, kLat + kRP + kRCD + kCL + kBurst);
    EXPECT_EQ(write_hit, kLat + kWL + kBurst);
    EXPECT_EQ(miss - hit, kRCD);
    EXPECT_EQ(conflict - miss, kRP);
    const dram_stats &s = c.ch.core.st;
    EXPECT_EQ(s.row_misses, 1u);
    EXPECT_EQ(s.row_hits, 2u);
    EXPECT_EQ(s.row_conflicts, 1u);
    EXPECT_EQ(s.activates, 2u);
    EXPECT_EQ(s.precharges, 1u);
    EXPECT_EQ(s.reads, 3u);
    EXPECT_EQ(s.writes, 1u);
    EXPECT_EQ(c.ch.st.latency_sum, miss + hit + conflict + write_hit);
}

// Six reads to one row, pushed together, with a return queue of 2 that nobody drains until
// cycle 100. They enter the scheduler one per cycle at 14..19 (waits 0+1+...+5 = 15); ACT at 14,
// RDs every max(CCD, CCDL) = 3 cycles from 14 + RCD = 24: 24, 27, ..., 39; data ends 12 + 2 later:
// 38, 41, 44, 47, 50, 53. Only the first two enter the return queue; the rest stay in the core.
TEST(DramChannelTest, FullReturnQueueHoldsCompletionsWithoutLoss)
{
    Chan c(test_cfg(16, 2));
    for (uintptr_t i = 0; i < 6; i++) ASSERT_EQ(c.push(0, c.at(5, 3, (uint32_t)i), i), GTLM_ST_OK);
    // Tick (with idle skipping) but do not pop.
    uint64_t cyc = 0;
    for (;;) {
        uint64_t w = dram_channel_next_work(&c.ch, cyc);
        if (w == DRAM_NO_WORK) break;
        ASSERT_LT(w, 100u);
        dram_channel_tick(&c.ch, w);
        cyc = w + 1;
    }
    EXPECT_EQ(cyc, 42u) << "the last tick filled the return queue at 41; then nothing to do until a pop";
    EXPECT_EQ(c.ch.st.sched_wait_cycles, 15u);
    ASSERT_EQ(dram_channel_rsp_count(&c.ch), 2);
    EXPECT_EQ(c.ch.core.fly_n, 4) << "completions wait inside the core";
    EXPECT_EQ(c.ch.core.st.read_bursts, 6u) << "every command still issued";
    EXPECT_TRUE(dram_channel_busy(&c.ch));
    strbuf sb;
    strbuf_init(&sb);
    dram_channel_describe(&c.ch, &sb);
    EXPECT_EQ(std::string(strbuf_str(&sb)),
              "latency queue 0/30, scheduler queue 0/16, in flight 4, return queue 2/2\n");
    strbuf_free(&sb);
    // Drain two per cycle from 100: pop what is there, then tick (which refills the queue).
    for (uint64_t t = 100; t < 103; t++) {
        c.pop_all(t);
        EXPECT_EQ(dram_channel_next_work(&c.ch, t), t < 102 ? t : DRAM_NO_WORK);
        dram_channel_tick(&c.ch, t);
    }
    ASSERT_EQ(c.rsps.size(), 6u);
    const uint64_t ready[6] = {38, 41, 100, 100, 101, 101};
    for (uintptr_t i = 0; i < 6; i++) {
        EXPECT_EQ(c.rsps[i].id, i) << "each once, in completion order";
        EXPECT_EQ(c.rsps[i].ready, ready[i]) << i;
    }
    // Full from 41 to the pop at 100, refilled by the ticks at 100 and 101, popped at 101 and 102.
    EXPECT_EQ(c.ch.st.return_full_cycles, (100u - 41u) + 1u + 1u);
    EXPECT_EQ(c.ch.st.completed, 6u);
    EXPECT_FALSE(dram_channel_busy(&c.ch));
}

// The latency queue holds L + scheduler-queue entries; a full one refuses pushes until its head
// moves into the scheduler.
TEST(DramChannelTest, FullLatencyQueueRefusesThenAccepts)
{
    Chan c(test_cfg(4));
    ASSERT_EQ(c.ch.lq_cap, (int)kLat + 4);
    for (uintptr_t i = 0; i < kLat + 4; i++) ASSERT_EQ(c.push(0, c.at(1, (uint32_t)(i % 16), 0), i), GTLM_ST_OK);
    EXPECT_FALSE(dram_channel_can_accept(&c.ch));
    EXPECT_EQ(c.push(0, c.at(2, 0), 99), DRAM_QUEUE_FULL);
    EXPECT_EQ(c.ch.st.push_refused, 1u);
    dram_channel_tick(&c.ch, kLat - 1);
    EXPECT_FALSE(dram_channel_can_accept(&c.ch)) << "nothing ready before the latency";
    dram_channel_tick(&c.ch, kLat);
    EXPECT_TRUE(dram_channel_can_accept(&c.ch));
    ASSERT_EQ(c.push(kLat, c.at(2, 0), 99), GTLM_ST_OK);
    c.run(kLat + 1);
    ASSERT_EQ(c.rsps.size(), kLat + 4 + 1);
    std::vector<int> seen(100, 0);
    for (const Rsp &r : c.rsps) seen[r.id]++;
    for (uintptr_t i = 0; i < kLat + 4; i++) EXPECT_EQ(seen[i], 1) << i;
    EXPECT_EQ(seen[99], 1);
}

TEST(DramChannelTest, RejectsBadInput)
{
    Chan c(test_cfg());
    dram_request r{0, 0, 0, nullptr};
    EXPECT_EQ(dram_channel_push(&c.ch, 0, &r), GTLM_ST_EINVAL);
    EXPECT_EQ(dram_channel_push(&c.ch, 0, nullptr), GTLM_ST_EINVAL);
    dram_config bad = test_cfg();
    bad.latency = -1;
    dram_channel ch;
    EXPECT_EQ(dram_channel_init(&ch, &bad, 1, 700.0, 924.0), GTLM_ST_ECONFIG);
}

} // namespace
