// gtlm_mem_ext: the one payload extension of gtlm's memory system. It carries the GPU sideband
// of a memory transaction between SM, interconnect, L2 and DRAM (DESIGN.md §4).
//
// The generic payload itself holds the address (line or sector address), the command (read for
// loads and prefetches, write for stores and write-backs; atomics are writes with kind ATOMIC),
// the data length in bytes (the data moved: a read's size is what comes back) and, as TLM-2.0
// requires, a data pointer: gtlm is a timing model (values live in device memory and move at issue),
// so the pointer is to a scratch buffer nobody reads. A target that is not gtlm's may ignore the
// extension: everything it needs for timing is in the payload.
#ifndef GTLM_TLM_MEM_EXT_H
#define GTLM_TLM_MEM_EXT_H

#include <cstdint>

#include <tlm>

extern "C" {
#include "noc/noc_config.h"
}

namespace gtlm {

// What a transaction is for.
enum class MemKind : uint8_t {
    Load = 0,     // a read for an SM load (global, local, constant, texture)
    Store,        // a write from an SM store (write-through / write-evict / no-allocate miss)
    Atomic,       // a read-modify-write performed at the L2 (data comes back)
    Prefetch,     // a read the SM issued on its own (SAP, stride prefetchers)
    Writeback,    // a dirty line leaving a cache
    RegBackup,    // register backup/restore traffic (Linebacker's CTA throttling)
    ExtLlc        // a request the L2-side controller forwarded to an extended LLC (Morpheus)
};

const char *mem_kind_name(MemKind k);

struct gtlm_mem_ext : tlm::tlm_extension<gtlm_mem_ext> {
    // Written by the initiator (the SM, or the cache that creates a write-back), read-only after.
    uint32_t sm = 0;          // source SM (its interconnect port)
    uint32_t warp = 0;        // warp slot in that SM
    uint32_t cta = 0;         // CTA slot in that SM
    uint32_t pc = 0;          // instruction index of the memory instruction
    uint32_t pc_hash = 0;     // hashed PC (Linebacker's 5-bit hash and friends)
    MemKind kind = MemKind::Load;
    uint8_t bypass_hint = 0;  // 1: the requester did not allocate the line (L1 bypass)
    uint8_t sector_mask = 0;  // 32-byte sectors of the 128-byte line the request covers (0: all)
    uint64_t id = 0;          // the initiator's request identifier, returned in the response
    uint64_t issue_cycle = 0; // core cycle the request left the SM (latency statistics)
    // Kernel time (sc_time value) at which the packet entered its sender's queue: the SM's L1 miss
    // or bypass queue for a request, the L2 slice's response queue for a response (CBWT's
    // -cbwt_noc_src_queue); kNotQueued when the sender did not stamp it.
    static constexpr uint64_t kNotQueued = ~uint64_t{0};
    uint64_t queued_at = kNotQueued;
    // Written by the interconnect on the request path: destination memory sub-partition.
    uint32_t dst = 0;
    // Written by the L2 slice on the response path.
    uint8_t l2_hit = 0;

    tlm::tlm_extension_base *clone() const override;
    void copy_from(const tlm::tlm_extension_base &other) override;
};

// Interconnect packet sizes (bytes): a control header, plus the data a write carries on the
// request path or a read returns on the response path.
constexpr uint32_t kMemCtrlBytes = NOC_HEADER_BYTES;
uint32_t mem_request_bytes(const tlm::tlm_generic_payload &gp);
uint32_t mem_response_bytes(const tlm::tlm_generic_payload &gp);

} // namespace gtlm

#endif
