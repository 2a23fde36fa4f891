// Morpheus (issue 21): the extended LLC served by the cache-mode SMs and one Morpheus controller in
// front of every L2 slice, built only when the run has cache-mode SMs (-morpheus_cache_sms or
// -morpheus_cache_sm_list). Each controller (model/llc/mctl.h) is installed through the slice's
// controller seam: the front hook (address separator) and an L2Controller ticked with the slice,
// whose DRAM traffic goes through the slice's DRAM socket. The controller <-> cache-mode SM packets
// cross the compute SMs' crossbar (-morpheus_noc_xbar 1, contending with compute packets) or a
// private link timed by model/llc/ext_link.h (0). The cache-mode SMs are the server model (model/llc/ext_llc.h) behind the
// ellc_backend interface, which the executed helper kernel will implement. The packets between the
// controllers and the cache-mode SMs are TLM-2.0 transactions (llc/ext_noc.h): each controller's
// MctlPort, the interconnect's ExtNoc, each cache-mode SM's ExtLlcSm.
// Statistics: gpu.l2[j].morpheus.*, gpu.sm[i].ext_llc.*, totals gpu.morpheus.*.
#ifndef GTLM_TLM_MORPHEUS_H
#define GTLM_TLM_MORPHEUS_H

#include <memory>
#include <vector>

extern "C" {
#include "gpu/gpu_config.h"
#include "llc/ext_link.h"
#include "llc/bdi.h"
#include "llc/ext_llc.h"
#include "mem/dmem.h"
#include "llc/llc_baselines.h"
#include "llc/mctl.h"
#include "stats/stats.h"
}

#include "icnt/icnt.h"
#include "l2/l2_module.h"
#include "check/protocol_checker.h"
#include "llc/ext_noc.h"

namespace gtlm {

// LLC throughput (§7.4, conventional + extended): gpu.llc.conv_hits (the L2 slices' hits),
// gpu.llc.ext_hits (requests answered by extended hits; 0 without Morpheus), gpu.llc.hits and
// gpu.llc.throughput = hits per core cycle. Registered with Morpheus, or with -morpheus_llc_stats 1.
void register_llc_throughput(stat_registry *r);

class Morpheus {
public:
    // modes: every SM's sm_mode. Throws Error(GTLM_ST_ECONFIG) when a slice homes more extended
    // sets than -morpheus_wst_rows.
    // icnt, l2: the compute crossbar and the L2 clock (-morpheus_noc_xbar 1 routes the controller <->
    // cache-mode SM packets through it; null: the private ext_link).
    Morpheus(const gtlm_config &cfg, const std::vector<uint8_t> &modes, const std::vector<L2Slice *> &slices,
             stat_registry *stats, Icnt *icnt = nullptr, ClockDomain *l2 = nullptr);
    ~Morpheus();
    Morpheus(const Morpheus &) = delete;
    Morpheus &operator=(const Morpheus &) = delete;

    int n_cache_sms() const { return static_cast<int>(cache_sms_.size()); }
    const mctl &controller(int j) const { return ctls_[static_cast<size_t>(j)]->m; }
    const ellc_server &server() const { return srv_; }
    const ExtNoc &noc() const { return *noc_; }
    // Transactions the protocol checkers of its links saw complete (-gtlm_check_protocol; else 0).
    uint64_t checked_transactions() const;
    // Waveform observables: the controllers and the packets between them and the cache-mode SMs.
    void observe(ProbeList &out) const;
    // Compression (-morpheus_compression): the device memory whose data BDI classifies (a launch's);
    // without it (trace-driven runs) every block is stored uncompressed.
    void set_memory(dmem *mem);

private:
    struct Ctl : L2Controller {
        mctl m{};
        L2Slice *slice = nullptr;
        void tick(uint64_t cycle) override { mctl_tick(&m, &slice->core(), cycle); }
        uint64_t next_work(uint64_t cycle) const override { return mctl_next_work(&m, &slice->core(), cycle); }
        void dram_done(uint64_t addr, uint64_t cycle) override { mctl_dram_done(&m, addr, cycle); }
        bool busy() const override { return mctl_busy(&m) != 0; }
    };
    void register_stats(stat_registry *r);

    struct EndWb { // a derived statistic's context: dirty lines of one rank (-1: all) at the end
        const Morpheus *m;
        int rank;
    };
    static double end_writebacks(const stat_registry *, stat_scope, const void *ctx);

    static uint32_t block_bytes(void *ctx, uint64_t line_addr);
    dmem *mem_ = nullptr;
    uint32_t bdi_base_ = 4;

    std::vector<int> cache_sms_; // SM id of each cache-mode rank
    std::vector<EndWb> end_wb_;
    std::vector<uint64_t> storage_; // storage report (bits), llc_storage_report's order
    ellc_server srv_{};
    ext_link link_{};
    std::vector<std::unique_ptr<Ctl>> ctls_;
    std::vector<l2_front> fronts_;
    // The packets' sockets (ext_noc.h); mctl_net hooks into them.
    static int net_to_sm(void *ctx, uint32_t ctl, uint32_t rank, uint64_t send, uint32_t bytes, const ellc_req *q,
                         uint64_t *arrive);
    static void net_to_ctl(void *ctx, uint32_t rank, uint32_t ctl, uint32_t bytes, const ellc_done *d);
    std::unique_ptr<ExtNoc> noc_;
    std::vector<std::unique_ptr<MctlPort>> ports_;
    std::vector<std::unique_ptr<ExtLlcSm>> ext_sms_;
    std::vector<std::unique_ptr<ProtocolChecker>> checkers_; // -gtlm_check_protocol: on every link
};

} // namespace gtlm

#endif
