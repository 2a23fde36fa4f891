#include "top/power_stats.h"

extern "C" {
#include "regfile/regfile.h"
}

#include <cmath>
#include <cstring>
#include <deque>
#include <unordered_map>

extern "C" {
#include "cache/cache_core.h"
}

namespace gtlm {

namespace {

// What a derived statistic computes.
enum What { W_COMP_DYN, W_COMP_STAT, W_COMP_POWER, W_DYN, W_STAT, W_TOTAL, W_POWER, W_DYN_POWER, W_STAT_POWER,
            W_PERF_PER_WATT, W_PER_INSN, W_TABLES, W_END_WB, W_LB_PART, W_LB_TOTAL, W_SLUMBER_OVH, W_UNIT_DYN, W_UNIT_STAT,
            W_UNIT_TOTAL };

constexpr double kPjToJ = 1e-12;

bool has_static(int c)
{
    return c == PWR_C_RF || c == PWR_C_L1D || c == PWR_C_SM || c == PWR_C_L2 || c == PWR_C_NOC || c == PWR_C_MC ||
           c == PWR_C_DRAM;
}

// Power blocks of an L1D (which 0) or L2 slice (1), as cache_pm_init makes them.
double blocks(const gsim_cache_cfg &c, const power_config *pc, int which)
{
    auto lines = static_cast<uint32_t>(c.nsets) * static_cast<uint32_t>(c.assoc);
    return cache_pm_blocks(lines, c.type == 'S' ? CACHE_SECTORS : 1, pc->lines_per_block[which],
                           cache_pm_per_sector_for(pc->policy, pc->sector_blocks[which]));
}

} // namespace

double PowerBreakdown::dynamic() const
{
    double s = 0;
    for (double v : dyn) s += v;
    return s;
}

double PowerBreakdown::leakage() const
{
    double s = 0;
    for (double v : stat) s += v;
    return s;
}

namespace {

// A policy's counter leaves: name, counter (null: names only), unit, what.
struct RfpLeaf {
    std::string name;
    uint64_t *src;
    const char *unit;
    std::string desc;
};

// The idle-period leaves of a block type (null h: names only).
std::vector<RfpLeaf> idle_leaves(idle_hist *h)
{
    std::vector<RfpLeaf> v;
    v.push_back({"idle.idle_cycles", h ? &h->idle_cycles : nullptr, "block-cycles",
                 "cycles blocks saw no access (idle periods), summed over blocks"});
    v.push_back({"idle.block_cycles", h ? &h->block_cycles : nullptr, "block-cycles",
                 "blocks x cycles observed: idleness = idle.idle_cycles / idle.block_cycles"});
    for (int k = 0; k < IDLE_BINS; k++) {
        std::string what = std::string("idle periods of a block, length ") + idle_hist_bin_name[k] + " cycles";
        v.push_back({std::string("idle.periods.") + idle_hist_bin_name[k], h ? &h->periods[k] : nullptr, "periods", what});
        v.push_back({std::string("idle.cycles.") + idle_hist_bin_name[k], h ? &h->cycles[k] : nullptr, "block-cycles",
                     what + " (their cycles)"});
    }
    return v;
}

} // namespace

int register_pm_stats(stat_registry *r, const std::string &prefix, pm_domain *d)
{
    int bad = 0;
    for (int m = 0; m < PM_MODES; m++)
        bad |= stat_add_counter(r, (prefix + pm_mode_name(m) + "_block_cycles").c_str(), &d->st.residency[m],
                                "block-cycles", "residency in this power mode, summed over blocks", nullptr) < 0;
    bad |= stat_add_counter(r, (prefix + "wakes").c_str(), &d->st.wakes, "accesses",
                            "accesses that found their block asleep or OFF", nullptr) < 0;
    bad |= stat_add_counter(r, (prefix + "wake_cycles").c_str(), &d->st.wake_cycles, "cycles",
                            "cycles accesses waited for their block to wake", nullptr) < 0;
    bad |= stat_add_counter(r, (prefix + "lost").c_str(), &d->st.lost, "accesses",
                            "accesses to an OFF block (its data was lost: a miss)", nullptr) < 0;
    bad |= stat_add_real(r, (prefix + "transition_energy").c_str(), &d->st.transition_pj, "pJ",
                         "energy of transitions into low-power modes", nullptr) < 0;
    if (idle_hist *h = d->idle) { // Snooze / [151] cache blocks: idleness (docs/power.md#snooze)
        for (const RfpLeaf &l : idle_leaves(h))
            bad |= stat_add_counter(r, (prefix + l.name).c_str(), l.src, l.unit, l.desc.c_str(), nullptr) < 0;
    }
    return bad ? -1 : 0;
}

namespace {

bool uses_resq(const pm_policy *p) { return p == &pm_policy_snooze || p == &pm_policy_snooze_destroy; }

} // namespace

int register_resq_stats(stat_registry *r, const std::string &prefix, cache_core *c)
{
    if (!uses_resq(c->pm.pol)) return 0;
    return stat_add_counter(r, (prefix + "resq_overflows").c_str(), &c->pm_resq_overflows, "fails",
                            "reservation fails the full reservation queue (-snooze_resq_entries) could not take: "
                            "the block stayed ON (retries counted)", nullptr) < 0 ? -1 : 0;
}

namespace {

// The leaves of a register-file policy's statistics (null st: names only).
std::vector<RfpLeaf> rfp_leaves(rfp_stats *st)
{
    std::vector<RfpLeaf> v;
    static const char *const fsm[] = {"", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12",
                                      "ta", "tf", "tp", "tw"};
    for (int t = 1; t <= RFP_TW; t++)
        v.push_back({std::string("fsm.") + fsm[t], st ? &st->trans[t] : nullptr, "transitions",
                     std::string("register power-mode decisions of transition ") + fsm[t] +
                         " (docs/power.md, Slumber FSM)"});
    static const char *const access[RFP_ACCESS_N] = {"read", "write", "writeback"};
    for (int a = 0; a < RFP_ACCESS_N; a++)
        for (int m = PM_SHALLOW; m < PM_MODES; m++) {
            std::string leaf = std::string(access[a]) + "_" + pm_mode_name(m);
            v.push_back({"stall." + leaf, st ? &st->stalls[a][m] : nullptr, "accesses",
                         std::string("register ") + access[a] + "s that waited for a register in " + pm_mode_name(m)});
            v.push_back({"stall_cycles." + leaf, st ? &st->stall_cycles[a][m] : nullptr, "cycles",
                         std::string("cycles register ") + access[a] + "s waited for a register in " + pm_mode_name(m)});
        }
    v.push_back({"stall.promotion", st ? &st->promo_stalls : nullptr, "accesses",
                 "register accesses that waited for a register asleep through its warp's demotion (tw)"});
    v.push_back({"stall_cycles.promotion", st ? &st->promo_stall_cycles : nullptr, "cycles",
                 "cycles register accesses waited for a register asleep through its warp's demotion (tw)"});
    v.push_back({"lost_reads", st ? &st->lost : nullptr, "accesses", "reads of a power-gated register (a hint error)"});
    static const char *const len[4] = {"lt_ss", "ss_to_ds", "ds_to_off", "ge_off"};
    for (int k = 0; k < 2; k++)
        for (int b = 0; b < 4; b++) {
            std::string leaf = std::string(k ? "write_" : "read_") + len[b];
            std::string what = std::string("idle periods before a register ") + (k ? "write" : "read") +
                               ", by length against the -slumber_min_idle_* thresholds";
            v.push_back({"idle." + leaf, st ? &st->idle_hist[k][b] : nullptr, "periods", what});
            v.push_back({"idle_cycles." + leaf, st ? &st->idle_cycles[k][b] : nullptr, "cycles", what + " (their cycles)"});
        }
    return v;
}

} // namespace

int register_rfp_stats(stat_registry *r, const std::string &prefix, pm_domain *d)
{
    rfp_stats *st = rfp_stats_of(d);
    if (!st) return 0;
    int bad = 0;
    for (const RfpLeaf &l : rfp_leaves(st))
        bad |= stat_add_counter(r, (prefix + l.name).c_str(), l.src, l.unit, l.desc.c_str(), nullptr) < 0;
    return bad ? -1 : 0;
}

void observe_pm(ProbeList &out, const std::string &prefix, const pm_domain *d)
{
    int width = 1;
    while (width < 32 && (uint64_t{1} << width) <= d->n) width++;
    for (int m = 0; m < PM_MODES; m++)
        out.level(prefix + pm_mode_name(m), width, [d, m] { return static_cast<uint64_t>(d->count[m]); });
}

void observe_pm_state(ProbeList &out, const std::string &prefix, const pm_domain *d)
{
    if (!d->pol || d->n != 1) return;
    out.level(prefix + "state", 2, [d] { return static_cast<uint64_t>(pm_get(d, 0)); });
}

void observe_pm_sample(ProbeList &out, const std::string &prefix, const pm_domain *d, uint32_t n)
{
    if (!d->pol) return;
    for (uint32_t k = 0; k < n && k < d->n; k++)
        out.level(prefix + "r" + std::to_string(k) + ".state", 2, [d, k] { return static_cast<uint64_t>(pm_get(d, k)); });
}

void observe_rfp_countdown(ProbeList &out, const std::string &prefix, const pm_domain *d, uint32_t n,
                           std::function<uint64_t()> now)
{
    if (!d->pol || !d->pol->regs_only) return; // a register-file policy only
    int width = rfp_counter_bits(d);
    for (uint32_t k = 0; k < n && k < d->n; k++)
        out.level(prefix + "r" + std::to_string(k) + ".countdown", width,
                  [d, k, now] { return static_cast<uint64_t>(rfp_countdown(d, k, now())); });
}

PowerStats::PowerStats(const gtlm_config &cfg, int n_sms, int n_slices)
    : cfg_(cfg), n_sms_(n_sms), n_slices_(n_slices)
{
}

// Leaves read per unit kind, in this order (the ids are resolved once: stat_find is a scan).
const std::vector<std::string> kSmLeaves = {
    "fu.int", "fu.sp", "fu.dp", "fu.sfu", "fu.mem", "warp_insn", "regfile.reads", "regfile.writes",
    "l1d.accesses", "l1d.served_hits", "l1d.writes", "l1d.fills", "l1c.accesses", "l1c.hits", "l1c.fills",
    "shmem.passes", "cycles", "ext_llc.bytes", "laws.table_bits", "l1d.prefetch.sap_table_bits",
    "lb.vtt_accesses", "lb.lm_accesses", "lb.ctam_accesses", "lb.reg_hits", "lb.victims_stored", "lb.backup_bytes",
    "lb.restore_bytes"};
// Where the leaves after the dst[] run start (kSmLeaves order).
constexpr int kExtLlcLeaf = 17, kLawsBitsLeaf = 18, kSapBitsLeaf = 19, kLbLeaf = 20;
const std::vector<std::string> kL2Leaves = {"accesses", "served_hits", "writes", "dram_reads"};
const std::vector<std::string> kDramLeaves = {"activates", "precharges", "reads", "writes", "bus_busy_cycles"};
const std::vector<std::string> kPmLeaves = {"on_block_cycles", "shallow_block_cycles", "sleep_block_cycles",
                                            "off_block_cycles", "transition_energy"};

void PowerStats::resolve(const stat_registry *r) const
{
    if (resolved_for_ == r && resolved_n_ == stat_count(r)) return;
    std::unordered_map<std::string, int> by_path;
    for (int i = 0; i < stat_count(r); i++) by_path.emplace(stat_path(r, i), i);
    auto id = [&by_path](const std::string &p) {
        auto it = by_path.find(p);
        return it == by_path.end() ? -1 : it->second;
    };
    auto unit_ids = [&](const std::string &prefix, const std::vector<std::vector<std::string>> &groups) {
        std::vector<int> v;
        for (const auto &g : groups)
            for (const std::string &leaf : g) v.push_back(id(prefix + leaf));
        return v;
    };
    auto pm = [](const std::string &p) {
        std::vector<std::string> v;
        for (const std::string &leaf : kPmLeaves) v.push_back(p + leaf);
        return v;
    };
    sm_ids_.clear();
    l2_ids_.clear();
    dram_ids_.clear();
    for (int i = 0; i < n_sms_; i++)
        sm_ids_.push_back(unit_ids("gpu.sm[" + std::to_string(i) + "].",
                                   {kSmLeaves, pm("power.reg."), pm("power.l1d."), pm("power.sm.")}));
    for (int j = 0; j < n_slices_; j++)
        l2_ids_.push_back(unit_ids("gpu.l2[" + std::to_string(j) + "].", {kL2Leaves, pm("power.lines.")}));
    for (int c = 0; c < cfg_.gpu.n_mem; c++)
        dram_ids_.push_back(unit_ids("gpu.dram[" + std::to_string(c) + "].", {kDramLeaves}));
    cycles_id_ = id("gpu.cycles");
    flits_id_[0] = id("gpu.icnt.req.flits");
    flits_id_[1] = id("gpu.icnt.rsp.flits");
    flits_id_[2] = id("gpu.icnt.ext.flits"); // Morpheus' controller <-> cache-mode SM packets (absent: 0)
    end_wb_id_ = id("gpu.morpheus.end_writebacks");
    ipc_id_ = id("gpu.ipc");
    insn_id_ = id("gpu.warp_insn");
    resolved_for_ = r;
    resolved_n_ = stat_count(r);
}

namespace {

double val(const stat_registry *r, stat_scope s, int id) { return id >= 0 ? stat_value(r, id, s) : 0; }

// Residency of a gated structure from the ids at ids[0..4] (kPmLeaves order).
pwr_res res_of(const stat_registry *r, stat_scope s, const int *ids, double n)
{
    pwr_res x{};
    for (int m = 0; m < PM_MODES; m++) x.res[m] = val(r, s, ids[m]);
    x.n = n;
    x.transition_pj = val(r, s, ids[PM_MODES]);
    return x;
}

} // namespace

pwr_time PowerStats::time(const stat_registry *r, stat_scope s) const
{
    return {val(r, s, cycles_id_), cfg_.gpu.clocks.core_mhz, cfg_.gpu.clocks.l2_mhz};
}

double PowerStats::seconds(const stat_registry *r, stat_scope scope) const
{
    resolve(r);
    return val(r, scope, cycles_id_) / (cfg_.gpu.clocks.core_mhz * 1e6);
}

PowerBreakdown PowerStats::unit(const stat_registry *r, stat_scope s, char which, int i) const
{
    resolve(r);
    return unit_at(r, s, which, i, time(r, s));
}

PowerBreakdown PowerStats::unit_live(const stat_registry *r, char which, int i, double core_cycles) const
{
    resolve(r);
    return unit_at(r, STAT_SCOPE_KERNEL, which, i, {core_cycles, cfg_.gpu.clocks.core_mhz, cfg_.gpu.clocks.l2_mhz});
}

PowerBreakdown PowerStats::unit_at(const stat_registry *r, stat_scope s, char which, int i, const pwr_time &t) const
{
    PowerBreakdown b;
    const power_config *pc = &cfg_.power;
    if (which == 's') {
        const int *id = sm_ids_[static_cast<size_t>(i)].data();
        pwr_sm_counts k{};
        for (int u = 0; u < 5; u++) k.fu[u] = val(r, s, id[u]);
        double *dst[] = {&k.warp_insn,    &k.rf_reads,   &k.rf_writes,  &k.l1d_accesses, &k.l1d_hits, &k.l1d_writes,
                         &k.l1d_fills,    &k.l1c_accesses, &k.l1c_hits, &k.l1c_fills,    &k.smem_passes,
                         &k.active_cycles};
        for (size_t f = 0; f < sizeof dst / sizeof *dst; f++) *dst[f] = val(r, s, id[5 + f]);
        // Morpheus: the document's measured energy per byte of the extended LLC (absent stat: 0).
        k.ext_llc_pj = val(r, s, id[kExtLlcLeaf]) * cfg_.morpheus.ext_pj_per_byte;
        k.sched_table_bits = val(r, s, id[kLawsBitsLeaf]); // APRES' tables (absent stats: 0)
        k.ldst_table_bits = val(r, s, id[kSapBitsLeaf]);
        double lb[LB_E_N];
        sm_linebacker_pj(r, s, id, lb); // Linebacker's structures (zeros without it)
        k.lb_rf_pj = lb[LB_E_RF];
        k.lb_l1d_pj = lb[LB_E_VTT] + lb[LB_E_LM] + lb[LB_E_HPC];
        k.lb_sched_pj = lb[LB_E_CTAM];
        const int *pm = id + kSmLeaves.size();
        double nregs = cfg_.sm.registers >= 32 ? cfg_.sm.registers / 32 : 1;
        k.rf = res_of(r, s, pm, nregs);
        k.l1d = res_of(r, s, pm + kPmLeaves.size(),
                       cfg_.l1.dl1.disabled ? 1 : blocks(cfg_.l1.dl1, pc, 0));
        k.sm = res_of(r, s, pm + 2 * kPmLeaves.size(), 1);
        pwr_sm_energy(pc, &k, &t, b.dyn, b.stat);
    } else if (which == 'l') {
        const int *id = l2_ids_[static_cast<size_t>(i)].data();
        pwr_l2_counts k{};
        k.accesses = val(r, s, id[0]);
        k.hits = val(r, s, id[1]);
        k.writes = val(r, s, id[2]);
        k.fills = val(r, s, id[3]);
        k.lines = res_of(r, s, id + kL2Leaves.size(), blocks(cfg_.l2.dl2, pc, 1));
        pwr_l2_energy(pc, &k, &t, b.dyn, b.stat);
    } else if (which == 'd') {
        const int *id = dram_ids_[static_cast<size_t>(i)].data();
        pwr_dram_counts k{};
        k.activates = val(r, s, id[0]);
        k.precharges = val(r, s, id[1]);
        k.reads = val(r, s, id[2]);
        k.writes = val(r, s, id[3]);
        const dram_config &d = cfg_.dram;
        k.bytes = val(r, s, id[4]) * d.data_command_ratio * d.bus_width * d.chips_per_channel;
        pwr_dram_energy(pc, &k, &t, b.dyn, b.stat);
    } else {
        pwr_noc_energy(pc, val(r, s, flits_id_[0]) + val(r, s, flits_id_[1]) + val(r, s, flits_id_[2]), &t, b.dyn, b.stat);
    }
    return b;
}

PowerBreakdown PowerStats::gpu(const stat_registry *r, stat_scope s) const
{
    PowerBreakdown total;
    auto add = [&total](const PowerBreakdown &b) {
        for (int c = 0; c < PWR_C_N; c++) {
            total.dyn[c] += b.dyn[c];
            total.stat[c] += b.stat[c];
        }
    };
    for (int i = 0; i < n_sms_; i++) add(unit(r, s, 's', i));
    for (int j = 0; j < n_slices_; j++) add(unit(r, s, 'l', j));
    for (int c = 0; c < cfg_.gpu.n_mem; c++) add(unit(r, s, 'd', c));
    add(unit(r, s, 'n', 0));
    if (ctl_frac_ > 0 && ctl_frac_ < 1) { // controllers: ctl_frac_ of the new total
        double k = ctl_frac_ / (1 - ctl_frac_);
        total.dyn[PWR_C_L2] += k * total.dynamic();
        total.stat[PWR_C_L2] += k * total.leakage();
    }
    add(end_writebacks(r, s));
    return total;
}

PowerBreakdown PowerStats::end_writebacks(const stat_registry *r, stat_scope s) const
{
    resolve(r);
    PowerBreakdown b;
    double n = s == STAT_SCOPE_RUN ? val(r, s, end_wb_id_) : 0;
    if (n <= 0) return b;
    const power_config *pc = &cfg_.power;
    double line = cfg_.l2.dl2.line_size;
    double flit = cfg_.noc.flit_size > 0 ? cfg_.noc.flit_size : 1;
    pwr_time none{0, cfg_.gpu.clocks.core_mhz, cfg_.gpu.clocks.l2_mhz}; // events only, no time
    b.dyn[PWR_C_SM] += n * line * cfg_.morpheus.ext_pj_per_byte;
    pwr_noc_energy(pc, n * std::ceil((NOC_HEADER_BYTES + line) / flit), &none, b.dyn, b.stat);
    pwr_dram_counts k{};
    k.activates = k.precharges = k.writes = n;
    k.bytes = n * line;
    pwr_dram_energy(pc, &k, &none, b.dyn, b.stat);
    return b;
}

double PowerStats::table_bits(const stat_registry *r, stat_scope s) const
{
    resolve(r);
    double bits = 0;
    for (const std::vector<int> &id : sm_ids_) bits += val(r, s, id[kLawsBitsLeaf]) + val(r, s, id[kSapBitsLeaf]);
    return bits;
}

// One SM's Linebacker energy per part from its ids (kSmLeaves order): Table 3 energies x counts.
void PowerStats::sm_linebacker_pj(const stat_registry *r, stat_scope s, const int *id, double *pj) const
{
    for (int p = 0; p < LB_E_N; p++) pj[p] = 0;
    if (!cfg_.lb.enable) return;
    const int *lb = id + kLbLeaf;
    lb_energy_counts k{};
    k.vtt = val(r, s, lb[0]);
    k.lm = val(r, s, lb[1]);
    k.ctam = val(r, s, lb[2]);
    k.hpc = val(r, s, id[5 + 3]) + val(r, s, id[5 + 6]); // l1d.accesses + l1d.fills
    k.rf_reads = val(r, s, lb[3]) + val(r, s, lb[5]) / REGFILE_LINE_BYTES; // Reg hits + registers backed up
    k.rf_writes = val(r, s, lb[4]) + val(r, s, lb[6]) / REGFILE_LINE_BYTES; // victims stored + registers restored
    const power_config &pc = cfg_.power;
    lb_energy_pj(&cfg_.lb, &k, pc.ev_pj[PWR_EV_RF_READ], pc.ev_pj[PWR_EV_RF_WRITE], pj);
}

void PowerStats::linebacker_pj(const stat_registry *r, stat_scope s, double *pj) const
{
    resolve(r);
    for (int p = 0; p < LB_E_N; p++) pj[p] = 0;
    for (const std::vector<int> &id : sm_ids_) {
        double one[LB_E_N];
        sm_linebacker_pj(r, s, id.data(), one);
        for (int p = 0; p < LB_E_N; p++) pj[p] += one[p];
    }
}

double PowerStats::derive(const stat_registry *r, stat_scope scope, const void *vctx)
{
    const Ctx *c = static_cast<const Ctx *>(vctx);
    const PowerStats *ps = c->ps;
    if (c->what >= W_UNIT_DYN) {
        PowerBreakdown b = ps->unit(r, scope, c->which, c->index);
        double v = c->what == W_UNIT_DYN ? b.dynamic() : c->what == W_UNIT_STAT ? b.leakage() : b.dynamic() + b.leakage();
        return v * kPjToJ;
    }
    if (c->what == W_END_WB) {
        PowerBreakdown b = ps->end_writebacks(r, scope);
        return (b.dynamic() + b.leakage()) * kPjToJ;
    }
    if (c->what == W_SLUMBER_OVH) { // the same on every SM: the kernel's time x the logic's leakage
        ps->resolve(r);
        pwr_time t = ps->time(r, scope);
        return ps->n_sms_ * pwr_slumber_overhead_pj(&ps->cfg_.power, &t) * kPjToJ;
    }
    if (c->what == W_TABLES) return ps->table_bits(r, scope) * ps->cfg_.power.ev_pj[PWR_EV_TABLE_BIT] * kPjToJ;
    if (c->what == W_LB_PART || c->what == W_LB_TOTAL) {
        double pj[LB_E_N], sum = 0;
        ps->linebacker_pj(r, scope, pj);
        for (double v : pj) sum += v;
        return (c->what == W_LB_PART ? pj[c->comp] : sum) * kPjToJ;
    }
    PowerBreakdown b = ps->gpu(r, scope);
    double sec = ps->seconds(r, scope);
    auto per_s = [sec](double j) { return sec > 0 ? j / sec : 0; };
    double dyn = b.dynamic() * kPjToJ, stat = b.leakage() * kPjToJ;
    switch (c->what) {
    case W_COMP_DYN: return b.dyn[c->comp] * kPjToJ;
    case W_COMP_STAT: return b.stat[c->comp] * kPjToJ;
    case W_COMP_POWER: return per_s((b.dyn[c->comp] + b.stat[c->comp]) * kPjToJ);
    case W_DYN: return dyn;
    case W_STAT: return stat;
    case W_TOTAL: return dyn + stat;
    case W_POWER: return per_s(dyn + stat);
    case W_DYN_POWER: return per_s(dyn);
    case W_STAT_POWER: return per_s(stat);
    case W_PERF_PER_WATT: {
        double ipc = val(r, scope, ps->ipc_id_), w = per_s(dyn + stat);
        return w > 0 ? ipc / w : 0;
    }
    case W_PER_INSN: {
        double n = val(r, scope, ps->insn_id_);
        return n > 0 ? (dyn + stat) / n * 1e9 : 0;
    }
    default: return 0;
    }
}

int PowerStats::register_stats(stat_registry *r)
{
    int bad = 0;
    std::deque<Ctx> &store = ctx_;
    auto add = [&](const std::string &path, int what, int comp, char which, int index, const char *unit,
                   const std::string &desc, const char *gk = nullptr, const char *gr = nullptr) {
        store.push_back(Ctx{this, what, comp, which, index});
        stat_names n{gk, gr, 0};
        bad |= stat_add_derived(r, path.c_str(), derive, &store.back(), unit, desc.c_str(), &n) < 0;
    };
    for (int c = 0; c < PWR_C_N; c++) {
        std::string p = std::string("gpu.power.") + pwr_comp_name(c) + ".";
        std::string what = std::string(pwr_comp_name(c)) + " (" + pwr_comp_short(c) + ")";
        add(p + "dynamic_energy", W_COMP_DYN, c, 0, 0, "J", "dynamic energy: " + what);
        if (has_static(c)) add(p + "static_energy", W_COMP_STAT, c, 0, 0, "J", "leakage energy: " + what);
        std::string gk = std::string("gpu_avg_") + pwr_comp_short(c);
        std::string gr = std::string("gpu_tot_avg_") + pwr_comp_short(c);
        add(p + "avg_power", W_COMP_POWER, c, 0, 0, "W", "average power (dynamic + leakage): " + what, gk.c_str(),
            gr.c_str());
    }
    if (morpheus_)
        add("gpu.morpheus.end_writeback_energy", W_END_WB, 0, 0, 0, "J",
            "energy of the extended-LLC write-backs at the application's end (run scope; in the GPU totals)");
    add("gpu.power.dynamic_energy", W_DYN, 0, 0, 0, "J", "dynamic energy, all components");
    add("gpu.power.static_energy", W_STAT, 0, 0, 0, "J", "leakage energy, all components");
    add("gpu.power.total_energy", W_TOTAL, 0, 0, 0, "J", "total energy", "gpu_tot_energy_kernel", "gpu_tot_energy");
    add("gpu.power.avg_power", W_POWER, 0, 0, 0, "W", "average power: total energy / simulated time",
        "kernel_avg_power", "gpu_tot_avg_power");
    add("gpu.power.avg_dynamic_power", W_DYN_POWER, 0, 0, 0, "W", "average dynamic power");
    add("gpu.power.avg_static_power", W_STAT_POWER, 0, 0, 0, "W", "average leakage power", "gpu_avg_STATICP",
        "gpu_tot_avg_STATICP");
    add("gpu.power.perf_per_watt", W_PERF_PER_WATT, 0, 0, 0, "(instructions/cycle)/W",
        "performance per watt: gpu.ipc / average power");
    add("gpu.power.energy_per_warp_insn", W_PER_INSN, 0, 0, 0, "nJ", "total energy per warp instruction");
    if (!std::strcmp(cfg_.sm.scheduler.name, "laws") || cfg_.sm.l1_prefetcher == 3) // APRES' blocks (Fig. 15 overhead)
        add("gpu.power.apres_tables_energy", W_TABLES, 0, 0, 0, "J",
            "dynamic energy of APRES' tables (LLT, WGT, PT, WQ, DRQ), inside the sched and ldst components");
    if (pm_policy_find(cfg_.power.policy) == &pm_policy_slumber) // Sec. 6.3.4, docs/power.md#slumber
        add("gpu.power.slumber.overhead_energy", W_SLUMBER_OVH, 0, 0, 0, "J",
            "leakage of Slumber's control logic (-slumber_overhead_frac x the RF's ON leakage, every SM, the whole "
            "time), inside the regfile component's static energy");
    if (cfg_.lb.enable) { // Linebacker's structures (Table 3) and extra register accesses, docs/linebacker.md
        add("gpu.power.linebacker_energy", W_LB_TOTAL, 0, 0, 0, "J",
            "dynamic energy of Linebacker's structures and register accesses, inside the regfile, l1d and sched components");
        static const char *const what[LB_E_N] = {
            "victim tag table partitions searched / entries written x -lb_vtt_pj (in l1d)",
            "Load Monitor entries read or written x -lb_lm_pj (in l1d)",
            "hashed-PC fields: (L1 accesses + fills) x -lb_hpc_pj (in l1d)",
            "CTA manager updates x -lb_ctam_pj (in sched)",
            "victim insert / Reg hit / backup / restore register accesses x rf_read / rf_write (in regfile)"};
        for (int p = 0; p < LB_E_N; p++)
            add(std::string("gpu.power.linebacker.") + lb_energy_part_name(p) + "_energy", W_LB_PART, p, 0, 0, "J",
                std::string("Linebacker: ") + what[p]);
    }
    struct Kind {
        char which;
        int n;
        const char *fmt;
    };
    const Kind kinds[] = {{'s', n_sms_, "gpu.sm[%d].power."},
                          {'l', n_slices_, "gpu.l2[%d].power."},
                          {'d', cfg_.gpu.n_mem, "gpu.dram[%d].power."},
                          {'n', 1, "gpu.icnt.power."}};
    for (const Kind &k : kinds)
        for (int i = 0; i < k.n; i++) {
            char buf[64];
            std::snprintf(buf, sizeof buf, k.fmt, i);
            std::string p = buf;
            add(p + "dynamic_energy", W_UNIT_DYN, 0, k.which, i, "J", "dynamic energy of this unit");
            add(p + "static_energy", W_UNIT_STAT, 0, k.which, i, "J", "leakage energy of this unit");
            add(p + "total_energy", W_UNIT_TOTAL, 0, k.which, i, "J", "total energy of this unit");
        }
    // Residency per gated block type, over the GPU.
    struct Gated {
        const char *type, *pattern;
    };
    const Gated gated[] = {{"reg", "gpu.sm[*].power.reg."},
                           {"l1d", "gpu.sm[*].power.l1d."},
                           {"sm", "gpu.sm[*].power.sm."},
                           {"l2", "gpu.l2[*].power.lines."}};
    for (const Gated &g : gated) {
        if (!std::string(g.type).compare("l1d") && cfg_.l1.dl1.disabled) continue;
        for (int m = 0; m < PM_MODES; m++) {
            std::string leaf = std::string(pm_mode_name(m)) + "_block_cycles";
            stat_names n{nullptr, nullptr, 0};
            bad |= stat_add_sum(r, (std::string("gpu.power.modes.") + g.type + "." + leaf).c_str(),
                                (std::string(g.pattern) + leaf).c_str(), "block-cycles",
                                "power-mode residency of every block of this type", &n) < 0;
        }
        for (const char *leaf : {"wakes", "wake_cycles", "lost"}) {
            stat_names n{nullptr, nullptr, 0};
            bad |= stat_add_sum(r, (std::string("gpu.power.modes.") + g.type + "." + leaf).c_str(),
                                (std::string(g.pattern) + leaf).c_str(), "", "summed over every block of this type",
                                &n) < 0;
        }
    }
    // A register-file policy's counters over the GPU (Slumber, WRF), and the register transitions' energy.
    const pm_policy *pol = pm_policy_find(cfg_.power.policy);
    if (pm_policy_keeps_idle(pm_policy_cache(pol))) // Snooze's idleness of L1D and L2 blocks over the GPU
        for (const Gated &g : {gated[1], gated[3]}) {
            if (!std::string(g.type).compare("l1d") && cfg_.l1.dl1.disabled) continue;
            for (const RfpLeaf &l : idle_leaves(nullptr)) {
                stat_names n{nullptr, nullptr, 0};
                bad |= stat_add_sum(r, (std::string("gpu.power.modes.") + g.type + "." + l.name).c_str(),
                                    (std::string(g.pattern) + l.name).c_str(), l.unit, (l.desc + ", over the GPU").c_str(),
                                    &n) < 0;
            }
        }
    if (uses_resq(pm_policy_cache(pol))) // Snooze's reservation queues over the GPU
        for (const Gated &g : {gated[1], gated[3]}) {
            if (!std::string(g.type).compare("l1d") && cfg_.l1.dl1.disabled) continue;
            stat_names n{nullptr, nullptr, 0};
            bad |= stat_add_sum(r, (std::string("gpu.power.modes.") + g.type + ".resq_overflows").c_str(),
                                (std::string(g.pattern) + "resq_overflows").c_str(), "fails",
                                "reservation fails the full reservation queue could not take, over the GPU", &n) < 0;
        }
    if (pol && pol->regs_only) {
        stat_names n{nullptr, nullptr, 0};
        bad |= stat_add_sum(r, "gpu.power.modes.reg.transition_energy", "gpu.sm[*].power.reg.transition_energy", "pJ",
                            "energy of register power-mode transitions, over the GPU", &n) < 0;
        for (const RfpLeaf &l : rfp_leaves(nullptr))
            bad |= stat_add_sum(r, ("gpu.power.modes.reg." + l.name).c_str(), ("gpu.sm[*].power.reg." + l.name).c_str(),
                                l.unit, (l.desc + ", over the GPU").c_str(), &n) < 0;
        bad |= stat_add_sum(r, "gpu.power.modes.reg.ready_warps_sum", "gpu.sm[*].power.reg.ready_warps_sum", "warp-cycles",
                            "READY warp slots summed over active SM cycles, all SMs", &n) < 0;
        bad |= stat_add_ratio(r, "gpu.power.modes.reg.avg_ready_warps", "gpu.power.modes.reg.ready_warps_sum",
                              "gpu.sm_cycles", "warps", "average READY warps per active SM cycle (Sec. 6.4.4)", &n) < 0;
    }
    return bad ? -1 : 0;
}

} // namespace gtlm
