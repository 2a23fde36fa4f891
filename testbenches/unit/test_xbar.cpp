// Crossbar core: serialisation, latency, arbitration, back-pressure, ordering.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <vector>

extern "C" {
#include "noc/xbar.h"
}

namespace {

xbar_params params(int n_in, int n_out, int arbiter = XBAR_RR, int lat = 1, int in_lim = 8, int out_lim = 8,
                   int flit = 32)
{
    xbar_params p{};
    p.n_in = n_in;
    p.n_out = n_out;
    p.flit_size = flit;
    p.in_buffer_limit = in_lim;
    p.out_buffer_limit = out_lim;
    p.latency = lat;
    p.arbiter = arbiter;
    return p;
}

struct Delivery {
    int out;
    uint64_t cycle;
    xbar_pkt pkt;
};

// Ticks cycles [from, to), popping every ready packet each cycle after the tick.
std::vector<Delivery> run(xbar *x, uint64_t from, uint64_t to)
{
    std::vector<Delivery> d;
    for (uint64_t c = from; c < to; c++) {
        xbar_tick(x, c);
        for (int o = 0; o < x->p.n_out; o++) {
            xbar_pkt p;
            while (xbar_pop(x, o, c, &p)) d.push_back({o, c, p});
        }
    }
    return d;
}

TEST(Xbar, InitRejectsBadParams)
{
    xbar x;
    xbar_params p = params(2, 2);
    p.flit_size = 0;
    EXPECT_EQ(xbar_init(&x, &p), -1);
    p = params(2, 2);
    p.arbiter = 2;
    EXPECT_EQ(xbar_init(&x, &p), -1);
    p = params(0, 2);
    EXPECT_EQ(xbar_init(&x, &p), -1);
    p = params(2, 2, XBAR_RR, -1);
    EXPECT_EQ(xbar_init(&x, &p), -1);
}

TEST(Xbar, ParamsFromConfig)
{
    noc_config c{};
    c.flit_size = 40;
    c.in_buffer_limit = 64;
    c.out_buffer_limit = 32;
    c.latency = 5;
    c.arbiter = 1;
    xbar_params p;
    xbar_params_from_config(&c, 15, 24, &p);
    EXPECT_EQ(p.n_in, 15);
    EXPECT_EQ(p.n_out, 24);
    EXPECT_EQ(p.flit_size, 40);
    EXPECT_EQ(p.in_buffer_limit, 64);
    EXPECT_EQ(p.out_buffer_limit, 32);
    EXPECT_EQ(p.latency, 5);
    EXPECT_EQ(p.arbiter, XBAR_ISLIP);
}

TEST(Xbar, SinglePacketExactLatency)
{
    for (int arb : {XBAR_RR, XBAR_ISLIP}) {
        xbar x;
        xbar_params p = params(3, 2, arb, 3);
        ASSERT_EQ(xbar_init(&x, &p), 0);
        EXPECT_EQ(xbar_flits_of(&x, 128), 4);
        EXPECT_EQ(xbar_flits_of(&x, 129), 5);
        EXPECT_EQ(xbar_flits_of(&x, 0), 1);
        EXPECT_TRUE(xbar_is_idle(&x));
        EXPECT_EQ(xbar_next_work(&x, 10), XBAR_NEVER);
        ASSERT_EQ(xbar_push(&x, 2, 1, 128, 0xabc, 10), 0);
        EXPECT_FALSE(xbar_is_idle(&x));
        EXPECT_EQ(xbar_next_work(&x, 10), 10u);
        // 4 flits cross in cycles 10..13, + 3 latency: ready at 10 + 4 + 3 = 17
        for (uint64_t c = 10; c <= 13; c++) {
            xbar_tick(&x, c);
            EXPECT_EQ(x.flits, c - 9);
        }
        EXPECT_EQ(xbar_next_work(&x, 14), 17u); // nothing to tick, wait for the packet
        xbar_pkt k;
        EXPECT_FALSE(xbar_pop(&x, 1, 16, &k));
        EXPECT_FALSE(xbar_pop(&x, 0, 17, &k));
        ASSERT_TRUE(xbar_pop(&x, 1, 17, &k));
        EXPECT_EQ(k.cookie, 0xabcu);
        EXPECT_EQ(k.bytes, 128u);
        EXPECT_EQ(k.flits, 4);
        EXPECT_EQ(k.in, 2);
        EXPECT_EQ(k.push_cycle, 10u);
        EXPECT_EQ(k.ready_cycle, 17u);
        EXPECT_EQ(x.packets_in, 1u);
        EXPECT_EQ(x.packets_out, 1u);
        EXPECT_EQ(x.latency_sum, 7u);
        EXPECT_TRUE(xbar_is_idle(&x));
        EXPECT_EQ(x.in_stall[2], 0u);
        xbar_free(&x);
    }
}

TEST(Xbar, ZeroLatencyOneFlit)
{
    xbar x;
    xbar_params p = params(1, 1, XBAR_RR, 0);
    ASSERT_EQ(xbar_init(&x, &p), 0);
    ASSERT_EQ(xbar_push(&x, 0, 0, 8, 1, 0), 0);
    auto d = run(&x, 0, 5);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].cycle, 1u);
    xbar_free(&x);
}

TEST(Xbar, BackToBackPacketsStreamOneFlitPerCycle)
{
    xbar x;
    xbar_params p = params(1, 1, XBAR_RR, 2);
    ASSERT_EQ(xbar_init(&x, &p), 0);
    for (int i = 0; i < 6; i++) ASSERT_EQ(xbar_push(&x, 0, 0, 32, i, 0), 0);
    auto d = run(&x, 0, 20);
    ASSERT_EQ(d.size(), 6u);
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(d[i].pkt.cookie, (uint64_t)i);
        EXPECT_EQ(d[i].cycle, 3u + i); // crossed in cycle i, ready i + 1 + 2
    }
    xbar_free(&x);
}

TEST(Xbar, TwoInputsToOneOutputAlternate)
{
    for (int arb : {XBAR_RR, XBAR_ISLIP}) {
        xbar x;
        xbar_params p = params(2, 1, arb, 1);
        ASSERT_EQ(xbar_init(&x, &p), 0);
        for (int k = 0; k < 3; k++) {
            ASSERT_EQ(xbar_push(&x, 0, 0, 64, 100 + k, 0), 0); // 2 flits each
            ASSERT_EQ(xbar_push(&x, 1, 0, 64, 200 + k, 0), 0);
        }
        auto d = run(&x, 0, 30);
        ASSERT_EQ(d.size(), 6u);
        const uint64_t want[] = {100, 200, 101, 201, 102, 202};
        for (int i = 0; i < 6; i++) {
            EXPECT_EQ(d[i].pkt.cookie, want[i]) << "arb " << arb << " i " << i;
            // packet i crosses in cycles 2i, 2i+1: ready 2i + 1 + 1 + 1
            EXPECT_EQ(d[i].cycle, 2u * i + 3) << i;
        }
        // input 0 sends in 0,1,4,5,8,9 and holds flits in cycles 0..9: 4 stall cycles;
        // input 1 sends in 2,3,6,7,10,11 and holds flits in 0..11: 6 stall cycles
        EXPECT_EQ(x.in_stall[0], 4u);
        EXPECT_EQ(x.in_stall[1], 6u);
        EXPECT_EQ(x.out_stall[0], 0u);
        EXPECT_EQ(x.flits, 12u);
        xbar_free(&x);
    }
}

TEST(Xbar, DisjointPairsRunInParallel)
{
    xbar x;
    xbar_params p = params(2, 2, XBAR_RR, 1);
    ASSERT_EQ(xbar_init(&x, &p), 0);
    ASSERT_EQ(xbar_push(&x, 0, 1, 96, 1, 0), 0);
    ASSERT_EQ(xbar_push(&x, 1, 0, 96, 2, 0), 0);
    auto d = run(&x, 0, 10);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].cycle, 4u); // 3 flits in cycles 0..2, + 1 latency, on both pairs at once
    EXPECT_EQ(d[1].cycle, 4u);
    xbar_free(&x);
}

// Head-of-line blocking distinguishes the two arbiters.
TEST(Xbar, IslipAvoidsHeadOfLineBlocking)
{
    uint64_t ready_c[2];
    for (int arb : {XBAR_RR, XBAR_ISLIP}) {
        xbar x;
        xbar_params p = params(2, 2, arb, 1);
        ASSERT_EQ(xbar_init(&x, &p), 0);
        ASSERT_EQ(xbar_push(&x, 0, 0, 128, 'A', 0), 0); // 4 flits, wins output 0 first
        ASSERT_EQ(xbar_push(&x, 1, 0, 32, 'B', 0), 0);
        ASSERT_EQ(xbar_push(&x, 1, 1, 32, 'C', 0), 0);
        for (auto &d : run(&x, 0, 20))
            if (d.pkt.cookie == 'C') ready_c[arb] = d.cycle;
        EXPECT_EQ(x.packets_out, 3u);
        xbar_free(&x);
    }
    EXPECT_EQ(ready_c[XBAR_RR], 7u);    // behind B, which waits for A: crosses in cycle 5
    EXPECT_EQ(ready_c[XBAR_ISLIP], 2u); // crosses in cycle 0
}

TEST(Xbar, CanAcceptBackPressure)
{
    xbar x;
    xbar_params p = params(1, 2, XBAR_RR, 1, 4, 4);
    ASSERT_EQ(xbar_init(&x, &p), 0);
    EXPECT_TRUE(xbar_can_accept(&x, 0, 128));
    EXPECT_FALSE(xbar_can_accept(&x, 0, 129));  // 5 flits never fit
    EXPECT_FALSE(xbar_can_accept(&x, 1, 32));   // no such port
    EXPECT_EQ(xbar_push(&x, 0, 0, 129, 0, 0), -1);
    EXPECT_EQ(xbar_push(&x, 0, 2, 32, 0, 0), -1);
    for (int i = 0; i < 4; i++) ASSERT_EQ(xbar_push(&x, 0, 0, 32, i, 0), 0);
    EXPECT_FALSE(xbar_can_accept(&x, 0, 1));
    EXPECT_EQ(xbar_push(&x, 0, 1, 1, 9, 0), -1);
    EXPECT_EQ(x.packets_in, 4u);
    xbar_tick(&x, 0); // one flit leaves
    EXPECT_TRUE(xbar_can_accept(&x, 0, 32));
    EXPECT_FALSE(xbar_can_accept(&x, 0, 64));
    ASSERT_EQ(xbar_push(&x, 0, 0, 32, 4, 0), 0);
    // nobody pops output 0: it fills with 4 flits in cycles 1..3, then the input stalls
    for (uint64_t c = 1; c < 10; c++) xbar_tick(&x, c);
    EXPECT_EQ(x.flits, 4u);
    EXPECT_EQ(x.out[0].used, 4);
    EXPECT_EQ(x.in[0].used, 1);
    EXPECT_EQ(x.in_stall[0], 6u);  // cycles 4..9
    EXPECT_EQ(x.out_stall[0], 0u); // no one paired: the output grants only with room
    EXPECT_TRUE(xbar_can_accept(&x, 0, 96));
    EXPECT_FALSE(xbar_can_accept(&x, 0, 128));
    // popping makes room; the last packet crosses at cycle 10, ready at 12
    xbar_pkt k;
    ASSERT_TRUE(xbar_pop(&x, 0, 10, &k));
    EXPECT_EQ(k.cookie, 0u);
    auto d = run(&x, 10, 20);
    ASSERT_EQ(d.size(), 4u);
    for (int i = 0; i < 4; i++) EXPECT_EQ(d[i].pkt.cookie, (uint64_t)i + 1);
    EXPECT_EQ(d.back().cycle, 12u);
    EXPECT_TRUE(xbar_is_idle(&x));
    xbar_free(&x);
}

TEST(Xbar, OutputFullStallsPairedInputMidPacket)
{
    xbar x;
    xbar_params p = params(1, 1, XBAR_RR, 0, 8, 3);
    ASSERT_EQ(xbar_init(&x, &p), 0);
    ASSERT_EQ(xbar_push(&x, 0, 0, 64, 1, 0), 0); // 2 flits
    ASSERT_EQ(xbar_push(&x, 0, 0, 64, 2, 0), 0); // 2 flits: only one fits behind the first
    for (uint64_t c = 0; c < 5; c++) xbar_tick(&x, c);
    EXPECT_EQ(x.flits, 3u);
    EXPECT_EQ(x.out_stall[0], 2u); // cycles 3, 4
    xbar_pkt k;
    ASSERT_TRUE(xbar_pop(&x, 0, 5, &k));
    EXPECT_EQ(k.cookie, 1u);
    EXPECT_FALSE(xbar_pop(&x, 0, 5, &k)); // second still incomplete
    xbar_tick(&x, 5);
    ASSERT_TRUE(xbar_pop(&x, 0, 6, &k));
    EXPECT_EQ(k.cookie, 2u);
    EXPECT_EQ(k.ready_cycle, 6u);
    xbar_free(&x);
}

// Many packets through small buffers with a slow, random receiver: nothing lost, duplicated or
// reordered per input-output pair, at most one flit per input and per output per cycle.
TEST(Xbar, BurstLargerThanBuffersKeepsOrder)
{
    for (int arb : {XBAR_RR, XBAR_ISLIP}) {
        const int NI = 4, NO = 3, PER = 60;
        xbar x;
        xbar_params p = params(NI, NO, arb, 2, 6, 4, 16);
        ASSERT_EQ(xbar_init(&x, &p), 0);
        std::mt19937 rng(arb + 1);
        std::vector<std::deque<std::pair<int, uint32_t>>> todo(NI);
        uint64_t total_flits = 0;
        for (int i = 0; i < NI; i++)
            for (int k = 0; k < PER; k++) {
                uint32_t bytes = 1 + rng() % 64; // 1..4 flits
                todo[i].push_back({(int)(rng() % NO), bytes});
                total_flits += (bytes + 15) / 16;
            }
        std::vector<int> next_seq(NI * NO, 0), sent_seq(NI * NO, 0);
        size_t delivered = 0;
        uint64_t c = 0;
        for (; c < 100000 && delivered < (size_t)NI * PER; c++) {
            for (int i = 0; i < NI; i++) {
                if (todo[i].empty()) continue;
                auto [o, bytes] = todo[i].front();
                if (!xbar_can_accept(&x, i, bytes)) continue;
                uint64_t cookie = ((uint64_t)i << 40) | ((uint64_t)o << 32) | (uint32_t)sent_seq[i * NO + o]++;
                ASSERT_EQ(xbar_push(&x, i, o, bytes, cookie, c), 0);
                todo[i].pop_front();
            }
            uint64_t before = x.flits;
            xbar_tick(&x, c);
            ASSERT_LE(x.flits - before, (uint64_t)std::min(NI, NO));
            for (int o = 0; o < NO; o++) {
                if (rng() % 3 == 0) continue; // receiver busy
                xbar_pkt k;
                if (!xbar_pop(&x, o, c, &k)) continue;
                int i = (int)(k.cookie >> 40), oo = (int)(k.cookie >> 32 & 0xff);
                ASSERT_EQ(oo, o);
                ASSERT_EQ(i, k.in);
                ASSERT_EQ((int)(uint32_t)k.cookie, next_seq[i * NO + o]++);
                ASSERT_GE(k.ready_cycle, k.push_cycle + k.flits + 2);
                delivered++;
            }
            for (int o = 0; o < NO; o++) ASSERT_LE(x.out[o].used, 4);
            for (int i = 0; i < NI; i++) ASSERT_LE(x.in[i].used, 6);
        }
        EXPECT_EQ(delivered, (size_t)NI * PER);
        EXPECT_EQ(x.flits, total_flits);
        EXPECT_EQ(x.packets_in, x.packets_out);
        EXPECT_TRUE(xbar_is_idle(&x));
        EXPECT_EQ(xbar_next_work(&x, c), XBAR_NEVER);
        // the burst exceeded the buffers, so some input must have waited
        uint64_t stalls = 0;
        for (int i = 0; i < NI; i++) stalls += x.in_stall[i];
        EXPECT_GT(stalls, 0u);
        xbar_free(&x);
    }
}

// Idle skipping: driving the crossbar only at xbar_next_work cycles gives the same deliveries.
TEST(Xbar, IdleSkippingMatchesEveryCycle)
{
    xbar a, b;
    xbar_params p = params(2, 2, XBAR_ISLIP, 4);
    ASSERT_EQ(xbar_init(&a, &p), 0);
    ASSERT_EQ(xbar_init(&b, &p), 0);
    struct Ev { uint64_t c; int in, out; uint32_t bytes; };
    const Ev ev[] = {{0, 0, 1, 100}, {3, 1, 1, 32}, {40, 0, 0, 64}, {41, 1, 0, 64}, {200, 1, 1, 8}};
    std::vector<std::pair<uint64_t, uint64_t>> da, db; // (cycle, cookie)
    // a: every cycle
    for (uint64_t c = 0; c < 300; c++) {
        for (size_t e = 0; e < 5; e++)
            if (ev[e].c == c) {
                ASSERT_EQ(xbar_push(&a, ev[e].in, ev[e].out, ev[e].bytes, e, c), 0);
            }
        xbar_tick(&a, c);
        xbar_pkt k;
        for (int o = 0; o < 2; o++)
            while (xbar_pop(&a, o, c, &k)) da.push_back({c, k.cookie});
    }
    // b: jump to min(next work, next push)
    size_t e = 0;
    uint64_t c = 0, ticks = 0;
    while (true) {
        while (e < 5 && ev[e].c == c) {
            ASSERT_EQ(xbar_push(&b, ev[e].in, ev[e].out, ev[e].bytes, e, c), 0);
            e++;
        }
        xbar_tick(&b, c);
        ticks++;
        xbar_pkt k;
        for (int o = 0; o < 2; o++)
            while (xbar_pop(&b, o, c, &k)) db.push_back({c, k.cookie});
        uint64_t n = xbar_next_work(&b, c + 1);
        if (e < 5 && ev[e].c < n) n = ev[e].c;
        if (n == XBAR_NEVER) break;
        ASSERT_GT(n, c);
        c = n;
    }
    EXPECT_EQ(da, db);
    EXPECT_EQ(da.size(), 5u);
    EXPECT_LT(ticks, 40u);
    EXPECT_EQ(a.latency_sum, b.latency_sum);
    xbar_free(&a);
    xbar_free(&b);
}

} // namespace

// GPGPU-Sim's local crossbar (-gtlm_icnt_local_xbar): one FIFO per input, whole packets.
namespace {
xbar_params local_params(int n_in, int n_out, int arbiter)
{
    xbar_params p = params(n_in, n_out, arbiter, 1, 8, 8, 32);
    p.local = 1;
    return p;
}
} // namespace

TEST(XbarLocal, HeadOfLineBlocksAndAnInputMaySendToIncreasingOutputs)
{
    // input 0: P->out0; input 1: Q1->out0 then Q2->out1. Cycle 0: out 0 (pointer 0) takes P; out 1 has
    // no head for it (Q2 waits behind Q1). Cycle 1: out 0 takes Q1, then out 1 Q2 in the same cycle.
    // Ready = crossing cycle + 1 + latency 1. gtlm's own iSLIP (virtual output queues) sends Q2 at once.
    for (int local : {1, 0}) {
        xbar x;
        xbar_params p = local_params(2, 2, XBAR_ISLIP);
        p.local = local;
        ASSERT_EQ(xbar_init(&x, &p), 0);
        ASSERT_EQ(xbar_push(&x, 0, 0, 8, 1, 0), 0);
        ASSERT_EQ(xbar_push(&x, 1, 0, 8, 2, 0), 0);
        ASSERT_EQ(xbar_push(&x, 1, 1, 8, 3, 0), 0);
        std::vector<Delivery> d = run(&x, 0, 10);
        ASSERT_EQ(d.size(), 3u);
        std::map<uint64_t, uint64_t> ready;
        for (const Delivery &e : d) ready[e.pkt.cookie] = e.pkt.ready_cycle;
        EXPECT_EQ(ready[1], 2u);
        EXPECT_EQ(ready[2], 3u);
        EXPECT_EQ(ready[3], local ? 3u : 2u);
        EXPECT_EQ(x.in_stall[1], local ? 1u : 0u);
        xbar_free(&x);
    }
}

TEST(XbarLocal, APacketCrossesWholeInItsGrantCycle)
{
    // 100 bytes = 4 flits of 32: gtlm's worm takes cycles 5..8 (ready 10); the local crossbar moves
    // the packet in cycle 5 (ready 7), as GPGPU-Sim's, whose packets all count as one unit.
    for (int arb : {XBAR_RR, XBAR_ISLIP}) {
        xbar x;
        xbar_params p = local_params(1, 1, arb);
        ASSERT_EQ(xbar_init(&x, &p), 0);
        ASSERT_EQ(xbar_push(&x, 0, 0, 100, 9, 5), 0);
        std::vector<Delivery> d = run(&x, 5, 20);
        ASSERT_EQ(d.size(), 1u);
        EXPECT_EQ(d[0].pkt.flits, 4);
        EXPECT_EQ(d[0].pkt.ready_cycle, 7u);
        xbar_free(&x);
    }
}

TEST(XbarLocal, OutputGrantsFromItsPointerAndRoundRobinStartsAtTheCycle)
{
    // Three inputs, each with one packet for out 0. iSLIP-style: the pointer starts at input 0 and
    // moves past each winner: 0, 1, 2. Round-robin: cycle c starts at input c mod 3, each output
    // takes one packet per cycle: cycle 1 starts at input 1 -> 1, then cycle 2 -> 2, cycle 3 -> 0.
    for (int arb : {XBAR_ISLIP, XBAR_RR}) {
        xbar x;
        xbar_params p = local_params(3, 1, arb);
        ASSERT_EQ(xbar_init(&x, &p), 0);
        for (int i = 0; i < 3; i++) ASSERT_EQ(xbar_push(&x, i, 0, 8, (uint64_t)i, 1), 0);
        std::vector<Delivery> d = run(&x, 1, 10);
        ASSERT_EQ(d.size(), 3u);
        std::vector<int> order;
        for (const Delivery &e : d) order.push_back(e.pkt.in);
        if (arb == XBAR_ISLIP) EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
        else EXPECT_EQ(order, (std::vector<int>{1, 2, 0}));
        EXPECT_EQ(d[2].pkt.ready_cycle, 5u); // crossed in cycle 3
        xbar_free(&x);
    }
}

TEST(XbarLocal, DefaultFollowsCompatModeAndTheLocalNetwork)
{
    noc_config c{};
    c.local_xbar = -1;
    c.network_mode = 2;
    EXPECT_EQ(noc_local_xbar(&c, 1), 1);
    EXPECT_EQ(noc_local_xbar(&c, 0), 0);
    c.network_mode = 1; // GPGPU-Sim's Booksim network is not the local crossbar
    EXPECT_EQ(noc_local_xbar(&c, 1), 0);
    c.local_xbar = 1;
    EXPECT_EQ(noc_local_xbar(&c, 0), 1);
    c.local_xbar = 0;
    c.network_mode = 2;
    EXPECT_EQ(noc_local_xbar(&c, 1), 0);
    xbar_params p;
    c.local_xbar = 1;
    xbar_params_from_config(&c, 2, 2, &p);
    EXPECT_EQ(p.local, 1);
}
