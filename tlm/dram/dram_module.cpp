#include "dram/dram_module.h"

#include <cstdio>

extern "C" {
#include "common/status.h"
#include "linebacker/lb_ctl.h"
}

namespace gtlm {

DramChannel::DramChannel(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &dram_domain,
                         int channel, int n_ports, stat_registry *stats)
    : sc_core::sc_module(name), domain_(dram_domain), channel_(channel)
{
    if (n_ports < 1) SC_REPORT_ERROR("gtlm/dram", "a DRAM channel needs at least one port");
    int rc = dram_channel_init(&ch_, &cfg.dram, cfg.gpu.n_mem, cfg.gpu.clocks.core_mhz, cfg.gpu.clocks.dram_mhz);
    if (rc != GTLM_ST_OK) {
        char msg[96];
        std::snprintf(msg, sizeof msg, "DRAM channel %d: configuration rejected (status %d)", channel, rc);
        SC_REPORT_ERROR("gtlm/dram", msg);
    }
    for (int p = 0; p < n_ports; p++) {
        std::string port_name = "from_l2_" + std::to_string(p);
        from_l2.push_back(std::make_unique<AtTarget>(port_name.c_str()));
        from_l2.back()->on_request = [this, p](Gp &gp, const sc_core::sc_time &at) { return on_request(p, gp, at); };
        from_l2.back()->on_resp_ready = [this, p] { on_resp_ready(p); };
    }
    if (cfg.lb.enable && cfg.lb.throttle) { // Linebacker's register backup region: its DRAM traffic apart
        ch_.core.tag_lo = LB_BACKUP_BASE;
        ch_.core.tag_hi = LB_BACKUP_BASE + static_cast<uint64_t>(gtlm_config_n_sms(&cfg)) * LB_BACKUP_SM_BYTES;
    }
    if (stats) register_stats(stats);
    domain_.add(this);
}

DramChannel::~DramChannel() { dram_channel_free(&ch_); }

bool DramChannel::on_request(int port, Gp &gp, const sc_core::sc_time &arrival)
{
    if (!dram_channel_can_accept(&ch_)) {
        held_requests_++;
        return false;
    }
    if (gp.get_data_length() == 0) SC_REPORT_ERROR("gtlm/dram", "request with data length 0");
    uint64_t visible = domain_.next_edge();
    uint64_t annotated = domain_.edge_at_or_after(arrival);
    if (annotated > visible) visible = annotated;
    uint32_t idx;
    if (!free_.empty()) {
        idx = free_.back();
        free_.pop_back();
    } else {
        idx = static_cast<uint32_t>(pending_.size());
        pending_.push_back({});
    }
    pending_[idx] = {&gp, port};
    dram_request r{gp.get_address(), gp.get_data_length(), gp.is_write() ? 1 : 0,
                   reinterpret_cast<void *>(static_cast<uintptr_t>(idx))};
    if (dram_channel_push(&ch_, visible, &r) != GTLM_ST_OK) // cannot happen after can_accept
        SC_REPORT_ERROR("gtlm/dram", "DRAM channel refused a request it had room for");
    uint64_t w = dram_channel_next_work(&ch_, visible);
    if (w != kNever) domain_.wake_at(w, this);
    return true;
}

void DramChannel::on_resp_ready(int port)
{
    const dram_channel_rsp *r = dram_channel_rsp_peek(&ch_);
    if (r && pending_[reinterpret_cast<uintptr_t>(r->cookie)].port == port) domain_.wake(this);
}

void DramChannel::count_cycles(uint64_t cycle)
{
    if (cycle > last_cycle_) {
        cycles_ += cycle - last_cycle_;
        last_cycle_ = cycle;
    }
}

void DramChannel::sync_cycles() { count_cycles(domain_.next_edge() - 1); }

void DramChannel::tick(uint64_t cycle)
{
    count_cycles(cycle);
    dram_channel_tick(&ch_, cycle);
    send_response(cycle);
    take_held(cycle);
}

// The oldest response goes out on its port (one per DRAM cycle); it waits while that port's
// previous response is not acknowledged.
void DramChannel::send_response(uint64_t cycle)
{
    const dram_channel_rsp *r = dram_channel_rsp_peek(&ch_);
    if (!r) return;
    uint32_t idx = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(r->cookie));
    Pending p = pending_[idx];
    AtTarget &port = *from_l2[p.port];
    if (!port.can_respond()) return;
    dram_channel_rsp_pop(&ch_, cycle);
    free_.push_back(idx);
    p.gp->set_response_status(tlm::TLM_OK_RESPONSE);
    port.respond(*p.gp); // last: the initiator may send its next request from inside
}

// Held requests enter while the latency queue has room, ports offered in round-robin order.
void DramChannel::take_held(uint64_t)
{
    int n = static_cast<int>(from_l2.size());
    for (int i = 0; i < n && dram_channel_can_accept(&ch_); i++) {
        int p = (rr_ + i) % n;
        if (from_l2[p]->holds_request() && from_l2[p]->take_held_request()) rr_ = (p + 1) % n;
    }
}

uint64_t DramChannel::next_work(uint64_t cycle) const
{
    if (const dram_channel_rsp *r = dram_channel_rsp_peek(&ch_))
        if (from_l2[pending_[reinterpret_cast<uintptr_t>(r->cookie)].port]->can_respond()) return cycle;
    if (dram_channel_can_accept(&ch_))
        for (const auto &t : from_l2)
            if (t->holds_request()) return cycle;
    return dram_channel_next_work(&ch_, cycle);
}

void DramChannel::describe(std::string &out) const
{
    strbuf sb;
    strbuf_init(&sb);
    dram_channel_describe(&ch_, &sb);
    if (sb.len) out += std::string(name()) + ": " + strbuf_str(&sb);
    strbuf_free(&sb);
    for (size_t p = 0; p < from_l2.size(); p++) {
        std::string port = std::string(name()) + ": port " + std::to_string(p);
        if (from_l2[p]->holds_request()) out += port + " holds a request\n";
        if (!from_l2[p]->can_respond()) out += port + " waits for END_RESP\n";
    }
}

bool DramChannel::busy() const
{
    if (dram_channel_busy(&ch_)) return true;
    for (const auto &t : from_l2)
        if (t->holds_request()) return true;
    return false;
}

void DramChannel::register_stats(stat_registry *r)
{
    char base[48];
    std::snprintf(base, sizeof base, "gpu.dram[%d].", channel_);
    const std::string b = base;
    bool bad = false;
    auto counter = [&](const char *leaf, uint64_t *src, const char *unit, const char *desc) {
        bad |= stat_add_counter(r, (b + leaf).c_str(), src, unit, desc, nullptr) < 0;
    };
    dram_stats &cs = ch_.core.st;
    counter("reads", &cs.reads, "requests", "read requests accepted by the scheduler");
    counter("writes", &cs.writes, "requests", "write requests accepted by the scheduler");
    if (ch_.core.tag_hi > ch_.core.tag_lo) { // -lb_enable with throttling: Fig. 17's split below the L2
        counter("lb_reads", &cs.tagged_reads, "requests", "Linebacker: reads of the register backup region (restores the L2 missed)");
        counter("lb_writes", &cs.tagged_writes, "requests", "Linebacker: writes to the register backup region (backups written back by the L2)");
        if (channel_ == 0)
            for (const char *k : {"reads", "writes"}) {
                std::string path = std::string("gpu.lb.dram_overhead_") + k, pat = std::string("gpu.dram[*].lb_") + k;
                bad |= stat_add_sum(r, path.c_str(), pat.c_str(), "requests",
                                    "Linebacker's register backup/restore requests that reached the DRAM (the rest of gpu.dram.* is demand)", nullptr) < 0;
            }
    }
    counter("read_bursts", &cs.read_bursts, "commands", "RD commands: one per burst of a read (BL x bus width x chips bytes)");
    counter("write_bursts", &cs.write_bursts, "commands", "WR commands: one per burst of a write");
    counter("row_hits", &cs.row_hits, "requests", "requests whose row was open");
    counter("row_misses", &cs.row_misses, "requests", "requests that activated a closed bank");
    counter("row_conflicts", &cs.row_conflicts, "requests",
            "requests that precharged another row first");
    counter("activates", &cs.activates, "commands", "ACT commands");
    counter("precharges", &cs.precharges, "commands", "PRE commands");
    counter("bus_busy_cycles", &cs.bus_busy_cycles, "cycles", "DRAM cycles the data bus carried data");
    counter("cycles", &cycles_, "cycles", "DRAM cycles elapsed");
    counter("completed", &ch_.st.completed, "requests", "requests completed");
    counter("latency_sum", &ch_.st.latency_sum, "cycles",
            "sum over completed requests of DRAM cycles from arrival to response ready");
    counter("sched_wait_cycles", &ch_.st.sched_wait_cycles, "cycles",
            "sum of DRAM cycles requests waited past -dram_latency for a scheduler-queue slot");
    counter("return_full_cycles", &ch_.st.return_full_cycles, "cycles", "DRAM cycles the return queue was full");
    counter("held_requests", &held_requests_, "requests", "requests held at a port: latency queue full");
    bad |= stat_add_ratio(r, (b + "bandwidth_utilization").c_str(), (b + "bus_busy_cycles").c_str(),
                          (b + "cycles").c_str(), "ratio", "data-bus busy cycles per DRAM cycle", nullptr) < 0;
    bad |= stat_add_ratio(r, (b + "avg_latency").c_str(), (b + "latency_sum").c_str(), (b + "completed").c_str(),
                          "cycles", "mean DRAM cycles from arrival to response ready", nullptr) < 0;
    if (bad) SC_REPORT_ERROR("gtlm/dram", "could not register the DRAM channel's statistics");
}

double dram_channel_peak_gbps(const gtlm_config &cfg)
{
    return cfg.gpu.n_mem * dram_peak_bandwidth_gbps(&cfg.dram, cfg.gpu.clocks.dram_mhz);
}

} // namespace gtlm
