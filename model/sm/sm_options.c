#include "sm_config.h"
#include "fu_class.h"
#include "../cbwt/pdp_l1.h"
#include "sched.h"

#include <string.h>

#include "../config/opt_check.h"
#include "../config/opt_limits.h"

/* Warp-scheduler policies the configuration accepts; issue 5 and the techniques implement them. */
static const gsim_policy_choice schedulers[] = {
    {"lrr", 0, 0, ""},
    {"gto", 0, 0, ""},
    {"two_level_active", 1, 3, ":active_warps[:inner:outer]"},
    {"warp_limiting", 1, 2, ":max_warps, or GPGPU-Sim's :2:max_warps (2 = GTO)"},
    {"laws", 0, 2, "[:wgt_entries 1..16[:merge_is_hit 0|1]] (APRES LAWS)"},
    {"ccws", 0, 3, "[:vta_ways[:k_throttle[:base]]] (CCWS)"},
    {"mascar", 0, 1, "[:rexq_entries 0..256] (MASCAR)"},
    {"pa", 0, 1, "[:group_size 1..64] (prefetch-aware two-level)"},
    {NULL, 0, 0, NULL},
};
GSIM_POLICY_TYPE(scheduler_type, schedulers);
static const char *const l1_prefetchers[] = {"none", "str", "sld", "sap", NULL};
GSIM_INT_LIST_TYPE(widths_type, 7, 32, 0, 64);
GSIM_INT_LIST_TYPE(latency_type, 5, 6, 1, 100000);

int sm_options_register(opt_registry *r, sm_config *c, strbuf *e)
{
    const char *b = "sm";
    int rc = 0;
    rc |= opt_add_custom(r, b, "-gpgpu_shader_core_pipeline", &gsim_opt_pair, &c->core_pipeline, "1536:32",
                         "max threads per SM : warp size", e);
    rc |= opt_add_int(r, b, "-gpgpu_shader_registers", &c->registers, "32768", 1, 1 << 20, "32-bit registers per SM", e);
    rc |= opt_add_int(r, b, "-gpgpu_max_regs_per_thread", &c->max_regs_per_thread, "63", 1, 255,
                      "most registers one thread may use (Fermi 63, Kepler and later 255)", e);
    rc |= opt_add_int(r, b, "-gpgpu_shader_cta", &c->max_ctas, "8", 1, 256, "CTA (thread block) slots per SM", e);
    rc |= opt_add_int(r, b, "-gpgpu_shmem_size", &c->shmem_size, "49152", 0, 1 << 24, "shared memory per SM in bytes", e);
    rc |= opt_add_int(r, b, "-gpgpu_shmem_num_banks", &c->shmem_banks, "32", 1, 256, "shared memory banks", e);
    rc |= opt_add_int(r, b, "-gpgpu_smem_latency", &c->smem_latency, "3", 1, SM_MAX_LATENCY, "shared memory access latency in core cycles", e);
    rc |= opt_add_int(r, b, "-gpgpu_num_sched_per_core", &c->n_schedulers, "2", 1, 32, "warp schedulers per SM", e);
    rc |= opt_add_custom(r, b, "-gpgpu_scheduler", &scheduler_type, &c->scheduler, "lrr",
                         "warp scheduler: lrr, gto, two_level_active:N[:inner:outer], warp_limiting:N (or GPGPU-Sim's warp_limiting:2:N)", e);
    rc |= opt_add_enum(r, b, "-gtlm_l1_prefetcher", &c->l1_prefetcher, l1_prefetchers, "none",
                       "L1D prefetcher for global loads: none, str (per-PC stride), sld (4-line macro blocks), "
                       "sap (APRES; needs -gpgpu_scheduler laws)", e);
    rc |= opt_add_int(r, b, "-gtlm_l1_prefetch_table", &c->prefetch_table, "10", 1, 64,
                      "STR and SAP table entries (APRES' PT has 10)", e);
    rc |= opt_add_bool(r, b, "-gtlm_sap_return_present", &c->sap_return_present, "1",
                       "SAP also returns to LAWS the target warps whose predicted line is already present or pending "
                       "(spec gap 8); 0: only those a prefetch went out for", e);
    rc |= opt_add_int(r, b, "-gtlm_l1_prefetch_issue", &c->prefetch_issue, "1", 0, 2,
                      "when queued L1D prefetches access the L1: 0 all at the trigger, 1 one per cycle the demand "
                      "stream leaves the tag port idle, 2 one per cycle on a port of their own", e);
    rc |= opt_add_bool(r, b, "-gtlm_apres_stats", &c->apres_stats, "0",
                       "APRES statistics: L1D hit-after-hit/miss, cold vs capacity+conflict misses, demand and "
                       "prefetch latency and bytes", e);
    rc |= opt_add_int(r, b, "-gpgpu_max_insn_issue_per_warp", &c->max_insn_issue_per_warp, "1", 1, 8,
                      "instructions one warp may issue per cycle", e);
    rc |= opt_add_bool(r, b, "-gpgpu_dual_issue_diff_exec_units", &c->dual_issue_diff_units, "1",
                       "dual issue only to different execution units", e);
    rc |= opt_add_int(r, b, "-gpgpu_num_reg_banks", &c->n_reg_banks, "16", 1, 1024, "register file banks per SM", e);
    rc |= opt_add_int(r, b, "-gpgpu_reg_file_port_throughput", &c->reg_file_port_throughput, "1", 1, 8,
                      "register reads one bank serves per cycle: k reads of a bank in one cycle delay the result by "
                      "ceil(k / this) - 1 cycles", e);
    rc |= opt_add_int(r, b, "-gtlm_indirect_mov_delay", &c->imov_delay, "1", 1, 16,
                      "mov.indirect (Morpheus' Indirect-MOV): cycles after its first register reads (the index) "
                      "before the operand collector requests the indexed register", e);
    rc |= opt_add_bool(r, b, "-gtlm_indirect_mov_stats", &c->imov_stats, "0",
                       "report the gpu.sm[i].imov.* statistics (indirect moves, their second reads and waits)", e);
    rc |= opt_add_bool(r, b, "-gpgpu_reg_bank_use_warp_id", &c->reg_bank_use_warp_id, "0",
                       "offset a register's bank by its warp id", e);
    rc |= opt_add_int(r, b, "-gtlm_result_stages", &c->result_stages, "-1", -1, 64,
                      "cycles from issue to a dependent issue beyond a non-memory unit's latency (GPGPU-Sim 4.2's operand "
                      "collector and writeback stages: 5); -1: 5 under -gtlm_gpgpusim_compat, else 0", e);
    rc |= opt_add_int(r, b, "-gtlm_ldst_result_stages", &c->ldst_result_stages, "-1", -1, 64,
                      "cycles a global/local load's result takes beyond the L1 latency (GPGPU-Sim 4.2's collector "
                      "stages before the LD/ST unit: 3 more than gtlm's); -1: 3 under -gtlm_gpgpusim_compat, else 0", e);
    rc |= opt_add_int(r, b, "-gtlm_smem_result_stages", &c->smem_result_stages, "-1", -1, 64,
                      "cycles a shared-memory load's result takes beyond -gpgpu_smem_latency (the same stages and the "
                      "LD/ST writeback register: 4); -1: 4 under -gtlm_gpgpusim_compat, else 0", e);
    rc |= opt_add_int(r, b, "-gtlm_atomic_stalls_warp", &c->atomic_stalls_warp, "-1", -1, 1,
                      "1: a warp with an atomic (atom, red) in flight issues no instruction until every lane's response "
                      "returned (GPGPU-Sim 4.2's shd_warp_t::waiting, kept there for its functional model); 0: only "
                      "register dependences wait; -1: 1 under -gtlm_gpgpusim_compat, else 0", e);
    rc |= opt_add_int(r, b, "-gtlm_gmem_skip_l1d_stores", &c->gmem_skip_l1d_stores, "-1", -1, 1,
                      "1: with -gpgpu_gmem_skip_L1D global stores bypass the L1D too (GPGPU-Sim 4.2's "
                      "ldst_unit::memory_cycle bypasses every global access); 0: loads only; -1: 1 under "
                      "-gtlm_gpgpusim_compat, else 0", e);
    rc |= opt_add_int(r, b, "-gpgpu_operand_collector_num_units_sp", &c->oc_units_sp, "6", 0, 1024, "operand collector units for SP", e);
    rc |= opt_add_int(r, b, "-gpgpu_operand_collector_num_units_sfu", &c->oc_units_sfu, "8", 0, 1024, "operand collector units for SFU", e);
    rc |= opt_add_int(r, b, "-gpgpu_operand_collector_num_units_mem", &c->oc_units_mem, "2", 0, 1024, "operand collector units for LD/ST", e);
    rc |= opt_add_int(r, b, "-gpgpu_operand_collector_num_units_dp", &c->oc_units_dp, "0", 0, 1024, "operand collector units for DP", e);
    rc |= opt_add_int(r, b, "-gpgpu_operand_collector_num_units_int", &c->oc_units_int, "0", 0, 1024, "operand collector units for INT", e);
    rc |= opt_add_int(r, b, "-gpgpu_operand_collector_num_units_gen", &c->oc_units_gen, "0", 0, 1024, "generic operand collector units", e);
    rc |= opt_add_custom(r, b, "-gpgpu_pipeline_widths", &widths_type, &c->pipeline_widths, "2,1,1,2,1,1,2",
                         "pipeline register widths ID_OC_SP,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_SFU,OC_EX_MEM,EX_WB[,...]", e);
    rc |= opt_add_int(r, b, "-gpgpu_num_sp_units", &c->n_sp_units, "2", 1, FU_MAX_UNITS, "SP (single-precision and integer) units per SM", e);
    rc |= opt_add_int(r, b, "-gpgpu_num_sfu_units", &c->n_sfu_units, "1", 0, FU_MAX_UNITS, "special-function units per SM", e);
    rc |= opt_add_int(r, b, "-gpgpu_num_dp_units", &c->n_dp_units, "0", 0, FU_MAX_UNITS, "double-precision units per SM (0: DP runs on SP)", e);
    rc |= opt_add_int(r, b, "-gpgpu_num_int_units", &c->n_int_units, "0", 0, FU_MAX_UNITS, "integer units per SM (0: integer runs on SP)", e);
    rc |= opt_add_int(r, b, "-gpgpu_num_tensor_core_units", &c->n_tensor_units, "0", 0, FU_MAX_UNITS, "tensor core units per SM", e);
    rc |= opt_add_bool(r, b, "-gpgpu_sub_core_model", &c->sub_core_model, "0",
                       "sub-cores (Volta and later): scheduler k issues only to its own instances of each unit "
                       "(i mod schedulers = k) and reads its warps' registers from its own share of the banks", e);
    rc |= opt_add_custom(r, b, "-ptx_opcode_latency_int", &latency_type, &c->lat_int, "4,13,4,5,145",
                         "integer latency ADD,MAX,MUL,MAD,DIV[,SHFL] in core cycles", e);
    rc |= opt_add_custom(r, b, "-ptx_opcode_initiation_int", &latency_type, &c->init_int, "1,2,2,1,8",
                         "integer initiation interval ADD,MAX,MUL,MAD,DIV[,SHFL]", e);
    rc |= opt_add_custom(r, b, "-ptx_opcode_latency_fp", &latency_type, &c->lat_fp, "4,13,4,5,39",
                         "single-precision latency ADD,MAX,MUL,MAD,DIV[,...]", e);
    rc |= opt_add_custom(r, b, "-ptx_opcode_initiation_fp", &latency_type, &c->init_fp, "1,2,1,1,4",
                         "single-precision initiation interval ADD,MAX,MUL,MAD,DIV[,...]", e);
    rc |= opt_add_custom(r, b, "-ptx_opcode_latency_dp", &latency_type, &c->lat_dp, "8,19,8,8,330",
                         "double-precision latency ADD,MAX,MUL,MAD,DIV[,...]", e);
    rc |= opt_add_custom(r, b, "-ptx_opcode_initiation_dp", &latency_type, &c->init_dp, "8,16,8,8,130",
                         "double-precision initiation interval ADD,MAX,MUL,MAD,DIV[,...]", e);
    rc |= opt_add_int(r, b, "-ptx_opcode_latency_sfu", &c->lat_sfu, "8", 1, SM_MAX_LATENCY, "special-function latency in core cycles", e);
    rc |= opt_add_int(r, b, "-ptx_opcode_initiation_sfu", &c->init_sfu, "8", 1, SM_MAX_LATENCY, "special-function initiation interval", e);
    rc |= opt_add_int(r, b, "-gpgpu_coalesce_arch", &c->coalesce_arch, "13", 10, 199,
                      "coalescing rules by compute capability x10 (13: Fermi-style 128 B segments)", e);
    /* CBWT (seeds/001 Sec. IV): protection-distance replacement and bypass in the L1D */
    rc |= opt_add_enum(r, b, "-pdp_mode", &c->pdp_mode, pdp_mode_names, "off",
                       "L1D protection-distance policy: off, static (SPDP-B, PD = -pdp_pd), private (PDP-P), "
                       "global (PDP-G, one predictor fed by every L1), shared (PDP-S, SM 0's prediction broadcast)", e);
    rc |= opt_add_int(r, b, "-pdp_pd", &c->pdp_pd, "4", 0, 64, /* doc: PD from the associativity to 64 */
                      "L1D protection distance in set accesses: the static PD, the initial PD when predicted", e);
    rc |= opt_add_int(r, b, "-pdp_period", &c->pdp_period, "16384", 1, 10000000,
                      "L1D loads per PD prediction period (doc: 16K accesses of the sampler L1)", e);
    rc |= opt_add_bool(r, b, "-pdp_bypass_mshr", &c->pdp_bypass_mshr, "1",
                       "a PDP-bypassed L1D load takes or merges into an MSHR entry (0: it skips the MSHRs)", e);
    rc |= opt_add_bool(r, b, "-rtl_sched", &c->rtl_sched, "0",
                       "warp selection (lrr, gto) by the Verilated RTL arbiter rtl/sched/warp_arbiter.sv instead of "
                       "the C core (identical results, slower; docs/rtl-cosim.md)", e);
    rc |= opt_add_string(r, b, "-rtl_record_sched", &c->rtl_record_sched, "",
                         "record SM 0 scheduler 0's queries and events to this file for the RTL testbench's replay "
                         "(lrr, gto; \"\" = none; gtlm run --record-block sched FILE)", e);
    return rc ? -1 : 0;
}

int sm_widths_decode(const gsim_int_list *l, sm_pipe_widths *w)
{
    const int *v = l->v;
    sm_pipe_widths d = {0};
    if (l->n == 7) {
        d.id_oc_sp = v[0], d.id_oc_sfu = v[1], d.id_oc_mem = v[2];
        d.oc_ex_sp = v[3], d.oc_ex_sfu = v[4], d.oc_ex_mem = v[5], d.ex_wb = v[6];
    } else if (l->n == 9) {
        d.id_oc_sp = v[0], d.id_oc_dp = v[1], d.id_oc_sfu = v[2], d.id_oc_mem = v[3];
        d.oc_ex_sp = v[4], d.oc_ex_dp = v[5], d.oc_ex_sfu = v[6], d.oc_ex_mem = v[7], d.ex_wb = v[8];
    } else if (l->n >= 11) {
        d.id_oc_sp = v[0], d.id_oc_dp = v[1], d.id_oc_int = v[2], d.id_oc_sfu = v[3], d.id_oc_mem = v[4];
        d.oc_ex_sp = v[5], d.oc_ex_dp = v[6], d.oc_ex_int = v[7], d.oc_ex_sfu = v[8], d.oc_ex_mem = v[9];
        d.ex_wb = v[10];
        if (l->n >= 13) d.id_oc_tensor = v[11], d.oc_ex_tensor = v[12];
    } else {
        return -1;
    }
    *w = d;
    return 0;
}

int sm_config_check(const opt_registry *r, const sm_config *c, strbuf *e)
{
    int bad = 0;
    bad |= opt_check(r, e, "-gpgpu_shader_core_pipeline", c->core_pipeline.second == 32,
                     "the warp size must be 32, got %d", c->core_pipeline.second);
    bad |= opt_check(r, e, "-gpgpu_shader_core_pipeline", c->core_pipeline.first % c->core_pipeline.second == 0,
                     "threads per SM (%d) must be a multiple of the warp size", c->core_pipeline.first);
    /* Ranges of single values are in the declarations; these are the checks between options. */
    int warps = c->core_pipeline.first / 32;
    bad |= opt_check(r, e, "-gpgpu_shader_core_pipeline", c->core_pipeline.first <= 65536,
                     "at most 65536 threads per SM, got %d", c->core_pipeline.first);
    bad |= opt_check(r, e, "-gpgpu_num_sched_per_core", c->n_schedulers <= warps,
                     "more warp schedulers (%d) than warps per SM (%d)", c->n_schedulers, warps);
    if (!bad) {
        /* Build one scheduler as the SM will: a policy's parameters are checked by the policy. */
        sched s;
        strbuf why;
        strbuf_init(&why);
        int ok = sched_init(&s, &c->scheduler, (uint32_t)warps, 0, (uint32_t)c->n_schedulers, &why) == 0;
        if (ok) sched_free(&s);
        bad |= opt_check(r, e, "-gpgpu_scheduler", ok, "%s", strbuf_str(&why));
        strbuf_free(&why);
    }
    if (c->sub_core_model) { /* each scheduler gets an equal share of the banks and of every unit */
        int n = c->n_schedulers;
        bad |= opt_check_pair(r, e, "-gpgpu_num_reg_banks", "-gpgpu_sub_core_model", c->n_reg_banks % n == 0,
                              "with -gpgpu_sub_core_model 1 the %d register banks must split evenly among %d "
                              "schedulers", c->n_reg_banks, n);
        const struct { const char *name; int count; } u[] = {{"-gpgpu_num_sp_units", c->n_sp_units},
                                                            {"-gpgpu_num_sfu_units", c->n_sfu_units},
                                                            {"-gpgpu_num_dp_units", c->n_dp_units},
                                                            {"-gpgpu_num_int_units", c->n_int_units}};
        for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
            bad |= opt_check_pair(r, e, u[i].name, "-gpgpu_sub_core_model", u[i].count % n == 0,
                                  "with -gpgpu_sub_core_model 1 the %d units must split evenly among %d schedulers",
                                  u[i].count, n);
    }
    bad |= opt_check(r, e, "-gtlm_l1_prefetcher", c->l1_prefetcher != 3 || strcmp(c->scheduler.name, "laws") == 0,
                     "sap prefetches for LAWS' warp groups: needs -gpgpu_scheduler laws, got %s", c->scheduler.name);
    sm_pipe_widths w = {0};
    int decoded = sm_widths_decode(&c->pipeline_widths, &w) == 0;
    bad |= opt_check(r, e, "-gpgpu_pipeline_widths", decoded,
                     "expected 7 (GPGPU-Sim 3.x), 9, or 11 to 13 and more (4.x) widths, got %d", c->pipeline_widths.n);
    if (decoded)
        bad |= opt_check(r, e, "-gpgpu_pipeline_widths", w.id_oc_sp > 0 && w.id_oc_mem > 0 && w.oc_ex_sp > 0 &&
                                                             w.oc_ex_mem > 0 && w.ex_wb > 0,
                         "the SP, MEM and write-back stages need a width of at least 1");
    return bad ? -1 : 0;
}
