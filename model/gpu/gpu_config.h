/*
 * The whole GPU's configuration: one struct per block, each registering the options it owns.
 * A new block adds its struct here and one line to the table in gpu_config.c.
 */
#ifndef GTLM_GPU_CONFIG_H
#define GTLM_GPU_CONFIG_H

#include <stdint.h>

#include "../cache/cache_config.h"
#include "../cbwt/cbwt_config.h"
#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"
#include "../dram/dram_config.h"
#include "../linebacker/lb_config.h"
#include "../lbcompare/lbc_config.h"
#include "../llc/llc_config.h"
#include "../noc/noc_config.h"
#include "../power/power_config.h"
#include "../sm/sm_config.h"
#include "../tbsched/tbsched_config.h"
#include "../trace/trace_config.h"

enum { GPU_MODE_FUNCTIONAL = 0, GPU_MODE_TIMING = 1 };

typedef struct gpu_top_config {
    int n_clusters, cores_per_cluster;
    int n_mem;                 /* memory channels (partitions) */
    int sub_partitions_per_channel;
    gsim_clock_domains clocks; /* MHz: core:icnt:l2:dram */
    int64_t max_cycles;        /* stop after this many core cycles (0: no limit) */
    int64_t max_insn;          /* stop after this many warp instructions (0: no limit) */
    int64_t launch_latency;    /* core cycles from a kernel launch to its first CTA dispatch */
    int deadlock_detect;
    int64_t watchdog_cycles;   /* cycles without progress before the watchdog stops the run */
    int64_t seed;
    int check_protocol;        /* base-protocol checkers on every TLM link */
    int retry_sleep;           /* SMs skip edges that only retry a refused L1 read (sm_retry_sleep.c) */
    int threads;               /* -gtlm_threads: host threads ticking the SMs of one core edge */
    int threads_min_sms;       /* ... only at edges with at least this many SMs due */
    int64_t stats_interval;    /* core cycles between time-series samples, 0 = off */
    char *timeseries_file;
    char *vcd_file;            /* VCD waveforms: file ("" = off), */
    char *vcd_signals;         /* ... name patterns of the signals, */
    int64_t vcd_start, vcd_end; /* ... core-cycle window [start, end), end 0 = open */
    int gpgpusim_compat;       /* unmodelled GPGPU-Sim options only warn */
    int mode;                  /* GPU_MODE_FUNCTIONAL or GPU_MODE_TIMING */
    int log_level;
    char *log_blocks;
    int64_t max_module_bytes;  /* largest PTX module accepted */
    char *trace_out;           /* directory of Accel-Sim traces of every launch, "" = off */
    int trace_binary_version;  /* "-binary version" written in those traces */
} gpu_top_config;

typedef struct gtlm_config {
    gpu_top_config gpu;
    sm_config sm;
    l1_config l1;
    l2_config l2;
    noc_config noc;
    dram_config dram;
    tbsched_config tbsched;
    trace_config trace;
    power_config power;
    lb_config lb;
    lbc_config lbc;
    cbwt_config cbwt;
    llc_config morpheus;
} gtlm_config;

/* Registers every block's options in the registry, pointing into cfg (defaults applied). */
int gtlm_config_register(opt_registry *r, gtlm_config *cfg, strbuf *err);
/* Cross-option consistency checks of every block, reported where the values came from. */
int gtlm_config_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err);
/* After the check: configurations derived from options (Morpheus' baselines). 0, or -1 with a message. */
int gtlm_config_derive(gtlm_config *cfg, strbuf *err);

/* Derived quantities used by reports. */
int gtlm_config_n_sms(const gtlm_config *cfg);
int gtlm_config_n_l2_slices(const gtlm_config *cfg);

#endif
