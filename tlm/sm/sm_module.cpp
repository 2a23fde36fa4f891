#include "sm/sm_module.h"
#include "rtl/rtl_blocks.h"
#include "kernel/tick_pool.h"

#include <stdexcept>

namespace gtlm {

namespace {

MemKind kind_of(uint8_t k)
{
    switch (k) {
    case SM_REQ_STORE: return MemKind::Store;
    case SM_REQ_ATOMIC: return MemKind::Atomic;
    case SM_REQ_WRITEBACK: return MemKind::Writeback;
    case SM_REQ_REG_BACKUP:
    case SM_REQ_REG_RESTORE: return MemKind::RegBackup;
    default: return MemKind::Load;
    }
}

} // namespace

SmModule::SmModule(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &domain, int id,
                   stat_registry *stats, std::function<uint32_t(uint64_t)> route)
    : sc_core::sc_module(name), sm2icnt("sm2icnt_req"), domain_(domain), route_(std::move(route))
{
    strbuf err;
    strbuf_init(&err);
    if (sm_core_init(&core_, &cfg, id, &err) != 0) {
        std::string msg = strbuf_str(&err);
        strbuf_free(&err);
        throw std::runtime_error(msg);
    }
    strbuf_free(&err);
    for (uint32_t k = 0; cfg.sm.rtl_sched && k < core_.n_sched; k++) {
        std::string why;
        std::string inst = std::string(this->name()) + ".sched_" + std::to_string(k); // its RTL VCD scope
        if (rtl_sched_attach(&core_.scheds[k], inst, cfg.gpu.vcd_file, why) != 0)
            throw std::runtime_error("-rtl_sched: " + why);
    }
    if (id == 0 && cfg.sm.rtl_record_sched && cfg.sm.rtl_record_sched[0]) {
        std::string why;
        if (rtl_sched_record(&core_.scheds[0], cfg.sm.rtl_record_sched, why) != 0)
            throw std::runtime_error("-rtl_record_sched: " + why);
    }
    std::string why; // Snooze's L1D controller in RTL, recorded on SM 0
    std::string inst = std::string(this->name()) + ".l1d_snooze";
    if (cfg.power.rtl_power && rtl_power_attach(&core_.l1d.pm, inst, cfg.gpu.vcd_file, why) != 0)
        throw std::runtime_error("-rtl_power: " + why);
    if (id == 0 && cfg.power.rtl_record_power && cfg.power.rtl_record_power[0] &&
        rtl_power_record(&core_.l1d.pm, cfg.power.rtl_record_power, why) != 0)
        throw std::runtime_error("-rtl_record_power: " + why);
    sm2icnt.on_response = [this](Gp &gp, const sc_core::sc_time &at) { return on_response(gp, at); };
    sm2icnt.on_ready = [this]() { domain_.wake(this); };
    // Retry sleep bulk-counts skipped edges at the next tick: not while a waveform, a time
    // series or CBWT's monitor reads the SM's counters between its ticks.
    core_.retry.allowed = cfg.gpu.retry_sleep && !(cfg.gpu.vcd_file && cfg.gpu.vcd_file[0]) && cfg.gpu.stats_interval <= 0 &&
                          !cfg.cbwt.ctrl && !cfg.cbwt.stats;
    if (stats) register_stats(stats);
    domain.add(this);
}

SmModule::~SmModule() { sm_core_free(&core_); }

void SmModule::tick(uint64_t cycle)
{
    sm_core_tick(&core_, cycle);
    tick_commit(cycle);
}

void SmModule::tick_local(uint64_t cycle, size_t order)
{
    order_ = order;
    core_.serial.enter = [](void *ctx) {
        auto *m = static_cast<SmModule *>(ctx);
        m->domain_.pool()->wait_turn(m->order_);
    };
    core_.serial.ctx = this;
    core_.serial.entered = 0;
    // CBWT's PDP-G/PDP-S: this L1 reads (PDP-G: feeds) SM 0's predictor at each load, so the
    // whole tick takes its turn.
    if (core_.pdp.source) sm_serial_point(&core_);
    sm_core_tick(&core_, cycle);
    core_.serial.enter = nullptr;
}

void SmModule::tick_commit(uint64_t cycle)
{
    // One request per cycle leaves towards the interconnect.
    sm_req r;
    if (sm2icnt.can_send() && sm_core_out_peek(&core_, &r)) {
        Gp *gp = pool_.get(r.kind == SM_REQ_LOAD || r.kind == SM_REQ_REG_RESTORE ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, r.addr, r.bytes);
        gtlm_mem_ext &e = mem_ext(*gp);
        e.sm = static_cast<uint32_t>(core_.id);
        e.warp = r.warp;
        e.cta = r.cta;
        e.pc = r.pc;
        e.pc_hash = r.pc_hash;
        e.kind = r.prefetch ? MemKind::Prefetch : kind_of(r.kind);
        e.bypass_hint = r.bypass;
        e.sector_mask = r.sector_mask;
        e.id = r.id;
        e.issue_cycle = cycle;
        e.queued_at = (r.queued != SM_NEVER && r.queued <= cycle ? r.queued : cycle) * domain_.period().value();
        e.dst = route_(r.addr);
        sm_core_out_pop(&core_, cycle);
        sm2icnt.send(*gp);
    }
}

bool SmModule::on_response(Gp &gp, const sc_core::sc_time &arrival)
{
    const gtlm_mem_ext &e = mem_ext(gp);
    uint64_t ready = domain_.next_edge();
    uint64_t at = domain_.edge_at_or_after(arrival);
    if (at > ready) ready = at;
    sm_core_response(&core_, e.id, gp.get_address(), e.sector_mask, ready);
    core_.st.mem_latency_sum += ready - e.issue_cycle;
    core_.st.mem_latency_n++;
    if (gp.is_read() && (e.kind == MemKind::Load || e.kind == MemKind::Prefetch))
        sm_locality_response(&core_, e.kind == MemKind::Prefetch, gp.get_data_length(), ready - e.issue_cycle);
    gp.release();
    domain_.wake_at(ready, this);
    return true;
}

uint64_t SmModule::next_work(uint64_t cycle) const
{
    uint64_t t = sm_core_next_work(&core_, cycle);
    // The LD/ST unit only retries a refused read: nothing changes before an event (retry sleep).
    if (t == cycle && sm_retry_sleeps(&core_, cycle, sm2icnt.can_send())) t = sm_core_next_event(&core_, cycle);
    return t == SM_NEVER ? kNever : t;
}

void SmModule::describe(std::string &out) const
{
    strbuf sb;
    strbuf_init(&sb);
    sm_core_describe(&core_, &sb);
    out += strbuf_str(&sb);
    strbuf_free(&sb);
    if (!sm2icnt.can_send()) out += "  sm2icnt_req: waiting for END_REQ (interconnect full)\n";
}

} // namespace gtlm
