#include "llc/morpheus.h"
#include "rtl/rtl_blocks.h"

#include <string>

extern "C" {
#include "common/status.h"
#include "llc/sm_modes.h"
}

#include "kernel/error.h"
#include "mem/mem_ext.h"

namespace gtlm {

Morpheus::Morpheus(const gtlm_config &cfg, const std::vector<uint8_t> &modes, const std::vector<L2Slice *> &slices,
                   stat_registry *stats, Icnt *icnt, ClockDomain *l2)
{
    const llc_config &c = cfg.morpheus;
    for (size_t i = 0; i < modes.size(); i++)
        if (modes[i] == SM_MODE_CACHE) cache_sms_.push_back(static_cast<int>(i));
    uint32_t n_cache = static_cast<uint32_t>(cache_sms_.size());
    uint32_t n_slices = static_cast<uint32_t>(slices.size());
    double l2_mhz = cfg.gpu.clocks.l2_mhz;
    uint32_t warp_regs = cfg.sm.registers >= 32 ? static_cast<uint32_t>(cfg.sm.registers) / 32 : 1;
    if (ellc_init(&srv_, &c, n_cache, warp_regs, static_cast<uint32_t>(cfg.sm.max_regs_per_thread), n_slices, l2_mhz) != 0)
        throw Error(GTLM_ST_ECONFIG, "Morpheus: the extended LLC cannot be built (a storage variant with no block "
                                     "per set: check -morpheus_storage, -morpheus_warps and the capacities)");
    if (ext_link_init(&link_, n_slices, n_cache, static_cast<uint32_t>(cfg.noc.flit_size),
                      static_cast<uint32_t>(cfg.noc.latency), l2_mhz, cfg.gpu.clocks.icnt_mhz) != 0)
        throw Error(GTLM_ST_ENOMEM, "Morpheus: out of memory");
    for (uint32_t j = 0; j < n_slices; j++) {
        auto ctl = std::make_unique<Ctl>();
        ctl->slice = slices[j];
        const l2_slice &s = slices[j]->core();
        mctl_params p{};
        p.slice = j;
        p.n_slices = n_slices;
        p.line = static_cast<uint32_t>(s.p.dl2.line_size);
        p.f_conv = static_cast<uint64_t>(s.cache.nsets) * static_cast<uint64_t>(s.cache.assoc);
        p.ctl_cycles = c.ctl_latency < 0 ? static_cast<uint32_t>(s.p.rop_cycles)
                                         : static_cast<uint32_t>(l2_core_to_l2_cycles(c.ctl_latency, cfg.gpu.clocks.core_mhz, l2_mhz));
        p.depth = static_cast<uint32_t>(c.queue_depth);
        p.input_cap = p.ctl_cycles + L2_ROP_EXTRA;
        p.wst_rows = static_cast<uint32_t>(c.wst_rows);
        p.header = kMemCtrlBytes;
        p.rbuf = c.buffer_stall ? static_cast<uint32_t>(c.rbuf_entries) : 0;
        p.wbuf = c.buffer_stall ? static_cast<uint32_t>(c.wbuf_entries) : 0;
        uint32_t rows = 0;
        if (mctl_init(&ctl->m, &p, &c, ellc_server_backend(&srv_), &link_, srv_.n_sets, srv_.warps, &rows) != 0)
            throw Error(GTLM_ST_ECONFIG, "Morpheus: L2 slice " + std::to_string(j) + " would home " + std::to_string(rows) +
                                             " extended sets, more than -morpheus_wst_rows " + std::to_string(c.wst_rows) +
                                             " (fewer cache-mode SMs or warps, or more rows)");
        ctl->m.bp.name = "morpheus controller";
        std::string why;
        if (c.rtl_bloom && rtl_bloom_attach(&ctl->m.bp, std::string(slices[j]->name()) + ".bloom", cfg.gpu.vcd_file, why) != 0)
            throw Error(GTLM_ST_ECONFIG, "-rtl_bloom: " + why);
        if (j == 0 && c.rtl_record_bloom && c.rtl_record_bloom[0] && rtl_bloom_record(&ctl->m.bp, c.rtl_record_bloom, why) != 0)
            throw Error(GTLM_ST_ECONFIG, "-rtl_record_bloom: " + why);
        ctls_.push_back(std::move(ctl));
    }
    noc_ = std::make_unique<ExtNoc>("morpheus_noc", &link_, n_slices, n_cache, stats);
    if (c.noc_xbar && icnt && l2) { // the legs contend with compute packets in the crossbar
        noc_->route_through(*icnt, *l2, cache_sms_, stats);
        // A leg that reached its far end brings work to the controller's slice: the backend's
        // completion (and a freed write data buffer entry), or the warp's result.
        noc_->arrived_at_sm = [this, l2, slices](const morpheus_ext &x) {
            mctl_request_arrived(&ctls_[x.ctl]->m, x.q.tag, x.at);
            l2->wake_at(x.at, slices[x.ctl]);
        };
        noc_->arrived_at_ctl = [l2, slices](const morpheus_ext &x) { l2->wake_at(x.at, slices[x.ctl]); };
    }
    auto link = [this, &cfg](auto &from, auto &to, const std::string &name) { // through a checker when asked
        if (!cfg.gpu.check_protocol) {
            from.bind(to);
            return;
        }
        checkers_.push_back(std::make_unique<ProtocolChecker>(("check_" + name).c_str()));
        checkers_.back()->insert(from, to);
    };
    for (uint32_t k = 0; k < n_cache; k++) {
        ext_sms_.push_back(std::make_unique<ExtLlcSm>(("sm_ext_llc_" + std::to_string(cache_sms_[k])).c_str(),
                                                      ellc_server_backend(&srv_), k));
        link(noc_->to_sm[k]->socket, ext_sms_[k]->from_noc.socket, "noc2ext_sm_" + std::to_string(k));
    }
    for (uint32_t j = 0; j < n_slices; j++) {
        ports_.push_back(std::make_unique<MctlPort>(("morpheus_ctl_" + std::to_string(j)).c_str(), &ctls_[j]->m, j));
        link(ports_[j]->to_noc.socket, noc_->from_ctl[j]->socket, "mctl2noc_" + std::to_string(j));
        ctls_[j]->m.net = mctl_net{this, net_to_sm, net_to_ctl};
    }
    fronts_.resize(n_slices);
    for (uint32_t j = 0; j < n_slices; j++) {
        fronts_[j] = mctl_front(&ctls_[j]->m);
        l2_slice_set_front(&slices[j]->core(), &fronts_[j]);
        slices[j]->set_controller(ctls_[j].get());
    }
    bdi_base_ = static_cast<uint32_t>(c.bdi_base_bytes);
    llc_storage_bits sb = llc_storage_report(&c, static_cast<int>(modes.size()), c.addr_bits);
    uint64_t per_part = sb.total * static_cast<uint64_t>(cfg.gpu.sub_partitions_per_channel);
    storage_ = {sb.bloom, sb.wst, sb.queue, sb.rbuf, sb.wbuf, sb.total, per_part};
    if (stats) register_stats(stats);
}

void Morpheus::set_memory(dmem *mem)
{
    mem_ = mem;
    for (auto &c : ctls_) {
        c->m.block_bytes = srv_.compress && mem ? block_bytes : nullptr;
        c->m.block_ctx = this;
    }
}

int Morpheus::net_to_sm(void *ctx, uint32_t ctl, uint32_t rank, uint64_t send, uint32_t bytes, const ellc_req *q,
                        uint64_t *arrive)
{
    Morpheus *m = static_cast<Morpheus *>(ctx);
    return m->ports_[ctl]->send(rank, static_cast<uint32_t>(m->cache_sms_[rank]), send, bytes, *q, arrive) ? 0 : -1;
}

void Morpheus::net_to_ctl(void *ctx, uint32_t rank, uint32_t ctl, uint32_t bytes, const ellc_done *d)
{
    static_cast<Morpheus *>(ctx)->ext_sms_[rank]->reply(ctl, bytes, *d);
}

uint64_t Morpheus::checked_transactions() const
{
    uint64_t n = 0;
    for (const auto &c : checkers_) n += c->checked();
    return n;
}

uint32_t Morpheus::block_bytes(void *ctx, uint64_t line_addr)
{
    const Morpheus *m = static_cast<const Morpheus *>(ctx);
    uint8_t blk[128];
    dmem_read(m->mem_, line_addr, blk, sizeof blk);
    return bdi_bytes(bdi_classify(blk, sizeof blk), sizeof blk, m->bdi_base_);
}

double Morpheus::end_writebacks(const stat_registry *, stat_scope, const void *ctx)
{
    const EndWb *w = static_cast<const EndWb *>(ctx);
    uint64_t n = 0;
    for (uint32_t k = 0; k < w->m->srv_.n_sms; k++)
        if (w->rank < 0 || static_cast<uint32_t>(w->rank) == k) n += ellc_dirty_lines(&w->m->srv_, k);
    return static_cast<double>(n);
}

Morpheus::~Morpheus()
{
    for (auto &c : ctls_) {
        c->slice->set_controller(nullptr);
        l2_slice_set_front(&c->slice->core(), nullptr);
        mctl_free(&c->m);
    }
    ext_link_free(&link_);
    ellc_free(&srv_);
}

void Morpheus::register_stats(stat_registry *r)
{
    auto add = [r](const std::string &path, uint64_t *src, const char *unit, const char *desc) {
        if (stat_add_counter(r, path.c_str(), src, unit, desc, nullptr) < 0)
            throw Error(GTLM_ST_ECONFIG, "cannot register statistic " + path);
    };
    auto sum = [r](const std::string &path, const std::string &pattern, const char *unit, const char *desc) {
        if (stat_add_sum(r, path.c_str(), pattern.c_str(), unit, desc, nullptr) < 0)
            throw Error(GTLM_ST_ECONFIG, "cannot register statistic " + path);
    };
    for (size_t j = 0; j < ctls_.size(); j++) {
        mctl &m = ctls_[j]->m;
        std::string b = "gpu.l2[" + std::to_string(j) + "].morpheus.";
        const struct {
            const char *leaf;
            uint64_t *src;
            const char *unit, *desc;
        } rows[] = {
            {"requests", &m.st.requests, "requests", "requests the address separator sent to the extended LLC"},
            {"reads", &m.st.reads, "requests", "extended reads past the predictor"},
            {"writes", &m.st.writes, "requests", "extended writes past the predictor"},
            {"atomics", &m.st.atomics, "requests", "extended atomics (always to the owning warp)"},
            {"ext_hits", &m.st.ext_hits, "requests", "requests the cache-mode SM found"},
            {"ext_misses", &m.st.ext_misses, "requests", "requests forwarded to a cache-mode SM that missed"},
            {"fills", &m.st.fills, "lines", "lines filled into the extended LLC"},
            {"writebacks", &m.st.writebacks, "lines", "dirty extended lines written back to DRAM"},
            {"dram_reads", &m.st.dram_reads, "requests", "controller reads sent to DRAM (predicted and real misses)"},
            {"dram_writes", &m.st.dram_writes, "requests", "controller writes to DRAM (write misses, write-backs)"},
            {"dispatched", &m.st.dispatched, "requests", "operations sent to the cache-mode SMs (fills included)"},
            {"queue_cycles", &m.st.queue_cycles, "cycles", "L2 cycles operations waited in the request queue"},
            {"predictor_stalls", &m.st.predictor_stalls, "cycles", "cycles the predictor waited for request-queue room"},
            {"max_queue", &m.st.max_queue, "entries", "largest request-queue occupancy"},
            {"merged", &m.st.merged, "requests", "reads merged into a pending read of their line"},
            {"hit_served", &m.st.hit_served, "requests", "requests served by extended hits (writes and merged reads included)"},
            {"rbuf_stall_cycles", &m.st.rbuf_stalls, "cycles", "cycles hit results waited for a read data buffer entry (summed)"},
            {"wbuf_stall_cycles", &m.st.wbuf_stalls, "cycles", "cycles a write or atomic waited for a write data buffer entry"},
            {"pred.predictions", &m.bp.st.predictions, "requests", "hit/miss predictions"},
            {"pred.true_positives", &m.bp.st.true_positives, "requests", "predicted hits that hit"},
            {"pred.false_positives", &m.bp.st.false_positives, "requests", "predicted hits that missed"},
            {"pred.true_negatives", &m.bp.st.true_negatives, "requests", "predicted misses (always true misses)"},
            {"pred.false_negatives", &m.bp.st.false_negatives, "requests", "predicted misses of resident lines (must be 0)"},
            {"pred.swaps", &m.bp.st.swaps, "events", "Bloom filter swaps (BF1 cleared, roles exchanged)"},
        };
        for (const auto &row : rows) add(b + row.leaf, row.src, row.unit, row.desc);
    }
    for (size_t k = 0; k < cache_sms_.size(); k++) {
        ellc_sm_stats &s = srv_.st[k];
        std::string b = "gpu.sm[" + std::to_string(cache_sms_[k]) + "].ext_llc.";
        add(b + "accesses", &s.accesses, "requests", "extended-LLC reads, writes and atomics served");
        add(b + "hits", &s.hits, "requests", "of those, hits");
        add(b + "misses", &s.misses, "requests", "of those, misses");
        add(b + "fills", &s.fills, "lines", "lines inserted");
        add(b + "writebacks", &s.writebacks, "lines", "dirty victims written back");
        add(b + "busy_cycles", &s.busy_cycles, "cycles", "L2 cycles its warps served requests (summed over warps)");
        add(b + "queue_cycles", &s.queue_cycles, "cycles", "L2 cycles requests waited for a busy warp");
        add(b + "bytes", &s.bytes, "bytes", "data moved in or out of its storage");
        if (srv_.compress) {
            add(b + "bdi_high", &s.bdi_high, "blocks", "blocks stored at BDI's high level (1-byte deltas)");
            add(b + "bdi_low", &s.bdi_low, "blocks", "blocks stored at BDI's low level (2-byte deltas)");
        }
    }
    // Application end (G24): the dirty lines the helper kernels write back, counted (off the
    // critical path), per cache-mode SM and in total.
    end_wb_.reserve(cache_sms_.size() + 1);
    auto derived = [r](const std::string &path, stat_derive_fn fn, const void *ctx, const char *unit, const char *desc) {
        if (stat_add_derived(r, path.c_str(), fn, ctx, unit, desc, nullptr) < 0)
            throw Error(GTLM_ST_ECONFIG, "cannot register statistic " + path);
    };
    for (size_t k = 0; k < cache_sms_.size(); k++) {
        end_wb_.push_back(EndWb{this, static_cast<int>(k)});
        derived("gpu.sm[" + std::to_string(cache_sms_[k]) + "].ext_llc.end_writebacks", end_writebacks, &end_wb_.back(),
                "lines", "dirty lines it holds now: written back to DRAM at the application's end");
    }
    end_wb_.push_back(EndWb{this, -1});
    derived("gpu.morpheus.end_writebacks", end_writebacks, &end_wb_.back(), "lines",
            "dirty extended-LLC lines written back to DRAM at the application's end (every cache-mode SM)");
    derived("gpu.morpheus.end_writeback_bytes",
            [](const stat_registry *reg, stat_scope sc, const void *v) {
                return end_writebacks(reg, sc, v) * static_cast<const EndWb *>(v)->m->ctls_[0]->m.p.line;
            },
            &end_wb_.back(), "bytes", "their DRAM write traffic (whole lines)");
    // Storage of one controller (§7.5, G6) and of a memory partition (its slices' controllers).
    const char *parts[] = {"bloom", "wst", "queue", "rbuf", "wbuf", "total"};
    for (size_t i = 0; i < 6; i++)
        derived(std::string("gpu.morpheus.storage.") + parts[i] + "_bits",
                [](const stat_registry *, stat_scope, const void *v) { return static_cast<double>(*static_cast<const uint64_t *>(v)); },
                &storage_[i], "bits", "storage of one Morpheus controller (L2 slice)");
    derived("gpu.morpheus.storage.partition_kib",
            [](const stat_registry *, stat_scope, const void *v) { return static_cast<double>(*static_cast<const uint64_t *>(v)) / 8192.0; },
            &storage_[6], "KiB", "storage of the Morpheus controllers of one memory partition");
    for (const char *leaf : {"requests", "dispatched", "ext_hits", "ext_misses", "fills", "writebacks", "dram_reads", "dram_writes",
                             "pred.true_positives", "pred.false_positives", "pred.true_negatives", "pred.false_negatives",
                             "pred.swaps"})
        sum(std::string("gpu.morpheus.") + leaf, std::string("gpu.l2[*].morpheus.") + leaf, "events",
            "summed over the L2 slices' Morpheus controllers");
}

void register_llc_throughput(stat_registry *r)
{
    int a = stat_add_sum(r, "gpu.llc.conv_hits", "gpu.l2[*].hits", "accesses", "conventional LLC hits (the L2 slices')", nullptr);
    int b = stat_add_sum(r, "gpu.llc.ext_hits", "gpu.l2[*].morpheus.hit_served", "requests",
                         "requests the extended LLC served with a hit (reads, writes, atomics)", nullptr);
    // conv + ext, looked up when read (statistics are read at the ends of kernels only)
    int h = a < 0 || b < 0 ? -1
                           : stat_add_derived(
                                 r, "gpu.llc.hits",
                                 [](const stat_registry *reg, stat_scope sc, const void *) {
                                     return stat_value(reg, stat_find(reg, "gpu.llc.conv_hits"), sc) +
                                            stat_value(reg, stat_find(reg, "gpu.llc.ext_hits"), sc);
                                 },
                                 nullptr, "requests", "LLC hits, conventional + extended (§7.4's LLC throughput)",
                                 nullptr);
    if (h < 0 || stat_add_ratio(r, "gpu.llc.throughput", "gpu.llc.hits", "gpu.cycles", "hits/cycle",
                                "LLC throughput: conventional + extended LLC hits per core cycle", nullptr) < 0)
        throw Error(GTLM_ST_ECONFIG, "cannot register the LLC throughput statistics");
}

} // namespace gtlm
