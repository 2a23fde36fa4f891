#include "simulator.h"

#include "sm/sm_module.h"
#include "rtl/rtl_blocks.h"

#include <chrono>
#include <ctime>
#include <map>
#include <cstdio>
#include <sstream>

namespace gtlm {

namespace {

std::string take(strbuf &sb)
{
    std::string s = strbuf_str(&sb);
    strbuf_free(&sb);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}

} // namespace

Simulator::Simulator(const SimSetup &setup)
{
    opt_registry_init(&reg_);
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    if (gtlm_config_register(&reg_, &cfg_, &err) != 0) {
        opt_registry_free(&reg_);
        throw Error(GTLM_ST_EINTERNAL, "option registration failed: " + take(err));
    }
    cfg_.gpu.gpgpusim_compat = setup.gpgpusim_compat ? 1 : 0;
    int rc = 0;
    for (const std::string &f : setup.config_files) rc |= opt_parse_file(&reg_, f.c_str(), &err, &warn);
    std::vector<const char *> argv;
    for (const std::string &o : setup.overrides) argv.push_back(o.c_str());
    rc |= opt_parse_args(&reg_, static_cast<int>(argv.size()), argv.data(), &err, &warn);
    if (rc == 0) rc = gtlm_config_check(&reg_, &cfg_, &err);
    if (rc == 0) rc = rtl_config_check(&reg_, &cfg_, &err);
    if (rc == 0) rc = gtlm_config_derive(&cfg_, &err);
    warnings_ = take(warn);
    if (rc != 0) {
        std::string msg = take(err);
        opt_registry_free(&reg_);
        throw Error(GTLM_ST_ECONFIG, msg);
    }
    strbuf_free(&err);

    char why[256];
    if (log_sink_init(&log_, stderr, static_cast<log_level>(cfg_.gpu.log_level), cfg_.gpu.log_blocks, why,
                      sizeof why) != 0) {
        opt_registry_free(&reg_);
        throw Error(GTLM_ST_ECONFIG, std::string("-gtlm_log_blocks: ") + why);
    }
    stats_ = stat_registry_new();
    if (!stats_ || register_gpu_stats(stats_, &counters_, cfg_.gpu.clocks.core_mhz) != 0) {
        stat_registry_free(stats_);
        log_sink_free(&log_);
        opt_registry_free(&reg_);
        throw Error(GTLM_ST_EINTERNAL, "statistics registration failed");
    }
    try {
        sc_ = std::make_unique<ScContext>();
        build_gpu(true);
        if (cfg_.gpu.trace_out && cfg_.gpu.trace_out[0])
            device_.enable_trace(cfg_.gpu.trace_out, static_cast<unsigned>(cfg_.gpu.trace_binary_version));
    } catch (...) {
        stat_registry_free(stats_);
        log_sink_free(&log_);
        opt_registry_free(&reg_);
        throw;
    }
}

void Simulator::build_gpu(bool outputs)
{
    ScContext::Use use(*sc_);
    gpu_ = std::make_unique<Gpu>("gpu", cfg_, log_, stats_, outputs);
}

Simulator::~Simulator()
{
    if (gpu_) {
        ScContext::Use use(*sc_);
        gpu_.reset();
    }
    stat_registry_free(stats_);
    log_sink_free(&log_);
    opt_registry_free(&reg_);
}

void Simulator::launch(Module *m, const std::string &kernel, const unsigned grid[3], const unsigned block[3],
                       uint64_t dyn_shared, const void *const *args, const size_t *arg_sizes, size_t n_args)
{
    uint32_t n_sms = static_cast<uint32_t>(gtlm_config_n_sms(&cfg_));
    progress_.n_kernels = 0;
    kernel_base_ = 0;
    if (cfg_.gpu.mode == GPU_MODE_FUNCTIONAL) {
        PreparedLaunch p;
        device_.prepare_launch(m, kernel, grid, block, dyn_shared, args, arg_sizes, n_args, n_sms, p);
        occupancy(m, kernel, p.l); // a CTA that could not run on the timing model is refused here too
        uint64_t budget = functional_budget();
        progress_.kernel++;
        progress_.name = kernel;
        stat_kernel_begin(stats_, kernel.c_str());
        try {
            LaunchResult r = device_.launch_functional(m, p, budget);
            counters_.warp_insn = r.stats.warp_insn;
            counters_.thread_insn = r.stats.thread_insn;
            counters_.ctas = r.stats.ctas;
            counters_.sim_seconds = r.seconds;
            counters_.sim_cpu_seconds = r.cpu_seconds;
            counters_.jit_seconds = 0;
        } catch (const Error &e) {
            stat_kernel_abort(stats_); // a failed kernel leaves no statistic behind
            device_.undo_grid_id();
            throw Error(e.status(), functional_limit_message(e.what(), budget));
        } catch (...) {
            stat_kernel_abort(stats_);
            device_.undo_grid_id();
            throw;
        }
        stat_kernel_end(stats_);
        report_progress(0, counters_.warp_insn, true);
        return;
    }
    PreparedLaunch p;
    device_.prepare_launch(m, kernel, grid, block, dyn_shared, args, arg_sizes, n_args, n_sms, p);
    occ_result occ = occupancy(m, kernel, p.l);
    double seconds = 0;
    unsigned regs = 0, barriers = 0;
    uint64_t shared = 0, stack = 0, params = 0;
    device_.kernel_resources(m, kernel, &regs, &barriers, &shared, &stack, &params);
    KernelRun r;
    try {
        r = run_timed(kernel, occ, [&] { return gpu_->run_kernel(p.l, occ.ctas, regs); }, &seconds);
    } catch (...) {
        device_.undo_grid_id();
        throw;
    }
    if (!r.ok) {
        device_.undo_grid_id();
        const std::string who = "kernel '" + kernel + "': "; // said once, also when the SIMT core said it
        throw Error(GTLM_ST_ESIM, r.error.compare(0, who.size(), who) == 0 ? r.error : who + r.error);
    }
    collect_load_pcs(kernel, p.l);
}

// Functional mode has no cycles: -gpgpu_max_cycle N bounds it by the warp instructions the GPU
// could issue in N cycles (every scheduler of every SM issuing its most each cycle), so a kernel
// that timing mode finishes within the limit also finishes functionally, and an endless loop stops.
uint64_t Simulator::functional_budget() const
{
    uint64_t insn = cfg_.gpu.max_insn > 0 ? static_cast<uint64_t>(cfg_.gpu.max_insn) : 0;
    if (cfg_.gpu.max_cycles <= 0) return insn;
    uint64_t per_cycle = static_cast<uint64_t>(gtlm_config_n_sms(&cfg_)) *
                         static_cast<uint64_t>(cfg_.sm.n_schedulers > 0 ? cfg_.sm.n_schedulers : 1) *
                         static_cast<uint64_t>(cfg_.sm.max_insn_issue_per_warp > 0 ? cfg_.sm.max_insn_issue_per_warp : 1);
    uint64_t cycles = static_cast<uint64_t>(cfg_.gpu.max_cycles);
    uint64_t by_cycles = cycles > UINT64_MAX / per_cycle ? UINT64_MAX : cycles * per_cycle;
    return insn && insn < by_cycles ? insn : by_cycles;
}

// Names -gpgpu_max_cycle in the executor's limit message when that bound stopped the kernel.
std::string Simulator::functional_limit_message(const std::string &msg, uint64_t budget) const
{
    static const std::string insn_limit = "(-gpgpu_max_insn)";
    size_t at = msg.find(insn_limit);
    if (at == std::string::npos || cfg_.gpu.max_cycles <= 0 ||
        (cfg_.gpu.max_insn > 0 && static_cast<uint64_t>(cfg_.gpu.max_insn) == budget))
        return msg;
    return msg.substr(0, at) + "(-gpgpu_max_cycle " + std::to_string(cfg_.gpu.max_cycles) +
           ", in functional mode " + std::to_string(budget) + " warp instructions)" + msg.substr(at + insn_limit.size());
}

void Simulator::recover()
{
    stat_kernel_abort(stats_);
    try {
        stat_registry *fresh = stat_registry_new();
        if (!fresh || register_gpu_stats(fresh, &counters_, cfg_.gpu.clocks.core_mhz) != 0) {
            stat_registry_free(fresh);
            throw std::bad_alloc();
        }
        std::unique_ptr<ScContext> ctx = std::make_unique<ScContext>();
        std::unique_ptr<Gpu> g;
        try {
            ScContext::Use use(*ctx);
            g = std::make_unique<Gpu>("gpu", cfg_, log_, fresh, false);
        } catch (...) {
            stat_registry_free(fresh);
            throw;
        }
        if (stat_registry_adopt(fresh, stats_) != 0) {
            {
                ScContext::Use use(*ctx);
                g.reset();
            }
            stat_registry_free(fresh);
            throw Error(GTLM_ST_EINTERNAL, "the rebuilt GPU registers other statistics");
        }
        {
            ScContext::Use use(*sc_);
            gpu_.reset();
        }
        stat_registry_free(stats_);
        stats_ = fresh;
        sc_ = std::move(ctx);
        gpu_ = std::move(g);
        if (progress_fn_) set_progress(progress_every_, std::move(progress_fn_)); // the new GPU reports too
    } catch (const std::exception &e) {
        unusable_ = e.what();
    }
}

// A timing-mode kernel between its statistics' boundaries: run() on the GPU, then the GPU totals
// (statistics gpu.*) of the result; seconds receives the wall time of run().
KernelRun Simulator::run_timed(const std::string &kernel, const occ_result &occ, const std::function<KernelRun()> &run,
                               double *seconds)
{
    if (!unusable_.empty())
        throw Error(GTLM_ST_ESIM, "the simulator could not be reset after a failed launch (" + unusable_ +
                                      "): destroy it and create a new one");
    {
        ScContext::Use use(*sc_);
        gpu_->sync_stats();
    }
    stat_kernel_begin(stats_, kernel.c_str());
    progress_.kernel++;
    progress_.name = kernel;
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    KernelRun r;
    try {
        ScContext::Use use(*sc_);
        ScContext::Run running(*sc_);
        r = run();
        gpu_->sync_stats();
    } catch (...) {
        recover();
        throw;
    }
    if (!r.ok) {
        recover();
        return r;
    }
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    counters_.sim_seconds = *seconds;
    counters_.sim_cpu_seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    counters_.jit_seconds = r.jit_seconds;
    counters_.stolen_tbs = r.sched.stolen_tbs;
    counters_.steal_events = r.sched.steal_events;
    counters_.fetch_stalls = r.sched.fetch_stalls;
    counters_.tail_idle_sum = r.tail_idle_sum;
    counters_.tail_idle_max = r.tail_idle_max;
    counters_.graph_tbs = r.graph_tbs;
    counters_.graph_cells = r.graph_cells;
    counters_.graph_nonzeros = r.graph_nonzeros;
    counters_.shared_tbs = r.shared_tbs;
    counters_.refs_accesses = r.refs.accesses;
    counters_.refs_unshared = r.refs.unshared;
    counters_.refs_intra = r.refs.intra;
    counters_.refs_inter = r.refs.inter;
    counters_.refs_both = r.refs.both;
    counters_.cycles = r.cycles;
    counters_.warp_insn = r.warp_insn;
    counters_.thread_insn = r.thread_insn;
    counters_.ctas = r.ctas;
    counters_.ctas_per_sm = occ.ctas;
    stat_kernel_end(stats_);
    if (r.ok) report_progress(r.cycles, r.warp_insn, true);
    return r;
}

void Simulator::set_progress(uint64_t every, ProgressFn report)
{
    progress_every_ = every;
    progress_fn_ = std::move(report);
    if (!progress_fn_) {
        gpu_->set_progress(1, nullptr);
        return;
    }
    gpu_->set_progress(every, [this](uint64_t cycles, uint64_t warp_insn) { report_progress(cycles, warp_insn, false); });
}

void Simulator::report_progress(uint64_t cycles, uint64_t warp_insn, bool done)
{
    Progress &p = progress_;
    p.cycles = cycles;
    p.warp_insn = warp_insn;
    p.done = done;
    uint64_t base_cycles = p.total_cycles, base_insn = p.total_warp_insn; // before this kernel
    if (progress_fn_) {
        Progress now = p;
        now.kernel -= kernel_base_;
        now.total_cycles += cycles;
        now.total_warp_insn += warp_insn;
        progress_fn_(now);
    }
    if (done) {
        p.total_cycles = base_cycles + cycles;
        p.total_warp_insn = base_insn + warp_insn;
    }
}

void Simulator::collect_load_pcs(const std::string &kernel, const simt_launch &l)
{
    std::map<uint32_t, LoadPcRecord> by_key; // ordered: function, then instruction
    for (int i = 0; i < gpu_->n_sms(); i++) {
        const sm_core &c = gpu_->sm(i).core();
        for (uint32_t k = 0; k < sm_core_pc_count(&c); k++) {
            const sm_pc_stat *p = sm_core_pc_at(&c, k);
            if (!p->key) continue;
            LoadPcRecord &r = by_key[p->key];
            r.accesses += p->accesses;
            r.hits += p->hits;
            r.misses += p->misses;
            r.merged += p->merged;
        }
    }
    for (auto &kv : by_key) {
        uint32_t func = (kv.first - 1) >> 20, pc = (kv.first - 1) & 0xFFFFF;
        LoadPcRecord &r = kv.second;
        r.kernel = kernel;
        if (func < l.mod->ptx.n_funcs) {
            const ptx_func &f = l.mod->ptx.funcs[func];
            r.function = f.name;
            if (pc < f.n_instrs) r.line = f.instrs[pc].line;
        }
        r.pc = pc;
        load_pcs_.push_back(std::move(r));
    }
}

occ_result Simulator::occupancy(Module *m, const std::string &kernel, const simt_launch &l)
{
    unsigned regs = 0, barriers = 0;
    uint64_t shared = 0, stack = 0, params = 0;
    device_.kernel_resources(m, kernel, &regs, &barriers, &shared, &stack, &params);
    return fit(kernel, l.threads_per_cta, regs, shared, l.dyn_shared);
}

occ_result Simulator::fit(const std::string &kernel, uint32_t threads, unsigned regs, uint64_t shared, uint64_t dyn_shared)
{
    occ_sm sm{};
    occ_sm_from_config(&cfg_.sm, &sm);
    occ_kernel k{};
    k.threads_per_cta = threads;
    // 0 without a ptxas report: registers then do not bound occupancy. The committed reports are
    // for sm_75 (up to 255 registers); on a GPU with a lower per-thread limit the kernel counts as
    // compiled with -maxrregcount at that limit (the compiler would have spilled the rest).
    if (cfg_.sm.max_regs_per_thread > 0 && regs > static_cast<unsigned>(cfg_.sm.max_regs_per_thread)) {
        logger lg;
        logger_init(&lg, &log_, "gpu");
        LOG_I(&lg, "kernel '%s': %u registers per thread counted as %d (-gpgpu_max_regs_per_thread)", kernel.c_str(),
              regs, cfg_.sm.max_regs_per_thread);
        regs = static_cast<unsigned>(cfg_.sm.max_regs_per_thread);
    }
    k.regs_per_thread = regs;
    // In 64 bits: a size above the SM's shared memory never reaches the 32-bit occupancy fields.
    bool shared_fits = shared <= sm.shmem_size && dyn_shared <= sm.shmem_size - shared;
    k.shmem_static = shared_fits ? static_cast<uint32_t>(shared) : 0;
    k.shmem_dynamic = shared_fits ? static_cast<uint32_t>(dyn_shared) : 0;
    occ_result r{};
    if (!shared_fits) r.limit = OCC_LIMIT_SHMEM;
    if (!shared_fits || occ_compute(&sm, &k, nullptr, &r) != 0 || r.ctas == 0) {
        const char *what = r.limit == OCC_LIMIT_REGS ? "registers" : r.limit == OCC_LIMIT_SHMEM ? "shared memory"
                                                                  : r.limit == OCC_LIMIT_CTAS ? "CTA slots" : "threads";
        throw Error(GTLM_ST_EINVAL, "gtlm_launch: kernel '" + kernel + "': one CTA of " + std::to_string(threads) +
                                        " threads does not fit on an SM (" + what + ": " + std::to_string(regs) +
                                        " registers per thread, " + std::to_string(shared) + " + " +
                                        std::to_string(dyn_shared) + " bytes of static + dynamic shared memory, " +
                                        std::to_string(sm.shmem_size) + " per SM)");
    }
    return r;
}

std::string Simulator::summary() const
{
    const gtlm_config &c = cfg_;
    char l1[256], l2[256], dram[512], sched[128];
    opt_format(opt_find(&reg_, "-gpgpu_cache:dl1"), l1, sizeof l1);
    opt_format(opt_find(&reg_, "-gpgpu_cache:dl2"), l2, sizeof l2);
    opt_format(opt_find(&reg_, "-gpgpu_dram_timing_opt"), dram, sizeof dram);
    opt_format(opt_find(&reg_, "-gpgpu_scheduler"), sched, sizeof sched);
    int slices = gtlm_config_n_l2_slices(&c);
    std::ostringstream o;
    o << "GPU: " << gtlm_config_n_sms(&c) << " SMs (" << c.gpu.n_clusters << " clusters x "
      << c.gpu.cores_per_cluster << "), clocks core " << c.gpu.clocks.core_mhz << " / icnt " << c.gpu.clocks.icnt_mhz
      << " / L2 " << c.gpu.clocks.l2_mhz << " / DRAM " << c.gpu.clocks.dram_mhz << " MHz\n";
    o << "SM: " << c.sm.core_pipeline.first << " threads, " << c.sm.core_pipeline.first / c.sm.core_pipeline.second
      << " warps, " << c.sm.max_ctas << " CTAs, " << c.sm.registers << " registers, " << c.sm.shmem_size
      << " B shared memory, " << c.sm.n_schedulers << " schedulers (" << sched << ")\n";
    o << "L1D: " << gsim_cache_cfg_bytes(&c.l1.dl1) / 1024.0 << " KB per SM (" << l1 << "), hit latency "
      << c.l1.dl1_latency << " cycles\n";
    o << "L2: " << slices << " slices x " << gsim_cache_cfg_bytes(&c.l2.dl2) / 1024.0 << " KB = "
      << slices * gsim_cache_cfg_bytes(&c.l2.dl2) / 1024.0 << " KB (" << l2 << ")\n";
    double gbps = c.gpu.n_mem * c.dram.chips_per_channel * c.dram.bus_width * c.dram.data_command_ratio *
                  c.gpu.clocks.dram_mhz / 1000.0;
    o << "DRAM: " << c.gpu.n_mem << " channels, " << (c.dram.scheduler ? "FR-FCFS" : "FIFO") << ", peak " << gbps
      << " GB/s, timing " << dram << "\n";
    o << "Interconnect: crossbar, " << c.noc.flit_size << " B flits, " << c.noc.subnets << " subnet(s)\n";
    return o.str();
}

} // namespace gtlm
