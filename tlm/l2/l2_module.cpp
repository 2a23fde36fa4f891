#include "l2/l2_module.h"

#include <cstdint>

extern "C" {
#include "common/status.h"
}

#include "kernel/error.h"
#include "rtl/rtl_blocks.h"
#include "top/miss_class_stats.h"
#include "top/power_stats.h"

namespace gtlm {

namespace {

l2_req_kind kind_of(const Gp &gp)
{
    const gtlm_mem_ext *e = gp.get_extension<gtlm_mem_ext>();
    MemKind k = e ? e->kind : MemKind::Load;
    if (k == MemKind::Atomic) return L2_REQ_ATOMIC;
    if (k == MemKind::Writeback) return L2_REQ_WRITEBACK;
    return gp.is_write() ? L2_REQ_WRITE : L2_REQ_READ;
}

MemKind dram_kind(uint8_t out_kind)
{
    if (out_kind == CACHE_OUT_READ) return MemKind::Load;
    return out_kind == CACHE_OUT_WRITE ? MemKind::Store : MemKind::Writeback;
}

} // namespace

L2Slice::L2Slice(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &l2_domain, int id,
                 stat_registry *stats, const dram_addr_map *map)
    : sc_core::sc_module(name), from_icnt("from_icnt"), to_dram("to_dram"), domain_(l2_domain), id_(id)
{
    l2_slice_params p;
    l2_slice_params_from_config(&cfg, &p);
    p.part_map = map;
    if (l2_slice_init(&s_, &p))
        throw Error(GTLM_ST_ECONFIG, std::string(this->name()) + ": the L2 cache configuration (-gpgpu_cache:dl2) "
                                     "cannot be built (a disabled L2 is not modelled)");
    const power_config &pc = cfg.power;
    cache_pm_set_per_sector(&s_.cache, cache_pm_per_sector_for(pc.policy, pc.sector_blocks[1]));
    cache_pm_set_resq(&s_.cache, pc.snooze_resq);
    if (cache_pm_init(&s_.cache, &pc.modes[PWR_G_L2], pc.leak_mw[PWR_LK_L2], cfg.gpu.clocks.l2_mhz,
                      pm_policy_find(pc.policy), pc.lines_per_block[1]) != 0)
        throw Error(GTLM_ST_ENOMEM, std::string(this->name()) + ": out of memory for the L2 power modes");
    std::string why; // Snooze's controller of the slice in RTL
    if (pc.rtl_power && rtl_power_attach(&s_.cache.pm, std::string(this->name()) + ".snooze", cfg.gpu.vcd_file, why) != 0)
        throw Error(GTLM_ST_ECONFIG, "-rtl_power: " + why);
    from_icnt.on_request = [this](Gp &gp, const sc_core::sc_time &t) { return on_request(gp, t); };
    from_icnt.on_resp_ready = [this] { domain_.wake(this); };
    to_dram.on_response = [this](Gp &gp, const sc_core::sc_time &t) { return on_dram_response(gp, t); };
    to_dram.on_ready = [this] { domain_.wake(this); };
    domain_.add(this);
    if (stats) register_stats(stats);
    if (stats && cfg.sm.l1_prefetcher) register_prefetch_stats(stats);
}

L2Slice::~L2Slice() { l2_slice_free(&s_); }

uint64_t L2Slice::visible_cycle(const sc_core::sc_time &arrival) const
{
    uint64_t next = domain_.next_edge(), at = domain_.edge_at_or_after(arrival);
    return at > next ? at : next;
}

bool L2Slice::on_request(Gp &gp, const sc_core::sc_time &arrival)
{
    const gtlm_mem_ext *e = gp.get_extension<gtlm_mem_ext>();
    l2_req r{};
    r.addr = gp.get_address();
    r.cookie = reinterpret_cast<uintptr_t>(&gp);
    r.bytes = gp.get_data_length();
    r.pc_hash = e ? e->pc_hash : 0;
    r.sector_mask = e ? e->sector_mask : 0;
    r.kind = static_cast<uint8_t>(kind_of(gp));
    r.src = e && e->kind == MemKind::Load ? static_cast<int32_t>(e->sm) : -1;
    r.prefetch = e && e->kind == MemKind::Prefetch;
    uint64_t v = visible_cycle(arrival);
    if (l2_slice_push(&s_, &r, v)) return false; // ROP queue full (counted): held, END_REQ later
    domain_.wake_at(v, this);
    return true;
}

bool L2Slice::on_dram_response(Gp &gp, const sc_core::sc_time &arrival)
{
    uint64_t v = visible_cycle(arrival);
    if (ctl_ && mem_ext(gp).kind == MemKind::ExtLlc) { // the controller's own DRAM traffic
        if (gp.is_read()) {
            ctl_->dram_done(gp.get_address(), v);
            domain_.wake_at(v, this);
        }
        gp.release();
        return true;
    }
    if (gp.is_read()) {
        const gtlm_mem_ext &e = mem_ext(gp);
        // The fill inbox covers every outstanding DRAM read; if it were full, hold the response.
        if (l2_slice_dram_fill(&s_, gp.get_address(), e.sector_mask, v)) return false;
        domain_.wake_at(v, this);
    }
    // Done with it. The pool reuses it only at a later get() (in tick), after the port has
    // finished the END_RESP that follows this call.
    gp.release();
    return true;
}

void L2Slice::send_to_dram(uint64_t cycle)
{
    const l2_dram_req *d = l2_slice_dram_peek(&s_, cycle);
    if (!d || !to_dram.can_send()) return;
    Gp *gp = pool_.get(d->is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, d->addr, d->bytes);
    gtlm_mem_ext &e = mem_ext(*gp);
    e.kind = d->ext ? MemKind::ExtLlc : dram_kind(d->kind);
    // A read a prefetch's miss queued stays a prefetch below the L2 (d->cookie: that request).
    const Gp *from = !d->ext && d->kind == CACHE_OUT_READ && d->cookie ? reinterpret_cast<const Gp *>(static_cast<uintptr_t>(d->cookie)) : nullptr;
    if (from && mem_ext(*from).kind == MemKind::Prefetch) {
        e.kind = MemKind::Prefetch;
        s_.st.pf_dram_reads++;
    }
    e.sector_mask = d->sector_mask;
    e.dst = static_cast<uint32_t>(id_);
    e.issue_cycle = cycle;
    l2_slice_dram_pop(&s_, nullptr);
    to_dram.send(*gp); // may respond at once (on_dram_response)
}

void L2Slice::send_response(uint64_t cycle)
{
    const l2_rsp *r = l2_slice_rsp_peek(&s_, cycle);
    if (!r || !from_icnt.can_respond()) return;
    Gp *gp = reinterpret_cast<Gp *>(static_cast<uintptr_t>(r->cookie));
    gp->set_response_status(tlm::TLM_OK_RESPONSE);
    mem_ext(*gp).l2_hit = r->hit;
    mem_ext(*gp).queued_at = r->ready * domain_.period().value(); // entered the response queue
    l2_slice_rsp_pop(&s_, nullptr);
    from_icnt.respond(*gp);
}

void L2Slice::tick(uint64_t cycle)
{
    if (to_dram.holds_response()) to_dram.take_held_response();
    l2_slice_tick(&s_, cycle);
    if (ctl_) ctl_->tick(cycle);
    send_to_dram(cycle);
    send_response(cycle);
    // Room freed in the ROP queue: take a held request (seen at the next edge).
    if (from_icnt.holds_request() && l2_slice_can_accept(&s_)) from_icnt.take_held_request();
}

uint64_t L2Slice::next_work(uint64_t cycle) const
{
    uint64_t w = l2_slice_next_work(&s_, cycle);
    if (ctl_) {
        uint64_t c = ctl_->next_work(cycle);
        if (c < w) w = c;
    }
    if (w <= cycle) return cycle;
    // Outputs already ready wait only for their channel.
    if (from_icnt.can_respond() && l2_slice_rsp_peek(&s_, cycle)) return cycle;
    if (to_dram.can_send() && l2_slice_dram_peek(&s_, cycle)) return cycle;
    if (from_icnt.holds_request() && l2_slice_can_accept(&s_)) return cycle;
    if (to_dram.holds_response()) return cycle;
    return w == L2_NEVER ? kNever : w;
}

void L2Slice::describe(std::string &out) const
{
    if (!busy()) return;
    strbuf sb;
    strbuf_init(&sb);
    l2_slice_describe(&s_, &sb);
    out += name();
    out += ": ";
    out += strbuf_str(&sb);
    if (from_icnt.holds_request()) out += ", a request held at the input";
    if (!from_icnt.can_respond()) out += ", waiting for END_RESP";
    if (!to_dram.can_send()) out += ", waiting for DRAM END_REQ";
    out += '\n';
    strbuf_free(&sb);
}

bool L2Slice::busy() const
{
    return l2_slice_busy(&s_) || from_icnt.holds_request() || pool_.in_use() > 0 || (ctl_ && ctl_->busy());
}

void L2Slice::register_stats(stat_registry *r)
{
    std::string base = "gpu.l2[" + std::to_string(id_) + "].";
    l2_slice_stats &st = s_.st;
    struct Row {
        const char *leaf;
        uint64_t *src;
        const char *unit;
        const char *desc;
    };
    const Row rows[] = {
        {"accesses", &st.accesses, "accesses",
         "tag lookups, reservation failures (retried) included (GPGPU-Sim's accesses exclude them: gpu.l2.accepted)"},
        {"reads", &st.reads, "accesses", "reads (loads, prefetches) that passed the tag stage"},
        {"writes", &st.writes, "accesses", "writes (stores, L1 write-backs) that passed the tag stage"},
        {"atomics", &st.atomics, "accesses", "atomics that passed the tag stage"},
        {"hits", &st.hits, "accesses", "tag lookups that hit (GPGPU-Sim's: writes to absent or pending sectors of a present line are not)"},
        {"served_hits", &st.served_hits, "accesses", "tag lookups served as hits (the power model's data-array reads)"},
        {"hit_reserved", &st.hit_reserved, "accesses", "tag lookups merged into a pending MSHR"},
        {"misses", &st.misses, "accesses", "tag lookups that missed"},
        {"reservation_fails", &st.reservation_fails, "attempts", "tag lookups refused by the cache (retried)"},
        {"res_fail_line_alloc", &st.res_fail[CACHE_FAIL_LINE_ALLOC], "attempts", "refused: every way reserved"},
        {"res_fail_mshr_entry", &st.res_fail[CACHE_FAIL_MSHR_ENTRY], "attempts", "refused: no free MSHR"},
        {"res_fail_mshr_merge", &st.res_fail[CACHE_FAIL_MSHR_MERGE], "attempts", "refused: MSHR merge limit"},
        {"res_fail_miss_queue", &st.res_fail[CACHE_FAIL_MISS_QUEUE], "attempts", "refused: miss queue full"},
        {"rop_stall_cycles", &st.rop_stall_cycles, "cycles", "L2 cycles a ready request waited for the tag stage"},
        {"rop_full", &st.rop_full, "requests", "interconnect requests held because the ROP queue was full"},
        {"forwarded", &st.forwarded, "requests", "requests the L2-side controller forwarded"},
        {"dram_reads", &st.dram_reads, "requests", "reads sent towards DRAM"},
        {"dram_writes", &st.dram_writes, "requests", "writes sent towards DRAM (write-backs included)"},
        {"writebacks", &st.writebacks, "requests", "dirty L2 lines written back"},
        {"port_busy_cycles", &st.port_busy_cycles, "cycles", "L2 cycles the data port was in use"},
        {"evictions", &s_.cache.st.evictions, "lines", "valid lines evicted"},
        {"sector_misses", &s_.cache.st.sector_misses, "accesses", "misses on a line whose tag was present"},
    };
    for (const Row &row : rows)
        if (stat_add_counter(r, (base + row.leaf).c_str(), row.src, row.unit, row.desc, nullptr) < 0)
            throw Error(GTLM_ST_ECONFIG, "cannot register statistic " + base + row.leaf);
    if (s_.cache.mclass && // -gtlm_dl2_miss_classes
        (register_miss_class_stats(r, base, s_.cache.mclass) ||
         (id_ == 0 && register_miss_class_totals(r, "gpu.l2.", "gpu.l2[*]."))))
        throw Error(GTLM_ST_ECONFIG, "cannot register the miss-class statistics of " + base);
    if (register_pm_stats(r, base + "power.lines.", &s_.cache.pm) != 0 ||
        register_resq_stats(r, base + "power.lines.", &s_.cache) != 0)
        throw Error(GTLM_ST_ECONFIG, "cannot register the power-mode statistics of " + base);
}

// Only with an L1 prefetcher: other runs keep their statistics.
void L2Slice::register_prefetch_stats(stat_registry *r)
{
    std::string base = "gpu.l2[" + std::to_string(id_) + "].prefetch.";
    l2_slice_stats &st = s_.st;
    const struct {
        const char *leaf;
        uint64_t *src;
        const char *unit;
        const char *desc;
    } rows[] = {
        {"reads", &st.pf_reads, "accesses", "L1 prefetch reads that passed the tag stage (in reads too)"},
        {"hits", &st.pf_hits, "accesses", "... that hit"},
        {"hit_reserved", &st.pf_hit_reserved, "accesses", "... merged into a pending MSHR"},
        {"misses", &st.pf_misses, "accesses", "... that missed"},
        {"dram_reads", &st.pf_dram_reads, "requests", "DRAM reads a prefetch's miss sent (in dram_reads too)"},
        {"bytes", &st.pf_bytes, "bytes", "data requested by prefetch reads"},
    };
    for (const auto &row : rows)
        if (stat_add_counter(r, (base + row.leaf).c_str(), row.src, row.unit, row.desc, nullptr) < 0)
            throw Error(GTLM_ST_ECONFIG, "cannot register statistic " + base + row.leaf);
}

} // namespace gtlm
