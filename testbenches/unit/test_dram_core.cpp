// DRAM channel core: address mapping, GDDR command timing, FR-FCFS/FIFO scheduling, counters.
// Timing numbers are GTX480's -gpgpu_dram_timing_opt unless a test says otherwise:
// CCD=2 RRD=6 RCD=12 RAS=28 RP=12 RC=40 CL=12 WL=4 CDLR=5 WR=12 nbkgrp=4 CCDL=3 RTPL=2,
// burst 8 beats / 4 per command cycle = 2 cycles, 2 chips x 4 B x 8 = 64 B per burst.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "common/status.h"
#include "dram/dram_addr.h"
#include "dram/dram_core.h"
#include "gpu/gpu_config.h"
}

namespace {

const char *kGtx480Map = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS";

dram_config gtx480_cfg(int scheduler = 1, int queue = 16)
{
    dram_config c{};
    c.timing = gsim_dram_timing{16, 2, 6, 12, 28, 12, 40, 12, 4, 5, 12, 4, 3, 2};
    c.bus_width = 4;
    c.chips_per_channel = 2;
    c.burst_length = 8;
    c.data_command_ratio = 4;
    c.scheduler = scheduler;
    c.sched_queue_size = queue;
    c.return_queue_size = 116;
    c.latency = 100;
    c.addr_mapping = const_cast<char *>(kGtx480Map);
    return c;
}

struct Cmd {
    uint64_t cycle;
    dram_cmd cmd;
    uint32_t bank, row;
    bool operator==(const Cmd &o) const { return cycle == o.cycle && cmd == o.cmd && bank == o.bank && row == o.row; }
};

std::ostream &operator<<(std::ostream &os, const Cmd &c)
{
    static const char *n[] = {"NONE", "ACT", "PRE", "RD", "WR"};
    return os << n[c.cmd] << "@" << c.cycle << "(b" << c.bank << ",r" << c.row << ")";
}

struct Done {
    uintptr_t id;
    uint64_t cycle;
};

// One channel (single-channel decode) with a command trace and the completions.
struct Chan {
    dram_core d{};
    uint64_t now = 0;
    std::vector<Cmd> cmds;
    std::vector<Done> done;
    explicit Chan(const dram_config &c) { EXPECT_EQ(dram_core_init(&d, &c, 1), GTLM_ST_OK); }
    ~Chan() { dram_core_free(&d); }

    // Address of (row, bank, column in bursts) under this channel's mapping.
    uint64_t at(uint32_t row, uint32_t bank, uint32_t col = 0) const
    {
        uint64_t a = 0;
        uint32_t v[DRAM_F_N] = {0, row, bank, col, 0};
        for (int f = DRAM_F_ROW; f <= DRAM_F_COL; f++)
            for (int i = 0; i < d.map.nbits[f]; i++) a |= (uint64_t)(v[f] >> i & 1) << d.map.pos[f][i];
        return a;
    }
    int put(uint64_t addr, uintptr_t id, bool write = false, uint32_t size = 32)
    {
        dram_request r{addr, size, write ? 1 : 0, reinterpret_cast<void *>(id)};
        return dram_enqueue(&d, now, &r);
    }
    void tick()
    {
        dram_completion out[4];
        int n = dram_tick(&d, now, out, 4);
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(out[i].done_cycle, now);
            done.push_back({reinterpret_cast<uintptr_t>(out[i].cookie), now});
        }
        if (d.last_cmd != DRAM_CMD_NONE) cmds.push_back({now, d.last_cmd, d.last_bank, d.last_row});
        now++;
    }
    void run_until(uint64_t cycle)
    {
        while (now < cycle) tick();
    }
    void drain(uint64_t limit = 100000)
    {
        while (!dram_idle(&d) && now < limit) tick();
        ASSERT_TRUE(dram_idle(&d));
    }
    uint64_t done_at(uintptr_t id) const
    {
        for (const Done &x : done)
            if (x.id == id) return x.cycle;
        return UINT64_MAX;
    }
    void clear()
    {
        cmds.clear();
        done.clear();
    }
};

// ---- address mapping ------------------------------------------------------------------------

TEST(DramCore, Gtx480MappingDecodesChosenAddresses)
{
    dram_addr_map m;
    char why[128];
    ASSERT_EQ(dram_addr_map_init(&m, kGtx480Map, 6, 16, why, sizeof why), GTLM_ST_OK) << why;
    EXPECT_EQ(m.nbits[DRAM_F_ROW], 12);
    EXPECT_EQ(m.nbits[DRAM_F_BANK], 4);
    EXPECT_EQ(m.nbits[DRAM_F_COL], 6);
    EXPECT_EQ(m.nbits[DRAM_F_BURST], 6);
    struct Want {
        uint64_t addr;
        uint32_t ch, row, bank, col, burst;
    };
    // dramid@8 with 6 channels: ch = (a >> 8) % 6, local = (a >> 8) / 6 << 8 | (a & 0xff).
    for (const Want &w : {Want{0x0, 0, 0, 0, 0, 0},
                          Want{0x3f, 0, 0, 0, 0, 0x3f},
                          Want{0x40, 0, 0, 0, 1, 0},   // bit 6: lowest column bit
                          Want{0xc0, 0, 0, 0, 3, 0},
                          Want{0x100, 1, 0, 0, 0, 0},  // next 256 B: next channel
                          Want{0x5ff, 5, 0, 0, 3, 0x3f},
                          Want{0x600, 0, 0, 1, 0, 0},  // local 0x100: bit 8 is the lowest bank bit
                          Want{0x600 * 2, 0, 0, 0, 4, 0}, // local 0x200: bit 9, column bit 2
                          Want{0x6000000, 0, 256, 0, 0, 0}, // local 0x1000000 = bit 24 (row bit 8)
                          Want{0x123456789, 1, 0x8b, 9, 34, 9}}) {
        dram_addr a;
        dram_addr_decode(&m, w.addr, &a);
        EXPECT_EQ(a.channel, w.ch) << std::hex << w.addr;
        EXPECT_EQ(a.row, w.row) << std::hex << w.addr;
        EXPECT_EQ(a.bank, w.bank) << std::hex << w.addr;
        EXPECT_EQ(a.col, w.col) << std::hex << w.addr;
        EXPECT_EQ(a.burst, w.burst) << std::hex << w.addr;
    }
}

TEST(DramCore, MappingWithChannelBitsAndErrors)
{
    dram_addr_map m;
    // 4 channels from bits 9..8, 2 banks bit 10, 4 columns bits 7..6, 4 rows bits 12..11.
    ASSERT_EQ(dram_addr_map_init(&m, "RRBDDCCSSSSSS", 4, 2, nullptr, 0), GTLM_ST_OK);
    dram_addr a;
    dram_addr_decode(&m, (3u << 11) | (1u << 10) | (2u << 8) | (1u << 6) | 5, &a);
    EXPECT_EQ(a.channel, 2u);
    EXPECT_EQ(a.row, 3u);
    EXPECT_EQ(a.bank, 1u);
    EXPECT_EQ(a.col, 1u);
    EXPECT_EQ(a.burst, 5u);
    char why[128] = "";
    EXPECT_EQ(dram_addr_map_init(&m, "RRBCCX", 1, 2, why, sizeof why), GTLM_ST_ECONFIG);
    EXPECT_NE(std::string(why).find("'X'"), std::string::npos) << why;
    EXPECT_EQ(dram_addr_map_init(&m, "RRBCC", 2, 2, why, sizeof why), GTLM_ST_ECONFIG) << "2 channels, no D bits";
    EXPECT_EQ(dram_addr_map_init(&m, "dramid@x;RRBCC", 2, 2, why, sizeof why), GTLM_ST_ECONFIG);
    EXPECT_EQ(dram_addr_map_init(&m, std::string(65, 'R').c_str(), 1, 2, why, sizeof why), GTLM_ST_ECONFIG);
    // A bank field wider than the bank count wraps.
    ASSERT_EQ(dram_addr_map_init(&m, "RBBBC", 1, 4, nullptr, 0), GTLM_ST_OK);
    dram_addr_decode(&m, 0b01110, &a);
    EXPECT_EQ(a.bank, 3u);
}

// ---- timing -------------------------------------------------------------------------------

TEST(DramCore, SingleReadToClosedBankTakesRcdPlusClPlusBurst)
{
    Chan c(gtx480_cfg());
    EXPECT_EQ(dram_next_work_cycle(&c.d, 0), DRAM_NO_WORK);
    ASSERT_EQ(c.put(c.at(5, 3), 1), GTLM_ST_OK);
    EXPECT_EQ(dram_next_work_cycle(&c.d, 0), 0u);
    c.tick(); // ACT at 0
    EXPECT_EQ(dram_next_work_cycle(&c.d, 1), 12u) << "RD waits for RCD";
    c.run_until(13);
    EXPECT_EQ(dram_next_work_cycle(&c.d, 13), 26u) << "data ends RCD + CL + 2";
    c.drain();
    EXPECT_EQ(c.done_at(1), 12u + 12u + 2u);
    EXPECT_EQ(c.cmds, (std::vector<Cmd>{{0, DRAM_CMD_ACT, 3, 5}, {12, DRAM_CMD_RD, 3, 5}}));
    EXPECT_EQ(dram_next_work_cycle(&c.d, c.now), DRAM_NO_WORK);
    const dram_stats &s = c.d.st;
    EXPECT_EQ(s.reads, 1u);
    EXPECT_EQ(s.read_bursts, 1u);
    EXPECT_EQ(s.activates, 1u);
    EXPECT_EQ(s.precharges, 0u);
    EXPECT_EQ(s.row_misses, 1u);
    EXPECT_EQ(s.row_hits + s.row_conflicts, 0u);
    EXPECT_EQ(s.bus_busy_cycles, 2u);
    EXPECT_EQ(s.queue_occupancy_integral, 12u) << "queued from 0 until the RD at 12";
    EXPECT_EQ(s.latency_sum, 26u);
    EXPECT_EQ(c.d.bank_st[3].activates, 1u);
    EXPECT_EQ(c.d.bank_st[3].reads, 1u);
    EXPECT_EQ(c.d.bank_st[2].activates, 0u);
}

TEST(DramCore, LineIsTwoBurstsToOneBankCcdlApart)
{
    // Both bursts go to the same bank, hence the same bank group: CCDL (3), not CCD (2).
    Chan c(gtx480_cfg());
    ASSERT_EQ(c.put(c.at(5, 3), 1, false, 128), GTLM_ST_OK);
    c.drain();
    EXPECT_EQ(c.cmds, (std::vector<Cmd>{{0, DRAM_CMD_ACT, 3, 5}, {12, DRAM_CMD_RD, 3, 5}, {15, DRAM_CMD_RD, 3, 5}}));
    EXPECT_EQ(c.done_at(1), 29u);
    dram_config nogroups = gtx480_cfg();
    nogroups.timing.tCCDL = 0;
    Chan n(nogroups);
    ASSERT_EQ(n.put(n.at(5, 3), 1, false, 128), GTLM_ST_OK);
    n.drain();
    EXPECT_EQ(n.done_at(1), 28u) << "CCD apart without a bank-group penalty";
    EXPECT_EQ(c.d.st.read_bursts, 2u);
    EXPECT_EQ(c.d.st.bus_busy_cycles, 4u);
    // An unaligned 32 B access straddling two bursts is two bursts too.
    Chan u(gtx480_cfg());
    ASSERT_EQ(u.put(u.at(5, 3) + 48, 1, false, 32), GTLM_ST_OK);
    u.drain();
    EXPECT_EQ(u.d.st.read_bursts, 2u);
}

TEST(DramCore, RowHitsAreCcdThenClLimited)
{
    Chan c(gtx480_cfg());
    c.put(c.at(5, 3, 0), 1);
    c.put(c.at(5, 3, 1), 2); // same row, queued together: CCDL (same bank) after the first RD
    c.drain();
    EXPECT_EQ(c.done_at(1), 26u);
    EXPECT_EQ(c.done_at(2), 29u);
    EXPECT_EQ(c.d.st.row_misses, 1u);
    EXPECT_EQ(c.d.st.row_hits, 1u);
    c.run_until(40);
    c.put(c.at(5, 3, 2), 3); // row still open: CL + burst only
    c.drain();
    EXPECT_EQ(c.done_at(3), 40u + 12u + 2u);
    EXPECT_EQ(c.d.st.row_hits, 2u);
    EXPECT_EQ(c.d.st.activates, 1u);
}

TEST(DramCore, RowConflictRespectsRasAndRc)
{
    {
        Chan c(gtx480_cfg());
        c.put(c.at(1, 0), 1);
        c.put(c.at(2, 0), 2);
        c.drain();
        // PRE waits for RAS (28 > RD 12 + RTPL 2); ACT at PRE + RP = 40 = ACT + RC.
        EXPECT_EQ(c.cmds, (std::vector<Cmd>{{0, DRAM_CMD_ACT, 0, 1},
                                            {12, DRAM_CMD_RD, 0, 1},
                                            {28, DRAM_CMD_PRE, 0, 1},
                                            {40, DRAM_CMD_ACT, 0, 2},
                                            {52, DRAM_CMD_RD, 0, 2}}));
        EXPECT_EQ(c.done_at(2), 66u);
        EXPECT_EQ(c.d.st.row_conflicts, 1u);
        EXPECT_EQ(c.d.st.precharges, 1u);
    }
    {
        dram_config cfg = gtx480_cfg();
        cfg.timing.tRAS = 10; // PRE at RD + RTPL = 14, PRE + RP = 26 < RC = 40
        Chan c(cfg);
        c.put(c.at(1, 0), 1);
        c.put(c.at(2, 0), 2);
        c.drain();
        ASSERT_EQ(c.cmds.size(), 5u);
        EXPECT_EQ(c.cmds[2], (Cmd{14, DRAM_CMD_PRE, 0, 1}));
        EXPECT_EQ(c.cmds[3], (Cmd{40, DRAM_CMD_ACT, 0, 2})) << "RC-limited";
        cfg.timing.tRC = 20; // now RP-limited: 14 + 12
        Chan r(cfg);
        r.put(r.at(1, 0), 1);
        r.put(r.at(2, 0), 2);
        r.drain();
        ASSERT_EQ(r.cmds.size(), 5u);
        EXPECT_EQ(r.cmds[3], (Cmd{26, DRAM_CMD_ACT, 0, 2}));
        EXPECT_EQ(r.done_at(2), 26u + 12u + 12u + 2u);
    }
}

TEST(DramCore, TwoBanksOverlapRrdApart)
{
    Chan c(gtx480_cfg());
    c.put(c.at(1, 0), 1);
    c.put(c.at(7, 1), 2);
    c.drain();
    EXPECT_EQ(c.cmds, (std::vector<Cmd>{{0, DRAM_CMD_ACT, 0, 1},
                                        {6, DRAM_CMD_ACT, 1, 7},
                                        {12, DRAM_CMD_RD, 0, 1},
                                        {18, DRAM_CMD_RD, 1, 7}}));
    EXPECT_EQ(c.done_at(1), 26u);
    EXPECT_EQ(c.done_at(2), 32u) << "overlapped: far less than two serial accesses (52)";
    dram_config cfg = gtx480_cfg();
    cfg.timing.tRRD = 9;
    Chan r(cfg);
    r.put(r.at(1, 0), 1);
    r.put(r.at(7, 1), 2);
    r.drain();
    EXPECT_EQ(r.cmds[1], (Cmd{9, DRAM_CMD_ACT, 1, 7}));
}

// Opens rows in banks 0, 1 and 4, lets everything finish, then sends two reads at cycle 100.
uint64_t second_read_cycle(uint32_t bank_a, uint32_t bank_b, int ccdl)
{
    dram_config cfg = gtx480_cfg();
    cfg.timing.tCCDL = ccdl;
    Chan c(cfg);
    c.put(c.at(1, 0), 1);
    c.put(c.at(1, 1), 2);
    c.put(c.at(1, 4), 3);
    c.drain();
    c.run_until(100);
    c.clear();
    c.put(c.at(1, bank_a, 1), 4);
    c.put(c.at(1, bank_b, 1), 5);
    c.drain();
    EXPECT_EQ(c.cmds.size(), 2u);
    if (c.cmds.size() != 2) return 0;
    EXPECT_EQ(c.cmds[0], (Cmd{100, DRAM_CMD_RD, bank_a, 1}));
    EXPECT_EQ(c.d.st.row_hits, 2u);
    return c.cmds[1].cycle;
}

TEST(DramCore, BankGroupsUseCcdlWithinAGroupAndCcdAcross)
{
    EXPECT_EQ(second_read_cycle(0, 1, 3), 102u) << "banks 0 and 1: different groups, CCD";
    EXPECT_EQ(second_read_cycle(0, 4, 3), 103u) << "banks 0 and 4: same group (b % 4), CCDL";
    EXPECT_EQ(second_read_cycle(0, 4, 5), 105u);
    EXPECT_EQ(second_read_cycle(0, 4, 0), 102u) << "CCDL 0: no bank-group penalty";
}

TEST(DramCore, WriteToReadAndReadToWriteTurnaround)
{
    {
        Chan c(gtx480_cfg());
        c.put(c.at(1, 0), 1);
        c.put(c.at(1, 1), 2);
        c.drain();
        c.run_until(100);
        c.clear();
        c.put(c.at(1, 0, 1), 3, true); // WR 100, data 104..105
        c.put(c.at(1, 1, 1), 4);       // RD waits for data end 106 + CDLR 5
        c.drain();
        EXPECT_EQ(c.cmds, (std::vector<Cmd>{{100, DRAM_CMD_WR, 0, 1}, {111, DRAM_CMD_RD, 1, 1}}));
        EXPECT_EQ(c.done_at(3), 106u) << "write completes after WL + burst";
        EXPECT_EQ(c.done_at(4), 125u);
        EXPECT_EQ(c.d.st.writes, 1u);
        EXPECT_EQ(c.d.st.write_bursts, 1u);
        EXPECT_EQ(c.d.bank_st[0].writes, 1u);
    }
    {
        Chan c(gtx480_cfg());
        c.put(c.at(1, 0), 1);
        c.put(c.at(1, 1), 2);
        c.drain();
        c.run_until(100);
        c.clear();
        c.put(c.at(1, 0, 1), 3);       // RD 100, data 112..113
        c.put(c.at(1, 1, 1), 4, true); // WR data must start at 114: WR at 110
        c.drain();
        EXPECT_EQ(c.cmds, (std::vector<Cmd>{{100, DRAM_CMD_RD, 0, 1}, {110, DRAM_CMD_WR, 1, 1}}));
        EXPECT_EQ(c.done_at(4), 116u);
    }
}

TEST(DramCore, WriteRecoveryDelaysPrecharge)
{
    Chan c(gtx480_cfg());
    c.put(c.at(1, 0), 1, true);
    c.put(c.at(2, 0), 2);
    c.drain();
    // WR 12, data ends 18; PRE at max(RAS 28, 18 + WR 12 = 30).
    ASSERT_EQ(c.cmds.size(), 5u);
    EXPECT_EQ(c.cmds[1], (Cmd{12, DRAM_CMD_WR, 0, 1}));
    EXPECT_EQ(c.cmds[2], (Cmd{30, DRAM_CMD_PRE, 0, 1}));
    EXPECT_EQ(c.done_at(1), 18u);
}

// Row 1 open in bank 0; at 100 an older request to row 2 and a younger one to row 1 arrive.
std::vector<Cmd> reorder_case(int scheduler, Chan **keep = nullptr)
{
    static std::unique_ptr<Chan> last;
    last.reset(new Chan(gtx480_cfg(scheduler)));
    Chan &c = *last;
    c.put(c.at(1, 0), 1);
    c.drain();
    c.run_until(100);
    c.clear();
    c.put(c.at(2, 0), 10); // older, row miss (conflict)
    c.put(c.at(1, 0, 3), 11); // younger, row hit
    c.drain();
    if (keep) *keep = &c;
    return c.cmds;
}

TEST(DramCore, FrFcfsServesAYoungerRowHitFirstFifoDoesNot)
{
    Chan *c = nullptr;
    std::vector<Cmd> fr = reorder_case(1, &c);
    EXPECT_EQ(fr, (std::vector<Cmd>{{100, DRAM_CMD_RD, 0, 1},
                                    {102, DRAM_CMD_PRE, 0, 1},
                                    {114, DRAM_CMD_ACT, 0, 2},
                                    {126, DRAM_CMD_RD, 0, 2}}));
    EXPECT_EQ(c->done_at(11), 114u);
    EXPECT_EQ(c->done_at(10), 140u);
    EXPECT_EQ(c->d.st.row_hits, 1u);
    EXPECT_EQ(c->d.st.row_conflicts, 1u);

    std::vector<Cmd> fifo = reorder_case(0, &c);
    EXPECT_EQ(fifo, (std::vector<Cmd>{{100, DRAM_CMD_PRE, 0, 1},
                                      {112, DRAM_CMD_ACT, 0, 2},
                                      {124, DRAM_CMD_RD, 0, 2},
                                      {140, DRAM_CMD_PRE, 0, 2},
                                      {152, DRAM_CMD_ACT, 0, 1},
                                      {164, DRAM_CMD_RD, 0, 1}}));
    EXPECT_EQ(c->done_at(10), 138u);
    EXPECT_EQ(c->done_at(11), 178u);
    EXPECT_EQ(c->d.st.row_conflicts, 2u);
    EXPECT_EQ(c->d.st.row_hits, 0u);
}

TEST(DramCore, FrFcfsDoesNotPrechargeARowAQueuedRequestStillHits)
{
    Chan c(gtx480_cfg(1));
    c.put(c.at(1, 0), 1, false, 128);
    c.put(c.at(2, 0), 2);
    c.put(c.at(1, 0, 4), 3);
    c.drain();
    // Both row-1 requests are served (3 RDs) before the PRE.
    ASSERT_EQ(c.cmds.size(), 7u);
    EXPECT_EQ(c.cmds[1].cmd, DRAM_CMD_RD);
    EXPECT_EQ(c.cmds[2].cmd, DRAM_CMD_RD);
    EXPECT_EQ(c.cmds[2], (Cmd{15, DRAM_CMD_RD, 0, 1}));
    EXPECT_EQ(c.cmds[3], (Cmd{18, DRAM_CMD_RD, 0, 1}));
    EXPECT_EQ(c.cmds[4], (Cmd{28, DRAM_CMD_PRE, 0, 1}));
    EXPECT_LT(c.done_at(3), c.done_at(2));
}

TEST(DramCore, FullQueueRefusesUntilASlotFrees)
{
    Chan c(gtx480_cfg(1, 4));
    for (uintptr_t i = 0; i < 4; i++) EXPECT_EQ(c.put(c.at(1, (uint32_t)i), i), GTLM_ST_OK);
    EXPECT_FALSE(dram_can_accept(&c.d));
    EXPECT_EQ(c.put(c.at(1, 5), 99), DRAM_QUEUE_FULL);
    EXPECT_EQ(c.d.st.refused, 1u);
    EXPECT_EQ(c.d.st.reads, 4u);
    // The slot frees at the first RD (cycle 12), not when the data returns.
    c.run_until(12);
    EXPECT_EQ(c.put(c.at(1, 5), 99), DRAM_QUEUE_FULL);
    c.tick();
    EXPECT_EQ(dram_queue_length(&c.d), 3);
    EXPECT_EQ(c.put(c.at(1, 5), 99), GTLM_ST_OK);
    c.drain();
    EXPECT_EQ(c.done.size(), 5u);
    dram_request zero{0, 0, 0, nullptr};
    EXPECT_EQ(dram_enqueue(&c.d, c.now, &zero), GTLM_ST_EINVAL);
    EXPECT_EQ(dram_enqueue(&c.d, 0, &zero), GTLM_ST_EINVAL) << "time went backwards";
}

TEST(DramCore, QueueOccupancyIntegralCountsQueuedCycles)
{
    Chan c(gtx480_cfg());
    c.put(c.at(1, 0), 1);
    c.put(c.at(1, 1), 2);
    c.drain();
    // Request 1 queued 0..12 (RD at 12), request 2 queued 0..18.
    EXPECT_EQ(c.d.st.queue_occupancy_integral, 12u + 18u);
}

// ---- randomized: every command legal, idle skipping identical to ticking every cycle ---------

struct Checker {
    gsim_dram_timing t;
    int bc;
    std::vector<int64_t> open, last_act, last_pre, last_rd, last_wr_end;
    int64_t last_act_any = -1000, last_col_any = -1000, bus_free = 0, wr_end_any = -1000;
    std::vector<int64_t> grp_col;
    explicit Checker(const dram_config &c) : t(c.timing), bc(c.burst_length / c.data_command_ratio)
    {
        open.assign(t.nbk, -1);
        last_act.assign(t.nbk, -1000);
        last_pre.assign(t.nbk, -1000);
        last_rd.assign(t.nbk, -1000);
        last_wr_end.assign(t.nbk, -1000);
        grp_col.assign(t.nbkgrp, -1000);
    }
    void check(const Cmd &c)
    {
        int64_t now = (int64_t)c.cycle;
        int b = (int)c.bank;
        switch (c.cmd) {
        case DRAM_CMD_ACT:
            EXPECT_EQ(open[b], -1) << c;
            EXPECT_GE(now, last_pre[b] + t.tRP) << c;
            EXPECT_GE(now, last_act[b] + t.tRC) << c;
            EXPECT_GE(now, last_act_any + t.tRRD) << c;
            open[b] = c.row;
            last_act[b] = last_act_any = now;
            break;
        case DRAM_CMD_PRE:
            EXPECT_NE(open[b], -1) << c;
            EXPECT_GE(now, last_act[b] + t.tRAS) << c;
            EXPECT_GE(now, last_rd[b] + t.tRTPL) << c;
            EXPECT_GE(now, last_wr_end[b] + t.tWR) << c;
            open[b] = -1;
            last_pre[b] = now;
            break;
        default: {
            bool rd = c.cmd == DRAM_CMD_RD;
            EXPECT_EQ(open[b], (int64_t)c.row) << c;
            EXPECT_GE(now, last_act[b] + t.tRCD) << c;
            EXPECT_GE(now, last_col_any + t.tCCD) << c;
            EXPECT_GE(now, grp_col[b % t.nbkgrp] + std::max(t.tCCD, t.tCCDL)) << c;
            int64_t start = now + (rd ? t.CL : t.WL);
            EXPECT_GE(start, bus_free) << c;
            if (rd) {
                EXPECT_GE(now, wr_end_any + t.tCDLR) << c;
                last_rd[b] = now;
            } else {
                last_wr_end[b] = wr_end_any = start + bc;
            }
            bus_free = start + bc;
            last_col_any = grp_col[b % t.nbkgrp] = now;
        }
        }
    }
};

std::vector<Done> random_run(int scheduler, unsigned seed, bool skip, std::vector<Cmd> *cmds_out, dram_stats *st)
{
    Chan c(gtx480_cfg(scheduler, 8));
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> arrivals;
    uint64_t t = 0;
    for (int i = 0; i < 300; i++) {
        t += rng() % 9;
        arrivals.push_back(t);
    }
    std::mt19937_64 arng(seed * 7 + 1);
    size_t next = 0;
    while ((next < arrivals.size() || !dram_idle(&c.d)) && c.now < 1000000) {
        while (next < arrivals.size() && arrivals[next] <= c.now) {
            uint32_t bank = (uint32_t)(arng() % 4) * 3, row = (uint32_t)(arng() % 3), col = (uint32_t)(arng() % 32);
            bool wr = arng() % 4 == 0;
            uint32_t size = arng() % 2 ? 128 : 32;
            if (c.put(c.at(row, bank, col), next, wr, size) != GTLM_ST_OK) break; // retry next cycle
            next++;
        }
        c.tick();
        if (skip) {
            uint64_t w = dram_next_work_cycle(&c.d, c.now);
            uint64_t a = next < arrivals.size() ? std::max(arrivals[next], c.now) : DRAM_NO_WORK;
            uint64_t to = std::min(w, a);
            if (to != DRAM_NO_WORK) c.now = to;
        }
    }
    EXPECT_TRUE(dram_idle(&c.d));
    if (cmds_out) *cmds_out = c.cmds;
    if (st) *st = c.d.st;
    return c.done;
}

TEST(DramCore, RandomTrafficObeysEveryConstraintAndIdleSkippingChangesNothing)
{
    for (int sched = 0; sched <= 1; sched++) {
        for (unsigned seed = 1; seed <= 4; seed++) {
            std::vector<Cmd> cmds, cmds_skip;
            dram_stats st{}, st_skip{};
            std::vector<Done> d1 = random_run(sched, seed, false, &cmds, &st);
            std::vector<Done> d2 = random_run(sched, seed, true, &cmds_skip, &st_skip);
            ASSERT_EQ(d1.size(), 300u);
            std::vector<int> seen(300, 0);
            for (const Done &x : d1) seen.at(x.id)++;
            for (int n : seen) EXPECT_EQ(n, 1);
            ASSERT_EQ(d2.size(), d1.size());
            for (size_t i = 0; i < d1.size(); i++) {
                EXPECT_EQ(d1[i].id, d2[i].id);
                EXPECT_EQ(d1[i].cycle, d2[i].cycle);
            }
            EXPECT_EQ(cmds, cmds_skip);
            EXPECT_EQ(st.queue_occupancy_integral, st_skip.queue_occupancy_integral);
            EXPECT_EQ(st.row_hits + st.row_misses + st.row_conflicts, 300u);
            EXPECT_EQ(st.activates, st.row_misses + st.row_conflicts) << "every miss/conflict opens one row";
            EXPECT_EQ(st.bus_busy_cycles, 2 * (st.read_bursts + st.write_bursts));
            Checker chk(gtx480_cfg());
            for (const Cmd &c : cmds) chk.check(c);
            for (size_t i = 1; i < cmds.size(); i++) EXPECT_LT(cmds[i - 1].cycle, cmds[i].cycle);
            if (::testing::Test::HasFailure()) return;
        }
    }
}

TEST(DramCore, FrFcfsBeatsFifoOnRowLocality)
{
    dram_stats fifo{}, fr{};
    random_run(0, 9, true, nullptr, &fifo);
    random_run(1, 9, true, nullptr, &fr);
    EXPECT_GT(fr.row_hits, fifo.row_hits);
    EXPECT_LT(fr.latency_sum, fifo.latency_sum);
}

TEST(DramCore, UncollectedCompletionsWaitAndHoldTheChannel)
{
    Chan c(gtx480_cfg(1, 64));
    dram_core &d = c.d;
    for (uintptr_t i = 0; i < 40; i++) {
        dram_request r{c.at(3, 2, (uint32_t)i), 32, 0, reinterpret_cast<void *>(i)}; // one row, 40 columns
        ASSERT_EQ(dram_enqueue(&d, 0, &r), GTLM_ST_OK);
    }
    dram_completion out[64];
    for (uint64_t cyc = 0; cyc < 500; cyc++) EXPECT_EQ(dram_tick(&d, cyc, out, 0), 0) << "max_out 0 returns nothing";
    // The in-flight ring is bounded: the channel stopped issuing instead of overflowing it.
    EXPECT_EQ(d.fly_n, d.fly_cap);
    EXPECT_GT(dram_queue_length(&d), 0);
    EXPECT_EQ(dram_next_work_cycle(&d, 500), 500u) << "completions are waiting";
    int got = dram_tick(&d, 500, out, 1);
    ASSERT_EQ(got, 1);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(out[0].cookie), 0u);
    EXPECT_EQ(out[0].done_cycle, 26u);
    EXPECT_EQ(out[0].enqueue_cycle, 0u);
    std::vector<uintptr_t> order{0};
    for (uint64_t cyc = 501; !dram_idle(&d) && cyc < 5000; cyc++) {
        int n = dram_tick(&d, cyc, out, 64);
        for (int i = 0; i < n; i++) order.push_back(reinterpret_cast<uintptr_t>(out[i].cookie));
    }
    ASSERT_EQ(order.size(), 40u);
    for (uintptr_t i = 0; i < 40; i++) EXPECT_EQ(order[i], i) << "row hits in age order";
}

// ---- bandwidth --------------------------------------------------------------------------

struct LoadedCfg {
    int rc = 0;
    std::string err;
    gtlm_config cfg{};
};

void load_config(const char *name, LoadedCfg &out)
{
    opt_registry reg;
    opt_registry_init(&reg);
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    out.rc = gtlm_config_register(&reg, &out.cfg, &err);
    std::string path = std::string(GTLM_SOURCE_DIR) + "/configs/" + name;
    if (out.rc == 0) out.rc = opt_parse_file(&reg, path.c_str(), &err, &warn);
    out.err = strbuf_str(&err);
    opt_registry_free(&reg); // frees the strings inside cfg: only scalars are used below
    strbuf_free(&err);
    strbuf_free(&warn);
}

TEST(DramCore, PeakBandwidthFromConfiguration)
{
    dram_config g = gtx480_cfg();
    EXPECT_NEAR(dram_peak_bandwidth_gbps(&g, 924.0), 29.568, 1e-9);
    EXPECT_NEAR(6 * dram_peak_bandwidth_gbps(&g, 924.0), 177.4, 0.05);

    LoadedCfg gtx, lb;
    load_config("gtx480.config", gtx);
    ASSERT_EQ(gtx.rc, 0) << gtx.err;
    double per = dram_peak_bandwidth_gbps(&gtx.cfg.dram, gtx.cfg.gpu.clocks.dram_mhz);
    EXPECT_NEAR(per, 29.57, 0.005);
    EXPECT_NEAR(gtx.cfg.gpu.n_mem * per, 177.4, 0.05);

    load_config("gtx980-linebacker.config", lb);
    ASSERT_EQ(lb.rc, 0) << lb.err;
    double total = lb.cfg.gpu.n_mem * dram_peak_bandwidth_gbps(&lb.cfg.dram, lb.cfg.gpu.clocks.dram_mhz);
    EXPECT_NEAR(total, 352.5, 352.5 * 0.001);
}

TEST(DramCore, SustainedStreamReachesPeakBusUtilisation)
{
    // Row hits across banks back to back: after the first ACTs the bus is busy every cycle.
    Chan c(gtx480_cfg(1, 16));
    uintptr_t id = 0;
    for (uint32_t b = 0; b < 4; b++) c.put(c.at(1, b), id++);
    c.drain();
    uint64_t start = c.now, bus0 = c.d.st.bus_busy_cycles;
    for (int i = 0; i < 64; i++) {
        while (!dram_can_accept(&c.d)) c.tick();
        c.put(c.at(1, (uint32_t)(i % 4), (uint32_t)(i / 4)), id++, false, 128);
    }
    c.drain();
    double util = double(c.d.st.bus_busy_cycles - bus0) / double(c.now - start);
    EXPECT_EQ(c.d.st.bus_busy_cycles - bus0, 64u * 4u);
    EXPECT_GT(util, 0.9) << "CL + burst startup only";
}

TEST(DramCore, InitRejectsBadConfiguration)
{
    dram_core d;
    dram_config c = gtx480_cfg();
    c.burst_length = 0;
    EXPECT_EQ(dram_core_init(&d, &c, 1), GTLM_ST_ECONFIG);
    c = gtx480_cfg();
    EXPECT_EQ(dram_core_init(&d, &c, 6), GTLM_ST_OK) << "dramid@8 serves 6 channels";
    dram_addr a;
    dram_core_decode(&d, 0x100, &a);
    EXPECT_EQ(a.channel, 1u);
    dram_core_free(&d);
    c.addr_mapping = const_cast<char *>("RRRRBBBBCCCC");
    EXPECT_EQ(dram_core_init(&d, &c, 6), GTLM_ST_ECONFIG);
}

} // namespace
