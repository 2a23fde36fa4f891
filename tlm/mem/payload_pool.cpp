#include "mem/payload_pool.h"

namespace gtlm {

PayloadPool::~PayloadPool()
{
    // Extensions are owned by exts_; detach them so the payloads' destructors do not free them.
    for (auto &gp : all_) gp->clear_extension<gtlm_mem_ext>();
}

tlm::tlm_generic_payload *PayloadPool::get(tlm::tlm_command cmd, uint64_t addr, uint32_t bytes)
{
    tlm::tlm_generic_payload *gp;
    if (free_.empty()) {
        all_.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
        exts_.push_back(std::make_unique<gtlm_mem_ext>());
        gp = all_.back().get();
        gp->set_extension(exts_.back().get());
    } else {
        gp = free_.back();
        free_.pop_back();
        *gp->get_extension<gtlm_mem_ext>() = gtlm_mem_ext();
    }
    gp->set_command(cmd);
    gp->set_address(addr);
    gp->set_data_length(bytes);
    // The data pointer must be valid for the data length (base protocol); gtlm moves no data.
    gp->set_data_ptr(scratch_);
    gp->set_streaming_width(bytes);
    gp->set_byte_enable_ptr(nullptr);
    gp->set_byte_enable_length(0);
    gp->set_dmi_allowed(false);
    gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp->acquire();
    return gp;
}

void PayloadPool::free(tlm::tlm_generic_payload *gp)
{
    free_.push_back(gp);
}

} // namespace gtlm
