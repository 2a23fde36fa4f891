// A pool of generic payloads, each with a gtlm_mem_ext attached, recycled through TLM-2.0's
// memory-manager interface: whoever creates a transaction acquire()s it from its pool, every
// holder may acquire()/release() it, and the last release() returns it here. Nothing is freed
// until the pool dies, so steady-state simulation allocates nothing.
#ifndef GTLM_TLM_PAYLOAD_POOL_H
#define GTLM_TLM_PAYLOAD_POOL_H

#include <memory>
#include <vector>

#include <tlm>

#include "mem/mem_ext.h"

namespace gtlm {

class PayloadPool : public tlm::tlm_mm_interface {
public:
    static constexpr uint32_t kMaxBytes = 1024; // largest data length a gtlm transaction moves
    PayloadPool() = default;
    ~PayloadPool() override;
    PayloadPool(const PayloadPool &) = delete;
    PayloadPool &operator=(const PayloadPool &) = delete;

    // A fresh payload (reference count 1, extension zeroed, response status incomplete).
    tlm::tlm_generic_payload *get(tlm::tlm_command cmd, uint64_t addr, uint32_t bytes);
    void free(tlm::tlm_generic_payload *gp) override;

    size_t in_use() const { return all_.size() - free_.size(); }
    size_t allocated() const { return all_.size(); }

private:
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> all_;
    std::vector<tlm::tlm_generic_payload *> free_;
    std::vector<std::unique_ptr<gtlm_mem_ext>> exts_;
    unsigned char scratch_[kMaxBytes] = {};
};

inline gtlm_mem_ext &mem_ext(tlm::tlm_generic_payload &gp) { return *gp.get_extension<gtlm_mem_ext>(); }
inline const gtlm_mem_ext &mem_ext(const tlm::tlm_generic_payload &gp) { return *gp.get_extension<gtlm_mem_ext>(); }

} // namespace gtlm

#endif
