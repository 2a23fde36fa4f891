#include "dram_config.h"

#include <stdio.h>
#include <string.h>

#include "../config/opt_check.h"
#include "../config/opt_limits.h"

static const char *const dram_schedulers[] = {"0", "1", NULL};

int dram_options_register(opt_registry *r, dram_config *c, strbuf *e)
{
    const char *b = "dram";
    int rc = 0;
    rc |= opt_add_custom(r, b, "-gpgpu_dram_timing_opt", &gsim_opt_dram_timing, &c->timing,
                         "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0",
                         "DRAM timing in command-clock cycles: nbk=..:CCD=..:RRD=..:RCD=..:RAS=..:RP=..:RC=..:CL=..:WL=..:CDLR=..:WR=..[:nbkgrp=..:CCDL=..:RTPL=..]", e);
    rc |= opt_add_int(r, b, "-gpgpu_dram_buswidth", &c->bus_width, "4", 1, 1024, "data bus bytes per DRAM chip", e);
    rc |= opt_add_int(r, b, "-gpgpu_n_mem_per_ctrlr", &c->chips_per_channel, "2", 1, 64, "DRAM chips per memory channel", e);
    rc |= opt_add_int(r, b, "-gpgpu_dram_burst_length", &c->burst_length, "8", 1, 64, "data beats per access burst", e);
    rc |= opt_add_int(r, b, "-dram_data_command_freq_ratio", &c->data_command_ratio, "4", 1, 64,
                      "data beats per command clock (GDDR5/GDDR6: 4, HBM: 2)", e);
    rc |= opt_add_enum(r, b, "-gpgpu_dram_scheduler", &c->scheduler, dram_schedulers, "1",
                       "DRAM request scheduler: 0 FIFO, 1 FR-FCFS", e);
    rc |= opt_add_int(r, b, "-gpgpu_frfcfs_dram_sched_queue_size", &c->sched_queue_size, "16", 0, 1 << 20,
                      "requests the scheduler holds per channel (0: unlimited)", e);
    rc |= opt_add_int(r, b, "-gpgpu_dram_return_queue_size", &c->return_queue_size, "116", 0, 1 << 20,
                      "responses buffered per channel toward the L2 (0: unlimited)", e);
    rc |= opt_add_int(r, b, "-dram_latency", &c->latency, "100", 0, SM_MAX_LATENCY, "fixed core-cycle latency added to each DRAM access", e);
    rc |= opt_add_string(r, b, "-gpgpu_mem_addr_mapping", &c->addr_mapping,
                         "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
                         "address bits to DRAM channel (D), row (R), bank (B), column (C), burst byte (S)", e);
    rc |= opt_add_int(r, b, "-gpgpu_memory_partition_indexing", &c->partition_indexing, "0", 0, 5,
                      "memory partition (L2 slice) index hash: 0 linear, 1 XOR of the channel with the bits above it, "
                      "2 IPOLY over the sub-partitions, 4 a pseudo-random slice per chunk, 5 custom (GPGPU-Sim's "
                      "empty hook: linear); 3, PAE, is not accepted (GPGPU-Sim 4.2 has no case for it)", e);
    return rc ? -1 : 0;
}

/* The mapping is "[dramid@BIT;]" then 64 mask characters, '.' separators ignored. */
static int mapping_ok(const char *m, char *why, size_t len)
{
    const char *semi = strchr(m, ';');
    const char *p = semi ? semi + 1 : m;
    int bits = 0, rows = 0, banks = 0, cols = 0;
    for (; *p; p++) {
        if (*p == '.') continue;
        if (!strchr("01DRBCSK", *p)) {
            snprintf(why, len, "unexpected character '%c' (expected 0, 1, D, R, B, C, S, K or '.')", *p);
            return 0;
        }
        bits++;
        rows += *p == 'R';
        banks += *p == 'B';
        cols += *p == 'C';
    }
    if (bits > 64) {
        snprintf(why, len, "%d address bits given, at most 64 expected", bits);
        return 0;
    }
    if (!rows || !banks || !cols) {
        snprintf(why, len, "expected at least one row (R), bank (B) and column (C) bit");
        return 0;
    }
    return 1;
}

int dram_config_check(const opt_registry *r, const dram_config *c, strbuf *e)
{
    char why[160] = "";
    int bad = opt_check(r, e, "-gpgpu_mem_addr_mapping", mapping_ok(c->addr_mapping, why, sizeof why), "%s", why);
    bad |= opt_check(r, e, "-gpgpu_memory_partition_indexing", c->partition_indexing != 3,
                     "3 (PAE) has no implementation in GPGPU-Sim 4.2 (its address decoder has no case for it and "
                     "asserts); use 0 linear, 1 XOR, 2 IPOLY, 4 random or 5 custom (linear)");
    return bad ? -1 : 0;
}
