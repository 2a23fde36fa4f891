/* Options of Morpheus (issue 21, -morpheus_ prefix; spec morpheus.md §3, §9 PROPOSALs): SM modes,
 * the Morpheus controller in front of each L2 slice and the extended LLC served by cache-mode SMs.
 * Off by default: no cache-mode and no gated SM, and then nothing of Morpheus is built. */
#ifndef GTLM_LLC_CONFIG_H
#define GTLM_LLC_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

typedef enum llc_predictor_mode { LLC_PRED_BLOOM = 0, LLC_PRED_NONE, LLC_PRED_PERFECT } llc_predictor_mode;
typedef enum llc_storage { LLC_ST_RF_L1 = 0, LLC_ST_RF, LLC_ST_L1, LLC_ST_SMEM } llc_storage;

typedef struct llc_config {
    /* SM modes (spec §3.1, §10): counts take the highest-numbered SMs, lists name SMs */
    int cache_sms;            /* SMs in cache mode (serving the extended LLC) */
    char *cache_sm_list;      /* or their ids: "60,61,64-67" */
    int gated_sms;            /* SMs power-gated (IBL) */
    char *gated_sm_list;
    /* hit/miss predictor (§3.3, G3) */
    int predictor;            /* llc_predictor_mode */
    int bloom_bits;           /* bits per Bloom filter (two per extended set) */
    int bloom_hashes;         /* k hash functions */
    int rtl_bloom;            /* -rtl_bloom: the Verilated predictor holds the filters (tlm/rtl, issue 24) */
    char *rtl_record_bloom;   /* -rtl_record_bloom: file recording L2 slice 0's controller's predictor, "" = none */
    int fn_fatal;             /* a false negative stops the simulation */
    /* extended LLC storage of a cache-mode SM (§3.5, G12) */
    int storage;              /* llc_storage */
    int warps;                /* helper-kernel warps = extended sets per cache-mode SM */
    int rf_warps;             /* of those, RF sets in the RF+L1 variant (the others are L1 sets) */
    int aux_regs;             /* auxiliary warp registers per RF warp */
    int l1_warp_regs;         /* warp registers an L1 / shared-memory warp needs */
    int l1_kib;               /* unified L1 capacity a cache-mode SM gives the extended LLC */
    int smem_kib;             /* shared-memory capacity in the shared-memory-only variant */
    /* server model of a cache-mode SM (G11): per-request occupancy of its warp */
    double svc_tag_ns, svc_move_ns, svc_store_ns;
    int compression;          /* BDI in the helper kernel (Morpheus-Compression, §4.3.1) */
    int bdi_base_bytes;       /* a compressed block's base slot in an auxiliary register (G13) */
    double svc_decomp_ns;     /* extra service time of a compressed block (G13: 2-4 instructions) */
    double ext_pj_per_byte;   /* extended-LLC energy per byte moved (document §5: 61 pJ/B for RF+L1) */
    /* controller (§3.4, G6) */
    int ctl_latency;          /* core cycles before the predictor (-1: -rop_latency) */
    int queue_depth;          /* request-queue entries per controller */
    int wst_rows;             /* warp-status-table rows per controller (L2 slice) */
    /* baselines of the document's §6 (llc_baselines.h): configurations derived from the others */
    int larger_llc_sms;       /* larger-LLC: each L2 slice gains the capacity of this many cache-mode SMs */
    double freq_boost;        /* Frequency-Boost: % on the icnt/L2/DRAM clocks (-1: from the gated SMs) */
    int boost_gated_max;      /* gated SMs at which the automatic boost reaches its 20% */
    int unified_sm_mem;       /* Unified-SM-Mem: unused registers of a kernel become L1D ways */
    int unified_base_ways;    /* derived: the L1D's own ways (the rest are register-file ways) */
    /* controller cost (§7.5): storage report and power */
    int rbuf_entries, wbuf_entries; /* read / write data buffer entries (128 B each) */
    int buffer_stall;         /* the timing stalls on a full read / write data buffer (mctl.h) */
    int noc_xbar;             /* controller <-> cache-mode SM packets cross the compute crossbar (1) or ext_link (0) */
    int llc_stats;            /* gpu.llc.* (LLC hits and throughput) without cache-mode SMs too */
    double ctl_power_frac;    /* controller power as a fraction of the GPU's (0.93%) */
    int addr_bits;            /* physical address bits (WST tags in the storage report) */
} llc_config;

int llc_options_register(opt_registry *r, llc_config *c, strbuf *err);
/* Also resolves the SM modes for a GPU of n_sms SMs, so a bad list is reported before anything runs. */
int llc_config_check(const opt_registry *r, const llc_config *c, int n_sms, strbuf *err);
/* Options of the baselines and of the controller's cost (llc_baselines.c). */
int llc_baseline_options_register(opt_registry *r, llc_config *c, strbuf *err);

#endif
