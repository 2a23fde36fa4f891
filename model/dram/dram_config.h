/* Options owned by the DRAM channels (one memory controller per channel). */
#ifndef GTLM_DRAM_CONFIG_H
#define GTLM_DRAM_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

typedef struct dram_config {
    gsim_dram_timing timing; /* in DRAM command-clock cycles */
    int bus_width;           /* bytes per chip data bus */
    int chips_per_channel;
    int burst_length;
    int data_command_ratio;  /* data beats per command clock (GDDR5 QDR: 4) */
    int scheduler;           /* 0 FIFO, 1 FR-FCFS */
    int sched_queue_size;    /* 0: unlimited */
    int return_queue_size;
    int latency;             /* core cycles added to each DRAM access beyond bank timing */
    char *addr_mapping;      /* GPGPU-Sim address-mapping string */
    int partition_indexing;  /* 0 linear, 1 xor, 2 ipoly, ... */
} dram_config;

int dram_options_register(opt_registry *r, dram_config *c, strbuf *err);
int dram_config_check(const opt_registry *r, const dram_config *c, strbuf *err);

#endif
