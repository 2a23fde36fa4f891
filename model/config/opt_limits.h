/* Bounds of the sizes a configuration may ask for, shared by the blocks' option ranges.
 * They keep every size the model derives (units, arrays, cycle counts in sc_time) far from
 * overflow and the setup time of the largest GPU in seconds, and are still well above real
 * GPUs (an H100 has 132 SMs and 80 memory channels, latencies are below a few thousand cycles). */
#ifndef GTLM_OPT_LIMITS_H
#define GTLM_OPT_LIMITS_H

#include <stdint.h>

#define GPU_MAX_SMS 4096          /* -gpgpu_n_clusters x -gpgpu_n_cores_per_cluster */
#define GPU_MAX_MEM_CHANNELS 1024 /* -gpgpu_n_mem */
/* Core cycles of cycle limits, watchdog and VCD window: at the slowest clock (10 MHz, a 1e8 fs
 * period) 1e11 cycles are 1e4 s, inside SystemC's 64-bit femtosecond time (1.8e4 s). */
#define GPU_MAX_CYCLES INT64_C(100000000000)
#define SM_MAX_LATENCY 100000     /* a fixed latency, initiation interval or DRAM timing in cycles */
#define DRAM_MAX_BANKS 1024       /* nbk and nbkgrp of -gpgpu_dram_timing_opt */
/* Clock frequencies in MHz: 10 MHz to 100 GHz keeps a period between 1e4 and 1e8 SystemC
 * time steps (1 fs), so it is never rounded to zero and GPU_MAX_CYCLES of it fit in 64 bits. */
#define GPU_MIN_CLOCK_MHZ 10.0
#define GPU_MAX_CLOCK_MHZ 100000.0

/* Cache geometry (-gpgpu_cache:*): sets, ways, their product, line and port bytes, queue depths. */
#define CACHE_MAX_SETS 65536
#define CACHE_MAX_ASSOC 1024
#define CACHE_MAX_LINES (1 << 20)
#define CACHE_MAX_LINE 4096
#define CACHE_MAX_QUEUE 65536
/* Requests one L1 data-cache fill can wake (the SM's buffer): the merge limit, x4 with per-sector
 * MSHRs in a sectored L1. */
#define L1_MAX_WOKEN 256

#endif
