/* Options owned by the SM (shader core): occupancy limits, issue, pipelines, latencies. */
#ifndef GTLM_SM_CONFIG_H
#define GTLM_SM_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

/* Pipeline-register widths by stage; -gpgpu_pipeline_widths lists them in an order that depends
 * on the GPGPU-Sim version that wrote the file (7, 9 or 11-13 entries, see sm_widths_decode). */
typedef struct sm_pipe_widths {
    int id_oc_sp, id_oc_dp, id_oc_int, id_oc_sfu, id_oc_mem, id_oc_tensor;
    int oc_ex_sp, oc_ex_dp, oc_ex_int, oc_ex_sfu, oc_ex_mem, oc_ex_tensor;
    int ex_wb;
} sm_pipe_widths;

typedef struct sm_config {
    gsim_int_pair core_pipeline;   /* max threads per SM : warp size */
    int registers;                 /* 32-bit registers per SM */
    int max_regs_per_thread;
    int max_ctas;                  /* CTA slots per SM */
    int shmem_size;                /* bytes of shared memory per SM */
    int shmem_banks;
    int smem_latency;              /* core cycles */
    int n_schedulers;              /* warp schedulers per SM */
    gsim_policy_spec scheduler;    /* lrr, gto, two_level_active:..., warp_limiting:... */
    int l1_prefetcher;             /* sm_l1_prefetcher: 0 none, 1 str, 2 sld, 3 sap (APRES) */
    int prefetch_table;            /* STR / SAP table entries */
    int sap_return_present;        /* -gtlm_sap_return_present: SAP returns targets whose line is present or pending */
    int prefetch_issue;            /* -gtlm_l1_prefetch_issue: 0 at the trigger, 1 on the idle L1 port, 2 own port */
    int apres_stats;               /* -gtlm_apres_stats: L1 locality, latency and traffic counters (sm_locality.c) */
    int max_insn_issue_per_warp;   /* instructions a warp may issue per cycle */
    int dual_issue_diff_units;
    int n_reg_banks;
    int reg_file_port_throughput;  /* register reads one bank serves per cycle */
    int imov_delay;  /* mov.indirect: collector cycles from its first reads to its second, serial read */
    int imov_stats;  /* register the gpu.sm[i].imov.* statistics */
    int reg_bank_use_warp_id;
    int result_stages; /* cycles a non-memory result takes beyond its unit latency; -1: by compat mode */
    int ldst_result_stages; /* cycles an L1D-path load's result takes beyond gtlm's LD/ST timing; -1: by compat */
    int smem_result_stages; /* the same for shared-memory loads; -1: by compat mode */
    int atomic_stalls_warp; /* a warp with an atomic in flight issues nothing (GPGPU-Sim 4.2); -1: by compat */
    int gmem_skip_l1d_stores; /* -gpgpu_gmem_skip_L1D also sends global stores past the L1D; -1: by compat */
    int oc_units_sp, oc_units_sfu, oc_units_mem, oc_units_dp, oc_units_int, oc_units_gen;
    gsim_int_list pipeline_widths;
    int n_sp_units, n_sfu_units, n_dp_units, n_int_units, n_tensor_units;
    int sub_core_model;
    gsim_int_list lat_int, init_int, lat_fp, init_fp, lat_dp, init_dp;
    int lat_sfu, init_sfu;
    int coalesce_arch;
    int pdp_mode;                  /* CBWT: L1D protection-distance policy (pdp_l1.h), 0 = off */
    int pdp_pd;                    /* static PD, and the initial PD of the predicting modes */
    int pdp_period;                /* L1D loads per PD prediction period */
    int pdp_bypass_mshr;
    int rtl_sched;                 /* -rtl_sched: the Verilated warp arbiter selects (tlm/rtl, issue 24) */
    char *rtl_record_sched;        /* -rtl_record_sched: file recording SM 0 scheduler 0's sequence, "" = none */           /* a PDP-bypassed load keeps (merges in) an MSHR entry; 0: skips the MSHRs */
} sm_config;

/* Decodes -gpgpu_pipeline_widths by its length: 7 entries (3.x: SP,SFU,MEM for ID_OC and OC_EX,
 * then EX_WB), 9 (DP added after SP), or 11 to 13 and more (4.x: SP,DP,INT,SFU,MEM for both
 * stages, EX_WB, then the tensor-core stages; specialized units beyond are ignored).
 * Returns 0, or -1 for a length none of these versions wrote. */
int sm_widths_decode(const gsim_int_list *l, sm_pipe_widths *w);

int sm_options_register(opt_registry *r, sm_config *c, strbuf *err);
int sm_config_check(const opt_registry *r, const sm_config *c, strbuf *err);

#endif
