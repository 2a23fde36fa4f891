// The Morpheus controller with the extended-LLC server model, as a unit in front of an L2 slice
// (model/llc/mctl.h): a hit, a predicted miss, a false-positive miss and a dirty eviction each cost
// exactly the latency chain worked out from the parameters:
//   Lat(B) = 1 + ceil(B / flit) + icnt latency     one-way controller <-> cache-mode SM packet
//   predicted miss: push t -> predictor t + C -> DRAM queue + 1 -> fill f -> data port f + 128/32
//   hit: t + C + 1 (dispatch) + Lat(8) + tag + move + store + Lat(8 + 128) + 128/32
//   false positive: t + C + 1 + Lat(8) + tag + store + Lat(8) -> DRAM queue + 1 -> f + 128/32
//   dirty eviction: fill dispatched at f + Lat(8 + 128) + tag + move + store + Lat(8 + 128) -> DRAM write + 1
#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

extern "C" {
#include "llc/mctl.h"
}

namespace {

const uint64_t kRop = 10, kDram = 50, kLat = 2, kFlit = 40, kTag = 103, kMove = 31, kStore = 51, kPort = 32;

uint64_t lat(uint64_t bytes) { return 1 + (bytes + kFlit - 1) / kFlit + kLat; }

struct Rig {
    l2_slice s{};
    ellc_server e{};
    ext_link l{};
    mctl m{};
    uint64_t cycle = 0;
    std::vector<std::pair<uint64_t, l2_dram_req>> dram; // records as they leave the DRAM queue
    std::multimap<uint64_t, uint64_t> returns;           // DRAM data due: cycle -> line
    std::map<uint64_t, uint64_t> rsp;                    // cookie -> ready cycle

    std::vector<uint64_t> dispatches; // cycles an operation went to a warp

    // rbuf, wbuf: data buffer entries (0: not limited); dl2: the slice (its last field the data port).
    explicit Rig(int predictor, uint32_t rbuf = 0, uint32_t wbuf = 0, const char *dl2 = "N:4:128:2,L:B:m:W:L,A:4:4,4:0,32")
    {
        l2_slice_params p{};
        char err[256];
        EXPECT_EQ(gsim_cache_cfg_parse(dl2, &p.dl2, err, sizeof err), 0) << err;
        p.rop_cycles = kRop;
        EXPECT_EQ(l2_slice_init(&s, &p), 0);
        llc_config c{};
        c.predictor = predictor;
        c.bloom_bits = 256;
        c.bloom_hashes = 2;
        c.fn_fatal = 1;
        c.storage = LLC_ST_L1;
        c.warps = 2;
        c.l1_kib = 1; // 2 sets x 4 ways
        c.svc_tag_ns = kTag;
        c.svc_move_ns = kMove;
        c.svc_store_ns = kStore;
        EXPECT_EQ(ellc_init(&e, &c, 1, 2048, 255, 1, 1000), 0);
        EXPECT_EQ(ext_link_init(&l, 1, 1, kFlit, kLat, 1000, 1000), 0);
        mctl_params mp{};
        mp.slice = 0;
        mp.n_slices = 1;
        mp.line = 128;
        mp.f_conv = 8;
        mp.ctl_cycles = kRop;
        mp.depth = 8;
        mp.input_cap = kRop + 8;
        mp.wst_rows = 128;
        mp.header = 8;
        mp.rbuf = rbuf;
        mp.wbuf = wbuf;
        EXPECT_EQ(mctl_init(&m, &mp, &c, ellc_server_backend(&e), &l, e.n_sets, 2, nullptr), 0);
        l2_front f = mctl_front(&m);
        l2_slice_set_front(&s, &f);
    }
    ~Rig()
    {
        mctl_free(&m);
        ext_link_free(&l);
        ellc_free(&e);
        l2_slice_free(&s);
    }
    void step()
    {
        l2_slice_tick(&s, cycle);
        uint64_t before = m.st.dispatched;
        mctl_tick(&m, &s, cycle);
        if (m.st.dispatched != before) dispatches.push_back(cycle);
        while (const l2_dram_req *d = l2_slice_dram_peek(&s, cycle)) {
            dram.push_back({d->ready, *d});
            if (!d->is_write) returns.insert({cycle + kDram, d->addr});
            l2_slice_dram_pop(&s, nullptr);
        }
        l2_rsp o;
        while (l2_slice_rsp_peek(&s, cycle)) {
            l2_slice_rsp_pop(&s, &o);
            rsp[o.cookie] = o.ready;
        }
        cycle++;
        for (auto it = returns.begin(); it != returns.end() && it->first == cycle;) { // seen at the next tick
            bool ext = false;
            for (auto &r : dram)
                if (r.second.addr == it->second && !r.second.is_write) ext = r.second.ext;
            if (ext) mctl_dram_done(&m, it->second, cycle);
            else l2_slice_dram_fill(&s, it->second, 0, cycle);
            it = returns.erase(it);
        }
    }
    // Sends a request at the current cycle; returns the cycle its response is ready.
    uint64_t request(uint64_t addr, uint64_t cookie, int kind = L2_REQ_READ)
    {
        l2_req r{};
        r.addr = addr;
        r.cookie = cookie;
        r.bytes = 128;
        r.kind = static_cast<uint8_t>(kind);
        EXPECT_EQ(l2_slice_push(&s, &r, cycle), 0);
        for (int i = 0; i < 5000 && !rsp.count(cookie); i++) step();
        EXPECT_TRUE(rsp.count(cookie));
        return rsp[cookie];
    }
    void push(uint64_t addr, uint64_t cookie, uint32_t bytes, int kind = L2_REQ_READ)
    {
        l2_req r{};
        r.addr = addr;
        r.cookie = cookie;
        r.bytes = bytes;
        r.kind = static_cast<uint8_t>(kind);
        EXPECT_EQ(l2_slice_push(&s, &r, cycle), 0);
    }
    void settle()
    {
        for (int i = 0; i < 5000 && (mctl_busy(&m) || l2_slice_busy(&s) || !returns.empty()); i++) step();
        EXPECT_FALSE(mctl_busy(&m));
    }
    // Line addresses the separator maps to extended set 0 (and one it keeps conventional).
    std::vector<uint64_t> set0(size_t n) { return set_lines(0, n); }
    std::vector<uint64_t> set_lines(uint32_t want, size_t n)
    {
        std::vector<uint64_t> v;
        uint32_t row;
        for (uint64_t a = 0x10000; v.size() < n; a += 128)
            if (mctl_map(&m, a, &row) && row == want) v.push_back(a);
        return v;
    }
    // Reads each line (a predicted miss and its fill) so that it is resident.
    void make_resident(const std::vector<uint64_t> &lines)
    {
        for (size_t i = 0; i < lines.size(); i++) {
            request(lines[i], 1000 + i);
            settle();
        }
        dispatches.clear();
    }
    uint64_t conventional()
    {
        uint32_t row;
        for (uint64_t a = 0x10000;; a += 128)
            if (!mctl_map(&m, a, &row)) return a;
    }
};

TEST(MorpheusCtl, PredictedMissCostsWhatAConventionalMissCosts)
{
    Rig g(LLC_PRED_BLOOM);
    uint64_t x = g.set0(1)[0];
    uint64_t t = g.cycle;
    uint64_t ready = g.request(x, 1);
    ASSERT_EQ(g.dram.size(), 1u);
    EXPECT_EQ(g.dram[0].first, t + kRop + 1);          // in the DRAM queue one cycle after the predictor
    EXPECT_TRUE(g.dram[0].second.ext);
    EXPECT_EQ(ready, t + kRop + 1 + kDram + 128 / kPort); // fill f = queue + kDram, then the data port
    EXPECT_EQ(g.m.bp.st.true_negatives, 1u);
    g.settle();
    // The same chain for a conventional address through the slice itself.
    uint64_t c = g.conventional();
    uint64_t t2 = g.cycle;
    EXPECT_EQ(g.request(c, 2) - t2, ready - t);
}

TEST(MorpheusCtl, HitCostsTheRoundTripToTheCacheModeSm)
{
    Rig g(LLC_PRED_BLOOM);
    uint64_t x = g.set0(1)[0];
    g.request(x, 1); // predicted miss, then the fill
    g.settle();
    EXPECT_TRUE(ellc_resident(&g.e, 0, x));
    uint64_t t = g.cycle;
    uint64_t ready = g.request(x, 2);
    EXPECT_EQ(ready, t + kRop + 1 + lat(8) + kTag + kMove + kStore + lat(8 + 128) + 128 / kPort);
    EXPECT_EQ(g.m.bp.st.true_positives, 1u);
    EXPECT_EQ(g.m.st.ext_hits, 1u);
}

TEST(MorpheusCtl, FalsePositiveMissPaysTheLookupThenDram)
{
    Rig g(LLC_PRED_NONE); // every request is a predicted hit: a miss is a false positive
    uint64_t x = g.set0(1)[0];
    uint64_t t = g.cycle;
    uint64_t ready = g.request(x, 1);
    uint64_t back = t + kRop + 1 + lat(8) + kTag + kStore + lat(8);
    ASSERT_EQ(g.dram.size(), 1u);
    EXPECT_EQ(g.dram[0].first, back + 1);
    EXPECT_EQ(ready, back + 1 + kDram + 128 / kPort);
    EXPECT_EQ(g.m.bp.st.false_positives, 1u);
    EXPECT_EQ(g.m.st.ext_misses, 1u);
    // Against the predicted miss: the extra round trip and lookup (the document's 773 vs 608 ns).
    EXPECT_EQ(ready - t - (kRop + 1 + kDram + 128 / kPort), 1 + lat(8) + kTag + kStore + lat(8));
}

TEST(MorpheusCtl, DirtyEvictionIsWrittenBackToDram)
{
    Rig g(LLC_PRED_BLOOM);
    std::vector<uint64_t> a = g.set0(5); // 4 ways: the fifth line evicts the first
    for (int i = 0; i < 4; i++) {
        g.request(a[static_cast<size_t>(i)], 10 + static_cast<uint64_t>(i));
        g.settle();
    }
    g.request(a[0], 20, L2_REQ_WRITE); // a write hit: a[0] dirty and the most recent ...
    g.settle();
    for (int i = 1; i < 4; i++) { // ... so re-use the others to make it the LRU again
        g.request(a[static_cast<size_t>(i)], 30 + static_cast<uint64_t>(i));
        g.settle();
    }
    size_t before = g.dram.size();
    uint64_t t = g.cycle;
    g.request(a[4], 40); // predicted miss; its fill evicts a[0], dirty
    g.settle();
    ASSERT_EQ(g.dram.size(), before + 2);
    uint64_t f = g.dram[before].first + kDram;
    const auto &wb = g.dram[before + 1];
    EXPECT_TRUE(wb.second.is_write);
    EXPECT_EQ(wb.second.addr, a[0]);
    EXPECT_EQ(wb.first, f + lat(8 + 128) + kTag + kMove + kStore + lat(8 + 128) + 1);
    EXPECT_EQ(g.dram[before].first, t + kRop + 1);
    EXPECT_EQ(g.m.st.writebacks, 1u);
    EXPECT_EQ(g.m.bp.st.false_negatives, 0u);
}

TEST(MorpheusCtl, SectorReadsOfALineShareOneOperation)
{
    Rig g(LLC_PRED_BLOOM);
    uint64_t x = g.set0(1)[0];
    uint64_t t = g.cycle;
    g.push(x, 1, 32);
    g.step();
    g.push(x + 32, 2, 32); // the next sector, one cycle later: joins the pending DRAM read
    g.settle();
    ASSERT_EQ(g.dram.size(), 1u);
    uint64_t f = t + kRop + 1 + kDram;
    EXPECT_EQ(g.rsp[1], f + 1); // 32 bytes: one data-port cycle each
    EXPECT_EQ(g.rsp[2], f + 2);
    EXPECT_EQ(g.m.st.merged, 1u);
    EXPECT_EQ(g.m.st.fills, 1u);
    // Both sectors again: one operation at the warp answers both.
    uint64_t before = g.m.st.dispatched;
    t = g.cycle;
    g.push(x, 3, 32);
    g.step();
    g.push(x + 32, 4, 32);
    g.settle();
    EXPECT_EQ(g.m.st.dispatched, before + 1);
    EXPECT_EQ(g.m.st.ext_hits, 1u);
    uint64_t back = t + kRop + 1 + lat(8) + kTag + kMove + kStore + lat(8 + 128); // the whole block comes back
    EXPECT_EQ(g.rsp[3], back + 1);
    EXPECT_EQ(g.rsp[4], back + 2);
}

// The write data buffer (-morpheus_wbuf_entries): a write takes an entry at dispatch until it has
// reached the warp. With one entry, a second write (to the other set, ready a cycle later) is
// dispatched only when the first arrives at the cache-mode SM: t + C + 1 + Lat(8 + 128), not
// t + C + 2; it waited Lat(8 + 128) - 1 cycles.
TEST(MorpheusCtl, FullWriteDataBufferHoldsTheNextWrite)
{
    for (uint32_t wbuf : {0u, 1u}) {
        Rig g(LLC_PRED_BLOOM, 0, wbuf);
        uint64_t x0 = g.set_lines(0, 1)[0], x1 = g.set_lines(1, 1)[0];
        g.make_resident({x0, x1}); // both writes are predicted hits, served by two warps
        uint64_t t = g.cycle;
        g.push(x0, 1, 128, L2_REQ_WRITE);
        g.step();
        g.push(x1, 2, 128, L2_REQ_WRITE);
        g.settle();
        ASSERT_EQ(g.dispatches.size(), 2u) << wbuf;
        EXPECT_EQ(g.dispatches[0], t + kRop + 1);
        EXPECT_EQ(g.dispatches[1], wbuf ? t + kRop + 1 + lat(8 + 128) : t + kRop + 2) << wbuf;
        EXPECT_EQ(g.m.st.wbuf_stalls, wbuf ? lat(8 + 128) - 1 : 0) << wbuf;
        // The acknowledgements do not wait for the buffer: both through the data port (128 / 32
        // cycles each, the slice's rule for a write), from the predictor stage + 1.
        EXPECT_EQ(g.rsp[2], t + kRop + 1 + 2 * (128 / kPort)) << wbuf;
    }
}

// The read data buffer (-morpheus_rbuf_entries): a hit's result takes an entry when it arrives until
// its data has left through the slice's data port (here 8 bytes a cycle: 16 cycles a line). Two hits
// on two sets come back 4 cycles apart (a0, a0 + 4: the SM's port moves the first one's 4 flits);
// with one entry the second waits until a0 + 16, and its set's warp stays busy, so a third read of
// that set is dispatched at a0 + 16 instead of a0 + 4. The responses leave when the port allows,
// with or without the limit (a0 + 16, a0 + 32).
TEST(MorpheusCtl, FullReadDataBufferHoldsTheWarpsResult)
{
    for (uint32_t rbuf : {0u, 1u}) {
        Rig g(LLC_PRED_BLOOM, rbuf, 0, "N:4:128:2,L:B:m:W:L,A:4:4,4:0,8");
        std::vector<uint64_t> s1 = g.set_lines(1, 2);
        uint64_t x0 = g.set_lines(0, 1)[0];
        g.make_resident({x0, s1[0], s1[1]});
        uint64_t t = g.cycle;
        g.push(x0, 1, 128);
        g.step();
        g.push(s1[0], 2, 128);
        g.step();
        g.push(s1[1], 3, 128);
        g.settle();
        uint64_t a0 = t + kRop + 1 + lat(8) + kTag + kMove + kStore + lat(8 + 128);
        ASSERT_EQ(g.dispatches.size(), 3u) << rbuf;
        EXPECT_EQ(g.dispatches[1], t + kRop + 2);
        EXPECT_EQ(g.dispatches[2], rbuf ? a0 + 16 : a0 + 4) << rbuf;
        EXPECT_EQ(g.m.st.rbuf_stalls, rbuf ? 12u : 0u) << rbuf;
        EXPECT_EQ(g.rsp[1], a0 + 16);
        EXPECT_EQ(g.rsp[2], a0 + 32);
    }
}

} // namespace
