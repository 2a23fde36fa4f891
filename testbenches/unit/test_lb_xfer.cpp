// Linebacker's backup/restore buffer (model/linebacker/lb_xfer): a throttled CTA's #reg warp
// registers leave as exactly #reg 128-byte writes at BA + i x 128, never more than the buffer's
// entries in flight, and come back as #reg reads written to RN FRN + i in order.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "linebacker/lb_xfer.h"
}

namespace {

TEST(LbXfer, BackupIsReg128ByteWritesThroughSixEntries)
{
    lb_xfer x;
    lb_xfer_init(&x, 6, 0);
    const uint32_t nreg = 40, frn = 320;
    const uint64_t ba = 0xF00000000ull;
    ASSERT_EQ(lb_xfer_start(&x, LB_XFER_BACKUP, 7, frn, ba, nreg), 0);
    EXPECT_EQ(lb_xfer_start(&x, LB_XFER_RESTORE, 7, frn, ba, nreg), -1); // one transfer at a time
    std::vector<uint32_t> reads;
    std::vector<uint64_t> writes;
    for (int cycle = 0; cycle < 1000 && !lb_xfer_complete(&x); cycle++) {
        int w = -1;
        uint32_t rn = lb_xfer_rf_next(&x, &w);
        if (rn != UINT32_MAX) {
            EXPECT_EQ(w, 0); // a backup reads the register file
            reads.push_back(rn);
            lb_xfer_rf_done(&x);
        }
        EXPECT_LE(lb_xfer_occupancy(&x), 6u);
        uint64_t a;
        int is_write;
        if (cycle % 3 == 0 && lb_xfer_mem_peek(&x, &a, &is_write)) { // the port takes one every 3 cycles
            EXPECT_EQ(is_write, 1);
            writes.push_back(a);
            lb_xfer_mem_sent(&x);
        }
    }
    ASSERT_TRUE(lb_xfer_complete(&x));
    ASSERT_EQ(reads.size(), nreg);
    ASSERT_EQ(writes.size(), nreg); // #reg x 128 bytes
    for (uint32_t i = 0; i < nreg; i++) {
        EXPECT_EQ(reads[i], frn + i);
        EXPECT_EQ(writes[i], ba + i * 128ull);
    }
    EXPECT_EQ(x.peak, 6u); // the slow port filled the buffer
    lb_xfer_finish(&x);
    EXPECT_EQ(lb_xfer_occupancy(&x), 0u);
}

TEST(LbXfer, BackupWithAcknowledgementsCompletesAtTheLastAck)
{
    lb_xfer x;
    lb_xfer_init(&x, 6, 1);
    ASSERT_EQ(lb_xfer_start(&x, LB_XFER_BACKUP, 0, 0, 0, 2), 0);
    uint64_t a;
    int w;
    for (int i = 0; i < 2; i++) {
        lb_xfer_rf_next(&x, &w);
        lb_xfer_rf_done(&x);
        ASSERT_TRUE(lb_xfer_mem_peek(&x, &a, &w));
        lb_xfer_mem_sent(&x);
    }
    EXPECT_FALSE(lb_xfer_complete(&x)); // accepted, not acknowledged
    lb_xfer_mem_response(&x, 1);
    EXPECT_FALSE(lb_xfer_complete(&x));
    lb_xfer_mem_response(&x, 1);
    EXPECT_TRUE(lb_xfer_complete(&x));
}

TEST(LbXfer, RestoreKeepsAtMostSixReadsAndWritesInOrder)
{
    lb_xfer x;
    lb_xfer_init(&x, 6, 0);
    const uint32_t nreg = 20, frn = 64;
    const uint64_t ba = 4096;
    ASSERT_EQ(lb_xfer_start(&x, LB_XFER_RESTORE, 1, frn, ba, nreg), 0);
    std::vector<uint64_t> reads;
    uint32_t in_flight = 0;
    std::vector<uint32_t> written;
    for (int cycle = 0; cycle < 1000 && !lb_xfer_complete(&x); cycle++) {
        uint64_t a;
        int is_write;
        while (lb_xfer_mem_peek(&x, &a, &is_write)) { // an eager port
            EXPECT_EQ(is_write, 0);
            reads.push_back(a);
            lb_xfer_mem_sent(&x);
            in_flight++;
        }
        EXPECT_LE(lb_xfer_occupancy(&x), 6u);
        if (cycle % 5 == 4 && in_flight) { // memory answers slowly
            lb_xfer_mem_response(&x, 0);
            in_flight--;
        }
        int w = -1;
        uint32_t rn = lb_xfer_rf_next(&x, &w);
        if (rn != UINT32_MAX) {
            EXPECT_EQ(w, 1);
            written.push_back(rn);
            lb_xfer_rf_done(&x);
        }
    }
    ASSERT_TRUE(lb_xfer_complete(&x));
    ASSERT_EQ(reads.size(), nreg);
    ASSERT_EQ(written.size(), nreg);
    for (uint32_t i = 0; i < nreg; i++) {
        EXPECT_EQ(reads[i], ba + i * 128ull);
        EXPECT_EQ(written[i], frn + i);
    }
    EXPECT_EQ(x.peak, 6u);
}

TEST(LbXfer, RejectsEmptyTransfers)
{
    lb_xfer x;
    lb_xfer_init(&x, 6, 0);
    EXPECT_EQ(lb_xfer_start(&x, LB_XFER_BACKUP, 0, 0, 0, 0), -1);
    EXPECT_EQ(lb_xfer_start(&x, LB_XFER_IDLE, 0, 0, 0, 4), -1);
    EXPECT_FALSE(lb_xfer_complete(&x));
}

} // namespace
