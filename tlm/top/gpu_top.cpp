#include "top/gpu_top.h"
#include "kernel/tick_pool.h"

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "check/protocol_checker.h"
#include "dram/dram_module.h"
#include "icnt/icnt.h"
#include "l2/l2_module.h"
#include "llc/morpheus.h"
#include "sm/sm_module.h"
#include "top/cbwt_glue.h"
#include "top/power_stats.h"
#include "wave/vcd_tracer.h"

extern "C" {
#include "analysis/locality_source.h"
#include "analysis/locality_profile.h"
#include "llc/sm_modes.h"
}

namespace gtlm {

namespace {

sc_core::sc_time period_of(double mhz) { return sc_core::sc_time(1e6 / mhz, sc_core::SC_PS); }

std::string indexed(const char *base, int i) { return std::string(base) + "_" + std::to_string(i); }

} // namespace

Gpu::Gpu(sc_core::sc_module_name name, const gtlm_config &cfg, const log_sink &log, stat_registry *stats,
         bool outputs)
    : sc_core::sc_module(name), cfg_(cfg), core_("core_clk", period_of(cfg.gpu.clocks.core_mhz)),
      icnt_("icnt_clk", period_of(cfg.gpu.clocks.icnt_mhz)), l2_("l2_clk", period_of(cfg.gpu.clocks.l2_mhz)),
      dram_("dram_clk", period_of(cfg.gpu.clocks.dram_mhz)), runner_("edges")
{
    for (ClockDomain *d : domains()) runner_.attach(*d);
    logger_init(&log_, &log, "gpu");
    int n_sms = gtlm_config_n_sms(&cfg_);
    int n_sub = cfg_.gpu.sub_partitions_per_channel;
    int n_slices = gtlm_config_n_l2_slices(&cfg_);
    char why[256] = "";
    if (dram_addr_map_init(&map_, cfg_.dram.addr_mapping, cfg_.gpu.n_mem, cfg_.dram.timing.nbk, why, sizeof why) != 0)
        throw std::runtime_error(std::string("-gpgpu_mem_addr_mapping: ") + why);
    if (dram_addr_set_partition_indexing(&map_, cfg_.dram.partition_indexing, n_sub, why, sizeof why) != 0)
        throw std::runtime_error(std::string("-gpgpu_memory_partition_indexing: ") + why);

    core_.add(&dispatcher_);
    auto route = [this, n_sub](uint64_t addr) { return dram_addr_subpartition(&map_, n_sub, addr); };
    for (int i = 0; i < n_sms; i++)
        sms_.push_back(std::make_unique<SmModule>(indexed("sm", i).c_str(), cfg_, core_, i, stats, route));
    for (int i = 1; i < n_sms; i++) /* CBWT PDP-G/PDP-S: SM 0's L1 predicts the PD of all */
        pdp_l1_follow(&sms_[static_cast<size_t>(i)]->core().pdp, &sms_[0]->core().pdp);
    start_threads(stats);
    resolve_sm_modes(n_sms);
    bool ext_ports = cfg_.morpheus.noc_xbar && sm_modes_count(sm_modes_.data(), n_sms, SM_MODE_CACHE) > 0;
    icnt_mod_ = std::make_unique<Icnt>("icnt", cfg_, icnt_, n_sms, n_slices, stats, ext_ports); // + Morpheus' ports
    for (int j = 0; j < n_slices; j++)
        l2s_.push_back(std::make_unique<L2Slice>(indexed("l2", j).c_str(), cfg_, l2_, j, stats, &map_));
    for (int c = 0; c < cfg_.gpu.n_mem; c++)
        drams_.push_back(std::make_unique<DramChannel>(indexed("dram", c).c_str(), cfg_, dram_, c, n_sub, stats));

    if (sm_modes_count(sm_modes_.data(), n_sms, SM_MODE_CACHE) > 0) { // Morpheus: controllers + extended LLC
        std::vector<L2Slice *> slices;
        for (auto &l : l2s_) slices.push_back(l.get());
        morpheus_ = std::make_unique<Morpheus>(cfg_, sm_modes_, slices, stats, icnt_mod_.get(), &l2_);
    }
    if (stats && (morpheus_ || cfg_.morpheus.llc_stats)) register_llc_throughput(stats); // §7.4

    stats_ = stats;
    if (cfg_.cbwt.ctrl || cfg_.cbwt.stats) cbwt_ = std::make_unique<CbwtGlue>(cfg_, *this, stats);
    if (stats) {
        power_ = std::make_unique<PowerStats>(cfg_, n_sms, n_slices);
        if (morpheus_) power_->set_controller_frac(cfg_.morpheus.ctl_power_frac);
        if (power_->register_stats(stats) != 0) throw std::runtime_error("cannot register the energy statistics");
    }

    // Links, each through a protocol checker when asked.
    auto link = [this](auto &init_socket, auto &target_socket, const std::string &name) {
        if (!cfg_.gpu.check_protocol) {
            init_socket.bind(target_socket);
            return;
        }
        checkers_.push_back(std::make_unique<ProtocolChecker>(("check_" + name).c_str()));
        init_socket.bind(checkers_.back()->target);
        checkers_.back()->initiator.bind(target_socket);
    };
    for (int i = 0; i < n_sms; i++)
        link(sms_[i]->sm2icnt.socket, icnt_mod_->from_sm[static_cast<size_t>(i)]->socket, indexed("sm2icnt", i));
    for (int j = 0; j < n_slices; j++) {
        link(icnt_mod_->to_l2[static_cast<size_t>(j)]->socket, l2s_[j]->from_icnt.socket, indexed("icnt2l2", j));
        link(l2s_[j]->to_dram.socket, drams_[static_cast<size_t>(j / n_sub)]->from_l2[static_cast<size_t>(j % n_sub)]->socket,
             indexed("l22dram", j));
    }
    // With checkers (only then: the default statistics stay as they are), the transactions they
    // saw, so a test can tell that they sit on the links.
    if (stats && !checkers_.empty()) {
        auto checked = [](const stat_registry *, stat_scope, const void *ctx) {
            double n = 0;
            for (const auto &c : static_cast<const Gpu *>(ctx)->checkers_) n += static_cast<double>(c->checked());
            return n;
        };
        stat_names none{nullptr, nullptr, 0};
        if (stat_add_derived(stats, "gpu.check.transactions", checked, this, "transactions",
                             "transactions the protocol checkers saw complete, every link, since the start", &none) < 0)
            throw std::runtime_error("cannot register the protocol checkers' statistic");
    }
    // The SMs change only in core ticks and in responses, which wake a core tick: their faults,
    // progress and instruction count are read after core ticks; the watchdog and limits after any.
    core_.after_tick = [this](uint64_t c) { return watch(c, true); };
    for (ClockDomain *d : {&icnt_, &l2_, &dram_}) d->after_tick = [this](uint64_t c) { return watch(c, false); };
    if (outputs && cfg_.gpu.vcd_file && cfg_.gpu.vcd_file[0]) open_vcd();
    if (outputs && cfg_.gpu.stats_interval > 0)
        ts_.open(cfg_.gpu.timeseries_file ? cfg_.gpu.timeseries_file : "gtlm_timeseries.csv",
                 static_cast<uint64_t>(cfg_.gpu.stats_interval), cbwt_ != nullptr);
    LOG_I(&log_, "%d SMs, %d memory channels x %d L2 slices, core clock %s", n_sms, cfg_.gpu.n_mem, n_sub,
          core_.period().to_string().c_str());
}

Gpu::~Gpu() = default;

// SM modes (Morpheus, IBL): the dispatcher uses the compute SMs only; gated SMs are OFF all run.
void Gpu::resolve_sm_modes(int n_sms)
{
    sm_modes_.assign(static_cast<size_t>(n_sms), SM_MODE_COMPUTE);
    strbuf err;
    strbuf_init(&err);
    int rc = sm_modes_resolve(&cfg_.morpheus, n_sms, sm_modes_.data(), nullptr, &err);
    std::string why = strbuf_str(&err);
    strbuf_free(&err);
    if (rc != 0) throw std::runtime_error(why);
    for (int i = 0; i < n_sms; i++)
        if (sm_modes_[static_cast<size_t>(i)] == SM_MODE_GATED && sm_power_gate(&sms_[static_cast<size_t>(i)]->core()) != 0)
            throw std::runtime_error("out of memory gating SM " + std::to_string(i));
    int cache = sm_modes_count(sm_modes_.data(), n_sms, SM_MODE_CACHE);
    int gated = sm_modes_count(sm_modes_.data(), n_sms, SM_MODE_GATED);
    if (cache || gated) LOG_I(&log_, "SM modes: %d compute, %d cache, %d gated", n_sms - cache - gated, cache, gated);
}

// Waveforms: every module offers its observables once; the tracer keeps the selected ones.
void Gpu::open_vcd()
{
    vcd_ = std::make_unique<VcdTracer>("vcd", cfg_.gpu.vcd_file, cfg_.gpu.vcd_signals ? cfg_.gpu.vcd_signals : "*",
                                       static_cast<uint64_t>(cfg_.gpu.vcd_start), static_cast<uint64_t>(cfg_.gpu.vcd_end),
                                       core_, std::vector<const ClockDomain *>{&core_, &icnt_, &l2_, &dram_}, runner_);
    ProbeList probes;
    for (auto &s : sms_) s->observe(probes);
    icnt_mod_->observe(probes);
    if (cbwt_) cbwt_->observe(probes);
    for (auto &l : l2s_) l->observe(probes);
    for (auto &d : drams_) d->observe(probes);
    if (morpheus_) morpheus_->observe(probes);
    vcd_->add(std::move(probes.all()));
    runner_.after_edge = [this] { vcd_->sample(); };
    if (vcd_->n_signals() == 0)
        LOG_W(&log_, "-vcd_signals '%s' selects no signal: the VCD will be empty", cfg_.gpu.vcd_signals);
}

// Power-mode residency is integrated from the kernel's first core cycle to its end (the L2's in
// L2 cycles of the same instants).
void Gpu::power_modes(uint64_t core_cycle, bool begin)
{
    uint64_t l2_cycle = static_cast<uint64_t>(static_cast<double>(core_cycle) * cfg_.gpu.clocks.l2_mhz /
                                              cfg_.gpu.clocks.core_mhz);
    for (auto &s : sms_) {
        if (begin) sm_power_kernel_begin(&s->core(), core_cycle);
        else sm_power_close(&s->core(), core_cycle);
    }
    for (auto &l : l2s_) {
        pm_domain *d = &l->core().cache.pm;
        if (begin) {
            pm_kernel_begin(d, l2_cycle);
        } else {
            pm_close(d, l2_cycle);
            cache_pm_finish(&l->core().cache, l2_cycle); // the kernel exited (Snooze T6/T7)
        }
    }
}

// -gtlm_threads: a pool for the SMs' ticks (docs/timing-model.md, "Parallel edges"). The Verilated
// blocks share Verilator's context and the VCD writer, so they keep one thread.
void Gpu::start_threads(stat_registry *stats)
{
    int n = cfg_.gpu.threads;
    if (n <= 1) return;
    if (cfg_.sm.rtl_sched || cfg_.power.rtl_power) {
        LOG_W(&log_, "-gtlm_threads %d: running on 1 thread (-rtl_sched and -rtl_power co-simulate Verilated blocks "
                     "that share one Verilator context)", n);
        return;
    }
    tick_pool_ = std::make_unique<TickPool>(n);
    core_.set_pool(tick_pool_.get(), static_cast<size_t>(cfg_.gpu.threads_min_sms));
    if (!stats) return; // a host measure, registered only here so that the statistics of 1 thread stay as they are
    auto edges = [](const stat_registry *, stat_scope, const void *ctx) {
        return static_cast<double>(static_cast<const Gpu *>(ctx)->parallel_edges());
    };
    stat_names none{nullptr, nullptr, 0};
    if (stat_add_derived(stats, "host.parallel_edges", edges, this, "edges",
                         "core edges whose SMs ticked on the -gtlm_threads pool, since the start", &none) < 0)
        throw std::runtime_error("cannot register host.parallel_edges");
}

int Gpu::threads() const { return tick_pool_ ? tick_pool_->threads() : 1; }

std::vector<ClockDomain *> Gpu::domains() { return {&core_, &icnt_, &l2_, &dram_}; }

std::string Gpu::describe_busy() const
{
    std::string out;
    const ClockDomain *ds[] = {&core_, &icnt_, &l2_, &dram_};
    for (const ClockDomain *d : ds)
        for (const Tickable *u : d->units()) {
            u->describe(out);
            uint64_t w = u->next_work(d->cycle() + 1);
            if (w != kNever && !u->busy())
                out += std::string(d->name()) + ": a unit asks to tick at " + std::to_string(w) + " while not busy\n";
        }
    return out;
}

std::string Gpu::describe_barriers() const
{
    strbuf b;
    strbuf_init(&b);
    uint32_t n = 0;
    for (const auto &s : sms_) n += sm_core_describe_barriers(&s->core(), &b);
    std::string out = n ? strbuf_str(&b) : "";
    strbuf_free(&b);
    return out;
}

void Gpu::sync_stats()
{
    for (auto &d : drams_) d->sync_cycles();
}

void Gpu::abort_run(const std::string &why)
{
    if (aborted_) return;
    aborted_ = true;
    abort_why_ = why;
    for (ClockDomain *d : domains()) d->halt();
}

// Runs after every tick of every domain: functional faults, limits and the watchdog.
bool Gpu::watch(uint64_t, bool core_edge)
{
    if (!running_ || aborted_) return !aborted_;
    uint64_t now = sc_core::sc_time_stamp().value() / core_.period().value();
    if (core_edge && cbwt_) cbwt_->poll(now);
    ts_.advance(*this, now);
    bool progressed = false, worked = false;
    if (core_edge) {
        uint64_t progress = 0, insn = 0, work = 0;
        for (size_t i = 0; i < sms_.size(); i++) {
            const sm_core &c = sms_[i]->core();
            if (i < ctas_seen_.size() && c.st.ctas_done != ctas_seen_[i]) { // a CTA ended: the tail's start
                ctas_seen_[i] = c.st.ctas_done;
                cta_done_at_[i] = now;
            }
            if (c.error) {
                char buf[768];
                if (c.launch) simt_format_error(c.launch, &c.err, buf, sizeof buf);
                else snprintf(buf, sizeof buf, "SM %d: %s", c.id, c.err.detail); // trace-driven
                abort_run(buf);
                return false;
            }
            progress += c.progress;
            work += c.work;
            insn += c.st.warp_insn;
        }
        insn_ = insn;
        if (progress_fn_ && now - start_cycle_ >= next_report_) {
            next_report_ = now - start_cycle_ + progress_every_;
            progress_fn_(now - start_cycle_, insn);
        }
        if (dispatcher_.failed()) {
            abort_run("out of memory starting a CTA");
            return false;
        }
        progressed = progress != last_progress_;
        last_progress_ = progress;
        worked = work != last_work_;
        last_work_ = work;
    }
    if (worked) last_work_cycle_ = now;
    if (progressed && cfg_.gpu.deadlock_detect && cfg_.gpu.watchdog_cycles > 0 &&
        now > last_work_cycle_ && now - last_work_cycle_ > static_cast<uint64_t>(cfg_.gpu.watchdog_cycles)) {
        // Instructions issue, but only in spin-wait loops whose state repeats: CTAs wait on
        // each other (an inter-CTA barrier) and the ones they wait for cannot become resident.
        abort_run("watchdog: livelock: for " + std::to_string(now - last_work_cycle_) +
                  " core cycles only warps spinning on memory (SPINS below) issued instructions and no CTA started "
                  "or finished (-gtlm_watchdog_cycles " + std::to_string(cfg_.gpu.watchdog_cycles) + "); " +
                  std::to_string(dispatcher_.pending()) +
                  " CTAs of the kernel wait to start (CTAs that wait on each other must all be resident); "
                  "busy units:\n" + describe_busy());
        return false;
    }
    if (progressed) {
        last_progress_cycle_ = now;
    } else if (cfg_.gpu.deadlock_detect && cfg_.gpu.watchdog_cycles > 0 &&
               now > last_progress_cycle_ &&
               now - last_progress_cycle_ > static_cast<uint64_t>(cfg_.gpu.watchdog_cycles)) {
        abort_run("watchdog: no instruction issued and no memory transaction moved for " +
                  std::to_string(now - last_progress_cycle_) + " core cycles (-gtlm_watchdog_cycles " +
                  std::to_string(cfg_.gpu.watchdog_cycles) + "); busy units:\n" + describe_busy() +
                  describe_barriers());
        return false;
    }
    if (cfg_.gpu.max_cycles > 0 && now - start_cycle_ >= static_cast<uint64_t>(cfg_.gpu.max_cycles)) {
        abort_run("stopped at -gpgpu_max_cycle " + std::to_string(cfg_.gpu.max_cycles));
        return false;
    }
    if (cfg_.gpu.max_insn > 0 && insn_ >= static_cast<uint64_t>(cfg_.gpu.max_insn)) {
        abort_run("stopped at -gpgpu_max_insn " + std::to_string(cfg_.gpu.max_insn));
        return false;
    }
    return true;
}

KernelRun Gpu::run_kernel(const simt_launch &l, uint32_t ctas_per_sm, uint32_t regs_per_thread)
{
    if (morpheus_) morpheus_->set_memory(l.mem); // BDI classifies blocks by their data
    auto begin = [&](sm_core &c) {
        c.kernel_regs = regs_per_thread;
        return sm_core_kernel_begin(&c, &l, ctas_per_sm);
    };
    lg_ref_breakdown refs{};
    if (cfg_.tbsched.graph_refs) { // Fig. 3.2's categories, from a functional run on a copy
        char rmsg[512];
        if (lg_profile_refs(&l, cfg_.tbsched.graph_lines ? LG_LINE : LG_ELEMENT, &refs, rmsg, sizeof rmsg) != 0) {
            KernelRun r;
            r.ok = false;
            r.error = rmsg;
            return r;
        }
    }
    if (!tbsched_needs_graph(cfg_.tbsched.policy.name)) {
        KernelRun r = run(l.grid, ctas_per_sm, begin);
        r.refs = refs;
        return r;
    }
    // PAVER: the launch's TB locality graph, from LocalityGuru or profiled on a copy of device memory.
    lg_graph g;
    lg_source_info info;
    char msg[512];
    auto t0 = std::chrono::steady_clock::now();
    if (lg_launch_graph(&l, cfg_.tbsched.graph_source, cfg_.tbsched.graph_lines ? LG_LINE : LG_ELEMENT,
                        cfg_.tbsched.graph_eval, &g, &info, msg, sizeof msg) != 0) {
        KernelRun r;
        r.ok = false;
        r.error = msg;
        return r;
    }
    double graph_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    KernelRun r = run(l.grid, ctas_per_sm, begin, &g);
    r.jit_seconds += graph_seconds;
    lg_summary sum;
    lg_graph_summary(&g, &sum);
    r.graph_tbs = g.n;
    r.graph_cells = static_cast<uint64_t>(g.n) * g.n;
    r.graph_nonzeros = g.row ? g.row[g.n] : 0;
    r.shared_tbs = g.n - sum.isolated;
    r.refs = refs;
    lg_graph_free(&g);
    return r;
}

KernelRun Gpu::run_trace_kernel(const sm_trace_source &src, const uint32_t grid[3], uint32_t warps_per_cta,
                                uint32_t ctas_per_sm)
{
    return run(grid, ctas_per_sm,
               [&](sm_core &c) { return sm_core_kernel_begin_trace(&c, &src, warps_per_cta, ctas_per_sm); });
}

KernelRun Gpu::run(const uint32_t grid[3], uint32_t ctas_per_sm, const std::function<int(sm_core &)> &begin,
                   const lg_graph *graph)
{
    KernelRun r;
    tbsched t{};
    tbsched_launch tl{};
    for (int i = 0; i < 3; i++) tl.grid[i] = grid[i];
    tl.n_ctas = static_cast<uint64_t>(grid[0]) * grid[1] * grid[2];
    tl.n_sms = static_cast<uint32_t>(sm_modes_count(sm_modes_.data(), n_sms(), SM_MODE_COMPUTE));
    tl.graph = graph;
    tl.ctas_per_sm = ctas_per_sm;
    tl.fetch_latency = static_cast<uint32_t>(cfg_.tbsched.fetch_latency >= 0 ? cfg_.tbsched.fetch_latency
                                                                              : cfg_.l2.rop_latency);
    strbuf err;
    strbuf_init(&err);
    auto t0 = std::chrono::steady_clock::now();
    int begun = tbsched_begin(&t, &cfg_.tbsched.policy, &tl, &err);
    if (graph) r.jit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (begun != 0) {
        r.ok = false;
        r.error = strbuf_str(&err);
        strbuf_free(&err);
        return r;
    }
    strbuf_free(&err);
    std::vector<sm_core *> cores;
    std::vector<Tickable *> units;
    for (auto &s : sms_) {
        if (begin(s->core()) != 0) {
            tbsched_end(&t);
            r.ok = false;
            r.error = "out of memory preparing the SMs";
            return r;
        }
        if (sm_modes_[static_cast<size_t>(s->core().id)] != SM_MODE_COMPUTE) continue; // no CTAs
        cores.push_back(&s->core());
        units.push_back(s.get());
    }
    for (ClockDomain *d : domains()) d->resume();
    aborted_ = false;
    abort_why_.clear();
    running_ = true;
    start_cycle_ = core_.next_edge();
    last_progress_ = 0;
    insn_ = 0;
    // -gpgpu_kernel_launch_latency: the first CTA leaves that many core cycles after the launch;
    // the wait is part of the kernel's cycles, and the watchdog counts from its end.
    uint64_t first_cta = start_cycle_ + static_cast<uint64_t>(cfg_.gpu.launch_latency);
    for (auto &s : sms_) last_progress_ += s->core().progress;
    last_progress_cycle_ = first_cta;
    last_work_ = 0;
    for (auto &s : sms_) last_work_ += s->core().work;
    last_work_cycle_ = first_cta;
    power_modes(start_cycle_, true); // before the dispatcher starts the first CTAs
    if (cbwt_) cbwt_->kernel_begin(start_cycle_);
    next_report_ = progress_every_;
    ctas_seen_.assign(sms_.size(), 0);
    cta_done_at_.assign(sms_.size(), UINT64_MAX);
    for (size_t i = 0; i < sms_.size(); i++) ctas_seen_[i] = sms_[i]->core().st.ctas_done;
    dispatcher_.begin(&t, cores, units, first_cta);
    ts_.begin_kernel(*this, start_cycle_);
    if (vcd_) vcd_->kernel_begin();
    core_.wake_at(start_cycle_);
    sc_core::sc_start();
    running_ = false;
    uint64_t end = core_.cycle() + 1;
    power_modes(end, false);
    ts_.end_kernel(*this, end);
    r.cycles = end > start_cycle_ ? end - start_cycle_ : 0;
    for (auto &s : sms_) {
        r.warp_insn += s->core().st.warp_insn;
        r.thread_insn += s->core().st.thread_insn;
        r.ctas += s->core().st.ctas_done;
    }
    for (uint64_t at : cta_done_at_) {
        if (at == UINT64_MAX || at >= end) continue; // no CTA of this kernel ended there
        uint64_t idle = end - 1 - at;
        r.tail_idle_sum += idle;
        if (idle > r.tail_idle_max) r.tail_idle_max = idle;
    }
    tbsched_counters_get(&t, &r.sched);
    bool done = tbsched_all_issued(&t);
    for (auto &s : sms_) done = done && sm_core_idle(&s->core());
    if (aborted_) {
        r.ok = false;
        r.error = abort_why_;
        r.functional_fault = abort_why_.rfind("watchdog", 0) != 0 && abort_why_.rfind("stopped", 0) != 0;
    } else if (!done) {
        r.ok = false;
        std::string barriers = describe_barriers();
        if (!barriers.empty())
            r.error = "barrier deadlock at core cycle " + std::to_string(r.cycles) +
                      " of the kernel: warps wait at barriers the other warps of their CTA never reach:\n" + barriers;
        else
            r.error = "deadlock at core cycle " + std::to_string(r.cycles) +
                      " of the kernel: no unit has work left but the kernel has not finished (a lost request or "
                      "response); busy units:\n" + describe_busy();
    }
    if (r.ok) {
        // A drained run leaves no transaction in flight on any link.
        for (auto &c : checkers_) {
            try {
                c->check_idle();
            } catch (const std::exception &e) {
                r.ok = false;
                r.error = e.what();
                break;
            }
        }
    }
    dispatcher_.end();
    for (auto &s : sms_) sm_core_kernel_end(&s->core());
    tbsched_end(&t);
    return r;
}

} // namespace gtlm
