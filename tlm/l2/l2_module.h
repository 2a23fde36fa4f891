// One L2 slice (memory sub-partition) as a SystemC module around the C core model/l2/l2_slice.h,
// ticked by the L2 clock domain.
//
//   from_icnt (AtTarget): requests from the interconnect; responses back on the same socket.
//     A request is seen at the next L2 edge; when the ROP queue is full it is held (END_REQ
//     withheld) and taken once a request left the queue. Responses leave in the core's order, one
//     per cycle, with TLM_OK_RESPONSE and mem_ext(gp).l2_hit set; while the previous response
//     waits for END_RESP the next one waits (retried at the next edge after END_RESP).
//   to_dram (AtInitiator): the slice's own transactions towards the DRAM channel, one per cycle,
//     from its own PayloadPool: reads (kind Load), writes passed down (Store) and write-backs of
//     dirty lines (Writeback). The channel responds to every request; a read's response is the
//     fill (seen at the next edge); every response releases its payload.
// The interconnect's payload pointers are the core's cookies: the slice never acquires or
// releases them. Statistics under gpu.l2[id].
#ifndef GTLM_TLM_L2_MODULE_H
#define GTLM_TLM_L2_MODULE_H

#include <string>

#include <systemc>

extern "C" {
#include "gpu/gpu_config.h"
#include "l2/l2_slice.h"
#include "stats/stats.h"
}

#include "kernel/clock_domain.h"
#include "wave/probe.h"
#include "mem/at_port.h"
#include "mem/payload_pool.h"

namespace gtlm {

// The active part of the L2-side controller seam (Morpheus): ticked right after the slice's core,
// asked for its next work, told about the DRAM responses of its own requests (l2_dram_req.ext,
// sent with gtlm_mem_ext kind ExtLlc). None: the slice behaves exactly as without the seam.
struct L2Controller {
    virtual ~L2Controller() = default;
    virtual void tick(uint64_t cycle) = 0;
    virtual uint64_t next_work(uint64_t cycle) const = 0; // kNever: nothing pending
    virtual void dram_done(uint64_t addr, uint64_t cycle) = 0;
    virtual bool busy() const = 0;
};

class L2Slice : public sc_core::sc_module, public Tickable {
public:
    // Throws Error(GTLM_ST_ECONFIG) when the L2 configuration cannot be built. stats may be null.
    // map: the GPU's address map, for the set index inside the sub-partition (may be null: the
    // full address; it must outlive the slice).
    L2Slice(sc_core::sc_module_name name, const gtlm_config &cfg, ClockDomain &l2_domain, int id,
            stat_registry *stats, const dram_addr_map *map = nullptr);
    ~L2Slice() override;

    AtTarget from_icnt;
    AtInitiator to_dram;

    void tick(uint64_t cycle) override;
    uint64_t next_work(uint64_t cycle) const override;
    void describe(std::string &out) const override;
    bool busy() const override;
    // Waveform observables (wave/probe.h), under its hierarchical name.
    void observe(ProbeList &out) const;

    int id() const { return id_; }
    // The C core: statistics, and the controller seam (l2_slice_set_front) for later techniques.
    l2_slice &core() { return s_; }
    const l2_slice &core() const { return s_; }
    size_t dram_payloads_in_use() const { return pool_.in_use(); }
    void set_controller(L2Controller *c) { ctl_ = c; }

private:
    bool on_request(Gp &gp, const sc_core::sc_time &arrival);
    bool on_dram_response(Gp &gp, const sc_core::sc_time &arrival);
    uint64_t visible_cycle(const sc_core::sc_time &arrival) const;
    void send_to_dram(uint64_t cycle);
    void send_response(uint64_t cycle);
    void register_stats(stat_registry *r);
    void register_prefetch_stats(stat_registry *r);

    ClockDomain &domain_;
    int id_;
    l2_slice s_;
    PayloadPool pool_;
    L2Controller *ctl_ = nullptr;
};

} // namespace gtlm

#endif
