// The SM's statistics: its core's counters and its L1 caches', under gpu.sm[i].
#include <string>

#include "kernel/error.h"
#include "sm/sm_module.h"

extern "C" {
#include "common/status.h"
#include "sm/sched_ccws.h"
#include "sm/sched_laws.h"
#include "sm/sched_mascar.h"
}
#include "top/miss_class_stats.h"
#include "top/power_stats.h"

namespace gtlm {

namespace {

struct Entry {
    const char *leaf;
    uint64_t *src;
    const char *unit;
    const char *desc;
};

void add_all(stat_registry *r, const std::string &prefix, const Entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) stat_add_counter(r, (prefix + e[i].leaf).c_str(), e[i].src, e[i].unit, e[i].desc, nullptr);
}

void add_cache(stat_registry *r, const std::string &prefix, cache_stats *c)
{
    const Entry e[] = {
        {"accesses", &c->accesses, "accesses",
         "tag lookups, reservation failures (retried) included (GPGPU-Sim's accesses exclude them: gpu.l1d.accepted)"},
        {"reads", &c->reads, "accesses", "read accesses"},
        {"writes", &c->writes, "accesses", "write accesses"},
        {"hits", &c->hits, "accesses", "hits (GPGPU-Sim's: writes to absent or pending sectors of a present line are not)"},
        {"served_hits", &c->served_hits, "accesses", "accesses served as hits (the power model's data-array reads)"},
        {"hit_reserved", &c->hit_reserved, "accesses", "accesses merged into a pending MSHR entry"},
        {"misses", &c->misses, "accesses", "misses (including sector misses)"},
        {"sector_misses", &c->sector_misses, "accesses", "misses on a line whose tag was present"},
        {"res_fail_line_alloc", &c->res_fail[CACHE_FAIL_LINE_ALLOC], "accesses", "reservation failures: no victim line"},
        {"res_fail_mshr_entry", &c->res_fail[CACHE_FAIL_MSHR_ENTRY], "accesses", "reservation failures: no MSHR entry"},
        {"res_fail_mshr_merge", &c->res_fail[CACHE_FAIL_MSHR_MERGE], "accesses", "reservation failures: MSHR merge limit"},
        {"res_fail_miss_queue", &c->res_fail[CACHE_FAIL_MISS_QUEUE], "accesses", "reservation failures: miss queue full"},
        {"evictions", &c->evictions, "lines", "valid lines evicted"},
        {"writebacks", &c->dirty_writebacks, "lines", "dirty lines written back"},
        {"fills", &c->fills, "fills", "fills received"},
    };
    add_all(r, prefix, e, sizeof e / sizeof *e);
    stat_add_ratio(r, (prefix + "miss_rate").c_str(), (prefix + "misses").c_str(), (prefix + "accesses").c_str(), "ratio",
                   "misses per tag lookup (failed lookups included)", nullptr);
}

double constant_of(const stat_registry *, stat_scope, const void *ctx)
{
    return static_cast<double>(*static_cast<const uint64_t *>(ctx));
}

// Only with -gtlm_l1_prefetcher other than none: other runs keep their statistics.
void add_prefetch(stat_registry *r, const std::string &prefix, sm_core &core)
{
    cache_pf_stats *f = &core.l1d.pf;
    const Entry e[] = {
        {"issued", &f->issued, "lines", "prefetches sent to L2 (an MSHR each)"},
        {"redundant", &f->redundant, "lines", "prefetches of lines already present or pending"},
        {"dropped", &f->dropped, "lines", "prefetches dropped: no free MSHR, line or miss-queue slot"},
        {"useful", &f->useful, "lines", "prefetched lines demanded while resident"},
        {"late_merged", &f->late_merged, "lines", "prefetches a demand read merged into before the fill"},
        {"evicted_unused", &f->evicted_unused, "lines", "prefetched lines evicted before any demand"},
        {"early_evicted", &f->early_evicted, "lines", "... of which a demand asked for the line later"},
        {"correct", &f->correct, "lines", "prefetched lines demanded at all: useful + late_merged + early_evicted"},
        {"sap_targets", &core.pf.sap_targets, "warps", "SAP: prefetch target warps moved to LAWS' queue head"},
        {"sap_triggers", &core.pf.sap.triggers, "events", "SAP: LAWS group-head misses checked against the PT"},
        {"sap_stride_matches", &core.pf.sap.stride_matches, "events", "SAP: ... whose inter-warp stride matched"},
        {"sap_pt_hits", &core.pf.sap.pt_hits, "events", "SAP: global loads that found their PC in the PT"},
        {"sap_trains", &core.pf.sap.trains, "events", "SAP: global loads the PT learnt from"},
        {"sap_superseded", &core.pf.superseded, "lines", "SAP: queued prefetches a newer group's trigger replaced"},
        {"sap_stale", &core.pf.stale, "lines", "SAP: queued prefetches whose target warp had exited"},
        {"port_shared", &core.pf.port_shared, "lines", "prefetches that took the L1D tag port in a demand request's cycle"},
        {"queue_full", &core.pf.queue_full, "lines", "STR/SLD: prefetches refused by a full prefetch queue"},
    };
    add_all(r, prefix, e, sizeof e / sizeof *e);
    stat_add_ratio(r, (prefix + "early_eviction_ratio").c_str(), (prefix + "early_evicted").c_str(),
                   (prefix + "correct").c_str(), "ratio", "APRES' early-eviction ratio: early_evicted / correct", nullptr);
    if (core.pf.kind != 3) return;
    const Entry sap_bits[] = {
        {"sap_table_bits", &core.pf.sap.table_bits, "bits", "SAP: PT, WQ and DRQ bits read, written or compared (energy)"}};
    add_all(r, prefix, sap_bits, 1);
    stat_add_ratio(r, (prefix + "sap_stride_match_rate").c_str(), (prefix + "sap_stride_matches").c_str(),
                   (prefix + "sap_triggers").c_str(), "ratio", "SAP: triggers whose inter-warp stride matched", nullptr);
    // a property, not a count (counters restart at every kernel): derived from the SM's constant
    stat_add_derived(r, (prefix + "apres_storage_bytes").c_str(), constant_of, &core.pf.storage_bytes, "bytes",
                     "APRES' storage per SM (Table II: LLT + WGT + DRQ + WQ + PT; 724 B for 48 warps, 3 WGT, 10 PT)", nullptr);
}

// -gtlm_apres_stats: the document's cache breakdown, latency and traffic (sm_locality.c).
void add_locality(stat_registry *r, const std::string &p, sm_locality *l)
{
    const Entry e[] = {
        {"hit_after_hit", &l->hit_after_hit, "accesses", "L1D demand reads that hit after a hit"},
        {"hit_after_miss", &l->hit_after_miss, "accesses", "L1D demand reads that hit after a miss or merge"},
        {"merged", &l->merged, "accesses", "L1D demand reads merged into a pending MSHR"},
        {"cold_misses", &l->cold_misses, "accesses", "L1D misses on a line never filled into this L1"},
        {"capacity_conflict_misses", &l->capacity_misses, "accesses", "L1D misses on a line filled before and evicted"},
        {"demand_latency_sum", &l->demand_latency_sum, "cycles", "request-to-response cycles of demand reads, summed"},
        {"demand_latency_n", &l->demand_latency_n, "requests", "demand reads with a response"},
        {"demand_bytes", &l->demand_bytes, "bytes", "data brought to the SM by demand reads"},
        {"prefetch_latency_sum", &l->pf_latency_sum, "cycles", "request-to-response cycles of prefetches, summed"},
        {"prefetch_latency_n", &l->pf_latency_n, "requests", "prefetches with a response"},
        {"prefetch_bytes", &l->pf_bytes, "bytes", "data brought to the SM by prefetches"},
    };
    add_all(r, p, e, sizeof e / sizeof *e);
    stat_add_ratio(r, (p + "demand_latency_avg").c_str(), (p + "demand_latency_sum").c_str(), (p + "demand_latency_n").c_str(),
                   "cycles", "average memory latency of demand reads", nullptr);
}

// Scheduler internals, only for the policies that have them (LAWS, CCWS, MASCAR).
void add_sched(stat_registry *r, const std::string &p, sm_core &core)
{
    for (uint32_t k = 0; k < core.n_sched; k++) {
        sched *s = &core.scheds[k];
        std::string q = p + "sched[" + std::to_string(k) + "].";
        if (s->pol == &sched_policy_laws) {
            laws_state *l = static_cast<laws_state *>(s->pstate);
            const Entry e[] = {
                {"laws.groups", &l->groups, "groups", "LAWS: warp groups formed (WGT entries allocated)"},
                {"laws.group_members", &l->group_members, "warps", "LAWS: warps in those groups, summed (size = this / groups)"},
                {"laws.wgt_full", &l->wgt_full, "loads", "LAWS: global loads issued ungrouped (WGT full)"},
                {"laws.head_moves", &l->head_moves, "groups", "LAWS: groups moved to the queue head (hit)"},
                {"laws.tail_moves", &l->tail_moves, "groups", "LAWS: groups moved to the queue tail (miss)"},
                {"laws.stale_groups", &l->stale_groups, "groups", "LAWS: groups freed without feedback"},
                {"laws.prefetch_moves", &l->prefetch_moves, "events", "LAWS: SAP target lists moved to the head"},
                {"laws.table_bits", &l->table_bits, "bits", "LAWS: LLT and WGT bits read, written or compared (energy)"},
            };
            add_all(r, q, e, sizeof e / sizeof *e);
        } else if (s->pol == &sched_policy_ccws) {
            ccws_state *c = static_cast<ccws_state *>(s->pstate);
            const Entry e[] = {
                {"ccws.vta_hits", &c->vta_hits, "events", "CCWS: misses found in the warp's victim tags (lost locality)"},
                {"ccws.vta_inserts", &c->vta_inserts, "lines", "CCWS: evicted lines entered into a victim tag array"},
                {"ccws.throttled_warp_cycles", &c->throttled_warp_cycles, "warp-cycles", "CCWS: warps held above the cutoff"},
            };
            add_all(r, q, e, sizeof e / sizeof *e);
        } else if (s->pol == &sched_policy_mascar) {
            mascar_state *m = static_cast<mascar_state *>(s->pstate);
            const Entry e[] = {
                {"mascar.to_mp", &m->to_mp, "events", "MASCAR: switches into memory-priority mode (saturation)"},
                {"mascar.to_ep", &m->to_ep, "events", "MASCAR: switches back to equal-priority mode"},
                {"mascar.mp_cycles", &m->mp_cycles, "cycles", "MASCAR: scheduler cycles in memory-priority mode"},
                {"mascar.owner_changes", &m->owner_changes, "events", "MASCAR: memory ownership passed to another warp"},
                {"mascar.held_mem_warps", &m->held_mem_warps, "warp-cycles", "MASCAR: ready warps held at a memory instruction"},
            };
            add_all(r, q, e, sizeof e / sizeof *e);
        }
    }
    if (core.n_sched && core.scheds[0].pol == &sched_policy_laws) // the SM's total, for the power model
        stat_add_sum(r, (p + "laws.table_bits").c_str(), (p + "sched[*].laws.table_bits").c_str(), "bits",
                     "LAWS: LLT and WGT bits read, written or compared, all schedulers (energy)", nullptr);
    if (core.rexq.e) {
        const Entry e[] = {
            {"ldst.rexq_parked", &core.rexq.parked, "requests", "MASCAR: L1D-refused loads parked in the re-execution queue"},
            {"ldst.rexq_replayed", &core.rexq.replayed, "requests", "MASCAR: parked loads re-executed"},
            {"ldst.rexq_full", &core.rexq.full, "requests", "MASCAR: refused loads that found the queue full (the unit stalled)"},
        };
        add_all(r, p, e, sizeof e / sizeof *e);
    }
    if (core.mrpb.n_queues) {
        const Entry e[] = {
            {"ldst.mrpb_pushed", &core.mrpb.pushed, "requests", "MRPB: L1D requests that entered the reorder buffer"},
            {"ldst.mrpb_full", &core.mrpb.full, "attempts", "MRPB: cycles the LD/ST unit found its warp's queue full"},
            {"ldst.mrpb_switches", &core.mrpb.switches, "events", "MRPB: the drain moved to another warp's queue"},
        };
        add_all(r, p, e, sizeof e / sizeof *e);
    }
}

// A sum of statistics (ctx: their names, nullptr-terminated).
double sum_of(const stat_registry *r, stat_scope scope, const void *ctx)
{
    double total = 0, v;
    for (const char *const *n = static_cast<const char *const *>(ctx); *n; n++)
        if (stat_get(r, *n, scope, &v) == 0) total += v;
    return total;
}

const char *const kDemandReads[] = {"gpu.apres.hit_after_hit", "gpu.apres.hit_after_miss", "gpu.apres.merged",
                                    "gpu.apres.cold_misses", "gpu.apres.capacity_conflict_misses", nullptr};
const char *const kRfConflicts[] = {"gpu.lb.rf_operand_conflict_cycles", "gpu.lb.rf_nonop_conflict_cycles", nullptr};
const char *const kTraffic[] = {"gpu.apres.demand_bytes", "gpu.apres.prefetch_bytes", nullptr};

// GPU totals of the APRES statistics (registered once, by SM 0; the sums join every SM's counters),
// for the experiment's metrics: gpu.apres.*, gpu.l1d.prefetch.*, gpu.laws.*, gpu.mascar.*.
void add_gpu_sums(stat_registry *r, const sm_core &core)
{
    auto sum = [r](const std::string &leaf, const std::string &pat, const char *unit) {
        stat_add_sum(r, ("gpu." + leaf).c_str(), pat.c_str(), unit, "APRES statistic, all SMs", nullptr);
    };
    if (core.loc.on) {
        for (const char *leaf : {"hit_after_hit", "hit_after_miss", "merged", "cold_misses", "capacity_conflict_misses",
                                 "demand_latency_sum", "demand_latency_n", "demand_bytes", "prefetch_bytes"})
            sum(std::string("apres.") + leaf, std::string("gpu.sm[*].apres.") + leaf, "count");
        stat_add_derived(r, "gpu.apres.demand_reads", sum_of, kDemandReads, "accesses",
                         "L1D demand reads classified (the five classes), all SMs", nullptr);
        stat_add_derived(r, "gpu.apres.traffic_bytes", sum_of, kTraffic, "bytes",
                         "data moved from memory to the SMs: demand + prefetch", nullptr);
        stat_add_ratio(r, "gpu.apres.demand_latency_avg", "gpu.apres.demand_latency_sum", "gpu.apres.demand_latency_n",
                       "cycles", "average memory latency of demand reads, all SMs", nullptr);
    }
    if (core.pf.kind) {
        for (const char *leaf : {"issued", "dropped", "useful", "late_merged", "evicted_unused", "early_evicted", "correct"})
            sum(std::string("l1d.prefetch.") + leaf, std::string("gpu.sm[*].l1d.prefetch.") + leaf, "lines");
        stat_add_ratio(r, "gpu.l1d.prefetch.early_eviction_ratio", "gpu.l1d.prefetch.early_evicted",
                       "gpu.l1d.prefetch.correct", "ratio", "early-eviction ratio, all SMs", nullptr);
        if (core.pf.kind == 3) sum("l1d.prefetch.sap_table_bits", "gpu.sm[*].l1d.prefetch.sap_table_bits", "bits");
    }
    if (core.scheds[0].pol == &sched_policy_laws)
        for (const char *leaf : {"groups", "group_members", "wgt_full", "head_moves", "tail_moves", "table_bits"})
            sum(std::string("laws.") + leaf, std::string("gpu.sm[*].sched[*].laws.") + leaf, "count");
    if (core.scheds[0].pol == &sched_policy_mascar)
        for (const char *leaf : {"to_mp", "mp_cycles"})
            sum(std::string("mascar.") + leaf, std::string("gpu.sm[*].sched[*].mascar.") + leaf, "count");
}

// GPU-wide Linebacker totals (issue 18 statistics): sums of the per-SM counters, the request
// breakdown's Reg-hit share, the time-averaged unused registers (SUR / DUR) and the buffer's bytes.
// #reg of the last kernel: a property, the same in both scopes.
double lb_cta_regs(const stat_registry *, stat_scope, const void *ctx)
{
    return static_cast<double>(static_cast<const sm_core *>(ctx)->rf.cta_nreg);
}

double lb_overhead(const stat_registry *r, stat_scope scope, const void *)
{
    double b = 0, rs = 0;
    stat_get(r, "gpu.lb.backup_bytes", scope, &b);
    stat_get(r, "gpu.lb.restore_bytes", scope, &rs);
    return b + rs;
}

// The request breakdown (Fig. 13): Reg hits, L1 hits, misses and bypasses of global/local reads.
double lb_requests(const stat_registry *r, stat_scope scope)
{
    double a = 0, b = 0, c = 0;
    stat_get(r, "gpu.lb.l1d_reads", scope, &a);
    stat_get(r, "gpu.lb.reg_hits", scope, &b);
    stat_get(r, "gpu.lb.bypasses", scope, &c);
    return a + b + c;
}

double lb_share(const stat_registry *r, stat_scope scope, const void *ctx)
{
    double n = 0, all = lb_requests(r, scope);
    stat_get(r, static_cast<const char *>(ctx), scope, &n);
    return all > 0 ? n / all : 0.0;
}

void register_lb_totals(stat_registry *r)
{
    for (const char *leaf : {"reg_hits", "vtt_misses", "victims_stored", "victims_dropped", "search_cycles", "throttles",
                             "reactivations", "backups", "restores", "restores_on_completion", "backup_bytes",
                             "restore_bytes", "sur_reg_cycles", "dur_reg_cycles", "vp_reg_cycles", "active_cta_cycles"}) {
        std::string path = std::string("gpu.lb.") + leaf, pat = std::string("gpu.sm[*].lb.") + leaf;
        stat_add_sum(r, path.c_str(), pat.c_str(), "count", "Linebacker, summed over every SM (gpu.sm[i].lb.*)", nullptr);
    }
    stat_add_sum(r, "gpu.lb.sm_cycles", "gpu.sm[*].cycles", "cycles", "SM cycles with a CTA resident, all SMs", nullptr);
    stat_add_sum(r, "gpu.lb.l1d_reads", "gpu.sm[*].l1d.reads", "accesses", "L1 data cache reads, all SMs", nullptr);
    stat_add_sum(r, "gpu.lb.l1d_read_hits", "gpu.sm[*].l1d.hits", "accesses", "L1 data cache hits, all SMs", nullptr);
    stat_add_sum(r, "gpu.lb.bypasses", "gpu.sm[*].bypass_requests", "requests", "loads that skipped the L1, all SMs", nullptr);
    stat_add_derived(r, "gpu.lb.reg_hit_share", lb_share, "gpu.lb.reg_hits", "ratio",
                     "Reg hits / (L1 reads + Reg hits + bypassed loads): the Fig. 13 breakdown's Reg-hit share", nullptr);
    stat_add_derived(r, "gpu.lb.l1_hit_share", lb_share, "gpu.lb.l1d_read_hits", "ratio",
                     "L1 hits / the same requests", nullptr);
    stat_add_ratio(r, "gpu.lb.sur_regs_avg", "gpu.lb.sur_reg_cycles", "gpu.lb.sm_cycles", "warp registers",
                   "statically unused warp registers per SM, time average (x 128 B)", nullptr);
    stat_add_ratio(r, "gpu.lb.dur_regs_avg", "gpu.lb.dur_reg_cycles", "gpu.lb.sm_cycles", "warp registers",
                   "throttled CTAs' warp registers per SM, time average (x 128 B)", nullptr);
    stat_add_ratio(r, "gpu.lb.vp_regs_avg", "gpu.lb.vp_reg_cycles", "gpu.lb.sm_cycles", "warp registers",
                   "warp registers used as victim storage per SM, time average", nullptr);
    stat_add_ratio(r, "gpu.lb.active_ctas_avg", "gpu.lb.active_cta_cycles", "gpu.lb.sm_cycles", "CTAs",
                   "schedulable CTAs per SM, time average", nullptr);
    stat_add_derived(r, "gpu.lb.overhead_bytes", lb_overhead, nullptr, "bytes",
                     "register backup + restore bytes at the SMs' ports (Linebacker's traffic overhead)", nullptr);
    stat_add_sum(r, "gpu.lb.rf_operand_conflict_cycles", "gpu.sm[*].regfile.bank_conflict_cycles", "cycles",
                 "operand-read bank-conflict cycles, all SMs", nullptr);
    stat_add_sum(r, "gpu.lb.rf_nonop_conflict_cycles", "gpu.sm[*].regfile.nonop_conflict_cycles", "cycles",
                 "victim / backup / CERF line accesses' bank-conflict cycles, all SMs", nullptr);
    stat_add_derived(r, "gpu.lb.rf_conflict_cycles", sum_of, kRfConflicts, "cycles",
                     "register-file bank-conflict cycles, operand and non-operand (Fig. 16)", nullptr);
}

// -lb_load_stats: the Load Monitor's outcome per hashed PC, per SM and summed over the SMs (once).
void register_lb_loads(stat_registry *r, const std::string &p, bool totals, sm_stats *s)
{
    for (int h = 0; h < LB_LM_ENTRIES; h++) {
        std::string leaf = "lb.load[" + std::to_string(h) + "].";
        const Entry e[] = {
            {"hits", &s->lb_ld_hits[h], "accesses", "Linebacker monitoring: this hashed PC's L1 or victim-tag hits"},
            {"misses", &s->lb_ld_misses[h], "accesses", "Linebacker monitoring: its misses"},
            {"high_periods", &s->lb_ld_high[h], "periods", "Linebacker monitoring: periods above the hit threshold"},
            {"selected", &s->lb_ld_selected[h], "kernels", "Linebacker: kernels in which it was selected"},
        };
        add_all(r, p + leaf, e, sizeof e / sizeof *e);
        if (!totals) continue;
        for (const char *k : {"hits", "misses", "high_periods", "selected"}) {
            std::string path = "gpu." + leaf + k, pat = "gpu.sm[*]." + leaf + k;
            stat_add_sum(r, path.c_str(), pat.c_str(), "count", "Linebacker per hashed PC, summed over every SM", nullptr);
        }
    }
}

// Linebacker's comparison baselines (PCAL, CacheExt, CERF; sm_lbcompare.c), per SM.
void register_lbc(stat_registry *r, const std::string &p, const sm_core &core, sm_stats *s)
{
    if (core.pcal_on) {
        const Entry e[] = {
            {"pcal.bypasses", &s->pcal_bypasses, "requests", "PCAL: loads of warps without a token that skipped the L1"},
            {"pcal.periods", &s->pcal_periods, "periods", "PCAL: sampling periods ended"},
            {"pcal.token_cycles", &s->pcal_token_cycles, "token-cycles", "PCAL: tokens x cycles with a CTA resident"},
            {"pcal.warp_cycles", &s->pcal_warp_cycles, "warp-cycles", "PCAL: warp limit W x cycles with a CTA resident"},
        };
        add_all(r, p, e, sizeof e / sizeof *e);
        stat_add_ratio(r, (p + "pcal.tokens_avg").c_str(), (p + "pcal.token_cycles").c_str(), (p + "cycles").c_str(),
                       "tokens", "PCAL: tokens per SM, time average", nullptr);
        stat_add_ratio(r, (p + "pcal.warps_avg").c_str(), (p + "pcal.warp_cycles").c_str(), (p + "cycles").c_str(),
                       "warps", "PCAL: warp limit per SM, time average", nullptr);
    }
    if (core.l1ext_on) {
        const Entry e[] = {
            {"l1ext.extra_way_kernels", &s->l1ext_way_kernels, "ways", "CacheExt / CERF: extra L1 ways, summed over kernels"},
            {"cerf.reg_hits", &s->cerf_reg_hits, "accesses", "CERF: L1 hits read from the register banks"},
            {"cerf.wait_cycles", &s->cerf_wait_cycles, "cycles", "CERF: cycles those reads waited for their bank"},
        };
        add_all(r, p, e, core.cerf_on ? 3 : 1);
    }
}

} // namespace

void SmModule::register_stats(stat_registry *r)
{
    sm_stats *s = &core_.st;
    std::string p = "gpu.sm[" + std::to_string(core_.id) + "].";
    const Entry e[] = {
        {"cycles", &s->cycles, "cycles", "core cycles with a CTA resident"},
        {"warp_insn", &s->warp_insn, "instructions", "warp instructions issued"},
        {"thread_insn", &s->thread_insn, "instructions", "thread instructions issued (active lanes)"},
        {"issue_slots", &s->issue_slots, "slots", "scheduler cycles while a CTA was resident"},
        {"stall.issued", &s->stall[SM_STALL_NONE], "slots", "scheduler cycles that issued"},
        {"stall.idle", &s->stall[SM_STALL_IDLE], "slots", "no live warp in the scheduler (or nothing to issue)"},
        {"stall.memory", &s->stall[SM_STALL_MEMORY], "slots", "every warp waited on a memory operation"},
        {"stall.scoreboard", &s->stall[SM_STALL_SCOREBOARD], "slots", "every warp waited on a short-latency result"},
        {"stall.barrier", &s->stall[SM_STALL_BARRIER], "slots", "warps waited at a barrier or memory fence"},
        {"stall.functional_unit", &s->stall[SM_STALL_FU], "slots", "a ready warp's unit was busy"},
        {"stall.throttled", &s->stall[SM_STALL_THROTTLED], "slots", "ready warps held back by the warp limit"},
        {"active_warps_sum", &s->active_warps_sum, "warp-cycles", "resident warps summed over active cycles"},
        {"ctas", &s->ctas_done, "CTAs", "CTAs completed"},
        {"fu.sp", &s->fu_issued[FU_SP], "instructions", "issued to SP units"},
        {"fu.sfu", &s->fu_issued[FU_SFU], "instructions", "issued to SFU units"},
        {"fu.dp", &s->fu_issued[FU_DP], "instructions", "issued to DP units"},
        {"fu.int", &s->fu_issued[FU_INT], "instructions", "issued to INT units"},
        {"fu.mem", &s->fu_issued[FU_MEM], "instructions", "issued to the LD/ST unit"},
        {"regfile.bank_conflict_cycles", &s->bank_conflict_cycles, "cycles", "operand-read delay from bank conflicts"},
        {"regfile.reads", &s->rf_reads, "accesses", "128-byte warp register reads (source operands)"},
        {"regfile.writes", &s->rf_writes, "accesses", "128-byte warp register writes (destination operands)"},
        {"ldst.res_fail_line_alloc", &s->ldst_res_fail[CACHE_FAIL_LINE_ALLOC], "cycles", "LD/ST stalls: L1 had no victim"},
        {"ldst.res_fail_mshr", &s->ldst_res_fail[CACHE_FAIL_MSHR_ENTRY], "cycles", "LD/ST stalls: no L1 MSHR entry"},
        {"ldst.res_fail_merge", &s->ldst_res_fail[CACHE_FAIL_MSHR_MERGE], "cycles", "LD/ST stalls: MSHR merge limit"},
        {"ldst.res_fail_miss_queue", &s->ldst_res_fail[CACHE_FAIL_MISS_QUEUE], "cycles", "LD/ST stalls: L1 miss queue full"},
        {"shmem.insn", &s->shmem_insn, "instructions", "shared-memory instructions"},
        {"shmem.passes", &s->shmem_passes, "passes", "shared-memory bank passes"},
        {"shmem.conflict_cycles", &s->shmem_conflict_cycles, "cycles", "extra passes from bank conflicts"},
        {"gmem.insn", &s->gmem_insn, "instructions", "global/local memory instructions"},
        {"gmem.requests", &s->gmem_requests, "requests", "coalesced global-memory requests"},
        {"lmem.requests", &s->lmem_requests, "requests", "coalesced local-memory requests"},
        {"cmem.requests", &s->cmem_requests, "requests", "constant-cache accesses"},
        {"atomic_requests", &s->atomic_requests, "requests", "atomic requests sent to the L2"},
        {"bypass_requests", &s->bypass_requests, "requests", "loads that skipped the L1"},
        {"requests_out", &s->requests_out, "requests", "requests sent to the interconnect"},
        {"responses_in", &s->responses_in, "responses", "responses received"},
        {"load_latency_sum", &s->load_latency_sum, "cycles", "issue-to-data cycles summed over global/local loads"},
        {"load_latency_n", &s->load_latency_n, "instructions", "global/local load instructions completed"},
        {"mem_latency_sum", &s->mem_latency_sum, "cycles", "request-to-response cycles summed"},
        {"mem_latency_n", &s->mem_latency_n, "requests", "requests with a response"},
    };
    add_all(r, p, e, sizeof e / sizeof *e);
    for (int b = 0; b < 16; b++)
        stat_add_counter(r, (p + "load_latency_hist[" + std::to_string(b) + "]").c_str(), &s->load_latency_hist[b],
                         "instructions", "global/local loads with latency in [2^b, 2^(b+1)) cycles", nullptr);
    register_lbc(r, p, core_, s);
    if (core_.cfg->sm.imov_stats) { // only when asked: the baseline's statistics stay
        const Entry im[] = {
            {"imov.insn", &s->imov_insn, "instructions", "mov.indirect (Indirect-MOV) instructions issued"},
            {"imov.reads", &s->imov_reads, "accesses", "their second, serial register reads (read form)"},
            {"imov.writes", &s->imov_writes, "accesses", "their indexed register writes (write form)"},
            {"imov.conflict_cycles", &s->imov_conflict_cycles, "cycles", "cycles the second reads waited for their bank"},
        };
        add_all(r, p, im, sizeof im / sizeof *im);
    }
    // only when one runs (or -lb_load_stats asks for the block): the baseline's statistics stay
    if (core_.lb_on || core_.pcal_on || core_.l1ext_on || core_.cfg->lb.load_stats) {
        const Entry lb[] = {
            {"lb.reg_hits", &s->lb_reg_hits, "accesses", "Linebacker: L1 misses served by a victim line in the register file"},
            {"lb.reg_hit_latency", &s->lb_reg_hit_latency, "cycles", "Linebacker: latency of those Reg hits, summed"},
            {"lb.vtt_misses", &s->lb_vtt_misses, "accesses", "Linebacker: L1 misses not found in the active partitions"},
            {"lb.victims_stored", &s->lb_victims_stored, "lines", "Linebacker: useful L1 victims moved into registers"},
            {"lb.victims_dropped", &s->lb_victims_dropped, "lines", "Linebacker: L1 victims not kept after monitoring"},
            {"lb.monitor_tag_hits", &s->lb_monitor_tag_hits, "accesses", "Linebacker: monitoring L1 misses found in the victim tags"},
            {"lb.store_invalidations", &s->lb_store_invalidations, "lines", "Linebacker: victim lines invalidated by stores"},
            {"lb.periods", &s->lb_periods, "periods", "Linebacker: monitoring periods ended"},
            {"lb.activations", &s->lb_activations, "kernels", "Linebacker: kernels whose loads were selected"},
            {"lb.disabled", &s->lb_disabled, "kernels", "Linebacker: kernels found not cache sensitive"},
            {"lb.selected_loads", &s->lb_selected_loads, "loads", "Linebacker: selected hashed PCs, summed over activations"},
            {"lb.active_vps", &s->lb_active_vps, "partitions", "Linebacker: active VTT partitions, summed over activations"},
            {"lb.search_cycles", &s->lb_search_cycles, "cycles", "Linebacker: partition-search cycles L1 misses waited before leaving"},
            {"lb.throttles", &s->lb_throttles, "events", "Linebacker: CTAs throttled by the IPC monitor"},
            {"lb.reactivations", &s->lb_reactivations, "events", "Linebacker: CTA limit raised by the IPC monitor"},
            {"lb.backups", &s->lb_backups, "CTAs", "Linebacker: CTAs whose registers were backed up"},
            {"lb.restores", &s->lb_restores, "CTAs", "Linebacker: CTAs whose registers were restored"},
            {"lb.restores_on_completion", &s->lb_restores_on_completion, "CTAs", "Linebacker: ... because another CTA completed"},
            {"lb.backup_bytes", &s->lb_backup_bytes, "bytes", "Linebacker: register bytes written to memory"},
            {"lb.restore_bytes", &s->lb_restore_bytes, "bytes", "Linebacker: register bytes read back"},
            {"lb.drain_cycles", &s->lb_drain_cycles, "cycles", "Linebacker: cycles throttled CTAs waited for in-flight work"},
            {"lb.xfer_cycles", &s->lb_xfer_cycles, "cycles", "Linebacker: cycles the backup/restore buffer was busy"},
            {"lb.buffer_peak", &s->lb_buffer_peak, "entries", "Linebacker: largest backup/restore buffer occupancy"},
            {"lb.sur_reg_cycles", &s->lb_sur_reg_cycles, "register-cycles", "Linebacker: statically unused warp registers x active cycles"},
            {"lb.dur_reg_cycles", &s->lb_dur_reg_cycles, "register-cycles", "Linebacker: throttled CTAs' warp registers x active cycles"},
            {"lb.vp_reg_cycles", &s->lb_vp_reg_cycles, "register-cycles", "Linebacker: warp registers in active partitions x active cycles"},
            {"lb.active_cta_cycles", &s->lb_active_cta_cycles, "CTA-cycles", "Linebacker: schedulable CTAs x active cycles"},
            {"lb.vp_changes", &s->lb_vp_changes, "events", "Linebacker: changes of the active partition mask"},
            {"regfile.nonop_reads", &core_.rf.st.nonop_reads, "accesses", "victim-line and backup reads through the arbiter"},
            {"regfile.nonop_writes", &core_.rf.st.nonop_writes, "accesses", "victim-line and restore writes through the arbiter"},
            {"regfile.nonop_conflict_cycles", &core_.rf.st.nonop_conflict_cycles, "cycles",
             "cycles victim accesses waited behind operand reads of their bank"},
        };
        add_all(r, p, lb, sizeof lb / sizeof *lb);
        const Entry energy[] = { // the accesses Table 3's energies are charged per (gpu.power.linebacker.*)
            {"lb.vtt_accesses", &core_.lb_vtt.accesses, "accesses", "Linebacker: victim tag partitions searched + entries written"},
            {"lb.lm_accesses", &s->lb_lm_accesses, "accesses", "Linebacker: Load Monitor entries read or written"},
            {"lb.ctam_accesses", &s->lb_ctam_accesses, "accesses", "Linebacker: CTA manager updates (CTA start / done, throttle, backup, restore)"},
        };
        if (core_.lb_on) add_all(r, p, energy, sizeof energy / sizeof *energy);
        stat_add_derived(r, (p + "lb.cta_regs").c_str(), lb_cta_regs, &core_, "warp registers",
                         "Linebacker: #reg, the 128-byte warp registers of one CTA (last kernel)", nullptr);
        if (core_.lb_on && core_.cfg->lb.load_stats) register_lb_loads(r, p, core_.id == 0, s);
        if (core_.id == 0) register_lb_totals(r); // sums over every SM, registered once
    }
    if (core_.l1d_enabled) add_cache(r, p + "l1d.", &core_.l1d.st);
    if (core_.l1d_enabled && core_.l1d.mclass && // -gtlm_dl1_miss_classes
        (register_miss_class_stats(r, p + "l1d.", core_.l1d.mclass) ||
         (core_.id == 0 && register_miss_class_totals(r, "gpu.l1d.", "gpu.sm[*].l1d."))))
        throw Error(GTLM_ST_ECONFIG, "cannot register the L1D miss-class statistics");
    if (core_.l1d_enabled && core_.cfg->l1.dl1_banks > 1) // only with banks: one bank never conflicts
        stat_add_counter(r, (p + "ldst.l1_bank_conflicts").c_str(), &s->l1_bank_conflicts, "requests",
                         "L1D requests that waited a cycle because their bank took another this cycle (-gpgpu_l1_banks)",
                         nullptr);
    if (core_.l1d_enabled && core_.pdp.mode != PDP_MODE_OFF) {
        const Entry pdp[] = {
            {"l1d.bypasses", &core_.l1d.st.bypasses, "accesses", "CBWT PDP: L1D reads that bypassed (every line protected)"},
            {"l1d.pdp_loads", &core_.pdp.loads, "accesses", "CBWT PDP: L1D reads that decremented their set"},
            {"l1d.pdp_predictions", &core_.pdp.predictions, "periods", "CBWT PDP: PD predictions made (PDP-P)"},
            {"l1d.reuse_0", &core_.pdp.reuse_hist[0], "lines", "L1D lines evicted with no load hit since their fill"},
            {"l1d.reuse_1", &core_.pdp.reuse_hist[1], "lines", "L1D lines evicted after 1 load hit"},
            {"l1d.reuse_2", &core_.pdp.reuse_hist[2], "lines", "L1D lines evicted after 2 load hits"},
            {"l1d.reuse_3_4", &core_.pdp.reuse_hist[3], "lines", "L1D lines evicted after 3 or 4 load hits"},
            {"l1d.reuse_5_8", &core_.pdp.reuse_hist[4], "lines", "L1D lines evicted after 5 to 8 load hits"},
            {"l1d.reuse_gt8", &core_.pdp.reuse_hist[5], "lines", "L1D lines evicted after more than 8 load hits"},
        };
        add_all(r, p, pdp, sizeof pdp / sizeof *pdp);
    }
    if (core_.pf.kind) add_prefetch(r, p + "l1d.prefetch.", core_);
    if (core_.loc.on) add_locality(r, p + "apres.", &core_.loc);
    add_sched(r, p, core_);
    if (core_.id == 0) add_gpu_sums(r, core_);
    add_cache(r, p + "l1c.", &core_.l1c.st);
    register_pm_stats(r, p + "power.reg.", &core_.rf_pm);
    register_rfp_stats(r, p + "power.reg.", &core_.rf_pm); // nothing without a register-file policy
    if (core_.slb) // Sec. 6.4.4: Slumber costs time when fewer than 3 warps are ready
        stat_add_counter(r, (p + "power.reg.ready_warps_sum").c_str(), &core_.st.ready_warps_sum, "warp-cycles",
                         "READY warp slots summed over active cycles (/ cycles: the average ready warps)", nullptr);
    register_pm_stats(r, p + "power.sm.", &core_.sm_pm);
    if (core_.l1d_enabled) {
        register_pm_stats(r, p + "power.l1d.", &core_.l1d.pm);
        register_resq_stats(r, p + "power.l1d.", &core_.l1d);
    }
}

} // namespace gtlm
